/*
 * Value parsers (core/parse.c): sizes, durations, booleans, integers,
 * percentile and CPU lists, edit distance and fio-style size formatting,
 * with the edge cases users hit (suffix spellings, overflow, hex, fractions).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <errno.h>
#include <string.h>

#include "parse.h"

static uint64_t size_ok(const char *s)
{
	uint64_t v = 12345;

	assert_int_equal(parse_size(s, &v), 0);
	return v;
}

static void test_size_suffixes(void **state)
{
	(void)state;
	assert_int_equal(size_ok("0"), 0);
	assert_int_equal(size_ok("4096"), 4096);
	/* k = K = KiB = KB = Ki = 1024 (fio's kb_base=1024; fio itself reads
	 * "KiB" as 1000, which we do not copy). */
	assert_int_equal(size_ok("4k"), 4096);
	assert_int_equal(size_ok("4K"), 4096);
	assert_int_equal(size_ok("4KiB"), 4096);
	assert_int_equal(size_ok("4kib"), 4096);
	assert_int_equal(size_ok("4KB"), 4096);
	assert_int_equal(size_ok("4Ki"), 4096);
	assert_int_equal(size_ok("1m"), 1048576);
	assert_int_equal(size_ok("1MiB"), 1048576);
	assert_int_equal(size_ok("3g"), 3ull << 30);
	assert_int_equal(size_ok("2t"), 2ull << 40);
	assert_int_equal(size_ok("1p"), 1ull << 50);
	assert_int_equal(size_ok("8e"), 8ull << 60);
	assert_int_equal(size_ok("512b"), 512);
	assert_int_equal(size_ok("512B"), 512);
	assert_int_equal(size_ok(" 64k "), 65536);
	assert_int_equal(size_ok("4 k"), 4096);
	assert_int_equal(size_ok("0x10"), 16);
	assert_int_equal(size_ok("0X1000"), 4096);
	/* Fractions count when they make whole bytes. */
	assert_int_equal(size_ok("1.5k"), 1536);
	assert_int_equal(size_ok("0.5m"), 524288);
	assert_int_equal(size_ok(".25k"), 256);
	assert_int_equal(size_ok("2."), 2);
}

static void test_size_errors(void **state)
{
	uint64_t v = 7;

	(void)state;
	assert_int_equal(parse_size("", &v), -EINVAL);
	assert_int_equal(parse_size("   ", &v), -EINVAL);
	assert_int_equal(parse_size(NULL, &v), -EINVAL);
	assert_int_equal(parse_size("k", &v), -EINVAL);
	assert_int_equal(parse_size("-1", &v), -EINVAL);
	assert_int_equal(parse_size("4q", &v), -EINVAL);
	assert_int_equal(parse_size("4kk", &v), -EINVAL);
	assert_int_equal(parse_size("4kibx", &v), -EINVAL);
	assert_int_equal(parse_size("4bb", &v), -EINVAL);
	assert_int_equal(parse_size("1k5", &v), -EINVAL);
	assert_int_equal(parse_size("50%", &v), -EINVAL);
	assert_int_equal(parse_size("1.5", &v), -EINVAL); /* half a byte */
	assert_int_equal(parse_size("1.1k", &v), -EINVAL); /* 1126.4 bytes */
	assert_int_equal(parse_size("1..5k", &v), -EINVAL);
	assert_int_equal(parse_size(".", &v), -EINVAL);
	assert_int_equal(parse_size("0x", &v), -EINVAL);
	assert_int_equal(parse_size("0x10k", &v), -EINVAL); /* hex takes no unit */
	assert_int_equal(parse_size("0xfg", &v), -EINVAL);
	/* Overflow is -ERANGE, never a wrapped value. */
	assert_int_equal(parse_size("18446744073709551615", &v), 0);
	assert_true(v == UINT64_MAX);
	assert_int_equal(parse_size("18446744073709551616", &v), -ERANGE);
	assert_int_equal(parse_size("16e", &v), -ERANGE);
	assert_int_equal(parse_size("15.5e", &v), 0);
	assert_int_equal(parse_size("17179869184g", &v), -ERANGE);
	assert_int_equal(parse_size("0x10000000000000000", &v), -ERANGE);
	assert_int_equal(parse_size("99999999999999999999999k", &v), -ERANGE);
}

