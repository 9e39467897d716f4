/*
 * Log-linear latency histogram (see histogram.h for the layout contract).
 *
 * Index of v: with k = floor(log2(v | 2^SUB_BITS)) and shift = k - SUB_BITS,
 * idx = shift * 2^SUB_BITS + (v >> shift).  For v < 2^(SUB_BITS+1) shift is 0
 * and idx = v (one bucket per value); above, v >> shift lies in
 * [2^SUB_BITS, 2^(SUB_BITS+1)), so each power of two gets 2^SUB_BITS buckets
 * of width 2^shift and the indices follow on without gaps.  No branch, no
 * table: one clz, a shift and an add.
 */
#include "histogram.h"

#include <math.h>
#include <string.h>


void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	dst->count += src->count;
	dst->overflow += src->overflow;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

uint64_t hist_bucket_lo(unsigned idx)
{
	unsigned shift;

	if (idx >= HIST_NBUCKETS)
		idx = HIST_LAST;
	if (idx < 2 * HIST_SUB)
		return idx;
	shift = (idx >> HIST_SUB_BITS) - 1;
	return (uint64_t)(idx - (shift << HIST_SUB_BITS)) << shift;
}

uint64_t hist_bucket_hi(unsigned idx)
{
	if (idx >= HIST_NBUCKETS)
		idx = HIST_LAST;
	if (idx == HIST_LAST)
		return (UINT64_C(1) << HIST_MAX_BITS) - 1;
	return hist_bucket_lo(idx + 1) - 1;
}

/*
 * ceil(pct/100 * count), made robust against the rounding of the product:
 * 99.9% of 1000 must be rank 999, not 1000 because 99.9 is not exact in
 * binary.  The slack (a few ulps) is far below the 1/count spacing of ranks.
 */
static uint64_t hist_rank(double pct, uint64_t count)
{
	double x = pct / 100.0 * (double)count;
	double r = ceil(x - x * 4e-15);

	if (r < 1.0)
		return 1;
	if (r >= (double)count)
		return count;
	return (uint64_t)r;
}

uint64_t hist_percentile(const struct hist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (h->count == 0)
		return 0;
	rank = hist_rank(pct, h->count);
	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			uint64_t lo = hist_bucket_lo(i);

			return lo + (hist_bucket_hi(i) - lo) / 2;
		}
	}
	return hist_bucket_lo(HIST_LAST); /* counts inconsistent: never here */
}

/*
 * Buckets lying wholly below limit's bucket; the bucket holding limit is left
 * out, so the answer is exact when limit is a bucket's lower bound (every
 * value below 2^(SUB_BITS+1), and round microsecond/millisecond limits that
 * are multiples of the bucket width) and otherwise short by at most the
 * samples of that one bucket.
 */
uint64_t hist_count_below(const struct hist *h, uint64_t limit)
{
	uint64_t n = 0;
	unsigned end;

	if (limit >> HIST_MAX_BITS)
		return h->count - h->overflow;
	end = hist_index(limit);
	for (unsigned i = 0; i < end; i++)
		n += h->buckets[i];
	return n;
}
