/*
 * Per-interval JSON lines (status_interval.h), on the sampler thread.
 * Each worker keeps the counters and histogram it had at the previous
 * line; an entry (one job instance, or all group_reporting instances of
 * the group, as in the report) sums its workers' differences.
 */
#include "status_interval.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <json-c/json.h>

#include "log.h"
#include "monitor.h"
#include "report_fmt.h"

struct iv_entry {
	const struct job *job;
	uint32_t job_id;
	uint32_t nr_jobs;
	uint64_t bytes[DDIR_COUNT], ios[DDIR_COUNT];
	uint64_t lat_n[DDIR_COUNT];
	double lat_sum[DDIR_COUNT];
	struct hist *clat[DDIR_COUNT];   /* this interval's; NULL for unused directions */
};

struct iv_worker {
	const struct monitor_worker *w;
	size_t entry;
	uint64_t bytes[DDIR_COUNT], ios[DDIR_COUNT];
	uint64_t lat_n[DDIR_COUNT];
	double lat_sum[DDIR_COUNT];
	struct hist *clat[DDIR_COUNT];   /* snapshot at the previous line */
};

struct status_iv {
	FILE *out;
	bool own;
	uint64_t interval_ns;
	uint64_t run_start;
	uint64_t next_due;
	uint64_t last;        /* when the previous line was taken */
	uint64_t seq;
	struct iv_worker *w;
	size_t n;
	struct iv_entry *e;
	size_t n_e;
};

int status_iv_open(struct status_iv **out, FILE *f, uint64_t interval_ns, uint64_t run_start)
{
	struct status_iv *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->out = f;
	s->own = f != stdout;
	s->interval_ns = interval_ns;
	s->run_start = run_start;
	s->next_due = run_start + interval_ns;
	*out = s;
	return 0;
}

static void free_group(struct status_iv *s)
{
	for (size_t i = 0; i < s->n; i++)
		for (int d = 0; d < DDIR_COUNT; d++)
			free(s->w[i].clat[d]);
	for (size_t i = 0; i < s->n_e; i++)
		for (int d = 0; d < DDIR_COUNT; d++)
			free(s->e[i].clat[d]);
	free(s->w);
	free(s->e);
	s->w = NULL;
	s->e = NULL;
	s->n = s->n_e = 0;
}

void status_iv_group_begin(struct status_iv *s, const struct monitor_worker *w, size_t n,
			   uint64_t now)
{
	size_t shared = SIZE_MAX; /* the group_reporting entry, once made */

	if (!s)
		return;
	free_group(s);
	s->w = calloc(n ? n : 1, sizeof(*s->w));
	s->e = calloc(n ? n : 1, sizeof(*s->e));
	if (!s->w || !s->e)
		goto nomem;
	s->n = n;
	for (size_t i = 0; i < n; i++) {
		const struct job_opts *o = &w[i].job->o;
		struct iv_worker *iw = &s->w[i];
		struct iv_entry *e;

		iw->w = &w[i];
		if (o->group_reporting && shared != SIZE_MAX) {
			iw->entry = shared;
		} else {
			iw->entry = s->n_e++;
			s->e[iw->entry].job = w[i].job;
			s->e[iw->entry].job_id = w[i].job_id;
			if (o->group_reporting)
				shared = iw->entry;
		}
		e = &s->e[iw->entry];
		e->nr_jobs++;
		for (int d = 0; d < DDIR_COUNT; d++) {
			if (!monitor_job_does(o, d))
				continue;
			iw->clat[d] = calloc(1, sizeof(struct hist));
			if (!e->clat[d])
				e->clat[d] = calloc(1, sizeof(struct hist));
			if (!iw->clat[d] || !e->clat[d])
				goto nomem;
		}
	}
	s->last = now;
	if (s->next_due <= now)
		s->next_due = now + s->interval_ns - (now - s->run_start) % s->interval_ns;
	return;
nomem:
	log_err("--status-interval: out of memory; no interval lines for this group");
	free_group(s);
}

/* Move every worker's difference since the previous line into its entry. */
static void collect(struct status_iv *s)
{
	for (size_t i = 0; i < s->n_e; i++) {
		struct iv_entry *e = &s->e[i];

		memset(e->bytes, 0, sizeof(e->bytes));
		memset(e->ios, 0, sizeof(e->ios));
		memset(e->lat_n, 0, sizeof(e->lat_n));
		memset(e->lat_sum, 0, sizeof(e->lat_sum));
		for (int d = 0; d < DDIR_COUNT; d++)
			if (e->clat[d])
				hist_init(e->clat[d]);
	}
	for (size_t i = 0; i < s->n; i++) {
		struct iv_worker *iw = &s->w[i];
		struct iv_entry *e = &s->e[iw->entry];
		const struct job_stats *st = iw->w->st;

		if (!iw->w->started)
			continue;
		for (int d = 0; d < DDIR_COUNT; d++) {
			uint64_t b = atomic_load_explicit(&st->live_bytes[d], memory_order_relaxed);
			uint64_t n = atomic_load_explicit(&st->live_ios[d], memory_order_relaxed);
			const struct hist *h = &st->dir[d].clat.h;
			struct hist *prev = iw->clat[d], *acc = e->clat[d];
			uint64_t ln;
			double ls;

			e->bytes[d] += b - iw->bytes[d];
			e->ios[d] += n - iw->ios[d];
			iw->bytes[d] = b;
			iw->ios[d] = n;
			if (!prev)
				continue;
			/* Bucket by bucket: the live histogram keeps changing under us. */
			for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
				uint64_t v = h->buckets[k];

				if (v != prev->buckets[k]) {
					acc->buckets[k] += v - prev->buckets[k];
					acc->count += v - prev->buckets[k];
					prev->buckets[k] = v;
				}
			}
			monitor_hist_sum(&st->dir[d].lat.h, &ln, &ls);
			e->lat_n[d] += ln - iw->lat_n[d];
			e->lat_sum[d] += ls - iw->lat_sum[d];
			iw->lat_n[d] = ln;
			iw->lat_sum[d] = ls;
		}
	}
}

