/*
 * Report writers.  report_model.c folds job results into what is printed:
 * one entry per job instance, or one per group when group_reporting is set
 * (merged exactly: histogram buckets summed), plus a summary per group.
 * report_normal.c writes fio's human layout, report_json.c fio's JSON
 * schema (built with json-c), report_terse.c fio's terse v3 line,
 * report_html.c a self-contained page with charts.
 */
#ifndef IORIG_REPORT_H
#define IORIG_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include "cfg.h"
#include "diskstats.h"
#include "run.h"

struct monitor;

struct report_entry {
	const struct job *job;     /* the (first) job the entry stands for */
	uint32_t groupid;
	uint32_t job_id;
	int error;
	const char *errmsg;
	struct job_stats *st;      /* merged; owned by the model */
};

struct report_group {
	uint32_t groupid;
	uint64_t io_bytes[DDIR_COUNT];
	uint64_t agg_bw[DDIR_COUNT];     /* bytes/s: io_bytes / max runtime */
	uint64_t min_bw[DDIR_COUNT];     /* bytes/s of the slowest job */
	uint64_t max_bw[DDIR_COUNT];
	uint64_t min_run_ns[DDIR_COUNT];
	uint64_t max_run_ns[DDIR_COUNT];
};

struct report_model {
	struct report_entry *entries;
	size_t n_entries;
	struct report_group *groups;
	size_t n_groups;
	const struct run_result *run;
	const struct monitor *monitor; /* what watched the run (time series), or NULL */
	const struct disk_set *disks; /* "Disk stats": the run's disks, or NULL */
	/*
	 * The job file's global section as written, one entry per key
	 * (job_source.h: job_source.globals), or NULL for none.  Not set by
	 * report_model_build(): the caller fills it in.
	 */
	const struct cfg_section *globals;
};

/* mon: the monitor that watched run r (monitor.h), or NULL for no disk
 * stats and no time series; it must outlive the model. */
int report_model_build(const struct run_result *r, const struct monitor *mon,
		       struct report_model *m);
void report_model_free(struct report_model *m);

int report_normal(FILE *f, const struct report_model *m);
int report_json(FILE *f, const struct report_model *m);
/* fio's terse (minimal) format, version 3: one ';' line per entry. */
int report_terse(FILE *f, const struct report_model *m);
/* One self-contained HTML page: settings, summary, SVG charts. */
int report_html(FILE *f, const struct report_model *m);

#endif
