/*
 * The core option table and its binder (options_int.h).
 *
 * One table drives parsing, defaults, range checks, error messages and the
 * printed option list, so they cannot drift apart.  Core options use a
 * superset of the engine option types (per-direction block sizes, rw
 * modes, lists); the verification, rate and shaping rows come from
 * options_ext.inc.
 */
#include "options.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "distrib.h"
#include "options_ext.h"
#include "options_int.h"
#include "parse.h"

#define MAX_BS (1ll << 31)
#define NR_CPUS 1024

#define OFF(f) offsetof(struct job_opts, f)
#define DEFAULT_PCTS "1:5:10:20:30:40:50:60:70:80:90:95:99:99.5:99.9:99.95:99.99"

/* Value names of rw, by enum rw_mode; "readwrite" is an alias of "rw". */
static const char *const rw_names[] = {
	"read", "write", "randread", "randwrite", "rw", "randrw", "trim", "randtrim", NULL,
};
const char *const core_rw_values[] = {
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

const struct core_opt *core_opt_find(const char *key)
{
	for (size_t i = 0; i < N_CORE_OPTS; i++)
		if (!strcmp(core_opts[i].name, key) ||
		    (core_opts[i].alias && !strcmp(core_opts[i].alias, key)))
			return &core_opts[i];
	return NULL;
}

const struct core_opt *core_opt_at(size_t i)
{
	return i < N_CORE_OPTS ? &core_opts[i] : NULL;
}

bool options_is_core(const char *name)
{
	return core_opt_find(name) != NULL;
}

bool options_core_is_bool(const char *name)
{
	const struct core_opt *o = core_opt_find(name);

	return o && o->kind == CK_BOOL;
}

const char *rw_mode_name(enum rw_mode m)
{
	return (unsigned)m < sizeof(rw_names) / sizeof(rw_names[0]) - 1 ? rw_names[m] : "unknown";
}

static void set_u32(void *p, uint64_t v)
{
	uint32_t x = (uint32_t)v;

	memcpy(p, &x, sizeof(x));
}

/*
 * Split "a,b,c" into at most three fields; fio's per-direction rule: one
 * field sets all directions, two set read and write and trim copies write.
 * A field of 128 characters or more is no size: the whole list is refused.
 */
static int split_dirs(const char *val, char fields[SHAPE_DIRS][1024], int *n)
{
	if (opt_split_dirs(val, fields, n))
		return -EINVAL;
	for (int d = 0; d < *n; d++)
		if (strlen(fields[d]) >= 128)
			return -EINVAL;
	return 0;
}

static int bind_bs(struct bind_ctx *c, const struct core_opt *opt, const char *val,
		   char *err, size_t errlen)
{
	char f[SHAPE_DIRS][1024], acc[256];
	union opt_scalar v;
	int n, rc;

	snprintf(acc, sizeof(acc), "%" PRId64 " .. %" PRId64 " (" OPT_SIZE_EXAMPLES
		 "), or read,write[,trim] sizes like 4k,64k", opt->min, opt->max);
	if (opt_is_blank(val))
		return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
	if (split_dirs(val, f, &n))
		return opt_reason(err, errlen, opt->name, val, "is not a size list", acc);
	for (int d = 0; d < n; d++) {
		if (n > 1 && opt_is_blank(f[d]))
			continue; /* ",8k": this direction keeps its value */
		rc = opt_parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL, f[d], &v,
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
	char f[SHAPE_DIRS][1024], acc[256];
	union opt_scalar lo, hi;
	int n, rc;

	snprintf(acc, sizeof(acc), "MIN-MAX like 4k-64k, or per direction like "
		 "4k-8k,16k-32k; each %" PRId64 " .. %" PRId64, opt->min, opt->max);
	if (opt_is_blank(val))
		return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
	if (split_dirs(val, f, &n))
		return opt_reason(err, errlen, opt->name, val, "is not a range list", acc);
	for (int d = 0; d < n; d++) {
		char *sep;

		if (n > 1 && opt_is_blank(f[d]))
			continue;
		sep = strpbrk(f[d], "-:");
		if (!sep)
			return opt_reason(err, errlen, opt->name, val, "is not a range", acc);
		*sep = '\0';
		rc = opt_parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL, f[d],
				      &lo, err, errlen);
		if (!rc)
			rc = opt_parse_scalar(opt->name, IORIG_OPT_SIZE, opt->min, opt->max, NULL,
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

/*
 * thinktime and thinktime_spin (a plain number is microseconds) and
 * rate_cycle (milliseconds), as fio reads them, in job files of either
 * syntax.
 */
static int bind_dur_unit(const struct core_opt *opt, const char *val, void *p, char *err,
			 size_t errlen)
{
	bool us = opt->kind == CK_DUR_US;
	char range[128], acc[384];
	uint64_t ns;
	int rc;

	opt_range_text(range, sizeof(range), IORIG_OPT_DURATION, opt->min, opt->max);
	snprintf(acc, sizeof(acc), "%s (durations like %s; a plain number is %s, as in fio)",
		 range, us ? "100us, 2ms" : "500ms, 2s", us ? "microseconds" : "milliseconds");
	if (!val || opt_is_blank(val))
		return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
	rc = parse_duration_unit_ns(val, us ? 1000 : 1000000, &ns);
	if (rc)
		return opt_reason(err, errlen, opt->name, val,
				  rc == -ERANGE ? "is too large" : "is not a duration", acc);
	if (opt->min < opt->max && (ns < (uint64_t)opt->min || ns > (uint64_t)opt->max))
		return opt_reason(err, errlen, opt->name, val, "is out of range", acc);
	memcpy(p, &ns, sizeof(ns));
	return 0;
}

int core_opt_bind(struct bind_ctx *c, const struct core_opt *opt, const char *val, char *err,
		  size_t errlen)
{
	char *p = (char *)c->o + opt->offset;
	char acc[256];
	union opt_scalar v;
	int rc;

	switch (opt->kind) {
	case CK_STR:
		/* Only a description or a log prefix (then the job name) may be empty. */
		if (opt_is_blank(val) && opt->offset != OFF(description) &&
		    opt->offset != OFF(bw_log) && opt->offset != OFF(iops_log) &&
		    opt->offset != OFF(lat_log))
			return opt_reason(err, errlen, opt->name, NULL, NULL, "any non-empty text");
		return opt_store_string(p, opt->name, val, err, errlen);
	case CK_BOOL:
		rc = opt_parse_scalar(opt->name, IORIG_OPT_BOOL, 0, 0, NULL, val, &v, err, errlen);
		if (!rc)
			*(bool *)p = v.b;
		return rc;
	case CK_U32:
	case CK_U64:
	case CK_RWMIXW:
		rc = opt_parse_scalar(opt->name, IORIG_OPT_INT, opt->min, opt->max, NULL, val, &v,
				      err, errlen);
		if (rc)
			return rc;
		if (opt->kind == CK_U64)
			memcpy(p, &v.i, sizeof(uint64_t));
		else
			set_u32(p, opt->kind == CK_RWMIXW ? (uint64_t)(100 - v.i) : (uint64_t)v.i);
		return 0;
	case CK_DUR_US:
	case CK_DUR_MS:
		return bind_dur_unit(opt, val, p, err, errlen);
	case CK_SIZE:
	case CK_DUR:
		rc = opt_parse_scalar(opt->name, opt->kind == CK_SIZE ? IORIG_OPT_SIZE :
				      IORIG_OPT_DURATION, opt->min, opt->max, NULL, val, &v, err,
				      errlen);
		if (!rc)
			memcpy(p, &v.u, sizeof(v.u));
		return rc;
	case CK_RW:
		rc = opt_parse_scalar(opt->name, IORIG_OPT_ENUM, 0, 0, core_rw_values, val, &v, err,
				      errlen);
		if (rc)
			return rc;
		/* core_rw_values has "readwrite" after "rw": map it back. */
		c->o->rw = (enum rw_mode)(v.idx <= RW_RW ? v.idx : v.idx - 1);
		return 0;
	case CK_BS:
		return bind_bs(c, opt, val, err, errlen);
	case CK_BSRANGE:
		return bind_bsrange(c, opt, val, err, errlen);
	case CK_PCTS:
		snprintf(acc, sizeof(acc), "percentiles 0 < p <= 100 separated by ':', like "
			 "50:99:99.9 (at most %d)", MAX_PERCENTILES);
		if (opt_is_blank(val))
			return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_percentile_list(val, c->o->percentiles, MAX_PERCENTILES,
					   &c->o->n_percentiles);
		if (rc == -ERANGE)
			return opt_reason(err, errlen, opt->name, val, "has too many values", acc);
		if (rc)
			return opt_reason(err, errlen, opt->name, val, "is not a percentile list",
					  acc);
		qsort(c->o->percentiles, c->o->n_percentiles, sizeof(double), cmp_double);
		return 0;
	case CK_CPUS:
		snprintf(acc, sizeof(acc), "CPU numbers and ranges like 0-3,6; each 0 .. %d",
			 NR_CPUS - 1);
		if (opt_is_blank(val))
			return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_cpu_list(val, c->o->cpus_allowed, NR_CPUS);
		if (rc == -ERANGE)
			return opt_reason(err, errlen, opt->name, val, "is out of range", acc);
		if (rc)
			return opt_reason(err, errlen, opt->name, val, "is not a CPU list", acc);
		c->o->has_cpus = true;
		return 0;
	case CK_SEED:
		snprintf(acc, sizeof(acc), "0 .. %" PRIu64, UINT64_MAX);
		if (opt_is_blank(val))
			return opt_reason(err, errlen, opt->name, NULL, NULL, acc);
		rc = parse_uint64(val, &c->o->randseed);
		if (rc)
			return opt_reason(err, errlen, opt->name, val, rc == -ERANGE ?
					  "does not fit in 64 bits" : "is not an integer", acc);
		c->o->randseed_set = true;
		return 0;
	case CK_ENUM:
		rc = opt_parse_scalar(opt->name, IORIG_OPT_ENUM, 0, 0,
				      options_ext_find(opt->name)->values, val, &v, err, errlen);
		if (!rc)
			set_u32(p, (uint64_t)v.idx);
		return rc;
	case CK_FN:
		return options_ext_find(opt->name)->parse(p, opt->name, val, err, errlen);
	}
	return -EINVAL;
}

int core_opt_defaults(struct bind_ctx *c, char *err, size_t errlen)
{
	for (size_t i = 0; i < N_CORE_OPTS; i++) {
		int rc;

		if (!core_opts[i].def)
			continue;
		rc = core_opt_bind(c, &core_opts[i], core_opts[i].def, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}
