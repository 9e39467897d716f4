/*
 * splice engine: round trips with blocks smaller than, equal to and larger
 * than the pipe (so transfers loop), odd sizes, EOF, and a loop block
 * device.
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
	snprintf(path, sizeof(path), EH_DIR "/iorig-splice-%d-%s", (int)getpid(), what);
	return path;
}

static void test_roundtrip(void **state)
{
	static const uint64_t sizes[] = { 4096, 65536, 1 * MB, 4 * MB };
	struct eh_params p = { .engine = "splice", .path = tpath("rt"), .size = 8 * MB,
			       .depth = 1 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		p.bs = sizes[i];
		eh_roundtrip(&p);
	}
	p.size = 5 * MB + 333;
	p.bs = 100000;
	eh_roundtrip(&p);
}

static void test_eof(void **state)
{
	struct eh_params p = { .engine = "splice", .path = tpath("eof"), .size = 64 * 1024,
			       .bs = 4096, .depth = 1 };
	struct eh h;

	(void)state;
	assert_int_equal(eh_make_file(p.path, p.size), 0);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
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
	char dev[64], img[256], why[256];
	struct eh_params p = { .engine = "splice", .size = 16 * MB, .bs = 131072, .depth = 1 };

	(void)state;
	if (eh_loop_attach(32 * MB, dev, sizeof(dev), img, sizeof(img), why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
	p.path = dev;
	eh_roundtrip(&p);
	eh_loop_detach(dev, img);
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
