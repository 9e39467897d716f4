/*
 * Setting a worker up and tearing it down: engine init, files opened,
 * I/O units and their aligned buffers, offset cursors and seeds.  All the
 * allocation of a run happens here, so the loop in worker.c allocates
 * nothing.
 */
#define _GNU_SOURCE /* O_DIRECT */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "engine.h"
#include "log.h"
#include "verify.h"
#include "worker.h"

#define DEFAULT_ALIGN 4096u
/* randrepeat=1 without randseed: the same sequence on every run. */
#define DEFAULT_SEED 0x9e3779b97f4a7c15ull

static int fail(struct worker *w, int err, const char *fmt, ...) IORIG_PRINTF(3, 4);

static int fail(struct worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	w->error = err;
	return -err;
}

/* Engine errors carry the engine's own message when it set one. */
static int fail_engine(struct worker *w, int rc, const char *what, const char *path)
{
	if (w->handle.error)
		return fail(w, -w->handle.error, "job '%s': %s", w->job->o.name, w->handle.errmsg);
	return fail(w, -rc, "job '%s': engine '%s' could not %s %s: %s", w->job->o.name,
		    w->job->engine->name, what, path ? path : "", strerror(-rc));
}

static uint64_t logical_block_size(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int lbs = 0;

	if (fd < 0)
		return 0;
	if (ioctl(fd, BLKSSZGET, &lbs) < 0)
		lbs = 0;
	close(fd);
	return lbs > 0 ? (uint64_t)lbs : 0;
}

static void job_block_sizes(const struct job_opts *o, uint64_t *min, uint64_t *max)
{
	*min = UINT64_MAX;
	*max = 0;
	for (int d = 0; d < DDIR_COUNT; d++) {
		bool used = (d == DDIR_READ && rw_reads(o->rw)) ||
			    (d == DDIR_WRITE && rw_writes(o->rw)) ||
			    (d == DDIR_TRIM && rw_trims(o->rw));
		if (!used)
			continue;
		if (o->bs_min[d] < *min)
			*min = o->bs_min[d];
		if (o->bs_max[d] > *max)
			*max = o->bs_max[d];
	}
	if (*min == UINT64_MAX)
		*min = *max = o->bs[DDIR_READ];
}

static uint64_t job_seed(const struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t base;

	if (o->randseed_set)
		base = o->randseed;
	else if (o->randrepeat)
		base = DEFAULT_SEED;
	else {
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		base = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)getpid();
	}
	/* Every job and clone draws its own sequence, reproducibly. */
	return base ^ ((uint64_t)(w->job->index + 1) * 0xbf58476d1ce4e5b9ull) ^
	       ((uint64_t)(w->instance + 1) * 0x94d049bb133111ebull);
}

static int setup_buffers(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	const struct engine *e = w->job->engine;
	size_t priv = (e->io_priv_size + 63) & ~(size_t)63;
	uint64_t slot;
	struct rng r;

	w->ios = calloc(w->depth, sizeof(*w->ios));
	w->io_ptrs = calloc(w->depth, sizeof(*w->io_ptrs));
	w->free_ios = calloc(w->depth, sizeof(*w->free_ios));
	w->pending = calloc(w->depth, sizeof(*w->pending));
	w->done = calloc(w->depth, sizeof(*w->done));
	if (!w->ios || !w->io_ptrs || !w->free_ios || !w->pending || !w->done)
		return fail(w, ENOMEM, "job '%s': out of memory for %u I/O units", o->name, w->depth);
	slot = (w->max_bs + w->buf_align - 1) / w->buf_align * w->buf_align;
	if (posix_memalign(&w->buffers, w->buf_align, slot * w->depth))
		return fail(w, ENOMEM, "job '%s': cannot allocate %llu bytes of I/O buffers "
			    "(iodepth=%u x bs=%llu); lower iodepth or bs", o->name,
			    (unsigned long long)(slot * w->depth), w->depth,
			    (unsigned long long)w->max_bs);
	if (priv && posix_memalign(&w->priv_area, 64, priv * w->depth))
		return fail(w, ENOMEM, "job '%s': out of memory for engine I/O state", o->name);
	if (priv)
		memset(w->priv_area, 0, priv * w->depth);
	/* Write buffers hold pseudo-random bytes unless the buffer options
	 * say otherwise (buffill.h): compressing or deduplicating storage
	 * gets no free ride from zeros. */
	rng_seed(&r, job_seed(w) ^ 0x5bd1e995);
	for (uint32_t i = 0; i < w->depth; i++)
		buffill(&o->buf, (char *)w->buffers + slot * i, slot, rng_next(&r));
	for (uint32_t i = 0; i < w->depth; i++) {
		struct iorig_io *io = &w->ios[i];
		io->buf = (char *)w->buffers + slot * i;
		io->index = i;
		io->priv = priv ? (char *)w->priv_area + priv * i : NULL;
		w->io_ptrs[i] = io;
		w->free_ios[i] = io;
	}
	w->nr_free = w->depth;
	return 0;
}

