/*
 * Report model and writers: a synthetic run (a group_reporting job with two
 * instances in group 0, a single failing job in group 1) with known samples
 * is rendered in fio's normal layout and as JSON, and checked line by line
 * and key by key.  Expected figures were worked out by hand (and the
 * percentiles with an independent model of the histogram's buckets).  When
 * fio is on PATH, our JSON must carry every key fio's has, and the "sync"
 * object exactly fio's keys, in fio's order and place.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "report.h"
#include "report_fmt.h"

static struct job jobs[2];
static struct job_result res[3];
static struct run_result run;

static struct job_stats *new_stats(void)
{
	struct job_stats *s = aligned_alloc(_Alignof(struct job_stats), sizeof(*s));

	assert_non_null(s);
	job_stats_init(s);
	return s;
}

static void add_io(struct job_stats *s, int d, uint64_t bytes, uint64_t slat, uint64_t clat)
{
	lat_stat_add(&s->dir[d].slat, slat);
	lat_stat_add(&s->dir[d].clat, clat);
	lat_stat_add(&s->dir[d].lat, slat + clat);
	s->dir[d].bytes += bytes;
	s->dir[d].ios++;
	s->issued[d]++;
}

static void add_sync(struct job_stats *s, uint64_t ns)
{
	lat_stat_add(&s->sync, ns);
	s->issued_sync++;
}

/*
 * grp#0: 1000 reads (clat 100..199.9 us, slat 2 us) and 500 writes in 1 s,
 * with 10 syncs of 1..1.9 ms; grp#1: the same 1000 reads in 2 s, with 6
 * syncs of 3 ms and 2 more in its ramp; solo: 123450 reads of ~250 ns with
 * one 3 ms outlier per thousand, in 10 s, ending in error 5, no sync.
 */
