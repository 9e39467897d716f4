/*
 * Workload shaping: block-size splits (bssplit), the read/write mix, the
 * random offset distributions (random, zipf, pareto, normal, zoned) and
 * percentage_random.  The option structs are part of struct job_opts
 * (job.h includes this header, so it must not include job.h); the
 * samplers are what prep_io() calls per I/O: no allocation, no syscall,
 * a few multiplications (zipf: a log and an exp or two).
 */
#ifndef IORIG_DISTRIB_H
#define IORIG_DISTRIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offsets.h"

#define SHAPE_DIRS 3      /* == DDIR_COUNT (checked in distrib.c) */
#define BSSPLIT_MAX 64
#define ZONES_MAX 64

struct bssplit_entry {
	uint64_t bs;
	uint32_t pct;         /* percent of this direction's I/Os */
};

struct bssplit {
	uint32_t n;           /* 0: not set, bs/bsrange decide */
	struct bssplit_entry e[BSSPLIT_MAX];
};

enum dist_type {
	DIST_RANDOM = 0,      /* uniform (the random map applies) */
	DIST_ZIPF,            /* zipf:theta */
	DIST_PARETO,          /* pareto:h */
	DIST_NORMAL,          /* normal:sigma (percent of the region) */
	DIST_ZONED,           /* zoned:access%/size%:... */
	DIST_ZONED_ABS,       /* zoned_abs:access%/bytes:... */
};

struct dist_zone {
	uint32_t access_pct;
	uint64_t size;        /* percent of the region (zoned) or bytes (zoned_abs) */
};

struct dist_opts {
	uint32_t type;        /* enum dist_type */
	double param;         /* theta, h or sigma */
	uint32_t nzones;
	struct dist_zone zones[ZONES_MAX];
};

struct shape_opts {
	struct bssplit bssplit[SHAPE_DIRS];
	struct dist_opts dist;
	uint32_t pct_random[SHAPE_DIRS]; /* random share of a random workload */
	uint64_t offset_increment;       /* clone N starts at offset + N * this */
};

/* ---- per-file sampler state (one per file cursor) ------------------------ */

struct dist_state {
	uint32_t type;
	uint64_t n;           /* blocks in the region */
	/* zipf (rejection-inversion) */
	double theta, hx1, hn, s;
	/* pareto */
	double pareto_pow;
	/* normal */
	double sigma_blocks;
	/* zoned: cumulative access (percent) and block ranges */
	uint32_t nzones;
	uint32_t zone_cum[ZONES_MAX];
	uint64_t zone_first[ZONES_MAX], zone_len[ZONES_MAX];
	/* rank scrambling (zipf, pareto): block = (rank * mul + add) mod n */
	uint64_t mul, add;
};

/*
 * Set up the sampler for a region of n blocks of `unit` bytes.  Returns 0,
 * or -EINVAL with a reason (a zoned_abs zone past the region's end).
 */
int dist_state_init(struct dist_state *s, const struct dist_opts *o, uint64_t n,
		    uint64_t unit, uint64_t seed, char *err, size_t errlen);
/* Next block in [0, n). */
uint64_t dist_next(struct dist_state *s, struct rng *r);

/* ---- read/write mix ---------------------------------------------------- */

/*
 * The mix is random, but never strays more than MIX_SLACK_IOS I/Os from
 * rwmixread: past that the other direction is forced.  After n I/Os the
 * read share is within (MIX_SLACK_IOS + 1) / n of the target (under 1%
 * from 900 I/Os on), yet the sequence stays unpredictable.
 */
#define MIX_SLACK_IOS 8

struct mix_state {
	int64_t credit;       /* 100 * reads - rwmixread * I/Os so far */
};

static inline bool mix_pick_read(struct mix_state *m, struct rng *r, uint32_t pct_read)
{
	bool read;

	if (m->credit > 100 * MIX_SLACK_IOS)
		read = false;
	else if (m->credit < -100 * MIX_SLACK_IOS)
		read = true;
	else
		read = rng_below(r, 100) < pct_read;
	m->credit += (read ? 100 : 0) - (int64_t)pct_read;
	return read;
}

/* A block size from a split: the entries' shares are exact percentages. */
static inline uint64_t bssplit_pick(const struct bssplit *b, struct rng *r)
{
	uint32_t x = (uint32_t)rng_below(r, 100), acc = 0;

	for (uint32_t i = 0; i < b->n; i++) {
		acc += b->e[i].pct;
		if (x < acc)
			return b->e[i].bs;
	}
	return b->e[b->n - 1].bs;
}

/* ---- option parsers (used by the core option table, options_core.c) ---------------------- */

/*
 * Each parses one option value into its field and returns 0, or -EINVAL
 * with "option 'NAME': 'VALUE' <why>; accepted: <what>" in err.
 */
int shape_parse_bssplit(void *field, const char *name, const char *val, char *err, size_t errlen);
int shape_parse_dist(void *field, const char *name, const char *val, char *err, size_t errlen);
/* Per-direction percentages "r[,w[,t]]", each 0..100 (uint32_t[3]). */
int shape_parse_dir_pct(void *field, const char *name, const char *val, char *err, size_t errlen);

/* Name of a distribution for reports ("zipf:1.2"). */
void dist_format(char *buf, size_t len, const struct dist_opts *o);

#endif
