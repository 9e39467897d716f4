/*
 * The live progress line on a terminal, as fio 3.33 draws it:
 *
 *   Jobs: 2 (f=2): [r(1),W(1)][33.5%][r=552MiB/s,w=10.0MiB/s][r=141k,w=2560 IOPS][eta 02m:00s]
 *
 * redrawn in place once a second on stderr (stdout carries the report),
 * when stderr is a terminal (--eta=auto), always (--eta=always) or never
 * (--eta=never).  Per job instance, in run order: P not started yet,
 * I setting up, / in ramp_time, R/r sequential/random reads, W/w writes,
 * M/m mixed, D/d trims, _ done, X could not start.  Rates are those of
 * the last second; the percentage and eta come from each job's runtime
 * or size, whichever ends it first.
 */
#ifndef IORIG_PROGRESS_H
#define IORIG_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"

struct monitor_worker;
struct progress;

/* *out NULL when the line is off (mode, or stderr is not a terminal). */
int progress_open(struct progress **out, int eta_mode, const struct job_list *jobs,
		  uint64_t run_start);
void progress_group_begin(struct progress *p, const struct monitor_worker *w, size_t n,
			  uint64_t now);
void progress_tick(struct progress *p, uint64_t now);
void progress_group_end(struct progress *p);
/* Erase the line, so the report starts on a clean one. */
void progress_close(struct progress *p);

/* "02m:00s", "1h:02m:03s", "2d:01h:02m:03s" as fio's eta. */
void progress_fmt_eta(char *buf, size_t len, uint64_t secs);

#endif
