/*
 * The run monitor: what watches a run from outside the I/O path.  The
 * scheduler calls it at run, group and sampler-tick boundaries; it feeds
 * the disk statistics (diskstats.c), the bandwidth/IOPS/latency logs
 * (iolog.c), the per-interval JSON lines (status_interval.c), the live
 * progress line (progress.c) and keeps the bandwidth/IOPS time series the
 * HTML report plots.
 *
 * A struct monitor is an object its caller owns (main.c: one per run it
 * starts): monitor_create, then monitor_run_begin .. monitor_run_end
 * around the run, then the report writers read its results, then
 * monitor_destroy.  No run state lives outside it; the helpers at the end
 * are free functions of their arguments.
 *
 * Threads: monitor_create, monitor_destroy, monitor_run_*, monitor_group_*
 * and the result accessors run on the main thread while no sampler runs;
 * monitor_tick and monitor_sample on the sampler thread, between
 * monitor_group_begin and monitor_group_end.  Workers are never called:
 * the monitor reads their published counters and histograms (stats.h), so
 * the hot path stays as it is.  The results stay readable until the next
 * monitor_run_begin on the same monitor, or monitor_destroy.
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

struct monitor;

/*
 * A monitor with the command line's settings (o is copied; o->status_file
 * is used only during the call).  Creates the status file now, so a bad
 * path is a usage error before any I/O.  0 and *out set, or -errno and
 * *out NULL (message logged).
 */
int monitor_create(struct monitor **out, const struct monitor_opts *o);
/* Frees everything mon holds: series, disks, interval and progress
 * writers, the status file if it opened one and no run took it over.  Not
 * while a group is open (its logs and workers are monitor_group_end's to
 * close).  NULL is a no-op. */
void monitor_destroy(struct monitor *mon);

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
int monitor_run_begin(struct monitor *mon, const struct job_list *jobs, uint64_t now);
void monitor_run_end(struct monitor *mon, uint64_t now);

/* w stays valid until monitor_group_end; fills w[i].ring, and w[i].error
 * for a job whose log files cannot be created (the scheduler fails it). */
void monitor_group_begin(struct monitor *mon, struct monitor_worker *w, size_t n,
			 uint64_t now);
/* After every worker of the group has finished: final log rows and intervals. */
void monitor_group_end(struct monitor *mon, uint64_t now);

/* Sampler thread, every pass of its loop (every few ms). */
void monitor_tick(struct monitor *mon, uint64_t now);
/* Sampler thread: worker i of the group had these rates (bytes/s, I/O/s)
 * over the sample ending at t; kept as the job's time series. */
void monitor_sample(struct monitor *mon, size_t i, uint64_t t, const uint64_t bw[DDIR_COUNT],
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
const struct series *monitor_series(const struct monitor *mon, uint32_t job_id);
/* Disks under the run's files, read at its start and end (never NULL). */
const struct disk_set *monitor_disks(const struct monitor *mon);

/* ---- helpers shared by the monitor's parts -------------------------------- */

/* out = cur - prev, bucket by bucket (histograms are additive). */
void monitor_hist_delta(struct hist *out, const struct hist *cur, const struct hist *prev);
/* Samples and sum of values (bucket midpoints) of h. */
void monitor_hist_sum(const struct hist *h, uint64_t *n, double *sum);
/* Whether job o does I/O in direction d. */
bool monitor_job_does(const struct job_opts *o, int d);

#endif
