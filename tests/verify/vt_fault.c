/*
 * vt_fault: a test engine built only from the public SDK header, for the
 * verification, rate and shaping tests.  It does real pread/pwrite I/O on
 * the job's files and can, on request:
 *
 *  - damage data the way storage does (fault=...):
 *      lost       the fault_write-th write to fault_offset is dropped
 *                 (reported done, never written);
 *      torn       that write reaches the media only for its first half;
 *      misdirect  that write lands at fault_target instead;
 *      corrupt    one bit of the block at fault_offset flips between the
 *                 write phase and the first read;
 *      zero       the block at fault_offset is zeroed at the first read;
 *  - be slow (delay=): each I/O takes `delay`, served one at a time like
 *    a device with one queue; with async=1 queue() accepts up to iodepth
 *    I/Os and reap() returns them when their service time is over;
 *  - record every queued I/O ("R|W|T OFFSET LEN" lines) to record=PATH, so
 *    tests can compare offset sequences.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <iorig/engine.h>

enum { F_NONE, F_LOST, F_TORN, F_MISDIRECT, F_CORRUPT, F_ZERO };
static const char *const fault_names[] = { "none", "lost", "torn", "misdirect", "corrupt",
					   "zero", NULL };

struct vt_opts {
	int fault;
	uint64_t fault_offset;
	uint64_t fault_target;
	int64_t fault_write;
	uint64_t delay;
	int async;
	const char *record;
};

static const struct iorig_option vt_options[] = {
	{ "fault", IORIG_OPT_ENUM, offsetof(struct vt_opts, fault), "none", 0, 0, fault_names,
	  "damage to inject" },
	{ "fault_offset", IORIG_OPT_SIZE, offsetof(struct vt_opts, fault_offset), "0", 0, 0, NULL,
	  "file offset of the damaged block" },
	{ "fault_target", IORIG_OPT_SIZE, offsetof(struct vt_opts, fault_target), "0", 0, 0, NULL,
	  "where a misdirected write lands" },
	{ "fault_write", IORIG_OPT_INT, offsetof(struct vt_opts, fault_write), "1", 1, 1000000,
	  NULL, "which write to fault_offset is damaged (1: the first)" },
	{ "delay", IORIG_OPT_DURATION, offsetof(struct vt_opts, delay), "0", 0, 0, NULL,
	  "service time of each I/O" },
	{ "async", IORIG_OPT_BOOL, offsetof(struct vt_opts, async), "0", 0, 0, NULL,
	  "queue up to iodepth I/Os, complete them in reap()" },
	{ "record", IORIG_OPT_STRING, offsetof(struct vt_opts, record), NULL, 0, 0, NULL,
	  "file that receives one line per queued I/O" },
	IORIG_OPTION_END,
};

struct vt_state {
	struct vt_opts o;
	const struct iorig_host *host;
	struct iorig_job_handle *h;
	FILE *rec;
	int64_t writes_at_target;
	int read_seen;
	uint64_t busy_until;      /* the one-queue device is busy until then */
	struct iorig_io **q;      /* async: FIFO of queued I/Os */
	uint64_t *done_at;
	unsigned cap, head, n;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	uint64_t n = now_ns();
	struct timespec ts;

	if (t <= n)
		return;
	ts.tv_sec = (time_t)((t - n) / 1000000000ull);
	ts.tv_nsec = (long)((t - n) % 1000000000ull);
	nanosleep(&ts, NULL);
}

static int vt_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct vt_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	memcpy(&s->o, opts, sizeof(s->o));
	s->host = job->host;
	s->h = job->handle;
	if (s->o.record && *s->o.record) {
		char path[4096];

		/* One file per instance: clones never interleave their lines. */
		snprintf(path, sizeof(path), "%s.%u", s->o.record, job->instance);
		s->rec = fopen(path, "w");
		if (!s->rec) {
			s->host->set_error(s->h, errno, "vt_fault: cannot open record file %s",
					   s->o.record);
			free(s);
			return -errno;
		}
	}
	s->cap = job->nr_ios;
	s->q = calloc(s->cap, sizeof(*s->q));
	s->done_at = calloc(s->cap, sizeof(*s->done_at));
	if (!s->q || !s->done_at) {
		free(s->q);
		free(s->done_at);
		if (s->rec)
			fclose(s->rec);
		free(s);
		return -ENOMEM;
	}
	*state = s;
	return 0;
}

static void vt_cleanup(void *state)
{
	struct vt_state *s = state;

	if (s->rec)
		fclose(s->rec);
	free(s->q);
	free(s->done_at);
	free(s);
}

static int vt_open(void *state, struct iorig_file *f)
{
	(void)state;
	f->fd = open(f->path, f->open_flags | O_CLOEXEC);
	return f->fd < 0 ? -errno : 0;
}

