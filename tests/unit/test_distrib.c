/*
 * Workload shaping: bssplit and random_distribution parse (and refuse bad
 * input with the option named), the mix never strays more than its slack
 * from rwmixread, and the samplers follow their distributions (zipf rank
 * frequencies, pareto's hot share, normal's moments, zoned shares).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "distrib.h"

static char err[1024];

static void test_bssplit_parse(void **state)
{
	struct bssplit b[SHAPE_DIRS];

	(void)state;
	memset(b, 0, sizeof(b));
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "4k/50:64k/50", err, sizeof(err)), 0);
	for (int d = 0; d < SHAPE_DIRS; d++) {
		assert_int_equal(b[d].n, 2);
		assert_int_equal(b[d].e[0].bs, 4096);
		assert_int_equal(b[d].e[1].pct, 50);
	}
	/* Shares left open split the rest; two fields: read, write (trim as write). */
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "4k/10:8k/:16k/,64k", err,
					     sizeof(err)), 0);
	assert_int_equal(b[0].n, 3);
	assert_int_equal(b[0].e[1].pct + b[0].e[2].pct, 90);
	assert_int_equal(b[1].n, 1);
	assert_int_equal(b[1].e[0].bs, 65536);
	assert_int_equal(b[1].e[0].pct, 100);
	assert_int_equal(b[2].e[0].bs, 65536);
	/* ",8k" leaves reads alone. */
	assert_int_equal(shape_parse_bssplit(b, "bssplit", ",8k", err, sizeof(err)), 0);
	assert_int_equal(b[0].n, 3);
	assert_int_equal(b[1].e[0].bs, 8192);

	assert_int_equal(shape_parse_bssplit(b, "bssplit", "4k/50:8k/40", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "option 'bssplit': '4k/50:8k/40' has shares that do not add up"));
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "4k/60:8k/60", err, sizeof(err)), -EINVAL);
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "0/100", err, sizeof(err)), -EINVAL);
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "4k/x", err, sizeof(err)), -EINVAL);
	assert_int_equal(shape_parse_bssplit(b, "bssplit", "", err, sizeof(err)), -EINVAL);
	/* A failed parse changes nothing. */
	assert_int_equal(b[1].e[0].bs, 8192);
}

static void test_dist_parse(void **state)
{
	struct dist_opts d;
	char buf[256];

	(void)state;
	assert_int_equal(shape_parse_dist(&d, "random_distribution", "zipf:1.2", err, sizeof(err)), 0);
	assert_int_equal(d.type, DIST_ZIPF);
	assert_true(fabs(d.param - 1.2) < 1e-12);
	assert_int_equal(shape_parse_dist(&d, "random_distribution", "zoned:60/10:30/20:10/70",
					  err, sizeof(err)), 0);
	assert_int_equal(d.nzones, 3);
	assert_int_equal(d.zones[2].access_pct, 10);
	assert_int_equal(d.zones[2].size, 70);
	dist_format(buf, sizeof(buf), &d);
	assert_string_equal(buf, "zoned:60/10:30/20:10/70");
	assert_int_equal(shape_parse_dist(&d, "random_distribution", "zoned_abs:40/1m:60/2m",
					  err, sizeof(err)), 0);
	assert_int_equal(d.zones[1].size, 2 << 20);
	static const char *const bad[] = { "zipf", "zipf:0", "zipf:-1", "pareto:1", "pareto:0",
					   "normal:0", "normal:101", "zoned:50/50", "zoned:50/60:50/60",
					   "zoned:", "uniform", "zipf:1x", NULL };
	for (int i = 0; bad[i]; i++) {
		assert_int_equal(shape_parse_dist(&d, "random_distribution", bad[i], err, sizeof(err)),
				 -EINVAL);
		assert_non_null(strstr(err, "option 'random_distribution'"));
		assert_non_null(strstr(err, "accepted: random, zipf:THETA"));
	}
}

