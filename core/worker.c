/*
 * The I/O loop of one job instance: the hot path.
 *
 * Per I/O it picks a direction, file, offset and length, reads the clock,
 * queues, and on completion reads the clock again and adds the latencies
 * to this worker's own statistics.  No lock, no allocation, no syscall but
 * the engine's I/O and clock_gettime (vDSO).  Async engines are filled up
 * to iodepth, committed in batches of iodepth_batch_submit, and reaped in
 * batches of at least iodepth_batch_complete_min.
 *
 * Timestamps kept in io->core_data: [0] when queue() was called,
 * [1] when the I/O was handed to the device (end of queue() for sync
 * engines, end of commit() for async ones).  slat = [1] - [0],
 * clat = completion - [1], lat = completion - [0].
 */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "clock.h"
#include "engine.h"
#include "log.h"
#include "worker.h"

#define T_QUEUE 0
#define T_ISSUE 1
/* Bound on one reap wait, so a stop request is seen while a device hangs. */
#define REAP_WAIT_NS 200000000ull

atomic_int worker_stop_requested;

static void cpu_now(uint64_t v[5])
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	v[0] = (uint64_t)ru.ru_utime.tv_sec * 1000000000ull + (uint64_t)ru.ru_utime.tv_usec * 1000;
	v[1] = (uint64_t)ru.ru_stime.tv_sec * 1000000000ull + (uint64_t)ru.ru_stime.tv_usec * 1000;
	v[2] = (uint64_t)(ru.ru_nvcsw + ru.ru_nivcsw);
	v[3] = (uint64_t)ru.ru_majflt;
	v[4] = (uint64_t)ru.ru_minflt;
}

static void start_measuring(struct worker *w, uint64_t now)
{
	w->measuring = true;
	w->measure_start = now;
	cpu_now(w->cpu_start);
	atomic_store_explicit(&w->st->live_measure_start, now, memory_order_relaxed);
	atomic_store_explicit(&w->st->live_measuring, 1, memory_order_release);
}

static void stop_measuring(struct worker *w, uint64_t now)
{
	uint64_t v[5];

	if (!w->measuring)
		return;
	cpu_now(v);
	w->st->runtime_ns = now - w->measure_start;
	w->st->usr_ns = v[0] - w->cpu_start[0];
	w->st->sys_ns = v[1] - w->cpu_start[1];
	w->st->ctx = v[2] - w->cpu_start[2];
	w->st->majf = v[3] - w->cpu_start[3];
	w->st->minf = v[4] - w->cpu_start[4];
}

static int io_error(struct worker *w, const struct iorig_io *io, int err, const char *what)
{
	static const char *const dname[] = { "read", "write", "trim" };

	if (w->error)
		return -w->error;
	w->error = err;
	if (w->handle.error)
		snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': %s", w->job->o.name, w->handle.errmsg);
	else
		snprintf(w->errmsg, sizeof(w->errmsg),
			 "job '%s': %s of %llu bytes at offset %llu of %s %s: %s",
			 w->job->o.name, dname[io->ddir % 3], (unsigned long long)io->len,
			 (unsigned long long)io->offset, io->file->path, what, strerror(err));
	return -err;
}

static inline uint32_t pick_ddir(struct worker *w)
{
	const struct job_opts *o = &w->job->o;

	switch (o->rw) {
	case RW_READ:
	case RW_RANDREAD:
		return DDIR_READ;
	case RW_WRITE:
	case RW_RANDWRITE:
		return DDIR_WRITE;
	case RW_TRIM:
	case RW_RANDTRIM:
		return DDIR_TRIM;
	default:
		return rng_below(&w->rng_dir, 100) < o->rwmixread ? DDIR_READ : DDIR_WRITE;
	}
}

