/*
 * The live progress line (progress.h), drawn by the sampler thread from
 * the workers' published counters.
 */
#include "progress.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "monitor.h"
#include "report_fmt.h"

#define PROGRESS_EVERY_NS 1000000000ull

struct progress {
	FILE *out;
	const struct job_list *jobs;
	size_t total;            /* job instances in the run */
	char *state;             /* per job_id: 'P' before its group, '_' after */
	const struct monitor_worker *w;
	size_t n;
	uint64_t group_start;
	uint64_t prev_bytes[DDIR_COUNT], prev_ios[DDIR_COUNT];
	uint64_t last_t, next_due;
	size_t last_len;
};

int progress_open(struct progress **out, int eta_mode, const struct job_list *jobs,
		  uint64_t run_start)
{
	struct progress *p;

	*out = NULL;
	if (eta_mode == ETA_NEVER || (eta_mode == ETA_AUTO && !isatty(STDERR_FILENO)))
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	for (uint32_t j = 0; j < jobs->n; j++)
		p->total += jobs->jobs[j].o.numjobs ? jobs->jobs[j].o.numjobs : 1;
	p->state = malloc(p->total ? p->total : 1);
	if (!p->state) {
		free(p);
		return -ENOMEM;
	}
	memset(p->state, 'P', p->total);
	p->out = stderr;
	p->jobs = jobs;
	p->next_due = run_start + PROGRESS_EVERY_NS;
	*out = p;
	return 0;
}

void progress_group_begin(struct progress *p, const struct monitor_worker *w, size_t n,
			  uint64_t now)
{
	if (!p)
		return;
	p->w = w;
	p->n = n;
	p->group_start = now;
	p->last_t = now;
	memset(p->prev_bytes, 0, sizeof(p->prev_bytes));
	memset(p->prev_ios, 0, sizeof(p->prev_ios));
}

static void erase(struct progress *p)
{
	if (p->last_len) {
		fprintf(p->out, "\r%*s\r", (int)p->last_len, "");
		fflush(p->out);
		p->last_len = 0;
	}
}

void progress_group_end(struct progress *p)
{
	if (!p)
		return;
	/* Messages between groups (laying out files) get a clean line. */
	erase(p);
	for (size_t i = 0; i < p->n; i++)
		if (p->w[i].job_id < p->total)
			p->state[p->w[i].job_id] = p->w[i].jf && p->w[i].started ? '_' : 'X';
	p->w = NULL;
	p->n = 0;
}

static char run_letter(enum rw_mode m)
{
	static const char letters[] = "RWrwMmDd";
	static const enum rw_mode order[] = { RW_READ, RW_WRITE, RW_RANDREAD, RW_RANDWRITE,
					      RW_RW, RW_RANDRW, RW_TRIM, RW_RANDTRIM };

	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i] == m)
			return letters[i];
	return '?';
}

static char worker_letter(const struct monitor_worker *w)
{
	const struct job_stats *st = w->st;

	if (!w->jf)
		return 'X';
	if (!w->started)
		return 'P';
	if (atomic_load_explicit(&st->live_done, memory_order_acquire))
		return '_';
	if (!atomic_load_explicit(&st->live_measuring, memory_order_acquire))
		return w->job->o.ramp_time_ns ? '/' : 'I';
	return run_letter(w->job->o.rw);
}

/* Bytes a worker has to move, or 0 when only its runtime ends it. */
static uint64_t worker_target(const struct monitor_worker *w)
{
	const struct job_opts *o = &w->job->o;
	uint64_t sz = 0;

	if (o->time_based)
		return 0;
	if (o->io_size)
		sz = o->io_size;
	else
		for (uint32_t k = 0; w->jf && k < w->jf->n; k++)
			sz += w->jf->sizes[k];
	return sz * (o->loops ? o->loops : 1);
}

/* Fraction done and seconds left (UINT64_MAX: unknown) of a worker. */
static double worker_done(const struct monitor_worker *w, uint64_t now, uint64_t group_start,
			  uint64_t *left)
{
	const struct job_opts *o = &w->job->o;
	uint64_t target = worker_target(w), bytes = 0, el = now - group_start;
	double f = -1.0;

	*left = UINT64_MAX;
	if (atomic_load_explicit(&w->st->live_done, memory_order_acquire) || !w->jf) {
		*left = 0;
		return 1.0;
	}
	for (int d = 0; d < DDIR_COUNT; d++)
		bytes += atomic_load_explicit(&w->st->live_bytes[d], memory_order_relaxed);
	if (o->runtime_ns) {
		uint64_t span = o->startdelay_ns + o->ramp_time_ns + o->runtime_ns;

		f = el >= span ? 1.0 : (double)el / (double)span;
		*left = el >= span ? 0 : (span - el) / 1000000000ull;
	}
	if (target && bytes) {
		double bf = (double)bytes / (double)target;
		uint64_t bl;

		if (bf > 1.0)
			bf = 1.0;
		bl = (uint64_t)((double)el * (1.0 - bf) / bf / 1e9);
		if (bf > f)
			f = bf;
		if (bl < *left)
			*left = bl;
	}
	return f < 0 ? 0.0 : f;
}

/* "r(1),W(2)": the letters of every instance, run-length coded as fio. */
static void status_text(struct progress *p, char *buf, size_t len)
{
	size_t used = 0;
	char prev = 0;
	unsigned count = 0;

	buf[0] = '\0';
	for (size_t id = 0; id <= p->total; id++) {
		char c = 0;

		if (id < p->total) {
			c = p->state[id];
			for (size_t i = 0; i < p->n; i++)
				if (p->w[i].job_id == id)
					c = worker_letter(&p->w[i]);
		}
		if (c == prev) {
			count++;
			continue;
		}
		if (prev && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%c(%u)", used ? "," : "", prev,
						 count);
		prev = c;
		count = 1;
	}
}

