/*
 * The worker's side of verification (verify.h): the generation record,
 * stamping writes, and the read-back passes (after the write phase, every
 * verify_backlog writes, or alone with verify_only).
 *
 * Memory: the generation record is one byte per slot of the job's region
 * (size / largest block): 256 KiB per GiB at 4 KiB blocks, capped at
 * VERIFY_REC_MAX.  verify_backlog adds 8 bytes per backlog entry.
 * Nothing is allocated once the run started.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "engine.h"
#include "log.h"
#include "verify.h"
#include "verify_report.h"
#include "worker.h"

#define T_QUEUE 0
#define T_ISSUE 1
#define T_VERIFY 3                /* io->core_data slot verification uses */
#define VIO_WRITE (1ull << 62)    /* a stamped write; low byte: previous record */
#define SLOT_BITS 44
#define REAP_WAIT_NS 200000000ull

static int vfail(struct worker *w, int err, const char *fmt, ...) IORIG_PRINTF(3, 4);

static int vfail(struct worker *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w->error)
		return -w->error;
	va_start(ap, fmt);
	vsnprintf(w->errmsg, sizeof(w->errmsg), fmt, ap);
	va_end(ap);
	w->error = err;
	return -err;
}

int verify_setup(struct worker *w)
{
	const struct job_opts *o = &w->job->o;
	struct verify_state *vs = calloc(1, sizeof(*vs));
	uint64_t total = 0;

	if (!vs)
		return vfail(w, ENOMEM, "job '%s': out of memory for verification", o->name);
	w->vs = vs;
	vs->only = o->verify.only || !rw_writes(o->rw);
	vs->grid = w->unit;
	vs->job_key = verify_job_key(o->name, w->instance);
	if (vs->grid < VERIFY_MIN_BS)
		return vfail(w, EINVAL, "job '%s': verify needs blocks of at least %d bytes "
			     "(bs=%llu); raise bs", o->name, VERIFY_MIN_BS,
			     (unsigned long long)vs->grid);
	if (posix_memalign(&vs->scratch, 4096, vs->grid))
		return vfail(w, ENOMEM, "job '%s': out of memory for verification", o->name);
	if (vs->only)
		return 0;
	vs->rec_base = calloc(w->nr_files, sizeof(*vs->rec_base));
	if (!vs->rec_base)
		return vfail(w, ENOMEM, "job '%s': out of memory for verification", o->name);
	for (uint32_t i = 0; i < w->nr_files; i++) {
		vs->rec_base[i] = total;
		total += w->cursors[i].nblocks;
	}
	if (total > VERIFY_REC_MAX)
		return vfail(w, E2BIG, "job '%s': verifying %llu blocks needs a generation record "
			     "of %llu MiB, above the %llu MiB limit; raise bs or lower size",
			     o->name, (unsigned long long)total, (unsigned long long)(total >> 20),
			     (unsigned long long)(VERIFY_REC_MAX >> 20));
	vs->nslots = total;
	vs->rec = calloc(total ? total : 1, 1);
	if (!vs->rec)
		return vfail(w, ENOMEM, "job '%s': cannot allocate the %llu MiB generation record "
			     "for verify; raise bs or lower size", o->name,
			     (unsigned long long)(total >> 20));
	if (o->verify.backlog) {
		vs->ring_cap = o->verify.backlog + w->depth;
		vs->ring = calloc(vs->ring_cap, sizeof(*vs->ring));
		if (!vs->ring)
			return vfail(w, ENOMEM, "job '%s': out of memory for verify_backlog=%u",
				     o->name, o->verify.backlog);
	}
	return 0;
}

void verify_teardown(struct worker *w)
{
	struct verify_state *vs = w->vs;

	if (!vs)
		return;
	free(vs->rec);
	free(vs->rec_base);
	free(vs->scratch);
	free(vs->ring);
	free(vs);
	w->vs = NULL;
}

static inline uint8_t *rec_of(const struct worker *w, const struct iorig_io *io)
{
	const struct verify_state *vs = w->vs;
	uint32_t fi = io->file->index;
	uint64_t slot = (io->offset - w->cursors[fi].start) / vs->grid;

	return &vs->rec[vs->rec_base[fi] + slot];
}

