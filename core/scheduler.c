/*
 * The scheduler: groups in order, one thread per job instance, a start
 * barrier per group, the 500 ms sampler, and graceful stop on signals.
 */
#define _GNU_SOURCE /* pthread_setaffinity_np */
#include "scheduler.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "engine.h"
#include "files.h"
#include "iolog.h"
#include "log.h"
#include "monitor.h"
#include "worker.h"

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
	stop_signal = sig;
	atomic_store(&worker_stop_requested, 1);
}

void scheduler_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int scheduler_stop_signal(void)
{
	return stop_signal;
}

/*
 * The group's start line: workers check in after setup and wait for go;
 * the main thread waits until every started thread has checked in, so a
 * thread that could not be created never leaves the others waiting.
 */
struct start_gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t arrived;
	bool go;
};

static void gate_arrive_and_wait(struct start_gate *g)
{
	pthread_mutex_lock(&g->lock);
	g->arrived++;
	pthread_cond_broadcast(&g->cond);
	while (!g->go)
		pthread_cond_wait(&g->cond, &g->lock);
	pthread_mutex_unlock(&g->lock);
}

static void gate_open_when(struct start_gate *g, size_t expected)
{
	pthread_mutex_lock(&g->lock);
	while (g->arrived < expected)
		pthread_cond_wait(&g->cond, &g->lock);
	g->go = true;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

struct thread_ctx {
	struct worker w;
	struct job_files jf;
	struct job_result *res;
	struct start_gate *gate;
	pthread_t tid;
	bool started;
	bool ready;     /* files resolved and laid out */
	struct iolog_ring *ring; /* per-I/O log ring (monitor.c), or NULL */
};

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
			       .tv_nsec = (long)(ns % 1000000000ull) };

	while (nanosleep(&ts, &ts) && errno == EINTR &&
	       !atomic_load(&worker_stop_requested))
		;
}

static void set_affinity(const struct job_opts *o)
{
	cpu_set_t set;
	int any = 0;

	if (!o->has_cpus)
		return;
	CPU_ZERO(&set);
	for (unsigned c = 0; c < CPU_SETSIZE && c < 1024; c++)
		if (o->cpus_allowed[c / 64] & (1ull << (c % 64))) {
			CPU_SET(c, &set);
			any = 1;
		}
	if (any && pthread_setaffinity_np(pthread_self(), sizeof(set), &set))
		log_warn("job '%s': cannot pin to cpus_allowed; running unpinned", o->name);
}

static void *worker_thread(void *arg)
{
	struct thread_ctx *t = arg;
	struct worker *w = &t->w;
	int rc = -1;

	set_affinity(&w->job->o);
	if (t->ready)
		rc = worker_setup(w);
	/* Everyone waits, even after a failed setup, so the group starts together. */
	gate_arrive_and_wait(t->gate);
	if (t->ready && !rc) {
		if (w->job->o.startdelay_ns)
			sleep_ns(w->job->o.startdelay_ns);
		iolog_tls = t->ring;
		worker_run(w);
	}
	atomic_store_explicit(&w->st->live_done, 1, memory_order_release);
	worker_teardown(w);
	if (w->error && !t->res->error) {
		t->res->error = w->error;
		snprintf(t->res->errmsg, sizeof(t->res->errmsg), "%s", w->errmsg);
	}
	return NULL;
}

/* ---- sampler ------------------------------------------------------------ */

/*
 * Each worker is sampled every SAMPLE_INTERVAL_NS from the moment its
 * measured phase began, so samples are whole intervals even when workers
 * start at different times (ramp_time, startdelay); a sample's rate uses
 * the time that really passed since the previous one.
 */
struct sampler {
	struct monitor *mon;
	struct thread_ctx *ctx;
	size_t n;
	uint64_t (*prev_bytes)[DDIR_COUNT];
	uint64_t (*prev_ios)[DDIR_COUNT];
	uint64_t *prev_t;  /* 0: worker not measuring yet */
	pthread_t tid;
	atomic_int stop;
};

static bool job_does(const struct job_opts *o, int d)
{
	return d == DDIR_READ ? rw_reads(o->rw) : d == DDIR_WRITE ? rw_writes(o->rw) : rw_trims(o->rw);
}

