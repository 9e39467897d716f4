/*
 * The engine test harness (see harness.h): a one-file worker in miniature
 * that talks to engines only through the core's eng_* wrappers.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "options.h"

#define EH_ALIGN 4096
#define EH_TIMEOUT_NS (10ull * 1000000000ull)

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

uint8_t eh_pattern_byte(uint64_t seed, uint64_t off)
{
	return (uint8_t)(mix64((off >> 3) ^ (seed * 0x9e3779b97f4a7c15ull)) >> (8 * (off & 7)));
}

void eh_fill(uint8_t *buf, uint64_t len, uint64_t off, uint64_t seed)
{
	for (uint64_t i = 0; i < len; i++)
		buf[i] = eh_pattern_byte(seed, off + i);
}

/* What a failed test may leave behind, for eh_group_teardown. */
#define EH_MAX_LEFT 64
static char eh_left_files[EH_MAX_LEFT][256];
static struct eh_loop eh_left_loop;

static void eh_remember(const char *path)
{
	for (int i = 0; i < EH_MAX_LEFT; i++) {
		if (!strcmp(eh_left_files[i], path))
			return;
		if (!eh_left_files[i][0]) {
			snprintf(eh_left_files[i], sizeof(eh_left_files[i]), "%s", path);
			return;
		}
	}
}

int eh_group_teardown(void **state)
{
	(void)state;
	if (eh_left_loop.dev[0])
		eh_loop_detach(&eh_left_loop);
	for (int i = 0; i < EH_MAX_LEFT; i++)
		if (eh_left_files[i][0])
			unlink(eh_left_files[i]);
	return 0;
}

const char *eh_path(const char *engine, const char *what)
{
	static char path[256];

	snprintf(path, sizeof(path), EH_DIR "/iorig-%s-%d-%s", engine, (int)getpid(), what);
	return path;
}

int eh_make_file(const char *path, uint64_t size)
{
	int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	eh_remember(path);
	if (ftruncate(fd, (off_t)size) < 0) {
		int rc = -errno;

		close(fd);
		return rc;
	}
	close(fd);
	return 0;
}

static int eh_load(struct eh *h)
{
	char *dirs[] = { (char *)IORIG_BUILD_PLUGIN_DIR };
	struct engine_path path = { .dirs = dirs, .n = 1 };
	char err[512];
	int rc = engine_load(&path, h->p.engine, &h->e, err, sizeof(err));

	if (rc)
		fprintf(stderr, "harness: loading engine %s: %s\n", h->p.engine, err);
	return rc;
}

static int eh_bind_options(struct eh *h)
{
	char err[512];

	if (!h->e->options_size)
		return h->p.kv && h->p.kv[0] ? -ENOENT : 0;
	h->opts = calloc(1, h->e->options_size);
	if (!h->opts)
		return -ENOMEM;
	if (option_defaults(h->e->options, h->opts, err, sizeof(err))) {
		fprintf(stderr, "harness: %s defaults: %s\n", h->p.engine, err);
		return -EINVAL;
	}
	for (const char *const *kv = h->p.kv; kv && kv[0]; kv += 2) {
		int rc = option_bind(h->e->options, h->opts, kv[0], kv[1], err, sizeof(err));

		if (rc) {
			fprintf(stderr, "harness: %s option %s=%s: %s\n", h->p.engine, kv[0],
				kv[1], err);
			return rc;
		}
	}
	return 0;
}

static int eh_alloc_ios(struct eh *h)
{
	uint32_t n = h->p.depth;
	size_t priv = h->e->io_priv_size;

	h->ios = calloc(n, sizeof(*h->ios));
	h->io_ptrs = calloc(n, sizeof(*h->io_ptrs));
	h->done = calloc(n, sizeof(*h->done));
	h->expect = malloc(h->p.bs);
	if (!h->ios || !h->io_ptrs || !h->done || !h->expect)
		return -ENOMEM;
	if (posix_memalign(&h->bufs, EH_ALIGN, n * h->p.bs))
		return -ENOMEM;
	if (priv && !(h->privs = calloc(n, priv)))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		h->ios[i].buf = (uint8_t *)h->bufs + i * h->p.bs;
		h->ios[i].index = i;
		h->ios[i].file = &h->file;
		h->ios[i].priv = priv ? (uint8_t *)h->privs + i * priv : NULL;
		h->io_ptrs[i] = &h->ios[i];
	}
	return 0;
}

