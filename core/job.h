/*
 * The job model: what one [job] of a job file asks for, after every option
 * has been parsed and checked (struct job_opts), and the list of jobs a run
 * executes.  Filled by options.c, read by everything downstream.
 */
#ifndef IORIG_JOB_H
#define IORIG_JOB_H

#include <stdbool.h>
#include <stdint.h>

#include "buffill.h"     /* buffer contents */
#include "distrib.h"     /* bssplit, random_distribution, ... */
#include "rate.h"        /* rate limits, thinktime */
#include "verify_defs.h" /* verify options */

#define DDIR_READ 0
#define DDIR_WRITE 1
#define DDIR_TRIM 2
#define DDIR_COUNT 3 /* read, write, trim: every per-direction array */

enum rw_mode {
	RW_READ = 0,
	RW_WRITE,
	RW_RANDREAD,
	RW_RANDWRITE,
	RW_RW,        /* sequential mix (rw, readwrite) */
	RW_RANDRW,
	RW_TRIM,
	RW_RANDTRIM,
};

#define MAX_PERCENTILES 64

struct job_opts {
	char *name;
	char *description;
	char *ioengine;      /* engine name or path to a .so */
	char *filename;      /* colon-separated list, as given ("\:" escapes a colon) */
	char *directory;
	uint32_t nrfiles;    /* files per job when filename is not given */

	uint64_t size;       /* bytes per job (split across files) */
	uint64_t io_size;    /* bytes to transfer (0: size) */
	uint64_t offset;     /* start offset in each file */
	uint64_t loops;

	uint64_t bs[DDIR_COUNT];        /* fixed block size per direction */
	uint64_t bs_min[DDIR_COUNT];    /* bsrange; equal to bs when not set */
	uint64_t bs_max[DDIR_COUNT];

	enum rw_mode rw;
	uint32_t rwmixread;  /* percent of reads in mixed modes */

	uint32_t iodepth;
	uint32_t iodepth_batch_submit;
	uint32_t iodepth_batch_complete_min;
	uint32_t iodepth_batch_complete_max;

	uint32_t numjobs;
	uint64_t runtime_ns;   /* 0: no limit */
	uint64_t ramp_time_ns;
	uint64_t startdelay_ns;
	bool time_based;

	bool direct;
	uint32_t fsync_every;     /* fsync after every N writes (fsync=N) */
	uint32_t fdatasync_every; /* fdatasync=N */
	bool end_fsync;

	bool norandommap;
	bool randrepeat;
	uint64_t randseed;
	bool randseed_set;

	bool stonewall;
	bool new_group;
	bool group_reporting;
	bool create_on_open; /* unused: files are laid out before the run */
	bool unlink;
	bool invalidate;     /* drop cached pages of the files before the run */
	bool allow_mounted_write; /* write to a mounted block device anyway */
	bool overwrite_device;    /* write over a filesystem/partition-table signature */

	/* fio-style logs (iolog.c): file prefix or NULL; "" means the job name. */
	char *bw_log;
	char *iops_log;
	char *lat_log;
	uint32_t log_avg_msec;    /* 0: one row per I/O; else averaged windows */
	bool log_offset;          /* add the offset column to per-I/O rows */

	bool has_cpus;
	uint64_t cpus_allowed[16]; /* bitmap of up to 1024 CPUs */

	uint32_t n_percentiles;
	double percentiles[MAX_PERCENTILES];

	struct verify_opts verify; /* verify, do_verify, verify_* (verify.h) */
	struct rate_opts rate;     /* rate*, thinktime* (rate.h) */
	struct shape_opts shape;   /* bssplit, random_distribution, ... (distrib.h) */
	struct buffill_opts buf;   /* zero/refill_buffers, compress, dedupe (buffill.h) */

	/* Engine options: a struct of the engine's options_size, filled
	 * from its option table. */
	void *engine_opts;
	/* Strings the option parser allocated (freed with the job). */
	char **owned;
	uint32_t n_owned;
};

/* One job as written in the job file, with its engine resolved. */
struct job {
	struct job_opts o;
	uint32_t index;          /* position in the file, 0-based */
	uint32_t groupid;
	const struct engine *engine; /* loaded engine (engine_calls.h) */
	char *src_file;          /* where the job was defined, for messages */
	int src_line;
};

struct job_list {
	struct job *jobs;
	uint32_t n;
};

static inline bool rw_is_random(enum rw_mode m)
{
	return m == RW_RANDREAD || m == RW_RANDWRITE || m == RW_RANDRW ||
	       m == RW_RANDTRIM;
}

static inline bool rw_reads(enum rw_mode m)
{
	return m == RW_READ || m == RW_RANDREAD || m == RW_RW || m == RW_RANDRW;
}

static inline bool rw_writes(enum rw_mode m)
{
	return m == RW_WRITE || m == RW_RANDWRITE || m == RW_RW || m == RW_RANDRW;
}

static inline bool rw_trims(enum rw_mode m)
{
	return m == RW_TRIM || m == RW_RANDTRIM;
}

/* Where instance `instance` (numjobs clone) starts: offset + N * offset_increment. */
static inline uint64_t job_instance_offset(const struct job_opts *o, uint32_t instance)
{
	return o->offset + (uint64_t)instance * o->shape.offset_increment;
}

const char *rw_mode_name(enum rw_mode m);

void job_opts_free(struct job_opts *o);
void job_list_free(struct job_list *l);

#endif