static int setup(void **state)
{
	static double solo_pcts[] = { 50, 99, 99.9999 };
	struct job_stats *s;

	(void)state;
	memset(jobs, 0, sizeof(jobs));
	memset(res, 0, sizeof(res));
	jobs[0].o.name = "grp";
	jobs[0].o.rw = RW_RANDRW;
	jobs[0].o.rwmixread = 50;
	jobs[0].o.iodepth = 4;
	jobs[0].o.numjobs = 2;
	jobs[0].o.size = 64 << 20;
	jobs[0].o.group_reporting = true;
	jobs[0].o.randrepeat = true;
	jobs[0].o.ioengine = "null";
	jobs[0].o.runtime_ns = 2000000000;
	jobs[0].groupid = 0;
	jobs[1].o.name = "solo";
	jobs[1].o.description = "my desc";
	jobs[1].o.rw = RW_READ;
	jobs[1].o.iodepth = 1;
	jobs[1].o.numjobs = 1;
	jobs[1].o.n_percentiles = 3;
	memcpy(jobs[1].o.percentiles, solo_pcts, sizeof(solo_pcts));
	jobs[1].index = 1;
	jobs[1].groupid = 1;
	for (int j = 0; j < 2; j++)
		for (int d = 0; d < DDIR_COUNT; d++)
			jobs[j].o.bs[d] = jobs[j].o.bs_min[d] = jobs[j].o.bs_max[d] = 4096;

	for (int i = 0; i < 2; i++) {
		s = new_stats();
		for (int k = 0; k < 1000; k++)
			add_io(s, DDIR_READ, 4096, 2000, 100000 + 100 * (uint64_t)k);
		s->runtime_ns = (uint64_t)(i + 1) * 1000000000;
		s->depth[2] = 1000;
		s->submit[1] = 1000;
		s->complete[1] = 1000;
		s->usr_ns = (uint64_t)(i + 1) * 500000000;
		s->sys_ns = 100000000;
		s->ctx = 10 * (uint64_t)(i + 1);
		s->minf = 5;
		res[i] = (struct job_result){ .job = &jobs[0], .instance = (uint32_t)i,
					      .job_id = (uint32_t)i, .st = s };
	}
	/* Bandwidth samples (bytes/s) consistent with each instance's rate. */
	runstat_add(&res[0].st->dir[DDIR_READ].bw_samples, 4000000);
	runstat_add(&res[0].st->dir[DDIR_READ].bw_samples, 4192000);
	runstat_add(&res[1].st->dir[DDIR_READ].bw_samples, 2000000);
	runstat_add(&res[1].st->dir[DDIR_READ].bw_samples, 2096000);
	runstat_add(&res[0].st->dir[DDIR_READ].iops_samples, 1000);
	runstat_add(&res[0].st->dir[DDIR_READ].iops_samples, 1000);
	runstat_add(&res[1].st->dir[DDIR_READ].iops_samples, 500);
	runstat_add(&res[1].st->dir[DDIR_READ].iops_samples, 500);
	for (int k = 0; k < 500; k++)
		add_io(res[0].st, DDIR_WRITE, 4096, 1000, 50000 + 10 * (uint64_t)k);
	for (int k = 0; k < 10; k++)
		add_sync(res[0].st, 1000000 + 100000 * (uint64_t)k);
	for (int k = 0; k < 6; k++)
		add_sync(res[1].st, 3000000);
	res[1].st->issued_sync += 2; /* synced during ramp_time: no latency sample */
	res[0].st->depth[2] += 500;
	res[0].st->submit[1] += 500;
	res[0].st->complete[1] += 500;

	s = new_stats();
	for (int k = 0; k < 123450; k++)
		add_io(s, DDIR_READ, 4096, 50, k % 1000 == 999 ? 3000000 : 200 + (uint64_t)(k % 100));
	s->runtime_ns = 10000000000ULL;
	s->depth[0] = 123450;
	s->usr_ns = 2500000000ULL;
	res[2] = (struct job_result){ .job = &jobs[1], .job_id = 2, .st = s, .error = 5 };
	snprintf(res[2].errmsg, sizeof(res[2].errmsg), "read on /x at 4096: Input/output error");

	run = (struct run_result){ .res = res, .n = 3, .start_unix_ms = 1700000000123LL,
				   .elapsed_ns = 10500000000ULL };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		free(res[i].st);
	return 0;
}

static void test_fmt_num(void **state)
{
	static const struct {
		uint64_t v;
		unsigned maxlen;
		bool pow2;
		const char *unit, *want;
	} c[] = {
		/* Each pair seen in fio 3.33's output. */
		{ 16039ULL * 1024, 4, true, "B", "15.7MiB" },
		{ 102399ULL * 1024, 4, true, "B", "100.0MiB" },
		{ 10239ULL * 1024, 4, true, "B", "10.00MiB" },
		{ 10230ULL * 1024, 4, true, "B", "9.99MiB" },
		{ 1048575ULL * 1024, 4, true, "B", "1024MiB" },
		{ 1023ULL * 1024, 4, true, "B", "1023KiB" },
		{ 99999744, 4, false, "B", "100.0MB" },
		{ 1048576, 4, false, "B", "1049kB" },
		{ 67108864, 4, true, "B", "64.0MiB" },
		{ 4096, 4, true, "B", "4096B" },
		{ 12345, 4, false, "", "12.3k" },
		{ 1462000, 4, false, "", "1462k" },
		{ 9309, 4, false, "", "9309" },
		{ 3034600, 6, false, "", "3034.6k" },
		{ 146809, 6, false, "", "146809" },
		{ 8188000, 4, false, "B/s", "8188kB/s" },
		{ 0, 4, true, "B", "0B" },
	};
	char buf[64];

	(void)state;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		fmt_num(buf, sizeof(buf), c[i].v, c[i].maxlen, c[i].pow2, c[i].unit);
		assert_string_equal(buf, c[i].want);
	}
	fmt_size_option(buf, sizeof(buf), 4096);
	assert_string_equal(buf, "4k");
	fmt_size_option(buf, sizeof(buf), 200ULL << 20);
	assert_string_equal(buf, "200m");
	fmt_size_option(buf, sizeof(buf), 1000);
	assert_string_equal(buf, "1000");
	fmt_duration_option(buf, sizeof(buf), 2000000000);
	assert_string_equal(buf, "2s");
	fmt_duration_option(buf, sizeof(buf), 1500000);
	assert_string_equal(buf, "1500us");
}

