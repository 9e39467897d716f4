/*
 * null: an engine that does no I/O.  Every I/O "completes" with all its
 * bytes, so a run measures the framework's own cost per I/O.  With
 * iodepth 1 queue() completes at once; deeper, it queues into a ring that
 * reap() drains, exercising the core's async path.  Kept as cheap as an
 * engine can be: no syscalls, no allocation after init.
 */
#include <errno.h>
#include <stdlib.h>

#include <iorig/engine.h>

struct null_state {
	struct iorig_io **ring; /* NULL at iodepth 1 */
	unsigned size;          /* ring slots: nr_ios */
	unsigned head;          /* oldest queued */
	unsigned count;         /* queued, not yet reaped */
};

static int null_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct null_state *s = calloc(1, sizeof(*s));

	(void)opts;
	if (!s)
		return -ENOMEM;
	if (job->nr_ios > 1) {
		s->ring = calloc(job->nr_ios, sizeof(*s->ring));
		if (!s->ring) {
			free(s);
			return -ENOMEM;
		}
		s->size = job->nr_ios;
	}
	*state = s;
	return 0;
}

static void null_cleanup(void *state)
{
	struct null_state *s = state;

	if (s)
		free(s->ring);
	free(s);
}

static int null_queue(void *state, struct iorig_io *io)
{
	struct null_state *s = state;
	unsigned slot;

	io->result = (int64_t)io->len;
	if (!s->ring)
		return IORIG_Q_COMPLETED;
	if (s->count == s->size)
		return IORIG_Q_BUSY;
	slot = s->head + s->count;
	if (slot >= s->size)
		slot -= s->size;
	s->ring[slot] = io;
	s->count++;
	return IORIG_Q_QUEUED;
}

/* Everything queued is already done, so min never makes us wait. */
static int null_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		     struct iorig_io **done)
{
	struct null_state *s = state;
	unsigned n = s->count < max ? s->count : max;

	(void)min;
	(void)timeout_ns;
	for (unsigned i = 0; i < n; i++) {
		done[i] = s->ring[s->head];
		if (++s->head == s->size)
			s->head = 0;
	}
	s->count -= n;
	return (int)n;
}

static int null_fsync(void *state, struct iorig_file *f, int datasync)
{
	(void)state;
	(void)f;
	(void)datasync;
	return 0;
}

static const struct iorig_engine null_engine = {
	IORIG_ENGINE_HEADER,
	.name = "null",
	.version = "1.0",
	.description = "no I/O: every I/O completes at once (measures iorig's overhead)",
	.caps = IORIG_CAP_DISKLESS | IORIG_CAP_ASYNC | IORIG_CAP_DIRECT |
		IORIG_CAP_FSYNC | IORIG_CAP_TRIM,
	.init = null_init,
	.cleanup = null_cleanup,
	.queue = null_queue,
	.reap = null_reap,
	.fsync = null_fsync,
};

IORIG_ENGINE_DEFINE(null_engine)
