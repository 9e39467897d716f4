/*
 * rados engine: object I/O on a Ceph pool through librados.  Diskless: a
 * job file is a run of objects, "<prefix>.<index, 16 hex digits>", each
 * object_size bytes of the file; an I/O goes to the one object it falls in
 * (rados_aio_write_full when it covers the object, else rados_aio_write;
 * rados_aio_read; trims remove or zero).
 *
 * Completions: librados calls our callback on one of its own threads.  The
 * callback hands the I/O to the worker through a lock-free multi-producer,
 * single-consumer ring (one fetch_add and one release store; capacity is a
 * power of two >= iodepth, and at most iodepth I/Os are ever outstanding,
 * so a producer never finds its slot still occupied) and writes the eventfd
 * only when the worker said it is about to sleep (a Dekker-style flag with
 * seq_cst fences on both sides, so no wake-up is lost).  A busy worker thus
 * costs the librados thread no syscall and takes no mutex of ours.
 * busy_poll=1 never sleeps.  librados allocates one completion per request:
 * its C API cannot reuse them.
 *
 * Objects are sparse like a file: a read past an object's end returns
 * zeros.  A read of an object that does not exist fails with ENOENT unless
 * touch_objects=1 created the objects first.  Connection: ceph_conn.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rados/librados.h>

#include <iorig/engine.h>

#include "ceph_conn.h"

#define OID_LEN 256
#define PREFIX_LEN (OID_LEN - 18) /* ".%016llx" and the NUL */
#define BULK_WINDOW 32            /* touch/remove requests in flight */

struct rados_opts {
	struct ceph_conn_opts conn;
	const char *object_prefix;
	uint64_t object_size;
	int touch_objects;
	int remove_objects;
	int busy_poll;
};

static const struct iorig_option rados_options[] = {
	CEPH_CONN_OPTIONS(struct rados_opts, conn),
	{ "pool", IORIG_OPT_STRING, offsetof(struct rados_opts, conn.pool), NULL, 0, 0, NULL,
	  "pool to write the objects to (required)" },
	{ "namespace", IORIG_OPT_STRING, offsetof(struct rados_opts, conn.nspace), NULL, 0, 0,
	  NULL, "RADOS namespace inside the pool; default: none" },
	{ "object_prefix", IORIG_OPT_STRING, offsetof(struct rados_opts, object_prefix), NULL,
	  0, 0, NULL, "object names start with this, %j = job instance; "
	  "default: filename=, else the job name" },
	{ "object_size", IORIG_OPT_SIZE, offsetof(struct rados_opts, object_size), "4m", 512,
	  1ll << 30, NULL, "bytes of the job's file per object; bs must not exceed it" },
	{ "touch_objects", IORIG_OPT_BOOL, offsetof(struct rados_opts, touch_objects), "1", 0,
	  0, NULL, "create the objects of the first size= bytes before the run (so reads "
	  "of objects not written yet return zeros, not ENOENT)" },
	{ "remove_objects", IORIG_OPT_BOOL, offsetof(struct rados_opts, remove_objects), "0", 0,
	  0, NULL, "remove the job's objects at the end" },
	{ "busy_poll", IORIG_OPT_BOOL, offsetof(struct rados_opts, busy_poll), "0", 0, 0, NULL,
	  "spin for completions instead of sleeping on an eventfd (uses a CPU per job)" },
	CEPH_TIMEOUT_OPTIONS(struct rados_opts, conn),
	IORIG_OPTION_END
};

struct rados_state;

/* io->priv */
struct rio {
	struct rados_state *s;
	rados_completion_t c;
	rados_write_op_t op;  /* a partial trim's zero op, else NULL */
	char oid[OID_LEN];
};

struct rfile {
	char prefix[PREFIX_LEN];
	uint64_t lo, hi;      /* byte range the job's I/O touched */
	uint64_t size;        /* the job's file size, from open_file */
	int open;             /* opened, not yet closed */
};

