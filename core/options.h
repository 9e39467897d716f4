/*
 * Options: turns a cfg_doc (text with file/line) into checked struct jobs.
 *
 * The core's own options are a table (options_core.c) of the same shape as
 * an engine's; one value parser (option_text.c) checks both.  Engine
 * options may appear anywhere in a job or in the global section: the job's
 * ioengine is resolved first, its engine loaded, and only then is each
 * entry bound to the core table or the engine's, so order never matters.
 *
 * Errors name the file, line, job, option and the accepted values, and
 * suggest the closest option name for an unknown one.
 */
#ifndef IORIG_OPTIONS_H
#define IORIG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <iorig/engine.h>

#include "cfg.h"
#include "engine.h"
#include "job.h"

/*
 * Build the job list.  Returns 0, or -EINVAL (config error: exit code 2)
 * with a message in err.  Jobs get their engine loaded from `path`.
 */
int options_build_jobs(const struct cfg_doc *doc, const struct engine_path *path,
		       struct job_list *out, char *err, size_t errlen);

/*
 * Bind one text value to an option of a table into dst.  Returns 0,
 * -ENOENT (no such option in table), or -EINVAL with the reason (accepted
 * values/range) in err.  Used for engine tables and by the conformance
 * checks.
 */
int option_bind(const struct iorig_option *table, void *dst, const char *key,
		const char *value, char *err, size_t errlen);
/* Store every option's default into dst.  -EINVAL if a default is invalid. */
int option_defaults(const struct iorig_option *table, void *dst, char *err, size_t errlen);
/* Free strings the binder strdup'ed into dst for STRING options. */
void option_free_strings(const struct iorig_option *table, void *dst);

/* Print the core options (table NULL) or an engine's (iorig engines NAME). */
void options_print_table(FILE *f, const struct iorig_option *table);

/* Is name a core option, by its name or an alias ("blocksize")? */
bool options_is_core(const char *name);
/* Is name (or alias) a core option of type bool (fio lets it stand bare)? */
bool options_core_is_bool(const char *name);

#endif
