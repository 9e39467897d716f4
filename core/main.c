/*
 * iorig: read the command line and the job file, run the jobs, write the
 * report.  Exit codes: 0 ok, 1 I/O or verify failure, 2 usage or job-file
 * error, 128+N when stopped by signal N (after printing the report so far).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "cmdline.h"
#include "engine.h"
#include "engines_cmd.h"
#include "log.h"
#include "options.h"
#include "report.h"
#include "scheduler.h"

#define EXIT_IOFAIL 1
#define EXIT_USAGE 2

static int load_jobs(const struct cli *c, const struct engine_path *path, struct job_list *jobs)
{
	struct cfg_doc doc;
	char err[2048];
	int rc;

	memset(&doc, 0, sizeof(doc));
	rc = cfg_read_libconfig(c->jobfile, &doc, err, sizeof(err));
	if (!rc)
		rc = options_build_jobs(&doc, path, jobs, err, sizeof(err));
	cfg_doc_free(&doc);
	if (rc)
		log_err("%s", err);
	return rc;
}

static int write_reports(const struct cli *c, const struct run_result *r)
{
	struct report_model m;
	FILE *out = stdout;
	int rc;

	rc = report_model_build(r, &m);
	if (rc) {
		log_err("cannot build the report: %s", strerror(-rc));
		return rc;
	}
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
	if (fflush(out) && !rc)
		rc = -errno;
	if (out != stdout)
		fclose(out);
	report_model_free(&m);
	return rc;
}

static int run_jobs(const struct cli *c, const struct job_list *jobs)
{
	struct run_result r;
	int rc, status = 0;

	scheduler_install_signals();
	rc = scheduler_run(jobs, &r);
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
	if ((write_reports(c, &r) || rc) && !status)
		status = EXIT_IOFAIL;
	if (r.interrupted)
		status = 128 + scheduler_stop_signal();
	run_result_free(&r);
	return status;
}

int main(int argc, char **argv)
{
	struct cli c;
	struct engine_path path;
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
		if (c.engine)
			status = engines_cmd_show(stdout, &path, c.engine) ? EXIT_USAGE : 0;
		else
			status = engines_cmd_list(stdout, &path) == -ENOENT ? EXIT_USAGE : 0;
		break;
	case CLI_VALIDATE:
		status = load_jobs(&c, &path, &jobs) ? EXIT_USAGE : 0;
		if (!status)
			printf("%s: %u job(s), OK\n", c.jobfile, jobs.n);
		break;
	default:
		if (load_jobs(&c, &path, &jobs))
			status = EXIT_USAGE;
		else
			status = run_jobs(&c, &jobs);
		break;
	}
	job_list_free(&jobs);
	engine_cache_free();
	engine_path_free(&path);
	cli_free(&c);
	return status;
}