static void test_model(void **state)
{
	struct report_model m;

	(void)state;
	assert_int_equal(report_model_build(&run, NULL, &m), 0);
	assert_int_equal(m.n_entries, 2);
	assert_int_equal(m.entries[0].st->nr_jobs, 2);
	assert_int_equal(m.entries[0].st->dir[DDIR_READ].ios, 2000);
	assert_int_equal(m.entries[0].st->dir[DDIR_READ].clat.h.count, 2000);
	assert_int_equal(m.entries[0].st->runtime_ns, 2000000000);
	assert_int_equal(m.entries[1].error, 5);
	assert_int_equal(m.n_groups, 2);
	assert_int_equal(m.groups[0].io_bytes[DDIR_READ], 8192000);
	assert_int_equal(m.groups[0].agg_bw[DDIR_READ], 4096000);
	assert_int_equal(m.groups[0].min_bw[DDIR_READ], 2048000);
	assert_int_equal(m.groups[0].max_bw[DDIR_READ], 4096000);
	assert_int_equal(m.groups[0].min_run_ns[DDIR_READ], 1000000000);
	assert_int_equal(m.groups[0].max_run_ns[DDIR_READ], 2000000000);
	/* Only grp#0 wrote: its 1 s is the write runtime, not grp#1's 2 s. */
	assert_int_equal(m.groups[0].agg_bw[DDIR_WRITE], 2048000);
	/* Group samples are the aggregate (sums), as fio's. */
	assert_int_equal(m.entries[0].st->dir[DDIR_READ].bw_samples.min, 6000000);
	assert_int_equal(m.entries[0].st->dir[DDIR_READ].bw_samples.max, 6288000);
	assert_int_equal(m.entries[0].st->dir[DDIR_READ].bw_samples.n, 4);
	assert_true(fabs(m.entries[0].st->dir[DDIR_READ].bw_samples.mean - 6144000.0) < 1e-6);
	/* Syncs merge like the I/O latencies: samples and buckets summed. */
	assert_int_equal(m.entries[0].st->sync.rs.n, 16);
	assert_int_equal(m.entries[0].st->sync.h.count, 16);
	assert_int_equal(m.entries[0].st->sync.rs.min, 1000000);
	assert_int_equal(m.entries[0].st->sync.rs.max, 3000000);
	assert_true(fabs(m.entries[0].st->sync.rs.mean - 2031250.0) < 1e-6);
	assert_int_equal(m.entries[0].st->issued_sync, 18);
	assert_int_equal(m.entries[1].st->sync.rs.n, 0);
	/* The inputs are untouched. */
	assert_int_equal(res[0].st->dir[DDIR_READ].ios, 1000);
	assert_int_equal(res[0].st->nr_jobs, 1);
	report_model_free(&m);
}

static char *render(int (*fn)(FILE *, const struct report_model *))
{
	struct report_model m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(report_model_build(&run, NULL, &m), 0);
	assert_int_equal(fn(f, &m), 0);
	fclose(f);
	report_model_free(&m);
	return buf;
}

static void expect_line(const char *text, const char *line)
{
	const char *p = text;
	size_t n = strlen(line);

	while ((p = strstr(p, line))) {
		if ((p == text || p[-1] == '\n') && (p[n] == '\n' || p[n] == '\0'))
			return;
		p++;
	}
	fail_msg("missing line \"%s\" in:\n%s", line, text);
}

