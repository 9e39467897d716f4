/*
 * Reads a libconfig job file into a cfg_doc (cfg.h).  The format:
 *
 *   global = { ioengine = "psync"; size = "1g"; };
 *   jobs = ( { name = "seq"; rw = "read"; engine_options = { ... }; },
 *            { rw = "randwrite"; } );
 *
 * Every scalar becomes text with its line, so the option binder parses all
 * sources alike and points errors at the right line.  No option is
 * interpreted here: this file only knows the file's shape.
 */
#include "cfg.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libconfig.h>

/* Text of a scalar as the binder expects it. */
static int scalar_text(const config_setting_t *s, char *buf, size_t len, const char **out)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
		snprintf(buf, len, "%d", config_setting_get_int(s));
		break;
	case CONFIG_TYPE_INT64:
		snprintf(buf, len, "%lld", config_setting_get_int64(s));
		break;
	case CONFIG_TYPE_FLOAT:
		/* %.15g: "0.1" stays "0.1" yet large values keep every digit. */
		snprintf(buf, len, "%.15g", config_setting_get_float(s));
		break;
	case CONFIG_TYPE_BOOL:
		snprintf(buf, len, "%s", config_setting_get_bool(s) ? "1" : "0");
		break;
	case CONFIG_TYPE_STRING:
		*out = config_setting_get_string(s);
		return *out ? 0 : -EINVAL;
	default:
		return -EINVAL;
	}
	*out = buf;
	return 0;
}

struct reader {
	const char *file; /* doc->file */
	char *err;
	size_t errlen;
};

static int fail(struct reader *r, const config_setting_t *s, const char *fmt, const char *a)
{
	int n = snprintf(r->err, r->errlen, "%s:%d: ", r->file,
			 s ? (int)config_setting_source_line(s) : 0);

	if (n >= 0 && (size_t)n < r->errlen)
		snprintf(r->err + n, r->errlen - (size_t)n, fmt, a);
	return -EINVAL;
}

/* Append c to a growing buffer; 0 or -ENOMEM. */
static int buf_putc(char **buf, size_t *n, size_t *cap, char c)
{
	if (*n + 2 > *cap) {
		size_t ncap = *cap ? *cap * 2 : 64;
		char *nb = realloc(*buf, ncap);

		if (!nb)
			return -ENOMEM;
		*buf = nb;
		*cap = ncap;
	}
	(*buf)[(*n)++] = c;
	(*buf)[*n] = '\0';
	return 0;
}

/*
 * An array or list of scalars joined with ':' (fio's list separator); a ':'
 * inside an element is written "\:" so filename lists keep their meaning.
 */
static int join_list(struct reader *r, const config_setting_t *s, char **out)
{
	int count = config_setting_length(s);
	size_t n = 0, cap = 0;
	char *buf = NULL;
	/* Allocate up front so that an empty list gives "" (the binder then
	 * says a value is missing). */
	int rc = buf_putc(&buf, &n, &cap, ':');

	if (rc)
		return rc;
	n = 0;
	buf[0] = '\0';
	for (int i = 0; i < count && !rc; i++) {
		const config_setting_t *e = config_setting_get_elem(s, (unsigned)i);
		char tmp[64];
		const char *t;

		if (!e || !config_setting_is_scalar(e) || scalar_text(e, tmp, sizeof(tmp), &t)) {
			free(buf);
			return fail(r, e ? e : s, "'%s': a list may hold only numbers, "
				    "strings or booleans", config_setting_name(s));
		}
		if (i > 0)
			rc = buf_putc(&buf, &n, &cap, ':');
		for (; *t && !rc; t++) {
			if (*t == ':')
				rc = buf_putc(&buf, &n, &cap, '\\');
			if (!rc)
				rc = buf_putc(&buf, &n, &cap, *t);
		}
	}
	if (rc) {
		free(buf);
		return rc;
	}
	*out = buf;
	return 0;
}

static int add_setting(struct reader *r, struct cfg_section *sec, const config_setting_t *s)
{
	const char *name = config_setting_name(s);
	int line = (int)config_setting_source_line(s);
	char tmp[64];
	const char *t;
	char *joined = NULL;
	int rc;

	if (config_setting_is_scalar(s)) {
		if (scalar_text(s, tmp, sizeof(tmp), &t))
			return fail(r, s, "'%s': unreadable value", name);
		return cfg_section_add(sec, name, t, r->file, line);
	}
	if (config_setting_is_array(s) || config_setting_is_list(s)) {
		rc = join_list(r, s, &joined);
		if (rc)
			return rc;
		rc = cfg_section_add(sec, name, joined, r->file, line);
		free(joined);
		return rc;
	}
	return fail(r, s, "'%s': unexpected group; only 'engine_options' may be a "
		    "group inside a job or global", name);
}

