/*
 * libaio engine: data round trips (buffered, O_DIRECT, user-space reaping,
 * a loop block device), 32 I/Os in flight reaped by one call, and the
 * messages for O_DIRECT misuse.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define MB (1024u * 1024u)

static char path[256];

static const char *tpath(const char *what)
{
	snprintf(path, sizeof(path), EH_DIR "/iorig-libaio-%d-%s", (int)getpid(), what);
	return path;
}

static void test_buffered(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = tpath("buf"), .size = 4 * MB,
			       .bs = 4096, .depth = 32 };

	(void)state;
	eh_roundtrip(&p);
}

static void test_direct(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = tpath("direct"), .size = 8 * MB,
			       .bs = 4096, .depth = 32, .direct = 1 };

	(void)state;
	eh_roundtrip(&p);
	p.bs = 128 * 1024;
	p.depth = 8;
	eh_roundtrip(&p);
}

static void test_userspace_reap(void **state)
{
	static const char *const kv[] = { "userspace_reap", "1", NULL };
	struct eh_params p = { .engine = "libaio", .path = tpath("usr"), .size = 8 * MB,
			       .bs = 4096, .depth = 32, .direct = 1, .kv = kv };

	(void)state;
	eh_roundtrip(&p);
	p.direct = 0;
	eh_roundtrip(&p);
}

/* 32 queued, one commit, one reap(min 32) brings back exactly those 32. */
static void test_burst_32(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = tpath("burst"), .size = 4 * MB,
			       .bs = 4096, .depth = 32, .direct = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 0, 3), 32);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_READ, 0, 3), 32);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 32 * 4096, 3), 32);
	assert_int_equal(eh_pread_check(p.path, 0, 64 * 4096, 3), 0);
	/* Nothing left: a reap that may return 0 returns 0. */
	assert_int_equal(eng_reap(h.e, h.state, 0, 32, 0, h.done), 0);
	eh_teardown(&h);
	unlink(p.path);
}

static void test_direct_misaligned(void **state)
{
	struct eh_params p = { .engine = "libaio", .path = tpath("misal"), .size = 1 * MB,
			       .bs = 4096, .depth = 4, .direct = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	/* A write: a misaligned read of a hole may just return zeros. */
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 512 + 100, 4096, 0), -EINVAL);
	assert_non_null(strstr(eh_errmsg(&h), "logical block size"));
	assert_non_null(strstr(eh_errmsg(&h), p.path));
	eh_teardown(&h);
	unlink(p.path);
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
	char dev[64], img[256], why[256];
	struct eh_params p = { .engine = "libaio", .size = 16 * MB, .bs = 4096, .depth = 32 };
	struct iorig_file f = { .fd = -1 };
	uint64_t size = 0;
	struct eh h;

	(void)state;
	if (eh_loop_attach(64 * MB, dev, sizeof(dev), img, sizeof(img), why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	p.path = dev;
	p.direct = 1;
	eh_roundtrip(&p);
	p.direct = 0;
	eh_roundtrip(&p);
	/* get_size sees the whole device. */
	assert_int_equal(eh_setup(&h, &p), 0);
	f.path = dev;
	assert_int_equal(eng_get_size(h.e, h.state, &f, &size), 0);
	eh_teardown(&h);
	eh_loop_detach(dev, img);
	assert_int_equal(size, 64 * MB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_buffered),
		cmocka_unit_test(test_direct),
		cmocka_unit_test(test_userspace_reap),
		cmocka_unit_test(test_burst_32),
		cmocka_unit_test(test_direct_misaligned),
		cmocka_unit_test(test_direct_unsupported),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