static int vt_close(void *state, struct iorig_file *f)
{
	(void)state;
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	return 0;
}

static int64_t xfer(int fd, void *buf, uint64_t len, uint64_t off, int write)
{
	uint64_t done = 0;

	while (done < len) {
		ssize_t n = write ? pwrite(fd, (char *)buf + done, len - done, (off_t)(off + done))
				  : pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

/* Damage that happens to data at rest, seen by the first read. */
static void damage_at_rest(struct vt_state *s, int fd)
{
	uint8_t b[4096];

	if (s->o.fault == F_CORRUPT) {
		if (pread(fd, b, 1, (off_t)(s->o.fault_offset + 1000)) == 1) {
			b[0] ^= 0x10;
			if (pwrite(fd, b, 1, (off_t)(s->o.fault_offset + 1000)) != 1)
				s->host->log(s->h, IORIG_LOG_WARN, "vt_fault: corrupt failed");
		}
	} else if (s->o.fault == F_ZERO) {
		memset(b, 0, sizeof(b));
		if (pwrite(fd, b, sizeof(b), (off_t)s->o.fault_offset) != (ssize_t)sizeof(b))
			s->host->log(s->h, IORIG_LOG_WARN, "vt_fault: zero failed");
	}
	fsync(fd);
}

static int64_t do_io(struct vt_state *s, struct iorig_io *io)
{
	int fd = io->file->fd;

	if (io->ddir == IORIG_DDIR_READ) {
		if (!s->read_seen++)
			damage_at_rest(s, fd);
		return xfer(fd, io->buf, io->len, io->offset, 0);
	}
	if (io->ddir != IORIG_DDIR_WRITE)
		return (int64_t)io->len;
	if (io->offset == s->o.fault_offset && ++s->writes_at_target == s->o.fault_write) {
		switch (s->o.fault) {
		case F_LOST:
			return (int64_t)io->len;
		case F_TORN: {
			int64_t r = xfer(fd, io->buf, io->len / 2, io->offset, 1);
			return r < 0 ? r : (int64_t)io->len;
		}
		case F_MISDIRECT: {
			int64_t r = xfer(fd, io->buf, io->len, s->o.fault_target, 1);
			return r < 0 ? r : (int64_t)io->len;
		}
		default:
			break;
		}
	}
	return xfer(fd, io->buf, io->len, io->offset, 1);
}

static void record(struct vt_state *s, const struct iorig_io *io)
{
	if (s->rec)
		fprintf(s->rec, "%c %llu %llu\n", "RWT"[io->ddir % 3],
			(unsigned long long)io->offset, (unsigned long long)io->len);
}

static int vt_queue(void *state, struct iorig_io *io)
{
	struct vt_state *s = state;
	uint64_t now = now_ns(), start;

	record(s, io);
	io->result = do_io(s, io);
	start = s->busy_until > now ? s->busy_until : now;
	s->busy_until = start + s->o.delay;
	if (!s->o.async) {
		sleep_until(s->busy_until);
		return IORIG_Q_COMPLETED;
	}
	if (s->n == s->cap)
		return IORIG_Q_BUSY;
	s->q[(s->head + s->n) % s->cap] = io;
	s->done_at[(s->head + s->n) % s->cap] = s->busy_until;
	s->n++;
	return IORIG_Q_QUEUED;
}

static int vt_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		   struct iorig_io **done)
{
	struct vt_state *s = state;
	uint64_t end = timeout_ns == UINT64_MAX ? UINT64_MAX : now_ns() + timeout_ns;
	unsigned got = 0;

	for (;;) {
		uint64_t now = now_ns();

		while (s->n && got < max && s->done_at[s->head] <= now) {
			done[got++] = s->q[s->head];
			s->head = (s->head + 1) % s->cap;
			s->n--;
		}
		if (got >= min || !s->n || now >= end)
			return (int)got;
		sleep_until(s->done_at[s->head] < end ? s->done_at[s->head] : end);
	}
}

static int vt_fsync(void *state, struct iorig_file *f, int datasync)
{
	(void)state;
	return (datasync ? fdatasync(f->fd) : fsync(f->fd)) ? -errno : 0;
}

static const struct iorig_engine vt_engine = {
	IORIG_ENGINE_HEADER,
	.name = "vt_fault",
	.version = "1",
	.description = "test engine: pread/pwrite with injected damage, delay and recording",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_FSYNC,
	.options = vt_options,
	.options_size = sizeof(struct vt_opts),
	.init = vt_init,
	.cleanup = vt_cleanup,
	.open_file = vt_open,
	.close_file = vt_close,
	.queue = vt_queue,
	.reap = vt_reap,
	.fsync = vt_fsync,
};

IORIG_ENGINE_DEFINE(vt_engine)
