/*
 * Sources of a cfg_doc and the (source, line) encoding of entry lines (see
 * cfg_src.h): lets one doc hold a job file, its includes and command-line
 * options while every message still names the real file and line.
 */
#include "cfg_src.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cfg_src_add(struct cfg_src *s, const char *name, bool is_cmdline)
{
	char **names = realloc(s->names, (s->n + 1) * sizeof(*names));
	bool *cl;

	if (!names)
		return -ENOMEM;
	s->names = names;
	cl = realloc(s->is_cmdline, (s->n + 1) * sizeof(*cl));
	if (!cl)
		return -ENOMEM;
	s->is_cmdline = cl;
	names[s->n] = strdup(name);
	if (!names[s->n])
		return -ENOMEM;
	cl[s->n] = is_cmdline;
	return (int)s->n++;
}

int cfg_src_init(struct cfg_src *s, const char *name, bool is_cmdline)
{
	memset(s, 0, sizeof(*s));
	return cfg_src_add(s, name, is_cmdline) < 0 ? -ENOMEM : 0;
}

void cfg_src_set_argv(struct cfg_src *s, int argc, char *const *argv)
{
	s->argc = argc;
	s->argv = argv;
}

void cfg_src_free(struct cfg_src *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->names[i]);
	free(s->names);
	free(s->is_cmdline);
	memset(s, 0, sizeof(*s));
}

void cfg_src_where(const struct cfg_src *s, int line, char *buf, size_t len)
{
	size_t src = line > 0 ? (size_t)(line / CFG_SRC_STRIDE) : 0;
	int real = line > 0 ? line % CFG_SRC_STRIDE : line;

	if (src >= s->n) {
		snprintf(buf, len, "line %d", line);
		return;
	}
	if (!s->is_cmdline[src]) {
		snprintf(buf, len, "%s:%d", s->names[src], real);
		return;
	}
	if (s->argv && real > 0 && real < s->argc)
		snprintf(buf, len, "command line, argument %d '%s'", real, s->argv[real]);
	else
		snprintf(buf, len, "command line");
}

void cfg_src_rewrite(const struct cfg_src *s, const char *doc_file, char *msg, size_t len)
{
	size_t fl = strlen(doc_file);
	char where[512], *end, *rest;
	long line;

	if (strncmp(msg, doc_file, fl) || msg[fl] != ':')
		return;
	line = strtol(msg + fl + 1, &end, 10);
	if (end == msg + fl + 1 || *end != ':' || line < 0 || line > INT_MAX)
		return;
	cfg_src_where(s, (int)line, where, sizeof(where));
	rest = strdup(end);
	if (!rest)
		return;
	/* The command line has no "global section": options before --name. */
	if ((size_t)line / CFG_SRC_STRIDE < s->n && s->is_cmdline[line / CFG_SRC_STRIDE] &&
	    !strncmp(rest, ": global section (", 18))
		snprintf(msg, len, "%s: global option (%s", where, rest + 18);
	else
		snprintf(msg, len, "%s%s", where, rest);
	free(rest);
}
