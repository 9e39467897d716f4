/*
 * Loader tests: every refusal of a broken plugin (exact reason in one
 * line), the good plugins and their copied descriptors, the search path,
 * the `iorig engines` listing, the call wrappers' defaults, the host API,
 * and the null and psync engines driven through the wrappers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "engines_cmd.h"
#include "host.h"

#define BS 4096u
#define NBLK 16u

static char *dirs_good[] = { LT_GOOD_DIR };
static char *dirs_bad[] = { LT_BAD_DIR };
static char *dirs_good_dup[] = { LT_GOOD_DIR, LT_DUP_DIR };
static char *dirs_build[] = { IORIG_BUILD_PLUGIN_DIR };
static const struct engine_path path_good = { dirs_good, 1 };
static const struct engine_path path_bad = { dirs_bad, 1 };
static const struct engine_path path_good_dup = { dirs_good_dup, 2 };
static const struct engine_path path_build = { dirs_build, 1 };

static void assert_contains(const char *s, const char *needle)
{
	if (!strstr(s, needle))
		fail_msg("expected \"%s\" in: %s", needle, s);
}

/* ---- refusals ----------------------------------------------------------- */

struct refusal {
	const char *file;
	int rc;
	const char *says[3];
};

static const struct refusal refusals[] = {
	{ "lt_no_entry.so", -ENOEXEC, { "does not export iorig_engine_entry()",
					"IORIG_ENGINE_DEFINE" } },
	{ "lt_entry_null.so", -ENOEXEC, { "returned NULL", "rebuild" } },
	{ "lt_major2.so", -EPROTO, { "built for engine ABI 2.0", "speaks 1.0", "rebuild" } },
	{ "lt_newer_minor.so", -EPROTO, { "needs engine ABI 1.1", "provides 1.0",
					  "upgrade iorig" } },
	{ "lt_small.so", -EINVAL, { "smaller than the ABI 1.0 descriptor",
				    "IORIG_ENGINE_HEADER" } },
	{ "lt_no_queue.so", -EINVAL, { "(lt_no_queue)", "queue op is NULL" } },
	{ "lt_async_no_reap.so", -EINVAL, { "IORIG_CAP_ASYNC but has no reap op",
					    "implement reap" } },
	{ "lt_unknown_cap.so", -EINVAL, { "capability bits 0x40", "1.0 does not define" } },
	{ "lt_fsync_no_op.so", -EINVAL, { "IORIG_CAP_FSYNC but has no fsync op" } },
	{ "lt_opt_no_help.so", -EINVAL, { "option 'nohelp' has no help text", "set .help" } },
	{ "lt_opt_bad_type.so", -EINVAL, { "option 'badtype' has type 99" } },
	{ "lt_opt_bad_default.so", -EINVAL, { "an option default is invalid", "baddef",
					      "fix .def" } },
	{ "lt_empty_name.so", -EINVAL, { "engine name is ''", "set .name" } },
	{ "lt_missing_lib.so", -ENOEXEC, { "needs the library libiorigmissing.so",
					   "LD_LIBRARY_PATH" } },
};

static void test_refusals(void **ctx)
{
	(void)ctx;
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
		const struct refusal *r = &refusals[i];
		char file[512], err[1024] = "";
		struct engine *e = (struct engine *)1;
		int rc;

		snprintf(file, sizeof(file), "%s/%s", LT_BAD_DIR, r->file);
		rc = engine_load_file(file, &e, err, sizeof(err));
		print_message("%s -> %d: %s\n", r->file, rc, err);
		if (rc != r->rc)
			fail_msg("%s: rc %d, expected %d (%s)", r->file, rc, r->rc, err);
		assert_null(e);
		assert_contains(err, file); /* names the file */
		assert_null(strchr(err, '\n')); /* one line */
		for (int k = 0; k < 3 && r->says[k]; k++)
			assert_contains(err, r->says[k]);
		if (!strcmp(r->file, "lt_small.so")) {
			size_t v1 = offsetof(struct iorig_engine, get_size) + sizeof(void *);
			char want[128];

			snprintf(want, sizeof(want), "struct_size is %zu, smaller than the "
				 "ABI 1.0 descriptor (%zu bytes)", v1 - sizeof(void *), v1);
			assert_contains(err, want);
		}
	}
}

