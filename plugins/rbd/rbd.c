/*
 * rbd engine: I/O on Ceph RBD images through librbd, one image per job
 * file (rbdname=, which may hold %j for per-instance images).
 *
 * queue() starts rbd_aio_read/write/discard and returns QUEUED.  Completions
 * come back without a thread hop per I/O: every image is told to report
 * finished requests through one eventfd (rbd_set_image_notification), and
 * librbd pushes each finished completion onto its own lock-free queue that
 * rbd_poll_io_events() pops from the worker thread.  reap() sleeps in
 * poll() on the eventfd only when not enough has finished (busy_poll=1 spins
 * instead).  librbd allocates a completion per request (its C API has no
 * reusable completions); the engine itself allocates nothing per I/O.
 *
 * Connection, conf and timeouts: ../rados/ceph_conn.c.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rbd/librbd.h>

#include <iorig/engine.h>

#include "ceph_conn.h"

#define FLUSH_WAIT_NS 200000000ull

struct rbd_opts {
	struct ceph_conn_opts conn;
	const char *rbdname;
	int busy_poll;
	int create_image;
	int remove_image;
};

static const struct iorig_option rbd_options[] = {
	CEPH_CONN_OPTIONS(struct rbd_opts, conn),
	{ "pool", IORIG_OPT_STRING, offsetof(struct rbd_opts, conn.pool), "rbd", 0, 0, NULL,
	  "pool holding the image" },
	{ "namespace", IORIG_OPT_STRING, offsetof(struct rbd_opts, conn.nspace), NULL, 0, 0, NULL,
	  "RADOS namespace of the image inside the pool; default: none" },
	{ "rbdname", IORIG_OPT_STRING, offsetof(struct rbd_opts, rbdname), NULL, 0, 0, NULL,
	  "image name, %j = job instance (numjobs); default: filename=, else the job name" },
	{ "busy_poll", IORIG_OPT_BOOL, offsetof(struct rbd_opts, busy_poll), "0", 0, 0, NULL,
	  "spin for completions instead of sleeping on an eventfd (uses a CPU per job)" },
	{ "create_image", IORIG_OPT_BOOL, offsetof(struct rbd_opts, create_image), "0", 0, 0,
	  NULL, "create a missing image of size= bytes (layering feature only)" },
	{ "remove_image", IORIG_OPT_BOOL, offsetof(struct rbd_opts, remove_image), "0", 0, 0,
	  NULL, "remove the image at the end when this job created it (create_image=1)" },
	CEPH_TIMEOUT_OPTIONS(struct rbd_opts, conn),
	IORIG_OPTION_END
};

struct rbd_img {
	rbd_image_t image;
	char name[256];   /* image name, %j expanded */
	char spec[640];   /* pool[/namespace]/name, for messages */
	uint64_t size;
	int created;      /* this job created it: remove_image may remove it */
};

struct rbd_state {
	const struct iorig_host *host;
	struct iorig_job_handle *job;
	struct ceph_conn conn;
	int busy_poll, create_image, remove_image, read_only;
	int efd;
	uint32_t depth;
	uint32_t nr_imgs;
	uint32_t next_img;     /* where collect() starts, for fairness */
	struct rbd_img *imgs;
	rbd_completion_t *comps; /* depth + 1: every I/O plus one flush */
	/* I/O finished but not yet handed to the core: a FIFO of depth. */
	struct iorig_io **ready;
	uint32_t ready_head, n_ready;
	uint32_t inflight;     /* in librbd */
	int flush_marker;      /* its address tags the flush completion */
	int flush_done;
	ssize_t flush_rc;
};

static const char *ddir_name(uint32_t ddir)
{
	return ddir == IORIG_DDIR_WRITE ? "write" : ddir == IORIG_DDIR_READ ? "read" : "discard";
}

static void ready_push(struct rbd_state *s, struct iorig_io *io)
{
	s->ready[(s->ready_head + s->n_ready) % s->depth] = io;
	s->n_ready++;
}

static struct iorig_io *ready_pop(struct rbd_state *s)
{
	struct iorig_io *io = s->ready[s->ready_head];

	s->ready_head = (s->ready_head + 1) % s->depth;
	s->n_ready--;
	return io;
}

static void io_failed(struct rbd_state *s, struct iorig_io *io, int err)
{
	const struct rbd_img *img = io->file->engine_file;

	s->host->set_error(s->job, err, "rbd: %s of %llu bytes at offset %llu of image '%s' "
			   "(cluster '%s') failed: %s%s", ddir_name(io->ddir),
			   (unsigned long long)io->len, (unsigned long long)io->offset,
			   img->spec, s->conn.cluster_name, strerror(-err), ceph_io_hint(err));
}

