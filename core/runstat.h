/*
 * Running statistics: count, min, max, mean and variance by Welford's
 * method, so that the standard deviation stays accurate over billions of
 * samples; two runstats merge exactly (Chan et al.), which is how groups
 * combine per-job figures.
 */
#ifndef IORIG_RUNSTAT_H
#define IORIG_RUNSTAT_H

#include <stdint.h>

struct runstat {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2; /* sum of squared differences from the mean */
};

void runstat_init(struct runstat *r);

/* Inline: the hot path adds three samples per I/O. */
static inline void runstat_add(struct runstat *r, uint64_t v)
{
	double x = (double)v;
	double delta = x - r->mean;

	r->n++;
	r->mean += delta / (double)r->n;
	r->m2 += delta * (x - r->mean);
	if (v < r->min)
		r->min = v;
	if (v > r->max)
		r->max = v;
}
void runstat_merge(struct runstat *dst, const struct runstat *src);
/* Sample standard deviation (n-1), 0 when n < 2. */
double runstat_stdev(const struct runstat *r);

#endif