static void test_missing_file(void **ctx)
{
	char err[1024];
	struct engine *e;

	(void)ctx;
	assert_int_equal(engine_load_file(LT_BAD_DIR "/nope.so", &e, err, sizeof(err)),
			 -ENOENT);
	assert_contains(err, LT_BAD_DIR "/nope.so");
	assert_contains(err, "No such file");
}

/* ---- good plugins ------------------------------------------------------- */

static void test_good_plugin(void **ctx)
{
	char err[1024] = "";
	struct engine *e;

	(void)ctx;
	assert_int_equal(engine_load_file(LT_GOOD_DIR "/lt_good.so", &e, err, sizeof(err)), 0);
	assert_string_equal(e->name, "lt_good");
	assert_string_equal(e->version, "9.9-test");
	assert_string_equal(e->description, "loader test plugin");
	assert_string_equal(e->path, LT_GOOD_DIR "/lt_good.so");
	assert_int_equal(e->caps, IORIG_CAP_ASYNC | IORIG_CAP_DIRECT);
	assert_int_equal(e->abi_major, 1);
	assert_int_equal(e->abi_minor, 0);
	assert_int_equal(e->n_options, 6);
	assert_string_equal(e->options[5].name, "mode");
	assert_int_equal(e->options_size, 48);
	assert_int_equal(e->io_priv_size, 16);
	assert_non_null(e->ops.queue);
	assert_non_null(e->ops.reap);
	assert_null(e->ops.init);
	/* The core's copy points at core memory, not at the plugin's strings. */
	assert_ptr_equal(e->ops.name, e->name);
	assert_int_equal(e->ops.struct_size, sizeof(struct iorig_engine));
	engine_free(e);
}

/* An ABI 1.0 plugin with only the mandatory op: wrappers supply the rest. */
static void test_old_minor_and_defaults(void **ctx)
{
	struct iorig_file f = { .path = "x", .fd = -1 };
	struct iorig_io io = { .len = 512, .file = &f };
	char err[1024] = "";
	struct engine *e;
	uint64_t size = 7;
	void *state = (void *)1;

	(void)ctx;
	assert_int_equal(engine_load_file(LT_GOOD_DIR "/lt_old_minor.so", &e, err,
					  sizeof(err)), 0);
	assert_string_equal(e->name, "lt_old_minor");
	assert_int_equal(e->n_options, 0);
	assert_null(e->options);
	assert_int_equal(eng_init(e, NULL, NULL, &state), 0);
	assert_null(state);
	assert_int_equal(eng_open_file(e, state, &f), 0);
	assert_int_equal(eng_fsync(e, state, &f, 0), 0);
	assert_int_equal(eng_invalidate(e, state, &f), 0);
	assert_int_equal(eng_get_size(e, state, &f, &size), -ENOTSUP);
	assert_int_equal(size, 7);
	assert_int_equal(eng_commit(e, state), 0);
	assert_int_equal(eng_queue(e, state, &io), IORIG_Q_COMPLETED);
	assert_int_equal(io.result, 512);
	assert_int_equal(eng_close_file(e, state, &f), 0);
	eng_cleanup(e, state);
	engine_free(e);

	/* lt_good's invalidate returns 1, breaking 0/-errno: the job must fail. */
	assert_int_equal(engine_load_file(LT_GOOD_DIR "/lt_good.so", &e, err, sizeof(err)), 0);
	assert_int_equal(eng_invalidate(e, NULL, &f), -EIO);
	engine_free(e);
}

/* ---- search path and cache ---------------------------------------------- */

