/*
 * mmap engine: I/O as memcpy to and from a shared mapping of the file.
 *
 * open_file() maps the whole file (or block device) once; queue() copies
 * and completes at once, so the "I/O" the job measures is page faults,
 * page-cache lookups and the copy.  fsync is msync(MS_SYNC).  There is no
 * direct I/O through a mapping: init() refuses direct=1.
 */
#define _GNU_SOURCE /* O_DIRECT, splice, pipe sizes */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iorig/engine.h>

#include "fd_file.h"

/* One mapped file; f->engine_file points at its slot in maps[]. */
struct mm_map {
	uint8_t *addr;  /* NULL when the file is empty */
	uint64_t len;   /* bytes mapped from offset 0 */
};

struct mm_state {
	struct fd_engine fd; /* first: the fd_file_op_* ops take the state */
	uint32_t flags;    /* IORIG_JOB_* */
	uint32_t nr_files;
	struct mm_map *maps;
};
FD_ENGINE_FIRST(struct mm_state, fd);

static void mm_cleanup(void *state)
{
	struct mm_state *s = state;

	if (!s)
		return;
	free(s->maps);
	free(s);
}

static int mm_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct mm_state *s;

	(void)opts;
	if (job->flags & IORIG_JOB_DIRECT) {
		job->host->set_error(job->handle, -EINVAL,
			"mmap: mmap cannot do direct I/O: a mapping always goes through the "
			"page cache; drop direct=1 (or use ioengine=psync, libaio or io_uring "
			"for O_DIRECT)");
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	fd_engine_init(&s->fd, "mmap", job);
	s->flags = job->flags;
	s->nr_files = job->nr_files;
	s->maps = calloc(job->nr_files ? job->nr_files : 1, sizeof(*s->maps));
	if (!s->maps) {
		free(s);
		return -ENOMEM;
	}
	*state = s;
	return 0;
}

/*
 * How many bytes to map: a block device's size, or the file's size grown
 * to the job's size when the job may write (a store past EOF would be a
 * SIGBUS, where pwrite would have extended the file).
 */
static int mm_map_len(struct mm_state *s, struct iorig_file *f, int fd, int writable,
		      uint64_t *len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return -errno;
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(fd, BLKGETSIZE64, len) < 0)
			return -errno;
		return 0;
	}
	if (!S_ISREG(st.st_mode)) {
		s->fd.host->set_error(s->fd.job, -EINVAL,
			"mmap: %s is neither a regular file nor a block device; use another "
			"ioengine for it", f->path);
		return -EINVAL;
	}
	*len = (uint64_t)st.st_size;
	if (*len < f->size && writable) {
		if (ftruncate(fd, (off_t)f->size) < 0)
			return -errno;
		*len = f->size;
	}
	return 0;
}

static int mm_open_file(void *state, struct iorig_file *f)
{
	struct mm_state *s = state;
	int writable = (f->open_flags & O_ACCMODE) != O_RDONLY;
	struct mm_map *m;
	uint64_t len = 0;
	int rc;

	if (f->index >= s->nr_files) {
		s->fd.host->set_error(s->fd.job, -EINVAL,
			"mmap: %s has file index %u, expected < %u (core bug)",
			f->path, f->index, s->nr_files);
		return -EINVAL;
	}
	m = &s->maps[f->index];
	/* No direct I/O through a mapping (init refuses direct=1). */
	rc = fd_file_open_flags(&s->fd, f, f->open_flags & ~O_DIRECT);
	if (rc < 0)
		return rc;
	rc = mm_map_len(s, f, f->fd, writable, &len);
	if (rc < 0) {
		s->fd.host->set_error(s->fd.job, rc,
			"mmap: cannot find the size of %s to map: %s", f->path, strerror(-rc));
		goto fail;
	}
	m->addr = NULL;
	m->len = 0;
	if (len) {
		void *p = mmap(NULL, len, writable ? PROT_READ | PROT_WRITE : PROT_READ,
			       MAP_SHARED, f->fd, 0);

		if (p == MAP_FAILED) {
			rc = -errno;
			s->fd.host->set_error(s->fd.job, rc,
				"mmap: cannot map %llu bytes of %s: %s (the filesystem may "
				"not support shared mappings; use ioengine=psync)",
				(unsigned long long)len, f->path, strerror(-rc));
			goto fail;
		}
		/* Only a hint: a kernel that ignores it still works. */
		madvise(p, len, (s->flags & IORIG_JOB_RANDOM) ? MADV_RANDOM : MADV_SEQUENTIAL);
		m->addr = p;
		m->len = len;
	}
	f->engine_file = m;
	return 0;
fail:
	close(f->fd);
	f->fd = -1;
	return rc;
}