/* Take what librbd finished, from every image, into the ready FIFO. */
static void collect(struct rbd_state *s)
{
	for (uint32_t k = 0; k < s->nr_imgs; k++) {
		struct rbd_img *img = &s->imgs[(s->next_img + k) % s->nr_imgs];
		/* Room for every I/O that can still come back, plus a flush. */
		int room = (int)(s->depth - s->n_ready) + 1;
		int got;

		if (!img->image)
			continue;
		got = rbd_poll_io_events(img->image, s->comps, room);
		for (int i = 0; i < got; i++) {
			void *arg = rbd_aio_get_arg(s->comps[i]);
			ssize_t r = rbd_aio_get_return_value(s->comps[i]);
			struct iorig_io *io = arg;

			rbd_aio_release(s->comps[i]);
			if (arg == &s->flush_marker) {
				s->flush_done = 1;
				s->flush_rc = r;
				continue;
			}
			if (r < 0) {
				io->result = r;
				io_failed(s, io, (int)r);
			} else {
				/* Reads return bytes read; writes and discards 0 or len. */
				io->result = io->ddir == IORIG_DDIR_READ ? r : (int64_t)io->len;
			}
			s->inflight--;
			ready_push(s, io);
		}
	}
	if (++s->next_img >= s->nr_imgs)
		s->next_img = 0;
}

static void close_image(struct rbd_state *s, struct rbd_img *img)
{
	int rc;

	if (img->image) {
		/* Completions librbd still queued for us: release them. */
		int got;

		while ((got = rbd_poll_io_events(img->image, s->comps, (int)s->depth + 1)) > 0)
			for (int i = 0; i < got; i++)
				rbd_aio_release(s->comps[i]);
		rc = rbd_close(img->image);
		if (rc < 0)
			s->host->log(s->job, IORIG_LOG_WARN, "rbd: closing image '%s' failed: %s",
				     img->spec, strerror(-rc));
		img->image = NULL;
	}
	if (img->created && s->remove_image) {
		img->created = 0;
		rc = rbd_remove(s->conn.ioctx, img->name);
		if (rc == -EBUSY)
			s->host->log(s->job, IORIG_LOG_WARN,
				"rbd: image '%s' not removed: another client still has it open "
				"(job instances sharing one image? use %%j in rbdname)", img->spec);
		else if (rc < 0 && rc != -ENOENT)
			s->host->log(s->job, IORIG_LOG_WARN, "rbd: cannot remove image '%s': %s",
				     img->spec, strerror(-rc));
	}
}

static void rbd_cleanup(void *state)
{
	struct rbd_state *s = state;

	if (!s)
		return;
	for (uint32_t i = 0; s->imgs && i < s->nr_imgs; i++)
		close_image(s, &s->imgs[i]);
	ceph_conn_close(&s->conn);
	if (s->efd >= 0)
		close(s->efd);
	free(s->imgs);
	free(s->comps);
	free(s->ready);
	free(s);
}

static int name_images(struct rbd_state *s, const struct iorig_job_info *job,
		       const struct rbd_opts *o)
{
	if (o->rbdname && *o->rbdname && job->nr_files > 1) {
		s->host->set_error(s->job, -EINVAL, "rbd: rbdname names one image but the job has "
				   "%u files; name the images with filename=a:b instead",
				   job->nr_files);
		return -EINVAL;
	}
	for (uint32_t i = 0; i < s->nr_imgs; i++) {
		struct rbd_img *img = &s->imgs[i];
		const char *name = o->rbdname && *o->rbdname ? o->rbdname : job->files[i]->path;
		int rc = ceph_expand_name(name, job->instance, img->name, sizeof(img->name));

		if (rc || !img->name[0]) {
			s->host->set_error(s->job, rc ? rc : -EINVAL,
					   "rbd: image name '%s' is empty or too long", name);
			return rc ? rc : -EINVAL;
		}
		snprintf(img->spec, sizeof(img->spec), "%s/%s%s%s",
			 o->conn.pool ? o->conn.pool : "",
			 o->conn.nspace && *o->conn.nspace ? o->conn.nspace : "",
			 o->conn.nspace && *o->conn.nspace ? "/" : "", img->name);
	}
	return 0;
}

