/*
 * The job handle behind the opaque struct iorig_job_handle of the engine
 * ABI, and the host API (host.c) engines reach the core through.  The
 * scheduler owns one handle per job instance and passes it to init() in
 * struct iorig_job_info; engines hand it back in host->log/set_error.
 */
#ifndef IORIG_CORE_HOST_H
#define IORIG_CORE_HOST_H

#include <stdint.h>

#include <iorig/engine.h>

struct iorig_job_handle {
	const char *job_name; /* not owned; must outlive the handle */
	uint32_t instance;
	int error;            /* first error an engine reported: -errno, or 0 */
	char errmsg[512];     /* its message, "" when error == 0 */
};

void host_handle_init(struct iorig_job_handle *h, const char *job_name,
		      uint32_t instance);

#endif
