/*
 * Job files to jobs: the libconfig reader (core/jobfile_libconfig.c), the
 * cfg model (core/cfg.c) and the option binder (core/options.c).  Job files
 * are written into a temp dir by each test; every config error is checked
 * for its exact text and line.  Engines come from the real loader: null and
 * psync from the build's plugin dir, lt_good (an engine with one option of
 * each type) from the loader tests' build dir.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfg.h"
#include "engine.h"
#include "job.h"
#include "options.h"

#define PLUGIN_DIR IORIG_BUILD_PLUGIN_DIR
#define LT_DIR IORIG_TEST_BIN_DIR "/loader/good"

static char *dirs[] = { PLUGIN_DIR, LT_DIR };
static const struct engine_path epath = { dirs, 2 };
static char tmpdir[256];
static char path[512];
static char err[2048];

/* lt_good's options struct (tests/loader/lt_plugin.c). */
struct lt_opts {
	int checked;
	int64_t depth;
	uint64_t chunk;
	uint64_t delay;
	const char *tag;
	int mode;
};

static int setup(void **state)
{
	(void)state;
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/iorig-test-options-XXXXXX");
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	engine_cache_free();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static const char *write_cfg(const char *name, const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
	return path;
}

static bool have(const char *so)
{
	return access(so, R_OK) == 0;
}

#define NEED_NULL()                                                            \
	do {                                                                   \
		if (!have(PLUGIN_DIR "/null.so") || !have(PLUGIN_DIR "/psync.so")) { \
			fprintf(stderr, "skip: null.so/psync.so not built in "    \
				PLUGIN_DIR "\n");                             \
			skip();                                                \
		}                                                              \
	} while (0)

#define NEED_LT()                                                              \
	do {                                                                   \
		if (!have(LT_DIR "/lt_good.so")) {                             \
			fprintf(stderr, "skip: " LT_DIR "/lt_good.so not built "  \
				"(build target lt_good)\n");                  \
			skip();                                                \
		}                                                              \
	} while (0)

/* Read and bind; returns the rc of whichever step failed. */
static int load(const char *text, struct job_list *jobs)
{
	struct cfg_doc doc;
	int rc;

	err[0] = '\0';
	memset(jobs, 0, sizeof(*jobs));
	rc = cfg_read_libconfig(write_cfg("job.cfg", text), &doc, err, sizeof(err));
	if (rc)
		return rc;
	rc = options_build_jobs(&doc, &epath, jobs, err, sizeof(err));
	cfg_doc_free(&doc);
	return rc;
}

static void load_ok(const char *text, struct job_list *jobs)
{
	int rc = load(text, jobs);

	if (rc)
		fail_msg("unexpected error %d: %s", rc, err);
}

/* The load fails with exactly "<path>:" + expect_tail. */
static void load_err(const char *text, const char *expect_tail)
{
	struct job_list jobs;
	char expect[2048];
	int rc = load(text, &jobs);

	assert_int_equal(rc, -EINVAL);
	assert_null(jobs.jobs);
	snprintf(expect, sizeof(expect), "%s:%s", path, expect_tail);
	assert_string_equal(err, expect);
}

/* ---- the cfg model and the libconfig reader ------------------------------ */

static void test_cfg_section(void **state)
{
	struct cfg_doc d = { 0 };
	struct cfg_section *s;

	(void)state;
	assert_int_equal(cfg_section_add(&d.global, "bs", "4k", "f", 3), 0);
	for (int i = 0; i < 40; i++) /* grows past the first allocation */
		assert_int_equal(cfg_section_add(&d.global, "x", "y", "f", i), 0);
	assert_int_equal(cfg_section_add(&d.global, "bs", "8k", "f", 50), 0);
	assert_int_equal(d.global.n, 42);
	assert_string_equal(cfg_section_find(&d.global, "bs")->value, "8k");
	assert_int_equal(cfg_section_find(&d.global, "bs")->line, 50);
	assert_null(cfg_section_find(&d.global, "nope"));
	for (int i = 0; i < 20; i++) {
		char name[16];

		snprintf(name, sizeof(name), "j%d", i);
		s = cfg_doc_add_job(&d, name, 100 + i);
		assert_non_null(s);
	}
	assert_int_equal(d.n_jobs, 20);
	assert_string_equal(d.jobs[19].name, "j19");
	assert_int_equal(d.jobs[19].line, 119);
	assert_int_equal(d.jobs[3].n, 0);
	cfg_doc_free(&d);
	assert_int_equal(d.n_jobs, 0);
	cfg_doc_free(&d); /* twice is harmless */
}

static void test_reader_values(void **state)
{
	struct cfg_doc d;
	const struct cfg_section *j;

	(void)state;
	assert_int_equal(cfg_read_libconfig(write_cfg("values.cfg",
		"global = {\n"                          /* 1 */
		"  size = \"1g\";\n"                    /* 2 */
		"  engine_options = { depth = 4; };\n"  /* 3 */
		"};\n"                                  /* 4 */
		"jobs = (\n"                            /* 5 */
		"  { name = \"first\";\n"               /* 6 */
		"    iodepth = 16;\n"                   /* 7 */
		"    big = 8589934592L;\n"              /* 8 */
		"    pct = 99.5;\n"                     /* 9 */
		"    direct = true;\n"                  /* 10 */
		"    off = false;\n"                    /* 11 */
		"    filename = [\"a\", \"b:c\"];\n"    /* 12 */
		"    mixed = (1, \"x\", 2.5);\n"        /* 13 */
		"    engine_options = {\n"              /* 14 */
		"      tag = \"t\";\n"                  /* 15 */
		"    };\n"                              /* 16 */
		"  },\n"                                /* 17 */
		"  { rw = \"write\"; }\n"               /* 18 */
		");\n"), &d, err, sizeof(err)), 0);
	assert_string_equal(d.file, path);
	assert_string_equal(d.global.name, "global");
	assert_int_equal(d.global.line, 1);
	assert_int_equal(d.global.n, 2);
	assert_string_equal(d.global.entries[1].key, "depth");
	assert_string_equal(d.global.entries[1].value, "4");
	assert_int_equal(d.global.entries[1].line, 3);
	assert_ptr_equal(d.global.entries[1].file, d.file);

	assert_int_equal(d.n_jobs, 2);
	j = &d.jobs[0];
	assert_string_equal(j->name, "first");
	assert_int_equal(j->line, 6);
	assert_string_equal(cfg_section_find(j, "name")->value, "first");
	assert_string_equal(cfg_section_find(j, "iodepth")->value, "16");
	assert_int_equal(cfg_section_find(j, "iodepth")->line, 7);
	assert_string_equal(cfg_section_find(j, "big")->value, "8589934592");
	assert_string_equal(cfg_section_find(j, "pct")->value, "99.5");
	assert_string_equal(cfg_section_find(j, "direct")->value, "1");
	assert_string_equal(cfg_section_find(j, "off")->value, "0");
	assert_string_equal(cfg_section_find(j, "filename")->value, "a:b\\:c");
	assert_int_equal(cfg_section_find(j, "filename")->line, 12);
	assert_string_equal(cfg_section_find(j, "mixed")->value, "1:x:2.5");
	assert_string_equal(cfg_section_find(j, "tag")->value, "t");
	assert_int_equal(cfg_section_find(j, "tag")->line, 15);
	assert_null(cfg_section_find(j, "engine_options"));
	/* No name: "job<index>". */
	assert_string_equal(d.jobs[1].name, "job1");
	assert_int_equal(d.jobs[1].line, 18);
	cfg_doc_free(&d);
}

static void reader_err(const char *text, const char *expect_tail)
{
	struct cfg_doc d;
	char expect[2048];

	assert_int_equal(cfg_read_libconfig(write_cfg("bad.cfg", text), &d, err, sizeof(err)),
			 -EINVAL);
	snprintf(expect, sizeof(expect), "%s:%s", path, expect_tail);
	assert_string_equal(err, expect);
	assert_int_equal(d.n_jobs, 0); /* nothing left to free */
	assert_null(d.file);
}

static void test_reader_errors(void **state)
{
	struct cfg_doc d;

	(void)state;
	/* libconfig's own syntax error, at its line: rw's value is unquoted. */
	reader_err("jobs = (\n  { size = \"1m\";\n    rw = read;\n  }\n);\n",
		   "3: syntax error");
	reader_err("global = {\n  bs = \"4k\";\n\n  size = ;\n};\n", "4: syntax error");
	reader_err("global = { size = \"1m\"; };\nfoo = 1;\n",
		   "2: unknown top-level setting 'foo'; a job file holds "
		   "'global = { ... };' and 'jobs = ( { ... } );'");
	reader_err("global = 5;\n", "1: global: must be a group: global = { ... };");
	reader_err("jobs = { a = 1; };\n",
		   "1: jobs: must be a list of groups: jobs = ( { ... }, { ... } );");
	reader_err("jobs = (\n  { size = \"1m\"; },\n  5\n);\n",
		   "3: jobs: every element must be a group { ... }");
	reader_err("jobs = (\n  { size = \"1m\";\n    opts = { a = 1; };\n  }\n);\n",
		   "3: 'opts': unexpected group; only 'engine_options' may be a group "
		   "inside a job or global");
	reader_err("jobs = (\n  { engine_options = {\n      x = { y = 1; };\n  }; }\n);\n",
		   "3: 'x': engine_options holds plain settings, not groups");
	reader_err("jobs = (\n  { filename = (\"a\",\n     (\"b\")); }\n);\n",
		   "3: 'filename': a list may hold only numbers, strings or booleans");
	reader_err("jobs = ( { name = \"\"; } );\n", "1: name: a job name cannot be empty");

	/* A missing file: errno, no line. */
	snprintf(path, sizeof(path), "%s/none.cfg", tmpdir);
	assert_int_equal(cfg_read_libconfig(path, &d, err, sizeof(err)), -ENOENT);
	assert_non_null(strstr(err, "none.cfg: cannot open job file: No such file"));
}

/* ---- binding core options ------------------------------------------------ */

static void test_defaults(void **state)
{
	static const double fio_pcts[] = { 1, 5, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95,
					   99, 99.5, 99.9, 99.95, 99.99 };
	struct job_list l;
	const struct job_opts *o;

	(void)state;
	NEED_NULL();
	load_ok("jobs = (\n  { size = \"1m\"; }\n);\n", &l);
	assert_int_equal(l.n, 1);
	o = &l.jobs[0].o;
	assert_string_equal(o->name, "job0");
	assert_null(o->description);
	assert_string_equal(o->ioengine, "psync");
	assert_string_equal(l.jobs[0].engine->name, "psync");
	assert_null(o->filename);
	assert_null(o->directory);
	assert_int_equal(o->nrfiles, 1);
	assert_int_equal(o->size, 1048576);
	assert_int_equal(o->io_size, 0);
	assert_int_equal(o->offset, 0);
	assert_int_equal(o->loops, 1);
	for (int d = 0; d < DDIR_COUNT; d++) {
		assert_int_equal(o->bs[d], 4096);
		assert_int_equal(o->bs_min[d], 4096);
		assert_int_equal(o->bs_max[d], 4096);
	}
	assert_int_equal(o->rw, RW_READ);
	assert_int_equal(o->rwmixread, 50);
	assert_int_equal(o->iodepth, 1);
	assert_int_equal(o->iodepth_batch_submit, 1);
	assert_int_equal(o->iodepth_batch_complete_min, 1);
	assert_int_equal(o->iodepth_batch_complete_max, 1);
	assert_int_equal(o->numjobs, 1);
	assert_int_equal(o->runtime_ns, 0);
	assert_false(o->time_based);
	assert_false(o->direct);
	assert_int_equal(o->fsync_every, 0);
	assert_true(o->randrepeat);
	assert_false(o->randseed_set);
	assert_false(o->stonewall);
	assert_false(o->has_cpus);
	assert_int_equal(o->n_percentiles, 17);
	for (int i = 0; i < 17; i++)
		assert_true(o->percentiles[i] == fio_pcts[i]);
	assert_non_null(o->engine_opts);
	assert_int_equal(l.jobs[0].index, 0);
	assert_int_equal(l.jobs[0].groupid, 0);
	assert_string_equal(l.jobs[0].src_file, path);
	assert_int_equal(l.jobs[0].src_line, 2);
	job_list_free(&l);
	assert_null(l.jobs);
}

static void test_values(void **state)
{
	struct job_list l;
	const struct job_opts *o;

	(void)state;
	NEED_NULL();
	load_ok("jobs = ( {\n"
		"  name = \"v\"; description = \"d\"; ioengine = \"null\";\n"
		"  filename = [\"/dev/a\", \"b\"]; directory = \"/tmp\"; nrfiles = 3;\n"
		"  size = \"2g\"; io_size = \"1g\"; offset = \"0x1000\"; loops = 2;\n"
		"  bs = \"4k,8k\"; rw = \"readwrite\"; rwmixwrite = 30;\n"
		"  iodepth = 32; iodepth_batch = 0; iodepth_batch_complete = 4;\n"
		"  iodepth_batch_complete_max = 64;\n"
		"  numjobs = 4; runtime = \"1m\"; time_based = true; ramp_time = \"500ms\";\n"
		"  startdelay = 2; direct = true; fsync = 8; fdatasync = 16; end_fsync = 1;\n"
		"  norandommap = \"yes\"; randrepeat = false; randseed = \"0xffffffffffffffff\";\n"
		"  group_reporting = true; cpus_allowed = \"0-3,6\"; unlink = true;\n"
		"  percentile_list = \"99.9:50\";\n"
		"} );\n", &l);
	o = &l.jobs[0].o;
	assert_string_equal(o->name, "v");
	assert_string_equal(o->description, "d");
	assert_string_equal(l.jobs[0].engine->name, "null");
	/* As given: files.c joins directory and each relative name. */
	assert_string_equal(o->filename, "/dev/a:b");
	assert_string_equal(o->directory, "/tmp");
	assert_int_equal(o->nrfiles, 3);
	assert_int_equal(o->size, 2ull << 30);
	assert_int_equal(o->io_size, 1ull << 30);
	assert_int_equal(o->offset, 4096);
	assert_int_equal(o->loops, 2);
	/* fio: two values set read and write; trim takes write's. */
	assert_int_equal(o->bs[DDIR_READ], 4096);
	assert_int_equal(o->bs[DDIR_WRITE], 8192);
	assert_int_equal(o->bs[DDIR_TRIM], 8192);
	assert_int_equal(o->bs_min[DDIR_WRITE], 8192);
	assert_int_equal(o->bs_max[DDIR_READ], 4096);
	assert_int_equal(o->rw, RW_RW);
	assert_int_equal(o->rwmixread, 70);
	assert_int_equal(o->iodepth, 32);
	assert_int_equal(o->iodepth_batch_submit, 32);       /* 0: iodepth */
	assert_int_equal(o->iodepth_batch_complete_min, 4);
	assert_int_equal(o->iodepth_batch_complete_max, 32); /* capped */
	assert_int_equal(o->numjobs, 4);
	assert_int_equal(o->runtime_ns, 60000000000ull);
	assert_true(o->time_based);
	assert_int_equal(o->ramp_time_ns, 500000000ull);
	assert_int_equal(o->startdelay_ns, 2000000000ull);
	assert_true(o->direct);
	assert_int_equal(o->fsync_every, 8);
	assert_int_equal(o->fdatasync_every, 16);
	assert_true(o->end_fsync);
	assert_true(o->norandommap);
	assert_false(o->randrepeat);
	assert_true(o->randseed_set);
	assert_true(o->randseed == UINT64_MAX);
	assert_true(o->group_reporting);
	assert_true(o->has_cpus);
	assert_true(o->cpus_allowed[0] == 0x4f);
	assert_true(o->unlink);
	assert_int_equal(o->n_percentiles, 2);
	assert_true(o->percentiles[0] == 50.0 && o->percentiles[1] == 99.9); /* sorted */
	job_list_free(&l);
}

static void test_bs_forms(void **state)
{
	struct job_list l;
	const struct job_opts *o;

	(void)state;
	NEED_NULL();
	load_ok("global = { size = \"1m\"; ioengine = \"null\"; };\n"
		"jobs = ( { bs = \",16k\"; },\n"
		"         { blocksize = \"8k,\"; },\n"
		"         { bs = \"1k,2k,3k\"; },\n"
		"         { bsrange = \"64k-4k\"; },\n"
		"         { bsrange = \"1k:2k,4k-8k\"; },\n"
		"         { bsrange = \"1k-2k\"; bs = \"512\"; },\n"
		"         { bs = \"512\"; bsrange = \"1k-2k\"; rw = \"RandRW\"; } );\n", &l);
	o = &l.jobs[0].o; /* empty field keeps the default */
	assert_int_equal(o->bs[DDIR_READ], 4096);
	assert_int_equal(o->bs[DDIR_WRITE], 16384);
	assert_int_equal(o->bs[DDIR_TRIM], 16384);
	o = &l.jobs[1].o;
	assert_int_equal(o->bs[DDIR_READ], 8192);
	assert_int_equal(o->bs[DDIR_WRITE], 4096);
	assert_int_equal(o->bs[DDIR_TRIM], 4096);
	o = &l.jobs[2].o;
	assert_int_equal(o->bs[DDIR_READ], 1024);
	assert_int_equal(o->bs[DDIR_WRITE], 2048);
	assert_int_equal(o->bs[DDIR_TRIM], 3072);
	o = &l.jobs[3].o; /* reversed range swapped, as fio */
	for (int d = 0; d < DDIR_COUNT; d++) {
		assert_int_equal(o->bs_min[d], 4096);
		assert_int_equal(o->bs_max[d], 65536);
	}
	o = &l.jobs[4].o;
	assert_int_equal(o->bs_min[DDIR_READ], 1024);
	assert_int_equal(o->bs_max[DDIR_READ], 2048);
	assert_int_equal(o->bs_min[DDIR_WRITE], 4096);
	assert_int_equal(o->bs_max[DDIR_WRITE], 8192);
	assert_int_equal(o->bs_min[DDIR_TRIM], 4096);
	assert_int_equal(o->bs_max[DDIR_TRIM], 8192);
	o = &l.jobs[5].o; /* the later of bs and bsrange wins */
	assert_int_equal(o->bs_min[DDIR_READ], 512);
	assert_int_equal(o->bs_max[DDIR_READ], 512);
	o = &l.jobs[6].o;
	assert_int_equal(o->bs_min[DDIR_READ], 1024);
	assert_int_equal(o->bs_max[DDIR_READ], 2048);
	assert_int_equal(o->rw, RW_RANDRW);
	job_list_free(&l);
}

static void test_global_applies(void **state)
{
	struct job_list l;

	(void)state;
	NEED_NULL();
	load_ok("global = { ioengine = \"null\"; bs = \"8k\"; size = \"1m\"; iodepth = 8; };\n"
		"jobs = ( { name = \"a\"; },\n"
		"         { name = \"b\"; bs = \"16k\"; ioengine = \"psync\"; } );\n", &l);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.jobs[0].o.name, "a");
	assert_string_equal(l.jobs[0].engine->name, "null");
	assert_int_equal(l.jobs[0].o.bs[DDIR_READ], 8192);
	assert_int_equal(l.jobs[0].o.iodepth, 8);
	assert_int_equal(l.jobs[0].o.size, 1048576);
	assert_string_equal(l.jobs[1].o.name, "b");
	assert_string_equal(l.jobs[1].engine->name, "psync");
	assert_int_equal(l.jobs[1].o.bs[DDIR_READ], 16384);
	assert_int_equal(l.jobs[1].o.iodepth, 8);
	assert_int_equal(l.jobs[1].index, 1);
	assert_int_equal(l.jobs[1].src_line, 3);
	job_list_free(&l);
}

