/*
 * Options (options.h): the core option table, the binder that turns a
 * cfg_doc's text into checked struct jobs, and the same binder for engine
 * option tables (struct iorig_option).
 *
 * One table drives parsing, defaults, range checks, error messages and
 * `iorig options`, so they cannot drift apart.  Core options use a superset
 * of the engine option types (per-direction block sizes, rw modes, lists).
 */
#include "options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "options_ext.h"
#include "parse.h"

/* ---- reasons and accepted values ---------------------------------------- */

#define SIZE_EXAMPLES "sizes like 4k, 1m"
#define DUR_EXAMPLES "durations like 10s, 500ms; a plain number is seconds"
#define BOOL_ACCEPTED "1, 0, true, false, yes, no, on, off"
#define MAX_BS (1ll << 31)
#define NR_CPUS 1024

static void fmt_duration(char *buf, size_t len, uint64_t ns)
{
	static const struct {
		const char *u;
		uint64_t ns;
	} units[] = {
		{ "h", 3600000000000ull }, { "m", 60000000000ull }, { "s", 1000000000ull },
		{ "ms", 1000000ull }, { "us", 1000ull },
	};

	for (size_t i = 0; ns && i < sizeof(units) / sizeof(units[0]); i++) {
		if (ns % units[i].ns == 0) {
			snprintf(buf, len, "%" PRIu64 "%s", ns / units[i].ns, units[i].u);
			return;
		}
	}
	snprintf(buf, len, ns ? "%" PRIu64 "ns" : "%" PRIu64, ns);
}

static void join_values(char *buf, size_t len, const char *const *values, const char *sep)
{
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; values && values[i] && n < len; i++) {
		int w = snprintf(buf + n, len - n, "%s%s", i ? sep : "", values[i]);

		if (w < 0)
			break;
		n += (size_t)w;
	}
}

/* "1 .. 65536", "0 .. 1h" or "" when unbounded. */
static void range_text(char *buf, size_t len, uint32_t type, int64_t min, int64_t max)
{
	char a[32], b[32];

	buf[0] = '\0';
	if (min >= max)
		return;
	if (type == IORIG_OPT_DURATION) {
		fmt_duration(a, sizeof(a), min < 0 ? 0 : (uint64_t)min);
		fmt_duration(b, sizeof(b), (uint64_t)max);
		snprintf(buf, len, "%s .. %s", a, b);
	} else {
		snprintf(buf, len, "%" PRId64 " .. %" PRId64, type == IORIG_OPT_INT ? min :
			 min < 0 ? 0 : min, max);
	}
}

/* What a value of this type may be, for "accepted: ..." */
static void accepted_text(char *buf, size_t len, uint32_t type, int64_t min, int64_t max,
			  const char *const *values)
{
	char r[96];

	range_text(r, sizeof(r), type, min, max);
	switch (type) {
	case IORIG_OPT_BOOL:
		snprintf(buf, len, BOOL_ACCEPTED);
		break;
	case IORIG_OPT_INT:
		snprintf(buf, len, "%s", r[0] ? r : "integers (decimal or 0x hex)");
		break;
	case IORIG_OPT_SIZE:
		if (r[0])
			snprintf(buf, len, "%s (" SIZE_EXAMPLES ")", r);
		else
			snprintf(buf, len, SIZE_EXAMPLES ", 2g");
		break;
	case IORIG_OPT_DURATION:
		if (r[0])
			snprintf(buf, len, "%s (" DUR_EXAMPLES ")", r);
		else
			snprintf(buf, len, DUR_EXAMPLES);
		break;
	case IORIG_OPT_ENUM:
		join_values(buf, len, values, ", ");
		break;
	default:
		snprintf(buf, len, "any text");
		break;
	}
}

static int reason(char *err, size_t errlen, const char *name, const char *val,
		  const char *what, const char *accepted)
{
	if (val && *val)
		snprintf(err, errlen, "option '%s': '%s' %s; accepted: %s", name, val, what, accepted);
	else
		snprintf(err, errlen, "option '%s': a value is required; accepted: %s", name,
			 accepted);
	return -EINVAL;
}

static bool is_blank(const char *s)
{
	for (; *s; s++)
		if (*s != ' ' && *s != '\t')
			return false;
	return true;
}

union scalar {
	uint64_t u;
	int64_t i;
	int idx;
	bool b;
};

static bool in_range_u(uint64_t v, int64_t min, int64_t max)
{
	if (min >= max)
		return true;
	return (min <= 0 || v >= (uint64_t)min) && max >= 0 && v <= (uint64_t)max;
}

/*
 * Parse one value of an engine-style type, range-checked.  The reason names
 * the option and lists what it accepts.
 */
static int parse_scalar(const char *name, uint32_t type, int64_t min, int64_t max,
			const char *const *values, const char *val, union scalar *out,
			char *err, size_t errlen)
{
	char acc[512];
	int rc;

	accepted_text(acc, sizeof(acc), type, min, max, values);
	if (!val || is_blank(val))
		return reason(err, errlen, name, NULL, NULL, acc);
	switch (type) {
	case IORIG_OPT_BOOL:
		if (parse_bool(val, &out->b))
			return reason(err, errlen, name, val, "is not a boolean", acc);
		return 0;
	case IORIG_OPT_INT:
		rc = parse_int64(val, &out->i);
		if (rc == -ERANGE)
			return reason(err, errlen, name, val, "does not fit in 64 bits", acc);
		if (rc)
			return reason(err, errlen, name, val, "is not an integer", acc);
		if (min < max && (out->i < min || out->i > max))
			return reason(err, errlen, name, val, "is out of range", acc);
		return 0;
	case IORIG_OPT_SIZE:
	case IORIG_OPT_DURATION:
		rc = type == IORIG_OPT_SIZE ? parse_size(val, &out->u)
					    : parse_duration_ns(val, &out->u);
		if (rc == -ERANGE)
			return reason(err, errlen, name, val, "is too large", acc);
		if (rc)
			return reason(err, errlen, name, val, type == IORIG_OPT_SIZE ?
				      "is not a size" : "is not a duration", acc);
		if (!in_range_u(out->u, min, max))
			return reason(err, errlen, name, val, "is out of range", acc);
		return 0;
	case IORIG_OPT_ENUM:
		for (int i = 0; values && values[i]; i++) {
			if (!strcasecmp(values[i], val)) {
				out->idx = i;
				return 0;
			}
		}
		return reason(err, errlen, name, val, "is not valid", acc);
	}
	snprintf(err, errlen, "option '%s' has type %u, which this core does not know "
		 "(engine bug)", name, type);
	return -EINVAL;
}

