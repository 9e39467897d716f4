/*
 * fio options iorig takes without a core option of its own (fio_compat.h):
 * the table of options with no effect here, fio spellings rewritten to
 * iorig's, and the resolution of bare flags.  Nothing here is silent: each
 * dropped or rewritten-with-a-difference option gets one note.
 */
#include "fio_compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "log.h"
#include "options.h"
#include "parse.h"

/*
 * fio options with no effect in iorig.  `only`: the values accepted ('|'
 * list); another value would change what is measured, so it is refused.
 * A row is ignored once the core has an option of that name: the core's
 * option is then what the user gets.
 */
struct compat_opt {
	const char *key;
	bool flag;          /* fio lets it be written bare */
	const char *only;
	const char *note;   /* what iorig does instead */
};

static const struct compat_opt compat[] = {
	{ "thread", true, NULL, "iorig always runs jobs as threads" },
	{ "ioscheduler", false, NULL,
	  "iorig does not switch I/O schedulers; the device keeps its current one" },
	{ "scramble_buffers", true, NULL,
	  "write buffers hold pseudo-random bytes; refill_buffers gives new ones per write" },
	{ "gtod_reduce", true, NULL,
	  "iorig always takes full timestamps (the clock is a vDSO call)" },
	{ "disable_lat", true, NULL, "iorig always measures total latency" },
	{ "disable_clat", true, NULL, "iorig always measures completion latency" },
	{ "disable_slat", true, NULL, "iorig always measures submission latency" },
	{ "disable_bw_measurement", true, NULL, "iorig always measures bandwidth" },
	{ "clat_percentiles", true, "1|true|yes|on",
	  "completion latency percentiles are always reported" },
	{ "clocksource", false, NULL, "iorig always uses clock_gettime(CLOCK_MONOTONIC)" },
	{ "fallocate", false, NULL,
	  "iorig lays files out by writing them before the run" },
	{ "create_serialize", true, NULL,
	  "iorig lays files out one after another before the run" },
	{ "kb_base", false, "1024", "iorig always reads k as 1024" },
	{ "cpus_allowed_policy", false, "shared",
	  "every thread of a job may run on all of its cpus_allowed (fio's 'shared')" },
	{ "iomem", false, "malloc", "I/O buffers are allocated with posix_memalign" },
	{ "mem", false, "malloc", "I/O buffers are allocated with posix_memalign" },
};

#define N_COMPAT (sizeof(compat) / sizeof(compat[0]))

/* fio engines that do what iorig's psync does, with another system call. */
static const char *const psync_like[] = { "sync", "pvsync", "vsync", "pvsync2", NULL };

static bool in_list(const char *const *l, const char *s)
{
	for (; *l; l++)
		if (!strcasecmp(*l, s))
			return true;
	return false;
}

/* The compat row of key, unless the core has an option of that name. */
static const struct compat_opt *compat_find(const char *key)
{
	if (options_is_core(key))
		return NULL;
	for (size_t i = 0; i < N_COMPAT; i++)
		if (!strcmp(compat[i].key, key))
			return &compat[i];
	return NULL;
}

/* Is v one of the '|'-separated values? */
static bool in_bar_list(const char *list, const char *v)
{
	size_t vl = strlen(v);

	for (const char *p = list; p; p = strchr(p, '|') ? strchr(p, '|') + 1 : NULL) {
		const char *e = strchr(p, '|');
		size_t l = e ? (size_t)(e - p) : strlen(p);

		if (l == vl && !strncasecmp(p, v, l))
			return true;
	}
	return false;
}

static bool engine_bool(const struct engine *e, const char *key)
{
	for (const struct iorig_option *o = e ? e->options : NULL; o && o->name; o++)
		if (!strcmp(o->name, key))
			return o->type == IORIG_OPT_BOOL;
	return false;
}

bool fio_is_bool_option(const char *key, const struct engine *const *engines, size_t n)
{
	const struct compat_opt *c = compat_find(key);

	if (options_core_is_bool(key) || (c && c->flag))
		return true;
	for (size_t i = 0; i < n; i++)
		if (engine_bool(engines[i], key))
			return true;
	return false;
}

