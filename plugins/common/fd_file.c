/*
 * fd_file: file-descriptor helpers the shipped engines share (see
 * fd_file.h).  None of this runs per I/O except fd_file_io_error, and that
 * only when an I/O failed.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include "fd_file.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

int fd_file_open_flags(const struct fd_engine *e, struct iorig_file *f, int flags)
{
	int fd = open(f->path, flags | O_CLOEXEC);
	int err = errno;

	if (fd >= 0) {
		f->fd = fd;
		return 0;
	}
	if (err == EINVAL && (flags & O_DIRECT))
		e->host->set_error(e->job, -err,
			"%s: cannot open %s with O_DIRECT (direct=1): the filesystem "
			"(tmpfs before Linux 6.6, procfs, some FUSE) may not support "
			"O_DIRECT; use direct=0 or put the file on a filesystem that does "
			"(ext4, xfs)",
			e->name, f->path);
	else
		e->host->set_error(e->job, -err, "%s: cannot open %s: %s", e->name, f->path,
			strerror(err));
	return -err;
}

int fd_file_close(const struct fd_engine *e, struct iorig_file *f)
{
	int rc = 0;

	if (f->fd < 0)
		return 0;
	if (close(f->fd) < 0) {
		rc = -errno;
		e->host->set_error(e->job, rc, "%s: cannot close %s: %s", e->name, f->path,
			strerror(-rc));
	}
	/* Linux frees the descriptor even when close fails: never retry it. */
	f->fd = -1;
	return rc;
}

int fd_file_fsync(const struct fd_engine *e, struct iorig_file *f, int datasync)
{
	int rc = datasync ? fdatasync(f->fd) : fsync(f->fd);

	if (rc < 0) {
		rc = -errno;
		e->host->set_error(e->job, rc, "%s: %s of %s failed: %s", e->name,
			datasync ? "fdatasync" : "fsync", f->path, strerror(-rc));
	}
	return rc;
}

int fd_file_invalidate(const struct fd_engine *e, struct iorig_file *f)
{
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
		e->host->set_error(e->job, -rc, "%s: cannot drop cached pages of %s: %s", e->name,
			f->path, strerror(rc));
	return -rc;
}

int fd_file_get_size(const struct fd_engine *e, struct iorig_file *f, uint64_t *size)
{
	struct stat st;
	int fd, rc = 0;

	if (stat(f->path, &st))
		return -errno;
	if (!S_ISBLK(st.st_mode)) {
		*size = (uint64_t)st.st_size;
		return 0;
	}
	fd = open(f->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size)) {
		rc = -errno;
		e->host->set_error(e->job, rc, "%s: cannot get the size of %s: %s", e->name,
			f->path, strerror(-rc));
	}
	close(fd);
	return rc;
}

const char *fd_file_ddir_name(uint32_t ddir)
{
	return ddir == IORIG_DDIR_WRITE ? "write" : ddir == IORIG_DDIR_READ ? "read" : "trim";
}

void fd_file_io_error(const struct fd_engine *e, const struct iorig_io *io, int err)
{
	const struct iorig_file *f = io->file;
	int direct = err == -EINVAL && (f->open_flags & O_DIRECT);

	e->host->set_error(e->job, err, "%s: %s of %llu bytes at offset %llu of %s failed: %s%s",
		e->name, fd_file_ddir_name(io->ddir), (unsigned long long)io->len,
		(unsigned long long)io->offset, f->path, strerror(-err),
		direct ? " (direct=1 needs bs, offset and buffers aligned to the device's "
			 "logical block size, see blockdev --getss; fix bs/offset or use "
			 "direct=0)"
		       : "");
}

/* The ops: the engine's state starts with its struct fd_engine. */
int fd_file_op_open(void *state, struct iorig_file *f)
{
	return fd_file_open_flags(state, f, f->open_flags);
}

int fd_file_op_close(void *state, struct iorig_file *f)
{
	return fd_file_close(state, f);
}

int fd_file_op_fsync(void *state, struct iorig_file *f, int datasync)
{
	return fd_file_fsync(state, f, datasync);
}

int fd_file_op_invalidate(void *state, struct iorig_file *f)
{
	return fd_file_invalidate(state, f);
}

int fd_file_op_get_size(void *state, struct iorig_file *f, uint64_t *size)
{
	return fd_file_get_size(state, f, size);
}