int eh_setup(struct eh *h, const struct eh_params *p)
{
	struct stat st;
	int rc;

	memset(h, 0, sizeof(*h));
	h->p = *p;
	h->file.fd = -1;
	if (eh_load(h) || eh_bind_options(h) || eh_alloc_ios(h))
		return -EINVAL;
	host_handle_init(&h->handle, "enginetest", 0);

	h->file.path = p->path;
	h->file.size = p->size;
	h->file.open_flags = (p->read_only ? O_RDONLY : O_RDWR) | (p->direct ? O_DIRECT : 0);
	h->file.index = 0;
	h->file.is_blockdev = !stat(p->path, &st) && S_ISBLK(st.st_mode);
	h->file_ptr = &h->file;

	h->info.struct_size = sizeof(h->info);
	h->info.flags = IORIG_JOB_READS | (p->read_only ? 0 : IORIG_JOB_WRITES) |
			(p->direct ? IORIG_JOB_DIRECT : 0) | (p->random ? IORIG_JOB_RANDOM : 0);
	h->info.host = host_api();
	h->info.handle = &h->handle;
	h->info.name = "enginetest";
	h->info.iodepth = p->depth;
	h->info.iodepth_batch_submit = p->depth;
	h->info.iodepth_batch_complete_min = 1;
	h->info.iodepth_batch_complete_max = p->depth;
	h->info.max_bs = p->bs;
	h->info.buf_align = EH_ALIGN;
	h->info.nr_files = 1;
	h->info.nr_ios = p->depth;
	h->info.files = &h->file_ptr;
	h->info.ios = h->io_ptrs;

	rc = eng_init(h->e, &h->info, h->opts, &h->state);
	h->inited = rc == 0;
	return rc;
}

int eh_open(struct eh *h)
{
	return eng_open_file(h->e, h->state, &h->file);
}

void eh_start(struct eh *h, const struct eh_params *p)
{
	int rc = eh_setup(h, p);

	if (rc)
		fprintf(stderr, "init: %s\n", eh_errmsg(h));
	assert_int_equal(rc, 0);
	rc = eh_open(h);
	if (rc)
		fprintf(stderr, "open: %s\n", eh_errmsg(h));
	assert_int_equal(rc, 0);
}

const char *eh_errmsg(const struct eh *h)
{
	return h->handle.errmsg;
}

void eh_teardown(struct eh *h)
{
	if (h->inited) {
		if (h->file.fd >= 0)
			eng_close_file(h->e, h->state, &h->file);
		eng_cleanup(h->e, h->state);
	}
	if (h->opts && h->e)
		option_free_strings(h->e->options, h->opts);
	free(h->opts);
	free(h->ios);
	free(h->io_ptrs);
	free(h->done);
	free(h->expect);
	free(h->bufs);
	free(h->privs);
	memset(h, 0, sizeof(*h));
}

/* A finished I/O: right length, and for reads the right bytes. */
static int64_t eh_check(struct eh *h, struct iorig_io *io, uint64_t seed)
{
	int64_t bad = 0;

	if (io->result != (int64_t)io->len) {
		fprintf(stderr, "harness: %s %s of %llu bytes at %llu returned %lld (%s)\n",
			h->p.engine, io->ddir == IORIG_DDIR_READ ? "read" : "write",
			(unsigned long long)io->len, (unsigned long long)io->offset,
			(long long)io->result,
			io->result < 0 ? strerror((int)-io->result) : "short");
		return io->result < 0 ? io->result : -EIO;
	}
	if (io->ddir != IORIG_DDIR_READ)
		return 0;
	eh_fill(h->expect, io->len, io->offset, seed);
	if (!memcmp(h->expect, io->buf, io->len))
		return 0;
	for (uint64_t i = 0; i < io->len; i++)
		bad += h->expect[i] != ((uint8_t *)io->buf)[i];
	return bad;
}

