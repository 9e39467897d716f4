/*
 * Workload shaping (distrib.h): the offset distributions, and the parsers
 * of bssplit, random_distribution and percentage_random.
 *
 * Zipf uses rejection-inversion sampling (Hörmann and Derflinger, "Rejection-
 * inversion to generate variates from monotone discrete distributions",
 * 1996): O(1) per sample and no table, so a zipf over a billion blocks costs
 * no memory.  Zipf and pareto ranks are scattered over the region by an
 * affine bijection (rank * mul + add mod n), so the hot blocks are not all
 * at the start of the file.
 */
#include "distrib.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "options_int.h"
#include "parse.h"

_Static_assert(SHAPE_DIRS == DDIR_COUNT, "distrib.h's SHAPE_DIRS must match DDIR_COUNT");

/* ---- zipf: rejection-inversion ------------------------------------------ */

/* log1p(x)/x and expm1(x)/x, accurate near 0. */
static double log1p_x(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x * (0.5 - x * (1.0 / 3.0 - 0.25 * x));
}

static double expm1_x(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x * 0.5 * (1.0 + x / 3.0 * (1.0 + 0.25 * x));
}

/* h(x) = x^-theta, H its integral from 1 (shifted), Hinv the inverse of H. */
static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_H(double theta, double x)
{
	double lx = log(x);

	return expm1_x((1.0 - theta) * lx) * lx;
}

static double zipf_Hinv(double theta, double y)
{
	double t = y * (1.0 - theta);

	if (t < -1.0)
		t = -1.0;
	return exp(log1p_x(t) * y);
}

static uint64_t zipf_rank(const struct dist_state *s, struct rng *r)
{
	for (;;) {
		double u = s->hn + rng_unit(r) * (s->hx1 - s->hn);
		double x = zipf_Hinv(s->theta, u);
		uint64_t k = x < 1.0 ? 1 : (uint64_t)(x + 0.5);

		if (k > s->n)
			k = s->n;
		if ((double)k - x <= s->s ||
		    u >= zipf_H(s->theta, (double)k + 0.5) - zipf_h(s->theta, (double)k))
			return k - 1;
	}
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;
		a = b;
		b = t;
	}
	return a;
}

int dist_state_init(struct dist_state *s, const struct dist_opts *o, uint64_t n,
		    uint64_t unit, uint64_t seed, char *err, size_t errlen)
{
	struct rng r;

	memset(s, 0, sizeof(*s));
	s->type = o->type;
	s->n = n ? n : 1;
	rng_seed(&r, seed ^ 0x6a09e667f3bcc909ull);
	/* An odd multiplier coprime with n makes rank -> block a bijection. */
	s->mul = s->n > 1 ? (rng_next(&r) % s->n) | 1 : 0;
	while (s->n > 1 && gcd_u64(s->mul, s->n) != 1)
		s->mul = (s->mul + 2) % s->n;
	s->add = rng_below(&r, s->n);

	switch (o->type) {
	case DIST_ZIPF:
		s->theta = o->param;
		s->hx1 = zipf_H(s->theta, 1.5) - 1.0;
		s->hn = zipf_H(s->theta, (double)s->n + 0.5);
		s->s = 2.0 - zipf_Hinv(s->theta, zipf_H(s->theta, 2.5) - zipf_h(s->theta, 2.0));
		break;
	case DIST_PARETO:
		/* P(block < (1-h) n) = h: an "h/(1-h)" rule, 0.8 gives 80/20. */
		s->pareto_pow = log(1.0 - o->param) / log(o->param);
		break;
	case DIST_NORMAL:
		s->sigma_blocks = (double)s->n * o->param / 100.0;
		break;
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		bool abs = o->type == DIST_ZONED_ABS;
		uint64_t first = 0, before = 0;
		uint32_t cum = 0;

		s->nzones = o->nzones;
		for (uint32_t i = 0; i < o->nzones; i++) {
			uint64_t len;

			if (abs) {
				len = o->zones[i].size / (unit ? unit : 1);
				len = len ? len : 1;
				if (first + len > s->n) {
					snprintf(err, errlen, "option 'random_distribution': the zones "
						 "of zoned_abs reach byte %" PRIu64 ", past the region of %"
						 PRIu64 " bytes; shrink the zones or raise size",
						 (first + len) * unit, s->n * unit);
					return -EINVAL;
				}
			} else {
				/* Percent zones: the last one ends exactly at the region's end. */
				uint64_t end = i + 1 == o->nzones ? s->n :
					(uint64_t)((unsigned __int128)s->n * (before + o->zones[i].size) / 100);

				first = (uint64_t)((unsigned __int128)s->n * before / 100);
				before += o->zones[i].size;
				if (first >= s->n)
					first = s->n - 1;
				len = end > first ? end - first : 1;
			}
			cum += o->zones[i].access_pct;
			s->zone_cum[i] = cum;
			s->zone_first[i] = first;
			s->zone_len[i] = len;
			if (abs)
				first += len;
		}
		break;
	}
	default:
		break;
	}
	return 0;
}

