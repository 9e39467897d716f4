/*
 * splice engine: I/O that moves through a pipe instead of a read/write
 * copy between the page cache and the buffer.
 *
 *   write: vmsplice(buffer -> pipe) references the user pages in the pipe,
 *          then splice(pipe -> file at offset) writes them out.
 *   read:  splice(file at offset -> pipe) puts page-cache pages in the
 *          pipe, then read(pipe -> buffer) copies them out.  We use read()
 *          rather than vmsplice() for this half: vmsplice from a pipe into
 *          user memory is a plain copy in the kernel too, and read() has
 *          the simpler, well-known semantics.
 *
 * One pipe per job instance, created in init() and grown to max_bs when
 * the kernel allows (F_SETPIPE_SZ), so most I/Os take one round trip;
 * larger or short transfers loop.  Every I/O completes in queue().
 */
#define _GNU_SOURCE /* O_DIRECT, splice, pipe sizes */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <iorig/engine.h>

#include "fd_file.h"

struct sp_state {
	struct fd_engine fd; /* first: the fd_file_op_* ops take the state */
	int pipe_rd;
	int pipe_wr;
	size_t pipe_size;  /* bytes the pipe holds: the most one splice moves */
	uint64_t max_bs;
};
FD_ENGINE_FIRST(struct sp_state, fd);

static void sp_close_pipe(struct sp_state *s)
{
	if (s->pipe_rd >= 0)
		close(s->pipe_rd);
	if (s->pipe_wr >= 0)
		close(s->pipe_wr);
	s->pipe_rd = s->pipe_wr = -1;
}

/* A fresh, empty pipe of (ideally) max_bs bytes. */
static int sp_open_pipe(struct sp_state *s)
{
	int p[2], sz;

	if (pipe2(p, O_CLOEXEC) < 0) {
		int rc = -errno;

		s->fd.host->set_error(s->fd.job, rc, "splice: cannot create the pipe: %s",
			strerror(-rc));
		return rc;
	}
	s->pipe_rd = p[0];
	s->pipe_wr = p[1];
	/* Over /proc/sys/fs/pipe-max-size it fails for non-root: then loop. */
	if (s->max_bs <= INT32_MAX && fcntl(s->pipe_wr, F_SETPIPE_SZ, (int)s->max_bs) < 0)
		s->fd.host->log(s->fd.job, IORIG_LOG_DEBUG,
			"splice: pipe not grown to %llu bytes (%s): transfers loop",
			(unsigned long long)s->max_bs, strerror(errno));
	sz = fcntl(s->pipe_wr, F_GETPIPE_SZ);
	s->pipe_size = sz > 0 ? (size_t)sz : 65536;
	return 0;
}

static void sp_cleanup(void *state)
{
	struct sp_state *s = state;

	if (!s)
		return;
	sp_close_pipe(s);
	free(s);
}

static int sp_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct sp_state *s;
	int rc;

	(void)opts;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	fd_engine_init(&s->fd, "splice", job);
	s->max_bs = job->max_bs;
	s->pipe_rd = s->pipe_wr = -1;
	rc = sp_open_pipe(s);
	if (rc < 0) {
		free(s);
		return rc;
	}
	s->fd.host->log(s->fd.job, IORIG_LOG_DEBUG, "splice: pipe holds %zu bytes", s->pipe_size);
	*state = s;
	return 0;
}

/* Move exactly n bytes that are in the pipe into buf. */
static int sp_drain(struct sp_state *s, uint8_t *buf, size_t n)
{
	while (n) {
		ssize_t r = read(s->pipe_rd, buf, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return r < 0 ? -errno : -EIO;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

static int64_t sp_read(struct sp_state *s, struct iorig_io *io)
{
	uint8_t *buf = io->buf;
	loff_t off = (loff_t)io->offset;
	uint64_t done = 0;

	while (done < io->len) {
		size_t chunk = io->len - done > s->pipe_size ? s->pipe_size : io->len - done;
		ssize_t n = splice(io->file->fd, &off, s->pipe_wr, NULL, chunk, SPLICE_F_MOVE);
		int rc;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return done ? (int64_t)done : -errno;
		if (n == 0)
			break; /* EOF: a short read, as pread */
		rc = sp_drain(s, buf + done, (size_t)n);
		if (rc < 0) {
			/* Bytes left in the pipe would end up in the next I/O. */
			sp_close_pipe(s);
			sp_open_pipe(s);
			return rc;
		}
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/*
 * The pipe holds references to our buffer's pages until splice() has
 * written them, and we wait for that before completing, so the core may
 * reuse the buffer as soon as queue() returns.
 */
static int64_t sp_write(struct sp_state *s, struct iorig_io *io)
{
	uint8_t *buf = io->buf;
	loff_t off = (loff_t)io->offset;
	uint64_t done = 0;

	while (done < io->len) {
		size_t chunk = io->len - done > s->pipe_size ? s->pipe_size : io->len - done;
		struct iovec iov = { .iov_base = buf + done, .iov_len = chunk };
		ssize_t in = vmsplice(s->pipe_wr, &iov, 1, 0);
		size_t left;

		if (in < 0 && errno == EINTR)
			continue;
		if (in <= 0)
			return in < 0 ? -errno : -EIO;
		left = (size_t)in;
		while (left) {
			ssize_t out = splice(s->pipe_rd, NULL, io->file->fd, &off, left,
					     SPLICE_F_MOVE);

			if (out < 0 && errno == EINTR)
				continue;
			if (out <= 0) {
				int rc = out < 0 ? -errno : -ENOSPC;

				/* Data stuck in the pipe would leak into the next I/O. */
				sp_close_pipe(s);
				if (sp_open_pipe(s) < 0)
					return -EPIPE;
				if (done + (size_t)in - left)
					return (int64_t)(done + (size_t)in - left);
				return rc;
			}
			left -= (size_t)out;
		}
		done += (size_t)in;
	}
	return (int64_t)done;
}

static int sp_queue(void *state, struct iorig_io *io)
{
	struct sp_state *s = state;
	const struct iorig_file *f = io->file;

	if (io->ddir == IORIG_DDIR_READ)
		io->result = sp_read(s, io);
	else if (io->ddir == IORIG_DDIR_WRITE)
		io->result = sp_write(s, io);
	else
		return -EOPNOTSUPP; /* no IORIG_CAP_TRIM: the core never sends one */
	if (io->result >= 0)
		return IORIG_Q_COMPLETED;
	/* Without O_DIRECT, EINVAL means no splice here, not misalignment. */
	if (io->result == -EINVAL && !(f->open_flags & O_DIRECT))
		s->fd.host->set_error(s->fd.job, (int)io->result,
			"splice: %s of %s failed: %s (this file type or filesystem does "
			"not support splice; use ioengine=psync)", fd_file_ddir_name(io->ddir),
			f->path, strerror(EINVAL));
	else
		fd_file_io_error(&s->fd, io, (int)io->result);
	return IORIG_Q_COMPLETED;
}

static const struct iorig_engine sp_engine = {
	IORIG_ENGINE_HEADER,
	.name = "splice",
	.version = "1.0",
	.description = "splice/vmsplice through a pipe instead of read/write copies",
	.caps = IORIG_CAP_FSYNC | IORIG_CAP_BLOCKDEV,
	.init = sp_init,
	.cleanup = sp_cleanup,
	.open_file = fd_file_op_open,
	.close_file = fd_file_op_close,
	.queue = sp_queue,
	.fsync = fd_file_op_fsync,
	.invalidate = fd_file_op_invalidate,
	.get_size = fd_file_op_get_size,
};

IORIG_ENGINE_DEFINE(sp_engine)
