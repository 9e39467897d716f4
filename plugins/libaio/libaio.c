/*
 * libaio engine: Linux native AIO (io_setup / io_submit / io_getevents).
 *
 * queue() only prepares the iocb that lives in io->priv and appends it to a
 * pending batch; commit() hands the batch to the kernel with one io_submit;
 * reap() collects completions, from the completion ring in user space when
 * userspace_reap=1 and the ring layout is the one we know, else with
 * io_getevents.  No allocation and no syscall besides the I/O on those
 * paths.  Native AIO is only asynchronous for O_DIRECT: buffered requests
 * complete inside io_submit, which init() warns about.
 */
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <iorig/engine.h>

#include "fd_file.h"

struct aio_opts {
	int userspace_reap;
};

static const struct iorig_option aio_options[] = {
	{ "userspace_reap", IORIG_OPT_BOOL, offsetof(struct aio_opts, userspace_reap), "0",
	  0, 0, NULL, "reap completions from the AIO ring in user space, without io_getevents" },
	IORIG_OPTION_END
};

/*
 * The completion ring the kernel maps at the io_context_t address (its
 * layout is fs/aio.c's struct aio_ring, stable since 2.6).  Only read when
 * magic and the incompat features say it is that layout.
 */
#define AIO_RING_MAGIC 0xa10a10a1u
struct aio_ring {
	unsigned id;
	unsigned nr;    /* events in io_events[] */
	unsigned head;  /* consumer: user space or io_getevents */
	unsigned tail;  /* producer: the kernel */
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event io_events[];
};

struct aio_state {
	struct fd_engine fd;    /* first: the fd_file_op_* ops take the state */
	io_context_t ctx;
	unsigned depth;
	struct iocb **pending;  /* prepared, not yet accepted by io_submit */
	unsigned n_pending;
	struct iorig_io **failed; /* refused by io_submit; reap() returns them */
	unsigned n_failed;
	struct io_event *events;
	struct aio_ring *ring;  /* non-NULL when user-space reaping is on */
};
FD_ENGINE_FIRST(struct aio_state, fd);

static void aio_cleanup(void *state)
{
	struct aio_state *s = state;

	if (!s)
		return;
	if (s->ctx)
		io_destroy(s->ctx);
	free(s->pending);
	free(s->failed);
	free(s->events);
	free(s);
}

static int aio_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	const struct aio_opts *o = opts;
	struct aio_state *s;
	unsigned depth = job->iodepth ? job->iodepth : 1;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	fd_engine_init(&s->fd, "libaio", job);
	s->depth = depth;
	s->pending = calloc(depth, sizeof(*s->pending));
	s->failed = calloc(depth, sizeof(*s->failed));
	s->events = calloc(depth, sizeof(*s->events));
	if (!s->pending || !s->failed || !s->events) {
		aio_cleanup(s);
		return -ENOMEM;
	}
	rc = io_setup((int)depth, &s->ctx);
	if (rc < 0) {
		s->ctx = 0;
		if (rc == -EAGAIN)
			s->fd.host->set_error(s->fd.job, rc,
				"libaio: io_setup(%u) failed (EAGAIN): the system-wide AIO limit "
				"/proc/sys/fs/aio-max-nr is reached; raise it "
				"(sysctl fs.aio-max-nr) or lower iodepth or numjobs", depth);
		else if (rc == -ENOSYS)
			s->fd.host->set_error(s->fd.job, rc,
				"libaio: io_setup failed (ENOSYS): this kernel has no native AIO; "
				"use ioengine=io_uring or psync");
		else
			s->fd.host->set_error(s->fd.job, rc, "libaio: io_setup(%u) failed: %s",
				depth, strerror(-rc));
		aio_cleanup(s);
		return rc;
	}
	if (o && o->userspace_reap) {
		struct aio_ring *r = (struct aio_ring *)s->ctx;

		if (r->magic == AIO_RING_MAGIC && r->incompat_features == 0)
			s->ring = r;
		else
			s->fd.host->log(s->fd.job, IORIG_LOG_WARN,
				"libaio: userspace_reap=1: unknown AIO ring layout, "
				"reaping with io_getevents");
	}
	if (!(job->flags & IORIG_JOB_DIRECT) && depth > 1)
		s->fd.host->log(s->fd.job, IORIG_LOG_WARN,
			"libaio: without direct=1: the kernel does buffered I/O synchronously "
			"inside io_submit, so iodepth=%u will not keep I/O in flight; "
			"set direct=1 (or use ioengine=io_uring for buffered async I/O)", depth);
	*state = s;
	return 0;
}

static int aio_queue(void *state, struct iorig_io *io)
{
	struct aio_state *s = state;
	struct iocb *cb = io->priv;

	if (s->n_pending + s->n_failed >= s->depth)
		return IORIG_Q_BUSY;
	if (io->ddir == IORIG_DDIR_READ)
		io_prep_pread(cb, io->file->fd, io->buf, io->len, (long long)io->offset);
	else if (io->ddir == IORIG_DDIR_WRITE)
		io_prep_pwrite(cb, io->file->fd, io->buf, io->len, (long long)io->offset);
	else
		return -EOPNOTSUPP; /* no IORIG_CAP_TRIM: the core never sends one */
	cb->data = io;
	s->pending[s->n_pending++] = cb;
	return IORIG_Q_QUEUED;
}