static void test_normal(void **state)
{
	char *out = render(report_normal);

	(void)state;
	assert_memory_equal(out, "grp: (groupid=0, jobs=2): err= 0: pid=", 38);
	expect_line(out, "  read: IOPS=1000, BW=4000KiB/s (4096kB/s)(8000KiB/2000msec)");
	expect_line(out, "    slat (usec): min=2, max=2, avg= 2.00, stdev= 0.00");
	expect_line(out, "    clat (usec): min=100, max=199, avg=149.95, stdev=28.87");
	expect_line(out, "     lat (usec): min=102, max=201, avg=151.95, stdev=28.87");
	expect_line(out, "    clat percentiles (usec):\n"
		    "     |  1.00th=[  101],  5.00th=[  104], 10.00th=[  109], 20.00th=[  120],\n"
		    "     | 30.00th=[  129], 40.00th=[  139], 50.00th=[  150], 60.00th=[  160],\n"
		    "     | 70.00th=[  169], 80.00th=[  179], 90.00th=[  189], 95.00th=[  195],\n"
		    "     | 99.00th=[  199], 99.50th=[  199], 99.90th=[  200], 99.95th=[  200],\n"
		    "     | 99.99th=[  200]");
	/* Aggregate 6000 KiB/s against a group average of 4000: capped. */
	expect_line(out, "   bw (  KiB/s): min= 5859, max= 6140, per=100.00%, avg=6000.00, "
		    "stdev=148.23, samples=4");
	expect_line(out, "   iops        : min= 1500, max= 1500, avg=1500.00, stdev= 0.00, samples=4");
	expect_line(out, "  write: IOPS=250, BW=1000KiB/s (1024kB/s)(2000KiB/2000msec)");
	expect_line(out, "  lat (usec)   : 100=20.00%, 250=80.00%");
	expect_line(out, "  cpu          : usr=50.00%, sys=6.67%, ctx=30, majf=0, minf=10");
	expect_line(out, "  IO depths    : 1=0.0%, 2=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%");
	expect_line(out, "     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%");
	/* Syncs: fio's block after the latency distribution, before cpu. */
	assert_non_null(strstr(out, "  lat (usec)   : 100=20.00%, 250=80.00%\n"
			       "  fsync/fdatasync/sync_file_range:\n"
			       "    sync (usec): min=1000, max=3000, avg=2031.25, stdev=809.71\n"
			       "    sync percentiles (usec):\n"
			       "     |  1.00th=[ 1001],  5.00th=[ 1001], 10.00th=[ 1101], "
			       "20.00th=[ 1298],\n"
			       "     | 30.00th=[ 1396], 40.00th=[ 1601], 50.00th=[ 1699], "
			       "60.00th=[ 1896],\n"
			       "     | 70.00th=[ 3006], 80.00th=[ 3006], 90.00th=[ 3006], "
			       "95.00th=[ 3006],\n"
			       "     | 99.00th=[ 3006], 99.50th=[ 3006], 99.90th=[ 3006], "
			       "99.95th=[ 3006],\n"
			       "     | 99.99th=[ 3006]\n"
			       "  cpu          : "));
	/* The fourth figure: every sync, those of the ramp too. */
	expect_line(out, "     issued rwts: total=2000,500,0,18 short=0,0,0,0 dropped=0,0,0,0");
	expect_line(out, "     latency   : target=0, window=0, percentile=100.00%, depth=4");

	assert_non_null(strstr(out, "\nsolo: (groupid=1, jobs=1): err= 5 "
			   "(read on /x at 4096: Input/output error): pid="));
	expect_line(out, "  Description  : [my desc]");
	expect_line(out, "  read: IOPS=12.3k, BW=48.2MiB/s (50.6MB/s)(482MiB/10000msec)");
	expect_line(out, "    slat (nsec): min=50, max=50, avg=50.00, stdev= 0.00");
	expect_line(out, "    clat (nsec): min=200, max=3000.0k, avg=3238.26, stdev=94640.60");
	expect_line(out, "    clat percentiles (nsec):\n"
		    "     | 50.0000th=[  249], 99.0000th=[  298], 99.9999th=[3006463]");
	expect_line(out, "  lat (nsec)   : 500=99.90%");
	expect_line(out, "  lat (msec)   : 4=0.10%");
	expect_line(out, "  cpu          : usr=25.00%, sys=0.00%, ctx=0, majf=0, minf=0");
	/* No samples for solo: fio prints no bw/iops lines then. */
	assert_null(strstr(strstr(out, "\nsolo:"), "   bw ("));
	/* No sync: no sync block (as fio), a zero fourth issued figure. */
	assert_null(strstr(strstr(out, "\nsolo:"), "fsync/fdatasync/sync_file_range"));
	assert_null(strstr(strstr(out, "\nsolo:"), "sync ("));
	expect_line(out, "     issued rwts: total=123450,0,0,0 short=0,0,0,0 dropped=0,0,0,0");

	assert_non_null(strstr(out, "\n\nRun status group 0 (all jobs):\n"
			   "   READ: bw=4000KiB/s (4096kB/s), 2000KiB/s-4000KiB/s (2048kB/s-4096kB/s), "
			   "io=8000KiB (8192kB), run=1000-2000msec\n"
			   "  WRITE: bw=2000KiB/s (2048kB/s), 2000KiB/s-2000KiB/s (2048kB/s-2048kB/s), "
			   "io=2000KiB (2048kB), run=1000-1000msec\n"
			   "\nRun status group 1 (all jobs):\n"
			   "   READ: bw=48.2MiB/s (50.6MB/s), 48.2MiB/s-48.2MiB/s (50.6MB/s-50.6MB/s), "
			   "io=482MiB (506MB), run=10000-10000msec\n"));
	/* Groups come after every job block. */
	assert_true(strstr(out, "Run status group 0") > strstr(out, "\nsolo:"));
	free(out);
}

