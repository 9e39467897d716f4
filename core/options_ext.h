/*
 * Cross-option rules of the verification, rate, shaping and buffer
 * options (their table entries are in options_ext.inc).  options.c calls
 * this once a job's options are all bound.
 */
#ifndef IORIG_OPTIONS_EXT_H
#define IORIG_OPTIONS_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"

/* What an option of a kind options_core.c cannot parse alone needs. */
typedef int (*options_ext_parse_fn)(void *field, const char *name, const char *val,
				    char *err, size_t errlen);

struct options_ext {
	const char *name;
	const char *const *values;    /* enum values (NULL-terminated) */
	options_ext_parse_fn parse;   /* own parser: "option 'X': ..." in err */
	const char *type_name;        /* for the option table ("size-list") */
	bool per_dir;                 /* "read,write,trim", blank keeps (opt_parse_dirs) */
};

/* The extension of option `name`; a bug (abort) if it has none. */
const struct options_ext *options_ext_find(const char *name);

/*
 * Check and settle the job's options (bssplit sets the block-size bounds).
 * Returns 0, or -EINVAL with the reason in why and the option to point
 * at in *key.
 */
int options_ext_finish(struct job_opts *o, uint64_t engine_caps, const char **key,
		       char *why, size_t len);

#endif
