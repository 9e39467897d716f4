/*
 * Parsing iorig's command line (see cmdline.h and `iorig --help`).
 *
 * iorig's own flags are the table below, written `--flag`, `-flag`,
 * `--flag=VALUE` or `--flag VALUE` (fio's getopt_long_only habits).  Every
 * other argument is a job file or a fio job option and is kept for
 * fio_args.c.  fio's program flags that iorig lacks are refused by name
 * rather than misread as job options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"
#include "log.h"
#include "parse.h"

/* ---- iorig's own flags ---------------------------------------------------- */

struct cli_flag {
	const char *name;      /* without dashes */
	const char *alias;     /* another spelling, e.g. "q"; NULL: none */
	bool takes_value;
	/* 0, or -EINVAL with a message in err; may end parsing (see stop) */
	int (*apply)(struct cli *c, const char *value, char *err, size_t errlen);
	bool stop;             /* --help, --version: nothing after matters */
	const char *usage;     /* "  --flag=X   what it does" for --help */
};

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
		else if (!strcmp(tok, "terse"))
			*out |= OUT_TERSE;
		else {
			snprintf(err, errlen, "--output-format: unknown format '%s'; accepted: normal, json, "
				 "terse, or several as normal,json", tok);
			return -EINVAL;
		}
	}
	if (!*out) {
		snprintf(err, errlen, "--output-format: empty; accepted: normal, json");
		return -EINVAL;
	}
	return 0;
}

static int f_output_format(struct cli *c, const char *v, char *err, size_t errlen)
{
	return parse_formats(v, &c->formats, err, errlen);
}

static int f_output(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	c->output = v;
	return 0;
}

static int f_plugin_dir(struct cli *c, const char *v, char *err, size_t errlen)
{
	char **d = realloc(c->plugin_dirs, (c->n_plugin_dirs + 1) * sizeof(*d));

	if (!d) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c->plugin_dirs = d;
	d[c->n_plugin_dirs++] = (char *)v;
	return 0;
}

static int f_debug(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->log_level = IORIG_LOG_DEBUG;
	return 0;
}

static int f_quiet(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->log_level = IORIG_LOG_ERROR;
	return 0;
}

static int f_check(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->check_engine = true;
	return 0;
}

static int f_show_jobs(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->show_jobs = true;
	return 0;
}

static int f_status_interval(struct cli *c, const char *v, char *err, size_t errlen)
{
	if (parse_duration_ns(v, &c->status_interval_ns) || c->status_interval_ns < 10000000ull) {
		snprintf(err, errlen, "--status-interval: '%s' is not a duration of at least 10ms; "
			 "accepted: 1 (seconds), 500ms, 1m", v);
		return -EINVAL;
	}
	return 0;
}

static int f_status_file(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	c->status_file = v;
	return 0;
}

static int f_eta(struct cli *c, const char *v, char *err, size_t errlen)
{
	static const char *const modes[] = { "auto", "always", "never" }; /* enum eta_mode */

	for (int k = 0; k < 3; k++)
		if (!strcmp(v, modes[k])) {
			c->eta = k;
			return 0;
		}
	snprintf(err, errlen, "--eta: unknown mode '%s'; accepted: auto, always, never", v);
	return -EINVAL;
}

static int f_report_html(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	c->report_html = v;
	return 0;
}

static int f_minimal(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->formats = OUT_TERSE;
	return 0;
}

static int f_terse_version(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)c;
	if (strcmp(v, "3")) {
		snprintf(err, errlen, "--terse-version: only version 3 is written (got '%s')", v);
		return -EINVAL;
	}
	return 0;
}

static int f_help(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->cmd = CLI_HELP;
	return 0;
}

static int f_version(struct cli *c, const char *v, char *err, size_t errlen)
{
	(void)v;
	(void)err;
	(void)errlen;
	c->cmd = CLI_VERSION;
	return 0;
}

/*
 * Global flags: add a row (and a field in struct cli) for a new one.  A
 * name here can never be a job option, so keep them distinct from fio's
 * job option names.
 */
