/*
 * Offset generation for the hot path: a fast seeded PRNG and a random
 * permutation of block numbers.  The permutation visits every block exactly
 * once per pass with O(1) memory (no bitmap), so the random map (fio's
 * default: every block touched once per pass) costs nothing per I/O; with
 * norandommap the worker draws uniform blocks from the PRNG instead.
 * Both are reproducible from the seed.
 */
#ifndef IORIG_OFFSETS_H
#define IORIG_OFFSETS_H

#include <stdint.h>

/* xoshiro256** */
struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias < n / 2^64). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* Uniform double in [0, 1). */
static inline double rng_unit(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/*
 * Pseudo-random permutation of [0, n): a keyed Feistel network over the
 * smallest even-bit power of two >= n, with cycle-walking for values >= n.
 * Each pass uses new keys drawn from the seed, so passes differ but the
 * whole sequence is reproducible.
 */
struct blockperm {
	uint64_t n;        /* blocks */
	uint64_t pos;      /* next position in this pass */
	uint32_t half_bits;
	uint64_t half_mask;
	uint64_t keys[4];
	struct rng rng;    /* draws the keys of each pass */
};

void blockperm_init(struct blockperm *p, uint64_t n, uint64_t seed);
/* Next block of the pass; starts a new pass after n blocks. */
uint64_t blockperm_next(struct blockperm *p);

#endif
