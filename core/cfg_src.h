/*
 * Where the entries of one cfg_doc came from when it mixes sources: the job
 * file, the files it includes, and fio options given on the command line.
 *
 * options.c prefixes its messages with "DOC_FILE:LINE: ", DOC_FILE being
 * cfg_doc.file.  So an entry from any source but the first gets a line that
 * encodes (source, line), and cfg_src_rewrite() turns that prefix back into
 * the real place: "inc.fio:12: ..." or "command line, argument 5
 * '-iodpeth=4': ...".  A doc read from a single file keeps its real lines.
 */
#ifndef IORIG_CFG_SRC_H
#define IORIG_CFG_SRC_H

#include <stdbool.h>
#include <stddef.h>

/* Lines per source: a job file longer than this is refused. */
#define CFG_SRC_STRIDE 1000000

struct cfg_src {
	char **names;       /* [0]: the doc's own file (or "command line") */
	bool *is_cmdline;   /* that source is argv: its "lines" are argument indexes */
	size_t n;
	char *const *argv;  /* for quoting the argument in messages */
	int argc;
};

/* Source 0 named name; 0 or -ENOMEM. */
int cfg_src_init(struct cfg_src *s, const char *name, bool is_cmdline);
/* Another source; returns its index (> 0) or -ENOMEM. */
int cfg_src_add(struct cfg_src *s, const char *name, bool is_cmdline);
void cfg_src_set_argv(struct cfg_src *s, int argc, char *const *argv);
void cfg_src_free(struct cfg_src *s);

static inline int cfg_src_line(int src, int line)
{
	return src * CFG_SRC_STRIDE + line;
}

/* "inc.fio:12" or "command line, argument 5 '-iodpeth=4'" for an encoded line. */
void cfg_src_where(const struct cfg_src *s, int line, char *buf, size_t len);

/*
 * If msg starts with "DOC_FILE:LINE: ", replace that prefix by the real
 * place of LINE.  Any other message is left alone.
 */
void cfg_src_rewrite(const struct cfg_src *s, const char *doc_file, char *msg, size_t len);

#endif