static void test_groups(void **state)
{
	static const uint32_t want[] = { 0, 1, 1, 2, 2, 3 };
	struct job_list l;

	(void)state;
	NEED_NULL();
	load_ok("global = { ioengine = \"null\"; size = \"1m\"; };\n"
		"jobs = ( { stonewall = true; }, { stonewall = true; }, { },\n"
		"         { new_group = 1; }, { }, { wait_for_previous = \"yes\"; } );\n", &l);
	assert_int_equal(l.n, 6);
	for (uint32_t i = 0; i < l.n; i++)
		assert_int_equal(l.jobs[i].groupid, want[i]);
	assert_true(l.jobs[5].o.stonewall);
	job_list_free(&l);

	/* In global, stonewall puts every job in its own group. */
	load_ok("global = { ioengine = \"null\"; size = \"1m\"; stonewall = true; };\n"
		"jobs = ( { }, { }, { } );\n", &l);
	for (uint32_t i = 0; i < l.n; i++)
		assert_int_equal(l.jobs[i].groupid, i);
	job_list_free(&l);
}

static void test_size_rules(void **state)
{
	struct job_list l;

	(void)state;
	NEED_NULL();
	/* A filename with no size: the scheduler asks the file. */
	load_ok("jobs = ( { filename = \"/dev/null\"; } );\n", &l);
	assert_int_equal(l.jobs[0].o.size, 0);
	job_list_free(&l);
	load_ok("jobs = ( { ioengine = \"null\"; time_based = 1; runtime = 1; } );\n", &l);
	assert_int_equal(l.jobs[0].o.size, 0);
	job_list_free(&l);
}