static json_object *get(json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, "/", &save); k; k = strtok_r(NULL, "/", &save)) {
		json_object *next = NULL;

		if (!json_object_object_get_ex(o, k, &next))
			fail_msg("no key \"%s\" (in %s)", k, path);
		o = next;
	}
	return o;
}

static int64_t get_int(json_object *o, const char *path)
{
	return json_object_get_int64(get(o, path));
}

static double get_dbl(json_object *o, const char *path)
{
	return json_object_get_double(get(o, path));
}

static json_object *parse_ours(void)
{
	char *out = render(report_json);
	json_object *root = json_tokener_parse(out);

	if (!root)
		fail_msg("report_json wrote invalid JSON:\n%s", out);
	free(out);
	return root;
}

struct int_at {
	const char *path;
	int64_t want;
};

static void expect_ints(json_object *o, const struct int_at *t, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (get_int(o, t[i].path) != t[i].want)
			fail_msg("%s: %lld, expected %lld", t[i].path,
				 (long long)get_int(o, t[i].path), (long long)t[i].want);
}

static void test_json(void **state)
{
	/* grp's 16 syncs (setup()), merged from both instances. */
	static const struct int_at grp_sync[] = {
		{ "sync/total_ios", 16 },
		{ "sync/lat_ns/N", 16 },
		{ "sync/lat_ns/min", 1000000 },
		{ "sync/lat_ns/max", 3000000 },
		{ "sync/lat_ns/percentile/50.000000", 1699839 },
		{ "sync/lat_ns/percentile/99.000000", 3006463 },
	};
	static const struct int_at no_sync[] = {
		{ "sync/total_ios", 0 },
		{ "sync/lat_ns/N", 0 },
		{ "sync/lat_ns/min", 0 },
		{ "sync/lat_ns/max", 0 },
	};
	json_object *root = parse_ours(), *jobs, *g, *s;
	double sum = 0.0;

	(void)state;
	assert_memory_equal(json_object_get_string(get(root, "fio version")), "iorig-", 6);
	assert_int_equal(get_int(root, "timestamp"), 1700000000);
	assert_int_equal(get_int(root, "timestamp_ms"), 1700000000123LL);
	assert_int_equal(json_object_array_length(get(root, "disk_util")), 0);
	jobs = get(root, "jobs");
	assert_int_equal(json_object_array_length(jobs), 2);
	g = json_object_array_get_idx(jobs, 0);
	s = json_object_array_get_idx(jobs, 1);

	assert_string_equal(json_object_get_string(get(g, "jobname")), "grp");
	assert_int_equal(get_int(g, "groupid"), 0);
	assert_int_equal(get_int(g, "error"), 0);
	assert_int_equal(get_int(g, "read/io_bytes"), 8192000);
	assert_int_equal(get_int(g, "read/io_kbytes"), 8000);
	assert_int_equal(get_int(g, "read/bw_bytes"), 4096000);
	assert_int_equal(get_int(g, "read/bw"), 4000);
	assert_true(fabs(get_dbl(g, "read/iops") - 1000.0) < 1e-9);
	assert_int_equal(get_int(g, "read/runtime"), 2000);
	assert_int_equal(get_int(g, "read/total_ios"), 2000);
	assert_int_equal(get_int(g, "read/clat_ns/min"), 100000);
	assert_int_equal(get_int(g, "read/clat_ns/max"), 199900);
	assert_int_equal(get_int(g, "read/clat_ns/N"), 2000);
	assert_true(fabs(get_dbl(g, "read/clat_ns/mean") - 149950.0) < 1e-6);
	assert_int_equal(get_int(g, "read/clat_ns/percentile/1.000000"), 101119);
	assert_int_equal(get_int(g, "read/clat_ns/percentile/50.000000"), 150015);
	assert_int_equal(get_int(g, "read/clat_ns/percentile/99.000000"), 199167);
	assert_int_equal(get_int(g, "read/clat_ns/percentile/99.990000"), 200191);
	assert_int_equal(get_int(g, "read/slat_ns/mean"), 2000);
	assert_false(json_object_object_get_ex(get(g, "read/slat_ns"), "percentile", NULL));
	assert_int_equal(get_int(g, "read/bw_min"), 5859);
	assert_int_equal(get_int(g, "read/bw_max"), 6140);
	assert_true(fabs(get_dbl(g, "read/bw_mean") - 6000.0) < 1e-6);
	assert_true(fabs(get_dbl(g, "read/bw_agg") - 100.0) < 1e-9);
	assert_int_equal(get_int(g, "read/bw_samples"), 4);
	assert_int_equal(get_int(g, "read/iops_min"), 1500);
	assert_int_equal(get_int(g, "write/total_ios"), 500);
	assert_int_equal(get_int(g, "trim/io_bytes"), 0);
	assert_int_equal(get_int(g, "trim/runtime"), 0);
	assert_false(json_object_object_get_ex(get(g, "trim/clat_ns"), "percentile", NULL));
	assert_int_equal(get_int(g, "job_runtime"), 3000);
	assert_true(fabs(get_dbl(g, "usr_cpu") - 50.0) < 1e-9);
	assert_int_equal(get_int(g, "ctx"), 30);
	assert_true(fabs(get_dbl(g, "iodepth_level/4") - 100.0) < 1e-9);
	assert_true(fabs(get_dbl(g, "iodepth_submit/4") - 100.0) < 1e-9);
	assert_true(fabs(get_dbl(g, "latency_us/100") - 20.0) < 1e-9);
	assert_true(fabs(get_dbl(g, "latency_us/250") - 80.0) < 1e-9);
	assert_int_equal(get_int(g, "latency_depth"), 4);
	assert_string_equal(json_object_get_string(get(g, "job options/rw")), "randrw");
	assert_string_equal(json_object_get_string(get(g, "job options/size")), "64m");
	assert_string_equal(json_object_get_string(get(g, "job options/bs")), "4k");
	assert_string_equal(json_object_get_string(get(g, "job options/runtime")), "2s");
	assert_int_equal(get_int(g, "iorig/nr_jobs"), 2);
	assert_false(json_object_object_get_ex(get(g, "job options"), "percentile_list", NULL));
	assert_string_equal(json_object_get_string(get(s, "job options/percentile_list")),
			    "50:99:99.9999");

	expect_ints(g, grp_sync, sizeof(grp_sync) / sizeof(grp_sync[0]));
	assert_true(fabs(get_dbl(g, "sync/lat_ns/mean") - 2031250.0) < 1e-6);
	/* No sync: fio's zeros, and no percentiles. */
	expect_ints(s, no_sync, sizeof(no_sync) / sizeof(no_sync[0]));
	assert_true(get_dbl(s, "sync/lat_ns/mean") == 0.0);
	assert_true(get_dbl(s, "sync/lat_ns/stddev") == 0.0);
	assert_false(json_object_object_get_ex(get(s, "sync/lat_ns"), "percentile", NULL));

	assert_int_equal(get_int(s, "error"), 5);
	assert_string_equal(json_object_get_string(get(s, "desc")), "my desc");
	assert_string_equal(json_object_get_string(get(s, "iorig/errmsg")),
			    "read on /x at 4096: Input/output error");
	assert_int_equal(get_int(s, "read/clat_ns/percentile/50.000000"), 249);
	assert_int_equal(get_int(s, "read/clat_ns/percentile/99.999900"), 3006463);
	assert_int_equal(get_int(s, "read/bw_samples"), 0);
	{
		static const char *const units[] = { "latency_ns", "latency_us", "latency_ms" };

		for (int u = 0; u < 3; u++) {
			json_object_object_foreach(get(s, units[u]), key, val) {
				(void)key;
				sum += json_object_get_double(val);
			}
		}
	}
	assert_true(fabs(sum - 100.0) < 0.05);
	assert_true(fabs(get_dbl(s, "latency_ns/500") - 99.9004) < 0.001);
	assert_true(fabs(get_dbl(s, "latency_ms/4") - 0.0996) < 0.001);
	json_object_put(root);
}

