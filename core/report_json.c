/*
 * The JSON report, in fio's schema (fio 3.33 --output-format=json) for
 * everything both tools measure, so fio's JSON tooling reads it unchanged:
 * same key names, nesting and units (bytes, KiB/s for "bw*", ns for
 * latencies, ms for runtimes, percent for shares).  Built with json-c.
 *
 * What differs, on purpose:
 *  - "fio version" says "iorig-<version>" (tools show it, none should
 *    mistake us for fio); "iorig version" holds the bare version;
 *  - "job options" are rebuilt from the parsed job (sizes and durations in
 *    job-file syntax, e.g. "4k", "10s"), not the text as written; engine
 *    options are not listed;
 *  - "global options" is the global section as written (libconfig
 *    `global`, fio `[global]`, fio options before the first --name; see
 *    job_source.h), every value a string holding the job file's text:
 *    strings as written ("4k"), libconfig numbers as libconfig reads them
 *    back (0x10 gives "16"), libconfig booleans "1"/"0", lists joined with
 *    ':', a bare flag in a fio job file "" (as fio; a bare boolean flag on
 *    the command line was read as "1").  Options iorig ignores or rewrites
 *    (thread, ioengine=sync) are listed as written, and engine options
 *    too (libconfig's engine_options group is flattened).  One key each:
 *    a repeated key keeps its first place and its last value, where fio
 *    would list it twice; a [global] after some jobs is not included (its
 *    options are copied into those jobs), and the object is {} rather
 *    than left out when there are no global options;
 *  - "sync" holds every file sync of the measured phase: fsync=N's after
 *    every Nth write, the last one included (fio skips that one), and
 *    end_fsync's (fio leaves them out); "total_ios" counts fdatasync=N's
 *    syncs too (fio's stays 0 for them while "N" counts them);
 *  - "eta" is 0;
 *  - "disk_util" has no "aggr_*" figures for device-mapper devices;
 *  - iorig-only figures live under "iorig", top level and per job.
 */
#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "report_fmt.h"
#include "verify_report.h"

struct jctx {
	bool oom; /* any allocation failed: the document is incomplete */
};

static void put(struct jctx *c, json_object *o, const char *key, json_object *v)
{
	if (!o || !v || json_object_object_add(o, key, v)) {
		json_object_put(v);
		c->oom = true;
	}
}