void fio_notes_free(struct fio_notes *n)
{
	for (size_t i = 0; i < n->n; i++)
		free(n->lines[i]);
	free(n->lines);
	n->lines = NULL;
	n->n = 0;
}

static int note_add(struct fio_notes *n, const char *fmt, ...) IORIG_PRINTF(2, 3);

static int note_add(struct fio_notes *n, const char *fmt, ...)
{
	char buf[1024], **l;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	l = realloc(n->lines, (n->n + 1) * sizeof(*l));
	if (!l)
		return -ENOMEM;
	n->lines = l;
	if (!(l[n->n] = strdup(buf)))
		return -ENOMEM;
	n->n++;
	return 0;
}

static int set_value(struct cfg_entry *e, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -ENOMEM;
	free(e->value);
	e->value = s;
	return 0;
}

static int set_key(struct cfg_entry *e, const char *k)
{
	char *s = strdup(k);

	if (!s)
		return -ENOMEM;
	free(e->key);
	e->key = s;
	return 0;
}

/* The engine a job uses, loaded (NULL when it cannot be: options.c says why). */
static const struct engine *job_engine(const struct cfg_doc *doc, const struct cfg_section *job,
				       const struct engine_path *path)
{
	const struct cfg_entry *e = cfg_section_find(job, "ioengine");
	const struct engine *eng = NULL;
	char why[512];

	if (!e)
		e = cfg_section_find(&doc->global, "ioengine");
	if (engine_load(path, e && *e->value && strcmp(e->value, FIO_BARE) ? e->value : "psync",
			&eng, why, sizeof(why)))
		return NULL;
	return eng;
}

/* Bare entries of sec become "1" for a bool option of any of engines, else "". */
static int resolve_bare(struct cfg_section *sec, const struct engine *const *engines, size_t n)
{
	for (size_t i = 0; i < sec->n; i++) {
		struct cfg_entry *e = &sec->entries[i];

		if (strcmp(e->value, FIO_BARE))
			continue;
		if (set_value(e, fio_is_bool_option(e->key, engines, n) ? "1" : ""))
			return -ENOMEM;
	}
	return 0;
}

static int resolve_all_bare(struct cfg_doc *doc, const struct engine_path *path)
{
	const struct engine **all = calloc(doc->n_jobs + 1, sizeof(*all));
	size_t n = 0;
	int rc = 0;

	if (!all)
		return -ENOMEM;
	for (size_t j = 0; j < doc->n_jobs && !rc; j++) {
		const struct engine *e = job_engine(doc, &doc->jobs[j], path);

		all[n] = e;
		n += e != NULL;
		rc = resolve_bare(&doc->jobs[j], &e, e != NULL);
	}
	/* A global flag is a bool if it is one for any job's engine. */
	if (!rc)
		rc = resolve_bare(&doc->global, all, n);
	free(all);
	return rc;
}

static int where_fail(const struct cfg_src *src, const struct cfg_entry *e, char *err,
		      size_t errlen, const char *fmt, ...) IORIG_PRINTF(5, 6);