/* A job that failed before it had statistics still gets a complete report. */
static void test_no_stats(void **state)
{
	struct job_result one = { .job = &jobs[1], .job_id = 7, .st = NULL, .error = 2 };
	struct run_result r1 = { .res = &one, .n = 1, .start_unix_ms = 1700000000000LL };
	struct report_model m;
	json_object *root;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(report_model_build(&r1, NULL, &m), 0);
	f = open_memstream(&buf, &len);
	assert_int_equal(report_normal(f, &m), 0);
	fclose(f);
	assert_non_null(strstr(buf, "solo: (groupid=1, jobs=1): err= 2 (No such file or directory): pid="));
	expect_line(buf, "  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%");
	assert_non_null(strstr(buf, "\n\nRun status group 1 (all jobs):\n"));
	assert_null(strstr(buf, "READ:"));
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_int_equal(report_json(f, &m), 0);
	fclose(f);
	root = json_tokener_parse(buf);
	assert_non_null(root);
	assert_int_equal(get_int(json_object_array_get_idx(get(root, "jobs"), 0), "error"), 2);
	assert_int_equal(get_int(json_object_array_get_idx(get(root, "jobs"), 0), "read/clat_ns/N"), 0);
	json_object_put(root);
	free(buf);
	report_model_free(&m);
}

