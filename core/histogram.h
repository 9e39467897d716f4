/*
 * Log-linear latency histogram.
 *
 * Values (nanoseconds) below 2^(HIST_SUB_BITS+1) get a bucket each; above,
 * every power of two is split into 2^HIST_SUB_BITS equal buckets.  A
 * percentile is reported as its bucket's midpoint, so its relative error is
 * at most 1 / 2^(HIST_SUB_BITS+1) = 0.39% (fio's is 0.78%).  Values up to
 * 2^HIST_MAX_BITS ns (~4.9 hours) are kept; larger ones land in the last
 * bucket and are counted in `overflow`.
 *
 * Adding a sample is a handful of instructions and touches one counter:
 * no allocation, no lock.  Merging two histograms is exact (bucket sums).
 */
#ifndef IORIG_HISTOGRAM_H
#define IORIG_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 7
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_MAX_BITS 44
#define HIST_NBUCKETS ((HIST_MAX_BITS - HIST_SUB_BITS + 1) * HIST_SUB)

struct hist {
	uint64_t count;
	uint64_t overflow;
	uint64_t buckets[HIST_NBUCKETS];
};

#define HIST_LAST (HIST_NBUCKETS - 1u)

void hist_init(struct hist *h);
/* dst += src, exactly. */
void hist_merge(struct hist *dst, const struct hist *src);
/*
 * Bucket index of v: with k = floor(log2(v | 2^SUB_BITS)) and
 * shift = k - SUB_BITS, idx = shift * 2^SUB_BITS + (v >> shift).  Below
 * 2^(SUB_BITS+1) shift is 0 and idx = v; above, each power of two gets
 * 2^SUB_BITS buckets and the indices follow on without gaps.  Inline: it
 * runs three times per I/O.
 */
static inline unsigned hist_index(uint64_t v)
{
	unsigned k = 63u - (unsigned)__builtin_clzll(v | HIST_SUB);
	unsigned shift = k - HIST_SUB_BITS;
	uint64_t idx = ((uint64_t)shift << HIST_SUB_BITS) + (v >> shift);

	/* Values >= 2^HIST_MAX_BITS: clamp (a conditional move, not a jump). */
	return idx < HIST_NBUCKETS ? (unsigned)idx : HIST_LAST;
}

static inline void hist_add(struct hist *h, uint64_t v)
{
	h->buckets[hist_index(v)]++;
	h->overflow += (v >> HIST_MAX_BITS) != 0;
	h->count++;
}

/* The [lo, hi] range of values bucket idx holds. */
uint64_t hist_bucket_lo(unsigned idx);
uint64_t hist_bucket_hi(unsigned idx);
/*
 * Value at percentile pct (0 < pct <= 100): the midpoint of the bucket
 * holding the ceil(pct/100 * count)-th smallest sample.  0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double pct);
/* Samples with value < limit (approximate within one bucket's width). */
uint64_t hist_count_below(const struct hist *h, uint64_t limit);

#endif