static inline uint64_t scatter(const struct dist_state *s, uint64_t rank)
{
	return (uint64_t)(((unsigned __int128)rank * s->mul + s->add) % s->n);
}

uint64_t dist_next(struct dist_state *s, struct rng *r)
{
	switch (s->type) {
	case DIST_ZIPF:
		return scatter(s, zipf_rank(s, r));
	case DIST_PARETO: {
		uint64_t k = (uint64_t)((double)s->n * pow(rng_unit(r), s->pareto_pow));

		return scatter(s, k < s->n ? k : s->n - 1);
	}
	case DIST_NORMAL:
		for (;;) {
			/* Box-Muller; draws outside the region are drawn again. */
			double u1 = 1.0 - rng_unit(r), u2 = rng_unit(r);
			double z = sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
			double x = (double)s->n / 2.0 + z * s->sigma_blocks;

			if (x >= 0.0 && x < (double)s->n)
				return (uint64_t)x;
		}
	case DIST_ZONED:
	case DIST_ZONED_ABS: {
		uint32_t x = (uint32_t)rng_below(r, 100), i = 0;

		while (i + 1 < s->nzones && x >= s->zone_cum[i])
			i++;
		return s->zone_first[i] + rng_below(r, s->zone_len[i]);
	}
	default:
		return rng_below(r, s->n);
	}
}

/* ---- parsing -------------------------------------------------------------- */

/* A plain integer percentage 0..100. */
static int parse_pct(const char *s, uint32_t *out)
{
	int64_t v;

	while (*s == ' ')
		s++;
	if (!*s || parse_int64(s, &v) || v < 0 || v > 100)
		return -EINVAL;
	*out = (uint32_t)v;
	return 0;
}

