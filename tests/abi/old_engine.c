/*
 * abi_old_1_0: an engine as a third party built it for engine ABI 1.0,
 * compiled against the frozen tests/abi/engine-1.0.h and never against
 * the current header.  Every later 1.x core must load it and run jobs
 * through it.
 *
 * The SQLite test-VFS trick: the descriptor the core receives is a copy
 * placed at the very end of a readable page, followed by an inaccessible
 * page.  A core that reads past the 1.0 part of struct iorig_engine (a
 * field a later minor added) faults instead of reading garbage.  In the
 * same spirit the engine reads struct iorig_job_info and struct iorig_host
 * only after checking their struct_size covers the 1.0 fields it uses.
 *
 * A plain synchronous pread/pwrite engine otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine-1.0.h"

#define HAS(ptr, type, field) \
	((ptr)->struct_size >= offsetof(type, field) + sizeof(((type *)0)->field))

struct old_state {
	const struct iorig_host *host;
	struct iorig_job_handle *handle;
};

static int old_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct old_state *s;

	(void)opts;
	if (!HAS(job, struct iorig_job_info, ios) || !HAS(job->host, struct iorig_host, free_aligned))
		return -EPROTO; /* a core older than 1.0 cannot exist; never taken */
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->host = job->host;
	s->handle = job->handle;
	*state = s;
	return 0;
}

static void old_cleanup(void *state)
{
	free(state);
}

static int old_open_file(void *state, struct iorig_file *f)
{
	struct old_state *s = state;
	int fd = open(f->path, f->open_flags | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		s->host->set_error(s->handle, err, "abi_old_1_0: cannot open %s: %s", f->path,
				   strerror(err));
		return -err;
	}
	f->fd = fd;
	return 0;
}

static int old_close_file(void *state, struct iorig_file *f)
{
	(void)state;
	close(f->fd);
	f->fd = -1;
	return 0;
}

static int old_queue(void *state, struct iorig_io *io)
{
	ssize_t n;

	(void)state;
	n = io->ddir == IORIG_DDIR_WRITE ? pwrite(io->file->fd, io->buf, io->len, (off_t)io->offset)
					 : pread(io->file->fd, io->buf, io->len, (off_t)io->offset);
	io->result = n < 0 ? -errno : n;
	return IORIG_Q_COMPLETED;
}

static int old_fsync(void *state, struct iorig_file *f, int datasync)
{
	(void)state;
	return (datasync ? fdatasync(f->fd) : fsync(f->fd)) ? -errno : 0;
}

static int old_get_size(void *state, struct iorig_file *f, uint64_t *size)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	off_t end;

	(void)state;
	if (fd < 0)
		return -errno;
	end = lseek(fd, 0, SEEK_END);
	close(fd);
	if (end < 0)
		return -errno;
	*size = (uint64_t)end;
	return 0;
}

static const struct iorig_engine old_engine = {
	IORIG_ENGINE_HEADER,
	.name = "abi_old_1_0",
	.version = "1.0",
	.description = "engine built against the frozen ABI 1.0 header",
	.caps = IORIG_CAP_DIRECT | IORIG_CAP_FSYNC,
	.init = old_init,
	.cleanup = old_cleanup,
	.open_file = old_open_file,
	.close_file = old_close_file,
	.queue = old_queue,
	.fsync = old_fsync,
	.get_size = old_get_size,
};

/*
 * Not IORIG_ENGINE_DEFINE: the core gets the guarded copy.  Written once,
 * on the first call (the core calls the entry from one thread, at load).
 */
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t host_abi_major,
							   uint32_t host_abi_minor);
IORIG_EXPORT const struct iorig_engine *iorig_engine_entry(uint32_t host_abi_major,
							   uint32_t host_abi_minor)
{
	static const struct iorig_engine *placed;
	size_t pg = (size_t)sysconf(_SC_PAGESIZE);
	struct iorig_engine *d;
	char *p;

	(void)host_abi_minor;
	if (host_abi_major != IORIG_ABI_MAJOR)
		return NULL;
	if (placed)
		return placed;
	p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	d = (struct iorig_engine *)(p + pg - sizeof(*d));
	memcpy(d, &old_engine, sizeof(*d));
	if (mprotect(p, pg, PROT_READ) || mprotect(p + pg, pg, PROT_NONE))
		return NULL;
	placed = d;
	return placed;
}