static void test_path_init(void **ctx)
{
	char *cli[] = { "/c1/", "/c2", "/c1" };
	struct engine_path p;
	const char *want[] = { "/c1", "/c2", "/e1", "/e2", IORIG_INSTALL_PLUGIN_DIR,
			       IORIG_BUILD_PLUGIN_DIR };

	(void)ctx;
	setenv("IORIG_PLUGIN_PATH", "/e1::/c2:/e2", 1);
	assert_int_equal(engine_path_init(&p, cli, 3), 0);
	unsetenv("IORIG_PLUGIN_PATH");
	assert_int_equal(p.n, 6);
	for (size_t i = 0; i < 6; i++)
		assert_string_equal(p.dirs[i], want[i]);
	engine_path_free(&p);
	assert_int_equal(p.n, 0);
}

static void test_load_by_name_and_cache(void **ctx)
{
	const struct engine *a, *b, *c;
	char err[1024] = "";

	(void)ctx;
	assert_int_equal(engine_load(&path_good, "lt_good", &a, err, sizeof(err)), 0);
	assert_int_equal(engine_load(&path_good, "lt_good", &b, err, sizeof(err)), 0);
	assert_ptr_equal(a, b);
	assert_int_equal(engine_load(&path_bad, LT_GOOD_DIR "/lt_good.so", &c, err,
				     sizeof(err)), 0);
	assert_ptr_equal(a, c);

	assert_int_equal(engine_load(&path_good, "nosuch", &a, err, sizeof(err)), -ENOENT);
	assert_contains(err, "engine 'nosuch' not found");
	assert_contains(err, LT_GOOD_DIR);
	assert_contains(err, "--plugin-dir");

	/* The first match wins, even when it is broken. */
	assert_int_equal(engine_load(&path_bad, "lt_major2", &a, err, sizeof(err)), -EPROTO);
	assert_contains(err, "lt_major2.so");

	assert_int_equal(engine_load(&path_bad, "lt_misnamed", &a, err, sizeof(err)), -EINVAL);
	assert_contains(err, "declares the name 'lt_other', not 'lt_misnamed'");
	engine_cache_free();
}

/* ---- iorig engines ------------------------------------------------------ */

static int list_to_string(const struct engine_path *p, char **out)
{
	size_t len;
	FILE *f = open_memstream(out, &len);
	int rc;

	assert_non_null(f);
	rc = engines_cmd_list(f, p);
	fclose(f);
	print_message("%s", *out);
	return rc;
}

static void test_engines_list(void **ctx)
{
	char *s, *line, *dup;

	(void)ctx;
	assert_int_equal(list_to_string(&path_good_dup, &s), 0);
	assert_contains(s, "NAME");
	line = strstr(s, "\nlt_good ");
	assert_non_null(line);
	assert_contains(line, "9.9-test  1.0    async,direct");
	assert_contains(s, "lt_old_minor");
	dup = strstr(s, LT_DUP_DIR "/lt_good.so  (shadowed by " LT_GOOD_DIR "/lt_good.so)");
	assert_non_null(dup);
	assert_null(strstr(s, "cannot load"));
	free(s);

	assert_int_equal(list_to_string(&path_bad, &s), -ENOEXEC);
	assert_contains(s, "\ncannot load:\n");
	assert_contains(s, "\n  engine " LT_BAD_DIR "/lt_no_queue.so (lt_no_queue): queue op");
	assert_contains(s, "queue op is NULL");
	assert_contains(s, "needs the library libiorigmissing.so");
	assert_contains(s, LT_BAD_DIR "/lt_misnamed.so  (file name is not lt_other.so");
	free(s);

	{
		char *d[] = { LT_BIN_DIR "/no-such-dir" };
		struct engine_path p = { d, 1 };

		assert_int_equal(list_to_string(&p, &s), -ENOENT);
		assert_contains(s, "no engines found");
		free(s);
	}
}

static void test_caps_text(void **ctx)
{
	char b[64];

	(void)ctx;
	engine_caps_text(0, b, sizeof(b));
	assert_string_equal(b, "-");
	engine_caps_text(IORIG_CAP_MASK_1_0, b, sizeof(b));
	assert_string_equal(b, "async,diskless,direct,fsync,trim,blockdev");
}

/* ---- host API ----------------------------------------------------------- */