/* Every key of `theirs` (recursively for objects) is in `ours`. */
static int missing_keys(json_object *ours, json_object *theirs, const char *where,
			const char *const *skip)
{
	int missing = 0;

	json_object_object_foreach(theirs, key, val) {
		json_object *mine = NULL;
		bool skipped = false;

		for (const char *const *s = skip; *s; s++)
			skipped |= !strcmp(*s, key);
		/* Percentile keys depend on the list; checked above. */
		if (skipped || !strcmp(key, "percentile"))
			continue;
		if (!json_object_object_get_ex(ours, key, &mine)) {
			print_error("key \"%s\" of fio's %s is missing\n", key, where);
			missing++;
		} else if (json_object_is_type(val, json_type_object) &&
			   strcmp(key, "job options") != 0) {
			missing += missing_keys(mine, val, key, skip);
		}
	}
	return missing;
}

/* The keys of o, in order, comma-separated. */
static void key_list(json_object *o, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	json_object_object_foreach(o, key, val) {
		(void)val;
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? "," : "", key);
	}
}

/* `ours` has exactly the keys of `theirs`, in its order, all the way down. */
static int same_shape(json_object *ours, json_object *theirs, const char *where)
{
	char a[4096], b[4096];
	int bad = 0;

	key_list(ours, a, sizeof(a));
	key_list(theirs, b, sizeof(b));
	if (strcmp(a, b)) {
		print_error("%s: our keys {%s}, fio's {%s}\n", where, a, b);
		bad++;
	}
	json_object_object_foreach(theirs, key, val) {
		json_object *mine = NULL;

		if (json_object_is_type(val, json_type_object) &&
		    json_object_object_get_ex(ours, key, &mine))
			bad += same_shape(mine, val, key);
	}
	return bad;
}

