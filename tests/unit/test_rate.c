/*
 * Rate schedule: linear spacing is exact for bytes and I/Os (the larger
 * interval wins), poisson keeps the mean, thinktime shifts the schedule
 * instead of causing a burst, unthrottled directions are not held, and
 * rate_min fails a cycle below the floor with a message naming it.
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

#include "rate.h"

static void test_linear(void **state)
{
	struct rate_opts o = { .bps = { 4096 * 1000, 0, 0 }, .iops = { 0, 0, 0 } };
	struct rate_state r;
	uint64_t t0 = 1000000000ull, due = 0;

	(void)state;
	rate_state_init(&r, &o, 1);
	assert_true(r.on);
	rate_start(&r, t0);
	for (int i = 0; i < 1000; i++)
		due = rate_next_due(&r, 0, 4096);
	/* 1000 blocks of 4 KiB at 1000 blocks/s: the last one is due at 999 ms. */
	assert_true(llabs((long long)(due - t0) - 999000000ll) < 10);
	/* Writes are not throttled. */
	assert_int_equal(rate_next_due(&r, 1, 4096), 0);

	/* rate_iops and rate together: the slower one decides. */
	o = (struct rate_opts){ .bps = { 1 << 30 }, .iops = { 100 } };
	rate_state_init(&r, &o, 1);
	rate_start(&r, t0);
	rate_next_due(&r, 0, 4096);
	assert_int_equal(rate_next_due(&r, 0, 4096), t0 + 10000000ull);
}

static void test_poisson(void **state)
{
	struct rate_opts o = { .iops = { 1000 }, .process = RATE_POISSON };
	struct rate_state r;
	uint64_t t0 = 5000000000ull, prev = t0, due = 0, n = 100000;
	double var = 0.0;

	(void)state;
	rate_state_init(&r, &o, 9);
	rate_start(&r, t0);
	rate_next_due(&r, 0, 1);
	prev = (uint64_t)r.next[0];
	for (uint64_t i = 0; i < n; i++) {
		double gap;

		due = (uint64_t)r.next[0];
		rate_next_due(&r, 0, 1);
		gap = r.next[0] - (double)due;
		var += (gap - 1e6) * (gap - 1e6);
	}
	/* Mean interval 1 ms within 1%, and exponential: stdev equals the mean. */
	assert_true(fabs(((double)due - (double)prev) / (double)(n - 1) - 1e6) < 1e4);
	assert_true(fabs(sqrt(var / (double)n) / 1e6 - 1.0) < 0.03);
}

static void test_thinktime(void **state)
{
	struct rate_opts o = { .think_ns = 1000000, .think_spin_ns = 200000, .think_blocks = 2,
			       .iops = { 1000000 } };
	struct rate_state r;
	uint64_t t0 = 1000000000ull;

	(void)state;
	rate_state_init(&r, &o, 1);
	rate_start(&r, t0);
	assert_int_equal(rate_next_due(&r, 0, 1), t0);
	rate_issued(&r, t0);
	assert_int_equal(rate_next_due(&r, 0, 1), t0 + 1000);
	rate_issued(&r, t0 + 1000);
	/* Two blocks: think until +1 ms, spinning the first 200 us. */
	assert_int_equal(r.spin_until, t0 + 1000 + 200000);
	assert_int_equal(rate_next_due(&r, 0, 1), t0 + 1000 + 1000000);
	/* The schedule moved with the think time: no burst afterwards. */
	assert_int_equal(rate_next_due(&r, 0, 1), t0 + 1000 + 1000000 + 1000);
}

static void test_rate_min(void **state)
{
	struct rate_opts o = { .min_bps = { 0, 1 << 20, 0 }, .cycle_ns = 100000000 };
	struct rate_state r;
	char msg[512];
	uint64_t t = 1000000000ull;

	(void)state;
	rate_state_init(&r, &o, 1);
	assert_true(r.check_min);
	rate_min_start(&r, t);
	/* 2 MiB/s for a cycle: fine. */
	for (int i = 0; i < 51; i++)
		assert_int_equal(rate_min_account(&r, 1, 4096, t + (uint64_t)i * 2000000, msg,
						  sizeof(msg)), 0);
	/* Then 40 KiB in the next 100 ms: below 1 MiB/s. */
	t += 102000000;
	for (int i = 0; i < 10; i++)
		assert_int_equal(rate_min_account(&r, 1, 4096, t + (uint64_t)i * 9000000, msg,
						  sizeof(msg)), 0);
	assert_int_equal(rate_min_account(&r, 1, 4096, t + 100000000, msg, sizeof(msg)), -1);
	assert_non_null(strstr(msg, "write rate"));
	assert_non_null(strstr(msg, "below rate_min=1024KiB/s"));
}

static void test_parse(void **state)
{
	uint64_t v[RATE_DIRS] = { 0 };
	char err[512];

	(void)state;
	assert_int_equal(rate_parse_dir_bytes(v, "rate", "10m", err, sizeof(err)), 0);
	assert_true(v[0] == 10 << 20 && v[1] == 10 << 20 && v[2] == 10 << 20);
	assert_int_equal(rate_parse_dir_bytes(v, "rate", ",1m", err, sizeof(err)), 0);
	assert_true(v[0] == 10 << 20 && v[1] == 1 << 20 && v[2] == 1 << 20);
	assert_int_equal(rate_parse_dir_count(v, "rate_iops", "500,0", err, sizeof(err)), 0);
	assert_true(v[0] == 500 && v[1] == 0);
	assert_int_equal(rate_parse_dir_count(v, "rate_iops", "1k", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "option 'rate_iops': '1k' is not an integer"));
	assert_int_equal(rate_parse_dir_bytes(v, "rate", "1,2,3,4", err, sizeof(err)), -EINVAL);
	assert_int_equal(rate_parse_dir_bytes(v, "rate", "", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "a value is required"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_poisson),
		cmocka_unit_test(test_thinktime),
		cmocka_unit_test(test_rate_min),
		cmocka_unit_test(test_parse),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
