/*
 * Rate limiting and think time (rate.h): the schedule of intended issue
 * times, the rate_min check and the per-direction option parsers.
 *
 * The schedule is kept in double nanoseconds: 53 bits hold CLOCK_MONOTONIC
 * to better than a nanosecond for a century of uptime, and the fractional
 * part keeps rates like 3 I/Os per 10 us exact over millions of I/Os.
 */
#include "rate.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "distrib.h"
#include "job.h"
#include "options_int.h"
#include "parse.h"

_Static_assert(RATE_DIRS == DDIR_COUNT, "rate.h's RATE_DIRS must match DDIR_COUNT");

static const char *const dname[RATE_DIRS] = { "read", "write", "trim" };
const char *const rate_process_names[] = { "linear", "poisson", NULL };

void rate_state_init(struct rate_state *r, const struct rate_opts *o, uint64_t seed)
{
	memset(r, 0, sizeof(*r));
	rng_seed(&r->rng, seed ^ 0x1f83d9abfb41bd6bull);
	r->poisson = o->process == RATE_POISSON;
	for (int d = 0; d < RATE_DIRS; d++) {
		r->limited[d] = o->bps[d] || o->iops[d];
		r->ns_per_byte[d] = o->bps[d] ? 1e9 / (double)o->bps[d] : 0.0;
		r->ns_per_io[d] = o->iops[d] ? 1e9 / (double)o->iops[d] : 0.0;
		r->min_bps[d] = o->min_bps[d];
		r->min_iops[d] = o->min_iops[d];
		if (r->limited[d])
			r->on = true;
		if (o->min_bps[d] || o->min_iops[d])
			r->check_min = true;
	}
	r->think_ns = o->think_ns;
	r->spin_ns = o->think_spin_ns < o->think_ns ? o->think_spin_ns : o->think_ns;
	r->think_blocks = o->think_blocks ? o->think_blocks : 1;
	if (r->think_ns)
		r->on = true;
	r->cycle_ns = o->cycle_ns ? o->cycle_ns : 1000000000ull;
}

void rate_start(struct rate_state *r, uint64_t now)
{
	for (int d = 0; d < RATE_DIRS; d++)
		r->next[d] = (double)now;
	r->think_until = r->spin_until = 0;
	r->since_think = 0;
}

uint64_t rate_next_due(struct rate_state *r, uint32_t d, uint64_t len)
{
	double due = (double)r->think_until;

	if (r->limited[d]) {
		double iv = (double)len * r->ns_per_byte[d];

		if (iv < r->ns_per_io[d])
			iv = r->ns_per_io[d];
		if (r->poisson)
			iv *= -log1p(-rng_unit(&r->rng)); /* exponential, mean iv */
		/* Thinking is idle time on purpose: no burst to make up for it. */
		if (r->next[d] < due)
			r->next[d] = due;
		due = r->next[d];
		r->next[d] += iv;
	}
	return (uint64_t)due;
}

void rate_min_start(struct rate_state *r, uint64_t now)
{
	r->cycle_start = now;
	memset(r->cyc_bytes, 0, sizeof(r->cyc_bytes));
	memset(r->cyc_ios, 0, sizeof(r->cyc_ios));
}

int rate_min_account(struct rate_state *r, uint32_t d, uint64_t len, uint64_t now,
		     char *msg, size_t msglen)
{
	uint64_t el;

	r->cyc_bytes[d] += len;
	r->cyc_ios[d]++;
	if (now - r->cycle_start < r->cycle_ns)
		return 0;
	el = now - r->cycle_start;
	for (int k = 0; k < RATE_DIRS; k++) {
		double bps = (double)r->cyc_bytes[k] * 1e9 / (double)el;
		double iops = (double)r->cyc_ios[k] * 1e9 / (double)el;
		char got[32], want[32];

		if (r->min_bps[k] && bps < (double)r->min_bps[k]) {
			fmt_size(got, sizeof(got), (uint64_t)bps);
			fmt_size(want, sizeof(want), r->min_bps[k]);
			snprintf(msg, msglen, "%s rate %s/s over the last %.3f s is below rate_min=%s/s "
				 "(checked every rate_cycle): the engine or device cannot sustain it; "
				 "lower rate_min or find what slows the I/O down", dname[k], got,
				 (double)el / 1e9, want);
			return -1;
		}
		if (r->min_iops[k] && iops < (double)r->min_iops[k]) {
			snprintf(msg, msglen, "%s rate %.0f IOPS over the last %.3f s is below "
				 "rate_iops_min=%" PRIu64 " (checked every rate_cycle): the engine or "
				 "device cannot sustain it; lower rate_iops_min or find what slows the "
				 "I/O down", dname[k], iops, (double)el / 1e9, r->min_iops[k]);
			return -1;
		}
	}
	rate_min_start(r, now);
	return 0;
}

/* One direction's rate (opt_dir_parse_fn): bytes or I/Os per second. */
static const char *parse_one_bytes(void *elem, char *text, void *ctx)
{
	int rc = parse_size(text, elem);

	(void)ctx;
	return !rc ? NULL : rc == -ERANGE ? "is too large" : "is not a size";
}

static const char *parse_one_count(void *elem, char *text, void *ctx)
{
	int rc = parse_uint64(text, elem);

	(void)ctx;
	return !rc ? NULL : rc == -ERANGE ? "is too large" : "is not an integer";
}

int rate_parse_dir_bytes(void *field, const char *name, const char *val, char *err,
			 size_t errlen)
{
	static const char acc[] = "bytes per second like 10m, or per direction "
		"read,write[,trim] like 10m,2m; 0 is no limit";

	return opt_parse_dirs(field, sizeof(uint64_t), name, val, "is not a list", acc,
			      parse_one_bytes, NULL, err, errlen);
}

int rate_parse_dir_count(void *field, const char *name, const char *val, char *err,
			 size_t errlen)
{
	static const char acc[] = "I/Os per second like 5000, or per direction "
		"read,write[,trim] like 5000,1000; 0 is no limit";

	return opt_parse_dirs(field, sizeof(uint64_t), name, val, "is not a list", acc,
			      parse_one_count, NULL, err, errlen);
}
