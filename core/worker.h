/*
 * One job instance: its files, I/O units and engine state (set up before
 * the run, off the hot path), and the I/O loop that runs on its thread.
 * The scheduler creates workers, the loop in worker.c is the hot path.
 */
#ifndef IORIG_WORKER_H
#define IORIG_WORKER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <iorig/engine.h>

#include "files.h"
#include "host.h"
#include "job.h"
#include "offsets.h"
#include "stats.h"

/* Per-file position state for offset generation. */
struct file_cursor {
	uint64_t start;        /* first byte of the job's region */
	uint64_t len;          /* bytes in the region */
	uint64_t nblocks;      /* region / minimal block size */
	uint64_t seq_next[DDIR_COUNT]; /* next sequential offset per direction */
	struct blockperm perm; /* random map: each block once per pass */
	struct dist_state dist; /* random_distribution sampler (distrib.h) */
};

struct worker {
	const struct job *job;
	const struct job_files *jf; /* resolved and laid out by the scheduler */
	uint32_t instance;
	uint32_t job_id;
	struct iorig_job_handle handle;
	struct iorig_job_info info;
	void *engine_state;
	bool engine_inited;

	uint32_t nr_files;
	struct iorig_file *files;
	struct iorig_file **file_ptrs;
	struct file_cursor *cursors;
	uint32_t nr_opened;    /* files[0..nr_opened) are open in the engine */
	uint32_t next_file;    /* round-robin */

	uint32_t depth;        /* effective iodepth (1 for sync engines) */
	struct iorig_io *ios;
	struct iorig_io **io_ptrs;
	struct iorig_io **free_ios; /* stack of idle units */
	uint32_t nr_free;
	struct iorig_io **pending;  /* queued, not yet committed */
	uint32_t nr_pending;
	struct iorig_io **done;     /* reap() output */
	void *buffers;
	void *priv_area;
	uint64_t buf_align;
	uint64_t max_bs;

	struct rng rng_off;    /* offsets */
	struct rng rng_dir;    /* read/write mix */
	struct rng rng_bs;     /* block sizes in a bsrange */
	struct mix_state mix;  /* rwmixread credit (distrib.h) */
	struct rng rng_pct;    /* percentage_random draws */
	struct rate_state rate;     /* intended issue times (rate.h) */
	struct buffill_state bfill; /* write buffer contents (buffill.h) */
	struct verify_state *vs;    /* NULL unless verify is set (verify.h) */

	uint64_t unit;         /* offset granularity: smallest block size */
	uint64_t bytes_total;  /* bytes to issue (0: until runtime) */
	uint64_t bytes_issued;
	uint32_t writes_since_sync;

	uint32_t inflight;
	struct iorig_io *retry;  /* prepared I/O the engine said BUSY to */
	uint64_t ramp_end;       /* I/Os started before this are not counted */
	uint64_t measure_start;  /* 0 until ramp_time is over */
	uint64_t cpu_start[5];   /* usr, sys, ctx, majf, minf at measure start */
	bool measuring;

	struct job_stats *st;
	int error;             /* positive errno, 0 while fine */
	char errmsg[1024];
};

/* Global stop request (SIGINT/SIGTERM, or a fatal error); read per I/O. */
extern atomic_int worker_stop_requested;

/*
 * Prepare a worker (thread-side, before the start barrier): engine init,
 * open files, buffers.  Returns 0 or -errno with w->errmsg set.
 */
int worker_setup(struct worker *w);
/* Run the I/O loop until an end condition; 0 or -errno (w->errmsg set). */
int worker_run(struct worker *w);
/* Close files and clean up the engine; safe after a failed setup. */
void worker_teardown(struct worker *w);


#endif
