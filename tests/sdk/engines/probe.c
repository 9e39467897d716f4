/*
 * sdk_probe: a test engine built only from the public header, the way a
 * third party builds one.  It implements every op and declares an option
 * of every type, does real pread/pwrite I/O (queued and reaped when
 * iodepth > 1), and at cleanup writes what it received to the file its
 * `report` option names: the option values, the job info, and how often
 * the core called each op.  test_sdk.py runs jobs through it and reads the
 * report.  Per instance: `report` for instance 0, `report.N` for N > 0.
 * Built with PROBE_DISKLESS it declares IORIG_CAP_DISKLESS (the core then
 * lays out nothing and asks get_size); it still opens the path it is given.
 */
#define _GNU_SOURCE /* fallocate */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <iorig/engine.h>

struct probe_opts {
	int flag;           /* BOOL */
	int64_t count;      /* INT, ranged */
	int64_t offset_adj; /* INT, no range, negative default */
	uint64_t chunk;     /* SIZE */
	uint64_t delay;     /* DURATION */
	const char *report; /* STRING, no default */
	const char *label;  /* STRING with default */
	int mode;           /* ENUM */
	int64_t fail_at;    /* INT: fail the Nth I/O with EIO (0: never) */
	int64_t busy_every; /* INT: answer BUSY to every Nth queue() while I/O is in flight */
};

static const char *const probe_modes[] = { "alpha", "beta", "gamma", NULL };

static const struct iorig_option probe_options[] = {
	{ "flag", IORIG_OPT_BOOL, offsetof(struct probe_opts, flag), "0", 0, 0, NULL,
	  "a boolean" },
	{ "count", IORIG_OPT_INT, offsetof(struct probe_opts, count), "7", -100, 100, NULL,
	  "an integer in -100..100" },
	{ "offset_adj", IORIG_OPT_INT, offsetof(struct probe_opts, offset_adj), "-5", 0, 0,
	  NULL, "an integer without range" },
	{ "chunk", IORIG_OPT_SIZE, offsetof(struct probe_opts, chunk), "64k", 4096, 1 << 20,
	  NULL, "a size in 4k..1m" },
	{ "delay", IORIG_OPT_DURATION, offsetof(struct probe_opts, delay), "1ms", 0,
	  10000000000, NULL, "a duration up to 10s" },
	{ "report", IORIG_OPT_STRING, offsetof(struct probe_opts, report), NULL, 0, 0, NULL,
	  "file to write what the engine received to" },
	{ "label", IORIG_OPT_STRING, offsetof(struct probe_opts, label), "probe-default", 0, 0,
	  NULL, "a string with a default" },
	{ "mode", IORIG_OPT_ENUM, offsetof(struct probe_opts, mode), "beta", 0, 0, probe_modes,
	  "an enum" },
	{ "fail_at", IORIG_OPT_INT, offsetof(struct probe_opts, fail_at), "0", 0, 1000000000,
	  NULL, "fail the Nth I/O with EIO (0: never)" },
	{ "busy_every", IORIG_OPT_INT, offsetof(struct probe_opts, busy_every), "0", 0, 1000000,
	  NULL, "answer BUSY to every Nth queue() while I/O is in flight (0: never)" },
	IORIG_OPTION_END,
};

enum { C_INIT, C_GET_SIZE, C_OPEN, C_CLOSE, C_QREAD, C_QWRITE, C_QTRIM, C_COMMIT,
       C_REAP, C_REAPED, C_FSYNC, C_FDATASYNC, C_INVALIDATE, C_BUSY, C_N };
static const char *const call_names[C_N] = {
	"init", "get_size", "open_file", "close_file", "queue_read", "queue_write",
	"queue_trim", "commit", "reap", "reaped", "fsync", "fdatasync", "invalidate", "busy",
};

