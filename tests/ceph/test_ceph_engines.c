/*
 * The rbd and rados engines driven through the core's call wrappers (the
 * engine test harness of tests/engines), against the cluster of
 * cluster-start: a pattern written at iodepth 16 is read back byte for
 * byte through the engine, and again with the rbd/rados tools so the data
 * is known to be in the cluster, not just in the engine.  Also: burst
 * reaping, trims, get_size, and what create_image/remove_image leave.
 * Exit 77 when the cluster is not there (IORIG_CEPH_ENV).
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB 1024u
#define DEPTH 16
#define T_NS (30ull * 1000000000ull)

static char conf[1024], pool[256];

/* KEY=VALUE lines from cluster-start --env-file; 77 when skipped. */
static int load_env(void)
{
	const char *path = getenv("IORIG_CEPH_ENV");
	char line[2048];
	FILE *f = path ? fopen(path, "r") : NULL;

	if (!f) {
		printf("SKIP: no cluster (%s missing; did ceph.cluster_start run?)\n",
		       path ? path : "IORIG_CEPH_ENV");
		return 77;
	}
	while (fgets(line, sizeof(line), f)) {
		char *v = strchr(line, '=');

		if (!v)
			continue;
		*v++ = 0;
		v[strcspn(v, "\n")] = 0;
		if (!strcmp(line, "IORIG_CEPH_SKIP")) {
			printf("SKIP: %s\n", v);
			fclose(f);
			return 77;
		}
		if (!strcmp(line, "CEPH_CONF"))
			snprintf(conf, sizeof(conf), "%s", v);
		else if (!strcmp(line, "IORIG_CEPH_POOL"))
			snprintf(pool, sizeof(pool), "%s", v);
	}
	fclose(f);
	if (!conf[0] || !pool[0]) {
		printf("FAIL: %s names no CEPH_CONF or pool\n", path);
		return 1;
	}
	setenv("CEPH_CONF", conf, 1); /* for the rbd/rados tools */
	unsetenv("CEPH_ARGS");
	return 0;
}

/* Output of a Ceph tool into buf; bytes read, or -1. */
static long tool(const char *cmd, uint8_t *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n = 0, r;

	if (!p)
		return -1;
	while (n < len && (r = fread(buf + n, 1, len - n, p)) > 0)
		n += r;
	return pclose(p) == 0 ? (long)n : -1;
}

static void run(const char *fmt, const char *a, const char *b)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	if (system(cmd)) {
		/* the callers check what they need */
	}
}

static int image_exists(const char *name)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "rbd info %s/%s >/dev/null 2>&1", pool, name);
	return system(cmd) == 0;
}

/* Bytes of buf that differ from the pattern for seed at offset base. */
static uint64_t mismatches(const uint8_t *buf, uint64_t len, uint64_t base, uint64_t seed)
{
	uint64_t bad = 0;

	for (uint64_t i = 0; i < len; i++)
		bad += buf[i] != eh_pattern_byte(seed, base + i);
	return bad;
}

/* One I/O through the wrappers, waited for; its result. */
static int64_t one_io(struct eh *h, uint32_t ddir, uint64_t off, uint64_t len)
{
	struct iorig_io *io = &h->ios[0];
	int q;

	io->ddir = ddir;
	io->offset = off;
	io->len = len;
	io->result = -12345;
	q = eng_queue(h->e, h->state, io);
	if (q < 0)
		return q;
	if (q == IORIG_Q_QUEUED) {
		if (eng_commit(h->e, h->state) < 0 ||
		    eng_reap(h->e, h->state, 1, 1, T_NS, h->done) != 1 || h->done[0] != io)
			return -ETIMEDOUT;
	}
	return io->result;
}

static void test_rbd(void **unused)
{
	static const char img[] = "cm-rbd";
	const char *kv[] = { "conf", conf, "pool", pool, "rbdname", img, "create_image", "1",
			     "remove_image", "1", NULL };
	struct eh_params p = { .engine = "rbd", .path = "unused", .size = 8 * EH_MB,
			       .bs = 64 * KB, .depth = DEPTH, .random = 1, .kv = kv };
	uint8_t *buf = malloc(8 * EH_MB);
	char cmd[512];
	struct eh h;

	(void)unused;
	assert_non_null(buf);
	run("rbd rm %s/%s >/dev/null 2>&1", pool, img);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_true(image_exists(img));

	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, 8 * EH_MB, 11), 0);
	assert_int_equal(h.max_inflight, DEPTH);
	assert_int_equal(eng_fsync(h.e, h.state, &h.file, 0), 0);
	/* In the cluster, not only in librbd: */
	snprintf(cmd, sizeof(cmd), "rbd export %s/%s - 2>/dev/null", pool, img);
	assert_int_equal(tool(cmd, buf, 8 * EH_MB), 8 * EH_MB);
	assert_int_equal(mismatches(buf, 8 * EH_MB, 0, 11), 0);

	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, 8 * EH_MB, 11), 0);
	assert_true(eh_run(&h, IORIG_DDIR_READ, 0, 1 * EH_MB, 12) > 0); /* a wrong seed shows */
	/* depth I/Os, one commit, one reap(min = max = depth) brings all back. */
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 2 * EH_MB, 13), DEPTH);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_READ, 2 * EH_MB, 13), DEPTH);
	assert_int_equal(eng_reap(h.e, h.state, 0, DEPTH, 0, h.done), 0);
	assert_int_equal(one_io(&h, IORIG_DDIR_TRIM, 4 * EH_MB, 4 * EH_MB), 4 * EH_MB);
	assert_int_equal(eng_invalidate(h.e, h.state, &h.file), 0);
	/* A 4 MiB-aligned discard of a whole object reads back as zeros. */
	assert_int_equal(one_io(&h, IORIG_DDIR_READ, 4 * EH_MB, 64 * KB), 64 * KB);
	for (unsigned i = 0; i < 64 * KB; i++)
		assert_int_equal(((uint8_t *)h.ios[0].buf)[i], 0);

	eh_teardown(&h);
	assert_false(image_exists(img)); /* created here, so removed */
	free(buf);
}

