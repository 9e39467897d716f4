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
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iorig/engine.h>

struct psync_state {
	const struct iorig_host *host;
	struct iorig_job_handle *handle;
};

static int psync_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct psync_state *s = calloc(1, sizeof(*s));

	(void)opts;
	if (!s)
		return -ENOMEM;
	s->host = job->host;
	s->handle = job->handle;
	*state = s;
	return 0;
}

static void psync_cleanup(void *state)
{
	free(state);
}

static int psync_open_file(void *state, struct iorig_file *f)
{
	struct psync_state *s = state;
	int fd = open(f->path, f->open_flags | O_CLOEXEC);
	int err = errno;

	if (fd >= 0) {
		f->fd = fd;
		return 0;
	}
	if (err == EINVAL && (f->open_flags & O_DIRECT))
		s->host->set_error(s->handle, EINVAL,
				   "psync: cannot open %s with O_DIRECT (direct=1): the "
				   "filesystem (e.g. tmpfs) may not support O_DIRECT; use "
				   "direct=0 or put the file on a filesystem that does",
				   f->path);
	else
		s->host->set_error(s->handle, err, "psync: cannot open %s: %s",
				   f->path, strerror(err));
	return -err;
}

static int psync_close_file(void *state, struct iorig_file *f)
{
	int rc = 0;

	(void)state;
	if (f->fd >= 0 && close(f->fd))
		rc = -errno;
	f->fd = -1;
	return rc;
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
	static const char *const what[] = { "read", "write", "trim" };
	int64_t r;

	r = io->ddir == IORIG_DDIR_TRIM ? do_trim(io) : do_rw(io);
	io->result = r;
	if (r < 0) {
		int direct = io->file->open_flags & O_DIRECT;

		s->host->set_error(s->handle, (int)-r,
				   "psync: %s of %llu bytes at offset %llu of %s failed: %s%s",
				   what[io->ddir <= IORIG_DDIR_TRIM ? io->ddir : 0],
				   (unsigned long long)io->len,
				   (unsigned long long)io->offset, io->file->path,
				   strerror((int)-r),
				   r == -EINVAL && direct
					   ? " (direct=1 needs bs, offset and buffers aligned "
					     "to the device's logical block size)"
					   : "");
	}
	return IORIG_Q_COMPLETED;
}

static int psync_fsync(void *state, struct iorig_file *f, int datasync)
{
	(void)state;
	if (datasync ? fdatasync(f->fd) : fsync(f->fd))
		return -errno;
	return 0;
}

/* Drop f's pages from the page cache so reads hit the device. */
static int psync_invalidate(void *state, struct iorig_file *f)
{
	struct psync_state *s = state;
	int fd = f->fd >= 0 ? f->fd : open(f->path, O_RDONLY | O_CLOEXEC);
	int rc;

	if (fd < 0)
		return -errno;
	rc = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	/* Needs CAP_SYS_ADMIN; fadvise already did the part we may do. */
	if (!rc && f->is_blockdev)
		(void)ioctl(fd, BLKFLSBUF, 0);
	if (fd != f->fd)
		close(fd);
	if (rc)
		s->host->set_error(s->handle, rc, "psync: cannot drop cached pages of %s: %s",
				   f->path, strerror(rc));
	return -rc;
}

/* Called before open_file: -ENOENT (no message) when the file is not there. */
static int psync_get_size(void *state, struct iorig_file *f, uint64_t *size)
{
	struct stat st;
	int fd, rc = 0;

	(void)state;
	if (stat(f->path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size))
		rc = -errno;
	close(fd);
	return rc;
}

static const struct iorig_engine psync_engine = {
	IORIG_ENGINE_HEADER,
	.name = "psync",
	.version = "1.0",
	.description = "synchronous pread/pwrite, one I/O at a time",
	.caps = IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_TRIM | IORIG_CAP_BLOCKDEV,
	.init = psync_init,
	.cleanup = psync_cleanup,
	.open_file = psync_open_file,
	.close_file = psync_close_file,
	.queue = psync_queue,
	.fsync = psync_fsync,
	.invalidate = psync_invalidate,
	.get_size = psync_get_size,
};

IORIG_ENGINE_DEFINE(psync_engine)
