/*
 * Reads fio's INI job files into a cfg_doc (jobfile_fio.h).
 *
 * fio's rules, as its documentation and its parser behave: a line is a
 * "[section]", an "include FILE", "key=value" or a bare "key"; everything
 * from the first ';' or '#' is a comment (inside values too); ${VAR} is
 * replaced by the environment variable, $ncpus/$pagesize/$mb_memory by the
 * machine's.  A [global] section after some jobs changes the defaults of
 * the jobs after it only: its entries are copied into each of those jobs
 * (before the job's own, which therefore win).  `name=` in a job renames it.
 */
#include "jobfile_fio.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fio_compat.h"

#define MAX_INCLUDE_DEPTH 16

enum { SEC_NONE = -3, SEC_LATE_GLOBAL = -2, SEC_GLOBAL = -1 };

struct ini {
	struct cfg_doc *doc;
	struct cfg_src *src;
	int cur;                  /* SEC_* or the index of the current job */
	struct cfg_section late;  /* [global] entries seen after a job */
	char *err;
	size_t errlen;
};

static int fail(struct ini *r, const char *file, int line, const char *fmt, ...)
	IORIG_PRINTF(4, 5);

static int fail(struct ini *r, const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(r->err, r->errlen, "%s:%d: ", file, line);

	if (n >= 0 && (size_t)n < r->errlen) {
		va_start(ap, fmt);
		vsnprintf(r->err + n, r->errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* fio's keywords for machine facts, usable where a number is expected. */
static int keyword_value(const char *s, size_t *len, char *out, size_t outlen)
{
	static const char *const kw[] = { "$ncpus", "$pagesize", "$mb_memory" };
	long v;

	for (size_t i = 0; i < 3; i++) {
		size_t l = strlen(kw[i]);

		if (strncmp(s, kw[i], l) || isalnum((unsigned char)s[l]) || s[l] == '_')
			continue;
		if (i == 0)
			v = sysconf(_SC_NPROCESSORS_ONLN);
		else if (i == 1)
			v = sysconf(_SC_PAGESIZE);
		else
			v = (long)((double)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) /
				   (1024 * 1024));
		*len = l;
		snprintf(out, outlen, "%ld", v);
		return 1;
	}
	return 0;
}

/* Expand ${VAR} and the $keywords of in into out. */
static int expand(struct ini *r, const char *file, int line, const char *in, char *out,
		  size_t outlen)
{
	size_t o = 0;

	for (const char *p = in; *p;) {
		char name[256], kv[32];
		const char *val = NULL;
		size_t skip = 1;

		if (p[0] == '$' && p[1] == '{') {
			const char *e = strchr(p + 2, '}');

			if (!e)
				return fail(r, file, line, "'${' without a closing '}': write ${NAME}");
			if (e == p + 2 || (size_t)(e - p - 2) >= sizeof(name))
				return fail(r, file, line, "'%.*s' is not a variable name: write "
					    "${NAME}", (int)(e - p + 1), p);
			memcpy(name, p + 2, (size_t)(e - p - 2));
			name[e - p - 2] = '\0';
			val = getenv(name);
			if (!val)
				return fail(r, file, line, "environment variable '%s' is not set "
					    "(used as ${%s}): set it, or write the value", name, name);
			skip = (size_t)(e - p + 1);
		} else if (p[0] == '$' && keyword_value(p, &skip, kv, sizeof(kv))) {
			val = kv;
		}
		if (val) {
			size_t l = strlen(val);

			if (o + l >= outlen)
				return fail(r, file, line, "line too long after expanding variables");
			memcpy(out + o, val, l);
			o += l;
			p += skip;
		} else {
			if (o + 1 >= outlen)
				return fail(r, file, line, "line too long");
			out[o++] = *p++;
		}
	}
	out[o] = '\0';
	return 0;
}

static struct cfg_section *current(struct ini *r)
{
	if (r->cur == SEC_GLOBAL)
		return &r->doc->global;
	if (r->cur == SEC_LATE_GLOBAL)
		return &r->late;
	return r->cur >= 0 ? &r->doc->jobs[r->cur] : NULL;
}

static int start_section(struct ini *r, const char *file, int line, int eline, char *name)
{
	struct cfg_section *s;

	name = trim(name);
	if (!*name)
		return fail(r, file, line, "empty section name: write [global] or [JOBNAME]");
	if (!strcmp(name, "global")) {
		r->cur = r->doc->n_jobs ? SEC_LATE_GLOBAL : SEC_GLOBAL;
		if (!r->doc->global.line)
			r->doc->global.line = eline;
		return 0;
	}
	s = cfg_doc_add_job(r->doc, name, eline);
	if (!s)
		return -ENOMEM;
	r->cur = (int)r->doc->n_jobs - 1;
	for (size_t i = 0; i < r->late.n; i++) {
		const struct cfg_entry *e = &r->late.entries[i];

		if (cfg_section_add(s, e->key, e->value, r->doc->file, e->line))
			return -ENOMEM;
	}
	return 0;
}

static int add_option(struct ini *r, const char *file, int line, int eline, char *text)
{
	struct cfg_section *s = current(r);
	char *eq = strchr(text, '='), *key = text, *value = NULL;

	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
	}
	key = trim(key);
	if (!*key)
		return fail(r, file, line, "'=%s' has no option name", value ? value : "");
	if (!s)
		return fail(r, file, line, "option '%s' is outside of any section: put it under "
			    "[global] or a [JOBNAME] section", key);
	if (!strcmp(key, "name") && r->cur == SEC_LATE_GLOBAL)
		return fail(r, file, line, "option 'name' cannot be set in [global]: give each "
			    "job its own name");
	if (!strcmp(key, "name") && r->cur >= 0 && value && *value) {
		/* As fio: name= renames the job its section started. */
		char *n = strdup(value);

		if (!n)
			return -ENOMEM;
		free(s->name);
		s->name = n;
	}
	return cfg_section_add(s, key, value ? value : FIO_BARE, r->doc->file, eline);
}

static int read_file(struct ini *r, const char *path, int depth);

static int include(struct ini *r, const char *file, int line, char *arg, int depth)
{
	const char *slash = strrchr(file, '/');
	char *inc = trim(arg), full[4096];
	int rc;

	if (!*inc)
		return fail(r, file, line, "include needs a file name");
	if (depth >= MAX_INCLUDE_DEPTH)
		return fail(r, file, line, "includes nested more than %d deep (does a file "
			    "include itself?)", MAX_INCLUDE_DEPTH);
	/* As fio: a relative name is relative to the including file. */
	if (inc[0] != '/' && slash)
		snprintf(full, sizeof(full), "%.*s/%s", (int)(slash - file), file, inc);
	else
		snprintf(full, sizeof(full), "%s", inc);
	rc = read_file(r, full, depth + 1);
	if (rc && rc != -ENOMEM && !r->err[0])
		return fail(r, file, line, "cannot include '%s': %s", full, strerror(-rc));
	return rc;
}

static int read_line(struct ini *r, const char *file, int src, int line, char *raw, int depth)
{
	char buf[8192], *s;
	int eline = cfg_src_line(src, line);

	for (char *p = raw; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\t')
			return fail(r, file, line, "control character 0x%02x: a job file is text",
				    (unsigned char)*p);
	raw[strcspn(raw, ";#")] = '\0';
	s = trim(raw);
	if (!*s)
		return 0;
	if (expand(r, file, line, s, buf, sizeof(buf)))
		return -EINVAL;
	s = trim(buf);
	if (s[0] == '[') {
		size_t l = strlen(s);

		if (s[l - 1] != ']')
			return fail(r, file, line, "'%s': a section header is [NAME]", s);
		s[l - 1] = '\0';
		return start_section(r, file, line, eline, s + 1);
	}
	if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7]))
		return include(r, file, line, s + 8, depth);
	return add_option(r, file, line, eline, s);
}

