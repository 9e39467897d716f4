/*
 * iorig's own command line: a subcommand (run, validate, engines), global
 * flags, and the job file.  Parsing only; main.c acts on the result.
 */
#ifndef IORIG_CMDLINE_H
#define IORIG_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

enum cli_cmd { CLI_RUN, CLI_VALIDATE, CLI_ENGINES, CLI_HELP, CLI_VERSION };

#define OUT_NORMAL 1u
#define OUT_JSON 2u

struct cli {
	enum cli_cmd cmd;
	const char *jobfile;       /* run, validate */
	const char *engine;        /* engines NAME */
	const char *output;        /* --output=FILE, NULL: stdout */
	unsigned formats;          /* OUT_* */
	char **plugin_dirs;        /* --plugin-dir, in order */
	size_t n_plugin_dirs;
	int log_level;
};

/* 0, or -EINVAL with a message in err (usage error: exit code 2). */
int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen);
void cli_free(struct cli *c);
void cli_usage(FILE *f);

#endif