static void rates_text(const uint64_t *v, const bool *does, bool bytes, char *buf, size_t len)
{
	static const char *const tag[DDIR_COUNT] = { "r", "w", "t" };
	size_t used = 0;

	buf[0] = '\0';
	for (int d = 0; d < DDIR_COUNT && used < len; d++) {
		char num[32];

		if (!does[d])
			continue;
		fmt_num(num, sizeof(num), v[d], 4, bytes, bytes ? "B/s" : "");
		used += (size_t)snprintf(buf + used, len - used, "%s%s=%s", used ? "," : "", tag[d], num);
	}
}

void progress_fmt_eta(char *buf, size_t len, uint64_t s)
{
	uint64_t d = s / 86400, h = s / 3600 % 24, m = s / 60 % 60, sec = s % 60;

	if (d)
		snprintf(buf, len, "%" PRIu64 "d:%02" PRIu64 "h:%02" PRIu64 "m:%02" PRIu64 "s", d, h, m, sec);
	else if (h)
		snprintf(buf, len, "%" PRIu64 "h:%02" PRIu64 "m:%02" PRIu64 "s", h, m, sec);
	else
		snprintf(buf, len, "%02" PRIu64 "m:%02" PRIu64 "s", m, sec);
}

/* Seconds the groups after the running one will take, where a runtime says. */
static uint64_t later_groups_s(const struct progress *p)
{
	uint32_t cur = p->w[0].job->groupid, g = UINT32_MAX;
	uint64_t sum = 0, span = 0;

	for (uint32_t j = 0; j < p->jobs->n; j++) {
		const struct job *job = &p->jobs->jobs[j];
		const struct job_opts *o = &job->o;
		uint64_t s = o->startdelay_ns + o->ramp_time_ns + o->runtime_ns;

		if (job->groupid <= cur)
			continue;
		if (job->groupid != g) {
			sum += span;
			span = 0;
			g = job->groupid;
		}
		if (o->runtime_ns && s > span)
			span = s;
	}
	return (sum + span) / 1000000000ull;
}

void progress_tick(struct progress *p, uint64_t now)
{
	uint64_t bytes[DDIR_COUNT] = { 0 }, ios[DDIR_COUNT] = { 0 };
	uint64_t rate_b[DDIR_COUNT], rate_i[DDIR_COUNT], left = 0, wl;
	bool does[DDIR_COUNT] = { false };
	unsigned running = 0, files = 0;
	char status[512], rb[128], ri[128], eta[48], pct[16], line[1024];
	double done = 0.0, secs;
	size_t len;

	if (!p || !p->n || now < p->next_due)
		return;
	p->next_due += PROGRESS_EVERY_NS * ((now - p->next_due) / PROGRESS_EVERY_NS + 1);
	secs = (double)(now - p->last_t) / 1e9;

	for (size_t id = 0; id < p->total; id++)
		done += p->state[id] == '_' || p->state[id] == 'X';
	for (size_t i = 0; i < p->n; i++) {
		const struct monitor_worker *w = &p->w[i];

		for (int d = 0; d < DDIR_COUNT; d++) {
			bytes[d] += atomic_load_explicit(&w->st->live_bytes[d], memory_order_relaxed);
			ios[d] += atomic_load_explicit(&w->st->live_ios[d], memory_order_relaxed);
		}
		if (!w->started || !w->jf)
			continue;
		done += worker_done(w, now, p->group_start, &wl);
		if (wl > left)
			left = wl;
		if (atomic_load_explicit(&w->st->live_done, memory_order_acquire))
			continue;
		running++;
		files += w->jf->n;
		for (int d = 0; d < DDIR_COUNT; d++)
			does[d] |= monitor_job_does(&w->job->o, d);
	}
	for (int d = 0; d < DDIR_COUNT; d++) {
		rate_b[d] = secs > 0 ? (uint64_t)((double)(bytes[d] - p->prev_bytes[d]) / secs) : 0;
		rate_i[d] = secs > 0 ? (uint64_t)((double)(ios[d] - p->prev_ios[d]) / secs + 0.5) : 0;
		p->prev_bytes[d] = bytes[d];
		p->prev_ios[d] = ios[d];
	}
	p->last_t = now;
	if (left != UINT64_MAX)
		left += later_groups_s(p);

	status_text(p, status, sizeof(status));
	rates_text(rate_b, does, true, rb, sizeof(rb));
	rates_text(rate_i, does, false, ri, sizeof(ri));
	if (left == UINT64_MAX)
		snprintf(eta, sizeof(eta), "--m:--s");
	else
		progress_fmt_eta(eta, sizeof(eta), left);
	snprintf(pct, sizeof(pct), "%.1f%%", p->total ? 100.0 * done / (double)p->total : 0.0);
	if (rb[0]) /* some job still moves data */
		len = (size_t)snprintf(line, sizeof(line),
				       "Jobs: %u (f=%u): [%s][%s][%s][%s IOPS][eta %s]",
				       running, files, status, pct, rb, ri, eta);
	else
		len = (size_t)snprintf(line, sizeof(line), "Jobs: %u (f=%u): [%s][%s][eta %s]",
				       running, files, status, pct, eta);
	if (len >= sizeof(line))
		len = sizeof(line) - 1;
	/* Redraw in place; spaces wipe what a longer previous line left. */
	fprintf(p->out, "\r%s%*s", line, p->last_len > len ? (int)(p->last_len - len) : 0, "");
	fflush(p->out);
	p->last_len = len;
}

void progress_close(struct progress *p)
{
	if (!p)
		return;
	erase(p);
	free(p->state);
	free(p);
}