/* The keys `ours` shares with `theirs` come in the same order. */
static int same_order(json_object *ours, json_object *theirs, const char *where)
{
	char a[4096] = "", b[4096];
	size_t n = 0;

	json_object_object_foreach(ours, key, val) {
		(void)val;
		if (json_object_object_get_ex(theirs, key, NULL) && n < sizeof(a))
			n += (size_t)snprintf(a + n, sizeof(a) - n, "%s%s", n ? "," : "", key);
	}
	key_list(theirs, b, sizeof(b));
	if (!strcmp(a, b))
		return 0;
	print_error("%s: our key order {%s}, fio's {%s}\n", where, a, b);
	return 1;
}

static void test_json_keys_match_fio(void **state)
{
	static const char *const none[] = { NULL };
	json_object *ours, *fio, *fj, *oj;
	char *text = NULL;
	size_t len = 0;
	FILE *p;
	int missing;

	(void)state;
	/* fsync=16: fio's "sync" then has samples, so its percentiles too. */
	p = popen("command -v fio >/dev/null 2>&1 && fio --name=t --ioengine=null --size=4m "
		  "--rw=randrw --fsync=16 --output-format=json 2>/dev/null", "r");
	if (p) {
		char chunk[4096];
		size_t n;
		FILE *m = open_memstream(&text, &len);

		while ((n = fread(chunk, 1, sizeof(chunk), p)) > 0)
			fwrite(chunk, 1, n, m);
		fclose(m);
		pclose(p);
	}
	if (!text || !len) {
		print_message("fio not on PATH: skipping the comparison with fio's JSON keys\n");
		free(text);
		skip();
	}
	fio = json_tokener_parse(text);
	free(text);
	assert_non_null(fio);
	ours = parse_ours();

	fj = json_object_array_get_idx(get(fio, "jobs"), 0);
	oj = json_object_array_get_idx(get(ours, "jobs"), 0);
	missing = missing_keys(oj, fj, "jobs[0]", none);
	/* "sync": fio's keys exactly, percentiles included, in fio's place. */
	assert_int_equal(get_int(fj, "sync/lat_ns/N"), get_int(fj, "sync/total_ios"));
	assert_true(get_int(fj, "sync/lat_ns/N") > 0);
	missing += same_shape(get(oj, "sync"), get(fj, "sync"), "sync");
	missing += same_order(oj, fj, "jobs[0]");
	/* Top level: "global options" only appears in fio with a [global]. */
	missing += missing_keys(ours, fio, "top level", none);
	assert_int_equal(missing, 0);
	json_object_put(fio);
	json_object_put(ours);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fmt_num),
		cmocka_unit_test(test_model),
		cmocka_unit_test(test_normal),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_no_stats),
		cmocka_unit_test(test_json_keys_match_fio),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
