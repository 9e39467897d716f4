/*
 * Running mean/variance (Welford) and exact merging (Chan et al.).  The
 * naive sum / sum-of-squares loses every significant digit once latencies
 * are large and tightly spread; these updates stay accurate.
 */
#include "runstat.h"

#include <math.h>

void runstat_init(struct runstat *r)
{
	r->n = 0;
	r->min = UINT64_MAX; /* so the first sample, or a merge, always wins */
	r->max = 0;
	r->mean = 0.0;
	r->m2 = 0.0;
}

void runstat_merge(struct runstat *dst, const struct runstat *src)
{
	double na, nb, n, delta;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	na = (double)dst->n;
	nb = (double)src->n;
	n = na + nb;
	delta = src->mean - dst->mean;
	dst->mean += delta * (nb / n);
	dst->m2 += src->m2 + delta * delta * (na * nb / n);
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

double runstat_stdev(const struct runstat *r)
{
	if (r->n < 2 || r->m2 <= 0.0)
		return 0.0;
	return sqrt(r->m2 / (double)(r->n - 1));
}