static void test_host(void **ctx)
{
	const struct iorig_host *h = host_api();
	struct iorig_job_handle jh;
	uint64_t t0, t1;
	void *p;

	(void)ctx;
	assert_int_equal(h->abi_major, IORIG_ABI_MAJOR);
	assert_int_equal(h->struct_size, sizeof(*h));
	host_handle_init(&jh, "job1", 3);
	h->set_error(&jh, ENOSPC, "first %d", 1);
	h->set_error(&jh, -EIO, "second");
	assert_int_equal(jh.error, -ENOSPC);
	assert_string_equal(jh.errmsg, "first 1");
	host_handle_init(&jh, "job1", 3);
	h->set_error(&jh, 0, "zero");
	assert_int_equal(jh.error, -EIO);

	for (size_t align = 1; align <= 8192; align = align * 2 + 1) {
		p = h->alloc_aligned(align, 100);
		assert_non_null(p);
		assert_int_equal((uintptr_t)p % sizeof(void *), 0);
		if (!(align & (align - 1)))
			assert_int_equal((uintptr_t)p % align, 0);
		h->free_aligned(p);
	}
	p = h->alloc_aligned(4096, 4096);
	assert_int_equal((uintptr_t)p % 4096, 0);
	h->free_aligned(p);

	t0 = h->now_ns();
	usleep(2000);
	t1 = h->now_ns();
	assert_true(t1 - t0 >= 2000000);
	assert_true(t1 - t0 < 2000000000);
}

/* ---- a tiny job rig for driving engines --------------------------------- */

struct rig {
	const struct engine *e;
	struct iorig_job_handle h;
	struct iorig_job_info ji;
	struct iorig_file f;
	struct iorig_file *files[1];
	struct iorig_io io[8];
	struct iorig_io *ios[8];
	void *state;
};

static void rig_init(struct rig *r, const char *engine, unsigned depth,
		     const char *path, int flags)
{
	char err[1024] = "";

	memset(r, 0, sizeof(*r));
	assert_true(depth <= 8);
	if (engine_load(&path_build, engine, &r->e, err, sizeof(err)))
		fail_msg("%s", err);
	host_handle_init(&r->h, engine, 0);
	r->f.path = path;
	r->f.fd = -1;
	r->f.open_flags = flags;
	r->files[0] = &r->f;
	for (unsigned i = 0; i < depth; i++) {
		r->io[i].index = i;
		r->io[i].file = &r->f;
		r->ios[i] = &r->io[i];
	}
	r->ji.struct_size = sizeof(r->ji);
	r->ji.host = host_api();
	r->ji.handle = &r->h;
	r->ji.name = engine;
	r->ji.iodepth = r->ji.nr_ios = depth;
	r->ji.max_bs = BS;
	r->ji.buf_align = BS;
	r->ji.nr_files = 1;
	r->ji.files = r->files;
	r->ji.ios = r->ios;
	assert_int_equal(eng_init(r->e, &r->ji, NULL, &r->state), 0);
}

