/*
 * The job-source model: what a job file (libconfig today; fio INI and fio
 * command lines later) says, before any option is interpreted.  Every value
 * is kept as the text the user wrote, with its file and line, so that one
 * option parser (options.c) serves every source and every error can point
 * at the line it came from.
 */
#ifndef IORIG_CFG_H
#define IORIG_CFG_H

#include <stddef.h>

struct cfg_entry {
	char *key;
	char *value;      /* text; booleans become "1"/"0" */
	const char *file; /* points into cfg_doc.file (not owned) */
	int line;
};

struct cfg_section {
	char *name;       /* job name; "global" for the global section */
	int line;         /* where the section starts */
	struct cfg_entry *entries;
	size_t n;
	size_t cap;
};

struct cfg_doc {
	char *file;                /* path as given, for messages */
	struct cfg_section global;
	struct cfg_section *jobs;
	size_t n_jobs;
	size_t cap_jobs;
};

/* Append; 0 or -ENOMEM. */
int cfg_section_add(struct cfg_section *s, const char *key, const char *value,
		    const char *file, int line);
/* Last entry with that key, or NULL. */
const struct cfg_entry *cfg_section_find(const struct cfg_section *s, const char *key);
struct cfg_section *cfg_doc_add_job(struct cfg_doc *d, const char *name, int line);
/* Free a section's entries and name; leaves it empty (zeroed). */
void cfg_section_free(struct cfg_section *s);
void cfg_doc_free(struct cfg_doc *d);

/*
 * Read a libconfig job file (jobfile_libconfig.c).  On error returns
 * -EINVAL (or -errno) and writes "file:line: what" into err.
 */
int cfg_read_libconfig(const char *path, struct cfg_doc *doc, char *err, size_t errlen);

#endif
