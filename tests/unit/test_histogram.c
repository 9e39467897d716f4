/*
 * Histogram: percentiles against exact order statistics over a wide range
 * of magnitudes, exact merging, bucket layout, overflow, count_below.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "histogram.h"
#include "offsets.h"

#define NSAMPLES 200000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Log-uniform between 1 ns and 1 hour. */
static uint64_t *log_uniform_samples(uint64_t seed, size_t n)
{
	uint64_t *v = malloc(n * sizeof(*v));
	struct rng r;

	assert_non_null(v);
	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		v[i] = (uint64_t)llround(exp(rng_unit(&r) * log(3600e9)));
	return v;
}

/* Rank from pct given in thousandths of a percent, in exact integers. */
static uint64_t exact_rank(uint64_t pct_milli, uint64_t count)
{
	uint64_t rank = (pct_milli * count + 99999) / 100000;

	return rank ? rank : 1;
}

/* The documented bound: exact below 256, relative error <= 1/256 above. */
static void assert_within_bound(uint64_t got, uint64_t exact, uint64_t pct_milli)
{
	uint64_t err = got > exact ? got - exact : exact - got;

	if (exact < 256 ? err != 0 : err * 256 > exact) {
		fprintf(stderr, "p%.3f: histogram %llu, exact %llu\n", pct_milli / 1000.0,
			(unsigned long long)got, (unsigned long long)exact);
		fail();
	}
}

static void test_percentiles_vs_exact(void **state)
{
	static const uint64_t fio_pcts[] = { 1000, 5000, 10000, 20000, 30000, 40000,
		50000, 60000, 70000, 80000, 90000, 95000, 99000, 99500, 99900, 99950,
		99990, /* and a few more */ 1, 500, 25000, 75000, 99999, 100000 };
	uint64_t *v = log_uniform_samples(42, NSAMPLES);
	struct hist *h = malloc(sizeof(*h));
	unsigned below_256 = 0;

	(void)state;
	assert_non_null(h);
	hist_init(h);
	for (size_t i = 0; i < NSAMPLES; i++)
		hist_add(h, v[i]);
	assert_int_equal(h->count, NSAMPLES);
	assert_int_equal(h->overflow, 0);
	qsort(v, NSAMPLES, sizeof(*v), cmp_u64);
	/* The data really spans the range the bound is about. */
	assert_true(v[0] <= 2);
	assert_true(v[NSAMPLES - 1] > 3000e9);

	for (size_t i = 0; i < sizeof(fio_pcts) / sizeof(fio_pcts[0]); i++) {
		uint64_t p = fio_pcts[i];
		uint64_t exact = v[exact_rank(p, NSAMPLES) - 1];

		assert_within_bound(hist_percentile(h, p / 1000.0), exact, p);
		below_256 += exact < 256;
	}
	assert_true(below_256 >= 3); /* the exact region was exercised too */
	/* Every 0.1% step as well. */
	for (uint64_t p = 100; p <= 100000; p += 100)
		assert_within_bound(hist_percentile(h, p / 1000.0),
				    v[exact_rank(p, NSAMPLES) - 1], p);
	free(h);
	free(v);
}

/*
 * The rank is ceil(pct/100 * count) with no off-by-one from binary rounding:
 * values 0..199 sit in exact buckets, so every percentile must be exact.
 */
static void test_percentile_rank_exact(void **state)
{
	struct hist h;

	(void)state;
	hist_init(&h);
	for (uint64_t i = 0; i < 200; i++)
		hist_add(&h, 199 - i);
	for (uint64_t p = 1; p <= 100000; p += 7)
		assert_int_equal(hist_percentile(&h, p / 1000.0), exact_rank(p, 200) - 1);
	assert_int_equal(hist_percentile(&h, 100.0), 199);

	/* 99.9% of 1..1000 is the 999th sample: bucket [996, 999], not [1000, 1003]. */
	hist_init(&h);
	for (uint64_t i = 1; i <= 1000; i++)
		hist_add(&h, i);
	assert_int_equal(hist_percentile(&h, 99.9), 997);
	assert_int_equal(hist_percentile(&h, 100.0), 1001);
	assert_int_equal(hist_percentile(&h, 50.0), 500); /* exact region ends at 255 */

	hist_init(&h);
	assert_int_equal(hist_percentile(&h, 50.0), 0);
}

