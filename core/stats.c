/*
 * Per job-instance statistics: initialisation, exact merging (group
 * reporting, multi-instance jobs) and fio's depth / batch-size buckets.
 */
#include "stats.h"

#include <string.h>

static void lat_stat_init(struct lat_stat *l)
{
	runstat_init(&l->rs);
	hist_init(&l->h);
}

static void lat_stat_merge(struct lat_stat *dst, const struct lat_stat *src)
{
	runstat_merge(&dst->rs, &src->rs);
	hist_merge(&dst->h, &src->h);
}

void job_stats_init(struct job_stats *s)
{
	memset(s, 0, sizeof(*s));
	for (int d = 0; d < DDIR_COUNT; d++) {
		struct dir_stats *ds = &s->dir[d];

		lat_stat_init(&ds->slat);
		lat_stat_init(&ds->clat);
		lat_stat_init(&ds->lat);
		lat_stat_init(&ds->ilat);
		runstat_init(&ds->bw_samples);
		runstat_init(&ds->iops_samples);
		atomic_init(&s->live_bytes[d], 0);
		atomic_init(&s->live_ios[d], 0);
	}
	lat_stat_init(&s->sync);
	atomic_init(&s->live_measuring, 0);
	atomic_init(&s->live_done, 0);
	s->nr_jobs = 1;
}

static void add_u64(uint64_t *dst, const uint64_t *src, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		dst[i] += src[i];
}

/*
 * Called once the workers are done (report time), so the relaxed loads of
 * src's live counters see their final values.  live_measuring/live_done
 * describe one thread and mean nothing for a sum: left alone.
 */
void job_stats_merge(struct job_stats *dst, const struct job_stats *src)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		struct dir_stats *a = &dst->dir[d];
		const struct dir_stats *b = &src->dir[d];
		uint64_t v;

		lat_stat_merge(&a->slat, &b->slat);
		lat_stat_merge(&a->clat, &b->clat);
		lat_stat_merge(&a->lat, &b->lat);
		lat_stat_merge(&a->ilat, &b->ilat);
		a->bytes += b->bytes;
		a->ios += b->ios;
		runstat_merge(&a->bw_samples, &b->bw_samples);
		runstat_merge(&a->iops_samples, &b->iops_samples);

		v = atomic_load_explicit(&src->live_bytes[d], memory_order_relaxed);
		atomic_fetch_add_explicit(&dst->live_bytes[d], v, memory_order_relaxed);
		v = atomic_load_explicit(&src->live_ios[d], memory_order_relaxed);
		atomic_fetch_add_explicit(&dst->live_ios[d], v, memory_order_relaxed);
	}
	lat_stat_merge(&dst->sync, &src->sync);
	add_u64(dst->issued, src->issued, DDIR_COUNT);
	dst->issued_sync += src->issued_sync;
	add_u64(dst->depth, src->depth, DEPTH_LEVELS);
	add_u64(dst->submit, src->submit, BATCH_LEVELS);
	add_u64(dst->complete, src->complete, BATCH_LEVELS);
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx += src->ctx;
	dst->majf += src->majf;
	dst->minf += src->minf;
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->nr_jobs += src->nr_jobs;
	dst->verify.blocks += src->verify.blocks;
	dst->verify.bytes += src->verify.bytes;
	add_u64(dst->verify.bad, src->verify.bad, VK_KINDS);
	if (src->verify.elapsed_ns > dst->verify.elapsed_ns)
		dst->verify.elapsed_ns = src->verify.elapsed_ns;
	if (!dst->verify.first[0])
		memcpy(dst->verify.first, src->verify.first, sizeof(dst->verify.first));
}

/* floor(log2(depth)) capped at ">=64": 3 counts as "2", 63 as "32" (fio). */
unsigned stats_depth_level(unsigned depth)
{
	unsigned l;

	if (depth <= 1)
		return 0;
	l = 31u - (unsigned)__builtin_clz(depth);
	return l < DEPTH_LEVELS - 1 ? l : DEPTH_LEVELS - 1;
}

/* 0, 1..4, 5..8, 9..16, 17..32, 33..64, >64: ceil(log2(n)) - 1 from 5 up. */
unsigned stats_batch_level(unsigned n)
{
	unsigned l;

	if (n == 0)
		return 0;
	if (n <= 4)
		return 1;
	l = 32u - (unsigned)__builtin_clz(n - 1) - 1; /* ceil(log2 n) - 1 */
	return l < BATCH_LEVELS - 1 ? l : BATCH_LEVELS - 1;
}
