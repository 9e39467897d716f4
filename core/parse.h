/*
 * Parsers for option values as users write them, shared by core and engine
 * options.  Sizes: plain bytes, or k/m/g/t/p with optional "i"/"ib"/"b"
 * (k = K = KiB = KB = 1024, as fio).  Durations: "10s", "2m", "1h", "500ms",
 * "250us", "100ns"; a plain number is seconds.  Each returns 0 or -EINVAL
 * (-ERANGE on overflow) and never prints.
 */
#ifndef IORIG_PARSE_H
#define IORIG_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int parse_size(const char *s, uint64_t *out);
int parse_duration_ns(const char *s, uint64_t *out);
/* The same, a plain number counting plain_ns nanoseconds (fio's thinktime: us). */
int parse_duration_unit_ns(const char *s, uint64_t plain_ns, uint64_t *out);
int parse_bool(const char *s, bool *out);        /* 1/0 true/false yes/no on/off */
int parse_int64(const char *s, int64_t *out);    /* decimal or 0x hex */
int parse_uint64(const char *s, uint64_t *out);
/* "1.5:50:99.99" into pcts (each 0 < p <= 100); n set to count. */
int parse_percentile_list(const char *s, double *pcts, uint32_t max, uint32_t *n);
/* "0-3,6" into a CPU bitmap of nbits bits. */
int parse_cpu_list(const char *s, uint64_t *bitmap, unsigned nbits);

/* Levenshtein distance, for "did you mean" suggestions. */
size_t edit_distance(const char *a, const char *b);

/* Format bytes as fio does for sizes: "4096B", "4KiB", "1MiB"... */
void fmt_size(char *buf, size_t len, uint64_t bytes);

#endif