/* ---- config errors: exact text and line ---------------------------------- */

static void test_errors_core(void **state)
{
	(void)state;
	NEED_NULL();
	load_err("global = { size = \"1m\"; };\n"
		 "jobs = ( { name = \"a\";\n"
		 "    iodpeth = 4; } );\n",
		 "3: job 'a': unknown option 'iodpeth' (did you mean 'iodepth'?)");
	load_err("global = { size = \"1m\"; };\n"
		 "jobs = ( { name = \"a\"; ioengine = \"null\";\n"
		 "    zzzqqq = 4; } );\n",
		 "3: job 'a': unknown option 'zzzqqq': neither a core option nor an option "
		 "of engine 'null'; `iorig engines null` lists the engine's options");
	load_err("jobs = ( { name = \"a\"; size = \"1m\";\n"
		 "  bs = \"0\"; } );\n",
		 "2: job 'a': option 'bs': '0' is out of range; accepted: 1 .. 2147483648 "
		 "(sizes like 4k, 1m)");
	load_err("jobs = ( { name = \"a\"; size = \"1m\";\n"
		 "  bs = \"4k,4g\"; } );\n",
		 "2: job 'a': option 'bs': '4g' is out of range; accepted: 1 .. 2147483648 "
		 "(sizes like 4k, 1m)");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; bs = \"4k,8k,1k,2k\"; } );\n",
		 "1: job 'a': option 'bs': '4k,8k,1k,2k' is not a size list; accepted: "
		 "1 .. 2147483648 (sizes like 4k, 1m), or read,write[,trim] sizes like 4k,64k");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; bsrange = \"4k\"; } );\n",
		 "1: job 'a': option 'bsrange': '4k' is not a range; accepted: MIN-MAX like "
		 "4k-64k, or per direction like 4k-8k,16k-32k; each 1 .. 2147483648");
	/* Wrong type. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\";\n"
		 "\n"
		 "  iodepth = \"abc\"; } );\n",
		 "3: job 'a': option 'iodepth': 'abc' is not an integer; accepted: 1 .. 65536");
	load_err("jobs = ( { name = \"a\"; size = \"4q\"; } );\n",
		 "1: job 'a': option 'size': '4q' is not a size; accepted: sizes like 4k, 1m, 2g");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; runtime = \"10x\"; } );\n",
		 "1: job 'a': option 'runtime': '10x' is not a duration; accepted: durations "
		 "like 10s, 500ms; a plain number is seconds");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; direct = \"maybe\"; } );\n",
		 "1: job 'a': option 'direct': 'maybe' is not a boolean; accepted: 1, 0, "
		 "true, false, yes, no, on, off");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; iodepth = 1.5; } );\n",
		 "1: job 'a': option 'iodepth': '1.5' is not an integer; accepted: 1 .. 65536");
	load_err("jobs = ( { name = \"a\"; size = \"99999999999999999999\"; } );\n",
		 "1: job 'a': option 'size': '99999999999999999999' is too large; accepted: "
		 "sizes like 4k, 1m, 2g");
	/* Out of range. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; iodepth = 65537; } );\n",
		 "1: job 'a': option 'iodepth': '65537' is out of range; accepted: 1 .. 65536");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; rwmixread = 101; } );\n",
		 "1: job 'a': option 'rwmixread': '101' is out of range; accepted: 0 .. 100");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; rwmixwrite = -1; } );\n",
		 "1: job 'a': option 'rwmixwrite': '-1' is out of range; accepted: 0 .. 100");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; numjobs = 0; } );\n",
		 "1: job 'a': option 'numjobs': '0' is out of range; accepted: 1 .. 4096");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; cpus_allowed = \"2000\"; } );\n",
		 "1: job 'a': option 'cpus_allowed': '2000' is out of range; accepted: CPU "
		 "numbers and ranges like 0-3,6; each 0 .. 1023");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; percentile_list = \"50:101\"; } );\n",
		 "1: job 'a': option 'percentile_list': '50:101' is not a percentile list; "
		 "accepted: percentiles 0 < p <= 100 separated by ':', like 50:99:99.9 "
		 "(at most 64)");
	/* Bad enum value. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\";\n"
		 "  rw = \"randomread\"; } );\n",
		 "2: job 'a': option 'rw': 'randomread' is not valid; accepted: read, write, "
		 "randread, randwrite, rw, readwrite, randrw, trim, randtrim");
	/* Missing values. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; bs = \"\"; } );\n",
		 "1: job 'a': option 'bs': a value is required; accepted: 1 .. 2147483648 "
		 "(sizes like 4k, 1m), or read,write[,trim] sizes like 4k,64k");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; filename = \"\"; } );\n",
		 "1: job 'a': option 'filename': a value is required; accepted: any "
		 "non-empty text");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; iodepth = []; } );\n",
		 "1: job 'a': option 'iodepth': a value is required; accepted: 1 .. 65536");
	load_err("jobs = ( { name = \"a\";\n  rw = \"write\"; } );\n",
		 "1: job 'a': no size given: set size (e.g. size = \"1g\"), name an existing "
		 "file or device with filename, or set time_based with a runtime");
	load_err("jobs = ( { name = \"a\"; size = \"1m\";\n  time_based = 1; } );\n",
		 "2: job 'a': time_based needs a runtime: set runtime (e.g. runtime = \"30s\")");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; iodepth = 4;\n"
		 "  iodepth_batch_complete_min = 3; iodepth_batch_complete_max = 2; } );\n",
		 "2: job 'a': option 'iodepth_batch_complete_min': 3 is above "
		 "iodepth_batch_complete_max (2, at most iodepth=4); lower it or raise iodepth");
	load_err("jobs = ( );\n", " no jobs defined: add at least one job");
}

static void test_errors_global_and_engine(void **state)
{
	struct job_list l;

	(void)state;
	NEED_NULL();
	/* An error in global names the global line and the job it hit. */
	load_err("global = {\n  size = \"1m\";\n  bs = \"0\";\n};\n"
		 "jobs = ( { name = \"a\"; } );\n",
		 "3: global section (applied to job 'a'): option 'bs': '0' is out of range; "
		 "accepted: 1 .. 2147483648 (sizes like 4k, 1m)");
	load_err("global = { name = \"x\"; };\njobs = ( { size = \"1m\"; } );\n",
		 "1: global section (applied to job 'job0'): option 'name' cannot be set in "
		 "global: give each job its own name");
	load_err("global = { ioengine = \"nosuch\"; };\n"
		 "jobs = ( { name = \"a\"; size = \"1m\"; } );\n",
		 "1: global section (applied to job 'a'): option 'ioengine': engine 'nosuch' "
		 "not found: no nosuch.so in " PLUGIN_DIR ", " LT_DIR "; run `iorig engines` "
		 "to list engines, or add a directory with --plugin-dir or IORIG_PLUGIN_PATH");
	/* The job's ioengine wins over global's, wherever it is written. */
	load_ok("global = { ioengine = \"nosuch\"; };\n"
		"jobs = ( { size = \"1m\"; ioengine = \"null\"; } );\n", &l);
	assert_string_equal(l.jobs[0].engine->name, "null");
	job_list_free(&l);
	/* engine_options entries keep their own lines; null has no options. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"null\";\n"
		 "  engine_options = {\n    depht = 4;\n  };\n} );\n",
		 "3: job 'a': unknown option 'depht': neither a core option nor an option "
		 "of engine 'null'; `iorig engines null` lists the engine's options");
}

/* ---- engine options (lt_good) ---------------------------------------------- */

