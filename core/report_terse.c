/*
 * fio's terse ("minimal") output, version 3: one line per report entry,
 * fields separated by ';', in the order of fio's HOWTO ("Terse output"):
 *
 *   3;iorig-VERSION;jobname;groupid;error;
 *   READ: io_kib;bw_kib;iops;runtime_ms; slat min;max;mean;stdev (us);
 *         clat min;max;mean;stdev (us); 20 clat percentiles "P%=us";
 *         lat min;max;mean;stdev (us); bw min;max;agg%;mean;stdev (KiB/s);
 *   WRITE: the same 45 fields (v3 has no trim);
 *   cpu usr%;sys%;ctx;majf;minf; iodepth 1;2;4;8;16;32;>=64 (%);
 *   latency (us) <=2;4;10;20;50;100;250;500;750;1000 (%);
 *   latency (ms) 2;4;10;20;50;100;250;500;750;1000;2000;>=2000 (%);
 *   per disk: name;read_ios;write_ios;read_merges;write_merges;
 *             read_ticks;write_ticks;in_queue;util%;
 *   description, when set.
 *
 * Field positions are fixed, so scripts index them: read IOPS is field 8
 * (1-based), read clat percentiles are fields 18-37, write IOPS 49.
 * Microsecond minima and maxima are truncated, means printed "%f", as fio.
 * Latencies under 1 us count in the "<=2" microsecond field (fio's terse
 * line has no nanosecond fields).
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "report_fmt.h"

#define TERSE_PCTS 20

static void lat_fields(FILE *f, const struct runstat *rs)
{
	if (!rs->n) {
		fputs(";0;0;0.000000;0.000000", f);
		return;
	}
	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f;%f", rs->min / 1000, rs->max / 1000, rs->mean / 1000.0,
		runstat_stdev(rs) / 1000.0);
}

static void dir_fields(FILE *f, const struct report_model *m, const struct report_entry *e, int d)
{
	const struct dir_stats *ds = &e->st->dir[d];
	const struct runstat *bw = &ds->bw_samples;
	uint64_t rt = report_dir_runtime_ns(e->st, d);
	const double *p;
	uint32_t np = report_percentiles(e, &p);

	fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64, ds->bytes / 1024,
		report_dir_bw(e->st, d) / 1024, (uint64_t)llround(report_dir_iops(e->st, d)),
		rt ? report_ms(rt) : 0);
	lat_fields(f, &ds->slat.rs);
	lat_fields(f, &ds->clat.rs);
	for (uint32_t i = 0; i < TERSE_PCTS; i++) {
		if (i < np)
			fprintf(f, ";%f%%=%" PRIu64, p[i],
				ds->clat.h.count ? hist_percentile(&ds->clat.h, p[i]) / 1000 : 0);
		else
			fputs(";0%=0", f);
	}
	lat_fields(f, &ds->lat.rs);
	if (bw->n)
		fprintf(f, ";%" PRIu64 ";%" PRIu64 ";%f%%;%f;%f", bw->min / 1024, bw->max / 1024,
			report_bw_share(m, e, d), bw->mean / 1024.0, runstat_stdev(bw) / 1024.0);
	else
		fputs(";0;0;0.000000%;0.000000;0.000000", f);
}

static void latdist_fields(FILE *f, const struct job_stats *st)
{
	double pct[LATDIST_ALL];
	uint64_t below2us = 0, total = 0;

	report_latdist(st, pct);
	/* Terse has no nanosecond fields: fold them into "<=2us". */
	for (int d = 0; d < DDIR_COUNT; d++) {
		total += st->dir[d].lat.h.count;
		below2us += hist_count_below(&st->dir[d].lat.h, 2000);
	}
	fprintf(f, ";%3.2f%%", report_pct(below2us, total));
	for (unsigned i = LATDIST_NS + 1; i < LATDIST_ALL; i++)
		fprintf(f, ";%3.2f%%", pct[i]);
}

static void print_entry(FILE *f, const struct report_model *m, const struct report_entry *e)
{
	const struct job_stats *st = e->st;
	uint64_t cpu_rt = report_entry_cpu_runtime_ns(m, e);
	uint64_t depth_total = 0;

	fprintf(f, "3;iorig-%s;%s;%" PRIu32 ";%d", IORIG_VERSION, e->job->o.name, e->groupid,
		e->error);
	dir_fields(f, m, e, DDIR_READ);
	dir_fields(f, m, e, DDIR_WRITE);
	fprintf(f, ";%f%%;%f%%;%" PRIu64 ";%" PRIu64 ";%" PRIu64, report_cpu_pct(st->usr_ns, cpu_rt),
		report_cpu_pct(st->sys_ns, cpu_rt), st->ctx, st->majf, st->minf);
	for (unsigned i = 0; i < DEPTH_LEVELS; i++)
		depth_total += st->depth[i];
	for (unsigned i = 0; i < DEPTH_LEVELS; i++)
		fprintf(f, ";%3.1f%%", report_share(st->depth[i], depth_total));
	latdist_fields(f, st);
	for (size_t i = 0; m->disks && i < m->disks->n; i++) {
		struct disk_figures x;

		diskstats_figures(&m->disks->d[i], &x);
		fprintf(f, ";%s;%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64 ";%" PRIu64
			";%" PRIu64 ";%3.2f%%", m->disks->d[i].name, x.ios[0], x.ios[1], x.merges[0],
			x.merges[1], x.ticks[0], x.ticks[1], x.in_queue, x.util);
	}
	if (e->job->o.description && e->job->o.description[0])
		fprintf(f, ";%s", e->job->o.description);
	fputc('\n', f);
}

int report_terse(FILE *f, const struct report_model *m)
{
	for (size_t i = 0; i < m->n_entries; i++)
		print_entry(f, m, &m->entries[i]);
	fflush(f);
	return ferror(f) ? -EIO : 0;
}
