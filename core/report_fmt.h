/*
 * Formatting and figures shared by the report writers (report_normal.c,
 * report_json.c): fio-style number scaling, latency units, the latency
 * distribution buckets, percentages and per-entry derived figures, so the
 * human and the JSON reports never disagree on a number.
 */
#ifndef IORIG_REPORT_FMT_H
#define IORIG_REPORT_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

/*
 * fio's way of shortening a number: divide by 1000 (or 1024 when pow2) until
 * at most maxlen digits remain, then show as many decimals as still fit in
 * maxlen characters (rounded), followed by the prefix (k, M... or Ki, Mi...)
 * and unit.  Examples, maxlen 4: 12345 -> "12.3k", 67108864 B -> "64.0MiB".
 */
void fmt_num(char *buf, size_t len, uint64_t num, unsigned maxlen, bool pow2,
	     const char *unit);

/* A latency display unit: name for the header and divisor from ns. */
struct lat_unit {
	const char *name; /* "nsec", "usec", "msec" */
	uint64_t div;     /* 1, 1000, 1000000 */
};

/* Unit for a min/max/avg line: usec once min and mean exceed 1 us, etc. */
struct lat_unit lat_unit_for_stat(uint64_t min_ns, double mean_ns);
/* Unit for a percentile block, from its smallest and largest value. */
struct lat_unit lat_unit_for_pcts(uint64_t minv_ns, uint64_t maxv_ns);

/*
 * Latency distribution as fio prints it ("lat (usec)   : 250=1.2%"): ten
 * upper bounds per unit, plus 2000 and ">=2000" for milliseconds.  A bucket
 * holds the samples from the previous bound (inclusive) to its own.
 */
#define LATDIST_NS 10
#define LATDIST_US 10
#define LATDIST_MS 12
#define LATDIST_ALL (LATDIST_NS + LATDIST_US + LATDIST_MS)
extern const char *const latdist_label[LATDIST_ALL];
/* Percent of the entry's completed I/Os (all directions) per bucket. */
void report_latdist(const struct job_stats *st, double pct[LATDIST_ALL]);

/* fio never shows a non-zero share as 0.00%: anything below is 0.01%. */
double report_pct(uint64_t part, uint64_t total);

/* fio's labels for the depth and batch-size distributions. */
extern const char *const depth_label[DEPTH_LEVELS];
extern const char *const batch_label[BATCH_LEVELS];
/* Plain share in percent (0 when total is 0), no 0.01 floor. */
double report_share(uint64_t part, uint64_t total);

/* Figures derived per entry and direction. */
uint64_t report_dir_runtime_ns(const struct job_stats *st, int ddir); /* 0 without I/O */
uint64_t report_dir_bw(const struct job_stats *st, int ddir);         /* bytes/s */
double report_dir_iops(const struct job_stats *st, int ddir);
/* Milliseconds as fio shows a runtime: truncated, but 1 for any non-zero. */
uint64_t report_ms(uint64_t ns);

/* The group summary an entry belongs to (NULL if none). */
const struct report_group *report_group_of(const struct report_model *m, uint32_t groupid);
/* Share of the group's bandwidth the entry's mean sample stands for (<= 100). */
double report_bw_share(const struct report_model *m, const struct report_entry *e, int ddir);

/*
 * Sum of the runtimes of the instances an entry stands for: what CPU time
 * is divided by (fio's usr/sys for a group are per job-second).
 */
uint64_t report_entry_cpu_runtime_ns(const struct report_model *m, const struct report_entry *e);
double report_cpu_pct(uint64_t cpu_ns, uint64_t runtime_ns);

/* Percentiles an entry reports: its job's list, or fio's default list. */
uint32_t report_percentiles(const struct report_entry *e, const double **pcts);
/* Whether a job reports fio's default list (none given, or the same). */
bool report_percentiles_default(const struct job_opts *o);

/* Job-file name of a direction: "read", "write", "trim". */
extern const char *const ddir_name[DDIR_COUNT];

/* ctime-like local time without newline ("Sun Nov 29 22:54:51 2026"). */
void fmt_time(char *buf, size_t len, int64_t unix_ms);

/* Size as a job file would write it, exact: 4096 -> "4k", 1000 -> "1000". */
void fmt_size_option(char *buf, size_t len, uint64_t bytes);
/* Duration as a job file would write it, exact: "10s", "250ms", "7ns". */
void fmt_duration_option(char *buf, size_t len, uint64_t ns);

/* Whether result r is one of the instances entry e stands for. */
bool report_entry_has(const struct report_entry *e, const struct job_result *r);

#endif