struct probe {
	struct probe_opts o;
	char *report, *label;            /* copies: the core's strings die at cleanup */
	struct iorig_job_info info;      /* copy of the 1.0 fields */
	const struct iorig_host *host;
	struct iorig_job_handle *handle;
	struct iorig_io **ring;          /* queued I/Os, host->alloc_aligned */
	unsigned size, head, count;
	uint64_t calls[C_N];
	uint64_t bytes[3];
	uint64_t nio;
	uint64_t queue_calls;            /* for busy_every */
	int misaligned, priv_bad;
	uint64_t t0;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static int probe_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct probe *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->o = *(const struct probe_opts *)opts;
	s->report = dup_or_null(s->o.report);
	s->label = dup_or_null(s->o.label);
	s->info = *job;
	s->host = job->host;
	s->handle = job->handle;
	s->t0 = job->host->now_ns();
	s->size = job->nr_ios;
	s->ring = job->host->alloc_aligned(64, s->size * sizeof(*s->ring));
	if (!s->ring || (s->o.report && !s->report)) {
		job->host->free_aligned(s->ring);
		free(s->report);
		free(s->label);
		free(s);
		return -ENOMEM;
	}
	/* io->priv is ours: mark each with its index, checked at completion. */
	for (unsigned i = 0; i < job->nr_ios; i++)
		if (job->ios[i]->priv)
			memcpy(job->ios[i]->priv, &i, sizeof(i));
		else
			s->priv_bad = 1;
	s->calls[C_INIT]++;
	job->host->log(job->handle, IORIG_LOG_DEBUG, "probe: init %s[%u], iodepth %u",
		       job->name, job->instance, job->iodepth);
	/* The name is core memory: keep a copy for the report. */
	s->info.name = (const char *)dup_or_null(job->name);
	*state = s;
	return 0;
}

static void write_report(struct probe *s)
{
	char path[4096];
	FILE *f;

	if (!s->report)
		return;
	if (s->info.instance)
		snprintf(path, sizeof(path), "%s.%u", s->report, s->info.instance);
	else
		snprintf(path, sizeof(path), "%s", s->report);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "opt.flag=%d\nopt.count=%lld\nopt.offset_adj=%lld\nopt.chunk=%llu\n"
		"opt.delay=%llu\nopt.report=%s\nopt.label=%s\nopt.mode=%s\nopt.fail_at=%lld\n",
		s->o.flag, (long long)s->o.count, (long long)s->o.offset_adj,
		(unsigned long long)s->o.chunk, (unsigned long long)s->o.delay, s->report,
		s->label ? s->label : "(null)", probe_modes[s->o.mode], (long long)s->o.fail_at);
	fprintf(f, "job.struct_size=%u\njob.name=%s\njob.instance=%u\njob.flags=%u\n"
		"job.iodepth=%u\njob.batch_submit=%u\njob.batch_complete_min=%u\n"
		"job.batch_complete_max=%u\njob.max_bs=%llu\njob.buf_align=%llu\n"
		"job.nr_files=%u\njob.nr_ios=%u\n",
		s->info.struct_size, s->info.name ? s->info.name : "", s->info.instance,
		s->info.flags, s->info.iodepth, s->info.iodepth_batch_submit,
		s->info.iodepth_batch_complete_min, s->info.iodepth_batch_complete_max,
		(unsigned long long)s->info.max_bs, (unsigned long long)s->info.buf_align,
		s->info.nr_files, s->info.nr_ios);
	fprintf(f, "host.struct_size=%u\nhost.abi=%u.%u\n", s->host->struct_size,
		s->host->abi_major, s->host->abi_minor);
	for (int i = 0; i < C_N; i++)
		fprintf(f, "calls.%s=%llu\n", call_names[i], (unsigned long long)s->calls[i]);
	fprintf(f, "calls.cleanup=1\nbytes.read=%llu\nbytes.write=%llu\nbytes.trim=%llu\n"
		"buf_misaligned=%d\npriv_bad=%d\nelapsed_ok=%d\n",
		(unsigned long long)s->bytes[0], (unsigned long long)s->bytes[1],
		(unsigned long long)s->bytes[2], s->misaligned, s->priv_bad,
		s->host->now_ns() >= s->t0);
	fclose(f);
}

static void probe_cleanup(void *state)
{
	struct probe *s = state;

	write_report(s);
	s->host->free_aligned(s->ring);
	free((char *)s->info.name);
	free(s->report);
	free(s->label);
	free(s);
}

static int probe_get_size(void *state, struct iorig_file *f, uint64_t *size)
{
	struct probe *s = state;
	struct stat st;

	s->calls[C_GET_SIZE]++;
	if (stat(f->path, &st))
		return -errno;
	*size = (uint64_t)st.st_size;
	return 0;
}

static int probe_open_file(void *state, struct iorig_file *f)
{
	struct probe *s = state;
	int fd = open(f->path, f->open_flags | O_CLOEXEC);

	s->calls[C_OPEN]++;
	if (fd < 0) {
		int err = errno;

		s->host->set_error(s->handle, err, "probe: cannot open %s: %s", f->path,
				   strerror(err));
		return -err;
	}
	f->fd = fd;
	f->engine_file = s; /* anything: the core must keep it */
	return 0;
}