struct rados_state {
	const struct iorig_host *host;
	struct iorig_job_handle *job;
	struct ceph_conn conn;
	uint64_t osize;
	int busy_poll, touch, remove;
	uint32_t nr_files;
	struct rfile *files;
	uint32_t inflight;
	int efd;
	/* The completion ring: librados threads produce, the worker consumes. */
	_Atomic(struct iorig_io *) *ring;
	uint32_t mask;
	atomic_uint tail;
	uint32_t head;
	atomic_int sleeping;
};

static const char *ddir_name(uint32_t ddir)
{
	return ddir == IORIG_DDIR_WRITE ? "write" : ddir == IORIG_DDIR_READ ? "read" : "trim";
}

static void oid_of(char *oid, const struct rfile *rf, uint64_t index)
{
	snprintf(oid, OID_LEN, "%s.%016llx", rf->prefix, (unsigned long long)index);
}

/* librados thread: hand the I/O over, wake the worker only if it sleeps. */
static void rados_done_cb(rados_completion_t c, void *arg)
{
	struct iorig_io *io = arg;
	struct rados_state *s = ((struct rio *)io->priv)->s;
	unsigned pos = atomic_fetch_add_explicit(&s->tail, 1, memory_order_relaxed);

	(void)c;
	atomic_store_explicit(&s->ring[pos & s->mask], io, memory_order_release);
	atomic_thread_fence(memory_order_seq_cst);
	if (atomic_load_explicit(&s->sleeping, memory_order_relaxed)) {
		uint64_t one = 1;

		if (write(s->efd, &one, sizeof(one)) < 0) {
			/* EAGAIN: the counter is full of wake-ups already. */
		}
	}
}

static struct iorig_io *ring_pop(struct rados_state *s)
{
	_Atomic(struct iorig_io *) *slot = &s->ring[s->head & s->mask];
	struct iorig_io *io = atomic_load_explicit(slot, memory_order_acquire);

	if (io) {
		atomic_store_explicit(slot, NULL, memory_order_relaxed);
		s->head++;
	}
	return io;
}

static void io_failed(struct rados_state *s, struct iorig_io *io, int err)
{
	const struct rio *r = io->priv;
	const char *hint = err == -ENOENT && io->ddir == IORIG_DDIR_READ
		? " (the object was never written: write the region first or set touch_objects=1)"
		: ceph_io_hint(err);

	s->host->set_error(s->job, err, "rados: %s of %llu bytes at offset %llu of %s (object "
			   "'%s' in %s) failed: %s%s", ddir_name(io->ddir),
			   (unsigned long long)io->len, (unsigned long long)io->offset,
			   io->file->path, r->oid, s->conn.where, strerror(-err), hint);
}

/* Result of a finished request; frees what librados allocated for it. */
static void finish(struct rados_state *s, struct iorig_io *io)
{
	struct rio *r = io->priv;
	int rc = rados_aio_get_return_value(r->c);

	rados_aio_release(r->c);
	r->c = NULL;
	if (r->op) {
		rados_release_write_op(r->op);
		r->op = NULL;
	}
	s->inflight--;
	if (rc == -ENOENT && io->ddir == IORIG_DDIR_TRIM)
		rc = 0; /* removing what is not there: the range reads as zeros */
	if (rc < 0) {
		io->result = rc;
		io_failed(s, io, rc);
	} else if (io->ddir == IORIG_DDIR_READ) {
		/* Objects are sparse: past the object's end reads zeros. */
		if ((uint64_t)rc < io->len)
			memset((char *)io->buf + rc, 0, io->len - (uint64_t)rc);
		io->result = (int64_t)io->len;
	} else {
		io->result = (int64_t)io->len;
	}
}

/*
 * Touch or remove objects [first, first + count) of rf, BULK_WINDOW at a
 * time (before or after the run: not measured).  Returns the first error.
 */
