/*
 * The run monitor: what watches a run from outside the I/O path.  The
 * scheduler calls it at run, group and sampler-tick boundaries; it feeds
 * the disk statistics (diskstats.c), the bandwidth/IOPS/latency logs
 * (iolog.c), the per-interval JSON lines (status_interval.c), the live
 * progress line (progress.c) and keeps the bandwidth/IOPS time series the
 * HTML report plots.
 *
 * Threads: monitor_run_*, monitor_group_* and monitor_configure run on the
 * main thread while no sampler runs; monitor_tick and monitor_sample on
 * the sampler thread.  Workers are never called: the monitor reads their
 * published counters and histograms (stats.h), so the hot path stays as
 * it is.  One run per process; the results stay readable until the next
 * monitor_run_begin.
 */
#ifndef IORIG_MONITOR_H
#define IORIG_MONITOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diskstats.h"
#include "files.h"
#include "histogram.h"
#include "job.h"
#include "stats.h"

enum eta_mode { ETA_AUTO = 0, ETA_ALWAYS, ETA_NEVER };

struct monitor_opts {
	uint64_t status_interval_ns; /* 0: no interval lines */
	const char *status_file;     /* NULL or "-": stdout */
	enum eta_mode eta;
};

/*
 * Settings from the command line; before monitor_run_begin.  Creates the
 * status file now, so a bad path is a usage error before any I/O: 0 or
 * -errno (message logged).
 */
int monitor_configure(const struct monitor_opts *o);

/* One job instance of the running group, as the scheduler shows it. */
struct monitor_worker {
	const struct job *job;
	uint32_t job_id;
	uint32_t instance;
	struct job_stats *st;
	const struct job_files *jf; /* NULL when its files could not be set up */
	bool started;               /* its thread runs */
	struct iolog_ring *ring;    /* out: per-I/O log ring for its thread, or NULL */
	int error;                  /* out: its logs cannot be written (-errno) */
	char errmsg[512];           /* out: why, naming the job and the file */
};

/* 0 or -errno (out of memory). */
int monitor_run_begin(const struct job_list *jobs, uint64_t now);
void monitor_run_end(uint64_t now);

/* w stays valid until monitor_group_end; fills w[i].ring, and w[i].error
 * for a job whose log files cannot be created (the scheduler fails it). */
void monitor_group_begin(struct monitor_worker *w, size_t n, uint64_t now);
/* After every worker of the group has finished: final log rows and intervals. */
void monitor_group_end(uint64_t now);

/* Sampler thread, every pass of its loop (every few ms). */
void monitor_tick(uint64_t now);
/* Sampler thread: worker i of the group had these rates (bytes/s, I/O/s)
 * over the sample ending at t; kept as the job's time series. */
void monitor_sample(size_t i, uint64_t t, const uint64_t bw[DDIR_COUNT],
		    const uint64_t iops[DDIR_COUNT]);

/* ---- results, for the report writers ------------------------------------- */

struct series_point {
	uint32_t t_ms;                /* since the run started */
	uint64_t bw[DDIR_COUNT];      /* bytes/s */
	uint64_t iops[DDIR_COUNT];
};

struct series {
	struct series_point *p;
	size_t n, cap;
};

/* Time series of job instance job_id (NULL if none). */
const struct series *monitor_series(uint32_t job_id);
/* Disks under the run's files, read at its start and end (never NULL). */
const struct disk_set *monitor_disks(void);

/* ---- helpers shared by the monitor's parts -------------------------------- */

/* out = cur - prev, bucket by bucket (histograms are additive). */
void monitor_hist_delta(struct hist *out, const struct hist *cur, const struct hist *prev);
/* Samples and sum of values (bucket midpoints) of h. */
void monitor_hist_sum(const struct hist *h, uint64_t *n, double *sum);
/* Whether job o does I/O in direction d. */
bool monitor_job_does(const struct job_opts *o, int d);

#endif
