/*
 * The report model: folds a run's per-instance results into what the
 * writers print.  An instance of a job without group_reporting is an entry
 * of its own; all instances of group_reporting jobs in one group make one
 * entry, merged exactly (histogram buckets and Welford states summed).
 *
 * One deliberate exception, as fio does: in a merged entry the bandwidth
 * and IOPS samples describe the group's aggregate, so their min, max, mean
 * and variance are the sums of the instances' (a mean of per-job samples
 * would make "bw avg" a per-job figure while the line above it is the
 * group's).  Groups summarise every instance, whatever group_reporting says.
 */
#include "report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "monitor.h"
#include "report_fmt.h"

static struct job_stats *stats_alloc(void)
{
	struct job_stats *s = aligned_alloc(_Alignof(struct job_stats), sizeof(*s));

	if (!s)
		return NULL;
	job_stats_init(s);
	s->nr_jobs = 0; /* each merge adds the instances it brings */
	return s;
}

static struct report_entry *entry_for(struct report_model *m, const struct job_result *r)
{
	struct report_entry *e;

	for (size_t i = 0; i < m->n_entries; i++)
		if (report_entry_has(&m->entries[i], r))
			return &m->entries[i];
	e = &m->entries[m->n_entries];
	e->st = stats_alloc();
	if (!e->st)
		return NULL;
	e->job = r->job;
	e->groupid = r->job->groupid;
	e->job_id = r->job_id;
	m->n_entries++;
	return e;
}

/* Aggregate of the instances' sample runstats: sums, variances added. */
static void sum_samples(struct runstat *dst, const struct report_model *m,
			const struct report_entry *e, int ddir, int iops)
{
	struct runstat acc = { .n = 0 };
	double var = 0.0;

	for (size_t i = 0; i < m->run->n; i++) {
		const struct job_result *r = &m->run->res[i];
		const struct runstat *s;
		double sd;

		if (!r->st || !report_entry_has(e, r))
			continue;
		s = iops ? &r->st->dir[ddir].iops_samples : &r->st->dir[ddir].bw_samples;
		if (!s->n)
			continue;
		sd = runstat_stdev(s);
		acc.n += s->n;
		acc.min += s->min;
		acc.max += s->max;
		acc.mean += s->mean;
		var += sd * sd;
	}
	if (!acc.n)
		return;
	acc.m2 = var * (double)(acc.n - 1);
	*dst = acc;
}

static struct report_group *group_for(struct report_model *m, uint32_t groupid)
{
	struct report_group *g;

	for (size_t i = 0; i < m->n_groups; i++)
		if (m->groups[i].groupid == groupid)
			return &m->groups[i];
	g = &m->groups[m->n_groups++];
	memset(g, 0, sizeof(*g));
	g->groupid = groupid;
	for (int d = 0; d < DDIR_COUNT; d++) {
		g->min_bw[d] = UINT64_MAX;
		g->min_run_ns[d] = UINT64_MAX;
	}
	return g;
}

static void group_add(struct report_group *g, const struct job_stats *st)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		uint64_t bw, rt;

		/* A job that did no I/O in a direction is not its slowest. */
		if (!st->dir[d].ios)
			continue;
		bw = report_dir_bw(st, d);
		rt = report_dir_runtime_ns(st, d);
		g->io_bytes[d] += st->dir[d].bytes;
		if (bw < g->min_bw[d])
			g->min_bw[d] = bw;
		if (bw > g->max_bw[d])
			g->max_bw[d] = bw;
		if (rt < g->min_run_ns[d])
			g->min_run_ns[d] = rt;
		if (rt > g->max_run_ns[d])
			g->max_run_ns[d] = rt;
	}
}

static void group_finish(struct report_group *g)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		if (g->min_bw[d] == UINT64_MAX)
			g->min_bw[d] = 0;
		if (g->min_run_ns[d] == UINT64_MAX)
			g->min_run_ns[d] = 0;
		g->agg_bw[d] = g->max_run_ns[d] ?
			(uint64_t)((double)g->io_bytes[d] * 1e9 / (double)g->max_run_ns[d]) : 0;
	}
}

static int cmp_group(const void *a, const void *b)
{
	const struct report_group *x = a, *y = b;

	return (x->groupid > y->groupid) - (x->groupid < y->groupid);
}

int report_model_build(const struct run_result *r, const struct monitor *mon,
		       struct report_model *m)
{
	size_t cap = r->n ? r->n : 1;

	memset(m, 0, sizeof(*m));
	m->run = r;
	m->monitor = mon;
	m->disks = mon ? monitor_disks(mon) : NULL;
	m->entries = calloc(cap, sizeof(*m->entries));
	m->groups = calloc(cap, sizeof(*m->groups));
	if (!m->entries || !m->groups)
		goto nomem;

	for (size_t i = 0; i < r->n; i++) {
		const struct job_result *res = &r->res[i];
		struct report_entry *e = entry_for(m, res);
		struct report_group *g;

		if (!e)
			goto nomem;
		g = group_for(m, res->job->groupid);
		if (res->st) {
			job_stats_merge(e->st, res->st);
			group_add(g, res->st);
		} else {
			e->st->nr_jobs++; /* failed before it had stats: still a job */
		}
		if (!e->error && res->error) {
			e->error = res->error;
			e->errmsg = res->errmsg;
		}
	}

	for (size_t i = 0; i < m->n_entries; i++) {
		struct report_entry *e = &m->entries[i];

		if (e->st->nr_jobs < 2)
			continue;
		for (int d = 0; d < DDIR_COUNT; d++) {
			sum_samples(&e->st->dir[d].bw_samples, m, e, d, 0);
			sum_samples(&e->st->dir[d].iops_samples, m, e, d, 1);
		}
	}
	for (size_t i = 0; i < m->n_groups; i++)
		group_finish(&m->groups[i]);
	qsort(m->groups, m->n_groups, sizeof(*m->groups), cmp_group);
	return 0;

nomem:
	report_model_free(m);
	return -ENOMEM;
}

void report_model_free(struct report_model *m)
{
	if (m->entries)
		for (size_t i = 0; i < m->n_entries; i++)
			free(m->entries[i].st);
	free(m->entries);
	free(m->groups);
	memset(m, 0, sizeof(*m));
}
