/*
 * The run monitor's building blocks: the per-I/O log ring (order, drops,
 * wrap-around), histogram differences and sums, fio's eta text, and the
 * disk figures derived from two /sys/block readings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "diskstats.h"
#include "histogram.h"
#include "iolog.h"
#include "monitor.h"
#include "progress.h"

static void test_ring_order_and_drops(void **state)
{
	struct iolog_rec rec[8];
	struct iolog_ring r = { .rec = rec, .mask = 7 };
	uint64_t tail;

	(void)state;
	for (uint64_t i = 0; i < 10; i++)
		iolog_push(&r, 100 + i, 2 * i, i, 4096 * i, 4096, (uint32_t)(i & 1));
	/* 8 fit, the 2 after are dropped and counted: the worker never waits. */
	assert_int_equal(atomic_load(&r.published), 8);
	assert_int_equal(r.dropped, 2);
	for (uint64_t i = 0; i < 8; i++) {
		assert_int_equal(rec[i].t, 100 + i);
		assert_int_equal(rec[i].lat, 2 * i);
		assert_int_equal(rec[i].offset, 4096 * i);
		assert_int_equal(rec[i].ddir, i & 1);
	}
	/* The reader frees 5 slots; the next pushes wrap around the array. */
	atomic_store(&r.tail, 5);
	for (uint64_t i = 0; i < 6; i++)
		iolog_push(&r, 200 + i, 0, 0, 0, 512, 0);
	assert_int_equal(atomic_load(&r.published), 13);
	assert_int_equal(r.dropped, 3);
	tail = atomic_load(&r.tail);
	for (uint64_t k = tail; k < 13; k++)
		assert_true(rec[k & 7].t == (k < 8 ? 100 + k : 200 + (k - 8)));
}

static void test_hist_delta_and_sum(void **state)
{
	struct hist *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b)), *d = calloc(1, sizeof(*d));
	uint64_t n;
	double sum;

	(void)state;
	hist_init(a);
	hist_init(b);
	for (uint64_t v = 1000; v < 2000; v += 10)
		hist_add(a, v);
	*b = *a;
	for (int i = 0; i < 50; i++)
		hist_add(b, 1000000);
	monitor_hist_delta(d, b, a);
	assert_int_equal(d->count, 50);
	/* Only the new samples: their bucket's midpoint, within 0.4% of 1 ms. */
	assert_true(hist_percentile(d, 50) > 996000 && hist_percentile(d, 50) < 1004000);
	monitor_hist_sum(a, &n, &sum);
	assert_int_equal(n, 100);
	/* Midpoints: the mean is within a bucket's width (0.4%) of 1495. */
	assert_true(sum / (double)n > 1495 * 0.995 && sum / (double)n < 1495 * 1.005);
	free(a);
	free(b);
	free(d);
}

static void test_eta_text(void **state)
{
	char buf[32];

	(void)state;
	progress_fmt_eta(buf, sizeof(buf), 120);
	assert_string_equal(buf, "02m:00s");
	progress_fmt_eta(buf, sizeof(buf), 3723);
	assert_string_equal(buf, "1h:02m:03s");
	progress_fmt_eta(buf, sizeof(buf), 90061);
	assert_string_equal(buf, "1d:01h:01m:01s");
}

static void test_disk_figures(void **state)
{
	struct disk_util d = { .name = "loop0" };
	struct disk_figures f;

	(void)state;
	d.start = (struct disk_counters){ { 10, 20 }, { 1, 2 }, { 80, 160 }, { 5, 6 }, 100, 300 };
	d.end = (struct disk_counters){ { 110, 70 }, { 4, 2 }, { 880, 560 }, { 25, 46 }, 350, 400 };
	d.start_ns = 1000000000ull;
	d.end_ns = 2000000000ull; /* 1000 ms, busy 250 ms */
	diskstats_figures(&d, &f);
	assert_int_equal(f.ios[0], 100);
	assert_int_equal(f.ios[1], 50);
	assert_int_equal(f.merges[0], 3);
	assert_int_equal(f.ticks[1], 40);
	assert_int_equal(f.in_queue, 100);
	assert_true(f.util > 24.99 && f.util < 25.01);
	/* Counters that went backwards (device re-created) give 0, not 2^64. */
	d.end.ios[0] = 5;
	diskstats_figures(&d, &f);
	assert_int_equal(f.ios[0], 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_order_and_drops),
		cmocka_unit_test(test_hist_delta_and_sum),
		cmocka_unit_test(test_eta_text),
		cmocka_unit_test(test_disk_figures),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