static int read_file(struct ini *r, const char *path, int depth)
{
	char *raw = NULL;
	size_t cap = 0;
	int src = 0, line = 0, rc = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (depth > 0) {
		src = cfg_src_add(r->src, path, false);
		if (src < 0) {
			fclose(f);
			return -ENOMEM;
		}
	}
	while (!rc && getline(&raw, &cap, f) >= 0) {
		if (++line >= CFG_SRC_STRIDE) {
			rc = fail(r, path, line, "job file longer than %d lines", CFG_SRC_STRIDE - 1);
			break;
		}
		raw[strcspn(raw, "\r\n")] = '\0';
		rc = read_line(r, path, src, line, raw, depth);
	}
	if (!rc && ferror(f))
		rc = -EIO;
	free(raw);
	fclose(f);
	return rc;
}

int cfg_read_fio(const char *path, struct cfg_doc *doc, struct cfg_src *src, char *err,
		 size_t errlen)
{
	struct ini r = { .doc = doc, .src = src, .cur = SEC_NONE, .err = err, .errlen = errlen };
	int rc;

	memset(doc, 0, sizeof(*doc));
	err[0] = '\0';
	doc->file = strdup(path);
	doc->global.name = strdup("global");
	if (!doc->file || !doc->global.name) {
		rc = -ENOMEM;
		goto out;
	}
	rc = read_file(&r, path, 0);
out:
	for (size_t i = 0; i < r.late.n; i++) {
		free(r.late.entries[i].key);
		free(r.late.entries[i].value);
	}
	free(r.late.entries);
	if (rc && !err[0]) {
		/* A file that could not be opened or read: the last one tried. */
		if (rc == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", path);
		else
			snprintf(err, errlen, "%s: cannot read job file: %s", path, strerror(-rc));
	}
	if (rc)
		cfg_doc_free(doc);
	return rc;
}

bool jobfile_is_fio(const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	bool ini = false, first = true;

	if (!f)
		return false;
	while (!ini && getline(&line, &cap, f) >= 0) {
		char *s = trim(line);
		size_t l = strlen(s);

		if (!l || s[0] == '#' || s[0] == ';' || !strncmp(s, "//", 2))
			continue;
		if (first && !strncmp(s, "include", 7) && isspace((unsigned char)s[7]))
			ini = true;
		first = false;
		if (l > 2 && s[0] == '[' && s[l - 1] == ']' && !strpbrk(s + 1, "\",[") &&
		    strchr(s, ']') == s + l - 1)
			ini = true;
	}
	free(line);
	fclose(f);
	return ini;
}
