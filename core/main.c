/*
 * iorig: read the command line and the jobs (a libconfig or fio job file,
 * or fio options: job_source.c), run them, write the report.  Exit codes:
 * 0 ok, 1 I/O or verify failure, 2 usage or job-file error, 128+N when
 * stopped by signal N (after printing the report so far).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "check_engine.h"
#include "cmdline.h"
#include "convert.h"
#include "engine.h"
#include "engines_cmd.h"
#include "fio_compat.h"
#include "job_dump.h"
#include "job_source.h"
#include "log.h"
#include "monitor.h"
#include "options.h"
#include "report.h"
#include "scheduler.h"

#define EXIT_IOFAIL 1
#define EXIT_USAGE 2

/*
 * Read the jobs (job file and/or fio options) and build them.  Notes about
 * fio options with no effect go to stderr, one line each.
 */
static int load_jobs(struct cli *c, const struct engine_path *path, struct job_source *js,
		     struct job_list *jobs)
{
	char err[2048];
	int rc;

	rc = job_source_load(c, path, js, err, sizeof(err));
	if (!rc) {
		c->jobfile = js->jobfile;
		for (size_t i = 0; i < js->notes.n; i++)
			log_info("note: %s", js->notes.lines[i]);
		rc = job_source_build(js, path, jobs, err, sizeof(err));
	}
	if (rc)
		log_err("%s", err);
	return rc;
}

/* The converted file goes to stdout whole or not at all. */
static int convert_jobs(const struct job_source *js, const struct job_list *jobs)
{
	char err[1024], *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc;

	if (!mem) {
		log_err("cannot convert: out of memory");
		return -ENOMEM;
	}
	rc = convert_write(mem, js, jobs, err, sizeof(err));
	if (fclose(mem) && !rc) {
		rc = -ENOMEM;
		snprintf(err, sizeof(err), "cannot convert: out of memory");
	}
	if (!rc && (fwrite(text, 1, len, stdout) != len || fflush(stdout))) {
		rc = -errno;
		snprintf(err, sizeof(err), "cannot write the converted job file: %s",
			 strerror(errno));
	}
	free(text);
	if (rc)
		log_err("%s", err);
	return rc;
}

static int write_html(const char *path, const struct report_model *m)
{
	FILE *f = fopen(path, "w");
	int rc;

	if (!f) {
		rc = -errno;
		log_err("--report-html: cannot create %s: %s", path, strerror(errno));
		return rc;
	}
	rc = report_html(f, m);
	if (fclose(f) && !rc)
		rc = -errno;
	if (rc)
		log_err("--report-html: writing %s failed: %s", path, strerror(-rc));
	return rc;
}

static int write_reports(const struct cli *c, const struct run_result *r,
			 const struct monitor *mon, const struct cfg_section *globals)
{
	struct report_model m;
	FILE *out = stdout;
	int rc;

	rc = report_model_build(r, mon, &m);
	if (rc) {
		log_err("cannot build the report: %s", strerror(-rc));
		return rc;
	}
	m.globals = globals;
	if (c->output && !(out = fopen(c->output, "w"))) {
		rc = -errno;
		log_err("cannot write the report to %s: %s", c->output, strerror(errno));
		report_model_free(&m);
		return rc;
	}
	if (c->formats & OUT_NORMAL)
		rc = report_normal(out, &m);
	if (!rc && (c->formats & OUT_JSON))
		rc = report_json(out, &m);
	if (!rc && (c->formats & OUT_TERSE))
		rc = report_terse(out, &m);
	if (fflush(out) && !rc)
		rc = -errno;
	if (out != stdout)
		fclose(out);
	if (!rc && c->report_html)
		rc = write_html(c->report_html, &m);
	report_model_free(&m);
	return rc;
}

static int run_jobs(const struct cli *c, const struct job_source *js,
		    const struct job_list *jobs)
{
	struct monitor_opts mo = { c->status_interval_ns, c->status_file, (enum eta_mode)c->eta };
	struct monitor *mon;
	struct run_result r;
	int rc, status = 0;

	if (monitor_create(&mon, &mo))
		return EXIT_USAGE;
	scheduler_install_signals();
	rc = scheduler_run(jobs, mon, &r);
	if (rc)
		log_err("the run could not complete: %s", strerror(-rc));
	for (size_t i = 0; i < r.n; i++)
		if (r.res[i].error) {
			log_err("%s", r.res[i].errmsg);
			if (status != EXIT_USAGE)
				status = r.res[i].setup_error ? EXIT_USAGE : EXIT_IOFAIL;
		}
	if (r.interrupted)
		log_warn("interrupted by signal %d: the report covers the run so far",
			 scheduler_stop_signal());
	if ((write_reports(c, &r, mon, &js->globals) || rc) && !status)
		status = EXIT_IOFAIL;
	if (r.interrupted)
		status = 128 + scheduler_stop_signal();
	run_result_free(&r);
	monitor_destroy(mon);
	return status;
}

int main(int argc, char **argv)
{
	struct cli c;
	struct engine_path path;
	struct job_source js = { 0 };
	struct job_list jobs = { 0 };
	char err[1024];
	int status = 0;

	if (cli_parse(argc, argv, &c, err, sizeof(err))) {
		fprintf(stderr, "iorig: %s\n", err);
		cli_free(&c);
		return EXIT_USAGE;
	}
	log_set_level(c.log_level);
	if (c.cmd == CLI_HELP) {
		cli_usage(stdout);
		cli_free(&c);
		return 0;
	}
	if (c.cmd == CLI_VERSION) {
		printf("iorig %s (engine ABI %d.%d)\n", IORIG_VERSION, IORIG_ABI_MAJOR, IORIG_ABI_MINOR);
		cli_free(&c);
		return 0;
	}
	if (engine_path_init(&path, c.plugin_dirs, c.n_plugin_dirs)) {
		log_err("out of memory");
		cli_free(&c);
		return EXIT_USAGE;
	}
	switch (c.cmd) {
	case CLI_ENGINES:
		if (c.check_engine)
			status = check_engine_cmd(stdout, &path, c.engine); /* 0, 1 or 2 */
		else if (c.engine)
			status = engines_cmd_show(stdout, &path, c.engine) ? EXIT_USAGE : 0;
		else
			status = engines_cmd_list(stdout, &path) == -ENOENT ? EXIT_USAGE : 0;
		break;
	case CLI_VALIDATE:
		status = load_jobs(&c, &path, &js, &jobs) ? EXIT_USAGE : 0;
		if (!status && c.show_jobs)
			job_dump(stdout, &jobs);
		if (!status)
			printf("%s: %u job(s), OK\n", js.doc.file, jobs.n);
		break;
	case CLI_CONVERT:
		status = load_jobs(&c, &path, &js, &jobs) ? EXIT_USAGE : 0;
		if (!status) { /* a job the file format cannot say is the user's to rewrite */
			int rc = convert_jobs(&js, &jobs);

			status = rc == -EINVAL ? EXIT_USAGE : rc ? EXIT_IOFAIL : 0;
		}
		break;
	default:
		if (load_jobs(&c, &path, &js, &jobs))
			status = EXIT_USAGE;
		else
			status = run_jobs(&c, &js, &jobs);
		break;
	}
	job_list_free(&jobs);
	job_source_free(&js);
	engine_cache_free();
	engine_path_free(&path);
	cli_free(&c);
	return status;
}
