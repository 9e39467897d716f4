/*
 * What the pieces of the option code share, and nothing else includes:
 *   option_text.c   value parsing and the "accepted: ..." reasons, used
 *                   too by the parsers of options_ext.inc's own kinds
 *                   (bssplit and random_distribution in distrib.c, the
 *                   rates in rate.c)
 *   option_table.c  the binder of engine tables (options.h)
 *   options_core.c  the core option table and its binder
 *   options.c       building jobs, cross-option rules
 *   options_print.c the option table printer
 * Anything another part of the core needs goes in options.h instead.
 */
#ifndef IORIG_OPTIONS_INT_H
#define IORIG_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"

/* ---- option_text.c ---------------------------------------------------- */

#define OPT_SIZE_EXAMPLES "sizes like 4k, 1m"

union opt_scalar {
	uint64_t u;
	int64_t i;
	int idx;
	bool b;
};

/* Only spaces and tabs (or nothing): a missing value. */
bool opt_is_blank(const char *s);

/*
 * "option 'NAME': 'VAL' WHAT; accepted: ACCEPTED" (or "a value is
 * required" when val is empty) into err.  Returns -EINVAL.
 */
int opt_reason(char *err, size_t errlen, const char *name, const char *val, const char *what,
	       const char *accepted);

/*
 * Parse one value of an engine option type (IORIG_OPT_*), range-checked
 * when min < max; values are an ENUM's names.  0, or -EINVAL with the
 * reason, naming the option and what it accepts, in err.
 */
int opt_parse_scalar(const char *name, uint32_t type, int64_t min, int64_t max,
		     const char *const *values, const char *val, union opt_scalar *out,
		     char *err, size_t errlen);

/* "1 .. 65536", "0 .. 1h", or "" when min >= max (unbounded). */
void opt_range_text(char *buf, size_t len, uint32_t type, int64_t min, int64_t max);

/* The NULL-terminated values joined with sep (values may be NULL). */
void opt_join_values(char *buf, size_t len, const char *const *values, const char *sep);

/*
 * Split a per-direction value "a,b,c" at its commas into at most
 * DDIR_COUNT fields; n gets how many.  -EINVAL for more fields, or for a
 * field of 1024 bytes or more.
 */
int opt_split_dirs(const char *val, char fields[DDIR_COUNT][1024], int *n);

/* Parse one field of a per-direction value into elem: NULL, or why it is bad. */
typedef const char *(*opt_dir_parse_fn)(void *elem, char *text, void *ctx);

/*
 * fio's per-direction rule, for the DDIR_COUNT elements of esize bytes at
 * field: one value sets every direction, two set read and write (trim
 * takes write's), three set each; an empty field keeps its direction's
 * value.  field changes only when all of val parses.  0, or -EINVAL with
 * "option 'NAME': 'VAL' WHY; accepted: ACCEPTED" in err (WHY is list_why
 * when val does not split into fields), or -ENOMEM.
 */
int opt_parse_dirs(void *field, size_t esize, const char *name, const char *val,
		   const char *list_why, const char *accepted, opt_dir_parse_fn parse, void *ctx,
		   char *err, size_t errlen);

/* ---- option_table.c --------------------------------------------------- */

/*
 * Replace the string at field (NULL or one made here) with a copy of val.
 * 0, or -ENOMEM with "option 'NAME': out of memory" in err.
 */
int opt_store_string(void *field, const char *name, const char *val, char *err,
		     size_t errlen);

/* ---- options_core.c ---------------------------------------------------- */

enum core_kind {
	CK_STR,      /* char *, strdup'ed */
	CK_BOOL,     /* bool */
	CK_U32,      /* uint32_t, range-checked */
	CK_U64,      /* uint64_t, range-checked */
	CK_SIZE,     /* uint64_t bytes */
	CK_DUR,      /* uint64_t ns; a plain number is seconds */
	CK_DUR_US,   /* uint64_t ns; a plain number is microseconds (fio's thinktime) */
	CK_DUR_MS,   /* uint64_t ns; a plain number is milliseconds (fio's rate_cycle) */
	CK_RW,       /* enum rw_mode */
	CK_BS,       /* bs[]: "4k" or "read,write[,trim]" */
	CK_BSRANGE,  /* bs_min[]/bs_max[]: "4k-64k[,...]" */
	CK_RWMIXW,   /* rwmixread = 100 - x */
	CK_PCTS,     /* percentiles[] */
	CK_CPUS,     /* cpus_allowed bitmap */
	CK_SEED,     /* randseed, any uint64 */
	CK_ENUM,     /* uint32_t index into options_ext_find(name)->values */
	CK_FN,       /* parsed by options_ext_find(name)->parse (options_ext.h) */
};

/* One row of the core table: a superset of the engine option types. */
struct core_opt {
	const char *name;
	const char *alias;
	enum core_kind kind;
	size_t offset;     /* into struct job_opts */
	const char *def;
	int64_t min, max;  /* checked only when min < max */
	const char *help;
};

/* Accepted values of rw, as printed ("readwrite" is an alias of "rw"). */
extern const char *const core_rw_values[];

/* The option named key (or aliased key), or NULL. */
const struct core_opt *core_opt_find(const char *key);
/* Row i of the table, or NULL past its end. */
const struct core_opt *core_opt_at(size_t i);

/* State of one job's binding that job_opts does not keep. */
struct bind_ctx {
	struct job_opts *o;
	bool bsrange_set[DDIR_COUNT];
};

/* Bind val to opt in c->o.  0, -ENOMEM, or -EINVAL with the reason in err. */
int core_opt_bind(struct bind_ctx *c, const struct core_opt *opt, const char *val, char *err,
		  size_t errlen);
/* Bind every core option's default. */
int core_opt_defaults(struct bind_ctx *c, char *err, size_t errlen);

#endif
