/*
 * `iorig engines --check ENGINE`: the conformance checker engine authors
 * run on their engine.  It validates the descriptor and options table,
 * then drives the engine through the core's call wrappers (no scheduler)
 * on a temporary file with short, verified workloads: sequential and
 * random, reads and writes, iodepth 1 and the engine's depth, O_DIRECT and
 * fsync when the engine claims them.  Every check prints one line: PASS,
 * FAIL with the reason, or SKIP with why.
 *
 * Data is a pattern keyed by file offset and pass, written and read back
 * both through the engine and with plain pread/pwrite, so a failure says
 * what went wrong: data of another offset, data shifted in the buffer,
 * bytes written outside io->buf, a completion reaped twice or never.
 * Each group of workloads runs in a child process under a timeout, so an
 * engine that crashes or hangs is reported, not fatal.  check_engine.c
 * holds the descriptor and option checks and the child processes,
 * check_engine_io.c the workloads.
 */
#ifndef IORIG_CHECK_ENGINE_H
#define IORIG_CHECK_ENGINE_H

#include <stdio.h>

#include "engine.h"

#define CHECK_OK 0       /* every check passed (some may be skipped) */
#define CHECK_FAILED 1   /* at least one check failed */
#define CHECK_UNUSABLE 2 /* the engine could not be loaded or set up */

struct check_params {
	const char *dir;        /* for the temporary file; NULL: $TMPDIR, else /var/tmp */
	const char *const *kv;  /* engine options: key, value, ..., NULL; NULL: defaults */
	unsigned depth;         /* iodepth for async engines; 0: 16 */
	unsigned timeout_s;     /* per group of workloads; 0: 60 */
};

/* Check a loaded engine.  Returns CHECK_OK, CHECK_FAILED or CHECK_UNUSABLE. */
int check_engine_run(FILE *out, const struct engine *e, const struct check_params *cp);

/*
 * Load `path_or_name` (a .so path, or a name on the search path p) and
 * check it; cp NULL: defaults.  Returns CHECK_OK, CHECK_FAILED, or
 * CHECK_UNUSABLE when the engine did not load (the reason is printed).
 */
int check_engine_path(FILE *out, const struct engine_path *p, const char *path_or_name,
		      const struct check_params *cp);

/* `iorig engines --check`: check_engine_path() with default parameters. */
int check_engine_cmd(FILE *out, const struct engine_path *p, const char *path_or_name);

#endif