static int bulk(struct rados_state *s, const struct rfile *rf, uint64_t first, uint64_t count,
		int touch)
{
	rados_completion_t win[BULK_WINDOW];
	rados_write_op_t ops[BULK_WINDOW];
	char oid[OID_LEN];
	int err = 0;

	for (uint64_t i = 0; i < count + BULK_WINDOW; i++) {
		unsigned slot = (unsigned)(i % BULK_WINDOW);
		int rc;

		if (i >= BULK_WINDOW && i - BULK_WINDOW < count) {
			rados_aio_wait_for_complete(win[slot]);
			rc = rados_aio_get_return_value(win[slot]);
			rados_aio_release(win[slot]);
			if (ops[slot])
				rados_release_write_op(ops[slot]);
			if (rc < 0 && !(rc == -ENOENT && !touch) && !err) {
				err = rc;
				oid_of(oid, rf, first + i - BULK_WINDOW);
				s->host->set_error(s->job, rc, "rados: cannot %s object '%s' in %s: %s%s",
						   touch ? "create" : "remove", oid, s->conn.where,
						   strerror(-rc), ceph_io_hint(rc));
			}
		}
		if (i >= count)
			continue;
		if (err) {
			count = i; /* stop issuing; drain what is in flight */
			continue;
		}
		oid_of(oid, rf, first + i);
		ops[slot] = NULL;
		rc = rados_aio_create_completion2(NULL, NULL, &win[slot]);
		if (rc == 0 && touch) {
			ops[slot] = rados_create_write_op();
			if (!ops[slot])
				rc = -ENOMEM;
			else {
				rados_write_op_create(ops[slot], LIBRADOS_CREATE_IDEMPOTENT, NULL);
				rc = rados_aio_write_op_operate(ops[slot], s->conn.ioctx, win[slot],
								oid, NULL, 0);
			}
		} else if (rc == 0) {
			rc = rados_aio_remove(s->conn.ioctx, oid, win[slot]);
		}
		if (rc < 0) {
			if (ops[slot])
				rados_release_write_op(ops[slot]);
			rados_aio_release(win[slot]);
			s->host->set_error(s->job, rc, "rados: cannot %s object '%s' in %s: %s",
					   touch ? "create" : "remove", oid, s->conn.where,
					   strerror(-rc));
			err = rc;
			count = i;
		}
	}
	return err;
}

static int close_rfile(struct rados_state *s, struct rfile *rf);

static void rados_cleanup(void *state)
{
	struct rados_state *s = state;

	if (!s)
		return;
	/* A file the caller never closed still gets remove_objects. */
	for (uint32_t i = 0; s->files && s->conn.ioctx && i < s->nr_files; i++)
		close_rfile(s, &s->files[i]);
	ceph_conn_close(&s->conn);
	if (s->efd >= 0)
		close(s->efd);
	free(s->files);
	free((void *)s->ring);
	free(s);
}

static int name_files(struct rados_state *s, const struct iorig_job_info *job,
		      const struct rados_opts *o)
{
	for (uint32_t i = 0; i < s->nr_files; i++) {
		struct rfile *rf = &s->files[i];
		const char *name = o->object_prefix && *o->object_prefix ? o->object_prefix
									: job->files[i]->path;
		int rc = ceph_expand_name(name, job->instance, rf->prefix, sizeof(rf->prefix));
		size_t n = strlen(rf->prefix);

		/* One object_prefix, several files: one run of objects per file. */
		if (!rc && o->object_prefix && *o->object_prefix && s->nr_files > 1 &&
		    snprintf(rf->prefix + n, sizeof(rf->prefix) - n, ".%u", i) >=
			    (int)(sizeof(rf->prefix) - n))
			rc = -ENAMETOOLONG;
		if (rc || !rf->prefix[0]) {
			s->host->set_error(s->job, rc ? rc : -EINVAL, "rados: object name prefix "
					   "'%s' is empty or longer than %d bytes", name,
					   PREFIX_LEN - 1);
			return rc ? rc : -EINVAL;
		}
		rf->lo = UINT64_MAX;
	}
	return 0;
}

