/*
 * Printing parsed jobs (job_dump.h).  Reads struct job_opts field by field
 * and the engine's options through its table, so what is printed is what
 * the run would use, not what the file said.  Keys are the options' names
 * as a job file writes them, but for runtime_ns, ramp_time_ns and
 * startdelay_ns and the block-size bounds bs_min and bs_max (bsrange);
 * sizes are bytes and durations nanoseconds (thinktime = 1000000 is 1 ms),
 * enumerations and specs (verify, bssplit, random_distribution) are
 * written as the option accepts them.
 */
#include "job_dump.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static void put_str(FILE *f, const char *k, const char *v)
{
	fprintf(f, "  %s = %s\n", k, v ? v : "(none)");
}

static void put_u64(FILE *f, const char *k, uint64_t v)
{
	fprintf(f, "  %s = %" PRIu64 "\n", k, v);
}

static void put_dirs(FILE *f, const char *k, const uint64_t *v)
{
	fprintf(f, "  %s = %" PRIu64 ",%" PRIu64 ",%" PRIu64 "\n", k, v[DDIR_READ],
		v[DDIR_WRITE], v[DDIR_TRIM]);
}

static void put_dirs32(FILE *f, const char *k, const uint32_t *v)
{
	const uint64_t w[DDIR_COUNT] = { v[DDIR_READ], v[DDIR_WRITE], v[DDIR_TRIM] };

	put_dirs(f, k, w);
}

/* An enumeration's value by its name in the option's NULL-terminated list. */
static void put_enum(FILE *f, const char *k, const char *const *names, uint32_t v)
{
	uint32_t i = 0;

	while (names[i] && i < v)
		i++;
	put_str(f, k, names[i] ? names[i] : "?");
}

/* verify_pattern as it is written: 0x and the bytes in order. */
static void put_pattern(FILE *f, const struct verify_opts *v)
{
	if (!v->pattern_len) {
		put_str(f, "verify_pattern", NULL);
		return;
	}
	fputs("  verify_pattern = 0x", f);
	for (uint32_t i = 0; i < v->pattern_len; i++)
		fprintf(f, "%02x", v->pattern[i]);
	fputc('\n', f);
}

/* bssplit as written: BS/PCT:... per direction; an empty field: none for that direction. */
static void put_bssplit(FILE *f, const struct bssplit *b)
{
	if (!b[DDIR_READ].n && !b[DDIR_WRITE].n && !b[DDIR_TRIM].n) {
		put_str(f, "bssplit", NULL);
		return;
	}
	fputs("  bssplit = ", f);
	for (int d = 0; d < DDIR_COUNT; d++) {
		for (uint32_t i = 0; i < b[d].n; i++)
			fprintf(f, "%s%" PRIu64 "/%" PRIu32, i ? ":" : "", b[d].e[i].bs,
				b[d].e[i].pct);
		fputs(d + 1 < DDIR_COUNT ? "," : "\n", f);
	}
}

static void put_verify(FILE *f, const struct verify_opts *v)
{
	put_enum(f, "verify", verify_type_names, v->type);
	put_u64(f, "do_verify", v->do_verify);
	put_u64(f, "verify_backlog", v->backlog);
	put_u64(f, "verify_only", v->only);
	put_u64(f, "verify_fatal", v->fatal);
	put_u64(f, "verify_dump", v->dump);
	put_pattern(f, v);
}

static void put_rate(FILE *f, const struct rate_opts *r)
{
	put_dirs(f, "rate", r->bps);
	put_dirs(f, "rate_iops", r->iops);
	put_dirs(f, "rate_min", r->min_bps);
	put_dirs(f, "rate_iops_min", r->min_iops);
	put_u64(f, "rate_cycle", r->cycle_ns);
	put_enum(f, "rate_process", rate_process_names, r->process);
	put_u64(f, "thinktime", r->think_ns);
	put_u64(f, "thinktime_spin", r->think_spin_ns);
	put_u64(f, "thinktime_blocks", r->think_blocks);
}

/*
 * random_distribution as written.  dist_format() rounds the parameter to
 * six digits (enough for reports); here it is the shortest form that
 * reads back as the value the run uses.
 */
static void put_dist(FILE *f, const struct dist_opts *d)
{
	char buf[64 + ZONES_MAX * 48], *arg;

	dist_format(buf, sizeof(buf), d);
	arg = strchr(buf, ':');
	if (arg && (d->type == DIST_ZIPF || d->type == DIST_PARETO || d->type == DIST_NORMAL))
		for (int digits = 1; digits <= 17; digits++) {
			snprintf(arg + 1, sizeof(buf) - (size_t)(arg + 1 - buf), "%.*g", digits,
				 d->param);
			if (strtod(arg + 1, NULL) == d->param)
				break;
		}
	put_str(f, "random_distribution", buf);
}

static void put_shape(FILE *f, const struct shape_opts *s)
{
	put_bssplit(f, s->bssplit);
	put_dist(f, &s->dist);
	put_dirs32(f, "percentage_random", s->pct_random);
	put_u64(f, "offset_increment", s->offset_increment);
}

