/*
 * io_uring engine (liburing).
 *
 * One ring per job instance, sized to iodepth.  queue() fills an SQE
 * (BUSY when the SQ ring is full), commit() submits every filled SQE with
 * one io_uring_enter (none at all with sqthread_poll while the kernel
 * thread is awake), reap() takes ready CQEs straight from the shared ring
 * and only enters the kernel when fewer than min are there.  Fixed buffers
 * and files are registered once, in init() and open_file(), so the hot
 * path allocates nothing and makes no syscall besides the I/O.  The ring
 * defers the kernel's task work to our waits where the kernel allows it
 * (uring_setup_flag_sets).
 */
#include <errno.h>
#include <liburing.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include <iorig/engine.h>

#include "fd_file.h"

struct uring_opts {
	int fixedbufs;
	int registerfiles;
	int sqthread_poll;
	int64_t sqthread_poll_cpu;
	int hipri;
	int64_t nonvectored;
	int64_t force_async;
};

static const struct iorig_option uring_options[] = {
	{ "fixedbufs", IORIG_OPT_BOOL, offsetof(struct uring_opts, fixedbufs), "0", 0, 0, NULL,
	  "register the I/O buffers once (READ/WRITE_FIXED): no page pinning per I/O" },
	{ "registerfiles", IORIG_OPT_BOOL, offsetof(struct uring_opts, registerfiles), "0", 0, 0,
	  NULL, "register the files with the ring: no per-I/O file reference counting" },
	{ "sqthread_poll", IORIG_OPT_BOOL, offsetof(struct uring_opts, sqthread_poll), "0", 0, 0,
	  NULL, "a kernel thread polls the submission ring (SQPOLL): no submit syscalls" },
	{ "sqthread_poll_cpu", IORIG_OPT_INT, offsetof(struct uring_opts, sqthread_poll_cpu), "-1",
	  -1, 4095, NULL, "pin the sqthread_poll kernel thread to this CPU (-1: no pinning)" },
	{ "hipri", IORIG_OPT_BOOL, offsetof(struct uring_opts, hipri), "0", 0, 0, NULL,
	  "polled completions (IORING_SETUP_IOPOLL); needs direct=1 on a device with poll queues" },
	{ "nonvectored", IORIG_OPT_INT, offsetof(struct uring_opts, nonvectored), "-1", -1, 1,
	  NULL, "1: READ/WRITE (no iovec), 0: READV/WRITEV, -1: READ/WRITE where the kernel "
	  "has them (5.6+)" },
	{ "force_async", IORIG_OPT_INT, offsetof(struct uring_opts, force_async), "0", 0, 1 << 30,
	  NULL, "every Nth I/O goes straight to the kernel's workers (IOSQE_ASYNC); 0: never" },
	IORIG_OPTION_END
};

struct uring_state {
	struct fd_engine fd;        /* first: the fd_file_op_* ops take the state */
	struct uring_opts o;
	struct io_uring ring;
	int ring_ready;
	int defer_taskrun;          /* completions are posted only when we enter */
	int nonvectored;            /* the nonvectored option, -1 resolved */
	uint32_t nr_files;
	unsigned cq_entries;
	struct io_uring_cqe **cqes; /* cq_entries slots for peek_batch */
	int64_t async_left;         /* I/Os until the next IOSQE_ASYNC */
};
FD_ENGINE_FIRST(struct uring_state, fd);

/*
 * Ways to set up the ring, best first; a kernel that refuses one (EINVAL)
 * gets the next.  Reads and writes that would block (buffered reads on
 * tmpfs, for one) run in the kernel's io-wq workers, which hand each
 * completion back to our thread as task work.  By default that interrupts
 * the thread at once, about one context switch per I/O (half the IOPS of
 * the ring below on /dev/shm, measured).  DEFER_TASKRUN (6.1+) runs that
 * work only when we enter the kernel to wait, which we do anyway; it needs
 * SINGLE_ISSUER, which holds: one worker thread makes every call on a
 * ring, from init to cleanup (docs/engine-abi.md, Threading).
 * COOP_TASKRUN (5.19+) is the next best: no interrupt, work runs at the
 * next kernel entry.  SQPOLL rings take none of these.
 */
