/*
 * Reading a run's jobs from a job file and/or the command line into one
 * cfg_doc (job_source.h).
 *
 * With a job file, fio options given before any --name are defaults for
 * it: they go first in its global section, so the file's own settings win
 * (as fio, where command-line globals come before the file's [global]).
 * Jobs (--name) on the command line together with a job file are refused:
 * fio would run both sets with subtly different globals.
 *
 * The global section as written is kept aside (js->globals) before
 * fio_compat touches it: the JSON report's "global options".
 */
#include "job_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_args.h"
#include "jobfile_fio.h"
#include "options.h"

/* Put the command line's global entries before the file's; 0 or -ENOMEM. */
static int prepend_globals(struct cfg_doc *doc, const struct cfg_section *cl, int src)
{
	struct cfg_section merged = { 0 };
	struct cfg_section *g = &doc->global;
	int rc = 0;

	for (size_t i = 0; i < cl->n && !rc; i++)
		rc = cfg_section_add(&merged, cl->entries[i].key, cl->entries[i].value, doc->file,
				     cfg_src_line(src, cl->entries[i].line));
	for (size_t i = 0; i < g->n && !rc; i++)
		rc = cfg_section_add(&merged, g->entries[i].key, g->entries[i].value, doc->file,
				     g->entries[i].line);
	if (rc) {
		merged.name = NULL;
		for (size_t i = 0; i < merged.n; i++) {
			free(merged.entries[i].key);
			free(merged.entries[i].value);
		}
		free(merged.entries);
		return rc;
	}
	for (size_t i = 0; i < g->n; i++) {
		free(g->entries[i].key);
		free(g->entries[i].value);
	}
	free(g->entries);
	g->entries = merged.entries;
	g->n = merged.n;
	g->cap = merged.cap;
	return 0;
}

/* js->globals from the doc's global section (job_source.h); 0 or -ENOMEM. */
static int keep_globals(struct cfg_section *out, const struct cfg_section *g)
{
	for (size_t i = 0; i < g->n; i++) {
		const char *key = g->entries[i].key;
		const struct cfg_entry *last;
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(g->entries[k].key, key);
		if (seen)
			continue;
		last = cfg_section_find(g, key);
		if (cfg_section_add(out, key, strcmp(last->value, FIO_BARE) ? last->value : "",
				    last->file, last->line))
			return -ENOMEM;
	}
	return 0;
}

static int from_command_line(const struct cli *c, struct fio_args *fa, struct job_source *js,
			     char *err, size_t errlen)
{
	if (!fa->doc.n_jobs) {
		snprintf(err, errlen, "no job given: options before the first --name are global "
			 "options; add --name=JOBNAME to start a job (as fio), or give a job file");
		return -EINVAL;
	}
	js->doc = fa->doc;
	memset(&fa->doc, 0, sizeof(fa->doc));
	js->format = JOBS_FIO_CMDLINE;
	js->fio = true;
	if (cfg_src_init(&js->src, FIO_ARGS_FILE, true))
		return -ENOMEM;
	cfg_src_set_argv(&js->src, c->argc, c->argv);
	return 0;
}

static int from_file(const struct cli *c, struct fio_args *fa, struct job_source *js,
		     char *err, size_t errlen)
{
	const char *file = fa->files[0];
	int rc, src;

	if (fa->doc.n_jobs) {
		snprintf(err, errlen, "command line, argument %d '%s': jobs cannot be given both "
			 "with --name and in a job file ('%s'): put the job in the file, or run "
			 "iorig twice", fa->doc.jobs[0].line, c->argv[fa->doc.jobs[0].line], file);
		return -EINVAL;
	}
	js->jobfile = file;
	if (cfg_src_init(&js->src, file, false))
		return -ENOMEM;
	cfg_src_set_argv(&js->src, c->argc, c->argv);
	if (jobfile_is_fio(file)) {
		js->format = JOBS_FIO_INI;
		js->fio = true;
		rc = cfg_read_fio(file, &js->doc, &js->src, err, errlen);
	} else {
		js->format = JOBS_LIBCONFIG;
		rc = cfg_read_libconfig(file, &js->doc, err, errlen);
	}
	if (rc || !fa->doc.global.n)
		return rc;
	js->fio = true;
	src = cfg_src_add(&js->src, FIO_ARGS_FILE, true);
	if (src < 0 || prepend_globals(&js->doc, &fa->doc.global, src))
		return -ENOMEM;
	return 0;
}

int job_source_load(const struct cli *c, const struct engine_path *path,
		    struct job_source *js, char *err, size_t errlen)
{
	struct fio_args fa;
	int rc;

	memset(js, 0, sizeof(*js));
	rc = fio_args_read(c->argv, c->job_args, c->n_job_args, path, &fa, err, errlen);
	if (rc)
		return rc;
	if (fa.n_files > 1) {
		snprintf(err, errlen, "give one job file (got '%s' and '%s'); to combine job files, "
			 "include one from another", fa.files[0], fa.files[1]);
		rc = -EINVAL;
	} else if (fa.n_files == 1) {
		rc = from_file(c, &fa, js, err, errlen);
	} else {
		rc = from_command_line(c, &fa, js, err, errlen);
	}
	fio_args_free(&fa);
	if (!rc)
		rc = keep_globals(&js->globals, &js->doc.global);
	if (!rc && js->fio)
		rc = fio_compat_apply(&js->doc, path, &js->src, &js->notes, err, errlen);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "out of memory");
	return rc;
}

int job_source_build(const struct job_source *js, const struct engine_path *path,
		     struct job_list *jobs, char *err, size_t errlen)
{
	int rc = options_build_jobs(&js->doc, path, jobs, err, errlen);

	if (rc) {
		cfg_src_rewrite(&js->src, js->doc.file, err, errlen);
		if (js->fio)
			fio_compat_suggest(err, errlen, cli_flag_names());
	}
	return rc;
}

void job_source_free(struct job_source *js)
{
	cfg_doc_free(&js->doc);
	cfg_section_free(&js->globals);
	cfg_src_free(&js->src);
	fio_notes_free(&js->notes);
}
