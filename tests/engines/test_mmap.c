/*
 * mmap engine: round trips (sequential and random advice, odd block
 * sizes), read-only mappings, reads past the end, direct=1 refused, and a
 * loop block device.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

#define MB (1024u * 1024u)

static char path[256];

static const char *tpath(const char *what)
{
	snprintf(path, sizeof(path), EH_DIR "/iorig-mmap-%d-%s", (int)getpid(), what);
	return path;
}

static void test_roundtrip(void **state)
{
	struct eh_params p = { .engine = "mmap", .path = tpath("seq"), .size = 8 * MB,
			       .bs = 4096, .depth = 1 };

	(void)state;
	eh_roundtrip(&p);
	p.random = 1;
	p.bs = 64 * 1024;
	eh_roundtrip(&p);
	/* Block and file sizes that are not page multiples. */
	p.size = 3 * MB + 777;
	p.bs = 12345;
	eh_roundtrip(&p);
}

/* A file shorter than the job's size grows (a store past EOF is SIGBUS). */
static void test_grows_short_file(void **state)
{
	struct eh_params p = { .engine = "mmap", .path = tpath("grow"), .size = 2 * MB,
			       .bs = 4096, .depth = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, 4096), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, p.size, 4), 0);
	assert_int_equal(eng_fsync(h.e, h.state, &h.file, 0), 0);
	eh_teardown(&h);
	assert_int_equal(eh_pread_check(p.path, 0, p.size, 4), 0);
	unlink(p.path);
}

static void test_read_only(void **state)
{
	struct eh_params w = { .engine = "mmap", .path = tpath("ro"), .size = 1 * MB,
			       .bs = 8192, .depth = 1 };
	struct eh_params r = w;
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(w.path, w.size), 0);
	assert_int_equal(eh_setup(&h, &w), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, w.size, 11), 0);
	eh_teardown(&h);

	r.read_only = 1;
	assert_int_equal(eh_setup(&h, &r), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, r.size, 11), 0);
	/* Past the end of a read-only file: a short read, then EOF. */
	h.ios[0].ddir = IORIG_DDIR_READ;
	h.ios[0].offset = r.size - 100;
	h.ios[0].len = 4096;
	assert_int_equal(eng_queue(h.e, h.state, &h.ios[0]), IORIG_Q_COMPLETED);
	assert_int_equal(h.ios[0].result, 100);
	h.ios[0].offset = r.size;
	assert_int_equal(eng_queue(h.e, h.state, &h.ios[0]), IORIG_Q_COMPLETED);
	assert_int_equal(h.ios[0].result, 0);
	eh_teardown(&h);
	unlink(w.path);
}

static void test_direct_refused(void **state)
{
	struct eh_params p = { .engine = "mmap", .path = tpath("direct"), .size = 1 * MB,
			       .bs = 4096, .depth = 1, .direct = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_setup(&h, &p), -EINVAL);
	assert_non_null(strstr(eh_errmsg(&h), "drop direct=1"));
	eh_teardown(&h);
}

static void test_blockdev(void **state)
{
	char dev[64], img[256], why[256];
	struct eh_params p = { .engine = "mmap", .size = 16 * MB, .bs = 65536, .depth = 1 };
	struct iorig_file f = { .fd = -1 };
	uint64_t size = 0;
	struct eh h;

	(void)state;
	if (eh_loop_attach(32 * MB, dev, sizeof(dev), img, sizeof(img), why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	p.path = dev;
	eh_roundtrip(&p);
	assert_int_equal(eh_setup(&h, &p), 0);
	f.path = dev;
	assert_int_equal(eng_get_size(h.e, h.state, &f, &size), 0);
	eh_teardown(&h);
	eh_loop_detach(dev, img);
	assert_int_equal(size, 32 * MB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_grows_short_file),
		cmocka_unit_test(test_read_only),
		cmocka_unit_test(test_direct_refused),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
