/*
 * io_uring engine: data round trips buffered and O_DIRECT with each option
 * that changes how I/O is issued (fixedbufs, registerfiles, sqthread_poll,
 * nonvectored, force_async), 32 in flight reaped by one call, a loop block
 * device, and the refusal of option combinations that cannot work.
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
	snprintf(path, sizeof(path), EH_DIR "/iorig-io_uring-%d-%s", (int)getpid(), what);
	return path;
}

/* Round trip buffered and direct with the given options. */
static void both(const char *what, const char *const *kv)
{
	struct eh_params p = { .engine = "io_uring", .path = tpath(what), .size = 8 * MB,
			       .bs = 4096, .depth = 32, .kv = kv };

	eh_roundtrip(&p);
	p.direct = 1;
	eh_roundtrip(&p);
}

static void test_default(void **state)
{
	(void)state;
	both("default", NULL);
}

static void test_large_bs(void **state)
{
	struct eh_params p = { .engine = "io_uring", .path = tpath("large"), .size = 16 * MB,
			       .bs = 1 * MB, .depth = 8, .direct = 1 };

	(void)state;
	eh_roundtrip(&p);
}

static void test_fixedbufs(void **state)
{
	static const char *const kv[] = { "fixedbufs", "1", NULL };

	(void)state;
	both("fixedbufs", kv);
}

static void test_registerfiles(void **state)
{
	static const char *const kv[] = { "registerfiles", "1", NULL };

	(void)state;
	both("registerfiles", kv);
}

static void test_sqthread_poll(void **state)
{
	static const char *const kv[] = { "sqthread_poll", "1", NULL };
	static const char *const pinned[] = { "sqthread_poll", "1", "sqthread_poll_cpu", "0",
					      NULL };

	(void)state;
	both("sqpoll", kv);
	both("sqpoll-cpu", pinned);
}

static void test_nonvectored(void **state)
{
	static const char *const kv[] = { "nonvectored", "1", NULL };

	(void)state;
	both("nonvec", kv);
}

static void test_force_async(void **state)
{
	static const char *const every[] = { "force_async", "1", NULL };
	static const char *const third[] = { "force_async", "3", NULL };

	(void)state;
	both("async1", every);
	both("async3", third);
}

static void test_all_together(void **state)
{
	static const char *const kv[] = { "fixedbufs", "1", "registerfiles", "1",
					  "sqthread_poll", "1", "force_async", "2", NULL };

	(void)state;
	both("all", kv);
}

/* 32 queued, one commit, one reap(min 32) brings back exactly those 32. */
static void test_burst_32(void **state)
{
	static const char *const sqpoll[] = { "sqthread_poll", "1", NULL };
	const char *const *variants[] = { NULL, sqpoll };

	(void)state;
	for (int v = 0; v < 2; v++) {
		struct eh_params p = { .engine = "io_uring", .path = tpath("burst"),
				       .size = 4 * MB, .bs = 4096, .depth = 32, .direct = 1,
				       .kv = variants[v] };
		struct eh h;

		assert_int_equal(eh_make_file(p.path, p.size), 0);
		assert_int_equal(eh_setup(&h, &p), 0);
		assert_int_equal(eh_open(&h), 0);
		assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 0, 5), 32);
		assert_int_equal(eh_burst(&h, IORIG_DDIR_READ, 0, 5), 32);
		assert_int_equal(eh_pread_check(p.path, 0, 32 * 4096, 5), 0);
		assert_int_equal(eng_reap(h.e, h.state, 0, 32, 0, h.done), 0);
		eh_teardown(&h);
		unlink(p.path);
	}
}

static void expect_refused(const char *const *kv, int direct, const char *needle)
{
	struct eh_params p = { .engine = "io_uring", .path = tpath("refused"), .size = 1 * MB,
			       .bs = 4096, .depth = 4, .direct = direct, .kv = kv };
	struct eh h;

	assert_int_equal(eh_setup(&h, &p), -EINVAL);
	if (!strstr(eh_errmsg(&h), needle))
		fail_msg("message '%s' lacks '%s'", eh_errmsg(&h), needle);
	eh_teardown(&h);
}

static void test_bad_combinations(void **state)
{
	static const char *const hipri[] = { "hipri", "1", NULL };
	static const char *const cpu_alone[] = { "sqthread_poll_cpu", "0", NULL };

	(void)state;
	expect_refused(hipri, 0, "hipri needs O_DIRECT on a device with poll queues");
	expect_refused(cpu_alone, 0, "sqthread_poll=1");
	expect_refused(cpu_alone, 1, "sqthread_poll=1");
}

/*
 * hipri with O_DIRECT: the kernel either polls (and the data must be
 * right) or fails the I/O, and then the message says what hipri needs.
 */
static void test_hipri_direct(void **state)
{
	static const char *const kv[] = { "hipri", "1", NULL };
	struct eh_params p = { .engine = "io_uring", .path = tpath("hipri"), .size = 1 * MB,
			       .bs = 4096, .depth = 8, .direct = 1, .kv = kv };
	struct eh h;
	int64_t rc;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	rc = eh_run(&h, IORIG_DDIR_WRITE, 0, p.size, 9);
	if (rc == 0)
		rc = eh_run(&h, IORIG_DDIR_READ, 0, p.size, 9);
	if (rc == 0) {
		assert_int_equal(eh_pread_check(p.path, 0, p.size, 9), 0);
	} else {
		/* ext4 on virtio polls writes but refuses polled reads (EOPNOTSUPP). */
		print_message("hipri refused by this kernel/device (%lld): %s\n", (long long)rc,
			      eh_errmsg(&h));
		assert_true(rc == -EOPNOTSUPP || rc == -EINVAL);
		assert_non_null(strstr(eh_errmsg(&h), "hipri needs O_DIRECT"));
	}
	eh_teardown(&h);
	unlink(p.path);
}

static void test_direct_misaligned(void **state)
{
	struct eh_params p = { .engine = "io_uring", .path = tpath("misal"), .size = 1 * MB,
			       .bs = 4096, .depth = 4, .direct = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 512 + 100, 4096, 0), -EINVAL);
	assert_non_null(strstr(eh_errmsg(&h), "logical block size"));
	eh_teardown(&h);
	unlink(p.path);
}

static void test_blockdev(void **state)
{
	static const char *const fixed[] = { "fixedbufs", "1", "registerfiles", "1", NULL };
	char dev[64], img[256], why[256];
	struct eh_params p = { .engine = "io_uring", .size = 16 * MB, .bs = 4096, .depth = 32 };

	(void)state;
	if (eh_loop_attach(64 * MB, dev, sizeof(dev), img, sizeof(img), why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	p.path = dev;
	p.direct = 1;
	eh_roundtrip(&p);
	p.kv = fixed;
	eh_roundtrip(&p);
	p.direct = 0;
	p.kv = NULL;
	eh_roundtrip(&p);
	eh_loop_detach(dev, img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default),
		cmocka_unit_test(test_large_bs),
		cmocka_unit_test(test_fixedbufs),
		cmocka_unit_test(test_registerfiles),
		cmocka_unit_test(test_sqthread_poll),
		cmocka_unit_test(test_nonvectored),
		cmocka_unit_test(test_force_async),
		cmocka_unit_test(test_all_together),
		cmocka_unit_test(test_burst_32),
		cmocka_unit_test(test_bad_combinations),
		cmocka_unit_test(test_hipri_direct),
		cmocka_unit_test(test_direct_misaligned),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