static int setup_files(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	bool writes = rw_writes(o->rw) || rw_trims(o->rw);

	w->nr_files = w->jf->n;
	w->files = calloc(w->nr_files, sizeof(*w->files));
	w->file_ptrs = calloc(w->nr_files, sizeof(*w->file_ptrs));
	w->cursors = calloc(w->nr_files, sizeof(*w->cursors));
	if (!w->files || !w->file_ptrs || !w->cursors)
		return fail(w, ENOMEM, "job '%s': out of memory", o->name);
	for (uint32_t i = 0; i < w->nr_files; i++) {
		struct iorig_file *f = &w->files[i];
		f->path = w->jf->paths[i];
		f->size = w->jf->sizes[i];
		f->open_flags = (writes ? O_RDWR : O_RDONLY) | (o->direct ? O_DIRECT : 0);
		f->fd = -1;
		f->index = i;
		f->is_blockdev = w->jf->is_blockdev[i];
		w->file_ptrs[i] = f;
	}
	return 0;
}

static int open_files(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	const struct engine *e = w->job->engine;
	uint64_t seed = job_seed(w);
	char why[512];
	int rc;

	for (uint32_t i = 0; i < w->nr_files; i++) {
		struct iorig_file *f = &w->files[i];
		struct file_cursor *c = &w->cursors[i];

		if (!f->size) {
			uint64_t sz = 0;
			rc = eng_get_size(e, w->engine_state, f, &sz);
			if (rc == 0 && sz > w->jf->offset)
				f->size = o->size ? (o->size < sz - w->jf->offset ? o->size
										  : sz - w->jf->offset)
						  : sz - w->jf->offset;
			else if (rc && rc != -ENOTSUP)
				return fail_engine(w, rc, "get the size of", f->path);
		}
		if (!f->size)
			return fail(w, EINVAL, "job '%s': no size for %s; set size= (e.g. size=1g)",
				    o->name, f->path);
		rc = eng_open_file(e, w->engine_state, f);
		if (rc)
			return fail_engine(w, rc, "open", f->path);
		w->nr_opened = i + 1;
		/* As fio: start from a cold cache, so the first pass measures
		 * the storage and not what the layout step left in memory. */
		if (o->invalidate) {
			rc = eng_invalidate(e, w->engine_state, f);
			if (rc && rc != -ENOTSUP && rc != -EINVAL)
				log_warn("job '%s': could not drop cached pages of %s: %s", o->name,
					 f->path, strerror(-rc));
		}
		c->start = w->jf->offset;
		c->len = f->size;
		c->nblocks = c->len / w->unit;
		if (!c->nblocks)
			return fail(w, EINVAL, "job '%s': %s: the region of %llu bytes is smaller than "
				    "one block (bs=%llu); raise size or lower bs", o->name, f->path,
				    (unsigned long long)c->len, (unsigned long long)w->unit);
		blockperm_init(&c->perm, c->nblocks, seed + i);
		rc = dist_state_init(&c->dist, &o->shape.dist, c->nblocks, w->unit, seed + i,
				     why, sizeof(why));
		if (rc)
			return fail(w, EINVAL, "job '%s': %s: %s", o->name, f->path, why);
	}
	return 0;
}

