/*
 * The human report, in fio's "normal" layout (as fio 3.33 prints it), so a
 * fio user reads it at a glance and scripts that grep fio's lines keep
 * working.  Differences, on purpose:
 *  - "pid=" is the iorig process id: jobs are threads of one process and a
 *    result does not keep a thread id;
 *  - the date is when the run ended (start + elapsed), not when printed;
 *  - no "; 0 zone resets" after write lines (zones are not tracked);
 *  - "Disk stats" util is the share of the whole run (start to end) the
 *    device was busy, read from /sys/block/<dev>/stat twice;
 *  - "lat (nsec/usec/msec)" distributions come from the total-latency
 *    histogram, exact to one histogram bucket (< 0.4%);
 *  - the "fsync/fdatasync/sync_file_range" block counts the syncs the JSON
 *    "sync" object does (report_json.c), and the fourth "issued rwts"
 *    figure is every sync done, ramp included, fdatasync's too (fio puts
 *    those under "short=").
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "report_fmt.h"
#include "verify_report.h"

static void print_lat(FILE *f, const char *name, const struct runstat *rs)
{
	struct lat_unit u;
	char minb[32], maxb[32];

	if (!rs->n)
		return;
	u = lat_unit_for_stat(rs->min, rs->mean);
	fmt_num(minb, sizeof(minb), rs->min / u.div, 6, false, "");
	fmt_num(maxb, sizeof(maxb), rs->max / u.div, 6, false, "");
	fprintf(f, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", name, u.name,
		minb, maxb, rs->mean / (double)u.div, runstat_stdev(rs) / (double)u.div);
}

/* Decimals the percentile list needs (fio prints them all alike). */
static int pct_decimals(const double *p, uint32_t n)
{
	int dec = 0;

	for (uint32_t i = 0; i < n; i++) {
		for (int d = dec; d <= 10; d++) {
			double s = pow(10.0, d);

			if (fabs(p[i] - round(p[i] * s) / s) < 1e-11 || d == 10) {
				dec = d;
				break;
			}
		}
	}
	return dec;
}

/* name: what the values are ("clat", "sync"), as the header says it. */
static void print_percentiles(FILE *f, const struct report_entry *e, const char *name,
			      const struct hist *h)
{
	uint64_t v[MAX_PERCENTILES > 17 ? MAX_PERCENTILES : 17];
	uint64_t minv = UINT64_MAX, maxv = 0;
	const double *p;
	uint32_t n = report_percentiles(e, &p);
	struct lat_unit u;
	int dec, per_line;

	if (!h->count || !n)
		return;
	if (n > sizeof(v) / sizeof(v[0]))
		n = sizeof(v) / sizeof(v[0]);
	for (uint32_t i = 0; i < n; i++) {
		v[i] = hist_percentile(h, p[i]);
		minv = v[i] < minv ? v[i] : minv;
		maxv = v[i] > maxv ? v[i] : maxv;
	}
	u = lat_unit_for_pcts(minv, maxv);
	dec = pct_decimals(p, n);
	per_line = dec <= 3 ? 4 : 3;

	fprintf(f, "    %s percentiles (%s):\n", name, u.name);
	for (uint32_t i = 0; i < n; i++) {
		bool last = i + 1 == n;

		if (i % (uint32_t)per_line == 0)
			fputs("     |", f);
		fprintf(f, " %*.*fth=[%5" PRIu64 "]%s", dec + 3, dec, p[i], v[i] / u.div,
			last ? "" : ",");
		if (last || (i + 1) % (uint32_t)per_line == 0)
			fputc('\n', f);
	}
}

