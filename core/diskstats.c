/*
 * Disk statistics (diskstats.h): which disks a run's files live on, their
 * /sys/block counters at the start and end of the run, and the "Disk
 * stats" figures the normal, JSON and terse reports print.
 */
#include "diskstats.h"

#include <errno.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "engine.h"
#include "files.h"

/* The device a path's data lives on: the device itself or its filesystem's. */
static int dev_of(const char *path, dev_t *dev)
{
	char buf[PATH_MAX];
	struct stat sb;

	if (stat(path, &sb)) {
		/* Not laid out yet: the directory it will be created in. */
		if (errno != ENOENT)
			return -errno;
		snprintf(buf, sizeof(buf), "%s", path);
		if (stat(dirname(buf), &sb))
			return -errno;
	}
	*dev = S_ISBLK(sb.st_mode) ? sb.st_rdev : sb.st_dev;
	return major(*dev) ? 0 : -ENODEV; /* major 0: tmpfs, overlay, nfs... */
}

/* Resolve to the whole disk's sysfs directory (a partition's parent). */
static int disk_dir(dev_t dev, char *out)
{
	char link[64], part[PATH_MAX + 16];
	struct stat sb;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (!realpath(link, out))
		return errno == ENOENT ? -ENODEV : -errno;
	snprintf(part, sizeof(part), "%s/partition", out);
	if (!stat(part, &sb))
		*strrchr(out, '/') = '\0';
	return 0;
}

int diskstats_disk_of(const char *path, char *name, size_t len)
{
	char dir[PATH_MAX];
	dev_t dev;
	int rc = dev_of(path, &dev);

	if (!rc)
		rc = disk_dir(dev, dir);
	if (rc)
		return rc;
	snprintf(name, len, "%s", strrchr(dir, '/') + 1);
	return 0;
}

