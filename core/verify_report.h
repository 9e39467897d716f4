/*
 * Reporting verification results: the detailed message for a bad block
 * (job, file, offset, length, expected versus found header fields, first
 * differing bytes, the kind of damage), verify_dump files, the job's
 * final verdict, and the verify sections of the normal and JSON reports.
 */
#ifndef IORIG_VERIFY_REPORT_H
#define IORIG_VERIFY_REPORT_H

#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "verify.h"

struct worker;
struct iorig_io;

/* Detailed reports printed per job instance; later bad blocks are counted. */
#define VERIFY_LOG_MAX 10

void verify_report_bad(struct worker *w, const struct iorig_io *io, uint64_t got,
		       const struct vexpect *ex, const struct vcheck *res);

/* "  verify       : blocks=N, bad=M (corrupted=.., ...)" for the normal report. */
void verify_print_normal(FILE *f, const struct verify_stats *vs);
/* The JSON "verify" object: counts per kind, the first bad block. */
json_object *verify_json(const struct verify_stats *vs, const char *type);

#endif
