/*
 * Buffer contents: what the bytes of a write are.  By default each I/O
 * buffer is filled once with pseudo-random bytes before the run; options
 * make them zeros (zero_buffers), refill them before every write
 * (refill_buffers), make them compressible to a given share
 * (buffer_compress_percentage) or make a share of the writes duplicates of
 * each other (dedupe_percentage), so that compressing or deduplicating
 * storage is measured for what it is asked to do.
 *
 * Contents are a pure function of (options, seed): verification
 * regenerates a payload from the seed in its block header.  job.h includes
 * this header: it must not include job.h.
 */
#ifndef IORIG_BUFFILL_H
#define IORIG_BUFFILL_H

#include <stdbool.h>
#include <stdint.h>

#include "offsets.h"

struct buffill_opts {
	bool zero;               /* zero_buffers */
	bool refill;             /* refill_buffers */
	uint32_t compress_pct;   /* buffer_compress_percentage: 0..100 */
	uint64_t compress_chunk; /* buffer_compress_chunk: bytes per compressible run */
	uint32_t dedupe_pct;     /* dedupe_percentage: 0..100 */
};

struct buffill_state {
	bool per_write;          /* fill before every write */
	uint64_t dedupe_seed;    /* the contents every duplicate write repeats */
	struct rng rng;          /* per-write seeds and the dedupe draw */
};

/* Fill len bytes of buf: a pure function of the options and the seed. */
void buffill(const struct buffill_opts *o, void *buf, uint64_t len, uint64_t seed);

void buffill_state_init(struct buffill_state *s, const struct buffill_opts *o,
			bool verify, uint64_t seed);

/* Seed of the next write's contents: a duplicate's seed dedupe_pct% of the time. */
static inline uint64_t buffill_next_seed(struct buffill_state *s, const struct buffill_opts *o)
{
	uint64_t seed = rng_next(&s->rng);

	if (o->dedupe_pct && rng_below(&s->rng, 100) < o->dedupe_pct)
		return s->dedupe_seed;
	return seed;
}

#endif
