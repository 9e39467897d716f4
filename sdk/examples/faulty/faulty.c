/*
 * faulty: an iorig engine that makes storage slow or failing on purpose.
 *
 * It does plain pread/pwrite on the job's files (like psync) and, on the
 * I/Os you pick, adds latency (fixed, or uniform in a range) and injects
 * errors (every Nth I/O, or with a probability), with the errno you choose.
 * Use it to see how a workload's latency percentiles look on a slow disk,
 * or to rehearse a failing one:
 *
 *   jobs = ( { name = "slow-disk"; ioengine = "faulty"; rw = "randread";
 *              size = "64m"; latency = "2ms"; latency_max = "10ms"; } );
 *   jobs = ( { name = "bad-sector"; ioengine = "faulty"; rw = "write";
 *              size = "64m"; error_every = 1000; error_code = "EIO"; } );
 *
 * It is also the example of the iorig engine SDK: one file, built against
 * the installed header only, with
 *
 *   cc -O2 -shared -fPIC $(pkg-config --cflags iorig-engine) faulty.c -o faulty.so
 *
 * Read it top to bottom: options table, state, the ops in the order the
 * core calls them, and the descriptor at the end.  docs/engine-abi.md is
 * the contract it follows.
 */
#define _POSIX_C_SOURCE 200809L /* pread, pwrite, clock_nanosleep, O_CLOEXEC */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <iorig/engine.h> /* the only iorig header an engine includes */

/* ---- options ---------------------------------------------------------------
 * The core parses and range-checks what the user wrote and stores it in a
 * struct of ours before init(); we never parse text.  Each field's C type
 * follows from its option type (see the table in docs/engine-abi.md).
 */
struct faulty_opts {
	uint64_t latency;     /* DURATION: ns added to each I/O faults apply to */
	uint64_t latency_max; /* DURATION: > latency: uniform in [latency, latency_max] */
	int on;               /* ENUM: index into faulty_on[] */
	int64_t error_every;  /* INT: fail every Nth I/O; 0 never */
	int64_t error_ppm;    /* INT: fail with this probability per million */
	int error_code;       /* ENUM: index into faulty_errnames[] */
	int fail_fsync;       /* BOOL: fsync fails too */
	int64_t seed;         /* INT: random latency and error_ppm draws */
};

enum { ON_RW, ON_READ, ON_WRITE };
static const char *const faulty_on[] = { "rw", "read", "write", NULL };

/* Same order: the ENUM option stores an index into the names. */
static const char *const faulty_errnames[] = {
	"EIO", "ENOSPC", "EROFS", "ETIMEDOUT", "EINVAL", "ENOMEM", "EAGAIN", NULL,
};
static const int faulty_errnos[] = {
	EIO, ENOSPC, EROFS, ETIMEDOUT, EINVAL, ENOMEM, EAGAIN,
};

static const struct iorig_option faulty_options[] = {
	{ "latency", IORIG_OPT_DURATION, offsetof(struct faulty_opts, latency), "0",
	  0, 0, NULL, "latency added to every I/O faults apply to (e.g. 500us, 2ms)" },
	{ "latency_max", IORIG_OPT_DURATION, offsetof(struct faulty_opts, latency_max), "0",
	  0, 0, NULL, "if above latency: each I/O gets a uniform random latency up to this" },
	{ "on", IORIG_OPT_ENUM, offsetof(struct faulty_opts, on), "rw", 0, 0, faulty_on,
	  "which I/Os latency and errors apply to" },
	{ "error_every", IORIG_OPT_INT, offsetof(struct faulty_opts, error_every), "0",
	  0, INT64_MAX, NULL, "fail every Nth I/O faults apply to (0: never)" },
	{ "error_ppm", IORIG_OPT_INT, offsetof(struct faulty_opts, error_ppm), "0",
	  0, 1000000, NULL, "fail an I/O with this probability, per million (10000 = 1%)" },
	{ "error_code", IORIG_OPT_ENUM, offsetof(struct faulty_opts, error_code), "EIO",
	  0, 0, faulty_errnames, "errno of an injected error" },
	{ "fail_fsync", IORIG_OPT_BOOL, offsetof(struct faulty_opts, fail_fsync), "0",
	  0, 0, NULL, "every fsync/fdatasync fails with error_code" },
	{ "seed", IORIG_OPT_INT, offsetof(struct faulty_opts, seed), "1",
	  0, INT64_MAX, NULL, "seed of the random draws (the same faults on every run)" },
	IORIG_OPTION_END,
};