static int rados_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	const struct rados_opts *o = opts;
	struct rados_state *s = calloc(1, sizeof(*s));
	uint32_t depth = job->iodepth ? job->iodepth : 1, cap = 1;
	struct ceph_conn_params p;
	char target[300];
	int rc;

	if (!s)
		return -ENOMEM;
	s->host = job->host;
	s->job = job->handle;
	s->efd = -1;
	s->osize = o->object_size;
	s->busy_poll = o->busy_poll;
	s->touch = o->touch_objects;
	s->remove = o->remove_objects;
	s->nr_files = job->nr_files;
	while (cap < depth)
		cap <<= 1;
	s->mask = cap - 1;
	s->ring = calloc(cap, sizeof(*s->ring));
	s->files = calloc(s->nr_files ? s->nr_files : 1, sizeof(*s->files));
	if (!s->ring || !s->files) {
		rados_cleanup(s);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < cap; i++)
		atomic_init(&s->ring[i], NULL);
	atomic_init(&s->tail, 0);
	atomic_init(&s->sleeping, 0);
	if (job->max_bs > s->osize) {
		s->host->set_error(s->job, -EINVAL, "rados: bs up to %llu does not fit in one "
				   "object of object_size=%llu; raise object_size or lower bs",
				   (unsigned long long)job->max_bs, (unsigned long long)s->osize);
		rados_cleanup(s);
		return -EINVAL;
	}
	rc = name_files(s, job, o);
	if (rc) {
		rados_cleanup(s);
		return rc;
	}
	s->efd = ceph_eventfd_open("rados", s->host, s->job);
	if (s->efd < 0) {
		rc = s->efd;
		rados_cleanup(s);
		return rc;
	}
	for (uint32_t i = 0; i < job->nr_ios; i++)
		((struct rio *)job->ios[i]->priv)->s = s;
	snprintf(target, sizeof(target), "objects '%s.*'", s->nr_files ? s->files[0].prefix : "");
	p = (struct ceph_conn_params){ .engine = "rados", .opts = &o->conn, .target = target };
	rc = ceph_conn_open(&s->conn, &p, s->host, s->job);
	if (rc) {
		rados_cleanup(s);
		return rc;
	}
	*state = s;
	return 0;
}

static int rados_open_file(void *state, struct iorig_file *f)
{
	struct rados_state *s = state;
	struct rfile *rf = &s->files[f->index];

	f->engine_file = rf;
	rf->size = f->size;
	rf->open = 1;
	if (!s->touch || !f->size)
		return 0;
	return bulk(s, rf, 0, (f->size + s->osize - 1) / s->osize, 1);
}

static int close_rfile(struct rados_state *s, struct rfile *rf)
{
	uint64_t lo = UINT64_MAX, hi = 0, first;

	if (!rf->open)
		return 0;
	rf->open = 0;
	if (!s->remove)
		return 0;
	/* Whatever the job may have created: touched objects and written ones. */
	if (s->touch) {
		lo = 0;
		hi = rf->size;
	}
	if (rf->lo != UINT64_MAX) {
		lo = rf->lo < lo ? rf->lo : lo;
		hi = rf->hi > hi ? rf->hi : hi;
	}
	if (hi <= lo)
		return 0;
	first = lo / s->osize;
	return bulk(s, rf, first, (hi + s->osize - 1) / s->osize - first, 0);
}

static int rados_close_file(void *state, struct iorig_file *f)
{
	struct rados_state *s = state;

	f->engine_file = NULL;
	return close_rfile(s, &s->files[f->index]);
}

