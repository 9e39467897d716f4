/*
 * libaio engine: data round trips (buffered, O_DIRECT, user-space reaping,
 * a loop block device), 32 I/Os in flight reaped by one call, and the
 * messages for O_DIRECT misuse.
 */
#include <errno.h>
#include <string.h>

#include "harness.h"

static void test_buffered(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = eh_path("libaio", "buf"),
			       .size = 4 * EH_MB, .bs = 4096, .depth = 32 };

	(void)state;
	eh_roundtrip(&p);
}

static void test_direct(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = eh_path("libaio", "direct"),
			       .size = 8 * EH_MB, .bs = 4096, .depth = 32, .direct = 1 };

	(void)state;
	eh_roundtrip(&p);
	p.bs = 128 * 1024;
	p.depth = 8;
	eh_roundtrip(&p);
}

static void test_userspace_reap(void **state)
{
	static const char *const kv[] = { "userspace_reap", "1", NULL };
	struct eh_params p = { .engine = "libaio", .path = eh_path("libaio", "usr"),
			       .size = 8 * EH_MB, .bs = 4096, .depth = 32, .direct = 1, .kv = kv };

	(void)state;
	eh_roundtrip(&p);
	p.direct = 0;
	eh_roundtrip(&p);
}

/* procfs has no O_DIRECT (tmpfs has since Linux 6.6): the open explains. */
static void test_direct_unsupported(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = "/proc/version", .size = 4096,
			       .bs = 4096, .depth = 4, .direct = 1, .read_only = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), -EINVAL);
	assert_non_null(strstr(eh_errmsg(&h), "O_DIRECT"));
	assert_non_null(strstr(eh_errmsg(&h), "direct=0"));
	assert_non_null(strstr(eh_errmsg(&h), "/proc/version"));
	eh_teardown(&h);
}

static void test_blockdev(void **state)
{
	struct eh_params p = { .engine = "libaio", .size = 16 * EH_MB, .bs = 4096, .depth = 32 };
	struct eh_loop l;

	(void)state;
	eh_loop_or_skip(&l, 64 * EH_MB);
	p.path = l.dev;
	p.direct = 1;
	eh_roundtrip(&p);
	p.direct = 0;
	eh_roundtrip(&p);
	/* get_size sees the whole device. */
	assert_int_equal(eh_get_size(&p), 64 * EH_MB);
	eh_loop_detach(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffered),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_userspace_reap),
		cmocka_unit_test_prestate(eh_test_burst, "libaio"),
		cmocka_unit_test_prestate(eh_test_misaligned, "libaio"),
		cmocka_unit_test(test_direct_unsupported),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