/*
 * Submit the pending batch.  A short count means the kernel took only the
 * first iocbs: keep the rest, in order.  EAGAIN means the context is full
 * for now: keep everything, the core reaps and commits again.  Any other
 * error belongs to the first iocb alone; it completes with that error
 * through reap(), and the rest are tried again.
 */
static int aio_commit(void *state)
{
	struct aio_state *s = state;

	while (s->n_pending) {
		int rc = io_submit(s->ctx, (long)s->n_pending, s->pending);

		if (rc > 0) {
			s->n_pending -= (unsigned)rc;
			memmove(s->pending, s->pending + rc, s->n_pending * sizeof(*s->pending));
			continue;
		}
		if (rc == -EAGAIN || rc == -EINTR || rc == 0)
			return 0;
		if (rc == -EBADF || rc == -EINVAL || rc == -EFAULT || rc == -EOPNOTSUPP) {
			struct iorig_io *io = s->pending[0]->data;

			io->result = rc;
			s->failed[s->n_failed++] = io;
			s->n_pending--;
			memmove(s->pending, s->pending + 1, s->n_pending * sizeof(*s->pending));
			continue;
		}
		s->fd.host->set_error(s->fd.job, rc, "libaio: io_submit of %u I/Os failed: %s",
			s->n_pending, strerror(-rc));
		return rc;
	}
	return 0;
}

static void aio_complete(struct aio_state *s, const struct io_event *ev, struct iorig_io **slot)
{
	struct iorig_io *io = ev->data;
	long res = (long)ev->res;

	/* res carries bytes or -errno; a non-zero res2 is a secondary error. */
	if (res < 0)
		io->result = res;
	else if (ev->res2 != 0)
		io->result = -EIO;
	else
		io->result = res;
	if (io->result < 0)
		fd_file_io_error(&s->fd, io, (int)io->result);
	*slot = io;
}

/* Take up to max events from the ring without entering the kernel. */
static unsigned aio_reap_ring(struct aio_state *s, unsigned max, struct iorig_io **done)
{
	struct aio_ring *r = s->ring;
	unsigned head = r->head, n = 0;
	unsigned tail = __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	while (n < max && head != tail) {
		aio_complete(s, &r->io_events[head], &done[n++]);
		head = head + 1 == r->nr ? 0 : head + 1;
	}
	if (n)
		__atomic_store_n(&r->head, head, __ATOMIC_RELEASE);
	return n;
}

static int aio_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		    struct iorig_io **done)
{
	struct aio_state *s = state;
	struct timespec ts, *tsp = NULL;
	unsigned n = 0;

	if (max > s->depth)
		max = s->depth;
	if (min > max)
		min = max;
	/*
	 * iocbs a full context (EAGAIN) left pending would never complete if
	 * we waited without submitting them: try again now that the core reaps.
	 */
	if (s->n_pending) {
		int rc = aio_commit(s);

		if (rc < 0)
			return rc;
	}
	/* I/O io_submit refused completes first: it never reached the kernel. */
	while (s->n_failed && n < max) {
		done[n++] = s->failed[--s->n_failed];
		fd_file_io_error(&s->fd, done[n - 1], (int)done[n - 1]->result);
	}
	if (s->ring) {
		n += aio_reap_ring(s, max - n, done + n);
		if (n >= min)
			return (int)n;
	}
	if (timeout_ns != UINT64_MAX) {
		ts.tv_sec = (time_t)(timeout_ns / 1000000000u);
		ts.tv_nsec = (long)(timeout_ns % 1000000000u);
		tsp = &ts;
	}
	for (;;) {
		unsigned want = min > n ? min - n : 0;
		int rc;

		if (n == max)
			return (int)n;
		rc = io_getevents(s->ctx, (long)want, (long)(max - n), s->events, tsp);
		if (rc == -EINTR)
			continue;
		if (rc < 0) {
			s->fd.host->set_error(s->fd.job, rc, "libaio: io_getevents failed: %s",
				strerror(-rc));
			return rc;
		}
		for (int i = 0; i < rc; i++)
			aio_complete(s, &s->events[i], &done[n + (unsigned)i]);
		return (int)(n + (unsigned)rc);
	}
}

static const struct iorig_engine aio_engine = {
	IORIG_ENGINE_HEADER,
	.name = "libaio",
	.version = "1.0",
	.description = "Linux native AIO (io_submit/io_getevents); async only with direct=1",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_BLOCKDEV,
	.options = aio_options,
	.options_size = sizeof(struct aio_opts),
	.io_priv_size = sizeof(struct iocb),
	.init = aio_init,
	.cleanup = aio_cleanup,
	.open_file = fd_file_op_open,
	.close_file = fd_file_op_close,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.fsync = fd_file_op_fsync,
	.invalidate = fd_file_op_invalidate,
	.get_size = fd_file_op_get_size,
};

IORIG_ENGINE_DEFINE(aio_engine)