bool verify_prep_write(struct worker *w, struct iorig_io *io)
{
	const struct job_opts *o = &w->job->o;
	struct verify_state *vs = w->vs;
	uint8_t *rec = rec_of(w, io);
	struct timespec ts;
	struct vhdr h;

	if (*rec & VREC_INFLIGHT)
		return false; /* two writes in flight to one block: order unknowable */
	clock_gettime(CLOCK_REALTIME, &ts);
	memset(&h, 0, sizeof(h));
	h.len = (uint32_t)io->len;
	h.gen = vgen_next(*rec & ~VREC_INFLIGHT);
	h.offset = io->offset;
	h.job_key = vs->job_key;
	h.seq = ++vs->seq;
	h.seed = buffill_next_seed(&w->bfill, &o->buf);
	h.time_ns = (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
	h.file_index = io->file->index;
	verify_make_block(&o->verify, &o->buf, io->buf, &h);
	io->core_data[T_VERIFY] = VIO_WRITE | *rec;
	*rec = (uint8_t)(h.gen | VREC_INFLIGHT);
	return true;
}

void verify_write_done(struct worker *w, struct iorig_io *io)
{
	struct verify_state *vs = w->vs;
	uint8_t *rec;

	if (!(io->core_data[T_VERIFY] & VIO_WRITE))
		return;
	io->core_data[T_VERIFY] = 0;
	rec = rec_of(w, io);
	*rec &= (uint8_t)~VREC_INFLIGHT;
	if (vs->ring && vs->ring_n < vs->ring_cap) {
		uint32_t fi = io->file->index;

		vs->ring[vs->ring_n++] = ((uint64_t)fi << SLOT_BITS) |
			((io->offset - w->cursors[fi].start) / vs->grid);
	}
}

void verify_write_undo(struct worker *w, struct iorig_io *io)
{
	if (!(io->core_data[T_VERIFY] & VIO_WRITE))
		return;
	*rec_of(w, io) = (uint8_t)(io->core_data[T_VERIFY] & 0xff);
	io->core_data[T_VERIFY] = 0;
}

/* ---- read-back passes ------------------------------------------------------ */

struct vpass_it {
	enum vpass pass;
	uint32_t fi;
	uint64_t slot;
	uint32_t ri;
	bool have_retry;
	uint32_t retry_fi;
	uint64_t retry_slot;
};

/* The next slot to read and its expected generation (0: unknown). */
static bool next_target(struct worker *w, struct vpass_it *it, uint32_t *fi, uint64_t *slot,
			uint32_t *gen)
{
	struct verify_state *vs = w->vs;

	if (it->have_retry) {
		it->have_retry = false;
		*fi = it->retry_fi;
		*slot = it->retry_slot;
	} else if (it->pass == VPASS_BACKLOG) {
		if (it->ri >= vs->ring_n)
			return false;
		*fi = (uint32_t)(vs->ring[it->ri] >> SLOT_BITS);
		*slot = vs->ring[it->ri] & ((1ull << SLOT_BITS) - 1);
		it->ri++;
	} else {
		for (;;) {
			if (it->fi >= w->nr_files)
				return false;
			if (it->slot >= w->cursors[it->fi].nblocks) {
				it->fi++;
				it->slot = 0;
				continue;
			}
			if (it->pass == VPASS_ALL ||
			    vs->rec[vs->rec_base[it->fi] + it->slot])
				break;
			it->slot++;
		}
		*fi = it->fi;
		*slot = it->slot++;
	}
	*gen = vs->rec ? vs->rec[vs->rec_base[*fi] + *slot] & ~VREC_INFLIGHT : 0;
	return true;
}

/* Account and check one completed read-back. */
static void check_read(struct worker *w, struct iorig_io *io, uint64_t now)
{
	const struct job_opts *o = &w->job->o;
	struct verify_state *vs = w->vs;
	struct job_stats *st = w->st;
	struct vexpect ex;
	struct vcheck res;
	uint64_t got = io->result > 0 ? (uint64_t)io->result : 0;

	w->free_ios[w->nr_free++] = io;
	if (io->result < 0) {
		vfail(w, (int)-io->result, "job '%s': verify read of %llu bytes at offset %llu of "
		      "%s failed: %s", o->name, (unsigned long long)io->len,
		      (unsigned long long)io->offset, io->file->path, strerror((int)-io->result));
		return;
	}
	if (w->measuring && io->core_data[T_QUEUE] >= w->ramp_end) {
		struct dir_stats *d = &st->dir[DDIR_READ];

		lat_stat_add(&d->clat, now - io->core_data[T_ISSUE]);
		lat_stat_add(&d->lat, now - io->core_data[T_QUEUE]);
		d->bytes += got;
		d->ios++;
		atomic_store_explicit(&st->live_bytes[DDIR_READ], d->bytes, memory_order_relaxed);
		atomic_store_explicit(&st->live_ios[DDIR_READ], d->ios, memory_order_relaxed);
	}
	ex.offset = io->offset;
	ex.job_key = vs->job_key;
	ex.file_index = io->file->index;
	ex.gen = (uint32_t)(io->core_data[T_VERIFY] & 0xff);
	io->core_data[T_VERIFY] = 0;
	st->verify.blocks++;
	st->verify.bytes += got;
	if (verify_check_block(&o->verify, &o->buf, io->buf, got, &ex, vs->scratch, &res) < 0)
		return;
	st->verify.bad[res.kind]++;
	verify_report_bad(w, io, got, &ex, &res);
	if (o->verify.fatal && !vs->stop) {
		vs->stop = true;
		vfail(w, EILSEQ, "job '%s': verify_fatal: stopped at the first bad block: %s",
		      o->name, st->verify.first);
	}
}

static int commit_reads(struct worker *w, uint32_t *pending)
{
	const struct engine *e = w->job->engine;
	uint64_t now;
	int rc;

	if (!*pending)
		return 0;
	rc = eng_commit(e, w->engine_state);
	now = clock_now_ns();
	for (uint32_t i = 0; i < *pending; i++)
		w->pending[i]->core_data[T_ISSUE] = now;
	*pending = 0;
	if (rc < 0)
		return vfail(w, -rc, "job '%s': verify reads could not be submitted: %s",
			     w->job->o.name, strerror(-rc));
	return 0;
}

static int reap_reads(struct worker *w)
{
	const struct engine *e = w->job->engine;
	int n = eng_reap(e, w->engine_state, 1, w->inflight, REAP_WAIT_NS, w->done);
	uint64_t now;

	if (n == -EINTR || n == -EAGAIN)
		return 0;
	if (n < 0) {
		w->inflight = 0;
		return vfail(w, -n, "job '%s': verify reads could not be reaped: %s",
			     w->job->o.name, strerror(-n));
	}
	now = clock_now_ns();
	for (int i = 0; i < n; i++)
		check_read(w, w->done[i], now);
	w->inflight -= (uint32_t)n;
	return 0;
}

int verify_run(struct worker *w, enum vpass pass)
{
	const struct job_opts *o = &w->job->o;
	const struct engine *e = w->job->engine;
	struct verify_state *vs = w->vs;
	const uint32_t batch = o->iodepth_batch_submit ? o->iodepth_batch_submit : 1;
	struct vpass_it it = { .pass = pass };
	uint64_t t_start = clock_now_ns();
	uint32_t pending = 0;
	bool more = true;
	int rc = 0;

	/* Reads of a later pass must not come from the page cache alone. */
	if (pass != VPASS_BACKLOG)
		for (uint32_t i = 0; i < w->nr_files; i++)
			eng_invalidate(e, w->engine_state, &w->files[i]);
	while (!rc) {
		while (more && w->nr_free && !vs->stop &&
		       !atomic_load_explicit(&worker_stop_requested, memory_order_relaxed)) {
			struct iorig_io *io;
			const struct file_cursor *c;
			uint32_t fi, gen;
			uint64_t slot, t0;
			int q;

			if (!next_target(w, &it, &fi, &slot, &gen)) {
				more = false;
				break;
			}
			io = w->free_ios[--w->nr_free];
			c = &w->cursors[fi];
			io->ddir = DDIR_READ;
			io->file = &w->files[fi];
			io->offset = c->start + slot * vs->grid;
			io->len = c->len - slot * vs->grid < vs->grid ? c->len - slot * vs->grid
								       : vs->grid;
			io->core_data[T_VERIFY] = gen;
			t0 = clock_now_ns();
			io->core_data[T_QUEUE] = t0;
			io->core_data[T_ISSUE] = t0;
			q = eng_queue(e, w->engine_state, io);
			if (q == IORIG_Q_COMPLETED) {
				check_read(w, io, clock_now_ns());
			} else if (q == IORIG_Q_QUEUED) {
				w->pending[pending++] = io;
				w->inflight++;
				if (pending >= batch && (rc = commit_reads(w, &pending)))
					break;
			} else if (q == IORIG_Q_BUSY && w->inflight) {
				it.have_retry = true;
				it.retry_fi = fi;
				it.retry_slot = slot;
				w->free_ios[w->nr_free++] = io;
				break;
			} else {
				w->free_ios[w->nr_free++] = io;
				rc = vfail(w, q < 0 ? -q : EBUSY, "job '%s': verify read at offset %llu "
					   "of %s could not be queued: %s", o->name,
					   (unsigned long long)io->offset, io->file->path,
					   strerror(q < 0 ? -q : EBUSY));
			}
			if (w->error)
				rc = rc ? rc : -w->error;
			if (rc)
				break;
		}
		if (!rc)
			rc = commit_reads(w, &pending);
		if (rc || !w->inflight) {
			if (rc || !more || vs->stop || w->error ||
			    atomic_load_explicit(&worker_stop_requested, memory_order_relaxed))
				break;
			continue;
		}
		rc = reap_reads(w);
	}
	if (pending)
		commit_reads(w, &pending);
	while (w->inflight) {
		uint32_t before = w->inflight;

		reap_reads(w);
		if (w->inflight == before)
			break;
	}
	w->st->verify.elapsed_ns += clock_now_ns() - t_start;
	if (pass == VPASS_BACKLOG)
		vs->ring_n = 0;
	return w->error ? -w->error : 0;
}
