/*
 * fio's INI job files read into a cfg_doc (jobfile_fio.c): [global] and
 * [job] sections, ';'/'#' comments, bare flags, `include FILE`, ${VAR}
 * from the environment.  Like the libconfig reader it interprets no option:
 * the same binder (options.c) checks every value, after fio_compat.
 */
#ifndef IORIG_JOBFILE_FIO_H
#define IORIG_JOBFILE_FIO_H

#include <stdbool.h>
#include <stddef.h>

#include "cfg.h"
#include "cfg_src.h"

/*
 * Is the file a fio INI job file rather than a libconfig one?  True when a
 * line is a section header ("[name]", no quote or comma inside: libconfig
 * arrays have them) or the first line that says anything is `include X`.
 * false as well when it cannot be read (the libconfig reader says why).
 */
bool jobfile_is_fio(const char *path);

/*
 * Read path into doc; src must be initialised with path as source 0 and
 * gets every included file.  Entries of included files have cfg_src-encoded
 * lines.  0, or -EINVAL/-errno with "FILE:LINE: what" in err.
 */
int cfg_read_fio(const char *path, struct cfg_doc *doc, struct cfg_src *src, char *err,
		 size_t errlen);

#endif
