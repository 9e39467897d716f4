/*
 * `iorig validate --show-jobs`: every job's options as parsed, one
 * "key = value" per line in a fixed order and canonical units (bytes,
 * nanoseconds), so that two job sources can be compared for equality.
 */
#ifndef IORIG_JOB_DUMP_H
#define IORIG_JOB_DUMP_H

#include <stdio.h>

#include "job.h"

void job_dump(FILE *f, const struct job_list *jobs);

#endif
