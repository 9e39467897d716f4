/*
 * fio's command-line job syntax (fio_args.c): the arguments cli_parse()
 * left over, read into a cfg_doc.  `--opt=val`, `-opt=val`, `-opt val`
 * and bare flags; options before the first `--name` are global, each
 * `--name=N` starts job N (`--name=global` goes back to the global
 * section, as fio); any other word is a job file.
 *
 * Entry lines are argv indexes, so with a cfg_src whose source 0 is the
 * command line a message reads "command line, argument 5 '-iodpeth=4'".
 */
#ifndef IORIG_FIO_ARGS_H
#define IORIG_FIO_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "cfg.h"
#include "engine.h"

#define FIO_ARGS_FILE "command line" /* cfg_doc.file of the command line's doc */

struct fio_args {
	struct cfg_doc doc;   /* file = FIO_ARGS_FILE */
	const char **files;   /* job files named, in order (point into argv) */
	size_t n_files;
};

/*
 * Read argv[idx[0..n-1]].  The engines named by -ioengine (and psync, the
 * default) are loaded from path to know which bare options are flags.
 * 0, or -EINVAL with the reason in err.
 */
int fio_args_read(char *const *argv, const int *idx, size_t n,
		  const struct engine_path *path, struct fio_args *out, char *err,
		  size_t errlen);
void fio_args_free(struct fio_args *a);

/* Has the command line any job option (global or job)? */
static inline bool fio_args_any(const struct fio_args *a)
{
	return a->doc.global.n || a->doc.n_jobs;
}

#endif