static void test_mix(void **state)
{
	static const uint32_t pcts[] = { 0, 1, 33, 50, 70, 99, 100 };
	struct rng r;

	(void)state;
	rng_seed(&r, 7);
	for (size_t k = 0; k < sizeof(pcts) / sizeof(pcts[0]); k++) {
		struct mix_state m = { 0 };
		int64_t reads = 0;

		for (int64_t n = 1; n <= 100000; n++) {
			reads += mix_pick_read(&m, &r, pcts[k]);
			/* Never further than the slack (plus the draw in hand). */
			assert_true(llabs(100 * reads - (int64_t)pcts[k] * n) <=
				    100 * (MIX_SLACK_IOS + 1));
		}
	}
}

static uint64_t *histogram(const struct dist_opts *o, uint64_t n, uint64_t draws)
{
	uint64_t *h = calloc(n, sizeof(*h));
	struct dist_state s;
	struct rng r;

	assert_non_null(h);
	assert_int_equal(dist_state_init(&s, o, n, 4096, 11, err, sizeof(err)), 0);
	rng_seed(&r, 3);
	for (uint64_t i = 0; i < draws; i++) {
		uint64_t b = dist_next(&s, &r);

		assert_true(b < n);
		h[b]++;
	}
	return h;
}

static int desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y) - (x > y);
}

static void test_zipf(void **state)
{
	const double thetas[] = { 0.8, 1.0, 1.2 };
	const uint64_t n = 1000, draws = 2000000;

	(void)state;
	for (size_t t = 0; t < 3; t++) {
		struct dist_opts o = { .type = DIST_ZIPF, .param = thetas[t] };
		uint64_t *h = histogram(&o, n, draws);
		double hn = 0.0;

		for (uint64_t k = 1; k <= n; k++)
			hn += pow((double)k, -thetas[t]);
		qsort(h, n, sizeof(*h), desc);
		/* Rank k gets k^-theta / H(n, theta) of the draws: within 3% for the top ranks. */
		for (uint64_t k = 1; k <= 16; k *= 2) {
			double want = (double)draws * pow((double)k, -thetas[t]) / hn;

			assert_true(fabs((double)h[k - 1] / want - 1.0) < 0.03);
		}
		free(h);
	}
}

static void test_pareto_normal_zoned(void **state)
{
	const uint64_t n = 1000, draws = 1000000;
	struct dist_opts o = { .type = DIST_PARETO, .param = 0.8 };
	uint64_t *h = histogram(&o, n, draws), hot = 0;
	double mean = 0.0, var = 0.0;

	(void)state;
	qsort(h, n, sizeof(*h), desc);
	for (uint64_t i = 0; i < n / 5; i++)
		hot += h[i];
	assert_true(fabs((double)hot / draws - 0.8) < 0.01);
	free(h);

	o = (struct dist_opts){ .type = DIST_NORMAL, .param = 10.0 };
	h = histogram(&o, n, draws);
	for (uint64_t i = 0; i < n; i++)
		mean += (double)i * h[i];
	mean /= draws;
	for (uint64_t i = 0; i < n; i++)
		var += ((double)i - mean) * ((double)i - mean) * h[i];
	var /= draws;
	assert_true(fabs(mean - n / 2.0) < 2.0);
	assert_true(fabs(sqrt(var) - 100.0) < 2.0);
	free(h);

	o = (struct dist_opts){ .type = DIST_ZONED, .nzones = 2,
				.zones = { { 90, 10 }, { 10, 90 } } };
	h = histogram(&o, n, draws);
	hot = 0;
	for (uint64_t i = 0; i < n / 10; i++)
		hot += h[i];
	assert_true(fabs((double)hot / draws - 0.9) < 0.005);
	free(h);

	/* zoned_abs zones past the region are refused with a reason. */
	{
		struct dist_state s;

		o = (struct dist_opts){ .type = DIST_ZONED_ABS, .nzones = 1,
					.zones = { { 100, 8 << 20 } } };
		assert_int_equal(dist_state_init(&s, &o, 1024, 4096, 1, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "zoned_abs"));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bssplit_parse),
		cmocka_unit_test(test_dist_parse),
		cmocka_unit_test(test_mix),
		cmocka_unit_test(test_zipf),
		cmocka_unit_test(test_pareto_normal_zoned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