static void test_builtin_engines(void **ctx)
{
	const struct engine *e;
	char err[1024] = "";

	(void)ctx;
	if (engine_load(&path_build, "null", &e, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(e->caps, IORIG_CAP_DISKLESS | IORIG_CAP_ASYNC | IORIG_CAP_DIRECT |
					  IORIG_CAP_FSYNC | IORIG_CAP_TRIM);
	assert_string_equal(e->path, IORIG_BUILD_PLUGIN_DIR "/null.so");
	if (engine_load(&path_build, "psync", &e, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(e->caps & IORIG_CAP_DIRECT);
	assert_true(e->caps & IORIG_CAP_BLOCKDEV);
	assert_false(e->caps & IORIG_CAP_ASYNC);
	assert_non_null(e->ops.get_size);
}

static void test_null_engine(void **ctx)
{
	struct iorig_io *done[8];
	struct rig r;

	(void)ctx;
	rig_init(&r, "null", 1, "null-file", 0);
	r.io[0].len = 777;
	assert_int_equal(eng_queue(r.e, r.state, &r.io[0]), IORIG_Q_COMPLETED);
	assert_int_equal(r.io[0].result, 777);
	eng_cleanup(r.e, r.state);

	rig_init(&r, "null", 4, "null-file", 0);
	for (unsigned round = 0; round < 3; round++) {
		/* Offset the ring each round so it wraps. */
		for (unsigned i = 0; i < 4; i++) {
			r.io[i].len = 100 * (i + 1) + round;
			r.io[i].result = -1;
			assert_int_equal(eng_queue(r.e, r.state, &r.io[i]), IORIG_Q_QUEUED);
		}
		assert_int_equal(eng_queue(r.e, r.state, &r.io[4]), IORIG_Q_BUSY);
		assert_int_equal(eng_commit(r.e, r.state), 0);
		assert_int_equal(eng_reap(r.e, r.state, 1, 3, UINT64_MAX, done), 3);
		for (unsigned i = 0; i < 3; i++) {
			assert_ptr_equal(done[i], &r.io[i]);
			assert_int_equal(done[i]->result, 100 * (i + 1) + round);
		}
		assert_int_equal(eng_reap(r.e, r.state, 0, 8, 0, done), 1);
		assert_ptr_equal(done[0], &r.io[3]);
		assert_int_equal(eng_reap(r.e, r.state, 0, 8, 0, done), 0);
		/* Leave one queued so the next round starts mid-ring. */
		if (round == 0) {
			assert_int_equal(eng_queue(r.e, r.state, &r.io[5]), IORIG_Q_QUEUED);
			assert_int_equal(eng_reap(r.e, r.state, 1, 1, 0, done), 1);
		}
	}
	eng_cleanup(r.e, r.state);
}

/* ---- psync -------------------------------------------------------------- */

static uint8_t pattern(unsigned blk, unsigned j)
{
	return (uint8_t)((blk * 131u + j * 7u) ^ 0x5a);
}

static void make_file(const char *path, off_t size)
{
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);

	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, size), 0);
	close(fd);
}

static void do_io(struct rig *r, uint32_t ddir, void *buf, uint64_t off, uint64_t len,
		  int64_t want)
{
	struct iorig_io *io = &r->io[0];

	io->ddir = ddir;
	io->buf = buf;
	io->offset = off;
	io->len = len;
	io->result = 12345;
	assert_int_equal(eng_queue(r->e, r->state, io), IORIG_Q_COMPLETED);
	if (io->result != want)
		fail_msg("ddir %u off %llu len %llu: result %lld, expected %lld (%s)",
			 ddir, (unsigned long long)off, (unsigned long long)len,
			 (long long)io->result, (long long)want, r->h.errmsg);
}

/* Write NBLK patterned blocks, read them back in reverse, compare. */
static void psync_roundtrip(struct rig *r, uint64_t size)
{
	const struct iorig_host *h = host_api();
	uint8_t *w = h->alloc_aligned(BS, BS), *rd = h->alloc_aligned(BS, BS);
	uint64_t got = 0;

	for (unsigned b = 0; b < NBLK; b++) {
		for (unsigned j = 0; j < BS; j++)
			w[j] = pattern(b, j);
		do_io(r, IORIG_DDIR_WRITE, w, (uint64_t)b * BS, BS, BS);
	}
	assert_int_equal(eng_fsync(r->e, r->state, &r->f, 0), 0);
	assert_int_equal(eng_fsync(r->e, r->state, &r->f, 1), 0);
	assert_int_equal(eng_invalidate(r->e, r->state, &r->f), 0);
	assert_int_equal(eng_get_size(r->e, r->state, &r->f, &got), 0);
	assert_int_equal(got, size);
	for (unsigned b = NBLK; b-- > 0;) {
		memset(rd, 0xee, BS);
		do_io(r, IORIG_DDIR_READ, rd, (uint64_t)b * BS, BS, BS);
		for (unsigned j = 0; j < BS; j++)
			if (rd[j] != pattern(b, j))
				fail_msg("block %u byte %u: read %#x, wrote %#x", b, j, rd[j],
					 pattern(b, j));
	}
	/* Trim block 3: it must read back as zeros, its neighbours intact. */
	do_io(r, IORIG_DDIR_TRIM, NULL, 3 * BS, BS, BS);
	do_io(r, IORIG_DDIR_READ, rd, 3 * BS, BS, BS);
	for (unsigned j = 0; j < BS; j++)
		assert_int_equal(rd[j], 0);
	do_io(r, IORIG_DDIR_READ, rd, 4 * BS, BS, BS);
	assert_int_equal(rd[100], pattern(4, 100));
	h->free_aligned(w);
	h->free_aligned(rd);
}

static void test_psync_buffered(void **ctx)
{
	const char *path = LT_BIN_DIR "/psync-buffered.dat";
	uint8_t buf[BS], raw[64];
	struct rig r;
	int fd;

	(void)ctx;
	make_file(path, 0);
	rig_init(&r, "psync", 1, path, O_RDWR);
	assert_int_equal(eng_open_file(r.e, r.state, &r.f), 0);
	assert_true(r.f.fd >= 0);
	psync_roundtrip(&r, NBLK * BS);

	/* A read crossing EOF returns what is there; at EOF it returns 0. */
	do_io(&r, IORIG_DDIR_READ, buf, NBLK * BS - 1000, BS, 1000);
	assert_int_equal(buf[999], pattern(NBLK - 1, BS - 1));
	do_io(&r, IORIG_DDIR_READ, buf, NBLK * BS, BS, 0);

	assert_int_equal(eng_close_file(r.e, r.state, &r.f), 0);
	assert_int_equal(r.f.fd, -1);
	assert_int_equal(r.h.error, 0);

	/* The bytes are really in the file, not just in the engine. */
	fd = open(path, O_RDONLY);
	assert_int_equal(pread(fd, raw, sizeof(raw), 7 * BS + 64), (ssize_t)sizeof(raw));
	close(fd);
	for (unsigned j = 0; j < sizeof(raw); j++)
		assert_int_equal(raw[j], pattern(7, 64 + j));

	/* A read on a write-only descriptor fails with the reason recorded. */
	r.f.open_flags = O_WRONLY;
	assert_int_equal(eng_open_file(r.e, r.state, &r.f), 0);
	do_io(&r, IORIG_DDIR_READ, buf, 0, BS, -EBADF);
	assert_int_equal(r.h.error, -EBADF);
	assert_contains(r.h.errmsg, "read of 4096 bytes at offset 0 of " LT_BIN_DIR);
	eng_close_file(r.e, r.state, &r.f);
	eng_cleanup(r.e, r.state);

	/* get_size before open, on a file that is not there: -ENOENT, no error. */
	rig_init(&r, "psync", 1, LT_BIN_DIR "/no-such-file", O_RDWR);
	{
		uint64_t sz;

		assert_int_equal(eng_get_size(r.e, r.state, &r.f, &sz), -ENOENT);
		assert_int_equal(r.h.error, 0);
		assert_int_equal(eng_open_file(r.e, r.state, &r.f), -ENOENT);
		assert_contains(r.h.errmsg, "cannot open " LT_BIN_DIR "/no-such-file");
	}
	eng_cleanup(r.e, r.state);
	unlink(path);
}

static void test_psync_direct(void **ctx)
{
	static const char *const dirs[] = { LT_BIN_DIR, "/var/tmp" };
	char path[512];
	struct rig r;
	uint8_t *buf;

	(void)ctx;
	for (size_t i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/iorig-psync-direct-%d.dat", dirs[i],
			 (int)getpid());
		make_file(path, NBLK * BS);
		rig_init(&r, "psync", 1, path, O_RDWR | O_DIRECT);
		if (!eng_open_file(r.e, r.state, &r.f))
			break;
		print_message("O_DIRECT not supported in %s: %s\n", dirs[i], r.h.errmsg);
		eng_cleanup(r.e, r.state);
		unlink(path);
		if (i == 1) {
			print_message("skip: no directory with O_DIRECT support\n");
			skip();
		}
	}
	psync_roundtrip(&r, NBLK * BS);

	/* A misaligned buffer is refused by the kernel; the message says why. */
	buf = host_api()->alloc_aligned(BS, 2 * BS);
	do_io(&r, IORIG_DDIR_READ, buf + 1, 0, BS, -EINVAL);
	assert_contains(r.h.errmsg, "direct=1 needs bs, offset and buffers aligned");
	host_api()->free_aligned(buf);
	eng_close_file(r.e, r.state, &r.f);
	eng_cleanup(r.e, r.state);
	unlink(path);
}