static void eh_prep(struct eh *h, struct iorig_io *io, uint32_t ddir, uint64_t off,
		    uint64_t len, uint64_t seed)
{
	io->ddir = ddir;
	io->offset = off;
	io->len = len;
	io->result = -12345; /* must be overwritten */
	if (ddir == IORIG_DDIR_WRITE)
		eh_fill(io->buf, len, off, seed);
	else
		memset(io->buf, 0xa5, len);
	(void)h;
}

int64_t eh_run(struct eh *h, uint32_t ddir, uint64_t off, uint64_t len, uint64_t seed)
{
	struct iorig_io **free_ios = calloc(h->p.depth, sizeof(*free_ios));
	uint64_t next = off, end = off + len;
	unsigned nfree = h->p.depth, inflight = 0;
	int64_t bad = 0, rc = 0;

	if (!free_ios)
		return -ENOMEM;
	for (unsigned i = 0; i < nfree; i++)
		free_ios[i] = &h->ios[i];
	while (rc >= 0 && (next < end || inflight)) {
		while (next < end && nfree) {
			struct iorig_io *io = free_ios[--nfree];
			uint64_t n = end - next < h->p.bs ? end - next : h->p.bs;
			int q;

			eh_prep(h, io, ddir, next, n, seed);
			q = eng_queue(h->e, h->state, io);
			if (q == IORIG_Q_BUSY) {
				free_ios[nfree++] = io;
				break;
			}
			if (q < 0) {
				fprintf(stderr, "harness: queue failed: %d %s\n", q, eh_errmsg(h));
				rc = q;
				break;
			}
			next += n;
			if (q == IORIG_Q_QUEUED) {
				inflight++;
				continue;
			}
			rc = eh_check(h, io, seed);
			bad += rc > 0 ? rc : 0;
			free_ios[nfree++] = io;
		}
		if (rc < 0)
			break;
		rc = eng_commit(h->e, h->state);
		if (rc < 0)
			break;
		if (inflight > h->max_inflight)
			h->max_inflight = inflight;
		if (!inflight)
			continue;
		rc = eng_reap(h->e, h->state, 1, h->p.depth, EH_TIMEOUT_NS, h->done);
		if (rc == 0)
			rc = -ETIMEDOUT;
		for (int i = 0; i < rc; i++) {
			int64_t c = eh_check(h, h->done[i], seed);

			if (c < 0)
				rc = c;
			bad += c > 0 ? c : 0;
			free_ios[nfree++] = h->done[i];
			inflight--;
			h->reaped++;
		}
	}
	free(free_ios);
	return rc < 0 ? rc : bad;
}

int eh_burst(struct eh *h, uint32_t ddir, uint64_t off, uint64_t seed)
{
	unsigned n = h->p.depth, got = 0;
	uint8_t *seen = calloc(n, 1);
	int rc = 0;

	if (!seen)
		return -ENOMEM;
	for (unsigned i = 0; i < n; i++) {
		struct iorig_io *io = &h->ios[i];
		int q;

		eh_prep(h, io, ddir, off + i * h->p.bs, h->p.bs, seed);
		q = eng_queue(h->e, h->state, io);
		if (q != IORIG_Q_QUEUED) {
			fprintf(stderr, "harness: burst: queue %u returned %d\n", i, q);
			free(seen);
			return q < 0 ? q : -EAGAIN;
		}
	}
	rc = eng_commit(h->e, h->state);
	if (rc < 0) {
		free(seen);
		return rc;
	}
	/* One call must bring all of them back: min = max = iodepth. */
	rc = eng_reap(h->e, h->state, n, n, EH_TIMEOUT_NS, h->done);
	if (rc >= 0)
		got = (unsigned)rc;
	for (unsigned i = 0; i < got; i++) {
		struct iorig_io *io = h->done[i];
		unsigned idx = (unsigned)(io - h->ios);

		if (idx >= n || seen[idx]++ || eh_check(h, io, seed) != 0) {
			rc = -EIO;
			break;
		}
	}
	free(seen);
	if (rc >= 0 && got != n) {
		fprintf(stderr, "harness: burst: reaped %u of %u\n", got, n);
		rc = -EIO;
	}
	return rc < 0 ? rc : (int)got;
}