/* ---- state -----------------------------------------------------------------
 * One per job instance, from init() to cleanup().  Everything mutable lives
 * here: several instances run on different threads at the same time.
 */
struct faulty {
	struct faulty_opts o;
	int err;                         /* the errno to inject */
	const struct iorig_host *host;   /* for set_error/log */
	struct iorig_job_handle *handle; /* pass it back in host calls */
	uint64_t rng;
	uint64_t count;                  /* I/Os faults applied to so far */
};

/* xorshift64*: cheap, and reproducible from the seed. */
static uint64_t faulty_rand(struct faulty *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return s->rng * 0x2545f4914f6cdd1dull;
}

static int faulty_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	const struct faulty_opts *o = opts;
	struct faulty *s;

	if (o->latency_max && o->latency_max < o->latency) {
		job->host->set_error(job->handle, EINVAL,
				     "faulty: latency_max (%llu us) is below latency (%llu us): "
				     "raise latency_max, or leave it 0 for a fixed latency",
				     (unsigned long long)(o->latency_max / 1000),
				     (unsigned long long)(o->latency / 1000));
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->o = *o; /* no STRING options, so a plain copy owns everything */
	s->err = faulty_errnos[o->error_code];
	s->host = job->host;
	s->handle = job->handle;
	/* Each instance draws its own sequence; 0 would stick at 0. */
	s->rng = ((uint64_t)o->seed ^ ((uint64_t)job->instance + 1) * 0x9e3779b97f4a7c15ull) | 1;
	*state = s;
	return 0;
}

static void faulty_cleanup(void *state)
{
	free(state);
}

/* Called before open_file when the job gave no size: use the file's. */
static int faulty_get_size(void *state, struct iorig_file *f, uint64_t *size)
{
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	off_t end;

	(void)state;
	if (fd < 0)
		return -errno; /* -ENOENT: the core then creates the file */
	end = lseek(fd, 0, SEEK_END); /* works for block devices too */
	close(fd);
	if (end < 0)
		return -errno;
	*size = (uint64_t)end;
	return 0;
}

static int faulty_open_file(void *state, struct iorig_file *f)
{
	struct faulty *s = state;
	/* open_flags already carry O_RDWR/O_RDONLY and O_DIRECT for direct=1. */
	int fd = open(f->path, f->open_flags | O_CLOEXEC);

	if (fd < 0) {
		int err = errno;

		s->host->set_error(s->handle, err, "faulty: cannot open %s: %s%s", f->path,
				   strerror(err), err == EINVAL ? " (direct=1 on a filesystem "
				   "without O_DIRECT? use direct=0)" : "");
		return -err;
	}
	f->fd = fd;
	return 0;
}

static int faulty_close_file(void *state, struct iorig_file *f)
{
	int rc = close(f->fd) ? -errno : 0;

	(void)state;
	f->fd = -1;
	return rc;
}