static void test_merge_equals_union(void **state)
{
	uint64_t *a = log_uniform_samples(1, 50000), *b = log_uniform_samples(2, 70000);
	struct hist *ha = calloc(3, sizeof(*ha)), *hb = ha + 1, *hu = ha + 2;

	(void)state;
	assert_non_null(ha);
	hist_init(ha);
	hist_init(hb);
	hist_init(hu);
	for (size_t i = 0; i < 50000; i++) {
		hist_add(ha, a[i]);
		hist_add(hu, a[i]);
	}
	for (size_t i = 0; i < 70000; i++) {
		hist_add(hb, b[i]);
		hist_add(hu, b[i]);
	}
	hist_add(hb, UINT64_C(1) << 50);
	hist_add(hu, UINT64_C(1) << 50);
	hist_merge(ha, hb);
	assert_int_equal(ha->count, 120001);
	assert_int_equal(ha->count, hu->count);
	assert_int_equal(ha->overflow, 1);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		assert_int_equal(ha->buckets[i], hu->buckets[i]);
	assert_int_equal(hist_percentile(ha, 99.0), hist_percentile(hu, 99.0));
	free(ha);
	free(a);
	free(b);
}

static void test_bucket_layout(void **state)
{
	(void)state;
	assert_int_equal(hist_bucket_lo(0), 0);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		uint64_t lo = hist_bucket_lo(i), hi = hist_bucket_hi(i);
		uint64_t mid = lo + (hi - lo) / 2;

		assert_true(lo <= hi);
		assert_int_equal(hist_index(lo), i);
		assert_int_equal(hist_index(hi), i);
		if (i + 1 < HIST_NBUCKETS)
			assert_int_equal(hist_bucket_lo(i + 1), hi + 1);
		if (lo < 256) {
			assert_int_equal(lo, i); /* one bucket per value */
			assert_int_equal(hi, i);
		} else {
			/* Midpoint within 1/256 of both ends, relative to them. */
			assert_true((mid - lo) * 256 <= lo);
			assert_true((hi - mid) * 256 <= hi);
			assert_true(hi - lo + 1 <= lo / 128);
		}
	}
	assert_int_equal(hist_bucket_hi(HIST_NBUCKETS - 1), (UINT64_C(1) << HIST_MAX_BITS) - 1);
	/* 2^HIST_SUB_BITS buckets per power of two from 256 up. */
	assert_int_equal(hist_index(256), 256);
	assert_int_equal(hist_index(512), 256 + HIST_SUB);
	assert_int_equal(hist_index(1024 + 8), 256 + 2 * HIST_SUB + 1);
}

static void test_overflow(void **state)
{
	struct hist h;

	(void)state;
	hist_init(&h);
	hist_add(&h, (UINT64_C(1) << HIST_MAX_BITS) - 1);
	hist_add(&h, UINT64_C(1) << HIST_MAX_BITS);
	hist_add(&h, UINT64_MAX);
	assert_int_equal(h.count, 3);
	assert_int_equal(h.overflow, 2);
	assert_int_equal(h.buckets[HIST_NBUCKETS - 1], 3);
	assert_int_equal(hist_index(UINT64_MAX), HIST_NBUCKETS - 1);
	assert_int_equal(hist_count_below(&h, UINT64_MAX), 1);
}

static void test_count_below(void **state)
{
	uint64_t *v = log_uniform_samples(7, 20000);
	struct hist *h = malloc(sizeof(*h));
	static const uint64_t limits[] = { 0, 1, 2, 100, 255, 256, 1000, 2000, 10000,
		250000, 1000000, 50000000, 2000000000, 3600000000000ULL };

	(void)state;
	assert_non_null(h);
	hist_init(h);
	for (uint64_t i = 0; i < 1000; i++)
		hist_add(h, i);
	assert_int_equal(hist_count_below(h, 0), 0);
	assert_int_equal(hist_count_below(h, 1), 1);
	assert_int_equal(hist_count_below(h, 256), 256);
	assert_int_equal(hist_count_below(h, 1000), 1000); /* a bucket boundary */
	assert_int_equal(hist_count_below(h, 5000), 1000);

	hist_init(h);
	for (size_t i = 0; i < 20000; i++)
		hist_add(h, v[i]);
	for (size_t l = 0; l < sizeof(limits) / sizeof(limits[0]); l++) {
		uint64_t lim = limits[l], below = 0, in_bucket = 0;
		uint64_t got = hist_count_below(h, lim);

		for (size_t i = 0; i < 20000; i++) {
			below += v[i] < lim;
			in_bucket += hist_index(v[i]) == hist_index(lim);
		}
		/* Short by at most the samples of limit's own bucket. */
		assert_true(got <= below);
		assert_true(below - got <= in_bucket);
	}
	assert_int_equal(hist_count_below(h, UINT64_MAX), 20000);
	free(h);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentiles_vs_exact),
		cmocka_unit_test(test_percentile_rank_exact),
		cmocka_unit_test(test_merge_equals_union),
		cmocka_unit_test(test_bucket_layout),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_count_below),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