static void test_rbd_get_size(void **unused)
{
	static const char img[] = "cm-size";
	const char *kv[] = { "conf", conf, "pool", pool, "rbdname", img, NULL };
	struct eh_params p = { .engine = "rbd", .path = "unused", .bs = 4 * KB, .depth = 4,
			       .read_only = 1, .kv = kv };
	uint64_t size = 0;
	struct eh h;

	(void)unused;
	run("rbd rm %s/%s >/dev/null 2>&1", pool, img);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eng_get_size(h.e, h.state, &h.file, &size), -ENOENT);
	assert_non_null(strstr(eh_errmsg(&h), "does not exist"));
	eh_teardown(&h);

	run("rbd create --size 12M --image-feature layering %s/%s", pool, img);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eng_get_size(h.e, h.state, &h.file, &size), 0);
	assert_int_equal(size, 12 * EH_MB);
	h.file.size = size;
	assert_int_equal(eh_open(&h), 0);
	/* Never written: an image reads as zeros, at depth 4. */
	assert_int_equal(one_io(&h, IORIG_DDIR_READ, 8 * EH_MB, 4 * KB), 4 * KB);
	assert_int_equal(((uint8_t *)h.ios[0].buf)[100], 0);
	eh_teardown(&h);
	assert_true(image_exists(img)); /* not created by the job: kept */
	run("rbd rm %s/%s >/dev/null 2>&1", pool, img);
}

static void test_rados(void **unused)
{
	const char *kv[] = { "conf", conf, "pool", pool, "object_prefix", "cm-rados",
			     "object_size", "1m", "touch_objects", "0", "remove_objects", "1",
			     NULL };
	struct eh_params p = { .engine = "rados", .path = "unused", .size = 8 * EH_MB,
			       .bs = 64 * KB, .depth = DEPTH, .random = 1, .kv = kv };
	uint8_t *buf = malloc(EH_MB);
	char cmd[512];
	struct eh h;

	(void)unused;
	assert_non_null(buf);
	assert_int_equal(eh_setup(&h, &p), 0);
	assert_int_equal(eh_open(&h), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, 8 * EH_MB, 21), 0);
	assert_int_equal(h.max_inflight, DEPTH);
	assert_int_equal(h.reaped, 128);
	/* Object 3 holds bytes [3M, 4M) of the job's file. */
	snprintf(cmd, sizeof(cmd), "rados -p %s get cm-rados.0000000000000003 - 2>/dev/null",
		 pool);
	assert_int_equal(tool(cmd, buf, EH_MB), EH_MB);
	assert_int_equal(mismatches(buf, EH_MB, 3 * EH_MB, 21), 0);

	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, 8 * EH_MB, 21), 0);
	assert_true(eh_run(&h, IORIG_DDIR_READ, 0, 1 * EH_MB, 22) > 0);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 6 * EH_MB, 23), DEPTH);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_READ, 6 * EH_MB, 23), DEPTH);
	assert_int_equal(eng_reap(h.e, h.state, 0, DEPTH, 0, h.done), 0);

	/* A partial trim zeroes its range; a whole-object trim removes it. */
	assert_int_equal(one_io(&h, IORIG_DDIR_TRIM, EH_MB + 64 * KB, 64 * KB), 64 * KB);
	assert_int_equal(one_io(&h, IORIG_DDIR_READ, EH_MB + 64 * KB, 64 * KB), 64 * KB);
	for (unsigned i = 0; i < 64 * KB; i++)
		assert_int_equal(((uint8_t *)h.ios[0].buf)[i], 0);
	assert_int_equal(one_io(&h, IORIG_DDIR_READ, EH_MB, 64 * KB), 64 * KB);
	assert_int_equal(mismatches(h.ios[0].buf, 64 * KB, EH_MB, 21), 0);
	assert_int_equal(one_io(&h, IORIG_DDIR_TRIM, 2 * EH_MB, EH_MB), EH_MB);
	snprintf(cmd, sizeof(cmd), "rados -p %s stat cm-rados.0000000000000002 2>/dev/null", pool);
	assert_int_equal(tool(cmd, buf, EH_MB), -1);
	/* Reading it now: ENOENT, and the message says what to do. */
	assert_int_equal(one_io(&h, IORIG_DDIR_READ, 2 * EH_MB, 64 * KB), -ENOENT);
	assert_non_null(strstr(eh_errmsg(&h), "touch_objects"));
	/* An I/O across two objects is refused, not split. */
	assert_int_equal(one_io(&h, IORIG_DDIR_WRITE, EH_MB - 4 * KB, 8 * KB), -EINVAL);

	eh_teardown(&h); /* remove_objects=1 */
	snprintf(cmd, sizeof(cmd), "rados -p %s ls 2>/dev/null | grep -c '^cm-rados\\.'", pool);
	memset(buf, 0, 16);
	tool(cmd, buf, 15);
	assert_string_equal((char *)buf, "0\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rbd),
		cmocka_unit_test(test_rbd_get_size),
		cmocka_unit_test(test_rados),
	};
	int rc = load_env();

	if (rc)
		return rc;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
