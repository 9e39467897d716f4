/*
 * Per job-instance statistics.  Each worker thread owns one struct
 * job_stats and is the only writer of everything but the sample fields,
 * which the sampler thread alone writes.  The worker publishes running
 * totals through the live_* atomics (relaxed single-writer stores: a plain
 * store on x86, no lock) for the sampler to read.
 */
#ifndef IORIG_STATS_H
#define IORIG_STATS_H

#include <stdatomic.h>
#include <stdint.h>

#include "histogram.h"
#include "job.h"
#include "runstat.h"

struct lat_stat {
	struct runstat rs;
	struct hist h;
};

/* I/O depth levels as fio prints them: 1, 2, 4, 8, 16, 32, >=64. */
#define DEPTH_LEVELS 7
/* Submit/complete batch sizes as fio prints them: 0, 4, 8, 16, 32, 64, >=64. */
#define BATCH_LEVELS 7

struct dir_stats {
	struct lat_stat slat; /* submission: start of queue() to its return */
	struct lat_stat clat; /* completion: queue() return to completion seen */
	struct lat_stat lat;  /* total: start of queue() to completion seen */
	struct lat_stat ilat; /* from the intended issue time (rate limits, thinktime) */
	uint64_t bytes;       /* measured (after ramp_time) */
	uint64_t ios;
	struct runstat bw_samples;   /* bytes/s per sample interval */
	struct runstat iops_samples; /* I/Os/s per sample interval */
};

struct job_stats {
	struct dir_stats dir[DDIR_COUNT];
	/* fsync/fdatasync latency, one sample per file synced (measured phase). */
	struct lat_stat sync;
	uint64_t issued[DDIR_COUNT];       /* all I/Os issued, ramp included */
	uint64_t issued_sync;              /* all file syncs done, ramp included */
	uint64_t depth[DEPTH_LEVELS];      /* submissions, by depth after submit */
	uint64_t submit[BATCH_LEVELS];     /* submit calls, by batch size */
	uint64_t complete[BATCH_LEVELS];   /* reap calls, by I/Os reaped */
	uint64_t usr_ns, sys_ns;           /* thread CPU time */
	uint64_t ctx, majf, minf;
	uint64_t runtime_ns;               /* measured phase */
	uint32_t nr_jobs;                  /* instances merged into this (1 for one) */
	struct verify_stats verify;        /* verify phases (verify_defs.h) */

	/* Written by the worker, read by the sampler. */
	_Alignas(64) _Atomic uint64_t live_bytes[DDIR_COUNT];
	_Atomic uint64_t live_ios[DDIR_COUNT];
	_Atomic int live_measuring;        /* 1 once ramp_time is over */
	_Atomic uint64_t live_measure_start; /* clock_now_ns() when it was */
	_Atomic int live_done;             /* worker finished */
};

void job_stats_init(struct job_stats *s);
/* dst += src: histograms and runstats merge exactly; runtime takes the max. */
void job_stats_merge(struct job_stats *dst, const struct job_stats *src);
/* Index into depth[] for an I/O depth, into submit[]/complete[] for a batch. */
unsigned stats_depth_level(unsigned depth);
unsigned stats_batch_level(unsigned n);

static inline void lat_stat_add(struct lat_stat *l, uint64_t ns)
{
	runstat_add(&l->rs, ns);
	hist_add(&l->h, ns);
}

#endif
