/*
 * Job statistics: merging two jobs' stats (I/O and sync latencies alike)
 * equals recording every sample into one; fio's depth and batch-size buckets.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "offsets.h"
#include "stats.h"

/* What a worker does per I/O and per sample interval, driven by an rng. */
static void record(struct job_stats *s, struct rng *r, int nios, uint64_t base)
{
	for (int i = 0; i < nios; i++) {
		int d = (int)rng_below(r, DDIR_COUNT);
		uint64_t slat = base + rng_below(r, 5000);
		uint64_t clat = base + rng_below(r, 1000000);

		lat_stat_add(&s->dir[d].slat, slat);
		lat_stat_add(&s->dir[d].clat, clat);
		lat_stat_add(&s->dir[d].lat, slat + clat);
		s->dir[d].bytes += 4096;
		s->dir[d].ios++;
		s->issued[d]++;
		s->depth[stats_depth_level((unsigned)rng_below(r, 100))]++;
		s->submit[stats_batch_level((unsigned)rng_below(r, 100))]++;
		s->complete[stats_batch_level((unsigned)rng_below(r, 100))]++;
		atomic_fetch_add_explicit(&s->live_bytes[d], 4096, memory_order_relaxed);
		atomic_fetch_add_explicit(&s->live_ios[d], 1, memory_order_relaxed);
		if (i % 16 == 15) { /* fsync=16 */
			lat_stat_add(&s->sync, base * 100 + rng_below(r, 1000000));
			s->issued_sync++;
		}
		if (i % 100 == 0) {
			runstat_add(&s->dir[d].bw_samples, base * 10 + rng_below(r, 1 << 20));
			runstat_add(&s->dir[d].iops_samples, base + rng_below(r, 1000));
		}
	}
}

static void assert_runstat_equal(const struct runstat *a, const struct runstat *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_true(fabs(a->mean - b->mean) <= fabs(b->mean) * 1e-12);
	assert_true(fabs(runstat_stdev(a) - runstat_stdev(b)) <= runstat_stdev(b) * 1e-9);
}

static void assert_lat_equal(const struct lat_stat *a, const struct lat_stat *b)
{
	assert_runstat_equal(&a->rs, &b->rs);
	assert_int_equal(a->h.count, b->h.count);
	assert_int_equal(a->h.overflow, b->h.overflow);
	assert_memory_equal(a->h.buckets, b->h.buckets, sizeof(a->h.buckets));
}

static void test_init(void **state)
{
	struct job_stats *s = malloc(sizeof(*s));

	(void)state;
	assert_non_null(s);
	memset(s, 0xa5, sizeof(*s)); /* init must not rely on zeroed memory */
	job_stats_init(s);
	assert_int_equal(s->nr_jobs, 1);
	assert_int_equal(s->runtime_ns, 0);
	for (int d = 0; d < DDIR_COUNT; d++) {
		assert_int_equal(s->dir[d].clat.rs.n, 0);
		assert_int_equal(s->dir[d].clat.rs.min, UINT64_MAX);
		assert_int_equal(s->dir[d].lat.h.count, 0);
		assert_int_equal(s->dir[d].lat.h.buckets[0], 0);
		assert_int_equal(s->dir[d].bytes, 0);
		assert_int_equal(s->dir[d].bw_samples.min, UINT64_MAX);
		assert_int_equal(atomic_load(&s->live_bytes[d]), 0);
	}
	assert_int_equal(s->sync.rs.n, 0);
	assert_int_equal(s->sync.rs.min, UINT64_MAX);
	assert_int_equal(s->sync.h.count, 0);
	assert_int_equal(s->sync.h.buckets[0], 0);
	assert_int_equal(s->issued_sync, 0);
	assert_int_equal(s->depth[DEPTH_LEVELS - 1], 0);
	assert_int_equal(atomic_load(&s->live_done), 0);
	free(s);
}

