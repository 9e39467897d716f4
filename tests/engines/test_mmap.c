/*
 * mmap engine: round trips (sequential and random advice, odd block
 * sizes), read-only mappings, reads past the end, direct=1 refused, and a
 * loop block device.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static void test_roundtrip(void **state)
{
	struct eh_params p = { .engine = "mmap", .path = eh_path("mmap", "seq"),
			       .size = 8 * EH_MB, .bs = 4096, .depth = 1 };

	(void)state;
	eh_roundtrip(&p);
	p.random = 1;
	p.bs = 64 * 1024;
	eh_roundtrip(&p);
	/* Block and file sizes that are not page multiples. */
	p.size = 3 * EH_MB + 777;
	p.bs = 12345;
	eh_roundtrip(&p);
}

/* A file shorter than the job's size grows (a store past EOF is SIGBUS). */
static void test_grows_short_file(void **state)
{
	struct eh_params p = { .engine = "mmap", .path = eh_path("mmap", "grow"),
			       .size = 2 * EH_MB, .bs = 4096, .depth = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, 4096), 0);
	eh_start(&h, &p);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, p.size, 4), 0);
	assert_int_equal(eng_fsync(h.e, h.state, &h.file, 0), 0);
	eh_teardown(&h);
	assert_int_equal(eh_pread_check(p.path, 0, p.size, 4), 0);
	unlink(p.path);
}

static void test_read_only(void **state)
{
	struct eh_params w = { .engine = "mmap", .path = eh_path("mmap", "ro"),
			       .size = 1 * EH_MB, .bs = 8192, .depth = 1 };
	struct eh_params r = w;
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(w.path, w.size), 0);
	eh_start(&h, &w);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, w.size, 11), 0);
	eh_teardown(&h);

	r.read_only = 1;
	eh_start(&h, &r);
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
	struct eh_params p = { .engine = "mmap", .path = eh_path("mmap", "direct"),
			       .size = 1 * EH_MB, .bs = 4096, .depth = 1, .direct = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_setup(&h, &p), -EINVAL);
	assert_non_null(strstr(eh_errmsg(&h), "drop direct=1"));
	eh_teardown(&h);
}

static void test_blockdev(void **state)
{
	struct eh_params p = { .engine = "mmap", .size = 16 * EH_MB, .bs = 65536, .depth = 1 };
	struct eh_loop l;

	(void)state;
	eh_loop_or_skip(&l, 32 * EH_MB);
	p.path = l.dev;
	eh_roundtrip(&p);
	assert_int_equal(eh_get_size(&p), 32 * EH_MB);
	eh_loop_detach(&l);
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