/* ---- engine option tables (struct iorig_option) ------------------------- */

static const struct iorig_option *table_find(const struct iorig_option *t, const char *key)
{
	for (; t && t->name; t++)
		if (!strcmp(t->name, key))
			return t;
	return NULL;
}

/*
 * dst must be zeroed or filled by option_defaults()/option_bind(): a
 * STRING field then always holds NULL or a string this file strdup'ed.
 */
static int bind_one(const struct iorig_option *opt, void *dst, const char *value,
		    char *err, size_t errlen)
{
	char *p = (char *)dst + opt->offset;
	union scalar v = { 0 };
	int rc;

	if (opt->type == IORIG_OPT_STRING) {
		char *old, *s = strdup(value ? value : "");

		if (!s) {
			snprintf(err, errlen, "option '%s': out of memory", opt->name);
			return -ENOMEM;
		}
		memcpy(&old, p, sizeof(old));
		free(old);
		memcpy(p, &s, sizeof(s));
		return 0;
	}
	rc = parse_scalar(opt->name, opt->type, opt->min, opt->max, opt->values, value, &v,
			  err, errlen);
	if (rc)
		return rc;
	switch (opt->type) {
	case IORIG_OPT_BOOL: {
		int b = v.b;

		memcpy(p, &b, sizeof(b));
		break;
	}
	case IORIG_OPT_INT:
		memcpy(p, &v.i, sizeof(v.i));
		break;
	case IORIG_OPT_SIZE:
	case IORIG_OPT_DURATION:
		memcpy(p, &v.u, sizeof(v.u));
		break;
	case IORIG_OPT_ENUM:
		memcpy(p, &v.idx, sizeof(v.idx));
		break;
	}
	return 0;
}

int option_bind(const struct iorig_option *table, void *dst, const char *key,
		const char *value, char *err, size_t errlen)
{
	const struct iorig_option *opt = table_find(table, key);

	if (!opt)
		return -ENOENT;
	return bind_one(opt, dst, value, err, errlen);
}

int option_defaults(const struct iorig_option *table, void *dst, char *err, size_t errlen)
{
	for (const struct iorig_option *o = table; o && o->name; o++) {
		char *p = (char *)dst + o->offset;
		char why[512];
		int rc;

		if (!o->def) {
			/* No default: zero, or a NULL string. */
			size_t sz = o->type == IORIG_OPT_STRING ? sizeof(char *) :
				    o->type == IORIG_OPT_BOOL || o->type == IORIG_OPT_ENUM ?
				    sizeof(int) : sizeof(uint64_t);

			memset(p, 0, sz);
			continue;
		}
		if (o->type == IORIG_OPT_STRING) {
			char *none = NULL; /* dst may hold anything yet: free nothing */

			memcpy(p, &none, sizeof(none));
		}
		rc = bind_one(o, dst, o->def, why, sizeof(why));
		if (rc) {
			snprintf(err, errlen, "default of %s", why);
			return rc;
		}
	}
	return 0;
}

void option_free_strings(const struct iorig_option *table, void *dst)
{
	for (const struct iorig_option *o = table; o && o->name; o++) {
		char *p = (char *)dst + o->offset, *s;

		if (o->type != IORIG_OPT_STRING)
			continue;
		memcpy(&s, p, sizeof(s));
		free(s);
		s = NULL;
		memcpy(p, &s, sizeof(s));
	}
}

/* ---- the core option table ----------------------------------------------- */

enum core_kind {
	CK_STR,      /* char *, strdup'ed */
	CK_BOOL,     /* bool */
	CK_U32,      /* uint32_t, range-checked */
	CK_U64,      /* uint64_t, range-checked */
	CK_SIZE,     /* uint64_t bytes */
	CK_DUR,      /* uint64_t ns */
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

struct core_opt {
	const char *name;
	const char *alias;
	enum core_kind kind;
	size_t offset;
	const char *def;
	int64_t min, max;  /* checked only when min < max */
	const char *help;
};

#define OFF(f) offsetof(struct job_opts, f)
#define DEFAULT_PCTS "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

/* Value names of rw, by enum rw_mode; "readwrite" is an alias of "rw". */
static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim", NULL,
};
static const char *const rw_accepted[] = {
	"read", "write", "randread", "randwrite", "rw", "readwrite", "randrw", "trim",
	"randtrim", NULL,
};

