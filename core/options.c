/*
 * Building jobs (options.h): each job's engine is resolved and loaded
 * first, then the global section and the job's own entries are bound to
 * the core table (options_core.c) or the engine's (option_table.c), then
 * the rules that involve several options are checked and reporting groups
 * assigned.  Every error names the file, line, job and option.
 */
#include "options.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options_ext.h"
#include "options_int.h"
#include "parse.h"

/* Where an entry came from, for the "FILE:LINE: job 'NAME': " prefix. */
struct where {
	const char *file;
	int line;
	bool global;
	const char *job;
};

static int fail_at(char *err, size_t errlen, const struct where *w, int rc,
		   const char *fmt, ...) IORIG_PRINTF(5, 6);

static int fail_at(char *err, size_t errlen, const struct where *w, int rc,
		   const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->global)
		n = snprintf(err, errlen, "%s:%d: global section (applied to job '%s'): ",
			     w->file, w->line, w->job);
	else
		n = snprintf(err, errlen, "%s:%d: job '%s': ", w->file, w->line, w->job);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* The closest known option name, or NULL when nothing is close. */
static const char *suggest(const char *key, const struct engine *e)
{
	size_t len = strlen(key), best_d = (size_t)-1;
	size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	const char *best = NULL;

	for (size_t i = 0; core_opt_at(i); i++) {
		const char *names[2] = { core_opt_at(i)->name, core_opt_at(i)->alias };

		for (int k = 0; k < 2; k++) {
			size_t d = names[k] ? edit_distance(key, names[k]) : (size_t)-1;

			if (d < best_d) {
				best_d = d;
				best = names[k];
			}
		}
	}
	for (const struct iorig_option *t = e ? e->options : NULL; t && t->name; t++) {
		size_t d = edit_distance(key, t->name);

		if (d < best_d) {
			best_d = d;
			best = t->name;
		}
	}
	return best_d <= limit ? best : NULL;
}

static int bind_entry(struct bind_ctx *c, const struct engine *e, const struct cfg_entry *ent,
		      const struct where *w, char *err, size_t errlen)
{
	const struct core_opt *co = core_opt_find(ent->key);
	char why[1024];
	const char *s;
	int rc;

	if (co) {
		if (w->global && co->kind == CK_STR &&
		    co->offset == offsetof(struct job_opts, name))
			return fail_at(err, errlen, w, -EINVAL, "option 'name' cannot be set in "
				       "global: give each job its own name");
		rc = core_opt_bind(c, co, ent->value, why, sizeof(why));
		return rc ? fail_at(err, errlen, w, rc, "%s", why) : 0;
	}
	rc = option_bind(e->options, c->o->engine_opts, ent->key, ent->value, why, sizeof(why));
	if (rc != -ENOENT)
		return rc ? fail_at(err, errlen, w, rc, "%s (engine '%s')", why, e->name) : 0;
	s = suggest(ent->key, e);
	if (s)
		return fail_at(err, errlen, w, -EINVAL, "unknown option '%s' (did you mean '%s'?)",
			       ent->key, s);
	return fail_at(err, errlen, w, -EINVAL, "unknown option '%s': neither a core option "
		       "nor an option of engine '%s'; `iorig engines %s` lists the engine's "
		       "options", ent->key, e->name, e->name);
}

/* The entry that set key for this job (job first, then global), for messages. */
static void where_of(const struct cfg_doc *doc, const struct cfg_section *sec, const char *key,
		     const char *job, struct where *w)
{
	const struct cfg_entry *ent = cfg_section_find(sec, key);

	w->file = doc->file;
	w->job = job;
	w->global = false;
	w->line = sec->line;
	if (!ent) {
		ent = cfg_section_find(&doc->global, key);
		w->global = ent != NULL;
	}
	if (ent)
		w->line = ent->line;
}

