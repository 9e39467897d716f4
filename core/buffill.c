/*
 * Buffer contents (buffill.h).  Random bytes come from xoshiro256**, eight
 * at a time: filling a 4 KiB block costs about as much as copying it.
 *
 * Compressibility: every chunk of compress_chunk bytes starts with
 * (100 - pct)% random bytes followed by zeros, so a compressor that sees
 * the whole buffer shrinks it to about (100 - pct)% (zeros cost almost
 * nothing, random bytes do not shrink).
 */
#include "buffill.h"

#include <string.h>

static void fill_random(uint8_t *p, uint64_t len, struct rng *r)
{
	uint64_t i = 0;

	for (; i + 8 <= len; i += 8) {
		uint64_t v = rng_next(r);

		memcpy(p + i, &v, 8);
	}
	if (i < len) {
		uint64_t v = rng_next(r);

		memcpy(p + i, &v, len - i);
	}
}

void buffill(const struct buffill_opts *o, void *buf, uint64_t len, uint64_t seed)
{
	uint8_t *p = buf;
	struct rng r;

	if (o->zero || o->compress_pct >= 100) {
		memset(p, 0, len);
		return;
	}
	rng_seed(&r, seed);
	if (!o->compress_pct) {
		fill_random(p, len, &r);
		return;
	}
	{
		uint64_t chunk = o->compress_chunk ? o->compress_chunk : 512;
		uint64_t rnd = chunk * (100 - o->compress_pct) / 100;

		for (uint64_t off = 0; off < len; off += chunk) {
			uint64_t n = len - off < chunk ? len - off : chunk;
			uint64_t k = n < rnd ? n : rnd;

			fill_random(p + off, k, &r);
			memset(p + off + k, 0, n - k);
		}
	}
}

void buffill_state_init(struct buffill_state *s, const struct buffill_opts *o,
			bool verify, uint64_t seed)
{
	rng_seed(&s->rng, seed ^ 0x510e527fade682d1ull);
	s->dedupe_seed = rng_next(&s->rng);
	s->per_write = verify || o->refill || o->dedupe_pct > 0;
}