/* Fill in the next I/O: direction, file (round robin), length, offset. */
static inline void prep_io(struct worker *w, struct iorig_io *io)
{
	const struct job_opts *o = &w->job->o;
	uint32_t d = pick_ddir(w);
	uint32_t fi = w->next_file;
	struct file_cursor *c = &w->cursors[fi];
	uint64_t len = o->bs_min[d], off;

	if (++w->next_file == w->nr_files)
		w->next_file = 0;
	if (o->bs_max[d] != o->bs_min[d])
		len += rng_below(&w->rng_bs, (o->bs_max[d] - o->bs_min[d]) / o->bs_min[d] + 1) *
		       o->bs_min[d];
	if (rw_is_random(o->rw)) {
		uint64_t blk = o->norandommap ? rng_below(&w->rng_off, c->nblocks)
					      : blockperm_next(&c->perm);
		off = blk * w->unit;
	} else {
		off = c->seq_next[d];
		if (off + len > c->len)
			off = 0;
		c->seq_next[d] = off + len;
	}
	if (off + len > c->len)
		len = c->len - off; /* a bsrange block at the end of the region */
	io->ddir = d;
	io->file = &w->files[fi];
	io->offset = c->start + off;
	io->len = len;
	w->bytes_issued += len;
	w->st->issued[d]++;
}

/* Account one finished I/O and return its unit to the free stack. */
static inline int complete_io(struct worker *w, struct iorig_io *io, uint64_t now, bool async)
{
	if (io->result != (int64_t)io->len) {
		w->free_ios[w->nr_free++] = io;
		if (io->result < 0)
			return io_error(w, io, (int)-io->result, "failed");
		return io_error(w, io, EIO, "was short (past the end of the file?)");
	}
	if (io->core_data[T_QUEUE] >= w->ramp_end) {
		struct dir_stats *d = &w->st->dir[io->ddir];
		uint64_t t0 = io->core_data[T_QUEUE], ti = io->core_data[T_ISSUE];

		if (async)
			lat_stat_add(&d->slat, ti - t0);
		lat_stat_add(&d->clat, now - ti);
		lat_stat_add(&d->lat, now - t0);
		d->bytes += io->len;
		d->ios++;
		atomic_store_explicit(&w->st->live_bytes[io->ddir], d->bytes, memory_order_relaxed);
		atomic_store_explicit(&w->st->live_ios[io->ddir], d->ios, memory_order_relaxed);
	}
	if (io->ddir == DDIR_WRITE)
		w->writes_since_sync++;
	w->free_ios[w->nr_free++] = io;
	return 0;
}

static int commit_pending(struct worker *w)
{
	const struct engine *e = w->job->engine;
	uint32_t n = w->nr_pending;
	uint64_t now;
	int rc;

	if (!n)
		return 0;
	rc = eng_commit(e, w->engine_state);
	now = clock_now_ns();
	for (uint32_t i = 0; i < n; i++)
		w->pending[i]->core_data[T_ISSUE] = now;
	w->nr_pending = 0;
	w->st->submit[stats_batch_level(n)]++;
	if (rc < 0)
		return io_error(w, w->pending[0], -rc, "could not be submitted");
	return 0;
}

/* Reap at least min completions (min may be 0: take what is ready). */
static int reap(struct worker *w, unsigned min)
{
	const struct engine *e = w->job->engine;
	int n, rc = 0;

	do {
		unsigned max = w->job->o.iodepth_batch_complete_max;

		if (max > w->inflight)
			max = w->inflight;
		if (max < min)
			max = min;
		n = eng_reap(e, w->engine_state, min, max, REAP_WAIT_NS, w->done);
		if (n < 0) {
			if (n == -EINTR || n == -EAGAIN)
				continue;
			/* The engine lost track of its I/O: nothing more can be reaped. */
			w->inflight = 0;
			return io_error(w, w->ios, -n, "could not be reaped");
		}
		if (n > 0) {
			uint64_t now = clock_now_ns();
			w->st->complete[stats_batch_level((unsigned)n)]++;
			for (int i = 0; i < n; i++) {
				int r = complete_io(w, w->done[i], now, true);
				if (r && !rc)
					rc = r;
			}
			w->inflight -= (uint32_t)n;
			min = (unsigned)n >= min ? 0 : min - (unsigned)n;
		}
	} while (min > 0);
	return rc;
}

