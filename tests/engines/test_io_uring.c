/*
 * io_uring engine: data round trips buffered and O_DIRECT with each option
 * that changes how I/O is issued (fixedbufs, registerfiles, sqthread_poll,
 * nonvectored, force_async), 32 in flight reaped by one call, a loop block
 * device, and the refusal of option combinations that cannot work.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* Round trip buffered and direct with the given options. */
static void both(const char *what, const char *const *kv)
{
	struct eh_params p = { .engine = "io_uring", .path = eh_path("io_uring", what),
			       .size = 8 * EH_MB, .bs = 4096, .depth = 32, .kv = kv };

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
	struct eh_params p = { .engine = "io_uring", .path = eh_path("io_uring", "large"),
			       .size = 16 * EH_MB, .bs = 1 * EH_MB, .depth = 8, .direct = 1 };

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

/* Both forms of the ops; the default (-1) takes READ/WRITE where it can. */
static void test_nonvectored(void **state)
{
	static const char *const kv[] = { "nonvectored", "1", NULL };
	static const char *const vectored[] = { "nonvectored", "0", NULL };

	(void)state;
	both("nonvec", kv);
	both("vectored", vectored);
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

/* eh_test_burst, with the kernel thread taking the submissions. */
static void test_burst_sqpoll(void **state)
{
	static const char *const sqpoll[] = { "sqthread_poll", "1", NULL };
	struct eh_params p = { .engine = "io_uring", .path = eh_path("io_uring", "burst"),
			       .size = 4 * EH_MB, .bs = 4096, .depth = 32, .direct = 1,
			       .kv = sqpoll };

	(void)state;
	eh_burst_check(&p);
}

static void expect_refused(const char *const *kv, int direct, const char *needle)
{
	struct eh_params p = { .engine = "io_uring", .path = eh_path("io_uring", "refused"),
			       .size = 1 * EH_MB, .bs = 4096, .depth = 4, .direct = direct,
			       .kv = kv };
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
	struct eh_params p = { .engine = "io_uring", .path = eh_path("io_uring", "hipri"),
			       .size = 1 * EH_MB, .bs = 4096, .depth = 8, .direct = 1, .kv = kv };
	struct eh h;
	int64_t rc;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	eh_start(&h, &p);
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

static void test_blockdev(void **state)
{
	static const char *const fixed[] = { "fixedbufs", "1", "registerfiles", "1", NULL };
	struct eh_params p = { .engine = "io_uring", .size = 16 * EH_MB, .bs = 4096, .depth = 32 };
	struct eh_loop l;

	(void)state;
	eh_loop_or_skip(&l, 64 * EH_MB);
	p.path = l.dev;
	p.direct = 1;
	eh_roundtrip(&p);
	p.kv = fixed;
	eh_roundtrip(&p);
	p.direct = 0;
	p.kv = NULL;
	eh_roundtrip(&p);
	eh_loop_detach(&l);
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
		cmocka_unit_test_prestate(eh_test_burst, "io_uring"),
		cmocka_unit_test(test_burst_sqpoll),
		cmocka_unit_test(test_bad_combinations),
		cmocka_unit_test(test_hipri_direct),
		cmocka_unit_test_prestate(eh_test_misaligned, "io_uring"),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
