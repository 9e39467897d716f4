/*
 * What a run produced: one result per job instance, in the order the
 * instances were created (job order, then instance number).  Filled by the
 * scheduler, read by the report writers.
 */
#ifndef IORIG_RUN_H
#define IORIG_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"
#include "stats.h"

struct job_result {
	const struct job *job;
	uint32_t instance;       /* 0..numjobs-1 */
	uint32_t job_id;         /* unique in the run */
	struct job_stats *st;    /* heap: histograms are large */
	int error;               /* 0 or positive errno, as fio's "error" */
	bool setup_error;        /* failed before any I/O (files, safety): exit 2 */
	char errmsg[1024];
};

struct run_result {
	struct job_result *res;
	size_t n;
	bool interrupted;        /* SIGINT/SIGTERM stopped the run */
	int64_t start_unix_ms;   /* wall clock at start, for "timestamp" */
	uint64_t elapsed_ns;
};

void run_result_free(struct run_result *r);

#endif
