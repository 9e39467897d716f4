/*
 * fio options that iorig accepts without an option of its own: options
 * with no effect here (thread: iorig always uses threads), fio spellings of
 * something iorig has (buffered=0 is direct=1, ioengine=sync is psync), and
 * fio's bare boolean flags (`time_based` alone on a line).  Both fio
 * readers (INI job files, fio command lines) hand their cfg_doc through
 * fio_compat_apply() before options_build_jobs(), which still sees, and
 * explains, every option that is truly unknown.
 */
#ifndef IORIG_FIO_COMPAT_H
#define IORIG_FIO_COMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include "cfg.h"
#include "cfg_src.h"
#include "engine.h"

/*
 * Value of an entry written without one (`time_based`, `-thread`): what it
 * means depends on the option's type, known only once the job's engine is,
 * so fio_compat_apply() resolves it ("1" for booleans, "" otherwise, which
 * options.c then reports as "a value is required").
 */
#define FIO_BARE "\x01"

/* Notes for the user, one line each, about options dropped or rewritten. */
struct fio_notes {
	char **lines;
	size_t n;
};

void fio_notes_free(struct fio_notes *n);

/*
 * True when key is a boolean option: a core one, a fio flag iorig ignores,
 * or a bool option of one of the engines given.  Decides whether a bare
 * `-key` on the command line may take the next argument as its value.
 */
bool fio_is_bool_option(const char *key, const struct engine *const *engines, size_t n);

/*
 * Resolve bare entries, rewrite fio spellings, drop options with no effect
 * (adding one note per option to notes).  Returns 0, or -EINVAL with
 * "WHERE: why" in err for a value iorig cannot honour (kb_base=1000).
 */
int fio_compat_apply(struct cfg_doc *doc, const struct engine_path *path,
		     const struct cfg_src *src, struct fio_notes *notes, char *err,
		     size_t errlen);

/*
 * An options.c "unknown option 'K'" message without a suggestion gets one
 * when K is close to an option handled here ("thred" -> "thread") or to one
 * of flags (iorig's own flags, NULL-terminated; may be NULL).
 */
void fio_compat_suggest(char *msg, size_t len, const char *const *flags);

#endif