/* A double in (lo, hi) or (lo, hi] when hi_incl. */
static int parse_real(const char *s, double lo, double hi, bool hi_incl, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !opt_is_blank(end) || !isfinite(v) || v <= lo ||
	    (hi_incl ? v > hi : v >= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

#define BSSPLIT_ACCEPTED "BS/PERCENT entries joined by ':' like 4k/50:64k/50, per direction " \
	"with ',' like 4k/50:64k/50,8k; shares add up to 100 and entries without a share " \
	"split what is left; block sizes 1 .. 2147483648, at most 64 entries"

/* One direction's split (opt_dir_parse_fn): NULL, or why it is bad. */
static const char *parse_one_split(void *elem, char *f, void *ctx)
{
	uint32_t sum = 0, unset = 0;
	struct bssplit b = { .n = 0 };
	char *save = NULL;

	(void)ctx;
	for (char *tok = strtok_r(f, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		struct bssplit_entry *e;

		if (b.n == BSSPLIT_MAX)
			return "has too many entries";
		e = &b.e[b.n++];
		if (slash)
			*slash = '\0';
		if (parse_size(tok, &e->bs) || !e->bs || e->bs > (1ull << 31))
			return "has a bad block size";
		if (slash && !opt_is_blank(slash + 1)) {
			if (parse_pct(slash + 1, &e->pct))
				return "has a share that is not 0 .. 100";
			sum += e->pct;
		} else {
			e->pct = UINT32_MAX; /* filled below */
			unset++;
		}
	}
	if (!b.n)
		return "has no entries";
	if (sum > 100 || (!unset && sum != 100))
		return "has shares that do not add up to 100";
	for (uint32_t i = 0, k = 0; i < b.n; i++) {
		if (b.e[i].pct != UINT32_MAX)
			continue;
		/* The remainder split evenly; the first ones take the odd percents. */
		b.e[i].pct = (100 - sum) / unset + (k < (100 - sum) % unset ? 1 : 0);
		k++;
	}
	*(struct bssplit *)elem = b;
	return NULL;
}

int shape_parse_bssplit(void *field, const char *name, const char *val, char *err, size_t errlen)
{
	return opt_parse_dirs(field, sizeof(struct bssplit), name, val, "is not a split list",
			      BSSPLIT_ACCEPTED, parse_one_split, NULL, err, errlen);
}

#define DIST_ACCEPTED "random, zipf:THETA (0 < THETA <= 100), pareto:H (0 < H < 1), " \
	"normal:SIGMA (percent of the region, 0 < SIGMA <= 100), zoned:ACCESS%/SIZE%:... " \
	"(each adding up to 100), zoned_abs:ACCESS%/BYTES:..."

static int parse_zones(const char *name, const char *whole, char *spec, bool abs,
		       struct dist_opts *d, char *err, size_t errlen)
{
	uint32_t acc = 0;
	uint64_t size_sum = 0;
	char *save = NULL;

	d->nzones = 0;
	for (char *tok = strtok_r(spec, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		char *slash = strchr(tok, '/');
		struct dist_zone *z;

		if (d->nzones == ZONES_MAX)
			return opt_reason(err, errlen, name, whole, "has too many zones", DIST_ACCEPTED);
		if (!slash)
			return opt_reason(err, errlen, name, whole, "has a zone without '/'",
					  DIST_ACCEPTED);
		*slash = '\0';
		z = &d->zones[d->nzones++];
		if (parse_pct(tok, &z->access_pct))
			return opt_reason(err, errlen, name, whole, "has an access share that is "
					  "not 0 .. 100", DIST_ACCEPTED);
		if (abs) {
			if (parse_size(slash + 1, &z->size) || !z->size)
				return opt_reason(err, errlen, name, whole, "has a zone size that is "
						  "not a size", DIST_ACCEPTED);
		} else {
			uint32_t p;

			if (parse_pct(slash + 1, &p))
				return opt_reason(err, errlen, name, whole, "has a zone size that is "
						  "not 0 .. 100", DIST_ACCEPTED);
			z->size = p;
		}
		acc += z->access_pct;
		size_sum += z->size;
	}
	if (!d->nzones)
		return opt_reason(err, errlen, name, whole, "has no zones", DIST_ACCEPTED);
	if (acc != 100)
		return opt_reason(err, errlen, name, whole, "has access shares that do not add "
				  "up to 100", DIST_ACCEPTED);
	if (!abs && size_sum != 100)
		return opt_reason(err, errlen, name, whole, "has zone sizes that do not add up "
				  "to 100", DIST_ACCEPTED);
	return 0;
}

int shape_parse_dist(void *field, const char *name, const char *val, char *err, size_t errlen)
{
	struct dist_opts *out = field, d = { .type = DIST_RANDOM };
	char buf[2048], *arg;

	if (!val || opt_is_blank(val))
		return opt_reason(err, errlen, name, NULL, NULL, DIST_ACCEPTED);
	if (strlen(val) >= sizeof(buf))
		return opt_reason(err, errlen, name, val, "is too long", DIST_ACCEPTED);
	snprintf(buf, sizeof(buf), "%s", val);
	arg = strchr(buf, ':');
	if (arg)
		*arg++ = '\0';
	if (!strcmp(buf, "random") && !arg) {
		d.type = DIST_RANDOM;
	} else if (!strcmp(buf, "zipf") && arg) {
		d.type = DIST_ZIPF;
		if (parse_real(arg, 0.0, 100.0, true, &d.param))
			return opt_reason(err, errlen, name, val, "has a bad zipf theta", DIST_ACCEPTED);
	} else if (!strcmp(buf, "pareto") && arg) {
		d.type = DIST_PARETO;
		if (parse_real(arg, 0.0, 1.0, false, &d.param))
			return opt_reason(err, errlen, name, val, "has a bad pareto h", DIST_ACCEPTED);
	} else if ((!strcmp(buf, "normal") || !strcmp(buf, "gauss")) && arg) {
		d.type = DIST_NORMAL;
		if (parse_real(arg, 0.0, 100.0, true, &d.param))
			return opt_reason(err, errlen, name, val, "has a bad normal sigma",
					  DIST_ACCEPTED);
	} else if ((!strcmp(buf, "zoned") || !strcmp(buf, "zoned_abs")) && arg) {
		bool abs = !strcmp(buf, "zoned_abs");
		int rc;

		d.type = abs ? DIST_ZONED_ABS : DIST_ZONED;
		rc = parse_zones(name, val, arg, abs, &d, err, errlen);
		if (rc)
			return rc;
	} else {
		return opt_reason(err, errlen, name, val, "is not valid", DIST_ACCEPTED);
	}
	*out = d;
	return 0;
}

static const char *parse_one_pct(void *elem, char *text, void *ctx)
{
	(void)ctx;
	return parse_pct(text, elem) ? "is out of range" : NULL;
}

int shape_parse_dir_pct(void *field, const char *name, const char *val, char *err, size_t errlen)
{
	return opt_parse_dirs(field, sizeof(uint32_t), name, val, "is not a list",
			      "0 .. 100, or per direction read,write[,trim] like 50,100",
			      parse_one_pct, NULL, err, errlen);
}

void dist_format(char *buf, size_t len, const struct dist_opts *o)
{
	static const char *const names[] = { "random", "zipf", "pareto", "normal", "zoned",
					     "zoned_abs" };
	size_t n;

	if (o->type == DIST_RANDOM) {
		snprintf(buf, len, "random");
		return;
	}
	if (o->type <= DIST_NORMAL) {
		snprintf(buf, len, "%s:%g", names[o->type], o->param);
		return;
	}
	n = (size_t)snprintf(buf, len, "%s", names[o->type]);
	for (uint32_t i = 0; i < o->nzones && n < len; i++) {
		if (o->type == DIST_ZONED)
			n += (size_t)snprintf(buf + n, len - n, ":%u/%" PRIu64, o->zones[i].access_pct,
					      o->zones[i].size);
		else
			n += (size_t)snprintf(buf + n, len - n, ":%u/%" PRIu64 "b",
					      o->zones[i].access_pct, o->zones[i].size);
	}
}
