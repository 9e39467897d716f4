/*
 * The conformance checker's workloads (check_engine_io.c), private to the
 * checker.  check_engine.c forks a child per session and calls
 * ck_run_session() there; the child drives the engine through the eng_*
 * wrappers and reports each step on report_fd as one line,
 * "K session step\tmessage", K one of B(egin), P(ass), F(ail), S(kip).
 */
#ifndef IORIG_CHECK_ENGINE_IO_H
#define IORIG_CHECK_ENGINE_IO_H

#include <stdbool.h>

#include "engine.h"

#define CK_SIZE (4ull << 20)   /* the temporary file */
#define CK_BS 4096u            /* every I/O */
#define CK_ALIGN 4096u         /* io->buf alignment: O_DIRECT-safe, no more */

/* One group of workloads, run in one child with one engine state. */
struct ck_session {
	char name[32];
	unsigned depth;
	bool direct, read_only, extras; /* extras: get_size, fsync, trim (once) */
};

/* What is checked, set up by the parent. */
struct ck_target {
	const struct engine *e;
	const void *opts;    /* bound options, or NULL */
	const char *path;    /* the CK_SIZE-byte temporary file (a name if diskless) */
	bool diskless, async;
};

void ck_run_session(const struct ck_target *t, const struct ck_session *s, int report_fd);

#endif
