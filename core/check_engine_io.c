/*
 * The conformance checker's workloads (see check_engine_io.h), run in a
 * child process: a one-file worker in miniature that drives the engine
 * only through the eng_* wrappers and checks every completion.
 *
 * Each 8-byte word of test data is (file offset ^ key(pass)), so a wrong
 * byte can be traced back to the offset and pass it came from.  Around
 * every io->buf lie guard bytes, and io->core_data holds a canary: an
 * engine that writes outside its buffer or into core fields is caught.
 * A session stops at its first failure.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_engine_io.h"
#include "host.h"

#define CK_NBLOCKS ((uint32_t)(CK_SIZE / CK_BS))
#define CK_GUARD 4096u         /* guard bytes each side of io->buf */
#define CK_REAP_NS (100ull * 1000000u)      /* one reap call */
#define CK_LOST_NS (5ull * 1000000000u)     /* no completion for this long: lost */
#define CK_UNSET (INT64_MIN + 12345)        /* io->result before the engine sets it */
#define CK_CANARY 0xc0dec0dec0dec0deull
#define CK_GUARD_BYTE 0x5a
#define CK_FILL_BYTE 0xa5
#define CK_GENS 4u                          /* data passes in a session */

/* What an I/O was queued with: the engine may change none of it. */
struct ck_shadow {
	uint64_t offset, len;
	uint32_t ddir;
	bool inflight;
};