static uint64_t dur_ok(const char *s)
{
	uint64_t v = 12345;

	assert_int_equal(parse_duration_ns(s, &v), 0);
	return v;
}

static void test_durations(void **state)
{
	uint64_t v;

	(void)state;
	assert_int_equal(dur_ok("10"), 10000000000ull); /* plain number: seconds */
	assert_int_equal(dur_ok("0"), 0);
	assert_int_equal(dur_ok("10s"), 10000000000ull);
	assert_int_equal(dur_ok("10sec"), 10000000000ull);
	assert_int_equal(dur_ok("500ms"), 500000000ull);
	assert_int_equal(dur_ok("250us"), 250000ull);
	assert_int_equal(dur_ok("100ns"), 100ull);
	assert_int_equal(dur_ok("2m"), 120000000000ull);
	assert_int_equal(dur_ok("2min"), 120000000000ull);
	assert_int_equal(dur_ok("1h"), 3600000000000ull);
	assert_int_equal(dur_ok("1d"), 86400000000000ull);
	assert_int_equal(dur_ok("1.5s"), 1500000000ull);
	assert_int_equal(dur_ok("1.5"), 1500000000ull);
	assert_int_equal(dur_ok("0.5ms"), 500000ull);
	assert_int_equal(dur_ok("10 MS"), 10000000ull);
	assert_int_equal(dur_ok(" 3s "), 3000000000ull);
	assert_int_equal(dur_ok("1.5ns"), 1); /* sub-ns dropped */

	assert_int_equal(parse_duration_ns("", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("s", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("10x", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("10 s x", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("-1s", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("1s500ms", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("0x10", &v), -EINVAL);
	assert_int_equal(parse_duration_ns("18446744074", &v), -ERANGE); /* > 2^64 ns */
	assert_int_equal(parse_duration_ns("18446744073", &v), 0);

	/* Another unit for a plain number (fio's thinktime, rate_cycle); a unit wins. */
	assert_int_equal(parse_duration_unit_ns("100", 1000, &v), 0);
	assert_int_equal(v, 100000);
	assert_int_equal(parse_duration_unit_ns("1.5", 1000000, &v), 0);
	assert_int_equal(v, 1500000);
	assert_int_equal(parse_duration_unit_ns("2s", 1000, &v), 0);
	assert_int_equal(v, 2000000000ull);
	assert_int_equal(parse_duration_unit_ns("10x", 1000, &v), -EINVAL);
	assert_int_equal(parse_duration_ns("213503d", &v), 0);
	assert_int_equal(parse_duration_ns("213503.99d", &v), -ERANGE);
}

static void test_bool(void **state)
{
	static const char *const yes[] = { "1", "true", "TRUE", "yes", "on", " On " };
	static const char *const no[] = { "0", "false", "No", "off", "OFF" };
	static const char *const bad[] = { "", "2", "y", "enable", "truee", "-1", "  " };
	bool b;

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		b = false;
		assert_int_equal(parse_bool(yes[i], &b), 0);
		assert_true(b);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		b = true;
		assert_int_equal(parse_bool(no[i], &b), 0);
		assert_false(b);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(parse_bool(bad[i], &b), -EINVAL);
}

static void test_ints(void **state)
{
	int64_t i;
	uint64_t u;

	(void)state;
	assert_int_equal(parse_int64("42", &i), 0);
	assert_int_equal(i, 42);
	assert_int_equal(parse_int64("-42", &i), 0);
	assert_int_equal(i, -42);
	assert_int_equal(parse_int64("0x10", &i), 0);
	assert_int_equal(i, 16);
	assert_int_equal(parse_int64("-0x10", &i), 0);
	assert_int_equal(i, -16);
	assert_int_equal(parse_int64("9223372036854775807", &i), 0);
	assert_true(i == INT64_MAX);
	assert_int_equal(parse_int64("-9223372036854775808", &i), 0);
	assert_true(i == INT64_MIN);
	assert_int_equal(parse_int64("9223372036854775808", &i), -ERANGE);
	assert_int_equal(parse_int64("-9223372036854775809", &i), -ERANGE);
	assert_int_equal(parse_int64("1.5", &i), -EINVAL);
	assert_int_equal(parse_int64("4k", &i), -EINVAL);
	assert_int_equal(parse_int64("", &i), -EINVAL);
	assert_int_equal(parse_int64("-", &i), -EINVAL);
	assert_int_equal(parse_int64("12 3", &i), -EINVAL);

	assert_int_equal(parse_uint64("18446744073709551615", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_uint64("18446744073709551616", &u), -ERANGE);
	assert_int_equal(parse_uint64("0xffffffffffffffff", &u), 0);
	assert_true(u == UINT64_MAX);
	assert_int_equal(parse_uint64("-1", &u), -EINVAL);
	assert_int_equal(parse_uint64("abc", &u), -EINVAL);
}

static void test_percentiles(void **state)
{
	double p[4];
	uint32_t n = 0;

	(void)state;
	assert_int_equal(parse_percentile_list("1.5:50:99.99", p, 4, &n), 0);
	assert_int_equal(n, 3);
	assert_true(p[0] == 1.5 && p[1] == 50.0 && p[2] == 99.99);
	assert_int_equal(parse_percentile_list("100", p, 4, &n), 0);
	assert_int_equal(n, 1);
	assert_true(p[0] == 100.0);
	assert_int_equal(parse_percentile_list("1:2:3:4:5", p, 4, &n), -ERANGE);
	assert_int_equal(parse_percentile_list("0", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("100.1", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("50::90", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("50,90", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("nan", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("inf", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("", p, 4, &n), -EINVAL);
	assert_int_equal(parse_percentile_list("50:", p, 4, &n), -EINVAL);
}

static void test_cpu_list(void **state)
{
	uint64_t bm[2];

	(void)state;
	assert_int_equal(parse_cpu_list("0-3,6", bm, 128), 0);
	assert_true(bm[0] == 0x4f && bm[1] == 0);
	assert_int_equal(parse_cpu_list("64, 127", bm, 128), 0);
	assert_true(bm[0] == 0 && bm[1] == ((1ull << 63) | 1));
	assert_int_equal(parse_cpu_list("5", bm, 128), 0);
	assert_true(bm[0] == 0x20 && bm[1] == 0);
	assert_int_equal(parse_cpu_list("0-127", bm, 128), 0);
	assert_true(bm[0] == UINT64_MAX && bm[1] == UINT64_MAX);
	assert_int_equal(parse_cpu_list("128", bm, 128), -ERANGE);
	assert_int_equal(parse_cpu_list("3-1", bm, 128), -EINVAL);
	assert_int_equal(parse_cpu_list("", bm, 128), -EINVAL);
	assert_int_equal(parse_cpu_list("1,", bm, 128), -EINVAL);
	assert_int_equal(parse_cpu_list("a", bm, 128), -EINVAL);
	assert_int_equal(parse_cpu_list("1-", bm, 128), -EINVAL);
	assert_int_equal(parse_cpu_list("-1", bm, 128), -EINVAL);
}

static void test_edit_distance(void **state)
{
	(void)state;
	assert_int_equal(edit_distance("", ""), 0);
	assert_int_equal(edit_distance("bs", "bs"), 0);
	assert_int_equal(edit_distance("bss", "bs"), 1);
	assert_int_equal(edit_distance("iodpeth", "iodepth"), 2);
	assert_int_equal(edit_distance("kitten", "sitting"), 3);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_int_equal(edit_distance("abc", ""), 3);
}

static void test_fmt_size(void **state)
{
	/* Expected strings are fio 3.33's, from its "bs=(R) ..." line. */
	static const struct {
		uint64_t v;
		const char *s;
	} cases[] = {
		{ 0, "0B" }, { 512, "512B" }, { 4096, "4096B" }, { 9999, "9999B" },
		{ 10000, "9.77KiB" }, { 10240, "10.0KiB" }, { 12345, "12.1KiB" },
		{ 65536, "64.0KiB" }, { 100000, "97.7KiB" }, { 131072, "128KiB" },
		{ 1000000, "977KiB" }, { 1048576, "1024KiB" }, { 2097152, "2048KiB" },
		{ 20971520, "20.0MiB" }, { 1073741824, "1024MiB" }, { 3221225472ull, "3072MiB" },
	};
	char buf[32];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fmt_size(buf, sizeof(buf), cases[i].v);
		assert_string_equal(buf, cases[i].s);
	}
	fmt_size(buf, sizeof(buf), UINT64_MAX);
	assert_string_equal(buf, "16.0EiB");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size_suffixes),
		cmocka_unit_test(test_size_errors),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_bool),
		cmocka_unit_test(test_ints),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_fmt_size),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