static const unsigned uring_setup_flag_sets[] = {
	IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN,
	IORING_SETUP_COOP_TASKRUN,
	0,
};
#define NR_SETUP_SETS (sizeof(uring_setup_flag_sets) / sizeof(uring_setup_flag_sets[0]))

static const char *const uring_feature_names[] = {
	"single_mmap", "nodrop", "submit_stable", "rw_cur_pos", "cur_personality",
	"fast_poll", "poll_32bits", "sqpoll_nonfixed", "ext_arg", "native_workers",
	"rsrc_tags", "cqe_skip", "linked_file", "reg_reg_ring", "recvsend_bundle",
	"min_timeout", "rw_attr", "no_iowait",
};

/* An I/O failed: say what to change for the failures options cause. */
static void uring_explain(struct uring_state *s, const struct iorig_io *io, int err)
{
	if (s->o.hipri && (err == -EOPNOTSUPP || err == -EINVAL))
		s->fd.host->set_error(s->fd.job, err,
			"io_uring: polled %s at offset %llu of %s failed: %s (hipri needs "
			"O_DIRECT on a device with poll queues, e.g. nvme with poll_queues=N; "
			"use hipri=0)", fd_file_ddir_name(io->ddir),
			(unsigned long long)io->offset, io->file->path, strerror(-err));
	else
		fd_file_io_error(&s->fd, io, err);
}

static void uring_cleanup(void *state)
{
	struct uring_state *s = state;

	if (!s)
		return;
	if (s->ring_ready)
		io_uring_queue_exit(&s->ring); /* also drops registered buffers/files */
	free(s->cqes);
	free(s);
}

/* Options that cannot work together are refused before any ring exists. */
static int uring_check_opts(const struct iorig_job_info *job, struct uring_state *s)
{
	if (s->o.sqthread_poll_cpu >= 0 && !s->o.sqthread_poll) {
		s->fd.host->set_error(s->fd.job, -EINVAL,
			"io_uring: sqthread_poll_cpu=%lld pins the submission polling thread, "
			"which only exists with sqthread_poll=1; set sqthread_poll=1 or drop "
			"sqthread_poll_cpu",
			(long long)s->o.sqthread_poll_cpu);
		return -EINVAL;
	}
	if (s->o.hipri && !(job->flags & IORIG_JOB_DIRECT)) {
		s->fd.host->set_error(s->fd.job, -EINVAL,
			"io_uring: hipri=1 asks for polled completions (IORING_SETUP_IOPOLL), "
			"which the kernel only does for direct I/O: hipri needs O_DIRECT on a "
			"device with poll queues; set direct=1 or hipri=0");
		return -EINVAL;
	}
	return 0;
}

static int uring_setup_error(struct uring_state *s, int rc, unsigned depth)
{
	if (rc == -EPERM)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: io_uring_setup failed (EPERM): io_uring is disabled for "
			"this user (sysctl kernel.io_uring_disabled, or a seccomp/container "
			"policy); use ioengine=libaio or psync");
	else if (rc == -ENOSYS)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: io_uring_setup failed (ENOSYS): this kernel has no "
			"io_uring (needs 5.1+); use ioengine=libaio or psync");
	else if (rc == -ENOMEM)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: io_uring_setup(%u) failed (ENOMEM): the ring needs locked "
			"memory; raise ulimit -l or lower iodepth", depth);
	else if (rc == -EINVAL && s->o.sqthread_poll_cpu >= 0)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: io_uring_setup failed (EINVAL): sqthread_poll_cpu=%lld is "
			"not an online CPU this job may use", (long long)s->o.sqthread_poll_cpu);
	else
		s->fd.host->set_error(s->fd.job, rc, "io_uring: io_uring_setup(%u) failed: %s",
			depth, strerror(-rc));
	return rc;
}

static void uring_log_features(struct uring_state *s, const struct io_uring_params *p)
{
	char buf[512];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(uring_feature_names) / sizeof(uring_feature_names[0]); i++)
		if ((p->features & (1u << i)) && len < sizeof(buf))
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, " %s",
						uring_feature_names[i]);
	s->fd.host->log(s->fd.job, IORIG_LOG_DEBUG,
		"io_uring: sq %u cq %u entries, flags 0x%x, features 0x%x:%s",
		p->sq_entries, p->cq_entries, p->flags, p->features, buf);
}