static const struct core_opt core_opts[] = {
	{ "name", NULL, CK_STR, OFF(name), NULL, 0, 0,
	  "job name for the report (default: the job's section name)" },
	{ "description", NULL, CK_STR, OFF(description), NULL, 0, 0,
	  "free text describing the job" },
	{ "ioengine", NULL, CK_STR, OFF(ioengine), "psync", 0, 0,
	  "engine doing the I/O: a name on the engine path or a path to a .so" },
	{ "filename", NULL, CK_STR, OFF(filename), NULL, 0, 0,
	  "file(s) or device(s) to use, ':'-separated (\"\\:\" for a colon in a name)" },
	{ "directory", NULL, CK_STR, OFF(directory), NULL, 0, 0,
	  "directory for the job's files; prefixed to relative filenames" },
	{ "nrfiles", NULL, CK_U32, OFF(nrfiles), "1", 1, 1 << 20,
	  "files per job when filename is not given (named NAME.INSTANCE.N)" },
	{ "size", NULL, CK_SIZE, OFF(size), "0", 0, 0,
	  "bytes per job, split across its files (0: the existing files' size)" },
	{ "io_size", NULL, CK_SIZE, OFF(io_size), "0", 0, 0,
	  "bytes to transfer per loop (0: size)" },
	{ "loops", NULL, CK_U64, OFF(loops), "1", 1, UINT32_MAX,
	  "times to repeat the job's I/O" },
	{ "offset", NULL, CK_SIZE, OFF(offset), "0", 0, 0,
	  "byte offset in each file where I/O starts" },
	{ "bs", "blocksize", CK_BS, OFF(bs), "4k", 1, MAX_BS,
	  "block size; \"read,write[,trim]\" sets one per direction" },
	{ "bsrange", "blocksize_range", CK_BSRANGE, OFF(bs_min), NULL, 1, MAX_BS,
	  "block size range MIN-MAX (overrides bs); per direction with ','" },
	{ "rw", "readwrite", CK_RW, OFF(rw), "read", 0, 0,
	  "I/O pattern" },
	{ "rwmixread", NULL, CK_U32, OFF(rwmixread), "50", 0, 100,
	  "percent of reads in rw/randrw" },
	{ "rwmixwrite", NULL, CK_RWMIXW, OFF(rwmixread), NULL, 0, 100,
	  "percent of writes in rw/randrw (sets rwmixread to 100 - this)" },
	{ "iodepth", NULL, CK_U32, OFF(iodepth), "1", 1, 65536,
	  "I/Os kept in flight" },
	{ "iodepth_batch_submit", "iodepth_batch", CK_U32, OFF(iodepth_batch_submit), "1",
	  0, 65536, "I/Os queued before a commit (0: iodepth; capped at iodepth)" },
	{ "iodepth_batch_complete_min", "iodepth_batch_complete", CK_U32,
	  OFF(iodepth_batch_complete_min), "1", 0, 65536,
	  "fewest completions to wait for in one reap (0: poll)" },
	{ "iodepth_batch_complete_max", NULL, CK_U32, OFF(iodepth_batch_complete_max), "0",
	  0, 65536, "most completions taken in one reap (0: iodepth_batch_complete_min, "
	  "at least 1), as fio" },
	{ "numjobs", NULL, CK_U32, OFF(numjobs), "1", 1, 4096,
	  "instances of the job run in parallel, one thread each" },
	{ "runtime", "timeout", CK_DUR, OFF(runtime_ns), "0", 0, 0,
	  "stop after this long (0: when the I/O is done)" },
	{ "time_based", NULL, CK_BOOL, OFF(time_based), "0", 0, 0,
	  "run for runtime, repeating the workload (needs runtime)" },
	{ "ramp_time", NULL, CK_DUR, OFF(ramp_time_ns), "0", 0, 0,
	  "run this long before counting statistics" },
	{ "startdelay", NULL, CK_DUR, OFF(startdelay_ns), "0", 0, 0,
	  "wait this long before starting the job" },
	{ "direct", NULL, CK_BOOL, OFF(direct), "0", 0, 0,
	  "bypass the page cache (O_DIRECT)" },
	{ "fsync", NULL, CK_U32, OFF(fsync_every), "0", 0, UINT32_MAX,
	  "fsync after every N writes (0: never)" },
	{ "fdatasync", NULL, CK_U32, OFF(fdatasync_every), "0", 0, UINT32_MAX,
	  "fdatasync after every N writes (0: never)" },
	{ "end_fsync", NULL, CK_BOOL, OFF(end_fsync), "0", 0, 0,
	  "fsync the files when the job's writes are done" },
	{ "norandommap", NULL, CK_BOOL, OFF(norandommap), "0", 0, 0,
	  "random offsets drawn freely instead of every block once per pass" },
	{ "randrepeat", NULL, CK_BOOL, OFF(randrepeat), "1", 0, 0,
	  "same random sequence on every run" },
	{ "randseed", NULL, CK_SEED, OFF(randseed), NULL, 0, 0,
	  "seed for random offsets and mixes (default: a fixed one; see randrepeat)" },
	{ "stonewall", "wait_for_previous", CK_BOOL, OFF(stonewall), "0", 0, 0,
	  "wait for the jobs before this one to finish; starts a new group" },
	{ "new_group", NULL, CK_BOOL, OFF(new_group), "0", 0, 0,
	  "start a new reporting group" },
	{ "group_reporting", NULL, CK_BOOL, OFF(group_reporting), "0", 0, 0,
	  "report the group's jobs as one" },
	{ "cpus_allowed", NULL, CK_CPUS, OFF(cpus_allowed), NULL, 0, NR_CPUS - 1,
	  "CPUs the job's threads may run on, like 0-3,6" },
	{ "unlink", NULL, CK_BOOL, OFF(unlink), "0", 0, 0,
	  "delete the job's files when it is done" },
	{ "invalidate", NULL, CK_BOOL, OFF(invalidate), "1", 0, 0,
	  "drop the files' cached pages before the job starts, as fio" },
	{ "allow_mounted_write", NULL, CK_BOOL, OFF(allow_mounted_write), "0", 0, 0,
	  "write to a block device even when it is mounted or holds data (as fio)" },
	{ "overwrite_device", NULL, CK_BOOL, OFF(overwrite_device), "0", 0, 0,
	  "write to a block device that holds a filesystem or partition table signature" },
	{ "write_bw_log", NULL, CK_STR, OFF(bw_log), NULL, 0, 0,
	  "write PREFIX_bw.N.log (KiB/s); empty: the job name is the prefix" },
	{ "write_iops_log", NULL, CK_STR, OFF(iops_log), NULL, 0, 0,
	  "write PREFIX_iops.N.log; empty: the job name is the prefix" },
	{ "write_lat_log", NULL, CK_STR, OFF(lat_log), NULL, 0, 0,
	  "write PREFIX_{lat,clat,slat}.N.log (ns); empty: the job name is the prefix" },
	{ "log_avg_msec", NULL, CK_U32, OFF(log_avg_msec), "0", 0, 3600000,
	  "average log values over windows of this many ms (0: one row per I/O)" },
	{ "log_offset", NULL, CK_BOOL, OFF(log_offset), "0", 0, 0,
	  "add each I/O's offset to per-I/O log rows" },
	{ "percentile_list", NULL, CK_PCTS, OFF(percentiles), DEFAULT_PCTS, 0, 0,
	  "completion latency percentiles to report, ':'-separated" },
#include "options_ext.inc"
};

