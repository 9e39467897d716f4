/*
 * fd_file: the file-descriptor half of the engines iorig ships (psync,
 * libaio, io_uring, mmap, splice): open, close, fsync, dropping cached
 * pages, the size of a file or block device, and the message for a failed
 * I/O.  One place for what those engines do alike, so their messages and
 * their handling of O_DIRECT and block devices cannot drift apart.
 *
 * Internal, not part of the SDK: a third-party engine still needs only
 * <iorig/engine.h> (and may copy fd_file.c, which needs nothing else).
 * Compiled into each engine's .so, where it stays hidden: the entry symbol
 * is still the only export.
 *
 * Every function takes a struct fd_engine: the engine's display name,
 * which starts each message ("psync: cannot open ..."), and the host and
 * job handle the message goes to (host->set_error).  An engine whose state
 * starts with its struct fd_engine can put the fd_file_op_* functions
 * straight into its descriptor.  Everything returns 0 or -errno.
 */
#ifndef IORIG_PLUGINS_FD_FILE_H
#define IORIG_PLUGINS_FD_FILE_H

#include <stddef.h>
#include <stdint.h>

#include <iorig/engine.h>

#pragma GCC visibility push(hidden)

/* Who is asking: names the engine in messages, and where they go. */
struct fd_engine {
	const char *name;
	const struct iorig_host *host;
	struct iorig_job_handle *job;
};

static inline void fd_engine_init(struct fd_engine *e, const char *name,
				  const struct iorig_job_info *job)
{
	e->name = name;
	e->host = job->host;
	e->job = job->handle;
}

/*
 * open(f->path, flags | O_CLOEXEC) into f->fd.  An EINVAL under O_DIRECT
 * says the filesystem has no direct I/O and what to do about it.
 */
int fd_file_open_flags(const struct fd_engine *e, struct iorig_file *f, int flags);

/* Close f->fd if open; f->fd is -1 afterwards, even when close failed. */
int fd_file_close(const struct fd_engine *e, struct iorig_file *f);

/* fsync(2), or fdatasync(2) when datasync. */
int fd_file_fsync(const struct fd_engine *e, struct iorig_file *f, int datasync);

/*
 * Drop f's pages from the page cache so reads hit the device
 * (posix_fadvise DONTNEED, and BLKFLSBUF on a block device when allowed).
 * Opens the file for the call when f->fd is not open.
 */
int fd_file_invalidate(const struct fd_engine *e, struct iorig_file *f);

/*
 * Size of an existing file, or of a block device (BLKGETSIZE64).  Called
 * before open_file: -ENOENT (no message) when the file is not there yet.
 */
int fd_file_get_size(const struct fd_engine *e, struct iorig_file *f, uint64_t *size);

/* "read", "write" or "trim", for messages. */
const char *fd_file_ddir_name(uint32_t ddir);

/*
 * Record why io failed with err (-errno): what, how many bytes, where, and
 * for an EINVAL under O_DIRECT the alignment direct=1 needs.  Engines test
 * their own special causes first and fall back to this.
 */
void fd_file_io_error(const struct fd_engine *e, const struct iorig_io *io, int err);

/*
 * Engine ops, for a state that starts with its struct fd_engine (check
 * with FD_ENGINE_FIRST).  open uses the flags the core chose.
 */
int fd_file_op_open(void *state, struct iorig_file *f);
int fd_file_op_close(void *state, struct iorig_file *f);
int fd_file_op_fsync(void *state, struct iorig_file *f, int datasync);
int fd_file_op_invalidate(void *state, struct iorig_file *f);
int fd_file_op_get_size(void *state, struct iorig_file *f, uint64_t *size);

/* Compile-time proof that a state type can be handed to the ops. */
#define FD_ENGINE_FIRST(type, member) \
	_Static_assert(offsetof(type, member) == 0, \
		       #type "." #member " must be first: fd_file_op_* cast the state to it")

#pragma GCC visibility pop

#endif
