/*
 * Deliberately broken engines for the conformance checker's tests, built
 * only from the public header.  The base is a correct async pread/pwrite
 * engine (the I/O is done in queue, handed back by reap); each BROKEN_*
 * define breaks one rule, the way real engines get it wrong:
 *
 *   BROKEN_COUNT      reap reports one completion more than it stored
 *   BROKEN_LOST       every 100th queued I/O is never handed back
 *   BROKEN_OFFSET     I/O lands one block after io->offset
 *   BROKEN_UNALIGNED  I/O uses io->buf + 1 (a shifted, unaligned buffer)
 *   BROKEN_CRASH      the 500th I/O crashes (SIGSEGV)
 *   BROKEN_OPTIONS    an option named like a core option (unreachable) and
 *                     one whose missing default (0) is outside its range
 *
 * None defined: the correct engine, which the checker must pass.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <iorig/engine.h>

#ifndef BROKEN_NAME
#define BROKEN_NAME "broken_none"
#endif

#ifdef BROKEN_OPTIONS
struct broken_opts {
	uint64_t bs;
	int64_t depth;
};

static const struct iorig_option broken_options[] = {
	{ "bs", IORIG_OPT_SIZE, offsetof(struct broken_opts, bs), "4k", 0, 0, NULL,
	  "shadowed by the core's bs" },
	{ "depth", IORIG_OPT_INT, offsetof(struct broken_opts, depth), NULL, 1, 64, NULL,
	  "no default, so 0, below its minimum" },
	IORIG_OPTION_END,
};
#endif

struct broken {
	struct iorig_io **ring;
	unsigned size, head, count;
	uint64_t nqueued;
};

static int broken_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct broken *s = calloc(1, sizeof(*s));

	(void)opts;
	if (!s)
		return -ENOMEM;
	s->size = job->nr_ios;
	s->ring = calloc(s->size, sizeof(*s->ring));
	if (!s->ring) {
		free(s);
		return -ENOMEM;
	}
	*state = s;
	return 0;
}

static void broken_cleanup(void *state)
{
	struct broken *s = state;

	free(s->ring);
	free(s);
}

static int broken_open_file(void *state, struct iorig_file *f)
{
	int fd = open(f->path, f->open_flags | O_CLOEXEC);

	(void)state;
	if (fd < 0)
		return -errno;
	f->fd = fd;
	return 0;
}

static int broken_close_file(void *state, struct iorig_file *f)
{
	(void)state;
	close(f->fd);
	f->fd = -1;
	return 0;
}

static int64_t broken_rw(struct iorig_io *io)
{
	char *buf = io->buf;
	uint64_t off = io->offset;
	ssize_t n;

#ifdef BROKEN_UNALIGNED
	buf += 1;
#endif
#ifdef BROKEN_OFFSET
	off += io->len;
#endif
	n = io->ddir == IORIG_DDIR_WRITE ? pwrite(io->file->fd, buf, io->len, (off_t)off)
					 : pread(io->file->fd, buf, io->len, (off_t)off);
	return n < 0 ? -errno : n;
}

static int broken_queue(void *state, struct iorig_io *io)
{
	struct broken *s = state;

	if (s->count == s->size)
		return IORIG_Q_BUSY;
	s->nqueued++;
#ifdef BROKEN_CRASH
	if (s->nqueued == 500)
		raise(SIGSEGV);
#endif
	io->result = io->file->fd >= 0 ? broken_rw(io) : (int64_t)io->len;
#ifdef BROKEN_LOST
	if (s->nqueued % 100 == 0)
		return IORIG_Q_QUEUED; /* accepted, and forgotten */
#endif
	s->ring[(s->head + s->count++) % s->size] = io;
	return IORIG_Q_QUEUED;
}

static int broken_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		       struct iorig_io **done)
{
	struct broken *s = state;
	unsigned n = s->count < max ? s->count : max;

	(void)min, (void)timeout_ns; /* all queued I/O is already done */
	for (unsigned i = 0; i < n; i++) {
		done[i] = s->ring[s->head];
		s->head = (s->head + 1) % s->size;
	}
	s->count -= n;
#ifdef BROKEN_COUNT
	if (n)
		return (int)n + 1;
#endif
	return (int)n;
}

static const struct iorig_engine broken_engine = {
	IORIG_ENGINE_HEADER,
	.name = BROKEN_NAME,
	.version = "1.0-test",
	.description = "test engine that breaks one rule of the engine contract",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DIRECT,
#ifdef BROKEN_OPTIONS
	.options = broken_options,
	.options_size = sizeof(struct broken_opts),
#endif
	.init = broken_init,
	.cleanup = broken_cleanup,
	.open_file = broken_open_file,
	.close_file = broken_close_file,
	.queue = broken_queue,
	.reap = broken_reap,
};

IORIG_ENGINE_DEFINE(broken_engine)
