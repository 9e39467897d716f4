/*
 * `iorig engines [NAME]`: what is on the engine search path and what each
 * engine offers.  Listing loads every .so with engine_load_file() (no
 * cache) so that broken plugins show up with the loader's reason.
 */
#include "engines_cmd.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "options.h"

struct row {
	char path[PATH_MAX];  /* real path of the .so */
	struct engine *e;     /* NULL when it did not load */
	char why[1024];       /* the loader's reason when it did not */
	size_t shadowed_by;      /* 1 + index of the earlier row with this name, or 0
				  * (an index: the rows array moves as it grows) */
};

struct rows {
	struct row *r;
	size_t n;
};

void engine_caps_text(uint64_t caps, char *buf, size_t len)
{
	static const struct {
		uint64_t bit;
		const char *word;
	} words[] = {
		{ IORIG_CAP_ASYNC, "async" },   { IORIG_CAP_DISKLESS, "diskless" },
		{ IORIG_CAP_DIRECT, "direct" }, { IORIG_CAP_FSYNC, "fsync" },
		{ IORIG_CAP_TRIM, "trim" },     { IORIG_CAP_BLOCKDEV, "blockdev" },
	};
	size_t used = 0;

	if (!len)
		return;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++) {
		int w;

		if (!(caps & words[i].bit))
			continue;
		w = snprintf(buf + used, len - used, "%s%s", used ? "," : "", words[i].word);
		if (w < 0 || (size_t)w >= len - used)
			return;
		used += w;
	}
	if (!used)
		snprintf(buf, len, "-");
}

static int so_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 3 && !strcmp(d->d_name + n - 3, ".so");
}

static bool seen(const struct rows *rs, const char *real)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].path, real))
			return true;
	return false;
}

static int scan_dir(struct rows *rs, const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, so_filter, alphasort);

	if (n < 0)
		return 0; /* a missing directory on the path is normal */
	for (int i = 0; i < n; i++) {
		char file[PATH_MAX], real[PATH_MAX];
		struct row *r;

		snprintf(file, sizeof(file), "%s/%s", dir, names[i]->d_name);
		free(names[i]);
		if (!realpath(file, real))
			snprintf(real, sizeof(real), "%s", file);
		if (seen(rs, real))
			continue; /* the same file through another directory */
		r = realloc(rs->r, (rs->n + 1) * sizeof(*r));
		if (!r) {
			while (++i < n)
				free(names[i]);
			free(names);
			return -ENOMEM;
		}
		rs->r = r;
		r = &rs->r[rs->n++];
		memset(r, 0, sizeof(*r));
		snprintf(r->path, sizeof(r->path), "%s", real);
		if (engine_load_file(real, &r->e, r->why, sizeof(r->why)))
			r->e = NULL;
		/* engine_load() takes the first match: later ones never load. */
		for (size_t j = 0; r->e && j + 1 < rs->n; j++)
			if (rs->r[j].e && !strcmp(rs->r[j].e->name, r->e->name)) {
				r->shadowed_by = j + 1;
				break;
			}
	}
	free(names);
	return 0;
}

/* engine_load(NAME) looks for NAME.so: a file named otherwise loads only by path. */
static bool file_matches_name(const struct row *r)
{
	const char *base = strrchr(r->path, '/');
	size_t n = strlen(r->e->name);

	base = base ? base + 1 : r->path;
	return !strncmp(base, r->e->name, n) && !strcmp(base + n, ".so");
}

static void print_rows(FILE *f, const struct rows *rs)
{
	int wn = 4, wv = 7, wc = 12;
	char caps[128];
	bool bad = false;

	for (size_t i = 0; i < rs->n; i++) {
		const struct engine *e = rs->r[i].e;
		int l;

		if (!e) {
			bad = true;
			continue;
		}
		engine_caps_text(e->caps, caps, sizeof(caps));
		if ((l = (int)strlen(e->name)) > wn)
			wn = l;
		if ((l = (int)strlen(e->version)) > wv)
			wv = l;
		if ((l = (int)strlen(caps)) > wc)
			wc = l;
	}
	fprintf(f, "%-*s  %-*s  %-5s  %-*s  %s\n", wn, "NAME", wv, "VERSION", "ABI",
		wc, "CAPABILITIES", "PATH");
	for (size_t i = 0; i < rs->n; i++) {
		const struct row *r = &rs->r[i];
		char abi[16];

		if (!r->e)
			continue;
		engine_caps_text(r->e->caps, caps, sizeof(caps));
		snprintf(abi, sizeof(abi), "%u.%u", r->e->abi_major, r->e->abi_minor);
		fprintf(f, "%-*s  %-*s  %-5s  %-*s  %s", wn, r->e->name, wv, r->e->version,
			abi, wc, caps, r->path);
		if (r->shadowed_by)
			fprintf(f, "  (shadowed by %s)", rs->r[r->shadowed_by - 1].path);
		else if (!file_matches_name(r))
			fprintf(f, "  (file name is not %s.so: load it by path)", r->e->name);
		fputc('\n', f);
	}
	if (!bad)
		return;
	/* The loader's reason already names the file. */
	fprintf(f, "\ncannot load:\n");
	for (size_t i = 0; i < rs->n; i++)
		if (!rs->r[i].e)
			fprintf(f, "  %s\n", rs->r[i].why);
}

int engines_cmd_list(FILE *f, const struct engine_path *p)
{
	struct rows rs = { NULL, 0 };
	size_t failed = 0;
	int rc = 0;

	for (size_t i = 0; i < p->n && !rc; i++)
		rc = scan_dir(&rs, p->dirs[i]);
	if (!rc && rs.n)
		print_rows(f, &rs);
	else if (!rc)
		fprintf(f, "no engines found\n");
	fprintf(f, "%ssearch path:", rs.n ? "\n" : "");
	for (size_t i = 0; i < p->n; i++)
		fprintf(f, " %s", p->dirs[i]);
	fputc('\n', f);

	for (size_t i = 0; i < rs.n; i++) {
		failed += !rs.r[i].e;
		engine_free(rs.r[i].e);
	}
	free(rs.r);
	if (rc)
		return rc;
	return !rs.n ? -ENOENT : failed ? -ENOEXEC : 0;
}

int engines_cmd_show(FILE *f, const struct engine_path *p, const char *name)
{
	const struct engine *e;
	char err[1024], caps[128];
	int rc = engine_load(p, name, &e, err, sizeof(err));

	if (rc) {
		log_err("%s", err);
		return rc;
	}
	engine_caps_text(e->caps, caps, sizeof(caps));
	fprintf(f, "name:         %s\n", e->name);
	fprintf(f, "version:      %s\n", e->version);
	fprintf(f, "description:  %s\n", e->description);
	fprintf(f, "abi:          %u.%u\n", e->abi_major, e->abi_minor);
	fprintf(f, "capabilities: %s\n", caps);
	fprintf(f, "path:         %s\n", e->path);
	if (!e->n_options) {
		fprintf(f, "options:      none\n");
		return 0;
	}
	fprintf(f, "options:\n");
	options_print_table(f, e->options);
	return 0;
}
