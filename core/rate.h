/*
 * Rate limiting and think time: when each I/O is *meant* to be issued.
 *
 * Every I/O of a throttled direction gets an intended issue time on an
 * absolute schedule (the previous one's plus len / rate, or 1 / rate_iops,
 * or an exponential draw with that mean for rate_process=poisson).  The
 * worker issues the I/O at that time, waiting (and reaping completions)
 * while it is ahead; when it is behind it issues at once, keeping up to
 * iodepth I/Os in flight, and never waits for in-flight I/O to drain
 * before sleeping (fio issue #635).  Latency is then also measured from
 * the intended time ("ilat"), which shows queueing behind a slow device
 * that latency from the actual issue hides (coordinated omission).
 *
 * rate_min / rate_iops_min: the worker fails the job when a direction
 * moved less than the floor over a rate_cycle.
 *
 * job.h includes this header: it must not include job.h.
 */
#ifndef IORIG_RATE_H
#define IORIG_RATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "offsets.h"

#define RATE_DIRS 3 /* == DDIR_COUNT (checked in rate.c) */

enum rate_process {
	RATE_LINEAR = 0,
	RATE_POISSON = 1,
};

struct rate_opts {
	uint64_t bps[RATE_DIRS];      /* rate: bytes/s, 0 unlimited */
	uint64_t iops[RATE_DIRS];     /* rate_iops */
	uint64_t min_bps[RATE_DIRS];  /* rate_min */
	uint64_t min_iops[RATE_DIRS]; /* rate_iops_min */
	uint64_t cycle_ns;            /* rate_cycle */
	uint32_t process;             /* enum rate_process */
	uint64_t think_ns;            /* thinktime */
	uint64_t think_spin_ns;       /* thinktime_spin: busy part of thinktime */
	uint32_t think_blocks;        /* thinktime_blocks */
};

struct rate_state {
	bool on;                      /* any rate, rate_iops or thinktime */
	bool limited[RATE_DIRS];
	bool poisson;
	double ns_per_byte[RATE_DIRS];
	double ns_per_io[RATE_DIRS];
	double next[RATE_DIRS];       /* intended time of the direction's next I/O (ns) */
	struct rng rng;               /* poisson draws */

	uint64_t think_ns, spin_ns;
	uint32_t think_blocks, since_think;
	uint64_t think_until, spin_until;

	bool check_min;
	uint64_t cycle_ns, cycle_start;
	uint64_t min_bps[RATE_DIRS], min_iops[RATE_DIRS];
	uint64_t cyc_bytes[RATE_DIRS], cyc_ios[RATE_DIRS];
};

void rate_state_init(struct rate_state *r, const struct rate_opts *o, uint64_t seed);
/* The schedule starts now (the worker's start). */
void rate_start(struct rate_state *r, uint64_t now);

/*
 * Intended issue time of the next I/O of direction d and length len,
 * advancing the schedule; never earlier than the end of a think time.
 * Returns 0 for an unthrottled direction with no think time pending.
 */
uint64_t rate_next_due(struct rate_state *r, uint32_t d, uint64_t len);

/* After an I/O was issued at `now`: counts blocks towards thinktime. */
static inline void rate_issued(struct rate_state *r, uint64_t now)
{
	if (r->think_ns && ++r->since_think >= r->think_blocks) {
		r->since_think = 0;
		r->spin_until = now + r->spin_ns;
		r->think_until = now + r->think_ns;
	}
}

/*
 * Account a measured completion for rate_min.  Returns 0, or -1 when a
 * finished cycle fell below a floor, with the message in msg.
 */
int rate_min_account(struct rate_state *r, uint32_t d, uint64_t len, uint64_t now,
		     char *msg, size_t msglen);
/* The measured phase (after ramp_time) starts: rate_min cycles start here. */
void rate_min_start(struct rate_state *r, uint64_t now);

extern const char *const rate_process_names[]; /* NULL-terminated, by enum rate_process */

/* Parsers for the option table: per-direction sizes / counts ("r,w,t"). */
int rate_parse_dir_bytes(void *field, const char *name, const char *val, char *err,
			 size_t errlen);
int rate_parse_dir_count(void *field, const char *name, const char *val, char *err,
			 size_t errlen);

#endif
