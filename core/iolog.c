/*
 * bw/iops/latency logs (iolog.h): opening the files, draining per-I/O
 * rings and averaging windows, both on the sampler thread.
 */
#include "iolog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "log.h"
#include "monitor.h"

_Thread_local struct iolog_ring *iolog_tls;

/* Records a ring holds: ~2.5 MiB per logging worker, 40 ms at 1.6M IOPS. */
#define RING_ORDER 16

enum { LOG_BW, LOG_IOPS, LOG_LAT, LOG_CLAT, LOG_SLAT, LOG_KINDS };
static const char *const kind_name[LOG_KINDS] = { "bw", "iops", "lat", "clat", "slat" };

struct iolog {
	FILE *f[LOG_KINDS];
	bool async;          /* engine measures submission latency (slat) */
	bool offset_col;
	uint64_t avg_ns;     /* 0: per-I/O rows from the ring */
	struct iolog_ring ring;

	/* Averaged windows. */
	bool measuring;
	uint64_t start;      /* the worker's measure start */
	uint64_t win_end;    /* end of the current window */
	uint64_t last_t;     /* when the previous row was taken */
	uint64_t prev_bytes[DDIR_COUNT], prev_ios[DDIR_COUNT];
	uint64_t prev_n[3][DDIR_COUNT];  /* lat, clat, slat */
	double prev_sum[3][DDIR_COUNT];
};

static FILE *open_log(const char *prefix, const char *jobname, const char *kind, uint32_t nr,
		      char *err, size_t errlen)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s_%s.%u.log", prefix && *prefix ? prefix : jobname, kind, nr);
	f = fopen(path, "w");
	if (!f)
		snprintf(err, errlen, "job '%s': cannot create the log %s: %s; check the "
			 "write_%s_log prefix", jobname, path, strerror(errno),
			 !strcmp(kind, "bw") || !strcmp(kind, "iops") ? kind : "lat");
	else
		setvbuf(f, NULL, _IOFBF, 1 << 16);
	return f;
}

int iolog_open(struct iolog **out, struct monitor_worker *w, char *err, size_t errlen)
{
	const struct job_opts *o = &w->job->o;
	uint32_t nr = w->job_id + 1;
	struct iolog *l;

	*out = NULL;
	if (!o->bw_log && !o->iops_log && !o->lat_log)
		return 0;
	l = calloc(1, sizeof(*l));
	if (!l) {
		snprintf(err, errlen, "job '%s': out of memory for its logs", o->name);
		return -ENOMEM;
	}
	l->async = w->job->engine && (w->job->engine->caps & IORIG_CAP_ASYNC);
	l->offset_col = o->log_offset;
	l->avg_ns = (uint64_t)o->log_avg_msec * 1000000ull;
	if (o->bw_log && !(l->f[LOG_BW] = open_log(o->bw_log, o->name, "bw", nr, err, errlen)))
		goto fail;
	if (o->iops_log && !(l->f[LOG_IOPS] = open_log(o->iops_log, o->name, "iops", nr, err, errlen)))
		goto fail;
	for (int k = LOG_LAT; o->lat_log && k <= LOG_SLAT; k++)
		if (!(l->f[k] = open_log(o->lat_log, o->name, kind_name[k], nr, err, errlen)))
			goto fail;
	if (!l->avg_ns) {
		l->ring.mask = (1ull << RING_ORDER) - 1;
		l->ring.rec = calloc(l->ring.mask + 1, sizeof(*l->ring.rec));
		if (!l->ring.rec) {
			snprintf(err, errlen, "job '%s': out of memory for its per-I/O log; set "
				 "log_avg_msec", o->name);
			goto fail;
		}
		w->ring = &l->ring;
	}
	*out = l;
	return 0;
fail:
	for (int k = 0; k < LOG_KINDS; k++)
		if (l->f[k])
			fclose(l->f[k]);
	free(l->ring.rec);
	free(l);
	return -EIO;
}

static void row(struct iolog *l, int kind, uint64_t t_ms, uint64_t value, uint32_t ddir,
		uint32_t bs, uint64_t offset, bool with_offset)
{
	if (!l->f[kind])
		return;
	if (with_offset)
		fprintf(l->f[kind], "%" PRIu64 ", %" PRIu64 ", %u, %u, %" PRIu64 ", 0\n", t_ms, value,
			ddir, bs, offset);
	else
		fprintf(l->f[kind], "%" PRIu64 ", %" PRIu64 ", %u, %u, 0\n", t_ms, value, ddir, bs);
}

/* ---- one row per I/O -------------------------------------------------------- */