/* Rules that involve more than one option, checked once all are bound. */
static int finish_job(const struct cfg_doc *doc, const struct cfg_section *sec,
		      struct bind_ctx *c, const struct engine *e, char *err, size_t errlen)
{
	struct job_opts *o = c->o;
	struct where w;

	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!c->bsrange_set[d]) {
			o->bs_min[d] = o->bs[d];
			o->bs_max[d] = o->bs[d];
		}
	}
	{
		const char *key = NULL;
		char why[768];

		if (options_ext_finish(o, e->caps, &key, why, sizeof(why))) {
			where_of(doc, sec, key, o->name, &w);
			return fail_at(err, errlen, &w, -EINVAL, "%s", why);
		}
	}
	/* As fio: batches never exceed the queue; 0 means "the whole queue". */
	if (!o->iodepth_batch_submit || o->iodepth_batch_submit > o->iodepth)
		o->iodepth_batch_submit = o->iodepth;
	/* fio reaps one batch of at most complete_min unless told otherwise:
	 * taking everything that is ready drains the queue in bursts. */
	if (!o->iodepth_batch_complete_max)
		o->iodepth_batch_complete_max = o->iodepth_batch_complete_min ?
						o->iodepth_batch_complete_min : 1;
	if (o->iodepth_batch_complete_max > o->iodepth)
		o->iodepth_batch_complete_max = o->iodepth;
	if (o->iodepth_batch_complete_min > o->iodepth_batch_complete_max) {
		where_of(doc, sec, "iodepth_batch_complete_min", o->name, &w);
		if (!cfg_section_find(sec, "iodepth_batch_complete_min") && !w.global)
			where_of(doc, sec, "iodepth_batch_complete", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "option 'iodepth_batch_complete_min': %u "
			       "is above iodepth_batch_complete_max (%u, at most iodepth=%u); "
			       "lower it or raise iodepth", o->iodepth_batch_complete_min,
			       o->iodepth_batch_complete_max, o->iodepth);
	}
	if (o->time_based && !o->runtime_ns) {
		where_of(doc, sec, "time_based", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "time_based needs a runtime: set "
			       "runtime (e.g. runtime = \"30s\")");
	}
	/* A diskless engine that can tell its target's size (an rbd image)
	 * needs no size=; a file engine learns it only from a named file. */
	if (!o->size && !o->time_based && !(o->filename && *o->filename) &&
	    !((e->caps & IORIG_CAP_DISKLESS) && e->ops.get_size)) {
		where_of(doc, sec, "size", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "no size given: set size (e.g. size = "
			       "\"1g\"), name an existing file or device with filename, or set "
			       "time_based with a runtime");
	}
	if (rw_trims(o->rw) && !(e->caps & IORIG_CAP_TRIM)) {
		where_of(doc, sec, "rw", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "rw=%s needs an engine that can trim; "
			       "engine '%s' cannot: pick another ioengine or rw",
			       rw_mode_name(o->rw), e->name);
	}
	return 0;
}

/* Engine STRING options become the job's: freed by job_opts_free(). */
static int adopt_engine_strings(struct job_opts *o, const struct engine *e)
{
	for (const struct iorig_option *t = e->options; t && t->name; t++) {
		char **owned, *s;

		if (t->type != IORIG_OPT_STRING)
			continue;
		memcpy(&s, (char *)o->engine_opts + t->offset, sizeof(s));
		if (!s)
			continue;
		owned = realloc(o->owned, (o->n_owned + 1) * sizeof(*owned));
		if (!owned)
			return -ENOMEM;
		o->owned = owned;
		o->owned[o->n_owned++] = s;
	}
	return 0;
}

static int build_job(const struct cfg_doc *doc, size_t idx, const struct engine_path *path,
		     struct job *j, char *err, size_t errlen)
{
	const struct cfg_section *sec = &doc->jobs[idx];
	struct bind_ctx c = { .o = &j->o };
	struct job_opts *o = &j->o;
	const struct engine *e = NULL;
	const struct cfg_entry *ent;
	struct where w = { doc->file, sec->line, false, sec->name };
	char why[1024];
	int rc;

	j->index = (uint32_t)idx;
	j->src_line = sec->line;
	j->src_file = strdup(doc->file);
	o->name = strdup(sec->name);
	if (!j->src_file || !o->name)
		return fail_at(err, errlen, &w, -ENOMEM, "out of memory");
	rc = core_opt_defaults(&c, why, sizeof(why));
	if (rc)
		return fail_at(err, errlen, &w, rc, "core default invalid (bug): %s", why);