static json_object *jint(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

/* fio prints doubles with "%f"; keep that text so diffs against fio stay quiet. */
static json_object *jdbl(double v)
{
	char buf[64];

	if (!isfinite(v))
		v = 0.0;
	snprintf(buf, sizeof(buf), "%f", v);
	return json_object_new_double_s(v, buf);
}

static void put_str(struct jctx *c, json_object *o, const char *key, const char *s)
{
	put(c, o, key, json_object_new_string(s ? s : ""));
}

static json_object *lat_obj(struct jctx *c, const struct lat_stat *l,
			    const struct report_entry *e, bool with_pcts)
{
	json_object *o = json_object_new_object();
	const struct runstat *rs = &l->rs;

	put(c, o, "min", jint(rs->n ? rs->min : 0));
	put(c, o, "max", jint(rs->n ? rs->max : 0));
	put(c, o, "mean", jdbl(rs->n ? rs->mean : 0.0));
	put(c, o, "stddev", jdbl(runstat_stdev(rs)));
	put(c, o, "N", jint(rs->n));
	if (with_pcts && l->h.count) {
		json_object *p = json_object_new_object();
		const double *pcts;
		uint32_t n = report_percentiles(e, &pcts);

		for (uint32_t i = 0; i < n; i++) {
			char key[64];

			snprintf(key, sizeof(key), "%f", pcts[i]);
			put(c, p, key, jint(hist_percentile(&l->h, pcts[i])));
		}
		put(c, o, "percentile", p);
	}
	return o;
}

static json_object *dir_obj(struct jctx *c, const struct report_model *m,
			    const struct report_entry *e, int d)
{
	const struct dir_stats *ds = &e->st->dir[d];
	const struct runstat *bw = &ds->bw_samples, *io = &ds->iops_samples;
	json_object *o = json_object_new_object();
	uint64_t bwb = report_dir_bw(e->st, d);
	uint64_t rt = report_dir_runtime_ns(e->st, d);

	put(c, o, "io_bytes", jint(ds->bytes));
	put(c, o, "io_kbytes", jint(ds->bytes / 1024));
	put(c, o, "bw_bytes", jint(bwb));
	put(c, o, "bw", jint(bwb / 1024));
	put(c, o, "iops", jdbl(report_dir_iops(e->st, d)));
	put(c, o, "runtime", jint(rt ? report_ms(rt) : 0));
	put(c, o, "total_ios", jint(ds->ios));
	put(c, o, "short_ios", jint(0));
	put(c, o, "drop_ios", jint(0));
	put(c, o, "slat_ns", lat_obj(c, &ds->slat, e, false));
	put(c, o, "clat_ns", lat_obj(c, &ds->clat, e, true));
	put(c, o, "lat_ns", lat_obj(c, &ds->lat, e, false));
	if (ds->ilat.rs.n) { /* iorig only: latency from the intended issue time */
		json_object *x = json_object_new_object();

		put(c, x, "lat_intended_ns", lat_obj(c, &ds->ilat, e, true));
		put(c, o, "iorig", x);
	}
	/* Sample figures in KiB/s; "bw_agg" is the share of the group's bandwidth. */
	put(c, o, "bw_min", jint(bw->n ? bw->min / 1024 : 0));
	put(c, o, "bw_max", jint(bw->n ? bw->max / 1024 : 0));
	put(c, o, "bw_agg", jdbl(report_bw_share(m, e, d)));
	put(c, o, "bw_mean", jdbl(bw->n ? bw->mean / 1024.0 : 0.0));
	put(c, o, "bw_dev", jdbl(runstat_stdev(bw) / 1024.0));
	put(c, o, "bw_samples", jint(bw->n));
	put(c, o, "iops_min", jint(io->n ? io->min : 0));
	put(c, o, "iops_max", jint(io->n ? io->max : 0));
	put(c, o, "iops_mean", jdbl(io->n ? io->mean : 0.0));
	put(c, o, "iops_stddev", jdbl(runstat_stdev(io)));
	put(c, o, "iops_samples", jint(io->n));
	return o;
}

/* fsync/fdatasync: as many I/Os as latency samples (one per file synced). */
static json_object *sync_obj(struct jctx *c, const struct report_entry *e)
{
	json_object *o = json_object_new_object();

	put(c, o, "total_ios", jint(e->st->sync.rs.n));
	put(c, o, "lat_ns", lat_obj(c, &e->st->sync, e, true));
	return o;
}

static json_object *levels_obj(struct jctx *c, const uint64_t *v,
			       const char *const *names, unsigned n)
{
	json_object *o = json_object_new_object();
	uint64_t total = 0;

	for (unsigned i = 0; i < n; i++)
		total += v[i];
	for (unsigned i = 0; i < n; i++)
		put(c, o, names[i], jdbl(report_share(v[i], total)));
	return o;
}

static json_object *latdist_obj(struct jctx *c, const double *pct, unsigned first, unsigned n)
{
	json_object *o = json_object_new_object();

	for (unsigned i = first; i < first + n; i++)
		put(c, o, latdist_label[i], jdbl(pct[i]));
	return o;
}

static void put_size(struct jctx *c, json_object *o, const char *key, uint64_t v)
{
	char buf[32];

	fmt_size_option(buf, sizeof(buf), v);
	put_str(c, o, key, buf);
}

static void put_dur(struct jctx *c, json_object *o, const char *key, uint64_t ns)
{
	char buf[32];

	fmt_duration_option(buf, sizeof(buf), ns);
	put_str(c, o, key, buf);
}

static void put_u(struct jctx *c, json_object *o, const char *key, uint64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%" PRIu64, v);
	put_str(c, o, key, buf);
}

/* Block sizes as fio's bs=: one value, or read,write,trim when they differ. */
static void put_bs(struct jctx *c, json_object *o, const struct job_opts *jo)
{
	char a[32], b[32], t[32], all[100];

	fmt_size_option(a, sizeof(a), jo->bs[DDIR_READ]);
	fmt_size_option(b, sizeof(b), jo->bs[DDIR_WRITE]);
	fmt_size_option(t, sizeof(t), jo->bs[DDIR_TRIM]);
	if (!strcmp(a, b) && !strcmp(a, t))
		put_str(c, o, "bs", a);
	else {
		snprintf(all, sizeof(all), "%s,%s,%s", a, b, t);
		put_str(c, o, "bs", all);
	}
	if (jo->bs_min[DDIR_READ] != jo->bs_max[DDIR_READ]) {
		fmt_size_option(a, sizeof(a), jo->bs_min[DDIR_READ]);
		fmt_size_option(b, sizeof(b), jo->bs_max[DDIR_READ]);
		snprintf(all, sizeof(all), "%s-%s", a, b);
		put_str(c, o, "bsrange", all);
	}
}

static json_object *options_obj(struct jctx *c, const struct job_opts *jo)
{
	json_object *o = json_object_new_object();

	put_str(c, o, "name", jo->name);
	if (jo->description && jo->description[0])
		put_str(c, o, "description", jo->description);
	if (jo->ioengine)
		put_str(c, o, "ioengine", jo->ioengine);
	if (jo->filename)
		put_str(c, o, "filename", jo->filename);
	if (jo->directory)
		put_str(c, o, "directory", jo->directory);
	if (!jo->filename && jo->nrfiles > 1)
		put_u(c, o, "nrfiles", jo->nrfiles);
	put_str(c, o, "rw", rw_mode_name(jo->rw));
	if (jo->rw == RW_RW || jo->rw == RW_RANDRW)
		put_u(c, o, "rwmixread", jo->rwmixread);
	put_bs(c, o, jo);
	put_size(c, o, "size", jo->size);
	if (jo->io_size)
		put_size(c, o, "io_size", jo->io_size);
	if (jo->offset)
		put_size(c, o, "offset", jo->offset);
	if (jo->loops > 1)
		put_u(c, o, "loops", jo->loops);
	put_u(c, o, "iodepth", jo->iodepth);
	/* Batch sizes only when they differ from the defaults (1, 1, iodepth). */
	if (jo->iodepth_batch_submit > 1)
		put_u(c, o, "iodepth_batch_submit", jo->iodepth_batch_submit);
	if (jo->iodepth_batch_complete_min > 1)
		put_u(c, o, "iodepth_batch_complete_min", jo->iodepth_batch_complete_min);
	if (jo->iodepth_batch_complete_max > 1 &&
	    jo->iodepth_batch_complete_max != jo->iodepth)
		put_u(c, o, "iodepth_batch_complete_max", jo->iodepth_batch_complete_max);
	put_u(c, o, "numjobs", jo->numjobs);
	if (jo->runtime_ns)
		put_dur(c, o, "runtime", jo->runtime_ns);
	if (jo->ramp_time_ns)
		put_dur(c, o, "ramp_time", jo->ramp_time_ns);
	if (jo->startdelay_ns)
		put_dur(c, o, "startdelay", jo->startdelay_ns);
	if (jo->time_based)
		put_str(c, o, "time_based", "1");
	if (jo->direct)
		put_str(c, o, "direct", "1");
	if (jo->fsync_every)
		put_u(c, o, "fsync", jo->fsync_every);
	if (jo->fdatasync_every)
		put_u(c, o, "fdatasync", jo->fdatasync_every);
	if (jo->end_fsync)
		put_str(c, o, "end_fsync", "1");
	if (jo->norandommap)
		put_str(c, o, "norandommap", "1");
	if (!jo->randrepeat)
		put_str(c, o, "randrepeat", "0");
	if (jo->randseed_set)
		put_u(c, o, "randseed", jo->randseed);
	if (jo->stonewall)
		put_str(c, o, "stonewall", "1");
	if (jo->new_group)
		put_str(c, o, "new_group", "1");
	if (jo->group_reporting)
		put_str(c, o, "group_reporting", "1");
	if (jo->unlink)
		put_str(c, o, "unlink", "1");
	if (!report_percentiles_default(jo)) {
		char buf[MAX_PERCENTILES * 24] = "";
		size_t len = 0;

		for (uint32_t i = 0; i < jo->n_percentiles && len < sizeof(buf); i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%.10g",
						i ? ":" : "", jo->percentiles[i]);
		put_str(c, o, "percentile_list", buf);
	}
	return o;
}

static json_object *globals_obj(struct jctx *c, const struct cfg_section *g)
{
	json_object *o = json_object_new_object();

	for (size_t i = 0; g && i < g->n; i++)
		put_str(c, o, g->entries[i].key, g->entries[i].value);
	return o;
}

static json_object *iorig_job_obj(struct jctx *c, const struct report_model *m,
				  const struct report_entry *e)
{
	json_object *o = json_object_new_object();
	uint64_t overflow = 0;

	for (int d = 0; d < DDIR_COUNT; d++)
		overflow += e->st->dir[d].lat.h.overflow;
	put(c, o, "job_id", jint(e->job_id));
	put(c, o, "nr_jobs", jint(e->st->nr_jobs));
	put(c, o, "runtime_ns", jint(e->st->runtime_ns));
	put(c, o, "cpu_runtime_ns", jint(report_entry_cpu_runtime_ns(m, e)));
	/* Percentiles are bucket midpoints: at most this far from the truth. */
	put(c, o, "hist_rel_error_pct", jdbl(100.0 / (double)(2u * HIST_SUB)));
	put(c, o, "lat_overflow", jint(overflow));
	if (e->error)
		put_str(c, o, "errmsg", e->errmsg && e->errmsg[0] ? e->errmsg : strerror(e->error));
	return o;
}

static json_object *job_obj(struct jctx *c, const struct report_model *m,
			    const struct report_entry *e)
{
	const struct job_stats *st = e->st;
	const struct job_opts *jo = &e->job->o;
	uint64_t cpu_rt = report_entry_cpu_runtime_ns(m, e);
	json_object *o = json_object_new_object();
	double lat[LATDIST_ALL];

	put_str(c, o, "jobname", jo->name);
	put(c, o, "groupid", jint(e->groupid));
	put(c, o, "error", json_object_new_int(e->error));
	put(c, o, "eta", jint(0));
	put(c, o, "elapsed", jint((m->run->elapsed_ns + 999999999) / 1000000000));
	put(c, o, "job options", options_obj(c, jo));
	for (int d = 0; d < DDIR_COUNT; d++)
		put(c, o, ddir_name[d], dir_obj(c, m, e, d));
	put(c, o, "sync", sync_obj(c, e));
	put(c, o, "job_runtime", jint(cpu_rt / 1000000));
	put(c, o, "usr_cpu", jdbl(report_cpu_pct(st->usr_ns, cpu_rt)));
	put(c, o, "sys_cpu", jdbl(report_cpu_pct(st->sys_ns, cpu_rt)));
	put(c, o, "ctx", jint(st->ctx));
	put(c, o, "majf", jint(st->majf));
	put(c, o, "minf", jint(st->minf));
	put(c, o, "iodepth_level", levels_obj(c, st->depth, depth_label, DEPTH_LEVELS));
	put(c, o, "iodepth_submit", levels_obj(c, st->submit, batch_label, BATCH_LEVELS));
	put(c, o, "iodepth_complete", levels_obj(c, st->complete, batch_label, BATCH_LEVELS));
	report_latdist(st, lat);
	put(c, o, "latency_ns", latdist_obj(c, lat, 0, LATDIST_NS));
	put(c, o, "latency_us", latdist_obj(c, lat, LATDIST_NS, LATDIST_US));
	put(c, o, "latency_ms", latdist_obj(c, lat, LATDIST_NS + LATDIST_US, LATDIST_MS));
	put(c, o, "latency_depth", jint(jo->iodepth));
	put(c, o, "latency_target", jint(0));
	put(c, o, "latency_percentile", jdbl(100.0));
	put(c, o, "latency_window", jint(0));
	if (jo->description && jo->description[0])
		put_str(c, o, "desc", jo->description);
	put(c, o, "iorig", iorig_job_obj(c, m, e));
	if (jo->verify.type) /* iorig only: bad blocks per kind (verify_report.h) */
		put(c, o, "verify", verify_json(&st->verify, verify_type_names[jo->verify.type]));
	return o;
}

int report_json(FILE *f, const struct report_model *m)
{
	struct jctx c = { .oom = false };
	json_object *root = json_object_new_object();
	json_object *jobs = json_object_new_array();
	json_object *iorig = json_object_new_object();
	const char *text;
	char when[64];
	int ret = 0;

	fmt_time(when, sizeof(when), m->run->start_unix_ms);
	put_str(&c, root, "fio version", "iorig-" IORIG_VERSION);
	put_str(&c, root, "iorig version", IORIG_VERSION);
	put(&c, root, "timestamp", json_object_new_int64(m->run->start_unix_ms / 1000));
	put(&c, root, "timestamp_ms", json_object_new_int64(m->run->start_unix_ms));
	put_str(&c, root, "time", when);
	put(&c, root, "global options", globals_obj(&c, m->globals));
	for (size_t i = 0; i < m->n_entries; i++) {
		json_object *j = job_obj(&c, m, &m->entries[i]);

		if (!jobs || !j || json_object_array_add(jobs, j)) {
			json_object_put(j);
			c.oom = true;
		}
	}
	put(&c, root, "jobs", jobs);
	put(&c, root, "disk_util", m->disks ? diskstats_json(m->disks) : json_object_new_array());
	put(&c, iorig, "interrupted", json_object_new_boolean(m->run->interrupted));
	put(&c, iorig, "elapsed_ns", jint(m->run->elapsed_ns));
	put(&c, root, "iorig", iorig);

	text = c.oom ? NULL : json_object_to_json_string_ext(root,
			JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text)
		ret = -ENOMEM;
	else if (fputs(text, f) == EOF || fputc('\n', f) == EOF || fflush(f))
		ret = -EIO;
	json_object_put(root);
	return ret;
}
