/*
 * Runs a job list: groups in order (stonewall / new_group end a group),
 * every instance of a group on its own thread, started together behind a
 * barrier; a sampler thread takes bandwidth and IOPS samples every
 * 500 ms.  SIGINT/SIGTERM stop issuing, drain what is in flight, and the
 * results so far are returned.
 */
#ifndef IORIG_SCHEDULER_H
#define IORIG_SCHEDULER_H

#include "job.h"
#include "run.h"

struct monitor;

#define SAMPLE_INTERVAL_NS 500000000ull

/* Install the SIGINT/SIGTERM handlers that stop a run gracefully. */
void scheduler_install_signals(void);
/* The signal that stopped the run, or 0. */
int scheduler_stop_signal(void);

/*
 * Run every job, watched by mon (monitor.h: its series and disks describe
 * this run afterwards).  Returns 0 when the run went through (job errors
 * are in the results), -errno when it could not start.  out is filled
 * either way and must be freed with run_result_free().
 */
int scheduler_run(const struct job_list *jobs, struct monitor *mon, struct run_result *out);

#endif