/* Take the samples that are due; return when the next one is. */
static uint64_t sampler_tick(struct sampler *s, uint64_t now)
{
	uint64_t next_due = now + SAMPLE_INTERVAL_NS;

	for (size_t i = 0; i < s->n; i++) {
		struct job_stats *st = s->ctx[i].w.st;
		const struct job_opts *o = &s->ctx[i].w.job->o;
		uint64_t bw[DDIR_COUNT], iops[DDIR_COUNT];
		double secs;

		if (!s->ctx[i].started || !atomic_load_explicit(&st->live_measuring, memory_order_acquire) ||
		    atomic_load_explicit(&st->live_done, memory_order_acquire))
			continue;
		if (!s->prev_t[i])
			s->prev_t[i] = atomic_load_explicit(&st->live_measure_start, memory_order_relaxed);
		if (now < s->prev_t[i] + SAMPLE_INTERVAL_NS) {
			if (s->prev_t[i] + SAMPLE_INTERVAL_NS < next_due)
				next_due = s->prev_t[i] + SAMPLE_INTERVAL_NS;
			continue;
		}
		secs = (double)(now - s->prev_t[i]) / 1e9;
		for (int d = 0; d < DDIR_COUNT; d++) {
			uint64_t b = atomic_load_explicit(&st->live_bytes[d], memory_order_relaxed);
			uint64_t n = atomic_load_explicit(&st->live_ios[d], memory_order_relaxed);
			bw[d] = iops[d] = 0;
			if (job_does(o, d)) {
				bw[d] = (uint64_t)((double)(b - s->prev_bytes[i][d]) / secs);
				iops[d] = (uint64_t)((double)(n - s->prev_ios[i][d]) / secs + 0.5);
				runstat_add(&st->dir[d].bw_samples, bw[d]);
				runstat_add(&st->dir[d].iops_samples, iops[d]);
			}
			s->prev_bytes[i][d] = b;
			s->prev_ios[i][d] = n;
		}
		monitor_sample(s->mon, i, now, bw, iops); /* the HTML report's time series */
		/* Stay on the worker's own 500 ms grid. */
		s->prev_t[i] += SAMPLE_INTERVAL_NS * ((now - s->prev_t[i]) / SAMPLE_INTERVAL_NS);
		if (s->prev_t[i] + SAMPLE_INTERVAL_NS < next_due)
			next_due = s->prev_t[i] + SAMPLE_INTERVAL_NS;
	}
	return next_due;
}

static void *sampler_thread(void *arg)
{
	struct sampler *s = arg;
	uint64_t next = clock_now_ns();

	while (!atomic_load(&s->stop)) {
		uint64_t now = clock_now_ns();
		monitor_tick(s->mon, now); /* logs, interval lines, progress: every nap */
		if (now < next) {
			uint64_t wait = next - now;
			/* Short naps: the group may end (and stop us) any time. */
			sleep_ns(wait > 20000000ull ? 20000000ull : wait);
			continue;
		}
		next = sampler_tick(s, now);
	}
	return NULL;
}

/* ---- groups ------------------------------------------------------------- */

static size_t count_instances(const struct job_list *jobs)
{
	size_t n = 0;

	for (uint32_t i = 0; i < jobs->n; i++)
		n += jobs->jobs[i].o.numjobs ? jobs->jobs[i].o.numjobs : 1;
	return n;
}

/* Resolve and lay out the files of one instance (main thread). */
static void prepare_instance(struct thread_ctx *t)
{
	const struct job *j = t->w.job;
	bool diskless = j->engine->caps & IORIG_CAP_DISKLESS;
	char err[512];
	int rc;

	rc = job_files_resolve(j, t->w.instance, diskless, &t->jf, err, sizeof(err));
	if (!rc && !diskless)
		rc = job_files_layout(j, &t->jf, err, sizeof(err));
	if (rc) {
		t->res->error = -rc;
		t->res->setup_error = true;
		snprintf(t->res->errmsg, sizeof(t->res->errmsg), "%s", err);
		return;
	}
	t->w.jf = &t->jf;
	t->ready = true;
}

