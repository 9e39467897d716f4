/*
 * Running statistics: accuracy against a two-pass reference on data where a
 * naive sum of squares cancels catastrophically, and exact merging.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>

#include "offsets.h"
#include "runstat.h"

#define N 100000

/* cmocka's assert_float_equal works in float: 1e12 would lose 5 digits. */
#define assert_double_equal(a, b, eps) assert_double_eq_(a, b, eps, #a, __FILE__, __LINE__)
static void assert_double_eq_(double a, double b, double eps, const char *what,
			      const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%s:%d: %s = %.17g, expected %.17g (+- %g)\n", file, line,
			    what, a, b, eps);
		fail();
	}
}

/* 1e12 ns (~17 minutes) plus 0..999 ns of noise: stdev ~ 289. */
static void large_offset_samples(uint64_t *v, size_t n, uint64_t seed)
{
	struct rng r;

	rng_seed(&r, seed);
	for (size_t i = 0; i < n; i++)
		v[i] = 1000000000000ULL + rng_below(&r, 1000);
}

static void two_pass(const uint64_t *v, size_t n, double *mean, double *sd)
{
	/* Shift by the first sample so the reference itself is exact enough. */
	double base = (double)v[0], m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += (double)v[i] - base;
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = (double)v[i] - base - m;

		ss += d * d;
	}
	*mean = base + m;
	*sd = sqrt(ss / (double)(n - 1));
}

static void test_accuracy_large_offset(void **state)
{
	uint64_t *v = malloc(N * sizeof(*v));
	struct runstat r;
	double mean, sd, naive_s = 0, naive_ss = 0, naive_sd;

	(void)state;
	assert_non_null(v);
	large_offset_samples(v, N, 3);
	two_pass(v, N, &mean, &sd);
	runstat_init(&r);
	for (size_t i = 0; i < N; i++) {
		runstat_add(&r, v[i]);
		naive_s += (double)v[i];
		naive_ss += (double)v[i] * (double)v[i];
	}
	assert_int_equal(r.n, N);
	assert_true(sd > 280 && sd < 300);
	/*
	 * A double holds 1e12 to 1.2e-4 ns and the data's mean/stdev ratio is
	 * 3e9, so ~1e-13 on the mean and ~1e-6 on the stdev is what double
	 * arithmetic allows; the naive formula below is off by orders more.
	 */
	assert_double_equal(r.mean, mean, mean * 1e-13);
	assert_double_equal(runstat_stdev(&r), sd, sd * 1e-5);
	/* The point of Welford: the textbook formula is wildly off here. */
	naive_sd = sqrt(fabs(naive_ss - naive_s * naive_s / N) / (N - 1));
	assert_true(fabs(naive_sd - sd) > sd * 0.01);

	uint64_t mn = UINT64_MAX, mx = 0;
	for (size_t i = 0; i < N; i++) {
		mn = v[i] < mn ? v[i] : mn;
		mx = v[i] > mx ? v[i] : mx;
	}
	assert_int_equal(r.min, mn);
	assert_int_equal(r.max, mx);
	free(v);
}

static void test_small_cases(void **state)
{
	struct runstat r;

	(void)state;
	runstat_init(&r);
	assert_int_equal(r.n, 0);
	assert_double_equal(runstat_stdev(&r), 0.0, 0.0);
	runstat_add(&r, 5);
	assert_int_equal(r.min, 5);
	assert_int_equal(r.max, 5);
	assert_double_equal(runstat_stdev(&r), 0.0, 0.0);
	runstat_add(&r, 7);
	runstat_add(&r, 9);
	/* 5, 7, 9: mean 7, sample variance (4 + 0 + 4) / 2 = 4. */
	assert_double_equal(r.mean, 7.0, 1e-12);
	assert_double_equal(runstat_stdev(&r), 2.0, 1e-12);
	runstat_add(&r, 0);
	runstat_add(&r, UINT64_MAX);
	assert_int_equal(r.min, 0);
	assert_int_equal(r.max, UINT64_MAX);
}

static void assert_runstat_equal(const struct runstat *a, const struct runstat *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_double_equal(a->mean, b->mean, fabs(b->mean) * 1e-13 + 1e-9);
	assert_double_equal(runstat_stdev(a), runstat_stdev(b),
			    runstat_stdev(b) * 1e-5 + 1e-9);
}

static void test_merge_equals_sequential(void **state)
{
	uint64_t *v = malloc(N * sizeof(*v));
	struct runstat seq, parts[4], merged;
	double mean, sd;
	size_t cut[5] = { 0, 1, 30000, 30000, N }; /* sizes 1, 29999, 0, 70000 */

	(void)state;
	assert_non_null(v);
	large_offset_samples(v, N, 9);
	/* Different means per part, so the between-part term matters. */
	for (size_t i = 30000; i < N; i++)
		v[i] += 5000;
	runstat_init(&seq);
	for (size_t i = 0; i < N; i++)
		runstat_add(&seq, v[i]);
	for (int p = 0; p < 4; p++) {
		runstat_init(&parts[p]);
		for (size_t i = cut[p]; i < cut[p + 1]; i++)
			runstat_add(&parts[p], v[i]);
	}
	runstat_init(&merged);
	for (int p = 0; p < 4; p++)
		runstat_merge(&merged, &parts[p]);
	assert_runstat_equal(&merged, &seq);
	two_pass(v, N, &mean, &sd);
	assert_double_equal(merged.mean, mean, mean * 1e-13);
	assert_double_equal(runstat_stdev(&merged), sd, sd * 1e-5);
	assert_true(runstat_stdev(&seq) > 2000); /* the step really is in the data */

	/* Merge order does not matter. */
	runstat_init(&merged);
	for (int p = 3; p >= 0; p--)
		runstat_merge(&merged, &parts[p]);
	assert_runstat_equal(&merged, &seq);
	free(v);
}

static void test_merge_empty(void **state)
{
	struct runstat a, e, before;

	(void)state;
	runstat_init(&a);
	runstat_init(&e);
	runstat_add(&a, 10);
	runstat_add(&a, 20);
	before = a;
	runstat_merge(&a, &e); /* empty into full: unchanged */
	assert_runstat_equal(&a, &before);
	runstat_merge(&e, &a); /* full into empty: a copy, min not stuck at UINT64_MAX */
	assert_runstat_equal(&e, &a);
	assert_int_equal(e.min, 10);
	runstat_init(&a);
	runstat_init(&e);
	runstat_merge(&a, &e); /* empty into empty: still empty */
	assert_int_equal(a.n, 0);
	assert_int_equal(a.min, UINT64_MAX);
	assert_int_equal(a.max, 0);
	runstat_add(&a, 3);
	assert_int_equal(a.min, 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_accuracy_large_offset),
		cmocka_unit_test(test_small_cases),
		cmocka_unit_test(test_merge_equals_sequential),
		cmocka_unit_test(test_merge_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