static void print_samples(FILE *f, const struct report_model *m,
			  const struct report_entry *e, int d)
{
	const struct runstat *bw = &e->st->dir[d].bw_samples;
	const struct runstat *io = &e->st->dir[d].iops_samples;

	if (bw->n) {
		/* KiB/s, or MiB/s once the mean passes 1 GiB/s, as fio. */
		uint64_t div = 1024;
		const char *unit = "KiB";

		if (bw->mean / 1024.0 > 1024.0 * 1024.0) {
			div = 1024 * 1024;
			unit = "MiB";
		}
		fprintf(f, "   bw (%5s/s): min=%5" PRIu64 ", max=%5" PRIu64
			", per=%3.2f%%, avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			unit, bw->min / div, bw->max / div, report_bw_share(m, e, d),
			bw->mean / (double)div, runstat_stdev(bw) / (double)div, bw->n);
	}
	if (io->n)
		fprintf(f, "   iops        : min=%5" PRIu64 ", max=%5" PRIu64
			", avg=%5.02f, stdev=%5.02f, samples=%" PRIu64 "\n",
			io->min, io->max, io->mean, runstat_stdev(io), io->n);
}

static void print_dir(FILE *f, const struct report_model *m, const struct report_entry *e, int d)
{
	const struct dir_stats *ds = &e->st->dir[d];
	char iops[32], bw[32], bwsi[32], io[32];

	fmt_num(iops, sizeof(iops), (uint64_t)llround(report_dir_iops(e->st, d)), 4, false, "");
	fmt_num(bw, sizeof(bw), report_dir_bw(e->st, d), 4, true, "B/s");
	fmt_num(bwsi, sizeof(bwsi), report_dir_bw(e->st, d), 4, false, "B/s");
	fmt_num(io, sizeof(io), ds->bytes, 4, true, "B");
	fprintf(f, "  %s: IOPS=%s, BW=%s (%s)(%s/%" PRIu64 "msec)\n", ddir_name[d], iops, bw,
		bwsi, io, report_ms(report_dir_runtime_ns(e->st, d)));
	print_lat(f, "slat", &ds->slat.rs);
	print_lat(f, "clat", &ds->clat.rs);
	print_lat(f, " lat", &ds->lat.rs);
	/* Under a rate limit: latency from the intended issue time (rate.h). */
	print_lat(f, "ilat", &ds->ilat.rs);
	print_percentiles(f, e, "clat", &ds->clat.h);
	print_samples(f, m, e, d);
}

static void print_latdist(FILE *f, const struct job_stats *st)
{
	static const struct {
		const char *unit;
		unsigned first, n;
	} blk[] = { { "nsec", 0, LATDIST_NS }, { "usec", LATDIST_NS, LATDIST_US },
		    { "msec", LATDIST_NS + LATDIST_US, LATDIST_MS } };
	double pct[LATDIST_ALL];

	report_latdist(st, pct);
	for (size_t b = 0; b < sizeof(blk) / sizeof(blk[0]); b++) {
		unsigned shown = 0;

		for (unsigned i = blk[b].first; i < blk[b].first + blk[b].n; i++) {
			if (pct[i] <= 0.0)
				continue;
			/* Five to a line, each line with its own label. */
			if (shown % 5 == 0)
				fprintf(f, "%s  lat (%s)   : ", shown ? "\n" : "", blk[b].unit);
			else
				fputs(", ", f);
			fprintf(f, "%s=%3.2f%%", latdist_label[i], pct[i]);
			shown++;
		}
		if (shown)
			fputc('\n', f);
	}
}

/* fio's block for a job that synced its files; nothing for one that did not. */
static void print_sync(FILE *f, const struct report_entry *e)
{
	const struct lat_stat *l = &e->st->sync;

	if (!l->rs.n)
		return;
	fputs("  fsync/fdatasync/sync_file_range:\n", f);
	print_lat(f, "sync", &l->rs);
	print_percentiles(f, e, "sync", &l->h);
}

static void print_levels(FILE *f, const char *label, const uint64_t *v,
			 const char *const *names, unsigned n)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < n; i++)
		total += v[i];
	fputs(label, f);
	for (unsigned i = 0; i < n; i++)
		fprintf(f, "%s%s=%3.1f%%", i ? ", " : "", names[i], report_share(v[i], total));
	fputc('\n', f);
}

