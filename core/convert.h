/*
 * `iorig convert`: a job source (fio INI, fio command line, or libconfig)
 * written back as an equivalent libconfig job file (convert.c).
 */
#ifndef IORIG_CONVERT_H
#define IORIG_CONVERT_H

#include <stddef.h>
#include <stdio.h>

#include "job.h"
#include "job_source.h"

/*
 * Write js as libconfig text; jobs is what job_source_build() made of it
 * (block sizes set per direction are written as resolved).  The options
 * fio_compat dropped are listed in a comment.  0, -EIO, or -EINVAL with
 * err when an option name cannot be a libconfig setting name.
 */
int convert_write(FILE *f, const struct job_source *js, const struct job_list *jobs,
		  char *err, size_t errlen);

#endif