	/* The engine first: its table decides which entries are its options. */
	where_of(doc, sec, "ioengine", o->name, &w);
	ent = cfg_section_find(sec, "ioengine");
	if (!ent)
		ent = cfg_section_find(&doc->global, "ioengine");
	if (ent) {
		rc = core_opt_bind(&c, core_opt_find("ioengine"), ent->value, why, sizeof(why));
		if (rc)
			return fail_at(err, errlen, &w, rc, "%s", why);
	}
	rc = engine_load(path, o->ioengine, &e, why, sizeof(why));
	if (rc)
		return fail_at(err, errlen, &w, -EINVAL, "option 'ioengine': %s", why);
	j->engine = e;
	o->engine_opts = calloc(1, e->options_size ? e->options_size : 1);
	if (!o->engine_opts)
		return fail_at(err, errlen, &w, -ENOMEM, "out of memory");
	rc = option_defaults(e->options, o->engine_opts, why, sizeof(why));
	if (rc) {
		rc = fail_at(err, errlen, &w, -EINVAL, "engine '%s': %s", e->name, why);
		goto fail;
	}

	for (int pass = 0; pass < 2; pass++) {
		const struct cfg_section *s = pass ? sec : &doc->global;

		for (size_t i = 0; i < s->n; i++) {
			struct where ew = { doc->file, s->entries[i].line, !pass, sec->name };

			rc = bind_entry(&c, e, &s->entries[i], &ew, err, errlen);
			if (rc)
				goto fail;
		}
	}
	/* The job's section name wins: a job's `name` setting made it. */
	if (strcmp(o->name, sec->name)) {
		char *n = strdup(sec->name);

		if (!n) {
			rc = fail_at(err, errlen, &w, -ENOMEM, "out of memory");
			goto fail;
		}
		free(o->name);
		o->name = n;
	}
	rc = finish_job(doc, sec, &c, e, err, errlen);
	if (!rc)
		rc = adopt_engine_strings(o, e);
	if (!rc)
		return 0;
fail:
	/* Not adopted yet: free them here, job_opts_free() cannot. */
	if (o->n_owned == 0)
		option_free_strings(e->options, o->engine_opts);
	return rc;
}

int options_build_jobs(const struct cfg_doc *doc, const struct engine_path *path,
		       struct job_list *out, char *err, size_t errlen)
{
	struct job_list l = { 0 };
	uint32_t group = 0;
	int rc;

	out->jobs = NULL;
	out->n = 0;
	if (!doc->n_jobs) {
		snprintf(err, errlen, "%s: no jobs defined: add at least one job", doc->file);
		return -EINVAL;
	}
	l.jobs = calloc(doc->n_jobs, sizeof(*l.jobs));
	if (!l.jobs) {
		snprintf(err, errlen, "%s: out of memory", doc->file);
		return -ENOMEM;
	}
	for (size_t i = 0; i < doc->n_jobs; i++) {
		struct job *j = &l.jobs[i];

		l.n = (uint32_t)i + 1;
		rc = build_job(doc, i, path, j, err, errlen);
		if (rc) {
			job_list_free(&l);
			return rc == -ENOMEM ? rc : -EINVAL;
		}
		/* As fio: stonewall or new_group starts a reporting group. */
		if (i > 0 && (j->o.stonewall || j->o.new_group))
			group++;
		j->groupid = group;
	}
	*out = l;
	return 0;
}

/* ---- freeing jobs ------------------------------------------------------- */

void job_opts_free(struct job_opts *o)
{
	if (!o)
		return;
	free(o->name);
	free(o->description);
	free(o->ioengine);
	free(o->filename);
	free(o->directory);
	free(o->bw_log);
	free(o->iops_log);
	free(o->lat_log);
	for (uint32_t i = 0; i < o->n_owned; i++)
		free(o->owned[i]);
	free(o->owned);
	free(o->engine_opts);
	memset(o, 0, sizeof(*o));
}

void job_list_free(struct job_list *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; l->jobs && i < l->n; i++) {
		job_opts_free(&l->jobs[i].o);
		free(l->jobs[i].src_file);
	}
	free(l->jobs);
	l->jobs = NULL;
	l->n = 0;
}
