/*
 * Printing parsed jobs (job_dump.h).  Reads struct job_opts field by field
 * and the engine's options through its table, so what is printed is what
 * the run would use, not what the file said.  Not yet printed: the verify,
 * rate and shape option structs (add them here as they settle).
 */
#include "job_dump.h"

#include <inttypes.h>
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