static int run_group(struct monitor *mon, struct thread_ctx *ctx, size_t n)
{
	struct start_gate gate = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false };
	struct sampler s = { .mon = mon, .ctx = ctx, .n = n };
	struct monitor_worker *mw;
	bool sampler_on = false;
	size_t started = 0;

	for (size_t i = 0; i < n && !atomic_load(&worker_stop_requested); i++)
		prepare_instance(&ctx[i]);
	if (atomic_load(&worker_stop_requested))
		return 0;

	s.prev_bytes = calloc(n, sizeof(*s.prev_bytes));
	s.prev_ios = calloc(n, sizeof(*s.prev_ios));
	s.prev_t = calloc(n, sizeof(*s.prev_t));
	mw = calloc(n, sizeof(*mw));
	if (!s.prev_bytes || !s.prev_ios || !s.prev_t || !mw) {
		free(s.prev_bytes);
		free(s.prev_ios);
		free(s.prev_t);
		free(mw);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		mw[i] = (struct monitor_worker){ .job = ctx[i].w.job, .job_id = ctx[i].w.job_id,
						 .instance = ctx[i].w.instance, .st = ctx[i].res->st,
						 .jf = ctx[i].ready ? &ctx[i].jf : NULL };
	monitor_group_begin(mon, mw, n, clock_now_ns());
	for (size_t i = 0; i < n; i++) {
		if (mw[i].error && ctx[i].ready) { /* its logs cannot be written */
			ctx[i].res->error = -mw[i].error;
			ctx[i].res->setup_error = true;
			snprintf(ctx[i].res->errmsg, sizeof(ctx[i].res->errmsg), "%s", mw[i].errmsg);
			ctx[i].ready = false;
		}
		ctx[i].ring = mw[i].ring;
		ctx[i].gate = &gate;
		if (pthread_create(&ctx[i].tid, NULL, worker_thread, &ctx[i]) == 0) {
			ctx[i].started = true;
			started++;
		} else {
			ctx[i].res->error = EAGAIN;
			snprintf(ctx[i].res->errmsg, sizeof(ctx[i].res->errmsg),
				 "job '%s': cannot start a thread; lower numjobs", ctx[i].w.job->o.name);
		}
	}
	for (size_t i = 0; i < n; i++)
		mw[i].started = ctx[i].started;
	gate_open_when(&gate, started);
	sampler_on = pthread_create(&s.tid, NULL, sampler_thread, &s) == 0;
	for (size_t i = 0; i < n; i++)
		if (ctx[i].started)
			pthread_join(ctx[i].tid, NULL);
	if (sampler_on) {
		atomic_store(&s.stop, 1);
		pthread_join(s.tid, NULL);
	}
	monitor_group_end(mon, clock_now_ns());
	free(mw);
	pthread_mutex_destroy(&gate.lock);
	pthread_cond_destroy(&gate.cond);
	for (size_t i = 0; i < n; i++) {
		if (ctx[i].ready && ctx[i].w.job->o.unlink)
			job_files_unlink(&ctx[i].jf);
		job_files_free(&ctx[i].jf);
	}
	free(s.prev_bytes);
	free(s.prev_ios);
	free(s.prev_t);
	return 0;
}

int scheduler_run(const struct job_list *jobs, struct monitor *mon, struct run_result *out)
{
	size_t total = count_instances(jobs), k = 0;
	struct thread_ctx *ctx;
	struct timeval tv;
	uint64_t t0 = clock_now_ns();
	uint32_t id = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	gettimeofday(&tv, NULL);
	out->start_unix_ms = (int64_t)tv.tv_sec * 1000 + tv.tv_usec / 1000;
	out->res = calloc(total, sizeof(*out->res));
	ctx = calloc(total, sizeof(*ctx));
	if (!out->res || !ctx) {
		free(ctx);
		return -ENOMEM;
	}
	for (uint32_t j = 0; j < jobs->n; j++) {
		const struct job *job = &jobs->jobs[j];
		uint32_t nj = job->o.numjobs ? job->o.numjobs : 1;

		if (job->o.iodepth > 1 && !(job->engine->caps & IORIG_CAP_ASYNC))
			log_info("note: job '%s': engine '%s' is synchronous; iodepth=%u runs at depth 1",
				 job->o.name, job->engine->name, job->o.iodepth);
		for (uint32_t i = 0; i < nj; i++, k++) {
			struct job_result *r = &out->res[k];
			r->job = job;
			r->instance = i;
			r->job_id = id++;
			r->st = malloc(sizeof(*r->st));
			if (!r->st) {
				rc = -ENOMEM;
				goto done;
			}
			job_stats_init(r->st);
			ctx[k].res = r;
			ctx[k].w.job = job;
			ctx[k].w.instance = i;
			ctx[k].w.job_id = r->job_id;
			ctx[k].w.st = r->st;
		}
	}
	out->n = total;
	rc = monitor_run_begin(mon, jobs, t0);

	/* Groups are runs of consecutive jobs with the same groupid. */
	for (size_t g = 0; g < total && !rc;) {
		size_t e = g;
		while (e < total && ctx[e].w.job->groupid == ctx[g].w.job->groupid)
			e++;
		if (atomic_load(&worker_stop_requested))
			break;
		rc = run_group(mon, &ctx[g], e - g);
		g = e;
	}
done:
	monitor_run_end(mon, clock_now_ns());
	out->interrupted = stop_signal != 0;
	out->elapsed_ns = clock_now_ns() - t0;
	free(ctx);
	return rc;
}

void run_result_free(struct run_result *r)
{
	for (size_t i = 0; i < r->n; i++)
		free(r->res[i].st);
	free(r->res);
	memset(r, 0, sizeof(*r));
}
