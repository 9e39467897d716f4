/*
 * fio's command-line job syntax into a cfg_doc (fio_args.h).
 *
 * The one real question is whether `-opt` without '=' takes the next
 * argument as its value.  As fio: a flag (a boolean option) does not,
 * unless the next argument is a boolean (`-direct 1`); any other option
 * does, unless the next argument is itself an option.  Which options are
 * booleans depends on the engines, so the engines named on the command
 * line are loaded first (they are cached: options.c reuses them).
 */
#include "fio_args.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_compat.h"
#include "parse.h"

#define MAX_ENGINES 16

/* "-x..." or "--x...", but not "-1" (a value) nor a lone "-". */
static bool option_like(const char *a)
{
	if (a[0] != '-' || !a[1])
		return false;
	if (isdigit((unsigned char)a[1]) || (a[1] == '.' && isdigit((unsigned char)a[2])))
		return false;
	return true;
}

/* The option name of an option-like argument, without dashes, up to '='. */
static const char *opt_body(const char *a)
{
	return a + (a[1] == '-' ? 2 : 1);
}

/* Engines named by -ioengine anywhere, plus psync (the default). */
static size_t load_engines(char *const *argv, const int *idx, size_t n,
			   const struct engine_path *path, const struct engine **out)
{
	size_t ne = 0;
	char why[512];

	if (!engine_load(path, "psync", &out[ne], why, sizeof(why)))
		ne++;
	for (size_t k = 0; k < n && ne < MAX_ENGINES; k++) {
		const char *a = argv[idx[k]], *b, *name = NULL;

		if (!option_like(a))
			continue;
		b = opt_body(a);
		if (!strncmp(b, "ioengine=", 9))
			name = b + 9;
		else if (!strcmp(b, "ioengine") && k + 1 < n)
			name = argv[idx[k + 1]];
		/* A bad name is options.c's to explain, with the job it is in. */
		if (name && *name && !engine_load(path, name, &out[ne], why, sizeof(why)))
			ne++;
	}
	return ne;
}

void fio_args_free(struct fio_args *a)
{
	cfg_doc_free(&a->doc);
	free(a->files);
	a->files = NULL;
	a->n_files = 0;
}

static int add_file(struct fio_args *out, const char *f)
{
	const char **fs = realloc(out->files, (out->n_files + 1) * sizeof(*fs));

	if (!fs)
		return -ENOMEM;
	out->files = fs;
	fs[out->n_files++] = f;
	return 0;
}

int fio_args_read(char *const *argv, const int *idx, size_t n,
		  const struct engine_path *path, struct fio_args *out, char *err,
		  size_t errlen)
{
	const struct engine *engines[MAX_ENGINES];
	size_t ne = load_engines(argv, idx, n, path, engines);
	struct cfg_section *cur, late = { 0 }; /* --name=global after a job */
	size_t cur_job = (size_t)-1; /* -1: global (late once a job exists) */
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->doc.file = strdup(FIO_ARGS_FILE);
	out->doc.global.name = strdup("global");
	if (!out->doc.file || !out->doc.global.name)
		goto nomem;
	for (size_t k = 0; k < n; k++) {
		int i = idx[k];
		const char *a = argv[i], *next = NULL, *value = NULL, *eq;
		char key[256];
		size_t kl;

		if (!option_like(a)) {
			if (add_file(out, a))
				goto nomem;
			continue;
		}
		eq = strchr(opt_body(a), '=');
		kl = eq ? (size_t)(eq - opt_body(a)) : strlen(opt_body(a));
		if (!kl || kl >= sizeof(key)) {
			snprintf(err, errlen, "command line, argument %d '%s': not an option; "
				 "write -OPTION=VALUE", i, a);
			rc = -EINVAL;
			goto out;
		}
		memcpy(key, opt_body(a), kl);
		key[kl] = '\0';
		/* The value may be the next argument, unless an iorig flag came between. */
		if (k + 1 < n && idx[k + 1] == i + 1)
			next = argv[i + 1];
		if (eq) {
			value = eq + 1;
		} else if (fio_is_bool_option(key, engines, ne)) {
			bool b;

			if (next && !parse_bool(next, &b)) {
				value = next;
				k++;
			} else {
				value = "1";
			}
		} else if (next && !option_like(next)) {
			value = next;
			k++;
		} else {
			value = FIO_BARE; /* a flag of some job's engine, or "" */
		}

		if (!strcmp(key, "name")) {
			if (!strcmp(value, FIO_BARE) || !*value) {
				snprintf(err, errlen, "command line, argument %d '%s': --name needs a "
					 "job name: --name=JOBNAME", i, a);
				rc = -EINVAL;
				goto out;
			}
			if (!strcmp(value, "global")) {
				cur_job = (size_t)-1;
				continue;
			}
			if (!(cur = cfg_doc_add_job(&out->doc, value, i)))
				goto nomem;
			cur_job = out->doc.n_jobs - 1;
			/* As fio: global options given after a job apply to later jobs. */
			for (size_t e = 0; e < late.n; e++)
				if (cfg_section_add(cur, late.entries[e].key, late.entries[e].value,
						    out->doc.file, late.entries[e].line))
					goto nomem;
			continue;
		}
		cur = cur_job != (size_t)-1 ? &out->doc.jobs[cur_job] :
		      out->doc.n_jobs ? &late : &out->doc.global;
		if (cfg_section_add(cur, key, value, out->doc.file, i))
			goto nomem;
	}
	goto out;
nomem:
	snprintf(err, errlen, "out of memory");
	rc = -ENOMEM;
out:
	for (size_t e = 0; e < late.n; e++) {
		free(late.entries[e].key);
		free(late.entries[e].value);
	}
	free(late.entries);
	if (rc)
		fio_args_free(out);
	return rc;
}
