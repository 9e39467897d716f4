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
#include "iolog.h"
#include "log.h"
#include "verify.h"
#include "worker.h"

#define T_QUEUE 0
#define T_ISSUE 1
#define T_INTENDED 2 /* intended issue time under a rate limit (rate.h); [3]: verify */
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
	rate_min_start(&w->rate, now);
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
		return mix_pick_read(&w->mix, &w->rng_dir, o->rwmixread) ? DDIR_READ : DDIR_WRITE;
	}
}

/*
 * Fill in the next I/O: direction, file (round robin), length, offset, and
 * a write's contents when they change per write (buffill.h, verify.h).
 * Returns false when a verified write would hit a block that has a write
 * in flight: the caller gives the unit back and reaps first.
 */
static inline bool prep_io(struct worker *w, struct iorig_io *io)
{
	const struct job_opts *o = &w->job->o;
	uint32_t d = pick_ddir(w);
	uint32_t fi = w->next_file;
	struct file_cursor *c = &w->cursors[fi];
	uint64_t len = o->bs_min[d], off, step;

	if (++w->next_file == w->nr_files)
		w->next_file = 0;
	if (o->shape.bssplit[d].n)
		len = bssplit_pick(&o->shape.bssplit[d], &w->rng_bs);
	else if (o->bs_max[d] != o->bs_min[d])
		len += rng_below(&w->rng_bs, (o->bs_max[d] - o->bs_min[d]) / o->bs_min[d] + 1) *
		       o->bs_min[d];
	/* Verified blocks own whole slots: sequential I/O steps slot by slot. */
	step = w->vs ? w->unit : len;
	if (rw_is_random(o->rw) && (o->shape.pct_random[d] >= 100 ||
				    rng_below(&w->rng_pct, 100) < o->shape.pct_random[d])) {
		uint64_t blk = o->shape.dist.type != DIST_RANDOM ? dist_next(&c->dist, &w->rng_off) :
			       o->norandommap ? rng_below(&w->rng_off, c->nblocks) :
			       blockperm_next(&c->perm);
		off = blk * w->unit;
	} else {
		off = c->seq_next[d];
		if (off + step > c->len)
			off = 0;
	}
	c->seq_next[d] = off + step; /* percentage_random goes on from here */
	if (off + len > c->len)
		len = c->len - off; /* a bsrange block at the end of the region */
	io->ddir = d;
	io->file = &w->files[fi];
	io->offset = c->start + off;
	io->len = len;
	if (d == DDIR_WRITE && w->bfill.per_write) {
		if (w->vs) {
			if (!verify_prep_write(w, io))
				return false;
		} else {
			buffill(&o->buf, io->buf, len, buffill_next_seed(&w->bfill, &o->buf));
		}
	}
	w->bytes_issued += len;
	w->st->issued[d]++;
	return true;
}

/* rate_min / rate_iops_min: a cycle below the floor fails the job. */
static int check_rate_min(struct worker *w, const struct iorig_io *io, uint64_t now)
{
	char why[512];

	if (!rate_min_account(&w->rate, io->ddir, io->len, now, why, sizeof(why)))
		return 0;
	if (!w->error) {
		w->error = ETIMEDOUT;
		snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': %s", w->job->o.name, why);
	}
	return -w->error;
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
		if (w->rate.on) /* from when the schedule meant to issue it */
			lat_stat_add(&d->ilat, now - io->core_data[T_INTENDED]);
		d->bytes += io->len;
		d->ios++;
		atomic_store_explicit(&w->st->live_bytes[io->ddir], d->bytes, memory_order_relaxed);
		atomic_store_explicit(&w->st->live_ios[io->ddir], d->ios, memory_order_relaxed);
		if (iolog_tls) /* per-I/O logs: a store into a preallocated ring */
			iolog_push(iolog_tls, now, now - t0, now - ti, io->offset, (uint32_t)io->len,
				   io->ddir);
	}
	if (io->ddir == DDIR_WRITE) {
		w->writes_since_sync++;
		if (w->vs)
			verify_write_done(w, io);
	}
	w->free_ios[w->nr_free++] = io;
	if (w->rate.check_min && w->measuring)
		return check_rate_min(w, io, now);
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

