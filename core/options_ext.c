/*
 * Cross-option rules of the verification, rate, shaping and buffer
 * options (options_ext.h).
 */
#include "options_ext.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <iorig/engine.h>

#include "verify.h"

static const char *const dname[DDIR_COUNT] = { "read", "write", "trim" };

static const struct options_ext exts[] = {
	{ "verify", verify_type_names, NULL, "enum", false },
	{ "verify_pattern", NULL, verify_parse_pattern, "hex", false },
	{ "rate", NULL, rate_parse_dir_bytes, "size-list", true },
	{ "rate_iops", NULL, rate_parse_dir_count, "int-list", true },
	{ "rate_min", NULL, rate_parse_dir_bytes, "size-list", true },
	{ "rate_iops_min", NULL, rate_parse_dir_count, "int-list", true },
	{ "rate_process", rate_process_names, NULL, "enum", false },
	{ "bssplit", NULL, shape_parse_bssplit, "split-list", true },
	{ "random_distribution", NULL, shape_parse_dist, "spec", false },
	{ "percentage_random", NULL, shape_parse_dir_pct, "pct-list", true },
};

const struct options_ext *options_ext_find(const char *name)
{
	for (size_t i = 0; i < sizeof(exts) / sizeof(exts[0]); i++)
		if (!strcmp(exts[i].name, name))
			return &exts[i];
	fprintf(stderr, "iorig: bug: option '%s' has no extension entry\n", name);
	abort();
}

static int refuse(const char **key, const char *k, char *why, size_t len, const char *fmt, ...)
	IORIG_PRINTF(5, 6);

static int refuse(const char **key, const char *k, char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	*key = k;
	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static bool does(const struct job_opts *o, int d)
{
	return d == DDIR_READ ? rw_reads(o->rw) : d == DDIR_WRITE ? rw_writes(o->rw) :
	       rw_trims(o->rw);
}

static int check_verify(struct job_opts *o, const char **key, char *why, size_t len)
{
	const struct verify_opts *v = &o->verify;

	if (!v->type) {
		if (v->only)
			return refuse(key, "verify_only", why, len, "verify_only needs verify "
				      "(e.g. verify = \"crc32c\") naming how the blocks were written");
		if (v->backlog)
			return refuse(key, "verify_backlog", why, len, "verify_backlog needs verify "
				      "(e.g. verify = \"crc32c\")");
		return 0;
	}
	if (v->type == VERIFY_PATTERN && !v->pattern_len)
		return refuse(key, "verify", why, len, "verify=pattern needs verify_pattern "
			      "(e.g. verify_pattern = \"0xdeadbeef\")");
	if (rw_trims(o->rw))
		return refuse(key, "rw", why, len, "verify cannot check trimmed blocks: use "
			      "rw=write, randwrite, rw or randrw with verify");
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!does(o, d) || o->bs_min[d] >= VERIFY_MIN_BS)
			continue;
		return refuse(key, o->shape.bssplit[d].n ? "bssplit" : "bs", why, len,
			      "verify needs %s blocks of at least %d bytes (a header of %d bytes "
			      "and a payload), this job uses %" PRIu64 "; raise the block size",
			      dname[d], VERIFY_MIN_BS, VHDR_SIZE, o->bs_min[d]);
	}
	return 0;
}

static int check_rate(const struct job_opts *o, const char **key, char *why, size_t len)
{
	const struct rate_opts *r = &o->rate;

	for (int d = 0; d < DDIR_COUNT; d++) {
		if (r->bps[d] && r->min_bps[d] > r->bps[d])
			return refuse(key, "rate_min", why, len, "rate_min for %ss (%" PRIu64
				      " bytes/s) is above rate (%" PRIu64 "): the floor could never "
				      "be met", dname[d], r->min_bps[d], r->bps[d]);
		if (r->iops[d] && r->min_iops[d] > r->iops[d])
			return refuse(key, "rate_iops_min", why, len, "rate_iops_min for %ss (%"
				      PRIu64 ") is above rate_iops (%" PRIu64 "): the floor could "
				      "never be met", dname[d], r->min_iops[d], r->iops[d]);
	}
	return 0;
}

/*
 * A floor written once ("rate_min=1m") applies to every direction, like
 * bs: it binds the directions the job does.  A floor only for directions
 * it does not do could never be checked: refused.
 */
static int settle_floors(struct job_opts *o, const char **key, char *why, size_t len)
{
	struct rate_opts *r = &o->rate;
	bool set = false, useful = false;
	int d_set = 0;

	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!r->min_bps[d] && !r->min_iops[d])
			continue;
		if (!set)
			d_set = d;
		set = true;
		if (does(o, d))
			useful = true;
	}
	if (set && !useful)
		return refuse(key, r->min_bps[d_set] ? "rate_min" : "rate_iops_min", why, len,
			      "a floor is set for %ss but rw=%s does none: set it for the "
			      "directions the job does (e.g. \",1m\" for writes only)",
			      dname[d_set], rw_mode_name(o->rw));
	for (int d = 0; d < DDIR_COUNT; d++)
		if (!does(o, d))
			r->min_bps[d] = r->min_iops[d] = 0;
	return 0;
}

static int check_think(const struct job_opts *o, const char **key, char *why, size_t len)
{
	const struct rate_opts *r = &o->rate;

	if (r->think_spin_ns > r->think_ns)
		return refuse(key, "thinktime_spin", why, len, "thinktime_spin (%" PRIu64 " ns) "
			      "is longer than thinktime (%" PRIu64 " ns): it is the busy part of "
			      "thinktime", r->think_spin_ns, r->think_ns);
	return 0;
}

static int check_buf(const struct job_opts *o, const char **key, char *why, size_t len)
{
	if (o->buf.zero && (o->buf.compress_pct || o->buf.dedupe_pct))
		return refuse(key, "zero_buffers", why, len, "zero_buffers writes only zeros: it "
			      "cannot be combined with buffer_compress_percentage or "
			      "dedupe_percentage");
	return 0;
}

int options_ext_finish(struct job_opts *o, uint64_t engine_caps, const char **key,
		       char *why, size_t len)
{
	int rc;

	(void)engine_caps;
	/* bssplit decides the block sizes of its directions. */
	for (int d = 0; d < DDIR_COUNT; d++) {
		const struct bssplit *b = &o->shape.bssplit[d];

		if (!b->n)
			continue;
		o->bs_min[d] = o->bs_max[d] = b->e[0].bs;
		for (uint32_t i = 1; i < b->n; i++) {
			if (b->e[i].bs < o->bs_min[d])
				o->bs_min[d] = b->e[i].bs;
			if (b->e[i].bs > o->bs_max[d])
				o->bs_max[d] = b->e[i].bs;
		}
	}
	rc = check_verify(o, key, why, len);
	if (!rc)
		rc = check_rate(o, key, why, len);
	if (!rc)
		rc = settle_floors(o, key, why, len);
	if (!rc)
		rc = check_think(o, key, why, len);
	if (!rc)
		rc = check_buf(o, key, why, len);
	return rc;
}
