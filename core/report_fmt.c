/*
 * Numbers as fio prints them, and the figures both report writers derive
 * from a report entry.  Kept in one place so the normal and JSON reports
 * agree to the last digit; the formats themselves were learnt from fio's
 * output (fio 3.33), not from its sources.
 */
#include "report_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

const char *const ddir_name[DDIR_COUNT] = { "read", "write", "trim" };

const char *const depth_label[DEPTH_LEVELS] = { "1", "2", "4", "8", "16", "32", ">=64" };
const char *const batch_label[BATCH_LEVELS] = { "0", "4", "8", "16", "32", "64", ">=64" };

const char *const latdist_label[LATDIST_ALL] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",       /* ns */
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",       /* us */
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", /* ms */
	">=2000",
};

static const uint64_t latdist_base[] = { 2, 4, 10, 20, 50, 100, 250, 500, 750, 1000 };

/* fio's default clat percentile list. */
static const double default_pcts[] = {
	1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99,
};

static unsigned ndigits(uint64_t v)
{
	unsigned n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

void fmt_num(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2,
	     const char *unit)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const iec[] = { "", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei" };
	const uint64_t base = pow2 ? 1024 : 1000;
	uint64_t n = num;
	unsigned k = 0;
	int decimals;
	double v;

	while (ndigits(n) > maxlen && k < 6) {
		n /= base;
		k++;
	}
	if (k == 0) {
		snprintf(buf, len, "%" PRIu64 "%s", num, unit);
		return;
	}
	/*
	 * The decimals are decided from the truncated value and the rounding
	 * done after, so 99.999 MiB shows as "100.0MiB" exactly like fio.
	 */
	decimals = (int)maxlen - 1 - (int)ndigits(n);
	if (decimals < 0)
		decimals = 0;
	v = (double)num / pow((double)base, (double)k);
	snprintf(buf, len, "%.*f%s%s", decimals, v, pow2 ? iec[k] : si[k], unit);
}

struct lat_unit lat_unit_for_stat(uint64_t min_ns, double mean_ns)
{
	if (min_ns > 1000000 && mean_ns > 1000000.0)
		return (struct lat_unit){ "msec", 1000000 };
	if (min_ns > 1000 && mean_ns > 1000.0)
		return (struct lat_unit){ "usec", 1000 };
	return (struct lat_unit){ "nsec", 1 };
}

struct lat_unit lat_unit_for_pcts(uint64_t minv_ns, uint64_t maxv_ns)
{
	if (minv_ns > 2000000 && maxv_ns > 99999999)
		return (struct lat_unit){ "msec", 1000000 };
	if (minv_ns > 2000 && maxv_ns > 99999)
		return (struct lat_unit){ "usec", 1000 };
	return (struct lat_unit){ "nsec", 1 };
}

double report_pct(uint64_t part, uint64_t total)
{
	double p;

	if (part == 0 || total == 0)
		return 0.0;
	p = 100.0 * (double)part / (double)total;
	return p < 0.01 ? 0.01 : p;
}

double report_share(uint64_t part, uint64_t total)
{
	return total ? 100.0 * (double)part / (double)total : 0.0;
}

void report_latdist(const struct job_stats *st, double pct[LATDIST_ALL])
{
	uint64_t bound[LATDIST_ALL - 1];
	uint64_t below[LATDIST_ALL - 1];
	uint64_t total = 0, prev = 0;
	unsigned i;

	for (i = 0; i < 10; i++) {
		bound[i] = latdist_base[i];
		bound[10 + i] = latdist_base[i] * 1000;
		bound[20 + i] = latdist_base[i] * 1000000;
	}
	bound[30] = UINT64_C(2000) * 1000000;

	for (i = 0; i < LATDIST_ALL - 1; i++)
		below[i] = 0;
	for (int d = 0; d < DDIR_COUNT; d++) {
		const struct hist *h = &st->dir[d].lat.h;

		if (!h->count)
			continue;
		total += h->count;
		for (i = 0; i < LATDIST_ALL - 1; i++)
			below[i] += hist_count_below(h, bound[i]);
	}
	for (i = 0; i < LATDIST_ALL - 1; i++) {
		pct[i] = report_pct(below[i] - prev, total);
		prev = below[i];
	}
	pct[LATDIST_ALL - 1] = report_pct(total - prev, total);
}

uint64_t report_dir_runtime_ns(const struct job_stats *st, int ddir)
{
	return st->dir[ddir].ios ? st->runtime_ns : 0;
}

uint64_t report_dir_bw(const struct job_stats *st, int ddir)
{
	uint64_t rt = report_dir_runtime_ns(st, ddir);

	if (!rt)
		return 0;
	return (uint64_t)((double)st->dir[ddir].bytes * 1e9 / (double)rt);
}

double report_dir_iops(const struct job_stats *st, int ddir)
{
	uint64_t rt = report_dir_runtime_ns(st, ddir);

	if (!rt)
		return 0.0;
	return (double)st->dir[ddir].ios * 1e9 / (double)rt;
}

uint64_t report_ms(uint64_t ns)
{
	uint64_t ms = ns / 1000000;

	return (ns && !ms) ? 1 : ms;
}

const struct report_group *report_group_of(const struct report_model *m, uint32_t groupid)
{
	for (size_t i = 0; i < m->n_groups; i++)
		if (m->groups[i].groupid == groupid)
			return &m->groups[i];
	return NULL;
}

double report_bw_share(const struct report_model *m, const struct report_entry *e, int ddir)
{
	const struct report_group *g = report_group_of(m, e->groupid);
	double p;

	if (!g || !g->agg_bw[ddir] || !e->st->dir[ddir].bw_samples.n)
		return 0.0;
	p = 100.0 * e->st->dir[ddir].bw_samples.mean / (double)g->agg_bw[ddir];
	return p > 100.0 ? 100.0 : p;
}

bool report_entry_has(const struct report_entry *e, const struct job_result *r)
{
	if (e->job->o.group_reporting)
		return r->job->o.group_reporting && r->job->groupid == e->groupid;
	return r->job_id == e->job_id;
}

uint64_t report_entry_cpu_runtime_ns(const struct report_model *m, const struct report_entry *e)
{
	uint64_t sum = 0;

	for (size_t i = 0; i < m->run->n; i++)
		if (m->run->res[i].st && report_entry_has(e, &m->run->res[i]))
			sum += m->run->res[i].st->runtime_ns;
	return sum;
}

double report_cpu_pct(uint64_t cpu_ns, uint64_t runtime_ns)
{
	return runtime_ns ? 100.0 * (double)cpu_ns / (double)runtime_ns : 0.0;
}

uint32_t report_percentiles(const struct report_entry *e, const double **pcts)
{
	if (e->job->o.n_percentiles) {
		*pcts = e->job->o.percentiles;
		return e->job->o.n_percentiles;
	}
	*pcts = default_pcts;
	return sizeof(default_pcts) / sizeof(default_pcts[0]);
}

bool report_percentiles_default(const struct job_opts *o)
{
	const uint32_t n = sizeof(default_pcts) / sizeof(default_pcts[0]);

	if (!o->n_percentiles)
		return true;
	if (o->n_percentiles != n)
		return false;
	for (uint32_t i = 0; i < n; i++)
		if (fabs(o->percentiles[i] - default_pcts[i]) > 1e-9)
			return false;
	return true;
}

void fmt_time(char *buf, size_t len, int64_t unix_ms)
{
	time_t t = (time_t)(unix_ms / 1000);
	struct tm tm;

	if (!localtime_r(&t, &tm) || !strftime(buf, len, "%a %b %e %H:%M:%S %Y", &tm))
		snprintf(buf, len, "%" PRId64, unix_ms / 1000);
}

void fmt_size_option(char *buf, size_t len, uint64_t bytes)
{
	static const char sfx[] = "kmgtp";
	int k = -1;

	while (bytes && k < 4 && bytes % 1024 == 0) {
		bytes /= 1024;
		k++;
	}
	if (k < 0)
		snprintf(buf, len, "%" PRIu64, bytes);
	else
		snprintf(buf, len, "%" PRIu64 "%c", bytes, sfx[k]);
}

void fmt_duration_option(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *sfx;
		uint64_t ns;
	} u[] = {
		{ "h", UINT64_C(3600000000000) }, { "m", UINT64_C(60000000000) },
		{ "s", 1000000000 }, { "ms", 1000000 }, { "us", 1000 },
	};

	for (size_t i = 0; i < sizeof(u) / sizeof(u[0]); i++) {
		if (ns && ns % u[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / u[i].ns, u[i].sfx);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64 "ns", ns);
}
