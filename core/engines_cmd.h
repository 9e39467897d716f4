/*
 * `iorig engines` (list every engine on the search path) and
 * `iorig engines NAME` (one engine's details and options table).
 */
#ifndef IORIG_ENGINES_CMD_H
#define IORIG_ENGINES_CMD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine.h"

/*
 * Every *.so in every directory of p, in search order: name, version, ABI,
 * capabilities, path; an engine whose name an earlier file already claimed
 * is marked "shadowed by"; files that do not load are listed with the
 * reason.  Returns 0 when every file loaded, -ENOEXEC when some did not
 * (still listed), -ENOENT when no .so was found at all.
 */
int engines_cmd_list(FILE *f, const struct engine_path *p);

/*
 * Header and options table of engine `name` (a name or a .so path).  The
 * engine goes into the engine cache.  Returns 0, or -errno after logging
 * why the engine could not be loaded.
 */
int engines_cmd_show(FILE *f, const struct engine_path *p, const char *name);

/* "async,direct,..." ("-" for none) into buf. */
void engine_caps_text(uint64_t caps, char *buf, size_t len);

#endif
