/* Parsing iorig's command line (see cmdline.h and `iorig --help`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "log.h"

void cli_usage(FILE *f)
{
	fputs("usage: iorig [run] [options] JOBFILE   run the jobs of a job file\n"
	      "       iorig validate JOBFILE          check a job file without running it\n"
	      "       iorig engines [NAME]            list engines, or one engine's options\n"
	      "options:\n"
	      "  --output-format=FMT   normal, json, or both: normal,json (default normal)\n"
	      "  --output=FILE         write the report to FILE instead of stdout\n"
	      "  --plugin-dir=DIR      look for engines in DIR first (repeatable)\n"
	      "  --debug               print debug messages (engine details) on stderr\n"
	      "  --quiet               print only errors on stderr\n"
	      "  --version, --help\n"
	      "Engines are also searched in $IORIG_PLUGIN_PATH (colon-separated).\n"
	      "Exit status: 0 ok, 1 I/O or verify failure, 2 usage or job-file error,\n"
	      "128+N stopped by signal N (the report so far is printed).\n",
	      f);
}

/* "--key=value" or "--key value"; returns the value or NULL. */
static const char *opt_value(const char *arg, const char *key, int *i, int argc, char **argv)
{
	size_t kl = strlen(key);

	if (strncmp(arg, key, kl))
		return NULL;
	if (arg[kl] == '=')
		return arg + kl + 1;
	if (arg[kl] == 0 && *i + 1 < argc)
		return argv[++*i];
	return NULL;
}

static int parse_formats(const char *v, unsigned *out, char *err, size_t errlen)
{
	char buf[128];
	char *save, *tok;

	snprintf(buf, sizeof(buf), "%s", v);
	*out = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			*out |= OUT_NORMAL;
		else if (!strcmp(tok, "json"))
			*out |= OUT_JSON;
		else {
			snprintf(err, errlen, "--output-format: unknown format '%s'; accepted: normal, json, "
				 "or both as normal,json", tok);
			return -EINVAL;
		}
	}
	if (!*out) {
		snprintf(err, errlen, "--output-format: empty; accepted: normal, json");
		return -EINVAL;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen)
{
	const char *positional[4];
	int npos = 0, first = 1;

	memset(c, 0, sizeof(*c));
	c->formats = OUT_NORMAL;
	c->log_level = IORIG_LOG_INFO;
	if (argc > 1 && !strcmp(argv[1], "run"))
		first = 2;
	else if (argc > 1 && !strcmp(argv[1], "validate")) {
		c->cmd = CLI_VALIDATE;
		first = 2;
	} else if (argc > 1 && !strcmp(argv[1], "engines")) {
		c->cmd = CLI_ENGINES;
		first = 2;
	}
	for (int i = first; i < argc; i++) {
		const char *a = argv[i], *v;

		if ((v = opt_value(a, "--output-format", &i, argc, argv))) {
			if (parse_formats(v, &c->formats, err, errlen))
				return -EINVAL;
		} else if ((v = opt_value(a, "--output", &i, argc, argv))) {
			c->output = v;
		} else if ((v = opt_value(a, "--plugin-dir", &i, argc, argv))) {
			char **d = realloc(c->plugin_dirs, (c->n_plugin_dirs + 1) * sizeof(*d));
			if (!d)
				return -ENOMEM;
			c->plugin_dirs = d;
			d[c->n_plugin_dirs++] = (char *)v;
		} else if (!strcmp(a, "--debug") || !strcmp(a, "-v")) {
			c->log_level = IORIG_LOG_DEBUG;
		} else if (!strcmp(a, "--quiet") || !strcmp(a, "-q")) {
			c->log_level = IORIG_LOG_ERROR;
		} else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			c->cmd = CLI_HELP;
			return 0;
		} else if (!strcmp(a, "--version")) {
			c->cmd = CLI_VERSION;
			return 0;
		} else if (a[0] == '-' && a[1]) {
			snprintf(err, errlen, "unknown option '%s'; see iorig --help", a);
			return -EINVAL;
		} else if (npos < 4) {
			positional[npos++] = a;
		} else {
			snprintf(err, errlen, "too many arguments; see iorig --help");
			return -EINVAL;
		}
	}
	if (c->cmd == CLI_ENGINES) {
		if (npos > 1) {
			snprintf(err, errlen, "iorig engines takes at most one engine name");
			return -EINVAL;
		}
		c->engine = npos ? positional[0] : NULL;
		return 0;
	}
	if (npos != 1) {
		snprintf(err, errlen, npos ? "give one job file" : "no job file given; see iorig --help");
		return -EINVAL;
	}
	c->jobfile = positional[0];
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->plugin_dirs);
	c->plugin_dirs = NULL;
}