static void drain(struct iolog *l, const struct monitor_worker *w)
{
	struct iolog_ring *r = &l->ring;
	uint64_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint64_t head = atomic_load_explicit(&r->published, memory_order_acquire);
	uint64_t start;

	if (tail == head)
		return;
	start = atomic_load_explicit(&w->st->live_measure_start, memory_order_relaxed);
	for (; tail != head; tail++) {
		const struct iolog_rec *e = &r->rec[tail & r->mask];
		uint64_t t_ms = e->t > start ? (e->t - start) / 1000000 : 0;
		bool off = l->offset_col;

		/* As fio: a per-I/O "bandwidth" is the I/O's size over its clat. */
		row(l, LOG_BW, t_ms, (uint64_t)e->len * 1000000ull / (e->clat ? e->clat : 1), e->ddir,
		    e->len, e->offset, off);
		row(l, LOG_IOPS, t_ms, 1, e->ddir, e->len, e->offset, off);
		row(l, LOG_LAT, t_ms, e->lat, e->ddir, e->len, e->offset, off);
		row(l, LOG_CLAT, t_ms, e->clat, e->ddir, e->len, e->offset, off);
		if (l->async)
			row(l, LOG_SLAT, t_ms, e->lat - e->clat, e->ddir, e->len, e->offset, off);
	}
	atomic_store_explicit(&r->tail, tail, memory_order_release);
}

/* ---- averaged windows ------------------------------------------------------- */

static const struct hist *lat_hist(const struct job_stats *st, int kind, int d)
{
	return kind == 0 ? &st->dir[d].lat.h : kind == 1 ? &st->dir[d].clat.h : &st->dir[d].slat.h;
}

/* One row per direction seen since the last one, stamped t_ms. */
static void window_rows(struct iolog *l, const struct monitor_worker *w, uint64_t t_ms,
			uint64_t now)
{
	double secs = (double)(now - l->last_t) / 1e9;

	for (int d = 0; d < DDIR_COUNT; d++) {
		uint64_t b = atomic_load_explicit(&w->st->live_bytes[d], memory_order_relaxed);
		uint64_t n = atomic_load_explicit(&w->st->live_ios[d], memory_order_relaxed);
		uint64_t db = b - l->prev_bytes[d], dn = n - l->prev_ios[d];

		if (!monitor_job_does(&w->job->o, d))
			continue;
		if (dn && secs > 0) {
			row(l, LOG_BW, t_ms, (uint64_t)((double)db / 1024.0 / secs + 0.5), (uint32_t)d, 0, 0,
			    false);
			row(l, LOG_IOPS, t_ms, (uint64_t)((double)dn / secs + 0.5), (uint32_t)d, 0, 0, false);
		}
		l->prev_bytes[d] = b;
		l->prev_ios[d] = n;
		for (int k = 0; k < 3; k++) {
			uint64_t hn;
			double hs;

			if (!l->f[LOG_LAT + k] || (k == 2 && !l->async))
				continue;
			monitor_hist_sum(lat_hist(w->st, k, d), &hn, &hs);
			if (hn > l->prev_n[k][d])
				row(l, LOG_LAT + k, t_ms,
				    (uint64_t)((hs - l->prev_sum[k][d]) / (double)(hn - l->prev_n[k][d]) + 0.5),
				    (uint32_t)d, 0, 0, false);
			l->prev_n[k][d] = hn;
			l->prev_sum[k][d] = hs;
		}
	}
	l->last_t = now;
}

/* Windows start when the worker's measured phase does (after ramp_time). */
static bool measuring(struct iolog *l, const struct monitor_worker *w)
{
	if (l->measuring)
		return true;
	if (!atomic_load_explicit(&w->st->live_measuring, memory_order_acquire))
		return false;
	l->measuring = true;
	l->start = atomic_load_explicit(&w->st->live_measure_start, memory_order_relaxed);
	l->last_t = l->start;
	l->win_end = l->start + l->avg_ns;
	return true;
}

static void average(struct iolog *l, const struct monitor_worker *w, uint64_t now)
{
	if (!measuring(l, w))
		return;
	if (now < l->win_end || atomic_load_explicit(&w->st->live_done, memory_order_acquire))
		return; /* a finished worker's last rows come from iolog_close */
	window_rows(l, w, (l->win_end - l->start) / 1000000, now);
	/* Windows the sampler slept through are folded into this row. */
	l->win_end += l->avg_ns * ((now - l->win_end) / l->avg_ns + 1);
}

void iolog_tick(struct iolog *l, const struct monitor_worker *w, uint64_t now)
{
	if (!l)
		return;
	if (l->avg_ns)
		average(l, w, now);
	else
		drain(l, w);
}

void iolog_close(struct iolog *l, const struct monitor_worker *w)
{
	if (!l)
		return;
	if (l->avg_ns && measuring(l, w)) {
		/* The worker has stopped: its runtime ends the last window. */
		uint64_t stop = l->start + w->st->runtime_ns;

		window_rows(l, w, (stop - l->start) / 1000000, stop > l->last_t ? stop : l->last_t + 1);
	} else if (!l->avg_ns) {
		drain(l, w);
		if (l->ring.dropped)
			log_warn("job '%s': %" PRIu64 " log rows dropped (the logger could not keep up); "
				 "set log_avg_msec to log averages instead", w->job->o.name, l->ring.dropped);
	}
	for (int k = 0; k < LOG_KINDS; k++)
		if (l->f[k] && fclose(l->f[k]))
			log_err("job '%s': writing its %s log failed: %s", w->job->o.name, kind_name[k],
				strerror(errno));
	free(l->ring.rec);
	free(l);
}