int64_t eh_pread_check(const char *path, uint64_t off, uint64_t len, uint64_t seed)
{
	uint8_t *buf = malloc(len);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int64_t bad = 0;
	uint64_t done = 0;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return -ENOMEM;
	}
	/* The page cache is coherent with O_DIRECT writes and with mappings. */
	while (done < len) {
		ssize_t r = pread(fd, buf + done, len - done, (off_t)(off + done));

		if (r <= 0)
			break;
		done += (uint64_t)r;
	}
	close(fd);
	if (done != len) {
		free(buf);
		return -EIO;
	}
	for (uint64_t i = 0; i < len; i++)
		bad += buf[i] != eh_pattern_byte(seed, off + i);
	free(buf);
	return bad;
}

/* 0 with l filled, or -1 with the reason in why. */
static int eh_loop_attach(struct eh_loop *l, uint64_t size, char *why, size_t whylen)
{
	char cmd[512];
	FILE *p;
	int rc;

	l->dev[0] = '\0';
	if (geteuid() != 0) {
		snprintf(why, whylen, "loop devices need root (losetup)");
		return -1;
	}
	snprintf(l->img, sizeof(l->img), EH_DIR "/iorig-loop-%d.img", (int)getpid());
	if (eh_make_file(l->img, size)) {
		snprintf(why, whylen, "cannot create %s", l->img);
		return -1;
	}
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>&1", l->img);
	p = popen(cmd, "r");
	if (!p || !fgets(l->dev, (int)sizeof(l->dev), p)) {
		snprintf(why, whylen, "losetup could not run");
		if (p)
			pclose(p);
		unlink(l->img);
		l->dev[0] = '\0';
		return -1;
	}
	rc = pclose(p);
	l->dev[strcspn(l->dev, "\n")] = '\0';
	if (rc != 0 || strncmp(l->dev, "/dev/", 5)) {
		snprintf(why, whylen, "losetup -f --show failed: %s", l->dev);
		unlink(l->img);
		l->dev[0] = '\0';
		return -1;
	}
	eh_left_loop = *l;
	return 0;
}

void eh_loop_or_skip(struct eh_loop *l, uint64_t size)
{
	char why[512];

	if (eh_loop_attach(l, size, why, sizeof(why))) {
		print_message("skip: %s\n", why);
		skip();
	}
}

void eh_loop_detach(const struct eh_loop *l)
{
	char cmd[512];

	if (l->dev[0]) {
		snprintf(cmd, sizeof(cmd), "losetup -d %s", l->dev);
		if (system(cmd) != 0)
			fprintf(stderr, "harness: '%s' failed; detach it by hand\n", cmd);
		if (!strcmp(l->dev, eh_left_loop.dev))
			eh_left_loop.dev[0] = '\0';
	}
	if (l->img[0])
		unlink(l->img);
}

void eh_burst_check(const struct eh_params *p)
{
	uint64_t n = p->depth;
	struct eh h;

	assert_int_equal(eh_make_file(p->path, p->size), 0);
	eh_start(&h, p);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, 0, 3), n);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_READ, 0, 3), n);
	assert_int_equal(eh_burst(&h, IORIG_DDIR_WRITE, n * p->bs, 3), n);
	assert_int_equal(eh_pread_check(p->path, 0, 2 * n * p->bs, 3), 0);
	/* Nothing left: a reap that may return 0 returns 0. */
	assert_int_equal(eng_reap(h.e, h.state, 0, p->depth, 0, h.done), 0);
	eh_teardown(&h);
	unlink(p->path);
}

