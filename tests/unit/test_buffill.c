/*
 * Buffer contents: a pure function of options and seed (verification
 * regenerates payloads from it), zero_buffers writes zeros, the compress
 * percentage is the zero share of every chunk, and the dedupe draw repeats
 * one seed about dedupe_percentage of the time.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "buffill.h"

#define LEN 65536

static void test_pure(void **state)
{
	struct buffill_opts o = { 0 };
	static uint8_t a[LEN + 3], b[LEN + 3];

	(void)state;
	buffill(&o, a, LEN + 3, 42);
	buffill(&o, b, LEN + 3, 42);
	assert_memory_equal(a, b, LEN + 3);
	buffill(&o, b, LEN + 3, 43);
	assert_memory_not_equal(a, b, 64);
	o.zero = true;
	buffill(&o, a, LEN, 42);
	for (int i = 0; i < LEN; i++)
		assert_int_equal(a[i], 0);
}

static void test_compress(void **state)
{
	struct buffill_opts o = { .compress_pct = 75, .compress_chunk = 1024 };
	static uint8_t a[LEN];
	size_t zeros = 0;

	(void)state;
	buffill(&o, a, LEN, 5);
	for (int c = 0; c < LEN; c += 1024) {
		/* 256 random bytes, then 768 zeros. */
		assert_int_equal(a[c + 1023], 0);
		assert_int_equal(a[c + 256], 0);
	}
	for (int i = 0; i < LEN; i++)
		zeros += !a[i];
	/* 75% zeros, plus the random bytes that happen to be 0 (1/256). */
	assert_true(zeros >= LEN * 3 / 4 && zeros < LEN * 3 / 4 + LEN / 4 / 100);
}

static void test_dedupe(void **state)
{
	struct buffill_opts o = { .dedupe_pct = 30 };
	struct buffill_state s;
	int dup = 0;

	(void)state;
	buffill_state_init(&s, &o, false, 1);
	assert_true(s.per_write);
	for (int i = 0; i < 100000; i++)
		dup += buffill_next_seed(&s, &o) == s.dedupe_seed;
	assert_true(dup > 29000 && dup < 31000);
	o.dedupe_pct = 0;
	buffill_state_init(&s, &o, false, 1);
	assert_false(s.per_write);
	buffill_state_init(&s, &o, true, 1);
	assert_true(s.per_write); /* verify stamps every write */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pure),
		cmocka_unit_test(test_compress),
		cmocka_unit_test(test_dedupe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