static void test_engine_options(void **state)
{
	struct job_list l;
	const struct lt_opts *e;

	(void)state;
	NEED_LT();
	/* Engine options before ioengine, inline and in engine_options. */
	load_ok("global = { depth = 2; tag = \"g\"; };\n"
		"jobs = ( { depth = 16; chunk = \"64k\";\n"
		"           engine_options = { mode = \"FAST\"; tag = \"x\"; };\n"
		"           ioengine = \"lt_good\"; size = \"1m\"; },\n"
		"         { ioengine = \"lt_good\"; size = \"1m\"; } );\n", &l);
	assert_string_equal(l.jobs[0].engine->name, "lt_good");
	e = l.jobs[0].o.engine_opts;
	assert_int_equal(e->depth, 16);
	assert_int_equal(e->chunk, 65536);
	assert_int_equal(e->mode, 0);
	assert_string_equal(e->tag, "x");
	assert_int_equal(e->checked, 1);           /* defaults */
	assert_int_equal(e->delay, 10000000);
	e = l.jobs[1].o.engine_opts;              /* global applies */
	assert_int_equal(e->depth, 2);
	assert_string_equal(e->tag, "g");
	assert_int_equal(e->mode, 1);
	assert_int_equal(e->chunk, 4096);
	job_list_free(&l);
}