/* Account n completions reap() stored in w->done; the first error wins. */
static int complete_batch(struct worker *w, int n)
{
	uint64_t now = clock_now_ns();
	int rc = 0;

	w->st->complete[stats_batch_level((unsigned)n)]++;
	for (int i = 0; i < n; i++) {
		int r = complete_io(w, w->done[i], now, true);
		if (r && !rc)
			rc = r;
	}
	w->inflight -= (uint32_t)n;
	return rc;
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
			int r = complete_batch(w, n);
			if (r && !rc)
				rc = r;
			min = (unsigned)n >= min ? 0 : min - (unsigned)n;
		}
	} while (min > 0);
	return rc;
}

/*
 * fsync (or fdatasync) every file of the job, once what is in flight has
 * completed.  Each engine call is one sync latency sample, taken like an
 * I/O's: only once measuring (after ramp_time), into the worker's own stats.
 */
static int sync_files(struct worker *w, int datasync)
{
	const struct engine *e = w->job->engine;
	int rc;

	if (w->inflight && (rc = reap(w, w->inflight)))
		return rc;
	for (uint32_t i = 0; i < w->nr_files; i++) {
		uint64_t t0 = clock_now_ns();

		rc = eng_fsync(e, w->engine_state, &w->files[i], datasync);
		if (rc) {
			w->error = -rc;
			if (w->handle.error) /* the engine said what went wrong */
				snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': %s", w->job->o.name,
					 w->handle.errmsg);
			else
				snprintf(w->errmsg, sizeof(w->errmsg), "job '%s': %s of %s failed: %s",
					 w->job->o.name, datasync ? "fdatasync" : "fsync",
					 w->files[i].path, strerror(-rc));
			return rc;
		}
		w->st->issued_sync++;
		if (w->measuring)
			lat_stat_add(&w->st->sync, clock_now_ns() - t0);
	}
	w->writes_since_sync = 0;
	return 0;
}

/* One reap of whatever completes within timeout_ns (nothing, at timeout). */
static int reap_within(struct worker *w, uint64_t timeout_ns)
{
	const struct engine *e = w->job->engine;
	int n = eng_reap(e, w->engine_state, 1, w->inflight, timeout_ns, w->done);

	if (n == -EINTR || n == -EAGAIN)
		return 0;
	if (n < 0) {
		w->inflight = 0;
		return io_error(w, w->ios, -n, "could not be reaped");
	}
	return n > 0 ? complete_batch(w, n) : 0;
}

static void nap_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	nanosleep(&ts, NULL);
}

/*
 * Hold io until its intended issue time (rate.h).  In-flight I/O goes on
 * completing meanwhile: the wait reaps rather than sleeps when anything is
 * in flight, and nothing is drained first (fio issue #635).  Returns 0 to
 * issue now, 1 when the runtime ends or a stop comes first, or -errno.
 */
static int throttle(struct worker *w, struct iorig_io *io, uint64_t deadline)
{
	uint64_t due = rate_next_due(&w->rate, io->ddir, io->len);
	uint64_t now = clock_now_ns();
	int rc;

	io->core_data[T_INTENDED] = due ? due : now;
	if (due <= now)
		return 0;
	if (due >= deadline)
		return 1;
	rc = commit_pending(w); /* queued I/O must not wait with us */
	while (!rc && now < due) {
		if (atomic_load_explicit(&worker_stop_requested, memory_order_relaxed))
			return 1;
		if (now >= w->rate.spin_until) { /* thinktime_spin burns CPU instead */
			if (w->inflight)
				rc = reap_within(w, due - now);
			else
				nap_ns(due - now < 100000000ull ? due - now : 100000000ull);
		}
		now = clock_now_ns();
	}
	return rc;
}

