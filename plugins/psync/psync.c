/*
 * psync: synchronous I/O with pread(2)/pwrite(2), one I/O at a time.
 * Works on regular files and block devices, buffered or O_DIRECT; trims
 * with fallocate(PUNCH_HOLE) on files and BLKDISCARD on block devices.
 * queue() always completes: a sync engine has no reap.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <iorig/engine.h>

#include "fd_file.h"

struct psync_state {
	struct fd_engine fd; /* first: the fd_file_op_* ops take the state */
};
FD_ENGINE_FIRST(struct psync_state, fd);

static int psync_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct psync_state *s = calloc(1, sizeof(*s));

	(void)opts;
	if (!s)
		return -ENOMEM;
	fd_engine_init(&s->fd, "psync", job);
	*state = s;
	return 0;
}

static void psync_cleanup(void *state)
{
	free(state);
}

static int64_t do_trim(struct iorig_io *io)
{
	struct iorig_file *f = io->file;

	if (f->is_blockdev) {
		uint64_t range[2] = { io->offset, io->len };

		if (ioctl(f->fd, BLKDISCARD, range))
			return -errno;
	} else if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
			     (off_t)io->offset, (off_t)io->len)) {
		return -errno;
	}
	return (int64_t)io->len;
}

/* Loop over short transfers; a read that hits EOF returns what it got. */
static int64_t do_rw(struct iorig_io *io)
{
	int fd = io->file->fd;
	char *buf = io->buf;
	uint64_t done = 0;

	while (done < io->len) {
		ssize_t n;

		if (io->ddir == IORIG_DDIR_WRITE)
			n = pwrite(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		else
			n = pread(fd, buf + done, io->len - done, (off_t)(io->offset + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0) {
			if (io->ddir == IORIG_DDIR_WRITE)
				return -EIO; /* no progress and no errno: do not spin */
			break;
		}
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int psync_queue(void *state, struct iorig_io *io)
{
	struct psync_state *s = state;
	int64_t r;

	r = io->ddir == IORIG_DDIR_TRIM ? do_trim(io) : do_rw(io);
	io->result = r;
	if (r < 0)
		fd_file_io_error(&s->fd, io, (int)r);
	return IORIG_Q_COMPLETED;
}

static const struct iorig_engine psync_engine = {
	IORIG_ENGINE_HEADER,
	.name = "psync",
	.version = "1.0",
	.description = "synchronous pread/pwrite, one I/O at a time",
	.caps = IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_TRIM | IORIG_CAP_BLOCKDEV,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.open_file = fd_file_op_open,
	.close_file = fd_file_op_close,
	.queue = psync_queue,
	.fsync = fd_file_op_fsync,
	.invalidate = fd_file_op_invalidate,
	.get_size = fd_file_op_get_size,
};

IORIG_ENGINE_DEFINE(psync_engine)