static int where_fail(const struct cfg_src *src, const struct cfg_entry *e, char *err,
		      size_t errlen, const char *fmt, ...)
{
	char where[512];
	va_list ap;
	int n;

	cfg_src_where(src, e->line, where, sizeof(where));
	n = snprintf(err, errlen, "%s: ", where);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* One section: rewrite fio spellings, drop no-effect options.  1 per note. */
static int apply_section(struct cfg_section *sec, const struct cfg_src *src,
			 struct fio_notes *notes, bool *noted, char *err, size_t errlen)
{
	char where[512];
	size_t out = 0;

	for (size_t i = 0; i < sec->n; i++) {
		struct cfg_entry *e = &sec->entries[i];
		const struct compat_opt *c = compat_find(e->key);
		bool b;

		if (!strcmp(e->value, FIO_BARE) && (c || !strcmp(e->key, "buffered")) &&
		    !options_is_core(e->key) &&
		    set_value(e, !c || c->flag ? "1" : ""))
			return -ENOMEM;
		if (!strcmp(e->key, "buffered") && !options_is_core("buffered")) {
			/* fio's buffered is the inverse of direct: an exact rename. */
			if (parse_bool(e->value, &b))
				return where_fail(src, e, err, errlen, "option 'buffered': '%s' is "
						  "not a boolean; accepted: 1, 0 (buffered=0 is "
						  "direct=1)", e->value);
			if (set_key(e, "direct") || set_value(e, b ? "0" : "1"))
				return -ENOMEM;
		} else if (!strcmp(e->key, "ioengine") && in_list(psync_like, e->value)) {
			cfg_src_where(src, e->line, where, sizeof(where));
			if (note_add(notes, "ioengine=%s (%s): runs as ioengine=psync, the same "
				     "I/O with pread/pwrite", e->value, where) ||
			    set_value(e, "psync"))
				return -ENOMEM;
		} else if (!strcmp(e->key, "verify") && !strcasecmp(e->value, "crc32c-intel")) {
			/* fio's name for crc32c computed with SSE4.2: the same checksum,
			 * which ISA-L computes with the fastest instructions it finds. */
			cfg_src_where(src, e->line, where, sizeof(where));
			if (note_add(notes, "verify=%s (%s): runs as verify=crc32c, the same "
				     "checksum", e->value, where) ||
			    set_value(e, "crc32c"))
				return -ENOMEM;
		}
		if (!c) {
			sec->entries[out++] = *e;
			continue;
		}
		if (c->only && !in_bar_list(c->only, e->value))
			return where_fail(src, e, err, errlen, "option '%s': '%s' is not "
					  "supported: %s; accepted: %s (or leave it out)", e->key,
					  e->value, c->note, c->only);
		if (!noted[c - compat]) {
			noted[c - compat] = true;
			cfg_src_where(src, e->line, where, sizeof(where));
			if (note_add(notes, "%s=%s (%s): no effect: %s", e->key, e->value, where,
				     c->note))
				return -ENOMEM;
		}
		free(e->key);
		free(e->value);
	}
	sec->n = out;
	return 0;
}

int fio_compat_apply(struct cfg_doc *doc, const struct engine_path *path,
		     const struct cfg_src *src, struct fio_notes *notes, char *err,
		     size_t errlen)
{
	bool noted[N_COMPAT] = { false };
	int rc;

	/* Rewrites first: "ioengine=sync" decides which engine resolves flags. */
	rc = apply_section(&doc->global, src, notes, noted, err, errlen);
	for (size_t j = 0; j < doc->n_jobs && !rc; j++)
		rc = apply_section(&doc->jobs[j], src, notes, noted, err, errlen);
	if (!rc)
		rc = resolve_all_bare(doc, path);
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", doc->file);
	return rc;
}

/* Where the key of an unanswered "unknown option 'K'" message ends, or NULL. */
static char *unknown_key(char *msg, char *key, size_t keylen)
{
	static const char pre[] = "unknown option '";
	char *k = strstr(msg, pre), *q;

	if (!k || strstr(msg, "(did you mean"))
		return NULL;
	k += sizeof(pre) - 1;
	q = strchr(k, '\'');
	if (!q || (size_t)(q - k) >= keylen)
		return NULL;
	memcpy(key, k, (size_t)(q - k));
	key[q - k] = '\0';
	return q + 1;
}

static size_t suggest_limit(const char *key)
{
	size_t kl = strlen(key);

	return kl <= 3 ? 1 : kl <= 6 ? 2 : 3;
}

void fio_compat_suggest(char *msg, size_t len, const char *const *flags)
{
	size_t best_d = (size_t)-1;
	const char *best = NULL;
	bool flag = false;
	char key[128], *end = unknown_key(msg, key, sizeof(key));

	if (!end)
		return;
	for (size_t i = 0; i < N_COMPAT; i++) {
		size_t d = edit_distance(key, compat[i].key);

		if (d < best_d) {
			best_d = d;
			best = compat[i].key;
		}
	}
	for (size_t i = 0; flags && flags[i]; i++) {
		size_t d = edit_distance(key, flags[i]);

		if (d < best_d) {
			best_d = d;
			best = flags[i];
			flag = true;
		}
	}
	if (!best || best_d > suggest_limit(key))
		return;
	if (flag)
		snprintf(end, len - (size_t)(end - msg), " (did you mean iorig's flag --%s?)", best);
	else
		snprintf(end, len - (size_t)(end - msg), " (did you mean '%s'?)", best);
}