static void put_engine_opts(FILE *f, const struct job *j)
{
	const struct engine *e = j->engine;

	for (const struct iorig_option *o = e ? e->options : NULL; o && o->name; o++) {
		const char *p = (const char *)j->o.engine_opts + o->offset;
		int iv;
		int64_t i64;
		uint64_t u64;
		const char *s;

		fprintf(f, "  engine.%s = ", o->name);
		switch (o->type) {
		case IORIG_OPT_BOOL:
			memcpy(&iv, p, sizeof(iv));
			fprintf(f, "%d\n", iv);
			break;
		case IORIG_OPT_ENUM:
			memcpy(&iv, p, sizeof(iv));
			fprintf(f, "%s\n", o->values && iv >= 0 ? o->values[iv] : "?");
			break;
		case IORIG_OPT_INT:
			memcpy(&i64, p, sizeof(i64));
			fprintf(f, "%" PRId64 "\n", i64);
			break;
		case IORIG_OPT_SIZE:
		case IORIG_OPT_DURATION:
			memcpy(&u64, p, sizeof(u64));
			fprintf(f, "%" PRIu64 "\n", u64);
			break;
		case IORIG_OPT_STRING:
			memcpy(&s, p, sizeof(s));
			fprintf(f, "%s\n", s ? s : "(none)");
			break;
		default:
			fputs("?\n", f);
			break;
		}
	}
}

static void dump_one(FILE *f, const struct job *j)
{
	const struct job_opts *o = &j->o;

	fprintf(f, "job %u '%s' group %u\n", j->index, o->name, j->groupid);
	put_str(f, "description", o->description);
	put_str(f, "ioengine", j->engine ? j->engine->name : o->ioengine);
	put_str(f, "filename", o->filename);
	put_str(f, "directory", o->directory);
	put_u64(f, "nrfiles", o->nrfiles);
	put_u64(f, "size", o->size);
	put_u64(f, "io_size", o->io_size);
	put_u64(f, "offset", o->offset);
	put_u64(f, "loops", o->loops);
	put_dirs(f, "bs", o->bs);
	put_dirs(f, "bs_min", o->bs_min);
	put_dirs(f, "bs_max", o->bs_max);
	put_str(f, "rw", rw_mode_name(o->rw));
	put_u64(f, "rwmixread", o->rwmixread);
	put_u64(f, "iodepth", o->iodepth);
	put_u64(f, "iodepth_batch_submit", o->iodepth_batch_submit);
	put_u64(f, "iodepth_batch_complete_min", o->iodepth_batch_complete_min);
	put_u64(f, "iodepth_batch_complete_max", o->iodepth_batch_complete_max);
	put_u64(f, "numjobs", o->numjobs);
	put_u64(f, "runtime_ns", o->runtime_ns);
	put_u64(f, "ramp_time_ns", o->ramp_time_ns);
	put_u64(f, "startdelay_ns", o->startdelay_ns);
	put_u64(f, "time_based", o->time_based);
	put_u64(f, "direct", o->direct);
	put_u64(f, "fsync", o->fsync_every);
	put_u64(f, "fdatasync", o->fdatasync_every);
	put_u64(f, "end_fsync", o->end_fsync);
	put_u64(f, "norandommap", o->norandommap);
	put_u64(f, "randrepeat", o->randrepeat);
	if (o->randseed_set)
		put_u64(f, "randseed", o->randseed);
	else
		put_str(f, "randseed", NULL);
	put_u64(f, "stonewall", o->stonewall);
	put_u64(f, "new_group", o->new_group);
	put_u64(f, "group_reporting", o->group_reporting);
	put_u64(f, "unlink", o->unlink);
	put_u64(f, "invalidate", o->invalidate);
	put_u64(f, "allow_mounted_write", o->allow_mounted_write);
	put_u64(f, "overwrite_device", o->overwrite_device);
	put_str(f, "write_bw_log", o->bw_log);
	put_str(f, "write_iops_log", o->iops_log);
	put_str(f, "write_lat_log", o->lat_log);
	put_u64(f, "log_avg_msec", o->log_avg_msec);
	put_u64(f, "log_offset", o->log_offset);
	put_u64(f, "zero_buffers", o->buf.zero);
	put_u64(f, "refill_buffers", o->buf.refill);
	put_u64(f, "buffer_compress_percentage", o->buf.compress_pct);
	put_u64(f, "buffer_compress_chunk", o->buf.compress_chunk);
	put_u64(f, "dedupe_percentage", o->buf.dedupe_pct);
	put_verify(f, &o->verify);
	put_rate(f, &o->rate);
	put_shape(f, &o->shape);
	if (o->has_cpus) {
		fputs("  cpus_allowed =", f);
		for (unsigned c = 0; c < 1024; c++)
			if (o->cpus_allowed[c / 64] & (1ull << (c % 64)))
				fprintf(f, " %u", c);
		fputc('\n', f);
	} else {
		put_str(f, "cpus_allowed", NULL);
	}
	fputs("  percentile_list =", f);
	for (uint32_t i = 0; i < o->n_percentiles; i++)
		fprintf(f, " %g", o->percentiles[i]);
	fputc('\n', f);
	put_engine_opts(f, j);
}

void job_dump(FILE *f, const struct job_list *jobs)
{
	for (uint32_t i = 0; i < jobs->n; i++)
		dump_one(f, &jobs->jobs[i]);
}