static void print_entry(FILE *f, const struct report_model *m, const struct report_entry *e)
{
	const struct job_stats *st = e->st;
	const struct job_opts *o = &e->job->o;
	uint64_t cpu_rt = report_entry_cpu_runtime_ns(m, e);
	char when[64];

	fmt_time(when, sizeof(when),
		 m->run->start_unix_ms + (int64_t)(m->run->elapsed_ns / 1000000));
	fprintf(f, "%s: (groupid=%" PRIu32 ", jobs=%" PRIu32 "): err=%2d", o->name ? o->name : "",
		e->groupid, st->nr_jobs, e->error);
	if (e->error)
		fprintf(f, " (%s)", e->errmsg && e->errmsg[0] ? e->errmsg : strerror(e->error));
	fprintf(f, ": pid=%d: %s\n", (int)getpid(), when);
	if (o->description && o->description[0])
		fprintf(f, "  Description  : [%s]\n", o->description);

	for (int d = 0; d < DDIR_COUNT; d++)
		if (st->dir[d].ios)
			print_dir(f, m, e, d);
	print_latdist(f, st);
	print_sync(f, e);
	if (o->verify.type)
		verify_print_normal(f, &st->verify);
	fprintf(f, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%" PRIu64 ", majf=%" PRIu64
		", minf=%" PRIu64 "\n", report_cpu_pct(st->usr_ns, cpu_rt),
		report_cpu_pct(st->sys_ns, cpu_rt), st->ctx, st->majf, st->minf);
	print_levels(f, "  IO depths    : ", st->depth, depth_label, DEPTH_LEVELS);
	print_levels(f, "     submit    : ", st->submit, batch_label, BATCH_LEVELS);
	print_levels(f, "     complete  : ", st->complete, batch_label, BATCH_LEVELS);
	fprintf(f, "     issued rwts: total=%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
		" short=0,0,0,0 dropped=0,0,0,0\n", st->issued[DDIR_READ],
		st->issued[DDIR_WRITE], st->issued[DDIR_TRIM], st->issued_sync);
	fprintf(f, "     latency   : target=0, window=0, percentile=100.00%%, depth=%" PRIu32 "\n",
		o->iodepth);
}

static void print_group(FILE *f, const struct report_group *g)
{
	static const char *const upper[DDIR_COUNT] = { "READ", "WRITE", "TRIM" };

	fprintf(f, "\nRun status group %" PRIu32 " (all jobs):\n", g->groupid);
	for (int d = 0; d < DDIR_COUNT; d++) {
		char agg[32], aggsi[32], lo[32], losi[32], hi[32], hisi[32], io[32], iosi[32];

		if (!g->io_bytes[d])
			continue;
		fmt_num(agg, sizeof(agg), g->agg_bw[d], 4, true, "B/s");
		fmt_num(aggsi, sizeof(aggsi), g->agg_bw[d], 4, false, "B/s");
		fmt_num(lo, sizeof(lo), g->min_bw[d], 4, true, "B/s");
		fmt_num(losi, sizeof(losi), g->min_bw[d], 4, false, "B/s");
		fmt_num(hi, sizeof(hi), g->max_bw[d], 4, true, "B/s");
		fmt_num(hisi, sizeof(hisi), g->max_bw[d], 4, false, "B/s");
		fmt_num(io, sizeof(io), g->io_bytes[d], 4, true, "B");
		fmt_num(iosi, sizeof(iosi), g->io_bytes[d], 4, false, "B");
		fprintf(f, "%7s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64 "-%" PRIu64
			"msec\n", upper[d], agg, aggsi, lo, hi, losi, hisi, io, iosi,
			report_ms(g->min_run_ns[d]), report_ms(g->max_run_ns[d]));
	}
}

int report_normal(FILE *f, const struct report_model *m)
{
	for (size_t i = 0; i < m->n_entries; i++)
		print_entry(f, m, &m->entries[i]);
	for (size_t i = 0; i < m->n_groups; i++)
		print_group(f, &m->groups[i]);
	if (m->disks)
		diskstats_print_normal(f, m->disks);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