static void test_engine_option_errors(void **state)
{
	(void)state;
	NEED_LT();
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  dept = 4; } );\n",
		 "2: job 'a': unknown option 'dept' (did you mean 'depth'?)");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  engine_options = { depth = 100; }; } );\n",
		 "2: job 'a': option 'depth': '100' is out of range; accepted: 1 .. 64 "
		 "(engine 'lt_good')");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  chunk = \"256\"; } );\n",
		 "2: job 'a': option 'chunk': '256' is out of range; accepted: 512 .. 1048576 "
		 "(sizes like 4k, 1m) (engine 'lt_good')");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  mode = \"medium\"; } );\n",
		 "2: job 'a': option 'mode': 'medium' is not valid; accepted: fast, slow "
		 "(engine 'lt_good')");
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  checked = \"\"; } );\n",
		 "2: job 'a': option 'checked': a value is required; accepted: 1, 0, true, "
		 "false, yes, no, on, off (engine 'lt_good')");
	/* An option of another engine is unknown to this one. */
	load_err("global = { depth = 4; };\n"
		 "jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"null\"; } );\n",
		 "1: global section (applied to job 'a'): unknown option 'depth' (did you "
		 "mean 'iodepth'?)");
	/* lt_good cannot trim. */
	load_err("jobs = ( { name = \"a\"; size = \"1m\"; ioengine = \"lt_good\";\n"
		 "  rw = \"randtrim\"; } );\n",
		 "2: job 'a': rw=randtrim needs an engine that can trim; engine 'lt_good' "
		 "cannot: pick another ioengine or rw");
}

