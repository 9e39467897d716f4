/*
 * The run monitor (monitor.h): fans the scheduler's run, group and tick
 * events out to disk stats, logs, interval lines and the progress line,
 * and keeps the per-job time series for the HTML report.
 */
#include "monitor.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iolog.h"
#include "log.h"
#include "progress.h"
#include "status_interval.h"

/*
 * What one monitor holds (monitor.h).  Fields up to prog are the main
 * thread's between runs; w, n and logs are set by monitor_group_begin and
 * read by the sampler thread until monitor_group_end.
 */
struct monitor {
	struct monitor_opts opts;
	uint64_t run_start;
	struct disk_set disks;
	struct series *series;   /* by job_id */
	size_t n_series;
	struct status_iv *siv;
	FILE *status_out;        /* where interval lines go until a run takes it: stdout,
				  * the --status-file (ours to close), or NULL once taken */
	struct progress *prog;

	struct monitor_worker *w; /* the running group's, owned by the scheduler */
	size_t n;
	struct iolog **logs;
};

int monitor_create(struct monitor **out, const struct monitor_opts *o)
{
	struct monitor *mon = calloc(1, sizeof(*mon));

	*out = NULL;
	if (!mon) {
		log_err("out of memory");
		return -ENOMEM;
	}
	mon->opts = *o;
	mon->status_out = stdout;
	if (o->status_interval_ns && o->status_file && strcmp(o->status_file, "-")) {
		mon->status_out = fopen(o->status_file, "w");
		if (!mon->status_out) {
			int rc = -errno;

			log_err("--status-file: cannot create %s: %s", o->status_file, strerror(errno));
			free(mon);
			return rc;
		}
	}
	*out = mon;
	return 0;
}

bool monitor_job_does(const struct job_opts *o, int d)
{
	return d == DDIR_READ ? rw_reads(o->rw) : d == DDIR_WRITE ? rw_writes(o->rw) : rw_trims(o->rw);
}

static void free_results(struct monitor *mon)
{
	for (size_t i = 0; i < mon->n_series; i++)
		free(mon->series[i].p);
	free(mon->series);
	mon->series = NULL;
	mon->n_series = 0;
	diskstats_free(&mon->disks);
}

void monitor_destroy(struct monitor *mon)
{
	if (!mon)
		return;
	/* What a run not ended left open (monitor_run_end closes and NULLs them). */
	status_iv_close(mon->siv);
	progress_close(mon->prog);
	free_results(mon);
	/* The status file when no run took it over (nothing was written to it). */
	if (mon->status_out && mon->status_out != stdout)
		fclose(mon->status_out);
	free(mon);
}

int monitor_run_begin(struct monitor *mon, const struct job_list *jobs, uint64_t now)
{
	size_t total = 0;
	int rc;

	free_results(mon);
	mon->run_start = now;
	for (uint32_t j = 0; j < jobs->n; j++)
		total += jobs->jobs[j].o.numjobs ? jobs->jobs[j].o.numjobs : 1;
	mon->series = calloc(total ? total : 1, sizeof(*mon->series));
	if (!mon->series)
		return -ENOMEM;
	mon->n_series = total;
	rc = diskstats_begin(&mon->disks, jobs, now);
	if (rc)
		return rc;
	if (mon->opts.status_interval_ns) {
		rc = status_iv_open(&mon->siv, mon->status_out ? mon->status_out : stdout,
				    mon->opts.status_interval_ns, now);
		if (rc)
			return rc;
		mon->status_out = NULL; /* the interval writer closes it */
	}
	return progress_open(&mon->prog, mon->opts.eta, jobs, now);
}

void monitor_run_end(struct monitor *mon, uint64_t now)
{
	diskstats_end(&mon->disks, now);
	status_iv_close(mon->siv);
	mon->siv = NULL;
	progress_close(mon->prog);
	mon->prog = NULL;
}

void monitor_group_begin(struct monitor *mon, struct monitor_worker *w, size_t n,
			 uint64_t now)
{
	mon->w = w;
	mon->n = n;
	mon->logs = calloc(n ? n : 1, sizeof(*mon->logs));
	for (size_t i = 0; i < n; i++) {
		w[i].ring = NULL;
		w[i].error = 0;
		if (!mon->logs) {
			w[i].error = -ENOMEM;
			snprintf(w[i].errmsg, sizeof(w[i].errmsg), "job '%s': out of memory",
				 w[i].job->o.name);
		} else if (w[i].jf) {
			w[i].error = iolog_open(&mon->logs[i], &w[i], w[i].errmsg, sizeof(w[i].errmsg));
		}
	}
	status_iv_group_begin(mon->siv, w, n, now);
	progress_group_begin(mon->prog, w, n, now);
}

void monitor_group_end(struct monitor *mon, uint64_t now)
{
	for (size_t i = 0; mon->logs && i < mon->n; i++)
		iolog_close(mon->logs[i], &mon->w[i]);
	free(mon->logs);
	mon->logs = NULL;
	status_iv_group_end(mon->siv, now);
	progress_group_end(mon->prog);
	mon->w = NULL;
	mon->n = 0;
}

void monitor_tick(struct monitor *mon, uint64_t now)
{
	for (size_t i = 0; mon->logs && i < mon->n; i++)
		if (mon->w[i].started)
			iolog_tick(mon->logs[i], &mon->w[i], now);
	status_iv_tick(mon->siv, now);
	progress_tick(mon->prog, now);
}

void monitor_sample(struct monitor *mon, size_t i, uint64_t t, const uint64_t bw[DDIR_COUNT],
		    const uint64_t iops[DDIR_COUNT])
{
	struct series *s;
	struct series_point *pt;

	if (i >= mon->n || mon->w[i].job_id >= mon->n_series)
		return;
	s = &mon->series[mon->w[i].job_id];
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 64;
		struct series_point *p = realloc(s->p, cap * sizeof(*p));

		if (!p)
			return; /* the chart misses a point; the run goes on */
		s->p = p;
		s->cap = cap;
	}
	pt = &s->p[s->n++];
	pt->t_ms = t > mon->run_start ? (uint32_t)((t - mon->run_start) / 1000000) : 0;
	memcpy(pt->bw, bw, sizeof(pt->bw));
	memcpy(pt->iops, iops, sizeof(pt->iops));
}

const struct series *monitor_series(const struct monitor *mon, uint32_t job_id)
{
	return job_id < mon->n_series ? &mon->series[job_id] : NULL;
}

const struct disk_set *monitor_disks(const struct monitor *mon)
{
	return &mon->disks;
}

/* ---- histogram helpers ----------------------------------------------------- */

static double midpoint[HIST_NBUCKETS];
static pthread_once_t midpoint_once = PTHREAD_ONCE_INIT;

static void midpoint_init(void)
{
	for (unsigned k = 0; k < HIST_NBUCKETS; k++)
		midpoint[k] = ((double)hist_bucket_lo(k) + (double)hist_bucket_hi(k)) / 2.0;
}

void monitor_hist_sum(const struct hist *h, uint64_t *n, double *sum)
{
	uint64_t c = 0;
	double s = 0.0;

	pthread_once(&midpoint_once, midpoint_init);
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		uint64_t v = h->buckets[k];

		if (v) {
			c += v;
			s += (double)v * midpoint[k];
		}
	}
	*n = c;
	*sum = s;
}

void monitor_hist_delta(struct hist *out, const struct hist *cur, const struct hist *prev)
{
	out->count = 0;
	out->overflow = cur->overflow - prev->overflow;
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		out->buckets[k] = cur->buckets[k] - prev->buckets[k];
		out->count += out->buckets[k];
	}
}
