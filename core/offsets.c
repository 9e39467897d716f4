/*
 * Seeding of the xoshiro256** PRNG and the block permutation behind the
 * random map (see offsets.h).
 *
 * The permutation is a 4-round Feistel network over [0, 2^B), B the bit
 * width of n - 1, split into a high half of ceil(B/2) bits and a low half of
 * floor(B/2) bits (an unbalanced Feistel: the halves swap sizes each round
 * and are back in place after an even number of rounds).  Using 2^B rather
 * than the next even-bit power keeps the domain below 2n, so cycle walking
 * (re-encrypting until the value is < n) needs fewer than two
 * encryptions on average.  A Feistel network is a bijection whatever its round
 * function, so cycle walking from a value < n always comes back below n:
 * every pass yields each block exactly once.
 */
#include "offsets.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * splitmix64 is a bijection of its counter, so four consecutive outputs are
 * never all zero (the one state xoshiro cannot leave): every seed works.
 */
void rng_seed(struct rng *r, uint64_t seed)
{
	uint64_t x = seed;

	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

static void blockperm_rekey(struct blockperm *p)
{
	for (int i = 0; i < 4; i++)
		p->keys[i] = rng_next(&p->rng);
}

void blockperm_init(struct blockperm *p, uint64_t n, uint64_t seed)
{
	unsigned bits = n > 1 ? 64u - (unsigned)__builtin_clzll(n - 1) : 0;

	p->n = n ? n : 1; /* an empty file has no blocks; never divide by it */
	p->pos = 0;
	p->half_bits = bits / 2; /* the low half; the high half has the rest */
	p->half_mask = (UINT64_C(1) << p->half_bits) - 1;
	rng_seed(&p->rng, seed);
	blockperm_rekey(p);
}

/*
 * Round function: the top w bits (w <= 32) of a keyed multiplicative hash.
 * The top bits of a product depend on every bit of x, and one multiply per
 * round keeps the walk's serial chain short; the permutation property does
 * not depend on the quality of this function, only the shuffle does.
 */
static inline uint64_t perm_f(uint64_t x, uint64_t k, unsigned w)
{
	uint64_t h = (x ^ k) * 0x9e3779b97f4a7c15ULL;

	return (h >> (63 - w)) >> 1; /* two shifts: w == 0 must give 0 */
}

static inline uint64_t perm_encrypt(const struct blockperm *p, uint64_t x,
				    unsigned hi_bits)
{
	unsigned lo_bits = p->half_bits;
	uint64_t a = x >> lo_bits, b = x & p->half_mask, t;

	/* (a: hi, b: lo) -> (a: lo, b: hi) -> back, twice. */
	t = b; b = a ^ perm_f(b, p->keys[0], hi_bits); a = t;
	t = b; b = a ^ perm_f(b, p->keys[1], lo_bits); a = t;
	t = b; b = a ^ perm_f(b, p->keys[2], hi_bits); a = t;
	t = b; b = a ^ perm_f(b, p->keys[3], lo_bits); a = t;
	return (a << lo_bits) | b;
}

uint64_t blockperm_next(struct blockperm *p)
{
	unsigned hi_bits;
	uint64_t x;

	if (p->pos >= p->n) {
		p->pos = 0;
		blockperm_rekey(p);
	}
	hi_bits = p->n > 1 ? 64u - (unsigned)__builtin_clzll(p->n - 1) - p->half_bits : 0;
	x = p->pos++;
	do
		x = perm_encrypt(p, x, hi_bits);
	while (x >= p->n);
	return x;
}
