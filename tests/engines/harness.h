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

#include <stddef.h>
#include <stdint.h>

#include <iorig/engine.h>

#include "engine.h"
#include "host.h"

/* Directory for test files: ext4/xfs under /var/tmp has O_DIRECT, tmpfs not. */
#define EH_DIR "/var/tmp"

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

/* Create (or reuse) a file of size bytes: sparse, so reads see zeros. */
int eh_make_file(const char *path, uint64_t size);

/*
 * Load and init.  Returns eng_init's result (0 or -errno: tests check
 * refusals), or -EINVAL when loading/binding failed (printed).
 */
int eh_setup(struct eh *h, const struct eh_params *p);
int eh_open(struct eh *h);
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
 * seed is detected, and read it with pread to prove the data reached the
 * file.  For async engines also check that depth I/Os were in flight and
 * that every one came back through reap.  The file is removed.
 */
void eh_roundtrip(const struct eh_params *p);

/*
 * Attach a loop device over a sparse image of size bytes.  0 with dev and
 * img filled, or -1 with the reason in why (the caller skips).
 */
int eh_loop_attach(uint64_t size, char *dev, size_t devlen, char *img, size_t imglen,
		   char *why, size_t whylen);
void eh_loop_detach(const char *dev, const char *img);

/*
 * cmocka group teardown: detach a loop device and remove files a failed
 * test left behind (a failed assert skips the test's own cleanup).
 */
int eh_group_teardown(void **state);

#endif