static int rados_queue(void *state, struct iorig_io *io)
{
	struct rados_state *s = state;
	struct rio *r = io->priv;
	struct rfile *rf = io->file->engine_file;
	uint64_t index = io->offset / s->osize, off = io->offset % s->osize;
	int rc;

	if (off + io->len > s->osize) {
		snprintf(r->oid, sizeof(r->oid), "(crosses objects %llu and %llu)",
			 (unsigned long long)index, (unsigned long long)index + 1);
		io->result = -EINVAL;
		s->host->set_error(s->job, -EINVAL, "rados: %s of %llu bytes at offset %llu crosses "
				   "an object boundary (object_size=%llu); use a bs and offset that "
				   "divide object_size", ddir_name(io->ddir),
				   (unsigned long long)io->len, (unsigned long long)io->offset,
				   (unsigned long long)s->osize);
		return IORIG_Q_COMPLETED;
	}
	if (io->offset < rf->lo)
		rf->lo = io->offset;
	if (io->offset + io->len > rf->hi)
		rf->hi = io->offset + io->len;
	oid_of(r->oid, rf, index);
	rc = rados_aio_create_completion2(io, rados_done_cb, &r->c);
	if (rc < 0)
		goto fail;
	switch (io->ddir) {
	case IORIG_DDIR_READ:
		rc = rados_aio_read(s->conn.ioctx, r->oid, r->c, io->buf, io->len, off);
		break;
	case IORIG_DDIR_WRITE:
		if (off == 0 && io->len == s->osize)
			rc = rados_aio_write_full(s->conn.ioctx, r->oid, r->c, io->buf, io->len);
		else
			rc = rados_aio_write(s->conn.ioctx, r->oid, r->c, io->buf, io->len, off);
		break;
	default:
		if (off == 0 && io->len == s->osize) {
			rc = rados_aio_remove(s->conn.ioctx, r->oid, r->c);
			break;
		}
		r->op = rados_create_write_op();
		if (!r->op) {
			rc = -ENOMEM;
			break;
		}
		rados_write_op_zero(r->op, off, io->len);
		rc = rados_aio_write_op_operate(r->op, s->conn.ioctx, r->c, r->oid, NULL, 0);
	}
	if (rc < 0) {
		if (r->op)
			rados_release_write_op(r->op);
		r->op = NULL;
		rados_aio_release(r->c);
		r->c = NULL;
		goto fail;
	}
	s->inflight++;
	return IORIG_Q_QUEUED;
fail:
	io->result = rc;
	io_failed(s, io, rc);
	return IORIG_Q_COMPLETED;
}

static int rados_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		      struct iorig_io **done)
{
	struct rados_state *s = state;
	uint64_t deadline = 0;
	unsigned n = 0;

	for (;;) {
		struct iorig_io *io;
		uint64_t now;

		while (n < max && (io = ring_pop(s))) {
			finish(s, io);
			done[n++] = io;
		}
		if (n >= min || n == max || !timeout_ns || !s->inflight)
			return (int)n;
		now = s->host->now_ns();
		if (!ceph_reap_time_left(now, timeout_ns, &deadline))
			return (int)n;
		if (s->busy_poll)
			continue;
		/* Say we sleep, then look once more: a callback either sees the
		 * flag and writes the eventfd, or we see its I/O here. */
		atomic_store_explicit(&s->sleeping, 1, memory_order_relaxed);
		atomic_thread_fence(memory_order_seq_cst);
		if (!atomic_load_explicit(&s->ring[s->head & s->mask], memory_order_relaxed))
			ceph_eventfd_wait(s->efd, deadline - now);
		atomic_store_explicit(&s->sleeping, 0, memory_order_relaxed);
	}
}

static const struct iorig_engine rados_engine = {
	IORIG_ENGINE_HEADER,
	.name = "rados",
	.version = "1.0",
	.description = "Ceph RADOS objects through librados (async rados_aio_*, lock-free "
		       "completion handoff)",
	/* No cache in librados: every I/O reaches an OSD, direct=1 or not. */
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DISKLESS | IORIG_CAP_DIRECT | IORIG_CAP_TRIM,
	.options = rados_options,
	.options_size = sizeof(struct rados_opts),
	.io_priv_size = sizeof(struct rio),
	.init = rados_init,
	.cleanup = rados_cleanup,
	.open_file = rados_open_file,
	.close_file = rados_close_file,
	.queue = rados_queue,
	.reap = rados_reap,
};

IORIG_ENGINE_DEFINE(rados_engine)