static int probe_close_file(void *state, struct iorig_file *f)
{
	struct probe *s = state;

	s->calls[C_CLOSE]++;
	if (f->engine_file != s)
		s->priv_bad = 1;
	close(f->fd);
	f->fd = -1;
	f->engine_file = NULL;
	return 0;
}

static int64_t do_io(struct iorig_io *io)
{
	ssize_t n;

	if (io->ddir == IORIG_DDIR_TRIM)
		return fallocate(io->file->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				 (off_t)io->offset, (off_t)io->len) ? -errno : (int64_t)io->len;
	n = io->ddir == IORIG_DDIR_WRITE ? pwrite(io->file->fd, io->buf, io->len, (off_t)io->offset)
					 : pread(io->file->fd, io->buf, io->len, (off_t)io->offset);
	return n < 0 ? -errno : n;
}

static int probe_queue(void *state, struct iorig_io *io)
{
	struct probe *s = state;
	unsigned idx;

	if (s->size > 1 && (s->count == s->size ||
			    (s->o.busy_every && s->count &&
			     ++s->queue_calls % (uint64_t)s->o.busy_every == 0))) {
		s->calls[C_BUSY]++;
		return IORIG_Q_BUSY;
	}
	s->calls[io->ddir == IORIG_DDIR_READ ? C_QREAD : io->ddir == IORIG_DDIR_WRITE ? C_QWRITE
										: C_QTRIM]++;
	if ((uintptr_t)io->buf % s->info.buf_align)
		s->misaligned = 1;
	if (io->priv) {
		memcpy(&idx, io->priv, sizeof(idx));
		if (idx != io->index)
			s->priv_bad = 1;
	}
	if (s->o.fail_at && ++s->nio == (uint64_t)s->o.fail_at) {
		io->result = -EIO;
		s->host->set_error(s->handle, EIO, "probe: failing I/O #%llu at offset %llu as "
				   "asked (fail_at=%lld)", (unsigned long long)s->nio,
				   (unsigned long long)io->offset, (long long)s->o.fail_at);
	} else {
		io->result = do_io(io);
		if (io->result > 0)
			s->bytes[io->ddir % 3] += (uint64_t)io->result;
	}
	if (s->size <= 1)
		return IORIG_Q_COMPLETED;
	s->ring[(s->head + s->count++) % s->size] = io;
	return IORIG_Q_QUEUED;
}

static int probe_commit(void *state)
{
	((struct probe *)state)->calls[C_COMMIT]++;
	return 0;
}

static int probe_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		      struct iorig_io **done)
{
	struct probe *s = state;
	unsigned n = s->count < max ? s->count : max;

	(void)min, (void)timeout_ns; /* everything queued is already done */
	s->calls[C_REAP]++;
	for (unsigned i = 0; i < n; i++) {
		done[i] = s->ring[s->head];
		s->head = (s->head + 1) % s->size;
	}
	s->count -= n;
	s->calls[C_REAPED] += n;
	return (int)n;
}

static int probe_fsync(void *state, struct iorig_file *f, int datasync)
{
	struct probe *s = state;

	s->calls[datasync ? C_FDATASYNC : C_FSYNC]++;
	return (datasync ? fdatasync(f->fd) : fsync(f->fd)) ? -errno : 0;
}

static int probe_invalidate(void *state, struct iorig_file *f)
{
	struct probe *s = state;

	s->calls[C_INVALIDATE]++;
	return -posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
}

#ifdef PROBE_DISKLESS
#define PROBE_NAME "sdk_probe_diskless"
#define PROBE_CAPS IORIG_CAP_DISKLESS
#else
#define PROBE_NAME "sdk_probe"
#define PROBE_CAPS 0
#endif

static const struct iorig_engine probe_engine = {
	IORIG_ENGINE_HEADER,
	.name = PROBE_NAME,
	.version = "1.0-test",
	.description = "test engine: every op, every option type, reports what it got",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_TRIM | PROBE_CAPS,
	.options = probe_options,
	.options_size = sizeof(struct probe_opts),
	.io_priv_size = 32,
	.init = probe_init,
	.cleanup = probe_cleanup,
	.open_file = probe_open_file,
	.close_file = probe_close_file,
	.queue = probe_queue,
	.commit = probe_commit,
	.reap = probe_reap,
	.fsync = probe_fsync,
	.invalidate = probe_invalidate,
	.get_size = probe_get_size,
};

IORIG_ENGINE_DEFINE(probe_engine)