static void jadd(json_object *o, const char *k, json_object *v)
{
	if (json_object_object_add(o, k, v))
		json_object_put(v);
}

static json_object *jdbl(double v)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%f", v);
	return json_object_new_double_s(v, buf);
}

static json_object *dir_obj(const struct iv_entry *e, int d, double secs)
{
	json_object *o = json_object_new_object(), *clat, *lat, *pct;
	struct report_entry re = { .job = e->job };
	const struct hist *h = e->clat[d];
	const double *p;
	uint32_t np = report_percentiles(&re, &p);
	uint64_t bw = secs > 0 ? (uint64_t)((double)e->bytes[d] / secs) : 0;
	uint64_t hn = 0;
	double hs = 0;

	if (!o)
		return NULL;
	jadd(o, "io_bytes", json_object_new_int64((int64_t)e->bytes[d]));
	jadd(o, "total_ios", json_object_new_int64((int64_t)e->ios[d]));
	jadd(o, "iops", jdbl(secs > 0 ? (double)e->ios[d] / secs : 0.0));
	jadd(o, "bw_bytes", json_object_new_int64((int64_t)bw));
	jadd(o, "bw", json_object_new_int64((int64_t)(bw / 1024)));
	clat = json_object_new_object();
	if (clat) {
		monitor_hist_sum(h, &hn, &hs);
		jadd(clat, "N", json_object_new_int64((int64_t)hn));
		jadd(clat, "mean", jdbl(hn ? hs / (double)hn : 0.0));
		pct = json_object_new_object();
		for (uint32_t i = 0; pct && hn && i < np; i++) {
			char key[32];

			snprintf(key, sizeof(key), "%f", p[i]);
			jadd(pct, key, json_object_new_int64((int64_t)hist_percentile(h, p[i])));
		}
		if (pct)
			jadd(clat, "percentile", pct);
		jadd(o, "clat_ns", clat);
	}
	lat = json_object_new_object();
	if (lat) {
		jadd(lat, "N", json_object_new_int64((int64_t)e->lat_n[d]));
		jadd(lat, "mean", jdbl(e->lat_n[d] ? e->lat_sum[d] / (double)e->lat_n[d] : 0.0));
		jadd(o, "lat_ns", lat);
	}
	return o;
}

static void emit(struct status_iv *s, uint64_t now, bool group_end)
{
	double secs = (double)(now - s->last) / 1e9;
	json_object *line = json_object_new_object(), *jobs = json_object_new_array();
	struct timeval tv;

	if (!line || !jobs) {
		json_object_put(line);
		json_object_put(jobs);
		return;
	}
	collect(s);
	gettimeofday(&tv, NULL);
	jadd(line, "type", json_object_new_string("interval"));
	jadd(line, "seq", json_object_new_int64((int64_t)s->seq++));
	jadd(line, "time_ms", json_object_new_int64((int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000));
	jadd(line, "elapsed_ms", json_object_new_int64((int64_t)((now - s->run_start) / 1000000)));
	jadd(line, "interval_ms", json_object_new_int64((int64_t)((now - s->last) / 1000000)));
	jadd(line, "group_end", json_object_new_boolean(group_end));
	for (size_t i = 0; i < s->n_e; i++) {
		const struct iv_entry *e = &s->e[i];
		json_object *j = json_object_new_object();

		if (!j)
			continue;
		jadd(j, "jobname", json_object_new_string(e->job->o.name));
		jadd(j, "groupid", json_object_new_int64(e->job->groupid));
		jadd(j, "job_id", json_object_new_int64(e->job_id));
		jadd(j, "nr_jobs", json_object_new_int64(e->nr_jobs));
		for (int d = 0; d < DDIR_COUNT; d++)
			if (e->clat[d])
				jadd(j, ddir_name[d], dir_obj(e, d, secs));
		if (json_object_array_add(jobs, j))
			json_object_put(j);
	}
	jadd(line, "jobs", jobs);
	fprintf(s->out, "%s\n", json_object_to_json_string_ext(line, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE));
	fflush(s->out);
	json_object_put(line);
	s->last = now;
}

void status_iv_tick(struct status_iv *s, uint64_t now)
{
	if (!s || !s->n || now < s->next_due)
		return;
	emit(s, now, false);
	/* Stay on the run's grid, skipping intervals the sampler slept through. */
	s->next_due += s->interval_ns * ((now - s->next_due) / s->interval_ns + 1);
}

void status_iv_group_end(struct status_iv *s, uint64_t now)
{
	if (!s || !s->n)
		return;
	emit(s, now, true);
	free_group(s);
}

void status_iv_close(struct status_iv *s)
{
	if (!s)
		return;
	free_group(s);
	if (s->own && fclose(s->out))
		log_err("--status-file: writing it failed: %s", strerror(errno));
	free(s);
}