static int rbd_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	const struct rbd_opts *o = opts;
	static const char *const no_cache[] = { "rbd_cache", "false", NULL };
	struct rbd_state *s = calloc(1, sizeof(*s));
	struct ceph_conn_params p;
	char target[700];
	int rc;

	if (!s)
		return -ENOMEM;
	s->host = job->host;
	s->job = job->handle;
	s->efd = -1;
	s->depth = job->iodepth ? job->iodepth : 1;
	s->nr_imgs = job->nr_files;
	s->busy_poll = o->busy_poll;
	s->create_image = o->create_image;
	s->remove_image = o->remove_image;
	s->read_only = !(job->flags & (IORIG_JOB_WRITES | IORIG_JOB_TRIMS));
	s->imgs = calloc(s->nr_imgs ? s->nr_imgs : 1, sizeof(*s->imgs));
	s->comps = calloc(s->depth + 1, sizeof(*s->comps));
	s->ready = calloc(s->depth, sizeof(*s->ready));
	if (!s->imgs || !s->comps || !s->ready) {
		rbd_cleanup(s);
		return -ENOMEM;
	}
	rc = name_images(s, job, o);
	if (rc) {
		rbd_cleanup(s);
		return rc;
	}
	if (s->remove_image && !s->create_image)
		s->host->log(s->job, IORIG_LOG_WARN, "rbd: remove_image=1 without create_image=1 "
			     "removes nothing: only images this job created are removed");
	s->efd = ceph_eventfd_open("rbd", s->host, s->job);
	if (s->efd < 0) {
		rc = s->efd;
		rbd_cleanup(s);
		return rc;
	}
	snprintf(target, sizeof(target), "image '%s'%s", s->nr_imgs ? s->imgs[0].spec : "",
		 s->nr_imgs > 1 ? " and others" : "");
	p = (struct ceph_conn_params){
		.engine = "rbd",
		.opts = &o->conn,
		.target = target,
		/* direct=1: no librbd cache between the job and the OSDs. */
		.extra = (job->flags & IORIG_JOB_DIRECT) ? no_cache : NULL,
	};
	rc = ceph_conn_open(&s->conn, &p, s->host, s->job);
	if (rc) {
		rbd_cleanup(s);
		return rc;
	}
	*state = s;
	return 0;
}

static void missing_image(struct rbd_state *s, const struct rbd_img *img)
{
	s->host->set_error(s->job, -ENOENT,
		"rbd: image '%s' does not exist in %s; create it (rbd create --size 1G "
		"--image-feature layering %s) or set create_image=1 with size=",
		img->spec, s->conn.where, img->spec);
}

/* Open img (once); -ENOENT without a message when it does not exist. */
static int open_image(struct rbd_state *s, struct rbd_img *img)
{
	int rc;

	if (img->image)
		return 0;
	rc = s->read_only ? rbd_open_read_only(s->conn.ioctx, img->name, &img->image, NULL)
			  : rbd_open(s->conn.ioctx, img->name, &img->image, NULL);
	if (rc == -ENOENT) {
		img->image = NULL;
		return rc;
	}
	if (rc < 0) {
		img->image = NULL;
		s->host->set_error(s->job, rc, "rbd: cannot open image '%s' in %s: %s%s",
				   img->spec, s->conn.where, strerror(-rc), ceph_io_hint(rc));
		return rc;
	}
	rc = rbd_get_size(img->image, &img->size);
	if (rc == 0)
		rc = rbd_set_image_notification(img->image, s->efd, EVENT_TYPE_EVENTFD);
	if (rc < 0) {
		s->host->set_error(s->job, rc, "rbd: cannot set up image '%s' in %s: %s",
				   img->spec, s->conn.where, strerror(-rc));
		rbd_close(img->image);
		img->image = NULL;
	}
	return rc;
}

static int rbd_get_size_op(void *state, struct iorig_file *f, uint64_t *size)
{
	struct rbd_state *s = state;
	struct rbd_img *img = &s->imgs[f->index];
	int rc = open_image(s, img);

	if (rc == -ENOENT) {
		if (s->create_image)
			s->host->set_error(s->job, rc, "rbd: image '%s' does not exist and "
					   "create_image=1 needs size= to create it", img->spec);
		else
			missing_image(s, img);
	}
	if (rc)
		return rc;
	*size = img->size;
	return 0;
}

static int rbd_open_file(void *state, struct iorig_file *f)
{
	struct rbd_state *s = state;
	struct rbd_img *img = &s->imgs[f->index];
	int rc = open_image(s, img);

	if (rc == -ENOENT && s->create_image) {
		int order = 0;

		rc = rbd_create2(s->conn.ioctx, img->name, f->size, RBD_FEATURE_LAYERING, &order);
		if (rc == 0)
			img->created = 1;
		else if (rc != -EEXIST) { /* EEXIST: another instance was first */
			s->host->set_error(s->job, rc, "rbd: cannot create image '%s' (%llu bytes) "
					   "in %s: %s%s", img->spec, (unsigned long long)f->size,
					   s->conn.where, strerror(-rc), ceph_io_hint(rc));
			return rc;
		}
		rc = open_image(s, img);
	}
	if (rc == -ENOENT)
		missing_image(s, img);
	if (rc)
		return rc;
	if (f->size > img->size) {
		s->host->set_error(s->job, -EINVAL, "rbd: image '%s' has %llu bytes, the job wants "
				   "size=%llu; lower size or grow the image (rbd resize)",
				   img->spec, (unsigned long long)img->size,
				   (unsigned long long)f->size);
		return -EINVAL;
	}
	f->engine_file = img;
	return 0;
}

