/*
 * iorig's command line: a subcommand (run, validate, engines, convert),
 * iorig's own flags (a table in cmdline.c), and everything else: job files
 * and fio job options (`-rw=read -iodepth 64 --name=job`), kept as argv
 * indexes for fio_args.c, which needs the engines to tell a flag's value
 * from a job file.  Parsing only; main.c acts on the result.
 */
#ifndef IORIG_CMDLINE_H
#define IORIG_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum cli_cmd { CLI_RUN, CLI_VALIDATE, CLI_ENGINES, CLI_CONVERT, CLI_HELP, CLI_VERSION };

#define OUT_NORMAL 1u
#define OUT_JSON 2u
#define OUT_TERSE 4u

struct cli {
	enum cli_cmd cmd;
	/* run, validate, convert: the job file, once main.c has split the job
	 * arguments (fio_args.c); NULL when the jobs are on the command line. */
	const char *jobfile;
	const char *engine;        /* engines NAME */
	const char *output;        /* --output=FILE, NULL: stdout */
	unsigned formats;          /* OUT_* */
	char **plugin_dirs;        /* --plugin-dir, in order */
	size_t n_plugin_dirs;
	int log_level;
	bool show_jobs;            /* --show-jobs: print the parsed jobs (validate) */
	bool check_engine;         /* --check: engines --check NAME (check_engine.h) */
	/* Watching the run (monitor.h). */
	uint64_t status_interval_ns; /* --status-interval: JSON lines; 0 off */
	const char *status_file;   /* --status-file, NULL: stdout */
	int eta;                   /* --eta: enum eta_mode (auto, always, never) */
	const char *report_html;   /* --report-html=FILE */

	/*
	 * Every argument that is not iorig's: job files and fio options with
	 * their values, in order, as indexes into argv (fio_args.c).
	 */
	int *job_args;
	size_t n_job_args;
	int argc;
	char **argv;
};

/* 0, or -EINVAL with a message in err (usage error: exit code 2). */
int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen);
void cli_free(struct cli *c);
void cli_usage(FILE *f);
/* Names of iorig's own flags (without dashes), NULL-terminated: suggestions. */
const char *const *cli_flag_names(void);

#endif