static void test_merge_equals_single(void **state)
{
	struct job_stats *a = malloc(3 * sizeof(*a)), *b = a + 1, *all = a + 2;
	struct rng ra, rb, rall;

	(void)state;
	assert_non_null(a);
	job_stats_init(a);
	job_stats_init(b);
	job_stats_init(all);
	/* Same draws into the union as into the parts; different magnitudes. */
	rng_seed(&ra, 1);
	rng_seed(&rb, 2);
	record(a, &ra, 30000, 1000);
	record(b, &rb, 20000, 5000000);
	rng_seed(&rall, 1);
	record(all, &rall, 30000, 1000);
	rng_seed(&rall, 2);
	record(all, &rall, 20000, 5000000);

	a->usr_ns = 100, a->sys_ns = 10, a->ctx = 5, a->majf = 1, a->minf = 7;
	b->usr_ns = 200, b->sys_ns = 20, b->ctx = 6, b->majf = 2, b->minf = 8;
	a->runtime_ns = 3000000000ULL;
	b->runtime_ns = 5000000000ULL;
	atomic_store(&b->live_done, 1);

	job_stats_merge(a, b);
	for (int d = 0; d < DDIR_COUNT; d++) {
		assert_lat_equal(&a->dir[d].slat, &all->dir[d].slat);
		assert_lat_equal(&a->dir[d].clat, &all->dir[d].clat);
		assert_lat_equal(&a->dir[d].lat, &all->dir[d].lat);
		assert_int_equal(a->dir[d].bytes, all->dir[d].bytes);
		assert_int_equal(a->dir[d].ios, all->dir[d].ios);
		assert_runstat_equal(&a->dir[d].bw_samples, &all->dir[d].bw_samples);
		assert_runstat_equal(&a->dir[d].iops_samples, &all->dir[d].iops_samples);
		assert_int_equal(a->issued[d], all->issued[d]);
		assert_int_equal(atomic_load(&a->live_bytes[d]), atomic_load(&all->live_bytes[d]));
		assert_int_equal(atomic_load(&a->live_ios[d]), atomic_load(&all->live_ios[d]));
		assert_true(a->dir[d].ios > 10000); /* every direction got samples */
	}
	assert_lat_equal(&a->sync, &all->sync);
	assert_int_equal(a->sync.rs.n, 30000 / 16 + 20000 / 16);
	assert_int_equal(a->issued_sync, all->issued_sync);
	assert_memory_equal(a->depth, all->depth, sizeof(a->depth));
	assert_memory_equal(a->submit, all->submit, sizeof(a->submit));
	assert_memory_equal(a->complete, all->complete, sizeof(a->complete));
	assert_int_equal(a->dir[0].ios + a->dir[1].ios + a->dir[2].ios, 50000);
	assert_int_equal(a->usr_ns, 300);
	assert_int_equal(a->sys_ns, 30);
	assert_int_equal(a->ctx, 11);
	assert_int_equal(a->majf, 3);
	assert_int_equal(a->minf, 15);
	assert_int_equal(a->runtime_ns, 5000000000ULL); /* max, not sum */
	assert_int_equal(a->nr_jobs, 2);
	assert_int_equal(atomic_load(&a->live_done), 0); /* per-thread flag: not merged */

	/* Merging into a fresh (empty) stats gives the source back. */
	job_stats_init(all);
	job_stats_merge(all, a);
	assert_lat_equal(&all->dir[1].clat, &a->dir[1].clat);
	assert_lat_equal(&all->sync, &a->sync);
	assert_int_equal(all->dir[1].clat.rs.min, a->dir[1].clat.rs.min);
	assert_int_equal(all->nr_jobs, 3);
	free(a);
}

static void test_depth_level(void **state)
{
	(void)state;
	assert_int_equal(stats_depth_level(0), 0);
	assert_int_equal(stats_depth_level(1), 0);
	assert_int_equal(stats_depth_level(2), 1);
	assert_int_equal(stats_depth_level(3), 1);
	assert_int_equal(stats_depth_level(4), 2);
	assert_int_equal(stats_depth_level(7), 2);
	assert_int_equal(stats_depth_level(8), 3);
	assert_int_equal(stats_depth_level(15), 3);
	assert_int_equal(stats_depth_level(16), 4);
	assert_int_equal(stats_depth_level(31), 4);
	assert_int_equal(stats_depth_level(32), 5);
	assert_int_equal(stats_depth_level(63), 5);
	assert_int_equal(stats_depth_level(64), 6);
	assert_int_equal(stats_depth_level(65536), 6);
	assert_int_equal(stats_depth_level(~0u), 6);
}

static void test_batch_level(void **state)
{
	static const struct { unsigned n, level; } cases[] = {
		{ 0, 0 }, { 1, 1 }, { 2, 1 }, { 4, 1 }, { 5, 2 }, { 8, 2 }, { 9, 3 },
		{ 16, 3 }, { 17, 4 }, { 32, 4 }, { 33, 5 }, { 64, 5 }, { 65, 6 },
		{ 1000, 6 }, { ~0u, 6 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_int_equal(stats_batch_level(cases[i].n), cases[i].level);
	for (unsigned n = 0; n < 1000; n++)
		assert_true(stats_batch_level(n) < BATCH_LEVELS &&
			    stats_depth_level(n) < DEPTH_LEVELS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_merge_equals_single),
		cmocka_unit_test(test_depth_level),
		cmocka_unit_test(test_batch_level),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