/* The settings of a job or of global, with engine_options flattened in. */
static int read_section(struct reader *r, struct cfg_section *sec, const config_setting_t *g)
{
	int count = config_setting_length(g);

	for (int i = 0; i < count; i++) {
		const config_setting_t *s = config_setting_get_elem(g, (unsigned)i);
		int rc;

		if (config_setting_is_group(s) && !strcmp(config_setting_name(s), "engine_options")) {
			int ne = config_setting_length(s);

			for (int j = 0; j < ne; j++) {
				const config_setting_t *es = config_setting_get_elem(s, (unsigned)j);

				if (config_setting_is_group(es))
					return fail(r, es, "'%s': engine_options holds plain "
						    "settings, not groups", config_setting_name(es));
				rc = add_setting(r, sec, es);
				if (rc)
					return rc;
			}
			continue;
		}
		rc = add_setting(r, sec, s);
		if (rc)
			return rc;
	}
	return 0;
}

static int read_jobs(struct reader *r, struct cfg_doc *doc, const config_setting_t *jobs)
{
	int count;

	if (!config_setting_is_list(jobs))
		return fail(r, jobs, "%s: must be a list of groups: jobs = ( { ... }, { ... } );",
			    "jobs");
	count = config_setting_length(jobs);
	for (int i = 0; i < count; i++) {
		const config_setting_t *g = config_setting_get_elem(jobs, (unsigned)i);
		const config_setting_t *ns;
		struct cfg_section *sec;
		char def[32], tmp[64];
		const char *name = def;
		int rc;

		if (!config_setting_is_group(g))
			return fail(r, g, "%s: every element must be a group { ... }", "jobs");
		snprintf(def, sizeof(def), "job%d", i);
		ns = config_setting_get_member(g, "name");
		if (ns && (!config_setting_is_scalar(ns) || scalar_text(ns, tmp, sizeof(tmp), &name)))
			return fail(r, ns, "%s: a job name must be a string", "name");
		if (!*name)
			return fail(r, ns, "%s: a job name cannot be empty", "name");
		sec = cfg_doc_add_job(doc, name, (int)config_setting_source_line(g));
		if (!sec)
			return -ENOMEM;
		rc = read_section(r, sec, g);
		if (rc)
			return rc;
	}
	return 0;
}

int cfg_read_libconfig(const char *path, struct cfg_doc *doc, char *err, size_t errlen)
{
	struct reader r = { .err = err, .errlen = errlen };
	const config_setting_t *root;
	config_t cfg;
	FILE *f;
	int rc = 0;

	memset(doc, 0, sizeof(*doc));
	/* libconfig reports an unreadable file without errno: open it first. */
	f = fopen(path, "r");
	if (!f) {
		rc = -errno;
		snprintf(err, errlen, "%s: cannot open job file: %s", path, strerror(errno));
		return rc;
	}
	fclose(f);

	doc->file = strdup(path);
	doc->global.name = strdup("global");
	if (!doc->file || !doc->global.name) {
		cfg_doc_free(doc);
		snprintf(err, errlen, "%s: out of memory", path);
		return -ENOMEM;
	}
	r.file = doc->file;

	config_init(&cfg);
	if (config_read_file(&cfg, path) != CONFIG_TRUE) {
		const char *ef = config_error_file(&cfg);

		snprintf(err, errlen, "%s:%d: %s", ef ? ef : path, config_error_line(&cfg),
			 config_error_text(&cfg));
		rc = config_error_type(&cfg) == CONFIG_ERR_FILE_IO ? -EIO : -EINVAL;
		goto out;
	}

	root = config_root_setting(&cfg);
	for (int i = 0; i < config_setting_length(root); i++) {
		const config_setting_t *s = config_setting_get_elem(root, (unsigned)i);
		const char *name = config_setting_name(s);

		if (!strcmp(name, "global")) {
			if (!config_setting_is_group(s)) {
				rc = fail(&r, s, "%s: must be a group: global = { ... };", name);
				goto out;
			}
			doc->global.line = (int)config_setting_source_line(s);
			rc = read_section(&r, &doc->global, s);
		} else if (!strcmp(name, "jobs")) {
			rc = read_jobs(&r, doc, s);
		} else {
			rc = fail(&r, s, "unknown top-level setting '%s'; a job file holds "
				  "'global = { ... };' and 'jobs = ( { ... } );'", name);
		}
		if (rc)
			goto out;
	}
out:
	if (rc == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", path);
	config_destroy(&cfg);
	if (rc)
		cfg_doc_free(doc);
	return rc;
}
