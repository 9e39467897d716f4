/*
 * `iorig convert` (convert.h): a cfg_doc written as a libconfig job file
 * that reads back into the same jobs.
 *
 * libconfig refuses a setting name twice in one group, so only the last
 * entry of a key is written, where it stood: the binder lets the last one
 * win anyway.  Block sizes are the exception: "bs=,8k" changes only some
 * directions, so when a section repeats them or sets them per direction,
 * each job gets its resolved sizes instead (bs = "r,w,t", plus bsrange for
 * directions with a range).  The other per-direction options (rate,
 * bssplit, ...) set more than once in a section are merged into one value
 * that sets what the entries set in turn (merge_dirs).  Values are written
 * as strings; the binder reads every value as text, so nothing is
 * reinterpreted on the way.
 */
#include "convert.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "cfg_src.h"
#include "options_ext.h"
#include "options_int.h"

static void put_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(f, "\\%c", ch);
		else if (ch < 0x20 || ch == 0x7f)
			fprintf(f, "\\x%02x", ch);
		else
			fputc(ch, f);
	}
	fputc('"', f);
}

/* libconfig's setting names: [A-Za-z*][-A-Za-z0-9_*]* */
static bool libconfig_name(const char *k)
{
	if (!isalpha((unsigned char)*k) && *k != '*')
		return false;
	for (k++; *k; k++)
		if (!isalnum((unsigned char)*k) && *k != '-' && *k != '_' && *k != '*')
			return false;
	return true;
}

static bool is_bs_key(const char *k)
{
	return !strcmp(k, "bs") || !strcmp(k, "blocksize") || !strcmp(k, "bsrange") ||
	       !strcmp(k, "blocksize_range");
}

/* Does some section set block sizes partly (per direction, or repeatedly)? */
static bool bs_partial(const struct cfg_section *s)
{
	size_t n = 0;

	for (size_t i = 0; i < s->n; i++)
		if (is_bs_key(s->entries[i].key) && (++n > 1 || strchr(s->entries[i].value, ',')))
			return true;
	return false;
}

static bool doc_bs_partial(const struct cfg_doc *d)
{
	if (bs_partial(&d->global))
		return true;
	for (size_t j = 0; j < d->n_jobs; j++)
		if (bs_partial(&d->jobs[j]))
			return true;
	return false;
}

/* A job's block sizes as parsed, in a form that sets all three directions. */
static void put_resolved_bs(FILE *f, const struct job_opts *o)
{
	bool range = false;

	fprintf(f, "    bs = \"%" PRIu64 ",%" PRIu64 ",%" PRIu64 "\";\n", o->bs[DDIR_READ],
		o->bs[DDIR_WRITE], o->bs[DDIR_TRIM]);
	for (int d = 0; d < DDIR_COUNT; d++)
		range |= o->bs_min[d] != o->bs_max[d];
	if (!range)
		return;
	fputs("    bsrange = \"", f);
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (o->bs_min[d] != o->bs_max[d])
			fprintf(f, "%" PRIu64 "-%" PRIu64, o->bs_min[d], o->bs_max[d]);
		fputs(d + 1 < DDIR_COUNT ? "," : "\";\n", f);
	}
}

/* Does the binder read k per direction with opt_parse_dirs (options_ext.h)? */
static bool is_dirs_key(const char *k)
{
	const struct core_opt *o = core_opt_find(k);

	return o && o->kind == CK_FN && options_ext_find(o->name)->per_dir;
}

/*
 * The entries of key in s, from the first up to entry last, as one value
 * with the same effect, as opt_parse_dirs applies them: one field sets all
 * three directions; "r,w" sets those not blank, then trim takes write's
 * value; "r,w,t" sets those not blank.  A direction no entry set stays
 * blank, so it keeps the value from the global section or the default.
 * -EINVAL when trim must follow a write value set outside this section and
 * a later entry changes write: one value cannot say that.
 */
static int merge_dirs(const struct cfg_section *s, size_t last, char *out, size_t len)
{
	enum { UNSET, SET, OUTER_W } st[DDIR_COUNT] = { UNSET, UNSET, UNSET };
	char v[DDIR_COUNT][1024] = { "", "", "" };

	for (size_t i = 0; i <= last; i++) {
		char f[DDIR_COUNT][1024];
		int n;

		if (strcmp(s->entries[i].key, s->entries[last].key))
			continue;
		if (opt_split_dirs(s->entries[i].value, f, &n))
			return -EINVAL; /* the binder refuses it too */
		for (int d = 0; d < DDIR_COUNT; d++) {
			const char *src = n == 1 ? f[0] : d < n ? f[d] : NULL;

			if (src && (n == 1 || !opt_is_blank(src))) {
				snprintf(v[d], sizeof(v[d]), "%s", src);
				st[d] = SET;
			}
		}
		if (n == 3 && st[DDIR_TRIM] == OUTER_W && !opt_is_blank(f[DDIR_WRITE]))
			return -EINVAL; /* write changes, trim must keep the outer write */
		if (n == 2) { /* trim follows write */
			st[DDIR_TRIM] = st[DDIR_WRITE] == SET ? SET : OUTER_W;
			memcpy(v[DDIR_TRIM], v[DDIR_WRITE], sizeof(v[0]));
		}
	}
	if (st[DDIR_TRIM] == OUTER_W) /* "r,w": the binder copies write to trim */
		snprintf(out, len, "%s,%s", st[DDIR_READ] == SET ? v[DDIR_READ] : "",
			 st[DDIR_WRITE] == SET ? v[DDIR_WRITE] : "");
	else
		snprintf(out, len, "%s,%s,%s", st[DDIR_READ] == SET ? v[DDIR_READ] : "",
			 st[DDIR_WRITE] == SET ? v[DDIR_WRITE] : "",
			 st[DDIR_TRIM] == SET ? v[DDIR_TRIM] : "");
	return 0;
}