/* ---- option_bind on a table of every type ---------------------------------- */

struct topts {
	int b;
	int64_t i;
	int64_t any;
	uint64_t sz;
	uint64_t dur;
	const char *s;
	int e;
};

static const char *const colors[] = { "red", "green", "blue", NULL };
static const struct iorig_option ttable[] = {
	{ "b", IORIG_OPT_BOOL, offsetof(struct topts, b), "1", 0, 0, NULL, "bool" },
	{ "i", IORIG_OPT_INT, offsetof(struct topts, i), "-5", -10, 10, NULL, "int" },
	{ "any", IORIG_OPT_INT, offsetof(struct topts, any), NULL, 0, 0, NULL, "unchecked" },
	{ "sz", IORIG_OPT_SIZE, offsetof(struct topts, sz), "4k", 0, 0, NULL, "size" },
	{ "dur", IORIG_OPT_DURATION, offsetof(struct topts, dur), "1s", 1000, 60000000000ll,
	  NULL, "duration" },
	{ "s", IORIG_OPT_STRING, offsetof(struct topts, s), "def", 0, 0, NULL, "string" },
	{ "e", IORIG_OPT_ENUM, offsetof(struct topts, e), "green", 0, 0, colors, "enum" },
	IORIG_OPTION_END,
};