/* Does the kernel have IORING_OP_READ/WRITE (5.6+), which take no iovec? */
static int uring_has_read_write(struct uring_state *s)
{
	struct io_uring_probe *probe = io_uring_get_probe_ring(&s->ring);
	int ok = probe && io_uring_opcode_supported(probe, IORING_OP_READ) &&
		 io_uring_opcode_supported(probe, IORING_OP_WRITE);

	if (probe)
		io_uring_free_probe(probe);
	s->fd.host->log(s->fd.job, IORIG_LOG_DEBUG, "io_uring: nonvectored=-1: %s",
			ok ? "READ/WRITE" : "READV/WRITEV (no READ/WRITE in this kernel)");
	return ok;
}

static int uring_register_bufs(const struct iorig_job_info *job, struct uring_state *s)
{
	struct iovec *iov = calloc(job->nr_ios, sizeof(*iov));
	int rc;

	if (!iov)
		return -ENOMEM;
	/* Slot = io->index, which queue() passes as buf_index. */
	for (uint32_t i = 0; i < job->nr_ios; i++) {
		const struct iorig_io *io = job->ios[i];

		if (io->index >= job->nr_ios) {
			free(iov);
			s->fd.host->set_error(s->fd.job, -EINVAL,
				"io_uring: fixedbufs: I/O unit %u has index %u, expected < %u "
				"(core bug)",
				i, io->index, job->nr_ios);
			return -EINVAL;
		}
		iov[io->index].iov_base = io->buf;
		iov[io->index].iov_len = job->max_bs;
	}
	rc = io_uring_register_buffers(&s->ring, iov, job->nr_ios);
	free(iov);
	if (rc == -ENOMEM)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: fixedbufs: registering %u buffers of %llu bytes failed "
			"(ENOMEM): raise the locked-memory limit (ulimit -l), lower iodepth or "
			"bs, or set fixedbufs=0",
			job->nr_ios, (unsigned long long)job->max_bs);
	else if (rc < 0)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: fixedbufs: registering %u buffers failed: %s; set fixedbufs=0",
			job->nr_ios, strerror(-rc));
	return rc;
}

/* Empty slots now; open_file() fills slot f->index with the fd. */
static int uring_register_files(const struct iorig_job_info *job, struct uring_state *s)
{
	int rc = io_uring_register_files_sparse(&s->ring, job->nr_files);

	if (rc == -EINVAL) { /* kernels before 5.19: a table of -1 does the same */
		int *fds = malloc(job->nr_files * sizeof(*fds));

		if (!fds)
			return -ENOMEM;
		for (uint32_t i = 0; i < job->nr_files; i++)
			fds[i] = -1;
		rc = io_uring_register_files(&s->ring, fds, job->nr_files);
		free(fds);
	}
	if (rc < 0)
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: registerfiles: registering %u files failed: %s; "
			"set registerfiles=0",
			job->nr_files, strerror(-rc));
	return rc;
}

static int uring_init(const struct iorig_job_info *job, const void *opts, void **state)
{
	struct io_uring_params p;
	struct uring_state *s;
	unsigned depth = job->iodepth ? job->iodepth : 1;
	int rc;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	fd_engine_init(&s->fd, "io_uring", job);
	s->nr_files = job->nr_files;
	if (opts)
		memcpy(&s->o, opts, sizeof(s->o));
	else
		s->o.sqthread_poll_cpu = s->o.nonvectored = -1;
	s->async_left = s->o.force_async;
	rc = uring_check_opts(job, s);
	if (rc)
		goto fail;

	/* SQPOLL rings take the last set only: plain. */
	for (size_t i = s->o.sqthread_poll ? NR_SETUP_SETS - 1 : 0; i < NR_SETUP_SETS; i++) {
		memset(&p, 0, sizeof(p));
		p.flags = uring_setup_flag_sets[i];
		if (s->o.hipri)
			p.flags |= IORING_SETUP_IOPOLL;
		if (s->o.sqthread_poll) {
			p.flags |= IORING_SETUP_SQPOLL;
			if (s->o.sqthread_poll_cpu >= 0) {
				p.flags |= IORING_SETUP_SQ_AFF;
				p.sq_thread_cpu = (uint32_t)s->o.sqthread_poll_cpu;
			}
		}
		rc = io_uring_queue_init_params(depth, &s->ring, &p);
		if (rc != -EINVAL || !uring_setup_flag_sets[i])
			break;
	}
	if (rc < 0) {
		uring_setup_error(s, rc, depth);
		goto fail;
	}
	s->ring_ready = 1;
	s->defer_taskrun = !!(p.flags & IORING_SETUP_DEFER_TASKRUN);
	uring_log_features(s, &p);
	s->cq_entries = p.cq_entries;
	s->cqes = calloc(s->cq_entries, sizeof(*s->cqes));
	if (!s->cqes) {
		rc = -ENOMEM;
		goto fail;
	}
	s->nonvectored = s->o.nonvectored >= 0 ? (int)s->o.nonvectored : uring_has_read_write(s);
	if (s->o.fixedbufs && (rc = uring_register_bufs(job, s)) < 0)
		goto fail;
	if (s->o.registerfiles && job->nr_files && (rc = uring_register_files(job, s)) < 0)
		goto fail;
	*state = s;
	return 0;
fail:
	uring_cleanup(s);
	return rc;
}