#define N_CORE_OPTS (sizeof(core_opts) / sizeof(core_opts[0]))

static const struct core_opt *core_find(const char *key)
{
	for (size_t i = 0; i < N_CORE_OPTS; i++)
		if (!strcmp(core_opts[i].name, key) ||
		    (core_opts[i].alias && !strcmp(core_opts[i].alias, key)))
			return &core_opts[i];
	return NULL;
}

/* State of one job's binding that job_opts does not keep. */
struct bind_ctx {
	struct job_opts *o;
	bool bsrange_set[DDIR_COUNT];
};

static void set_u32(void *p, uint64_t v)
{
	uint32_t x = (uint32_t)v;

	memcpy(p, &x, sizeof(x));
}

/*
 * Split "a,b,c" into at most three fields; fio's per-direction rule: one
 * field sets all directions, two set read and write and trim copies write.
 */
static int split_dirs(const char *val, char fields[DDIR_COUNT][128], int *n)
{
	const char *s = val;

	*n = 0;
	for (;;) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);

		if (*n == DDIR_COUNT || len >= sizeof(fields[0]))
			return -EINVAL;
		memcpy(fields[*n], s, len);
		fields[*n][len] = '\0';
		(*n)++;
		if (!c)
			return 0;
		s = c + 1;
	}
}

static int bind_bs(struct bind_ctx *c, const struct core_opt *opt, const char *val,
		   char *err, size_t errlen)
{
	char f[DDIR_COUNT][128], acc[256];
	union scalar v;
	int n, rc;

	snprintf(acc, sizeof(acc), "%" PRId64 " .. %" PRId64 " (" SIZE_EXAMPLES
		 "), or read,write[,trim] sizes like 4k,64k", opt->min, opt->max);
	if (is_blank(val))
		return reason(err, errlen, opt->name, NULL, NULL, acc);
	if (split_dirs(val, f, &n))
		return reason(err, errlen, opt->name, val, "is not a size list", acc);
	for (int d = 0; d < n; d++) {
		if (n > 1 && is_blank(f[d]))
			continue; /* ",8k": this direction keeps its value */
		rc = parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL, f[d], &v,
				  err, errlen);
		if (rc)
			return rc;
		if (n == 1) {
			for (int k = 0; k < DDIR_COUNT; k++) {
				c->o->bs[k] = v.u;
				c->bsrange_set[k] = false;
			}
		} else {
			c->o->bs[d] = v.u;
			c->bsrange_set[d] = false;
		}
	}
	if (n == 2) {
		c->o->bs[DDIR_TRIM] = c->o->bs[DDIR_WRITE];
		c->bsrange_set[DDIR_TRIM] = c->bsrange_set[DDIR_WRITE];
	}
	return 0;
}