static int rbd_close_file(void *state, struct iorig_file *f)
{
	struct rbd_state *s = state;

	close_image(s, &s->imgs[f->index]);
	f->engine_file = NULL;
	return 0;
}

static int rbd_queue(void *state, struct iorig_io *io)
{
	struct rbd_state *s = state;
	struct rbd_img *img = io->file->engine_file;
	rbd_completion_t c;
	int rc = rbd_aio_create_completion(io, NULL, &c);

	if (rc < 0) {
		io->result = rc;
		io_failed(s, io, rc);
		return IORIG_Q_COMPLETED;
	}
	if (io->ddir == IORIG_DDIR_READ)
		rc = rbd_aio_read(img->image, io->offset, io->len, io->buf, c);
	else if (io->ddir == IORIG_DDIR_WRITE)
		rc = rbd_aio_write(img->image, io->offset, io->len, io->buf, c);
	else
		rc = rbd_aio_discard(img->image, io->offset, io->len, c);
	if (rc < 0) {
		rbd_aio_release(c);
		io->result = rc;
		io_failed(s, io, rc);
		return IORIG_Q_COMPLETED;
	}
	s->inflight++;
	return IORIG_Q_QUEUED;
}

static int rbd_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		    struct iorig_io **done)
{
	struct rbd_state *s = state;
	uint64_t deadline = 0;
	unsigned n = 0;

	for (;;) {
		uint64_t now;

		collect(s);
		while (n < max && s->n_ready)
			done[n++] = ready_pop(s);
		if (n >= min || n == max || !timeout_ns)
			return (int)n;
		if (!s->inflight && !s->n_ready)
			return (int)n; /* nothing can come back: do not sleep */
		now = s->host->now_ns();
		if (!ceph_reap_time_left(now, timeout_ns, &deadline))
			return (int)n;
		if (!s->busy_poll)
			ceph_eventfd_wait(s->efd, deadline - now);
	}
}

/* fsync: rbd_aio_flush, tagged so collect() tells it from the job's I/O. */
static int rbd_fsync(void *state, struct iorig_file *f, int datasync)
{
	struct rbd_state *s = state;
	struct rbd_img *img = f->engine_file;
	rbd_completion_t c;
	int rc;

	(void)datasync;
	if (!img || !img->image)
		return 0;
	rc = rbd_aio_create_completion(&s->flush_marker, NULL, &c);
	if (rc < 0)
		goto fail;
	s->flush_done = 0;
	rc = rbd_aio_flush(img->image, c);
	if (rc < 0) {
		rbd_aio_release(c);
		goto fail;
	}
	/* Bounded: rados_osd_op_timeout fails the writes a flush waits for. */
	for (;;) {
		collect(s);
		if (s->flush_done)
			break;
		ceph_eventfd_wait(s->efd, FLUSH_WAIT_NS);
	}
	rc = s->flush_rc < 0 ? (int)s->flush_rc : 0;
	if (rc == 0)
		return 0;
fail:
	s->host->set_error(s->job, rc, "rbd: flush of image '%s' in %s failed: %s%s", img->spec,
			   s->conn.where, strerror(-rc), ceph_io_hint(rc));
	return rc;
}

/* invalidate=1: drop librbd's cache of the image so reads reach the OSDs. */
static int rbd_invalidate(void *state, struct iorig_file *f)
{
	struct rbd_state *s = state;
	struct rbd_img *img = f->engine_file;
	int rc;

	if (!img || !img->image)
		return 0;
	rc = rbd_invalidate_cache(img->image);
	if (rc < 0)
		s->host->set_error(s->job, rc, "rbd: cannot drop the cache of image '%s' in %s: %s",
				   img->spec, s->conn.where, strerror(-rc));
	return rc;
}

static const struct iorig_engine rbd_engine = {
	IORIG_ENGINE_HEADER,
	.name = "rbd",
	.version = "1.0",
	.description = "Ceph RBD images through librbd (async rbd_aio_*, eventfd completions)",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DISKLESS | IORIG_CAP_DIRECT | IORIG_CAP_FSYNC |
		IORIG_CAP_TRIM,
	.options = rbd_options,
	.options_size = sizeof(struct rbd_opts),
	.io_priv_size = 0,
	.init = rbd_init,
	.cleanup = rbd_cleanup,
	.open_file = rbd_open_file,
	.close_file = rbd_close_file,
	.queue = rbd_queue,
	.reap = rbd_reap,
	.fsync = rbd_fsync,
	.invalidate = rbd_invalidate,
	.get_size = rbd_get_size_op,
};

IORIG_ENGINE_DEFINE(rbd_engine)