static int uring_open_file(void *state, struct iorig_file *f)
{
	struct uring_state *s = state;
	int rc = fd_file_open_flags(&s->fd, f, f->open_flags);

	if (rc < 0 || !s->o.registerfiles)
		return rc;
	rc = f->index < s->nr_files ?
		io_uring_register_files_update(&s->ring, f->index, &f->fd, 1) : -EINVAL;
	if (rc < 0) {
		s->fd.host->set_error(s->fd.job, rc,
			"io_uring: registerfiles: cannot add %s to slot %u: %s; "
			"use registerfiles=0", f->path, f->index, strerror(-rc));
		close(f->fd);
		f->fd = -1;
		return rc;
	}
	return 0;
}

static int uring_close_file(void *state, struct iorig_file *f)
{
	struct uring_state *s = state;

	if (f->fd >= 0 && s->o.registerfiles && f->index < s->nr_files) {
		int none = -1;

		io_uring_register_files_update(&s->ring, f->index, &none, 1);
	}
	return fd_file_close(&s->fd, f);
}

static int uring_queue(void *state, struct iorig_io *io)
{
	struct uring_state *s = state;
	struct io_uring_sqe *sqe;
	int fd = s->o.registerfiles ? (int)io->file->index : io->file->fd;
	int write = io->ddir == IORIG_DDIR_WRITE;

	if (io->ddir != IORIG_DDIR_READ && !write)
		return -EOPNOTSUPP; /* no IORIG_CAP_TRIM: the core never sends one */
	sqe = io_uring_get_sqe(&s->ring);
	if (!sqe)
		return IORIG_Q_BUSY;
	if (s->o.fixedbufs) {
		if (write)
			io_uring_prep_write_fixed(sqe, fd, io->buf, (unsigned)io->len, io->offset,
						  (int)io->index);
		else
			io_uring_prep_read_fixed(sqe, fd, io->buf, (unsigned)io->len, io->offset,
						 (int)io->index);
	} else if (s->nonvectored) {
		if (write)
			io_uring_prep_write(sqe, fd, io->buf, (unsigned)io->len, io->offset);
		else
			io_uring_prep_read(sqe, fd, io->buf, (unsigned)io->len, io->offset);
	} else {
		struct iovec *iov = io->priv;

		iov->iov_base = io->buf;
		iov->iov_len = io->len;
		if (write)
			io_uring_prep_writev(sqe, fd, iov, 1, io->offset);
		else
			io_uring_prep_readv(sqe, fd, iov, 1, io->offset);
	}
	if (s->o.registerfiles)
		sqe->flags |= IOSQE_FIXED_FILE;
	if (s->o.force_async && --s->async_left == 0) {
		sqe->flags |= IOSQE_ASYNC;
		s->async_left = s->o.force_async;
	}
	io_uring_sqe_set_data(sqe, io);
	return IORIG_Q_QUEUED;
}

/*
 * SQEs the kernel did not take stay in the SQ ring and go with the next
 * submit, so a short count, EAGAIN (no memory for requests right now) and
 * EBUSY (CQ ring overflowing: reap first) only need the core to reap.
 */
static int uring_commit(void *state)
{
	struct uring_state *s = state;
	int rc = io_uring_submit(&s->ring);

	if (rc >= 0 || rc == -EAGAIN || rc == -EBUSY || rc == -EINTR)
		return 0;
	s->fd.host->set_error(s->fd.job, rc, "io_uring: io_uring_submit failed: %s", strerror(-rc));
	return rc;
}