static const struct cli_flag flags[] = {
	{ "output-format", NULL, true, f_output_format, false,
	  "  --output-format=FMT   normal, json, terse, or several: normal,json (default normal)\n" },
	{ "output", NULL, true, f_output, false,
	  "  --output=FILE         write the report to FILE instead of stdout\n" },
	{ "plugin-dir", NULL, true, f_plugin_dir, false,
	  "  --plugin-dir=DIR      look for engines in DIR first (repeatable)\n" },
	{ "debug", "v", false, f_debug, false,
	  "  --debug               print debug messages (engine details) on stderr\n" },
	{ "quiet", "q", false, f_quiet, false,
	  "  --quiet               print only errors on stderr (no notes)\n" },
	{ "check", NULL, false, f_check, false,
	  "  --check               engines: conformance-check engine NAME (or PATH.so)\n" },
	{ "show-jobs", NULL, false, f_show_jobs, false,
	  "  --show-jobs           validate: print every job's options as parsed\n" },
	{ "status-interval", NULL, true, f_status_interval, false,
	  "  --status-interval=T   every T (1, 500ms, 1m) a JSON line with that interval's figures\n" },
	{ "status-file", NULL, true, f_status_file, false,
	  "  --status-file=FILE    write the interval lines to FILE instead of stdout\n" },
	{ "eta", NULL, true, f_eta, false,
	  "  --eta=WHEN            progress line on stderr: auto (on a terminal), always, never\n" },
	{ "report-html", NULL, true, f_report_html, false,
	  "  --report-html=FILE    also write a self-contained HTML report with charts\n" },
	{ "minimal", NULL, false, f_minimal, false,
	  "  --minimal             terse output only (as --output-format=terse)\n" },
	{ "terse-version", NULL, true, f_terse_version, false, NULL },
	{ "help", "h", false, f_help, true, NULL },
	{ "version", NULL, false, f_version, true, "  --version, --help\n" },
};

#define N_FLAGS (sizeof(flags) / sizeof(flags[0]))

/*
 * fio's program flags iorig does not have: refused by name, with what to
 * use instead, so that they are not taken for (unknown) job options.
 */
static const struct {
	const char *name;
	const char *hint;
} fio_only[] = {
	{ "parse-only", "use `iorig validate JOBFILE`" },
	{ "showcmd", "use `iorig convert JOBFILE` to see a job file as iorig reads it" },
	{ "cmdhelp", "`iorig engines NAME` lists an engine's options; docs/job-file.md the "
		     "core options" },
	{ "enghelp", "use `iorig engines` or `iorig engines NAME`" },
	{ "append-terse", "use --output-format=normal,terse" },
	{ "readonly", "check a job file with `iorig validate` instead" },
	{ "section", "split the job file, or convert it and edit the result" },
	{ "eta-newline", NULL },
	{ "eta-interval", NULL },
	{ "bandwidth-log", NULL },
	{ "warnings-fatal", NULL },
	{ "max-jobs", NULL },
	{ "server", NULL },
	{ "client", NULL },
	{ "daemonize", NULL },
	{ "remote-config", NULL },
	{ "idle-prof", NULL },
	{ "inflate-log", NULL },
	{ "trigger-file", NULL },
	{ "trigger-timeout", NULL },
	{ "trigger", NULL },
	{ "trigger-remote", NULL },
	{ "aux-path", NULL },
	{ "alloc-size", NULL },
	{ "crctest", NULL },
	{ "cpuclock-test", NULL },
};

void cli_usage(FILE *f)
{
	fputs("usage: iorig [run] [options] JOBFILE      run the jobs of a job file (libconfig or fio INI)\n"
	      "       iorig [run] [options] FIO-OPTIONS  run jobs given as fio options:\n"
	      "             iorig -rw=randread -bs=4k -size=1g -filename=f -name=job\n"
	      "       iorig validate [--show-jobs] JOBFILE|FIO-OPTIONS  check without running\n"
	      "       iorig convert JOBFILE|FIO-OPTIONS  print the jobs as a libconfig job file\n"
	      "       iorig engines [NAME]               list engines, or one engine's options\n"
	      "       iorig engines --check NAME|PATH.so conformance checks of an engine\n"
	      "options:\n", f);
	for (size_t i = 0; i < N_FLAGS; i++)
		if (flags[i].usage)
			fputs(flags[i].usage, f);
	fputs("FIO-OPTIONS: fio's syntax (-opt=val, --opt=val, -opt val, bare flags); options\n"
	      "before the first --name are global, each --name starts a job.  Given with a\n"
	      "JOBFILE, global options are defaults the file's own settings override.\n"
	      "Engines are also searched in $IORIG_PLUGIN_PATH (colon-separated).\n"
	      "Exit status: 0 ok, 1 I/O or verify failure, 2 usage or job-file error,\n"
	      "128+N stopped by signal N (the report so far is printed).\n",
	      f);
}

const char *const *cli_flag_names(void)
{
	static const char *names[N_FLAGS + 1];

	for (size_t i = 0; i < N_FLAGS; i++)
		names[i] = flags[i].name;
	return names;
}