static int bind_bsrange(struct bind_ctx *c, const struct core_opt *opt, const char *val,
			char *err, size_t errlen)
{
	char f[DDIR_COUNT][128], acc[256];
	union scalar lo, hi;
	int n, rc;

	snprintf(acc, sizeof(acc), "MIN-MAX like 4k-64k, or per direction like "
		 "4k-8k,16k-32k; each %" PRId64 " .. %" PRId64, opt->min, opt->max);
	if (is_blank(val))
		return reason(err, errlen, opt->name, NULL, NULL, acc);
	if (split_dirs(val, f, &n))
		return reason(err, errlen, opt->name, val, "is not a range list", acc);
	for (int d = 0; d < n; d++) {
		char *sep;

		if (n > 1 && is_blank(f[d]))
			continue;
		sep = strpbrk(f[d], "-:");
		if (!sep)
			return reason(err, errlen, opt->name, val, "is not a range", acc);
		*sep = '\0';
		rc = parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL, f[d],
				  &lo, err, errlen);
		if (!rc)
			rc = parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL,
					  sep + 1, &hi, err, errlen);
		if (rc)
			return rc;
		if (lo.u > hi.u) { /* as fio: "64k-4k" means 4k-64k */
			uint64_t t = lo.u;

			lo.u = hi.u;
			hi.u = t;
		}
		for (int k = n == 1 ? 0 : d; k < (n == 1 ? DDIR_COUNT : d + 1); k++) {
			c->o->bs_min[k] = lo.u;
			c->o->bs_max[k] = hi.u;
			c->bsrange_set[k] = true;
		}
	}
	if (n == 2) {
		c->o->bs_min[DDIR_TRIM] = c->o->bs_min[DDIR_WRITE];
		c->o->bs_max[DDIR_TRIM] = c->o->bs_max[DDIR_WRITE];
		c->bsrange_set[DDIR_TRIM] = c->bsrange_set[DDIR_WRITE];
	}
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int core_bind(struct bind_ctx *c, const struct core_opt *opt, const char *val,
		     char *err, size_t errlen)
{
	char *p = (char *)c->o + opt->offset;
	char acc[256];
	union scalar v;
	int rc;

	switch (opt->kind) {
	case CK_STR: {
		char *old, *s;

		/* Only a description or a log prefix (then the job name) may be empty. */
		if (is_blank(val) && opt->offset != OFF(description) && opt->offset != OFF(bw_log) &&
		    opt->offset != OFF(iops_log) && opt->offset != OFF(lat_log))
			return reason(err, errlen, opt->name, NULL, NULL, "any non-empty text");
		s = strdup(val);
		if (!s) {
			snprintf(err, errlen, "option '%s': out of memory", opt->name);
			return -ENOMEM;
		}
		memcpy(&old, p, sizeof(old));
		free(old);
		memcpy(p, &s, sizeof(s));
		return 0;
	}
	case CK_BOOL:
		rc = parse_scalar(opt->name, IORIG_OPT_BOOL, 0, 0, NULL, val, &v, err, errlen);
		if (!rc)
			*(bool *)p = v.b;
		return rc;
	case CK_U32:
	case CK_U64:
	case CK_RWMIXW:
		rc = parse_scalar(opt->name, IORIG_OPT_INT, opt->min, opt->max, NULL, val, &v,
				  err, errlen);
		if (rc)
			return rc;
		if (opt->kind == CK_U64)
			memcpy(p, &v.i, sizeof(uint64_t));
		else
			set_u32(p, opt->kind == CK_RWMIXW ? (uint64_t)(100 - v.i) : (uint64_t)v.i);
		return 0;
	case CK_SIZE:
	case CK_DUR:
		rc = parse_scalar(opt->name, opt->kind == CK_SIZE ? IORIG_OPT_SIZE :
				  IORIG_OPT_DURATION, opt->min, opt->max, NULL, val, &v, err, errlen);
		if (!rc)
			memcpy(p, &v.u, sizeof(v.u));
		return rc;
	case CK_RW:
		rc = parse_scalar(opt->name, IORIG_OPT_ENUM, 0, 0, rw_accepted, val, &v, err,
				  errlen);
		if (rc)
			return rc;
		/* rw_accepted has "readwrite" after "rw": map it back. */
		c->o->rw = (enum rw_mode)(v.idx <= RW_RW ? v.idx : v.idx - 1);
		return 0;
	case CK_BS:
		return bind_bs(c, opt, val, err, errlen);
	case CK_BSRANGE:
		return bind_bsrange(c, opt, val, err, errlen);
	case CK_PCTS:
		snprintf(acc, sizeof(acc), "percentiles 0 < p <= 100 separated by ':', like "
			 "50:99:99.9 (at most %d)", MAX_PERCENTILES);
		if (is_blank(val))
			return reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_percentile_list(val, c->o->percentiles, MAX_PERCENTILES,
					   &c->o->n_percentiles);
		if (rc == -ERANGE)
			return reason(err, errlen, opt->name, val, "has too many values", acc);
		if (rc)
			return reason(err, errlen, opt->name, val, "is not a percentile list", acc);
		qsort(c->o->percentiles, c->o->n_percentiles, sizeof(double), cmp_double);
		return 0;
	case CK_CPUS:
		snprintf(acc, sizeof(acc), "CPU numbers and ranges like 0-3,6; each 0 .. %d",
			 NR_CPUS - 1);
		if (is_blank(val))
			return reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_cpu_list(val, c->o->cpus_allowed, NR_CPUS);
		if (rc == -ERANGE)
			return reason(err, errlen, opt->name, val, "is out of range", acc);
		if (rc)
			return reason(err, errlen, opt->name, val, "is not a CPU list", acc);
		c->o->has_cpus = true;
		return 0;
	case CK_SEED:
		snprintf(acc, sizeof(acc), "0 .. %" PRIu64, UINT64_MAX);
		if (is_blank(val))
			return reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_uint64(val, &c->o->randseed);
		if (rc)
			return reason(err, errlen, opt->name, val, rc == -ERANGE ?
				      "does not fit in 64 bits" : "is not an integer", acc);
		c->o->randseed_set = true;
		return 0;
	case CK_ENUM:
		rc = parse_scalar(opt->name, IORIG_OPT_ENUM, 0, 0, options_ext_find(opt->name)->values,
				  val, &v, err, errlen);
		if (!rc)
			set_u32(p, (uint64_t)v.idx);
		return rc;
	case CK_FN:
		return options_ext_find(opt->name)->parse(p, opt->name, val, err, errlen);
	}
	return -EINVAL;
}

