/*
 * A tiny stand-in for the worker, for engine tests: it loads an engine from
 * the build tree, binds its options, builds a one-file job and drives the
 * engine only through the core's wrappers (eng_init, eng_queue, eng_commit,
 * eng_reap...), keeping up to iodepth I/Os in flight.  Data is a pattern
 * that depends on the file offset and a seed, so every byte read back can
 * be checked, and a plain pread() of the file checks what a write really
 * stored there.
 */
#ifndef IORIG_TEST_ENGINE_HARNESS_H
#define IORIG_TEST_ENGINE_HARNESS_H

/* cmocka wants these first; every engine test uses cmocka. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <iorig/engine.h>

#include "engine.h"
#include "host.h"

/* Directory for test files: ext4/xfs under /var/tmp has O_DIRECT, tmpfs not. */
#define EH_DIR "/var/tmp"

#define EH_MB (1024u * 1024u)

struct eh_params {
	const char *engine;
	const char *path;
	uint64_t size;          /* bytes of the file the job may touch */
	uint64_t bs;
	uint32_t depth;
	int direct;
	int read_only;          /* open O_RDONLY, job only reads */
	int random;             /* IORIG_JOB_RANDOM */
	const char *const *kv;  /* engine options: key, value, ..., NULL */
};

struct eh {
	struct eh_params p;
	const struct engine *e;
	void *opts;
	struct iorig_job_handle handle;
	struct iorig_job_info info;
	struct iorig_file file;
	struct iorig_file *file_ptr;
	struct iorig_io *ios;
	struct iorig_io **io_ptrs;
	struct iorig_io **done;
	void *bufs;
	void *privs;
	uint8_t *expect;        /* scratch: the pattern a read should return */
	void *state;
	int inited;
	unsigned max_inflight;  /* most I/Os in flight at once in eh_run */
	uint64_t reaped;        /* I/Os that came back through reap */
};

/* Byte of the test pattern at file offset off for seed. */
uint8_t eh_pattern_byte(uint64_t seed, uint64_t off);
void eh_fill(uint8_t *buf, uint64_t len, uint64_t off, uint64_t seed);

/*
 * EH_DIR/iorig-ENGINE-PID-WHAT: a test file no other run or test uses.
 * The string lives in a static buffer, valid until the next call.
 */
const char *eh_path(const char *engine, const char *what);

/* Create (or reuse) a file of size bytes: sparse, so reads see zeros. */
int eh_make_file(const char *path, uint64_t size);

/*
 * Load and init.  Returns eng_init's result (0 or -errno: tests check
 * refusals), or -EINVAL when loading/binding failed (printed).
 */
int eh_setup(struct eh *h, const struct eh_params *p);
int eh_open(struct eh *h);
/* eh_setup and eh_open, asserting both succeed (printing the message). */
void eh_start(struct eh *h, const struct eh_params *p);
/* Error message the engine recorded through host->set_error, or "". */
const char *eh_errmsg(const struct eh *h);
void eh_teardown(struct eh *h);

/*
 * Do [off, off + len) in bs blocks with up to depth in flight.  Writes
 * store the pattern for seed; reads compare every byte against it.
 * Returns the number of bytes that differed (0: all good), or -errno when
 * the engine failed, an I/O failed or came back short.
 */
int64_t eh_run(struct eh *h, uint32_t ddir, uint64_t off, uint64_t len, uint64_t seed);
/* Queue iodepth I/Os at once, commit, and reap them all with one call. */
int eh_burst(struct eh *h, uint32_t ddir, uint64_t off, uint64_t seed);
/* Check path with pread (not the engine): mismatching bytes, or -errno. */
int64_t eh_pread_check(const char *path, uint64_t off, uint64_t len, uint64_t seed);

/*
 * The standard check, with cmocka asserts: create the file (unless it is a
 * device), write the whole region with up to depth in flight, fsync, read
 * it back through the engine and compare every byte, check that a wrong
 * seed is detected, read it with pread to prove the data reached the file,
 * and check the engine's get_size.  For async engines also check that
 * depth I/Os were in flight and that every one came back through reap.
 * The file is removed.
 */
void eh_roundtrip(const struct eh_params *p);

/*
 * Checks every async engine must pass, on a file of p->size bytes that
 * they create and remove.  burst: p->depth I/Os queued, one commit, one
 * reap(min = max = depth) brings back exactly those, for a write, a read
 * and a second write, and nothing is left to reap.  misaligned: with
 * direct=1 a write at an odd offset fails with -EINVAL and the message
 * names the file and the logical block size.
 */
void eh_burst_check(const struct eh_params *p);
void eh_misaligned_check(const struct eh_params *p);

/*
 * The same checks as cmocka tests with the usual sizes (depth 32 and 4,
 * bs 4096, direct=1), for cmocka_unit_test_prestate(eh_test_burst, "ENGINE").
 */
void eh_test_burst(void **state);
void eh_test_misaligned(void **state);

/* get_size of p->path through the engine (asserting it succeeds). */
uint64_t eh_get_size(const struct eh_params *p);

/* A loop device over a sparse image under EH_DIR. */
struct eh_loop {
	char dev[64];
	char img[256];
};

/* Attach one of size bytes, or skip the test (needs root and losetup). */
void eh_loop_or_skip(struct eh_loop *l, uint64_t size);
void eh_loop_detach(const struct eh_loop *l);

/*
 * cmocka group teardown: detach a loop device and remove files a failed
 * test left behind (a failed assert skips the test's own cleanup).
 */
int eh_group_teardown(void **state);

#endif