/* Kernels before 6.6 refuse O_DIRECT on tmpfs: the message must say so. */
static void test_psync_direct_tmpfs_message(void **ctx)
{
	char path[128];
	struct rig r;
	int rc;

	(void)ctx;
	snprintf(path, sizeof(path), "/dev/shm/iorig-direct-%d", (int)getpid());
	if (access("/dev/shm", W_OK)) {
		print_message("skip: no writable /dev/shm\n");
		skip();
	}
	make_file(path, BS);
	rig_init(&r, "psync", 1, path, O_RDWR | O_DIRECT);
	rc = eng_open_file(r.e, r.state, &r.f);
	if (!rc) {
		eng_close_file(r.e, r.state, &r.f);
		eng_cleanup(r.e, r.state);
		unlink(path);
		print_message("skip: this kernel's tmpfs supports O_DIRECT\n");
		skip();
	}
	assert_int_equal(rc, -EINVAL);
	assert_contains(r.h.errmsg, path);
	assert_contains(r.h.errmsg, "may not support O_DIRECT");
	eng_cleanup(r.e, r.state);
	unlink(path);
}

/* A real block device: a loop device over a sparse file, when we may make one. */
static void test_psync_loop_device(void **ctx)
{
	const char *img = LT_BIN_DIR "/psync-loop.img";
	char cmd[512], dev[64] = "";
	struct rig r;
	FILE *p;

	(void)ctx;
	if (geteuid() != 0 || access("/dev/loop-control", F_OK)) {
		print_message("skip: loop devices need root and /dev/loop-control\n");
		skip();
	}
	make_file(img, 8 << 20);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", img);
	p = popen(cmd, "r");
	if (!p || !fgets(dev, sizeof(dev), p) || strncmp(dev, "/dev/loop", 9)) {
		if (p)
			pclose(p);
		unlink(img);
		print_message("skip: losetup could not attach %s\n", img);
		skip();
	}
	pclose(p);
	dev[strcspn(dev, "\n")] = '\0';
	print_message("using %s\n", dev);

	rig_init(&r, "psync", 1, dev, O_RDWR | O_DIRECT);
	r.f.is_blockdev = 1;
	{
		uint64_t sz = 0;

		assert_int_equal(eng_get_size(r.e, r.state, &r.f, &sz), 0);
		assert_int_equal(sz, 8 << 20);
	}
	if (eng_open_file(r.e, r.state, &r.f))
		fail_msg("open %s: %s", dev, r.h.errmsg);
	psync_roundtrip(&r, 8 << 20);
	eng_close_file(r.e, r.state, &r.f);
	eng_cleanup(r.e, r.state);

	snprintf(cmd, sizeof(cmd), "losetup -d %s", dev);
	assert_int_equal(system(cmd), 0);
	unlink(img);
}

static int teardown_cache(void **ctx)
{
	(void)ctx;
	engine_cache_free();
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_good_plugin),
		cmocka_unit_test(test_old_minor_and_defaults),
		cmocka_unit_test(test_path_init),
		cmocka_unit_test(test_load_by_name_and_cache),
		cmocka_unit_test(test_engines_list),
		cmocka_unit_test(test_caps_text),
		cmocka_unit_test(test_host),
		cmocka_unit_test(test_builtin_engines),
		cmocka_unit_test(test_null_engine),
		cmocka_unit_test(test_psync_buffered),
		cmocka_unit_test(test_psync_direct),
		cmocka_unit_test(test_psync_direct_tmpfs_message),
		cmocka_unit_test(test_psync_loop_device),
	};

	return cmocka_run_group_tests(tests, NULL, teardown_cache);
}