/* Is entry i overridden by a later entry of the same key? */
static bool superseded(const struct cfg_section *s, size_t i)
{
	for (size_t k = i + 1; k < s->n; k++)
		if (!strcmp(s->entries[k].key, s->entries[i].key))
			return true;
	return false;
}

/* Does an earlier entry set the same key as entry i? */
static bool repeated(const struct cfg_section *s, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(s->entries[k].key, s->entries[i].key))
			return true;
	return false;
}

static int put_entries(FILE *f, const struct cfg_section *s, const char *indent, bool job,
		       bool skip_bs, const struct cfg_src *src, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->n; i++) {
		const struct cfg_entry *e = &s->entries[i];

		/* A job's name is its section's: written first by the caller. */
		if ((job && !strcmp(e->key, "name")) || superseded(s, i) ||
		    (skip_bs && is_bs_key(e->key)))
			continue;
		if (!libconfig_name(e->key)) {
			char where[512];

			cfg_src_where(src, e->line, where, sizeof(where));
			snprintf(err, errlen, "%s: option name '%s' cannot be written in a libconfig "
				 "job file", where, e->key);
			return -EINVAL;
		}
		if (is_dirs_key(e->key) && repeated(s, i)) {
			char merged[3 * 1024 + 4];

			if (merge_dirs(s, i, merged, sizeof(merged))) {
				char where[512];

				cfg_src_where(src, e->line, where, sizeof(where));
				snprintf(err, errlen, "%s: %s is set several times per direction in "
					 "this section in a way one value cannot repeat; write it "
					 "once, as %s=READ,WRITE,TRIM", where, e->key, e->key);
				return -EINVAL;
			}
			fprintf(f, "%s%s = ", indent, e->key);
			put_string(f, merged);
		} else {
			fprintf(f, "%s%s = ", indent, e->key);
			put_string(f, e->value);
		}
		fputs(";\n", f);
	}
	return 0;
}

static const char *format_name(enum job_format fmt)
{
	switch (fmt) {
	case JOBS_FIO_INI:
		return "fio job file";
	case JOBS_FIO_CMDLINE:
		return "fio command line";
	default:
		return "job file";
	}
}

int convert_write(FILE *f, const struct job_source *js, const struct job_list *jobs,
		  char *err, size_t errlen)
{
	const struct cfg_doc *d = &js->doc;
	bool resolve_bs = doc_bs_partial(d) && jobs->n == d->n_jobs;
	char where[512];
	int rc;

	fprintf(f, "# iorig job file, converted by `iorig convert` from the %s%s%s%s.\n",
		format_name(js->format), js->jobfile ? " '" : "",
		js->jobfile ? js->jobfile : "", js->jobfile ? "'" : "");
	if (js->notes.n)
		fputs("# Left out (no effect in iorig) or rewritten:\n", f);
	for (size_t i = 0; i < js->notes.n; i++)
		fprintf(f, "#   %s\n", js->notes.lines[i]);
	if (d->global.n) {
		fputs("\nglobal = {\n", f);
		rc = put_entries(f, &d->global, "  ", false, resolve_bs, &js->src, err, errlen);
		if (rc)
			return rc;
		fputs("};\n", f);
	}
	fputs("\njobs = (\n", f);
	for (size_t j = 0; j < d->n_jobs; j++) {
		const struct cfg_section *s = &d->jobs[j];

		cfg_src_where(&js->src, s->line, where, sizeof(where));
		fprintf(f, "  # %s\n  {\n    name = ", where);
		put_string(f, s->name);
		fputs(";\n", f);
		rc = put_entries(f, s, "    ", true, resolve_bs, &js->src, err, errlen);
		if (rc)
			return rc;
		if (resolve_bs)
			put_resolved_bs(f, &jobs->jobs[j].o);
		fprintf(f, "  }%s\n", j + 1 < d->n_jobs ? "," : "");
	}
	fputs(");\n", f);
	return ferror(f) ? -EIO : 0;
}