void eh_misaligned_check(const struct eh_params *p)
{
	struct eh h;

	assert_int_equal(eh_make_file(p->path, p->size), 0);
	eh_start(&h, p);
	/* A write: a misaligned read of a hole may just return zeros. */
	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 512 + 100, p->bs, 0), -EINVAL);
	if (!strstr(eh_errmsg(&h), "logical block size") || !strstr(eh_errmsg(&h), p->path))
		fail_msg("message '%s' lacks 'logical block size' or %s", eh_errmsg(&h), p->path);
	eh_teardown(&h);
	unlink(p->path);
}

void eh_test_burst(void **state)
{
	const char *engine = *state;
	struct eh_params p = { .engine = engine, .path = eh_path(engine, "burst"),
			       .size = 4 * EH_MB, .bs = 4096, .depth = 32, .direct = 1 };

	eh_burst_check(&p);
}

void eh_test_misaligned(void **state)
{
	const char *engine = *state;
	struct eh_params p = { .engine = engine, .path = eh_path(engine, "misal"),
			       .size = 1 * EH_MB, .bs = 4096, .depth = 4, .direct = 1 };

	eh_misaligned_check(&p);
}

/* The engine's get_size of path, on a file of its own (as the core asks). */
static uint64_t eh_engine_size(struct eh *h, const char *path)
{
	struct iorig_file f = { .path = path, .fd = -1 };
	uint64_t size = 0;

	assert_int_equal(eng_get_size(h->e, h->state, &f, &size), 0);
	return size;
}

uint64_t eh_get_size(const struct eh_params *p)
{
	uint64_t size;
	struct eh h;

	/* As the core does: before any open_file. */
	assert_int_equal(eh_setup(&h, p), 0);
	size = eh_engine_size(&h, p->path);
	eh_teardown(&h);
	return size;
}

void eh_roundtrip(const struct eh_params *p)
{
	struct stat st;
	int is_dev = !stat(p->path, &st) && S_ISBLK(st.st_mode);
	uint64_t nr = (p->size + p->bs - 1) / p->bs;
	struct eh h;

	if (!is_dev)
		assert_int_equal(eh_make_file(p->path, p->size), 0);
	eh_start(&h, p);

	assert_int_equal(eh_run(&h, IORIG_DDIR_WRITE, 0, p->size, 7), 0);
	assert_int_equal(eng_fsync(h.e, h.state, &h.file, 0), 0);
	assert_int_equal(eng_fsync(h.e, h.state, &h.file, 1), 0);
	assert_int_equal(eh_run(&h, IORIG_DDIR_READ, 0, p->size, 7), 0);
	/* The comparison can fail: the wrong seed must show mismatches. */
	assert_true(eh_run(&h, IORIG_DDIR_READ, 0, p->size, 8) > 0);
	assert_int_equal(eh_pread_check(p->path, 0, p->size, 7), 0);
	/* A file is exactly the size made; a device at least what the job uses. */
	if (is_dev)
		assert_true(eh_engine_size(&h, p->path) >= p->size);
	else
		assert_int_equal(eh_engine_size(&h, p->path), p->size);

	if (h.e->caps & IORIG_CAP_ASYNC) {
		if (nr >= p->depth)
			assert_int_equal(h.max_inflight, p->depth);
		/* Three passes (write, read, read), each I/O reaped exactly once. */
		assert_int_equal(h.reaped, 3 * nr);
	} else {
		assert_int_equal(h.reaped, 0);
	}
	assert_string_equal(eh_errmsg(&h), "");
	eh_teardown(&h);
	if (!is_dev)
		unlink(p->path);
}