int worker_setup(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	const struct engine *e = w->job->engine;
	uint64_t min_bs, seed, total = 0;
	int rc;

	host_handle_init(&w->handle, o->name, w->instance);
	job_block_sizes(o, &min_bs, &w->max_bs);
	/* Verified blocks sit on a grid of the largest block (verify.h). */
	w->unit = o->verify.type ? w->max_bs : min_bs;
	w->depth = o->iodepth ? o->iodepth : 1;
	if (!(e->caps & IORIG_CAP_ASYNC))
		w->depth = 1; /* the scheduler has told the user once */
	if (rw_trims(o->rw) && !(e->caps & IORIG_CAP_TRIM))
		return fail(w, EINVAL, "job '%s': engine '%s' cannot trim; use another rw or engine",
			    o->name, e->name);
	if (o->direct && !(e->caps & IORIG_CAP_DIRECT))
		return fail(w, EINVAL, "job '%s': engine '%s' does not support direct=1; "
			    "drop direct or pick another engine", o->name, e->name);

	w->buf_align = DEFAULT_ALIGN;
	for (uint32_t i = 0; o->direct && i < w->jf->n; i++) {
		uint64_t lbs = w->jf->is_blockdev[i] ? logical_block_size(w->jf->paths[i]) : 0;
		if (lbs > w->buf_align)
			w->buf_align = lbs;
	}
	rc = setup_files(w);
	if (!rc)
		rc = setup_buffers(w);
	if (rc)
		return rc;

	seed = job_seed(w);
	rng_seed(&w->rng_off, seed);
	rng_seed(&w->rng_dir, seed ^ 0xa5a5a5a5a5a5a5a5ull);
	rng_seed(&w->rng_bs, seed ^ 0x3c3c3c3c3c3c3c3cull);
	rng_seed(&w->rng_pct, seed ^ 0x7137449123ef65cdull);
	w->mix.credit = 0;
	rate_state_init(&w->rate, &o->rate, seed);
	buffill_state_init(&w->bfill, &o->buf, o->verify.type != VERIFY_NONE, seed);
	if (w->rate.on) /* sleeps end on time, not up to 50 us late */
		prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);

	w->info = (struct iorig_job_info){
		.struct_size = sizeof(struct iorig_job_info),
		.flags = (rw_reads(o->rw) ? IORIG_JOB_READS : 0) |
			 (rw_writes(o->rw) ? IORIG_JOB_WRITES : 0) |
			 (rw_trims(o->rw) ? IORIG_JOB_TRIMS : 0) |
			 (o->direct ? IORIG_JOB_DIRECT : 0) |
			 (rw_is_random(o->rw) ? IORIG_JOB_RANDOM : 0),
		.host = host_api(),
		.handle = &w->handle,
		.name = o->name,
		.instance = w->instance,
		.job_id = w->job_id,
		.iodepth = w->depth,
		.iodepth_batch_submit = o->iodepth_batch_submit,
		.iodepth_batch_complete_min = o->iodepth_batch_complete_min,
		.iodepth_batch_complete_max = o->iodepth_batch_complete_max,
		.max_bs = w->max_bs,
		.buf_align = w->buf_align,
		.nr_files = w->nr_files,
		.nr_ios = w->depth,
		.files = w->file_ptrs,
		.ios = w->io_ptrs,
	};
	rc = eng_init(e, &w->info, o->engine_opts, &w->engine_state);
	if (rc)
		return fail_engine(w, rc, "start for", "this job");
	w->engine_inited = true;
	rc = open_files(w);
	if (!rc && o->verify.type)
		rc = verify_setup(w);
	if (rc)
		return rc;

	for (uint32_t i = 0; i < w->nr_files; i++)
		total += w->files[i].size;
	if (o->time_based)
		w->bytes_total = 0;
	else
		w->bytes_total = (o->io_size ? o->io_size : total) * (o->loops ? o->loops : 1);
	return 0;
}

void worker_teardown(struct worker *w)
{
	const struct engine *e = w->job->engine;

	verify_teardown(w);
	if (w->engine_inited) {
		for (uint32_t i = 0; i < w->nr_opened; i++)
			eng_close_file(e, w->engine_state, &w->files[i]);
		w->nr_opened = 0;
		eng_cleanup(e, w->engine_state);
		w->engine_inited = false;
	}
	free(w->files);
	free(w->file_ptrs);
	free(w->cursors);
	free(w->ios);
	free(w->io_ptrs);
	free(w->free_ios);
	free(w->pending);
	free(w->done);
	free(w->buffers);
	free(w->priv_area);
	w->files = NULL;
	w->file_ptrs = NULL;
	w->cursors = NULL;
	w->ios = NULL;
	w->io_ptrs = NULL;
	w->free_ios = w->pending = w->done = NULL;
	w->buffers = w->priv_area = NULL;
}