/*
 * Wait until min CQEs are ready or the deadline passes.  One timed
 * io_uring_wait_cqes() is not enough: on a polled (hipri) ring the kernel
 * returns after one polling pass when a request went through its workers,
 * and liburing then reports -ETIME early, so we loop on our own deadline.
 */
static int uring_wait(struct uring_state *s, unsigned min, uint64_t timeout_ns)
{
	uint64_t deadline = timeout_ns == UINT64_MAX ? UINT64_MAX
						     : s->fd.host->now_ns() + timeout_ns;
	uint64_t left = timeout_ns;

	for (;;) {
		struct __kernel_timespec ts = {
			.tv_sec = (long long)(left / 1000000000u),
			.tv_nsec = (long long)(left % 1000000000u),
		};
		struct io_uring_cqe *cqe;
		/* Counts CQEs already peeked: the ring head has not moved. */
		int rc = io_uring_wait_cqes(&s->ring, &cqe, min,
					    deadline == UINT64_MAX ? NULL : &ts, NULL);
		uint64_t now;

		if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN) {
			s->fd.host->set_error(s->fd.job, rc,
				"io_uring: waiting for completions failed: %s", strerror(-rc));
			return rc;
		}
		if (io_uring_cq_ready(&s->ring) >= min)
			return 0;
		if (deadline == UINT64_MAX)
			continue;
		now = s->fd.host->now_ns();
		if (now >= deadline)
			return 0;
		left = deadline - now;
	}
}

static int uring_reap(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
		      struct iorig_io **done)
{
	struct uring_state *s = state;
	unsigned n, out = 0;

	if (max > s->cq_entries)
		max = s->cq_entries;
	if (min > max)
		min = max;
	/*
	 * SQEs a failed submit (EAGAIN, EBUSY) left in the SQ ring are not sent
	 * by the wait below: send them first, or we could wait for I/O that the
	 * kernel never saw.  With sqthread_poll the kernel thread takes them.
	 */
	if (!s->o.sqthread_poll && io_uring_sq_ready(&s->ring)) {
		int rc = uring_commit(s);

		if (rc < 0)
			return rc;
	}
	n = io_uring_peek_batch_cqe(&s->ring, s->cqes, max);
	/*
	 * Polled rings only complete I/O when someone enters the kernel, and
	 * deferred task work only posts completions then.
	 */
	if (n == 0 && min == 0 && (s->o.hipri || s->defer_taskrun)) {
		io_uring_get_events(&s->ring);
		n = io_uring_peek_batch_cqe(&s->ring, s->cqes, max);
	}
	if (n < min && timeout_ns) {
		int rc = uring_wait(s, min, timeout_ns);

		if (rc < 0)
			return rc;
		n = io_uring_peek_batch_cqe(&s->ring, s->cqes, max);
	}
	for (unsigned i = 0; i < n; i++) {
		struct io_uring_cqe *cqe = s->cqes[i];
		struct iorig_io *io;

		if (cqe->user_data == LIBURING_UDATA_TIMEOUT)
			continue; /* liburing's own timeout on kernels without EXT_ARG */
		io = io_uring_cqe_get_data(cqe);
		io->result = cqe->res;
		if (cqe->res < 0)
			uring_explain(s, io, cqe->res);
		done[out++] = io;
	}
	io_uring_cq_advance(&s->ring, n);
	return (int)out;
}

static const struct iorig_engine uring_engine = {
	IORIG_ENGINE_HEADER,
	.name = "io_uring",
	.version = "1.0",
	.description = "Linux io_uring (liburing): async buffered and direct I/O",
	.caps = IORIG_CAP_ASYNC | IORIG_CAP_DIRECT | IORIG_CAP_FSYNC | IORIG_CAP_BLOCKDEV,
	.options = uring_options,
	.options_size = sizeof(struct uring_opts),
	.io_priv_size = sizeof(struct iovec),
	.init = uring_init,
	.cleanup = uring_cleanup,
	.open_file = uring_open_file,
	.close_file = uring_close_file,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.fsync = fd_file_op_fsync,
	.invalidate = fd_file_op_invalidate,
	.get_size = fd_file_op_get_size,
};

IORIG_ENGINE_DEFINE(uring_engine)