static int core_defaults(struct bind_ctx *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_CORE_OPTS; i++) {
		int rc;

		if (!core_opts[i].def)
			continue;
		rc = core_bind(c, &core_opts[i], core_opts[i].def, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}


/* ---- building jobs -------------------------------------------------------- */

/* Where an entry came from, for the "FILE:LINE: job 'NAME': " prefix. */
struct where {
	const char *file;
	int line;
	bool global;
	const char *job;
};

static int fail_at(char *err, size_t errlen, const struct where *w, int rc,
		   const char *fmt, ...) IORIG_PRINTF(5, 6);

static int fail_at(char *err, size_t errlen, const struct where *w, int rc,
		   const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->global)
		n = snprintf(err, errlen, "%s:%d: global section (applied to job '%s'): ",
			     w->file, w->line, w->job);
	else
		n = snprintf(err, errlen, "%s:%d: job '%s': ", w->file, w->line, w->job);
	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* The closest known option name, or NULL when nothing is close. */
static const char *suggest(const char *key, const struct engine *e)
{
	size_t len = strlen(key), best_d = (size_t)-1;
	size_t limit = len <= 3 ? 1 : len <= 6 ? 2 : 3;
	const char *best = NULL;

	for (size_t i = 0; i < N_CORE_OPTS; i++) {
		const char *names[2] = { core_opts[i].name, core_opts[i].alias };

		for (int k = 0; k < 2; k++) {
			size_t d = names[k] ? edit_distance(key, names[k]) : (size_t)-1;

			if (d < best_d) {
				best_d = d;
				best = names[k];
			}
		}
	}
	for (const struct iorig_option *t = e ? e->options : NULL; t && t->name; t++) {
		size_t d = edit_distance(key, t->name);

		if (d < best_d) {
			best_d = d;
			best = t->name;
		}
	}
	return best_d <= limit ? best : NULL;
}

static int bind_entry(struct bind_ctx *c, const struct engine *e, const struct cfg_entry *ent,
		      const struct where *w, char *err, size_t errlen)
{
	const struct core_opt *co = core_find(ent->key);
	const struct iorig_option *eo;
	char why[1024];
	const char *s;
	int rc;

	if (co) {
		if (w->global && co->offset == OFF(name) && co->kind == CK_STR)
			return fail_at(err, errlen, w, -EINVAL, "option 'name' cannot be set in "
				       "global: give each job its own name");
		rc = core_bind(c, co, ent->value, why, sizeof(why));
		return rc ? fail_at(err, errlen, w, rc, "%s", why) : 0;
	}
	eo = table_find(e->options, ent->key);
	if (eo) {
		rc = bind_one(eo, c->o->engine_opts, ent->value, why, sizeof(why));
		return rc ? fail_at(err, errlen, w, rc, "%s (engine '%s')", why, e->name) : 0;
	}
	s = suggest(ent->key, e);
	if (s)
		return fail_at(err, errlen, w, -EINVAL, "unknown option '%s' (did you mean '%s'?)",
			       ent->key, s);
	return fail_at(err, errlen, w, -EINVAL, "unknown option '%s': neither a core option "
		       "nor an option of engine '%s'; `iorig engines %s` lists the engine's "
		       "options", ent->key, e->name, e->name);
}

/* The entry that set key for this job (job first, then global), for messages. */
static void where_of(const struct cfg_doc *doc, const struct cfg_section *sec, const char *key,
		     const char *job, struct where *w)
{
	const struct cfg_entry *ent = cfg_section_find(sec, key);

	w->file = doc->file;
	w->job = job;
	w->global = false;
	w->line = sec->line;
	if (!ent) {
		ent = cfg_section_find(&doc->global, key);
		w->global = ent != NULL;
	}
	if (ent)
		w->line = ent->line;
}

/* Rules that involve more than one option, checked once all are bound. */
static int finish_job(const struct cfg_doc *doc, const struct cfg_section *sec,
		      struct bind_ctx *c, const struct engine *e, char *err, size_t errlen)
{
	struct job_opts *o = c->o;
	struct where w;

	for (int d = 0; d < DDIR_COUNT; d++) {
		if (!c->bsrange_set[d]) {
			o->bs_min[d] = o->bs[d];
			o->bs_max[d] = o->bs[d];
		}
	}
	{
		const char *key = NULL;
		char why[768];

		if (options_ext_finish(o, e->caps, &key, why, sizeof(why))) {
			where_of(doc, sec, key, o->name, &w);
			return fail_at(err, errlen, &w, -EINVAL, "%s", why);
		}
	}
	/* As fio: batches never exceed the queue; 0 means "the whole queue". */
	if (!o->iodepth_batch_submit || o->iodepth_batch_submit > o->iodepth)
		o->iodepth_batch_submit = o->iodepth;
	/* fio reaps one batch of at most complete_min unless told otherwise:
	 * taking everything that is ready drains the queue in bursts. */
	if (!o->iodepth_batch_complete_max)
		o->iodepth_batch_complete_max = o->iodepth_batch_complete_min ? o->iodepth_batch_complete_min : 1;
	if (o->iodepth_batch_complete_max > o->iodepth)
		o->iodepth_batch_complete_max = o->iodepth;
	if (o->iodepth_batch_complete_min > o->iodepth_batch_complete_max) {
		where_of(doc, sec, "iodepth_batch_complete_min", o->name, &w);
		if (!cfg_section_find(sec, "iodepth_batch_complete_min") && !w.global)
			where_of(doc, sec, "iodepth_batch_complete", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "option 'iodepth_batch_complete_min': %u "
			       "is above iodepth_batch_complete_max (%u, at most iodepth=%u); "
			       "lower it or raise iodepth", o->iodepth_batch_complete_min,
			       o->iodepth_batch_complete_max, o->iodepth);
	}
	if (o->time_based && !o->runtime_ns) {
		where_of(doc, sec, "time_based", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "time_based needs a runtime: set "
			       "runtime (e.g. runtime = \"30s\")");
	}
	if (!o->size && !o->time_based && !(o->filename && *o->filename)) {
		where_of(doc, sec, "size", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "no size given: set size (e.g. size = "
			       "\"1g\"), name an existing file or device with filename, or set "
			       "time_based with a runtime");
	}
	if (rw_trims(o->rw) && !(e->caps & IORIG_CAP_TRIM)) {
		where_of(doc, sec, "rw", o->name, &w);
		return fail_at(err, errlen, &w, -EINVAL, "rw=%s needs an engine that can trim; "
			       "engine '%s' cannot: pick another ioengine or rw", rw_mode_name(o->rw),
			       e->name);
	}
	return 0;
}

/* Engine STRING options become the job's: freed by job_opts_free(). */
static int adopt_engine_strings(struct job_opts *o, const struct engine *e)
{
	for (const struct iorig_option *t = e->options; t && t->name; t++) {
		char **owned, *s;

		if (t->type != IORIG_OPT_STRING)
			continue;
		memcpy(&s, (char *)o->engine_opts + t->offset, sizeof(s));
		if (!s)
			continue;
		owned = realloc(o->owned, (o->n_owned + 1) * sizeof(*owned));
		if (!owned)
			return -ENOMEM;
		o->owned = owned;
		o->owned[o->n_owned++] = s;
	}
	return 0;
}

static int build_job(const struct cfg_doc *doc, size_t idx, const struct engine_path *path,
		     struct job *j, char *err, size_t errlen)
{
	const struct cfg_section *sec = &doc->jobs[idx];
	struct bind_ctx c = { .o = &j->o };
	struct job_opts *o = &j->o;
	const struct engine *e = NULL;
	const struct cfg_entry *ent;
	struct where w = { doc->file, sec->line, false, sec->name };
	char why[1024];
	int rc;

	j->index = (uint32_t)idx;
	j->src_line = sec->line;
	j->src_file = strdup(doc->file);
	o->name = strdup(sec->name);
	if (!j->src_file || !o->name)
		return fail_at(err, errlen, &w, -ENOMEM, "out of memory");
	rc = core_defaults(&c, why, sizeof(why));
	if (rc)
		return fail_at(err, errlen, &w, rc, "core default invalid (bug): %s", why);

	/* The engine first: its table decides which entries are its options. */
	where_of(doc, sec, "ioengine", o->name, &w);
	ent = cfg_section_find(sec, "ioengine");
	if (!ent)
		ent = cfg_section_find(&doc->global, "ioengine");
	if (ent) {
		rc = core_bind(&c, core_find("ioengine"), ent->value, why, sizeof(why));
		if (rc)
			return fail_at(err, errlen, &w, rc, "%s", why);
	}
	rc = engine_load(path, o->ioengine, &e, why, sizeof(why));
	if (rc)
		return fail_at(err, errlen, &w, -EINVAL, "option 'ioengine': %s", why);
	j->engine = e;
	o->engine_opts = calloc(1, e->options_size ? e->options_size : 1);
	if (!o->engine_opts)
		return fail_at(err, errlen, &w, -ENOMEM, "out of memory");
	rc = option_defaults(e->options, o->engine_opts, why, sizeof(why));
	if (rc) {
		rc = fail_at(err, errlen, &w, -EINVAL, "engine '%s': %s", e->name, why);
		goto fail;
	}

	for (int pass = 0; pass < 2; pass++) {
		const struct cfg_section *s = pass ? sec : &doc->global;

		for (size_t i = 0; i < s->n; i++) {
			struct where ew = { doc->file, s->entries[i].line, !pass, sec->name };

			rc = bind_entry(&c, e, &s->entries[i], &ew, err, errlen);
			if (rc)
				goto fail;
		}
	}
	/* The job's section name wins: a job's `name` setting made it. */
	if (strcmp(o->name, sec->name)) {
		char *n = strdup(sec->name);

		if (!n) {
			rc = fail_at(err, errlen, &w, -ENOMEM, "out of memory");
			goto fail;
		}
		free(o->name);
		o->name = n;
	}
	rc = finish_job(doc, sec, &c, e, err, errlen);
	if (!rc)
		rc = adopt_engine_strings(o, e);
	if (!rc)
		return 0;
fail:
	/* Not adopted yet: free them here, job_opts_free() cannot. */
	if (o->n_owned == 0)
		option_free_strings(e->options, o->engine_opts);
	return rc;
}

int options_build_jobs(const struct cfg_doc *doc, const struct engine_path *path,
		       struct job_list *out, char *err, size_t errlen)
{
	struct job_list l = { 0 };
	uint32_t group = 0;
	int rc;

	out->jobs = NULL;
	out->n = 0;
	if (!doc->n_jobs) {
		snprintf(err, errlen, "%s: no jobs defined: add at least one job", doc->file);
		return -EINVAL;
	}
	l.jobs = calloc(doc->n_jobs, sizeof(*l.jobs));
	if (!l.jobs) {
		snprintf(err, errlen, "%s: out of memory", doc->file);
		return -ENOMEM;
	}
	for (size_t i = 0; i < doc->n_jobs; i++) {
		struct job *j = &l.jobs[i];

		l.n = (uint32_t)i + 1;
		rc = build_job(doc, i, path, j, err, errlen);
		if (rc) {
			job_list_free(&l);
			return rc == -ENOMEM ? rc : -EINVAL;
		}
		/* As fio: stonewall or new_group starts a reporting group. */
		if (i > 0 && (j->o.stonewall || j->o.new_group))
			group++;
		j->groupid = group;
	}
	*out = l;
	return 0;
}

/* ---- printing ------------------------------------------------------------- */

enum { COL_NAME, COL_TYPE, COL_DEF, COL_RANGE, COL_HELP, N_COLS };

static const char *engine_type_name(uint32_t type)
{
	static const char *const names[] = {
		"?", "bool", "int", "size", "duration", "string", "enum",
	};

	return type < sizeof(names) / sizeof(names[0]) ? names[type] : "?";
}

static void engine_row(const struct iorig_option *t, char cols[N_COLS][512])
{
	snprintf(cols[COL_NAME], 512, "%s", t->name);
	snprintf(cols[COL_TYPE], 512, "%s", engine_type_name(t->type));
	snprintf(cols[COL_DEF], 512, "%s", t->def ? t->def : "-");
	if (t->type == IORIG_OPT_ENUM)
		join_values(cols[COL_RANGE], 512, t->values, "|");
	else if (t->type == IORIG_OPT_BOOL)
		snprintf(cols[COL_RANGE], 512, "0|1");
	else
		range_text(cols[COL_RANGE], 512, t->type, t->min, t->max);
	if (!cols[COL_RANGE][0])
		snprintf(cols[COL_RANGE], 512, "-");
	snprintf(cols[COL_HELP], 512, "%s", t->help ? t->help : "");
}

static void core_row(const struct core_opt *t, char cols[N_COLS][512])
{
	static const char *const types[] = {
		[CK_STR] = "string", [CK_BOOL] = "bool", [CK_U32] = "int", [CK_U64] = "int",
		[CK_SIZE] = "size", [CK_DUR] = "duration", [CK_RW] = "enum",
		[CK_BS] = "size-list", [CK_BSRANGE] = "range-list", [CK_RWMIXW] = "int",
		[CK_PCTS] = "pct-list", [CK_CPUS] = "cpu-list", [CK_SEED] = "int",
		[CK_ENUM] = "enum", [CK_FN] = "spec",
	};

	snprintf(cols[COL_NAME], 512, "%s", t->name);
	snprintf(cols[COL_TYPE], 512, "%s", t->kind == CK_FN ? options_ext_find(t->name)->type_name
							      : types[t->kind]);
	snprintf(cols[COL_DEF], 512, "%s", t->def ? t->def : "-");
	switch (t->kind) {
	case CK_BOOL:
		snprintf(cols[COL_RANGE], 512, "0|1");
		break;
	case CK_RW:
		join_values(cols[COL_RANGE], 512, rw_accepted, "|");
		break;
	case CK_ENUM:
		join_values(cols[COL_RANGE], 512, options_ext_find(t->name)->values, "|");
		break;
	case CK_FN:
		cols[COL_RANGE][0] = '\0';
		break;
	case CK_PCTS:
		snprintf(cols[COL_RANGE], 512, "0 < p <= 100");
		break;
	case CK_DUR:
		range_text(cols[COL_RANGE], 512, IORIG_OPT_DURATION, t->min, t->max);
		break;
	default:
		range_text(cols[COL_RANGE], 512, IORIG_OPT_INT, t->min, t->max);
		break;
	}
	if (!cols[COL_RANGE][0])
		snprintf(cols[COL_RANGE], 512, "-");
	if (t->alias)
		snprintf(cols[COL_HELP], 512, "%s (alias: %s)", t->help, t->alias);
	else
		snprintf(cols[COL_HELP], 512, "%s", t->help);
}

/* One row of either table; false past the end. */
static bool table_row(const struct iorig_option *table, size_t i, char cols[N_COLS][512])
{
	if (!table) {
		if (i >= N_CORE_OPTS)
			return false;
		core_row(&core_opts[i], cols);
		return true;
	}
	if (!table[i].name)
		return false;
	engine_row(&table[i], cols);
	return true;
}

/*
 * Cells longer than these do not widen their column: the row goes on under
 * the next column instead (the percentile defaults, long enum lists).
 */
static const size_t col_cap[N_COLS] = { 64, 16, 20, 32, 0 };

static void print_row(FILE *f, char cols[N_COLS][512], const size_t *w)
{
	size_t pos = 2;

	fputs("  ", f);
	for (int k = 0; k < N_COLS - 1; k++) {
		size_t len = strlen(cols[k]);

		fputs(cols[k], f);
		pos += len;
		if (len > w[k]) {
			fprintf(f, "\n%*s", (int)(pos - len + w[k] + 2), "");
			pos = pos - len + w[k] + 2;
		} else {
			fprintf(f, "%*s", (int)(w[k] - len + 2), "");
			pos += w[k] - len + 2;
		}
	}
	fprintf(f, "%s\n", cols[N_COLS - 1]);
}

/* NULL prints the core options. */
void options_print_table(FILE *f, const struct iorig_option *table)
{
	static const char *const head[N_COLS] = { "NAME", "TYPE", "DEFAULT", "RANGE/VALUES",
						  "HELP" };
	char cols[N_COLS][512];
	size_t w[N_COLS];

	for (int k = 0; k < N_COLS; k++) {
		w[k] = strlen(head[k]);
		snprintf(cols[k], sizeof(cols[k]), "%s", head[k]);
	}
	for (size_t i = 0; table_row(table, i, cols); i++)
		for (int k = 0; k < N_COLS; k++) {
			size_t len = strlen(cols[k]);

			if (len > w[k] && (!col_cap[k] || len <= col_cap[k]))
				w[k] = len;
		}
	for (int k = 0; k < N_COLS; k++)
		snprintf(cols[k], sizeof(cols[k]), "%s", head[k]);
	print_row(f, cols, w);
	for (size_t i = 0; table_row(table, i, cols); i++)
		print_row(f, cols, w);
}

/* ---- jobs ----------------------------------------------------------------- */

const char *rw_mode_name(enum rw_mode m)
{
	return (unsigned)m < sizeof(rw_names) / sizeof(rw_names[0]) - 1 ? rw_names[m] : "unknown";
}

void job_opts_free(struct job_opts *o)
{
	if (!o)
		return;
	free(o->name);
	free(o->description);
	free(o->ioengine);
	free(o->filename);
	free(o->directory);
	free(o->bw_log);
	free(o->iops_log);
	free(o->lat_log);
	for (uint32_t i = 0; i < o->n_owned; i++)
		free(o->owned[i]);
	free(o->owned);
	free(o->engine_opts);
	memset(o, 0, sizeof(*o));
}

void job_list_free(struct job_list *l)
{
	if (!l)
		return;
	for (uint32_t i = 0; l->jobs && i < l->n; i++) {
		job_opts_free(&l->jobs[i].o);
		free(l->jobs[i].src_file);
	}
	free(l->jobs);
	l->jobs = NULL;
	l->n = 0;
}