/* The real I/O: loop over short transfers; a read at end of file stops. */
static int64_t faulty_rw(struct iorig_io *io)
{
	char *buf = io->buf; /* use io->buf as given: it is aligned for O_DIRECT */
	uint64_t done = 0;

	while (done < io->len) {
		off_t off = (off_t)(io->offset + done);
		ssize_t n = io->ddir == IORIG_DDIR_WRITE
				    ? pwrite(io->file->fd, buf + done, io->len - done, off)
				    : pread(io->file->fd, buf + done, io->len - done, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int faulty_applies(const struct faulty *s, uint32_t ddir)
{
	return s->o.on == ON_RW || (s->o.on == ON_READ && ddir == IORIG_DDIR_READ) ||
	       (s->o.on == ON_WRITE && ddir == IORIG_DDIR_WRITE);
}

static int faulty_should_fail(struct faulty *s)
{
	if (s->o.error_every && s->count % (uint64_t)s->o.error_every == 0)
		return 1;
	return s->o.error_ppm && faulty_rand(s) % 1000000 < (uint64_t)s->o.error_ppm;
}

/* Sleep until an absolute time, so a signal cannot shorten the latency. */
static void faulty_sleep_until(uint64_t deadline_ns)
{
	struct timespec ts = { (time_t)(deadline_ns / 1000000000u),
			       (long)(deadline_ns % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/*
 * A synchronous engine: the I/O is done when queue() returns COMPLETED
 * with io->result set.  A failed I/O is not a failed op: the error goes in
 * io->result and queue() still returns COMPLETED; -errno from queue()
 * would mean the engine itself is broken.
 */
static int faulty_queue(void *state, struct iorig_io *io)
{
	static const char *const what[] = { "read", "write", "trim" };
	struct faulty *s = state;
	int hit = faulty_applies(s, io->ddir);

	if (hit)
		s->count++;
	if (hit && faulty_should_fail(s)) {
		io->result = -s->err;
		/* The core prints this with the job name and exits with 1. */
		s->host->set_error(s->handle, s->err,
				   "faulty: injected %s on %s #%llu (%llu bytes at offset %llu "
				   "of %s); error_every=%lld, error_ppm=%lld",
				   faulty_errnames[s->o.error_code], what[io->ddir % 3],
				   (unsigned long long)s->count, (unsigned long long)io->len,
				   (unsigned long long)io->offset, io->file->path,
				   (long long)s->o.error_every, (long long)s->o.error_ppm);
	} else {
		io->result = faulty_rw(io);
	}
	if (hit && s->o.latency) {
		uint64_t lat = s->o.latency;

		if (s->o.latency_max > lat)
			lat += faulty_rand(s) % (s->o.latency_max - lat + 1);
		faulty_sleep_until(s->host->now_ns() + lat);
	}
	return IORIG_Q_COMPLETED;
}

static int faulty_fsync(void *state, struct iorig_file *f, int datasync)
{
	struct faulty *s = state;

	if (s->o.fail_fsync) {
		s->host->set_error(s->handle, s->err, "faulty: injected %s on %s of %s "
				   "(fail_fsync=1)", faulty_errnames[s->o.error_code],
				   datasync ? "fdatasync" : "fsync", f->path);
		return -s->err;
	}
	if (datasync ? fdatasync(f->fd) : fsync(f->fd))
		return -errno;
	return 0;
}

/* Drop the file's cached pages, so reads reach the device. */
static int faulty_invalidate(void *state, struct iorig_file *f)
{
	(void)state;
	return -posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* ---- the descriptor --------------------------------------------------------
 * const, and never written by the core.  IORIG_ENGINE_HEADER records the
 * ABI version this file was compiled against; IORIG_ENGINE_DEFINE exports
 * the one symbol the core looks for.
 */
static const struct iorig_engine faulty_engine = {
	IORIG_ENGINE_HEADER,
	.name = "faulty",
	.version = "1.0",
	.description = "pread/pwrite with injected latency and I/O errors (SDK example)",
	.caps = IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_BLOCKDEV,
	.options = faulty_options,
	.options_size = sizeof(struct faulty_opts),
	.init = faulty_init,
	.cleanup = faulty_cleanup,
	.get_size = faulty_get_size,
	.open_file = faulty_open_file,
	.close_file = faulty_close_file,
	.queue = faulty_queue,
	.fsync = faulty_fsync,
	.invalidate = faulty_invalidate,
};

IORIG_ENGINE_DEFINE(faulty_engine)
