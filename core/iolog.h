/*
 * fio-style bandwidth, IOPS and latency logs (write_bw_log, write_iops_log,
 * write_lat_log): CSV rows "time_ms, value, ddir, bs, [offset,] prio" in
 * files PREFIX_bw.N.log, PREFIX_iops.N.log, PREFIX_{lat,clat,slat}.N.log,
 * N the job instance's number in the run from 1 (as fio names them).
 *
 * Two ways to get the figures, so the worker's hot path never writes a
 * file:
 *  - log_avg_msec > 0: the sampler thread averages each window from the
 *    worker's published counters and latency histograms; the worker does
 *    nothing at all.
 *  - log_avg_msec = 0 (one row per I/O, fio's default): the worker pushes
 *    a record per completed I/O into a preallocated single-producer ring
 *    (no lock, no allocation, no syscall); the sampler thread drains it
 *    into the files every few milliseconds.  A full ring drops records and
 *    counts them; the run then warns.
 */
#ifndef IORIG_IOLOG_H
#define IORIG_IOLOG_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

struct monitor_worker;

struct iolog_rec {
	uint64_t t;       /* completion, clock_now_ns() */
	uint64_t lat;     /* queue() to completion, ns */
	uint64_t clat;    /* issue to completion, ns */
	uint64_t offset;  /* in the file */
	uint32_t len;
	uint32_t ddir;
};

struct iolog_ring {
	struct iolog_rec *rec;
	uint64_t mask;        /* capacity - 1 (a power of two) */
	uint64_t head;        /* worker only: next record to write */
	uint64_t seen_tail;   /* worker only: last tail it read */
	uint64_t dropped;     /* worker only; read after the worker ended */
	_Alignas(64) _Atomic uint64_t published; /* records [tail, published) are ready */
	_Alignas(64) _Atomic uint64_t tail;      /* sampler: next record to read */
};

/* The calling worker thread's ring, or NULL: set once before its I/O loop. */
extern _Thread_local struct iolog_ring *iolog_tls;

/* Hot path: one record per completed, measured I/O. */
static inline void iolog_push(struct iolog_ring *r, uint64_t t, uint64_t lat, uint64_t clat,
			      uint64_t offset, uint32_t len, uint32_t ddir)
{
	uint64_t h = r->head;
	struct iolog_rec *e;

	if (h - r->seen_tail > r->mask) {
		r->seen_tail = atomic_load_explicit(&r->tail, memory_order_acquire);
		if (h - r->seen_tail > r->mask) {
			r->dropped++;
			return;
		}
	}
	e = &r->rec[h & r->mask];
	e->t = t;
	e->lat = lat;
	e->clat = clat;
	e->offset = offset;
	e->len = len;
	e->ddir = ddir;
	r->head = h + 1;
	atomic_store_explicit(&r->published, h + 1, memory_order_release);
}

struct iolog;

/*
 * Open the logs job instance w asks for: 0 with *out NULL when it asks for
 * none; -errno with a message in err when a file cannot be created.  Sets
 * w->ring in per-I/O mode.
 */
int iolog_open(struct iolog **out, struct monitor_worker *w, char *err, size_t errlen);
/* Sampler thread: write what is due. */
void iolog_tick(struct iolog *l, const struct monitor_worker *w, uint64_t now);
/* After the worker ended: the last rows, close the files, free. */
void iolog_close(struct iolog *l, const struct monitor_worker *w);

#endif
