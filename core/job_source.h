/*
 * Where a run's jobs come from (job_source.c): a libconfig job file, a fio
 * INI job file (told apart by content), fio options on the command line,
 * or a job file plus command-line global options.  Reads them into one
 * cfg_doc, applies fio_compat to fio sources, and builds the job list with
 * messages that name the real file and line or argument.
 */
#ifndef IORIG_JOB_SOURCE_H
#define IORIG_JOB_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "cfg.h"
#include "cfg_src.h"
#include "cmdline.h"
#include "engine.h"
#include "fio_compat.h"
#include "job.h"

enum job_format { JOBS_LIBCONFIG, JOBS_FIO_INI, JOBS_FIO_CMDLINE };

struct job_source {
	struct cfg_doc doc;
	struct cfg_src src;
	struct fio_notes notes;  /* options dropped or rewritten (fio_compat) */
	/*
	 * The global section as the user wrote it (command-line globals, then
	 * the file's), taken before fio_compat rewrites or drops anything: one
	 * entry per key, at the key's first place, holding its last value; a
	 * bare fio flag (`thread`) has the value "".  The JSON report's
	 * "global options".
	 */
	struct cfg_section globals;
	enum job_format format;
	const char *jobfile;     /* NULL: jobs from the command line (points into argv) */
	bool fio;                /* some source is fio syntax: fio_compat applied */
};

/* Read c's job file and/or fio options.  0, or -EINVAL/-errno with err. */
int job_source_load(const struct cli *c, const struct engine_path *path,
		    struct job_source *js, char *err, size_t errlen);

/* options_build_jobs(), with its message pointed at the real place. */
int job_source_build(const struct job_source *js, const struct engine_path *path,
		     struct job_list *jobs, char *err, size_t errlen);

void job_source_free(struct job_source *js);

#endif