static int sync_files(struct worker *w, int datasync)
{
	const struct engine *e = w->job->engine;
	int rc;

	if (w->inflight && (rc = reap(w, w->inflight)))
		return rc;
	for (uint32_t i = 0; i < w->nr_files; i++) {
		rc = eng_fsync(e, w->engine_state, &w->files[i], datasync);
		if (rc) {
			w->error = -rc;
			snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': %s of %s failed: %s",
				 w->job->o.name, datasync ? "fdatasync" : "fsync", w->files[i].path,
				 strerror(-rc));
			return rc;
		}
	}
	w->writes_since_sync = 0;
	return 0;
}

static inline bool want_more(const struct worker *w)
{
	return !w->error &&
	       !atomic_load_explicit(&worker_stop_requested, memory_order_relaxed) &&
	       (!w->bytes_total || w->bytes_issued < w->bytes_total);
}

int worker_run(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	const struct engine *e = w->job->engine;
	struct job_stats *st = w->st;
	const uint32_t batch = o->iodepth_batch_submit ? o->iodepth_batch_submit : 1;
	uint32_t cmin = o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : 1;
	const uint32_t sync_every = o->fsync_every ? o->fsync_every : o->fdatasync_every;
	uint64_t start = clock_now_ns(), deadline;
	bool wrote = false;
	int rc = 0;

	if (cmin > w->depth)
		cmin = w->depth;
	w->ramp_end = start + o->ramp_time_ns;
	deadline = o->runtime_ns ? w->ramp_end + o->runtime_ns : UINT64_MAX;
	if (!o->ramp_time_ns)
		start_measuring(w, start);

	while (!rc) {
		bool more = want_more(w);

		/* Queue until the depth is reached or there is nothing left. */
		while (more && w->nr_free) {
			struct iorig_io *io = w->free_ios[--w->nr_free];
			uint64_t t0;
			int q;

			prep_io(w, io);
			t0 = clock_now_ns();
			if (t0 >= deadline) {
				w->free_ios[w->nr_free++] = io;
				w->bytes_total = w->bytes_issued; /* runtime is up */
				more = false;
				break;
			}
			if (!w->measuring && t0 >= w->ramp_end)
				start_measuring(w, t0);
			io->core_data[T_QUEUE] = t0;
			q = eng_queue(e, w->engine_state, io);
			if (q == IORIG_Q_COMPLETED) {
				io->core_data[T_ISSUE] = t0;
				st->depth[stats_depth_level(w->inflight + 1)]++;
				st->submit[1]++;
				st->complete[1]++;
				rc = complete_io(w, io, clock_now_ns(), false);
			} else if (q == IORIG_Q_QUEUED) {
				w->pending[w->nr_pending++] = io;
				w->inflight++;
				st->depth[stats_depth_level(w->inflight)]++;
				if (w->nr_pending >= batch)
					rc = commit_pending(w);
			} else if (q == IORIG_Q_BUSY && w->inflight + w->nr_pending) {
				/* Give the unit back; the next pass re-prepares it. */
				w->bytes_issued -= io->len;
				st->issued[io->ddir]--;
				w->free_ios[w->nr_free++] = io;
				break;
			} else {
				w->free_ios[w->nr_free++] = io;
				rc = io_error(w, io, q < 0 ? -q : EBUSY,
					      q < 0 ? "could not be queued" : "was refused (engine busy with nothing in flight)");
			}
			if (rc)
				break;
			if (sync_every && w->writes_since_sync >= sync_every) {
				rc = sync_files(w, !o->fsync_every);
				if (rc)
					break;
			}
			more = want_more(w);
		}
		if (!rc)
			rc = commit_pending(w);
		if (rc)
			break;
		if (!w->inflight) {
			if (!more)
				break;
			continue;
		}
		/* Full (or done queuing): wait for a batch of completions. */
		rc = reap(w, w->inflight < cmin ? w->inflight : cmin);
	}

	/* Whatever happened, nothing may stay in flight over the buffers. */
	if (w->nr_pending)
		commit_pending(w);
	while (w->inflight) {
		uint32_t before = w->inflight;
		reap(w, w->inflight);
		if (w->inflight == before)
			break;
	}
	wrote = st->issued[DDIR_WRITE] > 0;
	if (!w->error && o->end_fsync && wrote)
		sync_files(w, 0);
	stop_measuring(w, clock_now_ns());
	atomic_store_explicit(&st->live_done, 1, memory_order_release);
	return w->error ? -w->error : 0;
}