static void test_option_bind(void **state)
{
	struct topts t;
	char e[512];

	(void)state;
	memset(&t, 0xab, sizeof(t)); /* defaults must not read the old contents */
	assert_int_equal(option_defaults(ttable, &t, e, sizeof(e)), 0);
	assert_int_equal(t.b, 1);
	assert_int_equal(t.i, -5);
	assert_int_equal(t.any, 0);
	assert_int_equal(t.sz, 4096);
	assert_int_equal(t.dur, 1000000000);
	assert_string_equal(t.s, "def");
	assert_int_equal(t.e, 1);

	assert_int_equal(option_bind(ttable, &t, "b", "off", e, sizeof(e)), 0);
	assert_int_equal(t.b, 0);
	assert_int_equal(option_bind(ttable, &t, "i", "-10", e, sizeof(e)), 0);
	assert_int_equal(t.i, -10);
	assert_int_equal(option_bind(ttable, &t, "i", "11", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "option 'i': '11' is out of range; accepted: -10 .. 10");
	assert_int_equal(t.i, -10); /* unchanged on error */
	/* min == max: no range check. */
	assert_int_equal(option_bind(ttable, &t, "any", "-9223372036854775808", e, sizeof(e)), 0);
	assert_true(t.any == INT64_MIN);
	assert_int_equal(option_bind(ttable, &t, "any", "x", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "option 'any': 'x' is not an integer; accepted: integers "
			       "(decimal or 0x hex)");
	assert_int_equal(option_bind(ttable, &t, "sz", "1.5m", e, sizeof(e)), 0);
	assert_int_equal(t.sz, 1572864);
	assert_int_equal(option_bind(ttable, &t, "dur", "1m", e, sizeof(e)), 0);
	assert_int_equal(t.dur, 60000000000ll);
	assert_int_equal(option_bind(ttable, &t, "dur", "61s", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "option 'dur': '61s' is out of range; accepted: 1us .. 1m "
			       "(durations like 10s, 500ms; a plain number is seconds)");
	assert_int_equal(option_bind(ttable, &t, "dur", "999ns", e, sizeof(e)), -EINVAL);
	assert_int_equal(option_bind(ttable, &t, "s", "other", e, sizeof(e)), 0);
	assert_string_equal(t.s, "other"); /* the old string was freed (ASan/valgrind) */
	assert_int_equal(option_bind(ttable, &t, "s", "", e, sizeof(e)), 0);
	assert_string_equal(t.s, "");
	assert_int_equal(option_bind(ttable, &t, "e", "BLUE", e, sizeof(e)), 0);
	assert_int_equal(t.e, 2);
	assert_int_equal(option_bind(ttable, &t, "e", "pink", e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "option 'e': 'pink' is not valid; accepted: red, green, blue");
	assert_int_equal(option_bind(ttable, &t, "nope", "1", e, sizeof(e)), -ENOENT);
	option_free_strings(ttable, &t);
	assert_null(t.s);
}

static void test_option_defaults_invalid(void **state)
{
	static const struct iorig_option bad[] = {
		{ "d", IORIG_OPT_INT, 0, "100", 1, 64, NULL, "bad default" },
		IORIG_OPTION_END,
	};
	int64_t v = 0;
	char e[512];

	(void)state;
	assert_int_equal(option_defaults(bad, &v, e, sizeof(e)), -EINVAL);
	assert_string_equal(e, "default of option 'd': '100' is out of range; accepted: 1 .. 64");
}

/* ---- printing ------------------------------------------------------------- */

static void test_print_table(void **state)
{
	char *buf = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	long type_col = -1, help_col = -1;
	int rows = 0;
	bool after_rw = false;

	(void)state;
	assert_non_null(f);
	options_print_table(f, NULL);
	fclose(f);
	assert_non_null(strstr(buf, "NAME"));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (type_col < 0) {
			type_col = strstr(line, "TYPE") - line;
			help_col = strstr(line, "HELP") - line;
			continue;
		}
		if (line[2] == ' ') {
			/* A too-long cell pushed the rest of its row to a new line,
			 * still in its columns. */
			assert_true(strspn(line, " ") >= (size_t)type_col);
			if (after_rw) {
				assert_int_equal(strspn(line, " "), help_col);
				assert_string_equal(line + help_col, "I/O pattern (alias: readwrite)");
			}
			after_rw = false;
			continue;
		}
		/* Every row's TYPE and HELP columns start where the header's do. */
		assert_true(line[type_col - 1] == ' ' && line[type_col] != ' ');
		after_rw = !strncmp(line, "  rw ", 5);
		if (after_rw)
			assert_non_null(strstr(line, " read|write|randread|randwrite|rw|readwrite|"
						     "randrw|trim|randtrim"));
		else if (strlen(line) > (size_t)help_col && line[help_col - 1] == ' ')
			/* Unless a long cell wrapped it (checked above), HELP starts in its column. */
			assert_true(line[help_col] != ' ');
		if (!strncmp(line, "  iodepth ", 10)) {
			assert_non_null(strstr(line, " int "));
			assert_non_null(strstr(line, " 1 .. 65536 "));
			assert_string_equal(line + help_col, "I/Os kept in flight");
		}
		if (!strncmp(line, "  bs ", 5)) {
			assert_non_null(strstr(line, " size-list "));
			assert_non_null(strstr(line, " 4k "));
			assert_non_null(strstr(line, " 1 .. 2147483648 "));
			assert_non_null(strstr(line, "(alias: blocksize)"));
		}
		rows++;
	}
	assert_true(rows >= 38); /* the core table only grows */
	free(buf);

	buf = NULL;
	f = open_memstream(&buf, &len);
	options_print_table(f, ttable);
	fclose(f);
	assert_string_equal(buf,
		"  NAME  TYPE      DEFAULT  RANGE/VALUES    HELP\n"
		"  b     bool      1        0|1             bool\n"
		"  i     int       -5       -10 .. 10       int\n"
		"  any   int       -        -               unchecked\n"
		"  sz    size      4k       -               size\n"
		"  dur   duration  1s       1us .. 1m       duration\n"
		"  s     string    def      -               string\n"
		"  e     enum      green    red|green|blue  enum\n");
	free(buf);
}

static void test_rw_names(void **state)
{
	static const char *const names[] = { "read", "write", "randread", "randwrite",
					     "rw", "randrw", "trim", "randtrim" };

	(void)state;
	for (int m = RW_READ; m <= RW_RANDTRIM; m++)
		assert_string_equal(rw_mode_name((enum rw_mode)m), names[m]);
	assert_string_equal(rw_mode_name((enum rw_mode)42), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cfg_section),
		cmocka_unit_test(test_reader_values),
		cmocka_unit_test(test_reader_errors),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_values),
		cmocka_unit_test(test_bs_forms),
		cmocka_unit_test(test_global_applies),
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_size_rules),
		cmocka_unit_test(test_errors_core),
		cmocka_unit_test(test_errors_global_and_engine),
		cmocka_unit_test(test_engine_options),
		cmocka_unit_test(test_engine_option_errors),
		cmocka_unit_test(test_option_bind),
		cmocka_unit_test(test_option_defaults_invalid),
		cmocka_unit_test(test_print_table),
		cmocka_unit_test(test_rw_names),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