/* Everything in flight completes (before a verify_backlog pass). */
static int drain(struct worker *w)
{
	int rc = commit_pending(w);

	if (!rc && w->inflight)
		rc = reap(w, w->inflight);
	return rc;
}

static inline bool want_more(const struct worker *w)
{
	return !w->error &&
	       !atomic_load_explicit(&worker_stop_requested, memory_order_relaxed) &&
	       (w->retry || !w->bytes_total || w->bytes_issued < w->bytes_total);
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
	rate_start(&w->rate, start);
	if (!o->ramp_time_ns)
		start_measuring(w, start);

	if (w->vs && w->vs->only) /* verify_only: read back an earlier run's blocks */
		rc = verify_run(w, VPASS_ALL);
	while (!rc && !(w->vs && w->vs->only)) {
		bool more = want_more(w);

		if (verify_backlog_due(w->vs, o->verify.backlog) &&
		    ((rc = drain(w)) || (rc = verify_run(w, VPASS_BACKLOG))))
			break;

		/* Queue until the depth is reached or there is nothing left. */
		while (more && (w->retry || w->nr_free) &&
		       !verify_backlog_due(w->vs, o->verify.backlog)) {
			struct iorig_io *io;
			uint64_t t0;
			int q = 0;

			if (w->retry) {
				/* The engine was busy: the same I/O again, so the offset
				 * sequence (and its rate slot) stay as planned. */
				io = w->retry;
				w->retry = NULL;
			} else {
				io = w->free_ios[--w->nr_free];
				if (!prep_io(w, io)) {
					w->free_ios[w->nr_free++] = io;
					break; /* a write to the same verified block is in flight */
				}
				if (w->rate.on)
					q = throttle(w, io, deadline);
			}
			if (q) {
				w->bytes_issued -= io->len;
				st->issued[io->ddir]--;
				if (w->vs)
					verify_write_undo(w, io);
				w->free_ios[w->nr_free++] = io;
				if (q < 0) {
					rc = q;
					break;
				}
				w->bytes_total = w->bytes_issued; /* runtime is up, or a stop */
				more = false;
				break;
			}
			t0 = clock_now_ns();
			if (t0 >= deadline) {
				if (w->vs)
					verify_write_undo(w, io);
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
				w->retry = io; /* reap first, then queue it again */
				break;
			} else {
				w->free_ios[w->nr_free++] = io;
				rc = io_error(w, io, q < 0 ? -q : EBUSY,
					      q < 0 ? "could not be queued" : "was refused (engine busy with nothing in flight)");
			}
			if (rc)
				break;
			if (w->rate.think_ns && (q == IORIG_Q_COMPLETED || q == IORIG_Q_QUEUED))
				rate_issued(&w->rate, clock_now_ns());
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

	if (w->retry) { /* stopped with a busy I/O never queued: it was not issued */
		w->bytes_issued -= w->retry->len;
		st->issued[w->retry->ddir]--;
		if (w->vs)
			verify_write_undo(w, w->retry);
		w->free_ios[w->nr_free++] = w->retry;
		w->retry = NULL;
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
	if (!w->error && w->vs && w->vs->ring_n) /* the last verify_backlog blocks */
		verify_run(w, VPASS_BACKLOG);
	wrote = st->issued[DDIR_WRITE] > 0;
	if (!w->error && o->end_fsync && wrote)
		sync_files(w, 0);
	stop_measuring(w, clock_now_ns());
	if (!w->error && w->vs && !w->vs->only && o->verify.do_verify && wrote) {
		/* The read-back is not part of the workload's figures. */
		w->measuring = false;
		atomic_store_explicit(&st->live_done, 1, memory_order_release);
		verify_run(w, VPASS_WRITTEN);
	}
	verify_finish(w);
	atomic_store_explicit(&st->live_done, 1, memory_order_release);
	return w->error ? -w->error : 0;
}