static int read_counters(const char *path, struct disk_counters *c)
{
	unsigned long long v[11];
	FILE *f = fopen(path, "r");
	int n;

	if (!f)
		return -errno;
	/* read ios merges sectors ticks, write ios merges sectors ticks,
	 * in_flight, io_ticks, time_in_queue (Documentation/block/stat.rst) */
	n = fscanf(f, "%llu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	fclose(f);
	if (n != 11)
		return -EINVAL;
	for (int d = 0; d < 2; d++) {
		c->ios[d] = v[4 * d];
		c->merges[d] = v[4 * d + 1];
		c->sectors[d] = v[4 * d + 2];
		c->ticks[d] = v[4 * d + 3];
	}
	c->io_ticks = v[9];
	c->in_queue = v[10];
	return 0;
}

static int add_disk(struct disk_set *s, const char *path, uint64_t now)
{
	char dir[PATH_MAX], name[64];
	struct disk_util *d;
	dev_t dev;

	if (dev_of(path, &dev) || disk_dir(dev, dir))
		return 0; /* no disk under it: nothing to report */
	snprintf(name, sizeof(name), "%s", strrchr(dir, '/') + 1);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->d[i].name, name))
			return 0;
	d = realloc(s->d, (s->n + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->d = d;
	d = &s->d[s->n];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	snprintf(d->stat_path, sizeof(d->stat_path), "/sys/block/%s/stat", name);
	if (read_counters(d->stat_path, &d->start))
		return 0; /* no stat file (odd device): skip it */
	d->start_ns = now;
	s->n++;
	return 0;
}

int diskstats_begin(struct disk_set *s, const struct job_list *jobs, uint64_t now)
{
	memset(s, 0, sizeof(*s));
	for (uint32_t j = 0; j < jobs->n; j++) {
		const struct job *job = &jobs->jobs[j];
		uint32_t nj = job->o.numjobs ? job->o.numjobs : 1;

		if (job->engine && (job->engine->caps & IORIG_CAP_DISKLESS))
			continue;
		for (uint32_t i = 0; i < nj; i++) {
			struct job_files jf;
			char err[256];
			int rc = 0;

			/* Resolution errors are the scheduler's to report. */
			if (job_files_resolve(job, i, false, &jf, err, sizeof(err)))
				break;
			for (uint32_t k = 0; k < jf.n && !rc; k++)
				rc = add_disk(s, jf.paths[k], now);
			job_files_free(&jf);
			if (rc)
				return rc;
			/* Instances without filename= differ only in their names. */
			if (job->o.filename)
				break;
		}
	}
	return 0;
}

void diskstats_end(struct disk_set *s, uint64_t now)
{
	for (size_t i = 0; i < s->n; i++) {
		struct disk_util *d = &s->d[i];

		if (read_counters(d->stat_path, &d->end))
			d->end = d->start;
		d->end_ns = now;
		d->ended = true;
	}
}

void diskstats_free(struct disk_set *s)
{
	free(s->d);
	memset(s, 0, sizeof(*s));
}

static uint64_t delta(uint64_t a, uint64_t b)
{
	return b >= a ? b - a : 0; /* counters reset (device re-created) */
}

void diskstats_figures(const struct disk_util *d, struct disk_figures *f)
{
	const struct disk_counters *a = &d->start, *b = &d->end;
	double ms = (double)(d->end_ns - d->start_ns) / 1e6;

	for (int k = 0; k < 2; k++) {
		f->ios[k] = delta(a->ios[k], b->ios[k]);
		f->merges[k] = delta(a->merges[k], b->merges[k]);
		f->ticks[k] = delta(a->ticks[k], b->ticks[k]);
	}
	f->in_queue = delta(a->in_queue, b->in_queue);
	f->util = ms > 0 ? 100.0 * (double)delta(a->io_ticks, b->io_ticks) / ms : 0.0;
	if (f->util > 100.0)
		f->util = 100.0;
}

void diskstats_print_normal(FILE *f, const struct disk_set *s)
{
	if (!s->n)
		return;
	fprintf(f, "\nDisk stats (read/write):\n");
	for (size_t i = 0; i < s->n; i++) {
		struct disk_figures x;

		diskstats_figures(&s->d[i], &x);
		fprintf(f, "  %s: ios=%" PRIu64 "/%" PRIu64 ", merge=%" PRIu64 "/%" PRIu64
			", ticks=%" PRIu64 "/%" PRIu64 ", in_queue=%" PRIu64 ", util=%3.2f%%\n",
			s->d[i].name, x.ios[0], x.ios[1], x.merges[0], x.merges[1], x.ticks[0],
			x.ticks[1], x.in_queue, x.util);
	}
}

static void jput(json_object *o, const char *key, json_object *v)
{
	if (json_object_object_add(o, key, v))
		json_object_put(v);
}

json_object *diskstats_json(const struct disk_set *s)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < s->n; i++) {
		json_object *o = json_object_new_object();
		struct disk_figures x;
		char util[32];

		if (!o)
			break;
		diskstats_figures(&s->d[i], &x);
		jput(o, "name", json_object_new_string(s->d[i].name));
		jput(o, "read_ios", json_object_new_int64((int64_t)x.ios[0]));
		jput(o, "write_ios", json_object_new_int64((int64_t)x.ios[1]));
		jput(o, "read_merges", json_object_new_int64((int64_t)x.merges[0]));
		jput(o, "write_merges", json_object_new_int64((int64_t)x.merges[1]));
		jput(o, "read_ticks", json_object_new_int64((int64_t)x.ticks[0]));
		jput(o, "write_ticks", json_object_new_int64((int64_t)x.ticks[1]));
		jput(o, "in_queue", json_object_new_int64((int64_t)x.in_queue));
		snprintf(util, sizeof(util), "%f", x.util);
		jput(o, "util", json_object_new_double_s(x.util, util));
		if (json_object_array_add(arr, o))
			json_object_put(o);
	}
	return arr;
}
