/*
 * The job-source model (cfg.h): sections of key = text entries with their
 * file and line.  Readers (jobfile_libconfig.c, later fio INI) fill it; the
 * option binder (options.c) reads it.
 */
#include "cfg.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int cfg_section_add(struct cfg_section *s, const char *key, const char *value,
		    const char *file, int line)
{
	struct cfg_entry *e;

	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		struct cfg_entry *ne = realloc(s->entries, cap * sizeof(*ne));

		if (!ne)
			return -ENOMEM;
		s->entries = ne;
		s->cap = cap;
	}
	e = &s->entries[s->n];
	e->key = strdup(key);
	e->value = strdup(value ? value : "");
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return -ENOMEM;
	}
	e->file = file;
	e->line = line;
	s->n++;
	return 0;
}

const struct cfg_entry *cfg_section_find(const struct cfg_section *s, const char *key)
{
	for (size_t i = s->n; i > 0; i--)
		if (!strcmp(s->entries[i - 1].key, key))
			return &s->entries[i - 1];
	return NULL;
}

struct cfg_section *cfg_doc_add_job(struct cfg_doc *d, const char *name, int line)
{
	struct cfg_section *s;

	if (d->n_jobs == d->cap_jobs) {
		size_t cap = d->cap_jobs ? d->cap_jobs * 2 : 8;
		struct cfg_section *nj = realloc(d->jobs, cap * sizeof(*nj));

		if (!nj)
			return NULL;
		d->jobs = nj;
		d->cap_jobs = cap;
	}
	s = &d->jobs[d->n_jobs];
	memset(s, 0, sizeof(*s));
	s->name = strdup(name);
	if (!s->name)
		return NULL;
	s->line = line;
	d->n_jobs++;
	return s;
}

void cfg_section_free(struct cfg_section *s)
{
	for (size_t i = 0; i < s->n; i++) {
		free(s->entries[i].key);
		free(s->entries[i].value);
	}
	free(s->entries);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

void cfg_doc_free(struct cfg_doc *d)
{
	if (!d)
		return;
	cfg_section_free(&d->global);
	for (size_t i = 0; i < d->n_jobs; i++)
		cfg_section_free(&d->jobs[i]);
	free(d->jobs);
	free(d->file);
	memset(d, 0, sizeof(*d));
}