/* "--name", "-name", "--name=v", "-name=v"; sets *value (NULL: none). */
static bool flag_match(const char *arg, const char *name, const char **value)
{
	size_t nl = strlen(name);
	const char *p = arg;

	if (*p != '-')
		return false;
	p += p[1] == '-' ? 2 : 1;
	if (strncmp(p, name, nl) || (p[nl] && p[nl] != '='))
		return false;
	*value = p[nl] == '=' ? p + nl + 1 : NULL;
	return true;
}

/* 1: arg was one of iorig's flags (and *i may have moved past its value). */
static int try_flag(struct cli *c, int argc, char **argv, int *i, char *err, size_t errlen)
{
	const char *a = argv[*i], *v;

	for (size_t k = 0; k < N_FLAGS; k++) {
		const struct cli_flag *fl = &flags[k];
		int rc;

		if (!flag_match(a, fl->name, &v) && !(fl->alias && flag_match(a, fl->alias, &v)))
			continue;
		if (fl->takes_value && !v) {
			if (*i + 1 >= argc) {
				snprintf(err, errlen, "--%s needs a value: --%s=VALUE", fl->name,
					 fl->name);
				return -EINVAL;
			}
			v = argv[++*i];
		} else if (!fl->takes_value && v && strcmp(fl->name, "debug")) {
			snprintf(err, errlen, "--%s takes no value (got '%s')", fl->name, a);
			return -EINVAL;
		}
		/* fio's --debug=io,file...: iorig has one debug level. */
		rc = fl->apply(c, v, err, errlen);
		return rc ? rc : fl->stop ? 2 : 1;
	}
	for (size_t k = 0; k < sizeof(fio_only) / sizeof(fio_only[0]); k++) {
		if (!flag_match(a, fio_only[k].name, &v))
			continue;
		snprintf(err, errlen, "fio's --%s is not supported by iorig%s%s", fio_only[k].name,
			 fio_only[k].hint ? ": " : "", fio_only[k].hint ? fio_only[k].hint : "");
		return -EINVAL;
	}
	return 0;
}

static int keep_arg(struct cli *c, int i)
{
	int *a = realloc(c->job_args, (c->n_job_args + 1) * sizeof(*a));

	if (!a)
		return -ENOMEM;
	c->job_args = a;
	a[c->n_job_args++] = i;
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *c, char *err, size_t errlen)
{
	static const struct {
		const char *word;
		enum cli_cmd cmd;
	} cmds[] = {
		{ "run", CLI_RUN }, { "validate", CLI_VALIDATE }, { "engines", CLI_ENGINES },
		{ "convert", CLI_CONVERT },
	};
	int first = 1;

	memset(c, 0, sizeof(*c));
	c->formats = OUT_NORMAL;
	c->log_level = IORIG_LOG_INFO;
	c->argc = argc;
	c->argv = argv;
	for (size_t k = 0; argc > 1 && k < sizeof(cmds) / sizeof(cmds[0]); k++)
		if (!strcmp(argv[1], cmds[k].word)) {
			c->cmd = cmds[k].cmd;
			first = 2;
		}
	for (int i = first; i < argc; i++) {
		int rc = try_flag(c, argc, argv, &i, err, errlen);

		if (rc < 0)
			return -EINVAL;
		if (rc == 2)
			return 0;
		if (rc == 0 && keep_arg(c, i)) {
			snprintf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	if (c->show_jobs && c->cmd != CLI_VALIDATE) {
		snprintf(err, errlen, "--show-jobs goes with validate: iorig validate --show-jobs "
			 "JOBFILE");
		return -EINVAL;
	}
	if (c->check_engine && (c->cmd != CLI_ENGINES || c->n_job_args != 1)) {
		snprintf(err, errlen, "--check goes with engines and one engine: "
			 "iorig engines --check NAME|PATH.so");
		return -EINVAL;
	}
	if (c->cmd == CLI_ENGINES) {
		for (size_t k = 0; k < c->n_job_args; k++)
			if (argv[c->job_args[k]][0] == '-') {
				snprintf(err, errlen, "unknown option '%s'; see iorig --help",
					 argv[c->job_args[k]]);
				return -EINVAL;
			}
		if (c->n_job_args > 1) {
			snprintf(err, errlen, "iorig engines takes at most one engine name");
			return -EINVAL;
		}
		c->engine = c->n_job_args ? argv[c->job_args[0]] : NULL;
		return 0;
	}
	if (!c->n_job_args) {
		snprintf(err, errlen, "no job file given; see iorig --help");
		return -EINVAL;
	}
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->plugin_dirs);
	c->plugin_dirs = NULL;
	free(c->job_args);
	c->job_args = NULL;
	c->n_job_args = 0;
}
