/*
 * splice engine: round trips with blocks smaller than, equal to and larger
 * than the pipe (so transfers loop), odd sizes, EOF, and a loop block
 * device.
 */
#include <unistd.h>

#include "harness.h"

static void test_roundtrip(void **state)
{
	static const uint64_t sizes[] = { 4096, 65536, 1 * EH_MB, 4 * EH_MB };
	struct eh_params p = { .engine = "splice", .path = eh_path("splice", "rt"),
			       .size = 8 * EH_MB, .depth = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p.bs = sizes[i];
		eh_roundtrip(&p);
	}
	p.size = 5 * EH_MB + 333;
	p.bs = 100000;
	eh_roundtrip(&p);
}

static void test_eof(void **state)
{
	struct eh_params p = { .engine = "splice", .path = eh_path("splice", "eof"),
			       .size = 64 * 1024, .bs = 4096, .depth = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	eh_start(&h, &p);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, p.size, 2), 0);
	h.ios[0].ddir = IORIG_DDIR_READ;
	h.ios[0].offset = p.size - 10;
	h.ios[0].len = 4096;
	assert_int_equal(eng_queue(h.e, h.state, &h.ios[0]), IORIG_Q_COMPLETED);
	assert_int_equal(h.ios[0].result, 10);
	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, p.size, 2), 0);
	h.ios[0].offset = p.size;
	assert_int_equal(eng_queue(h.e, h.state, &h.ios[0]), IORIG_Q_COMPLETED);
	assert_int_equal(h.ios[0].result, 0);
	/* Nothing stayed in the pipe: the next read is still right. */
	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, p.size, 2), 0);
	eh_teardown(&h);
	unlink(p.path);
}

static void test_blockdev(void **state)
{
	struct eh_params p = { .engine = "splice", .size = 16 * EH_MB, .bs = 131072, .depth = 1 };
	struct eh_loop l;

	(void)state;
	eh_loop_or_skip(&l, 32 * EH_MB);
	p.path = l.dev;
	eh_roundtrip(&p);
	eh_loop_detach(&l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_roundtrip),
		cmocka_unit_test(test_eof),
		cmocka_unit_test(test_blockdev),
	};

	return cmocka_run_group_tests(tests, NULL, eh_group_teardown);
}
