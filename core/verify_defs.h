/*
 * Verification: the option struct (part of struct job_opts) and the
 * counters a job's statistics keep (part of struct job_stats).  job.h and
 * stats.h include this header, so it includes neither.  The block format
 * and the checks are in verify.h.
 */
#ifndef IORIG_VERIFY_DEFS_H
#define IORIG_VERIFY_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verify_type {
	VERIFY_NONE = 0,
	VERIFY_CRC32C,   /* ISA-L crc32_iscsi */
	VERIFY_XXH64,    /* xxHash XXH64 */
	VERIFY_XXH3,     /* xxHash XXH3 64-bit */
	VERIFY_SHA256,   /* OpenSSL libcrypto */
	VERIFY_MD5,      /* OpenSSL libcrypto */
	VERIFY_PATTERN,  /* payload is verify_pattern repeated, compared byte by byte */
	VERIFY_TYPES
};

/* What a bad block looks like; see docs/verification.md. */
enum verify_kind {
	VK_CORRUPTED = 0,  /* header intact, payload (or header) checksum wrong */
	VK_TORN,           /* header of one write, payload partly from another */
	VK_MISDIRECTED,    /* a valid block that belongs at another offset, file or job */
	VK_STALE,          /* a valid block of an older generation: a lost write */
	VK_NEVER_WRITTEN,  /* zeros or foreign data where a block was written */
	VK_KINDS
};

#define VERIFY_PATTERN_MAX 64

struct verify_opts {
	uint32_t type;        /* enum verify_type */
	bool do_verify;       /* verify after the write phase */
	uint32_t backlog;     /* verify_backlog: verify every N written blocks */
	bool only;            /* verify_only: read and check, write nothing */
	bool fatal;           /* stop at the first bad block */
	bool dump;            /* write expected/found blocks to files */
	uint32_t pattern_len; /* verify_pattern bytes (0: not set) */
	uint8_t pattern[VERIFY_PATTERN_MAX];
};

struct verify_stats {
	uint64_t blocks;      /* blocks checked */
	uint64_t bytes;       /* bytes read to check them */
	uint64_t bad[VK_KINDS];
	uint64_t elapsed_ns;  /* time spent in verify phases */
	char first[768];      /* the first bad block, one line (empty if none) */
};

/* "corrupted", "torn", ... as the reports print them. */
extern const char *const verify_kind_name[VK_KINDS];
extern const char *const verify_type_names[]; /* NULL-terminated, by enum verify_type */
/* Option parser of verify_pattern: field is the struct verify_opts. */
int verify_parse_pattern(void *field, const char *name, const char *val, char *err,
			 size_t errlen);

#endif