struct ck {
	const struct engine *e;
	const void *opts;
	const char *path;
	bool diskless, async;
	int report_fd;
	const struct ck_session *s;
	struct iorig_job_handle handle;
	struct iorig_job_info info;
	struct iorig_file file;
	struct iorig_file *file_ptr;
	struct iorig_io *ios;
	struct iorig_io **io_ptrs, **done, **free_ios;
	struct ck_shadow *shadow;
	uint8_t *slab, *expect;
	void *privs;
	void *state;
	unsigned depth, inflight, nfree;
	char why[1024];
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- the data pattern ---------------------------------------------------- */

static uint64_t ck_key(unsigned gen)
{
	return 0x10a1000000000000ull | ((uint64_t)(gen + 1) << 40);
}

static uint8_t pat_byte(uint64_t off, unsigned gen)
{
	return (uint8_t)(((off & ~7ull) ^ ck_key(gen)) >> (8 * (off & 7)));
}

static void pat_fill(uint8_t *buf, uint64_t off, uint64_t len, unsigned gen)
{
	for (uint64_t i = 0; i < len; i++)
		buf[i] = pat_byte(off + i, gen);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t w = 0;

	for (int i = 7; i >= 0; i--)
		w = w << 8 | p[i];
	return w;
}

static bool all_bytes(const uint8_t *p, uint64_t len, uint8_t v)
{
	for (uint64_t i = 0; i < len; i++)
		if (p[i] != v)
			return false;
	return true;
}

/* buf should hold gen's data of [off, off + len): say how it does not. */
static void diagnose(struct ck *c, const char *what, const uint8_t *buf, uint64_t len,
		     uint64_t off, unsigned gen)
{
	uint64_t first = 0, bad = 0, w;

	for (uint64_t i = 0; i < len; i++)
		if (buf[i] != pat_byte(off + i, gen) && !bad++)
			first = i;
	if (all_bytes(buf, len, CK_FILL_BYTE)) {
		snprintf(c->why, sizeof(c->why), "%s: io->buf was not filled (it still holds "
			 "the checker's 0x%02x bytes)", what, CK_FILL_BYTE);
		return;
	}
	if (all_bytes(buf, len, 0)) {
		snprintf(c->why, sizeof(c->why), "%s: all zeros (never written there, or "
			 "read from a hole)", what);
		return;
	}
	for (int s = -8; s <= 8; s++) {
		bool match = s != 0;

		for (uint64_t j = 16; match && j < len - 16 && j < 528; j++)
			match = buf[j] == pat_byte(off + j - (uint64_t)(int64_t)s, gen);
		if (match) {
			snprintf(c->why, sizeof(c->why), "%s: the data is shifted by %+d byte(s) "
				 "(the engine used io->buf%+d instead of io->buf: unaligned buffer "
				 "use)", what, s, s);
			return;
		}
	}
	w = first & ~7ull;
	for (unsigned g = 0; w + 8 <= len && g < CK_GENS; g++) {
		uint64_t v = le64(buf + w) ^ ck_key(g), src;

		if (v % 8 || v >= CK_SIZE + 64 * CK_BS || v < w)
			continue;
		src = v - w;
		if (g == gen)
			snprintf(c->why, sizeof(c->why), "%s: holds the data of offset %llu, not "
				 "%llu (data at the wrong offset)", what, (unsigned long long)src,
				 (unsigned long long)off);
		else if (src == off)
			snprintf(c->why, sizeof(c->why), "%s: holds stale data of an earlier pass "
				 "(a write did not reach the file, or a read did not reach the data)",
				 what);
		else
			snprintf(c->why, sizeof(c->why), "%s: holds stale data of offset %llu "
				 "from an earlier pass (wrong offset)", what,
				 (unsigned long long)src);
		return;
	}
	snprintf(c->why, sizeof(c->why), "%s: %llu of %llu bytes differ, the first at +%llu "
		 "(expected 0x%02x, got 0x%02x)", what, (unsigned long long)bad,
		 (unsigned long long)len, (unsigned long long)first,
		 pat_byte(off + first, gen), buf[first]);
}

/* ---- reporting (child side) ---------------------------------------------- */

static void emit(struct ck *c, char kind, const char *step, const char *fmt, ...)
	IORIG_PRINTF(4, 5);

/* One write() per line, below PIPE_BUF: lines never interleave or tear. */
static void emit(struct ck *c, char kind, const char *step, const char *fmt, ...)
{
	char line[2048];
	size_t n;
	va_list ap;

	n = (size_t)snprintf(line, sizeof(line), "%c %s %s\t", kind, c->s->name, step);
	va_start(ap, fmt);
	if (n < sizeof(line))
		vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	for (char *p = line; *p; p++)
		if (*p == '\n')
			*p = ' ';
	n = strlen(line);
	if (n > sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	for (size_t off = 0; off < n;) {
		ssize_t w = write(c->report_fd, line + off, n - off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		off += (size_t)w;
	}
}

/* " (engine: <message>)" when the engine called host->set_error. */
static const char *engine_said(struct ck *c, char *buf, size_t len)
{
	if (!c->handle.error)
		return "";
	snprintf(buf, len, " (engine: %s)", c->handle.errmsg);
	return buf;
}

static int why(struct ck *c, const char *fmt, ...) IORIG_PRINTF(2, 3);

static int why(struct ck *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- one I/O -------------------------------------------------------------- */

static uint8_t *io_buf(struct ck *c, unsigned i)
{
	return c->slab + (size_t)i * (CK_GUARD + CK_BS + CK_GUARD) + CK_GUARD;
}

static void prep(struct ck *c, struct iorig_io *io, uint32_t ddir, uint64_t off, unsigned gen)
{
	struct ck_shadow *sh = &c->shadow[io->index];

	io->ddir = ddir;
	io->offset = off;
	io->len = CK_BS;
	io->result = CK_UNSET;
	for (int k = 0; k < 4; k++)
		io->core_data[k] = CK_CANARY ^ (uint64_t)k;
	if (ddir == IORIG_DDIR_WRITE)
		pat_fill(io->buf, off, CK_BS, gen);
	else
		memset(io->buf, CK_FILL_BYTE, CK_BS);
	sh->offset = off;
	sh->len = CK_BS;
	sh->ddir = ddir;
}

/* A finished I/O: untouched core fields and guards, full result, right data. */
static int finish(struct ck *c, struct iorig_io *io, unsigned gen)
{
	static const char *const dname[] = { "read", "write", "trim" };
	const struct ck_shadow *sh = &c->shadow[io->index];
	const char *d = dname[sh->ddir % 3];
	uint8_t *buf = io_buf(c, io->index);
	char what[128], said[600];

	snprintf(what, sizeof(what), "%s of %u bytes at offset %llu", d, CK_BS,
		 (unsigned long long)sh->offset);
	for (int k = 0; k < 4; k++)
		if (io->core_data[k] != (CK_CANARY ^ (uint64_t)k))
			return why(c, "%s: the engine changed io->core_data[%d], which belongs "
				   "to the core", what, k);
	if (io->offset != sh->offset || io->len != sh->len || io->ddir != sh->ddir ||
	    io->buf != buf || io->file != &c->file)
		return why(c, "%s: the engine changed io->offset, len, ddir, buf or file; it "
			   "may write only io->result and io->priv", what);
	if (io->result == CK_UNSET)
		return why(c, "%s: completed without io->result set", what);
	if (io->result < 0)
		return why(c, "%s failed: %s%s%s", what, strerror((int)-io->result),
			   c->s->direct && io->result == -EINVAL
				   ? " (with O_DIRECT, though offset, length and io->buf are "
				     "aligned to 4096: the engine must have moved the buffer or "
				     "the offset - unaligned buffer use)" : "",
			   engine_said(c, said, sizeof(said)));
	if (io->result != (int64_t)sh->len)
		return why(c, "%s: io->result is %lld, not the %llu bytes asked for", what,
			   (long long)io->result, (unsigned long long)sh->len);
	for (unsigned side = 0; side < 2; side++) {
		const uint8_t *g = side ? buf + CK_BS : buf - CK_GUARD;

		for (unsigned i = 0; i < CK_GUARD; i++)
			if (g[i] != CK_GUARD_BYTE)
				return why(c, "%s: the engine wrote %u byte(s) %s io->buf (unaligned "
					   "or shifted buffer use, or more than io->len)", what,
					   side ? i + 1 : CK_GUARD - i, side ? "past the end of" :
					   "before");
	}
	if (c->diskless || sh->ddir == IORIG_DDIR_TRIM)
		return 0;
	if (sh->ddir == IORIG_DDIR_WRITE) {
		pat_fill(c->expect, sh->offset, CK_BS, gen);
		if (memcmp(c->expect, buf, CK_BS))
			return why(c, "%s: the engine changed the data in io->buf; a write only "
				   "reads it", what);
		return 0;
	}
	pat_fill(c->expect, sh->offset, CK_BS, gen);
	if (memcmp(c->expect, buf, CK_BS)) {
		diagnose(c, what, buf, CK_BS, sh->offset, gen);
		return -1;
	}
	return 0;
}

/* ---- driving the engine --------------------------------------------------- */

/* An I/O pointer reap handed back must be one of ours and in flight. */
static struct iorig_io *valid_io(struct ck *c, struct iorig_io *io)
{
	uintptr_t p = (uintptr_t)io, base = (uintptr_t)c->ios;

	if (!io || p < base || p >= base + c->depth * sizeof(*io) ||
	    (p - base) % sizeof(*io) || !c->shadow[io - c->ios].inflight)
		return NULL;
	return io;
}

/* One reap call; -1 with why on a protocol violation or lost completions. */
static int reap_some(struct ck *c, unsigned gen, uint64_t *last_progress)
{
	unsigned max = c->inflight;
	char said[600];
	int n;

	memset(c->done, 0, c->depth * sizeof(*c->done));
	n = eng_reap(c->e, c->state, 1, max, CK_REAP_NS, c->done);
	if (n == -EINTR || n == -EAGAIN)
		return 0;
	if (n < 0)
		return why(c, "reap failed: %s%s", strerror(-n), engine_said(c, said, sizeof(said)));
	if ((unsigned)n > max)
		return why(c, "reap(max=%u) returned %d: more completions than max, or than "
			   "were in flight (wrong completion count)", max, n);
	if (!n) {
		/* An engine that returns at once without waiting: do not spin. */
		struct timespec ms = { 0, 1000000 };

		nanosleep(&ms, NULL);
		if (now_ns() - *last_progress > CK_LOST_NS)
			return why(c, "lost completions: %u queued I/O(s) never came back from "
				   "reap (no completion for %llu s)", c->inflight,
				   (unsigned long long)(CK_LOST_NS / 1000000000u));
		return 0;
	}
	*last_progress = now_ns();
	for (int i = 0; i < n; i++) {
		struct iorig_io *io = valid_io(c, c->done[i]);

		if (!io)
			return why(c, "reap returned %d completions but done[%d] is %s (wrong "
				   "completion count: an I/O reaped twice, never queued, or not "
				   "stored)", n, i, c->done[i] ? "not an I/O in flight" : "NULL");
		c->shadow[io->index].inflight = false;
		c->inflight--;
		if (finish(c, io, gen))
			return -1;
		c->free_ios[c->nfree++] = io;
	}
	return 0;
}

/*
 * Do the blocks of order[] (n of them) in that order with up to depth in
 * flight, checking each completion.  0, or -1 with why set.
 */
static int run_pass(struct ck *c, uint32_t ddir, const uint32_t *order, uint32_t n, unsigned gen)
{
	uint64_t last = now_ns();
	char said[600];
	uint32_t next = 0;
	int rc;

	while (next < n || c->inflight) {
		while (next < n && c->nfree) {
			struct iorig_io *io = c->free_ios[--c->nfree];
			int q;

			prep(c, io, ddir, (uint64_t)order[next] * CK_BS, gen);
			q = eng_queue(c->e, c->state, io);
			if (q == IORIG_Q_COMPLETED) {
				next++;
				if (finish(c, io, gen))
					return -1;
				c->free_ios[c->nfree++] = io;
			} else if (q == IORIG_Q_QUEUED) {
				if (!c->async)
					return why(c, "queue returned QUEUED, but the engine does not "
						   "declare IORIG_CAP_ASYNC: nobody will reap it");
				c->shadow[io->index].inflight = true;
				c->inflight++;
				next++;
			} else if (q == IORIG_Q_BUSY) {
				c->free_ios[c->nfree++] = io;
				if (!c->inflight)
					return why(c, "queue returned BUSY with no I/O in flight: "
						   "the job could never make progress");
				break;
			} else {
				return why(c, "queue returned %d (%s): %s%s", q, q < 0 ?
					   strerror(-q) : "not a queue status",
					   q < 0 ? "the engine failed" : "expected COMPLETED, "
					   "QUEUED, BUSY or -errno", engine_said(c, said, sizeof(said)));
			}
		}
		rc = eng_commit(c->e, c->state);
		if (rc < 0)
			return why(c, "commit failed: %s%s", strerror(-rc),
				   engine_said(c, said, sizeof(said)));
		if (c->inflight && reap_some(c, gen, &last))
			return -1;
	}
	return 0;
}

/* Queue up to depth, commit, then one reap(min = max = queued) takes all. */
static int burst(struct ck *c, const uint32_t *order, unsigned gen, unsigned *queued)
{
	uint64_t t0, last;
	unsigned k = 0;
	int n;

	while (c->nfree) {
		struct iorig_io *io = c->free_ios[--c->nfree];
		int q;

		prep(c, io, IORIG_DDIR_READ, (uint64_t)order[k] * CK_BS, gen);
		q = eng_queue(c->e, c->state, io);
		if (q == IORIG_Q_BUSY) {
			c->free_ios[c->nfree++] = io;
			break;
		}
		if (q != IORIG_Q_QUEUED && q != IORIG_Q_COMPLETED)
			return why(c, "queue returned %d", q);
		if (q == IORIG_Q_COMPLETED) {
			if (finish(c, io, gen))
				return -1;
			c->free_ios[c->nfree++] = io;
			break; /* completes inline: a burst cannot build up */
		}
		c->shadow[io->index].inflight = true;
		c->inflight++;
		k++;
	}
	*queued = k;
	if (!k)
		return 0;
	if ((n = eng_commit(c->e, c->state)) < 0)
		return why(c, "commit failed: %s", strerror(-n));
	memset(c->done, 0, c->depth * sizeof(*c->done));
	t0 = now_ns();
	n = eng_reap(c->e, c->state, k, k, CK_LOST_NS, c->done);
	if (n >= 0 && (unsigned)n < k && now_ns() - t0 < CK_LOST_NS * 9 / 10)
		return why(c, "reap(min=%u, max=%u, timeout=5 s) returned %d after %llu ms: "
			   "it must wait until min I/Os completed (wrong completion count)",
			   k, k, n, (unsigned long long)((now_ns() - t0) / 1000000));
	if (n >= 0 && (unsigned)n < k)
		return why(c, "lost completions: %u of %u queued I/Os did not come back within "
			   "5 s", k - (unsigned)n, k);
	if (n > (int)k)
		return why(c, "reap(min=%u, max=%u) returned %d (wrong completion count)", k, k, n);
	if (n < 0)
		return why(c, "reap failed: %s", strerror(-n));
	for (int i = 0; i < n; i++) {
		struct iorig_io *io = valid_io(c, c->done[i]);

		if (!io)
			return why(c, "reap returned %d completions but done[%d] is not an I/O in "
				   "flight (wrong completion count)", n, i);
		c->shadow[io->index].inflight = false;
		c->inflight--;
		if (finish(c, io, gen))
			return -1;
		c->free_ios[c->nfree++] = io;
	}
	last = now_ns();
	while (c->inflight) /* only if the checks above let some through */
		if (reap_some(c, gen, &last))
			return -1;
	return 0;
}

/* ---- the file, seen without the engine ------------------------------------ */

static int file_fill(struct ck *c, unsigned gen)
{
	int fd = open(c->path, O_WRONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return why(c, "cannot open %s: %s", c->path, strerror(errno));
	for (uint32_t b = 0; b < CK_NBLOCKS && !rc; b++) {
		pat_fill(c->expect, (uint64_t)b * CK_BS, CK_BS, gen);
		if (pwrite(fd, c->expect, CK_BS, (off_t)b * CK_BS) != (ssize_t)CK_BS)
			rc = why(c, "cannot write %s: %s", c->path, strerror(errno));
	}
	close(fd);
	return rc;
}

/* After the engine wrote gen everywhere: does the file hold it? */
static int file_verify(struct ck *c, unsigned gen)
{
	uint8_t *buf = malloc(CK_BS);
	int fd = open(c->path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (!buf || fd < 0) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return why(c, "cannot read %s back: %s", c->path, strerror(errno));
	}
	for (uint32_t b = 0; b < CK_NBLOCKS && !rc; b++) {
		uint64_t off = (uint64_t)b * CK_BS;
		char what[160];

		if (pread(fd, buf, CK_BS, (off_t)off) != (ssize_t)CK_BS) {
			rc = why(c, "the file is shorter than %llu bytes after the writes",
				 (unsigned long long)(off + CK_BS));
			break;
		}
		pat_fill(c->expect, off, CK_BS, gen);
		if (memcmp(buf, c->expect, CK_BS)) {
			snprintf(what, sizeof(what), "after the engine's write at offset %llu, "
				 "the file (read with pread)", (unsigned long long)off);
			diagnose(c, what, buf, CK_BS, off, gen);
			rc = -1;
		}
	}
	close(fd);
	free(buf);
	return rc;
}

/* ---- a session ------------------------------------------------------------- */

static int ck_setup(struct ck *c)
{
	const struct ck_session *s = c->s;
	size_t slot = CK_GUARD + CK_BS + CK_GUARD;
	size_t priv = (c->e->io_priv_size + 63) & ~(size_t)63;
	void *slab = NULL;

	c->depth = s->depth;
	c->ios = calloc(c->depth, sizeof(*c->ios));
	c->io_ptrs = calloc(c->depth, sizeof(*c->io_ptrs));
	c->done = calloc(c->depth, sizeof(*c->done));
	c->free_ios = calloc(c->depth, sizeof(*c->free_ios));
	c->shadow = calloc(c->depth, sizeof(*c->shadow));
	c->expect = malloc(CK_BS);
	if (priv)
		c->privs = calloc(c->depth, priv);
	if (!c->ios || !c->io_ptrs || !c->done || !c->free_ios || !c->shadow || !c->expect ||
	    (priv && !c->privs) || posix_memalign(&slab, CK_ALIGN, slot * c->depth))
		return why(c, "out of memory");
	c->slab = slab;
	memset(c->slab, CK_GUARD_BYTE, slot * c->depth);

	c->file = (struct iorig_file){
		.path = c->path,
		.size = CK_SIZE,
		.open_flags = (s->read_only ? O_RDONLY : O_RDWR) | (s->direct ? O_DIRECT : 0),
		.fd = -1,
	};
	c->file_ptr = &c->file;
	for (unsigned i = 0; i < c->depth; i++) {
		c->ios[i].buf = io_buf(c, i);
		c->ios[i].index = i;
		c->ios[i].file = &c->file;
		c->ios[i].priv = priv ? (uint8_t *)c->privs + i * priv : NULL;
		c->io_ptrs[i] = &c->ios[i];
		c->free_ios[i] = &c->ios[c->depth - 1 - i];
	}
	c->nfree = c->depth;
	host_handle_init(&c->handle, "check", 0);
	c->info = (struct iorig_job_info){
		.struct_size = sizeof(struct iorig_job_info),
		.flags = IORIG_JOB_READS | IORIG_JOB_RANDOM |
			 (s->read_only ? 0 : IORIG_JOB_WRITES) |
			 (s->extras && (c->e->caps & IORIG_CAP_TRIM) ? IORIG_JOB_TRIMS : 0) |
			 (s->direct ? IORIG_JOB_DIRECT : 0),
		.host = host_api(),
		.handle = &c->handle,
		.name = "check",
		.iodepth = c->depth,
		.iodepth_batch_submit = c->depth,
		.iodepth_batch_complete_min = 1,
		.iodepth_batch_complete_max = c->depth,
		.max_bs = CK_BS,
		.buf_align = CK_ALIGN,
		.nr_files = 1,
		.nr_ios = c->depth,
		.files = &c->file_ptr,
		.ios = c->io_ptrs,
	};
	return 0;
}

/* get_size, called before open_file as the core does. */
static int step_get_size(struct ck *c)
{
	struct iorig_file missing = c->file;
	char path[4200];
	uint64_t sz = 0;
	int rc = eng_get_size(c->e, c->state, &c->file, &sz);

	if (rc)
		return why(c, "get_size of the %llu-byte file returned %d (%s)",
			   (unsigned long long)CK_SIZE, rc, strerror(-rc));
	if (sz != CK_SIZE)
		return why(c, "get_size says %llu bytes, the file has %llu",
			   (unsigned long long)sz, (unsigned long long)CK_SIZE);
	snprintf(path, sizeof(path), "%s.missing", c->path);
	missing.path = path;
	rc = eng_get_size(c->e, c->state, &missing, &sz);
	if (rc != -ENOENT)
		return why(c, "get_size of a missing file returned %d, not -ENOENT (the core "
			   "creates the file on -ENOENT)", rc);
	return 0;
}

static void make_order(uint32_t *order, bool random, uint64_t seed)
{
	for (uint32_t i = 0; i < CK_NBLOCKS; i++)
		order[i] = i;
	for (uint32_t i = CK_NBLOCKS - 1; random && i > 0; i--) {
		uint32_t j, t;

		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		j = (uint32_t)(seed % (i + 1));
		t = order[i];
		order[i] = order[j];
		order[j] = t;
	}
}

/* Begin a step, run fn's result through PASS/FAIL.  false: stop the session. */
static bool report(struct ck *c, const char *step, int rc, const char *pass_fmt, ...)
	IORIG_PRINTF(4, 5);

static bool report(struct ck *c, const char *step, int rc, const char *pass_fmt, ...)
{
	char msg[512];
	va_list ap;

	if (rc) {
		emit(c, 'F', step, "%s", c->why);
		return false;
	}
	va_start(ap, pass_fmt);
	vsnprintf(msg, sizeof(msg), pass_fmt, ap);
	va_end(ap);
	emit(c, 'P', step, "%s", msg);
	return true;
}

#define BEGIN(c, step) emit(c, 'B', step, "%s", "")

/* The data steps of a read-write session.  false: a step failed. */
static bool data_steps(struct ck *c, uint32_t *seq, uint32_t *rnd)
{
	const char *ver = c->diskless ? "no data check (diskless)" : "data verified";
	const char *wver = c->diskless ? "no data check (diskless)"
				       : "file content verified with pread";
	unsigned d = c->depth;
	char said[600];
	int rc;

	BEGIN(c, "seq-read");
	rc = c->diskless ? 0 : file_fill(c, 0);
	if (!report(c, "seq-read", rc ? rc : run_pass(c, IORIG_DDIR_READ, seq, CK_NBLOCKS, 0),
		    "%u reads of %u bytes at iodepth %u, %s", CK_NBLOCKS, CK_BS, d, ver))
		return false;
	BEGIN(c, "seq-write");
	rc = run_pass(c, IORIG_DDIR_WRITE, seq, CK_NBLOCKS, 1);
	if (!report(c, "seq-write", rc ? rc : c->diskless ? 0 : file_verify(c, 1),
		    "%u writes at iodepth %u, %s", CK_NBLOCKS, d, wver))
		return false;
	BEGIN(c, "rand-write");
	rc = run_pass(c, IORIG_DDIR_WRITE, rnd, CK_NBLOCKS, 2);
	if (!report(c, "rand-write", rc ? rc : c->diskless ? 0 : file_verify(c, 2),
		    "%u writes in random order at iodepth %u, %s", CK_NBLOCKS, d, wver))
		return false;
	if (c->s->extras && (c->e->caps & IORIG_CAP_FSYNC)) {
		BEGIN(c, "fsync");
		rc = eng_fsync(c->e, c->state, &c->file, 0);
		if (!rc)
			rc = eng_fsync(c->e, c->state, &c->file, 1);
		if (!report(c, "fsync", rc ? why(c, "fsync returned %d (%s)%s", rc, strerror(-rc),
						 engine_said(c, said, sizeof(said))) : 0,
			    "fsync and fdatasync returned 0"))
			return false;
	}
	if (c->e->ops.invalidate) {
		BEGIN(c, "invalidate");
		rc = eng_invalidate(c->e, c->state, &c->file);
		if (!report(c, "invalidate", rc ? why(c, "invalidate returned %d (%s)%s", rc,
						      strerror(-rc), engine_said(c, said, sizeof(said))) : 0,
			    "returned 0; the reads below must still see the data"))
			return false;
	}
	BEGIN(c, "rand-read");
	if (!report(c, "rand-read", run_pass(c, IORIG_DDIR_READ, rnd, CK_NBLOCKS, 2),
		    "%u reads in random order at iodepth %u, %s", CK_NBLOCKS, d, ver))
		return false;
	if (c->async && d > 1) {
		unsigned k = 0;

		BEGIN(c, "burst");
		rc = burst(c, rnd, 2, &k);
		if (!report(c, "burst", rc, "%u I/Os queued, then one reap(min=%u) took them all",
			    k, k))
			return false;
	}
	if (c->s->extras && (c->e->caps & IORIG_CAP_TRIM)) {
		BEGIN(c, "trim");
		if (!report(c, "trim", run_pass(c, IORIG_DDIR_TRIM, seq, 8, 0),
			    "8 trims of %u bytes completed in full", CK_BS))
			return false;
	}
	return true;
}

static void run_session(struct ck *c)
{
	uint32_t *seq = malloc(CK_NBLOCKS * sizeof(*seq));
	uint32_t *rnd = malloc(CK_NBLOCKS * sizeof(*rnd));
	char said[600];
	bool ok;
	int rc;

	BEGIN(c, "init");
	if (!seq || !rnd || ck_setup(c)) {
		emit(c, 'F', "init", "%s", seq && rnd ? c->why : "out of memory");
		return;
	}
	make_order(seq, false, 0);
	make_order(rnd, true, 0x9e3779b97f4a7c15ull ^ c->depth);
	rc = eng_init(c->e, &c->info, c->opts, &c->state);
	if (rc) {
		emit(c, 'F', "init", "init returned %d (%s)%s", rc, strerror(-rc),
		     engine_said(c, said, sizeof(said)));
		return;
	}
	ok = true;
	if (c->s->extras && c->e->ops.get_size && !c->diskless) {
		BEGIN(c, "get_size");
		ok = report(c, "get_size", step_get_size(c), "the file's size, and -ENOENT "
			    "for a missing file");
	}
	BEGIN(c, "open");
	rc = ok ? eng_open_file(c->e, c->state, &c->file) : 0;
	if (ok && rc) {
		emit(c, 'F', "open", "open_file(%s) returned %d (%s)%s", c->path, rc,
		     strerror(-rc), engine_said(c, said, sizeof(said)));
		ok = false;
	}
	if (ok && c->s->read_only) {
		BEGIN(c, "rand-read");
		rc = c->diskless ? 0 : file_fill(c, 3);
		ok = report(c, "rand-read", rc ? rc : run_pass(c, IORIG_DDIR_READ, rnd,
							       CK_NBLOCKS, 3),
			    "%u reads of a file opened O_RDONLY at iodepth %u, data verified",
			    CK_NBLOCKS, c->depth);
	} else if (ok) {
		ok = data_steps(c, seq, rnd);
	}
	/* I/O still in flight may touch the buffers: leave it to _exit(). */
	if (c->inflight)
		return;
	if (ok) {
		BEGIN(c, "close");
		rc = eng_close_file(c->e, c->state, &c->file);
		if (rc)
			emit(c, 'F', "close", "close_file returned %d (%s)%s", rc, strerror(-rc),
			     engine_said(c, said, sizeof(said)));
		else if (c->file.fd != -1)
			emit(c, 'F', "close", "close_file left file->fd = %d; set it back to -1",
			     c->file.fd);
	}
	BEGIN(c, "cleanup");
	eng_cleanup(c->e, c->state);
	emit(c, 'P', "cleanup", "init, open, close and cleanup done");
	free(seq);
	free(rnd);
}

void ck_run_session(const struct ck_target *t, const struct ck_session *s, int report_fd)
{
	struct ck *c = calloc(1, sizeof(*c));

	if (!c)
		return;
	c->e = t->e;
	c->opts = t->opts;
	c->path = t->path;
	c->diskless = t->diskless;
	c->async = t->async;
	c->report_fd = report_fd;
	c->s = s;
	run_session(c);
	/* The process exits next: the session's memory goes with it. */
}