static int mm_close_file(void *state, struct iorig_file *f)
{
	struct mm_state *s = state;
	struct mm_map *m = f->engine_file;

	if (m && m->addr)
		munmap(m->addr, m->len);
	if (m) {
		m->addr = NULL;
		m->len = 0;
	}
	f->engine_file = NULL;
	return fd_file_close(&s->fd, f);
}

/* Past the end a read is short (0 at EOF, as pread); a write has no room. */
static int mm_queue(void *state, struct iorig_io *io)
{
	struct mm_state *s = state;
	const struct mm_map *m = io->file->engine_file;
	uint64_t len = io->len;

	if (io->ddir != IORIG_DDIR_READ && io->ddir != IORIG_DDIR_WRITE)
		return -EOPNOTSUPP; /* no IORIG_CAP_TRIM: the core never sends one */
	if (io->offset >= m->len) {
		if (io->ddir == IORIG_DDIR_READ) {
			io->result = 0;
			return IORIG_Q_COMPLETED;
		}
		s->fd.host->set_error(s->fd.job, -ENOSPC,
			"mmap: write at offset %llu of %s is past the %llu bytes mapped; "
			"lower size or offset", (unsigned long long)io->offset, io->file->path,
			(unsigned long long)m->len);
		io->result = -ENOSPC;
		return IORIG_Q_COMPLETED;
	}
	if (len > m->len - io->offset)
		len = m->len - io->offset;
	if (io->ddir == IORIG_DDIR_READ)
		memcpy(io->buf, m->addr + io->offset, len);
	else
		memcpy(m->addr + io->offset, io->buf, len);
	io->result = (int64_t)len;
	return IORIG_Q_COMPLETED;
}

static int mm_fsync(void *state, struct iorig_file *f, int datasync)
{
	struct mm_state *s = state;
	const struct mm_map *m = f->engine_file;

	(void)datasync; /* msync has no data-only variant */
	if (!m || !m->addr)
		return 0;
	if (msync(m->addr, m->len, MS_SYNC) < 0) {
		int rc = -errno;

		s->fd.host->set_error(s->fd.job, rc, "mmap: msync of %s failed: %s", f->path,
			strerror(-rc));
		return rc;
	}
	return 0;
}

/* Unmap our pages, then let the page cache drop the clean ones. */
static int mm_invalidate(void *state, struct iorig_file *f)
{
	struct mm_state *s = state;
	const struct mm_map *m = f->engine_file;

	if (m && m->addr)
		madvise(m->addr, m->len, MADV_DONTNEED);
	return fd_file_invalidate(&s->fd, f);
}

static const struct iorig_engine mm_engine = {
	IORIG_ENGINE_HEADER,
	.name = "mmap",
	.version = "1.0",
	.description = "memcpy to and from a shared mapping of the file (msync for fsync)",
	.caps = IORIG_CAP_FSYNC | IORIG_CAP_BLOCKDEV,
	.init = mm_init,
	.cleanup = mm_cleanup,
	.open_file = mm_open_file,
	.close_file = mm_close_file,
	.queue = mm_queue,
	.fsync = mm_fsync,
	.invalidate = mm_invalidate,
	.get_size = fd_file_op_get_size,
};

IORIG_ENGINE_DEFINE(mm_engine)
