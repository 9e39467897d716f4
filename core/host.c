/*
 * The host API handed to engines (struct iorig_host): logging prefixed
 * with the job, error recording in the job handle, the clock stats use,
 * and aligned buffers.  Engines get only these calls, never core headers.
 */
#include "host.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine.h"
#include "log.h"

void host_handle_init(struct iorig_job_handle *h, const char *job_name,
		      uint32_t instance)
{
	memset(h, 0, sizeof(*h));
	h->job_name = job_name;
	h->instance = instance;
}

static void host_log(struct iorig_job_handle *job, int level, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (level > log_get_level())
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (job && job->job_name)
		log_msg(level, "%s[%u]: %s", job->job_name, job->instance, buf);
	else
		log_msg(level, "%s", buf);
}

/*
 * First error wins: later failures are usually consequences of the first
 * one (a failed open makes every I/O fail), and the first tells the user
 * what to fix.  A handle is used by one worker thread, so no lock.
 */
static void host_set_error(struct iorig_job_handle *job, int err, const char *fmt, ...)
{
	va_list ap;

	if (!job || job->error)
		return;
	/* Accept errno either sign; 0 would read as "no error", so say EIO. */
	job->error = err > 0 ? -err : err < 0 ? err : -EIO;
	va_start(ap, fmt);
	vsnprintf(job->errmsg, sizeof(job->errmsg), fmt, ap);
	va_end(ap);
	log_debug("%s[%u]: engine error %d: %s", job->job_name ? job->job_name : "?",
		  job->instance, job->error, job->errmsg);
}

static uint64_t host_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void *host_alloc_aligned(size_t align, size_t size)
{
	void *p = NULL;

	/* posix_memalign wants a power of two multiple of sizeof(void *). */
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (align & (align - 1)) {
		size_t a = sizeof(void *);

		while (a < align)
			a <<= 1;
		align = a;
	}
	if (posix_memalign(&p, align, size ? size : 1))
		return NULL;
	return p;
}

static void host_free_aligned(void *p)
{
	free(p);
}

static const struct iorig_host host = {
	.struct_size = sizeof(struct iorig_host),
	.abi_major = IORIG_ABI_MAJOR,
	.abi_minor = IORIG_ABI_MINOR,
	.log = host_log,
	.set_error = host_set_error,
	.now_ns = host_now_ns,
	.alloc_aligned = host_alloc_aligned,
	.free_aligned = host_free_aligned,
};

const struct iorig_host *host_api(void)
{
	return &host;
}
