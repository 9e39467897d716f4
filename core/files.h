/*
 * A job's files: which paths it uses, how large each region is, and the
 * layout step that creates or extends regular files before the run (as
 * fio's "Laying out IO file").  Also the safety check that keeps a job
 * from writing to a block device in use or holding data.
 */
#ifndef IORIG_FILES_H
#define IORIG_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "job.h"

struct job_files {
	uint32_t n;
	char **paths;
	uint64_t *sizes;       /* bytes of each file's region the job uses */
	bool *is_blockdev;
	uint64_t offset;       /* where this instance's region starts in each file */
};

/*
 * Names and sizes of the files of one instance of job j.  Without
 * `filename`, files are named "<directory>/<name>.<instance>.<n>" as fio
 * does.  With diskless engines the one "file" is the job name.  A size of
 * 0 is left for the engine to resolve (get_size) when it has one.
 */
int job_files_resolve(const struct job *j, uint32_t instance, bool diskless,
		      struct job_files *out, char *err, size_t errlen);

/*
 * Create or extend regular files so the job's region exists; regions a
 * job reads are filled with data (never left as holes that read back as
 * zeros).  Refuses writes to a block device that is in use (mounted,
 * swap, a partition of it mounted, something stacked on it) unless
 * allow_mounted_write, or that holds a filesystem, RAID/LVM member or
 * partition-table signature unless overwrite_device (blkid_safety.c).
 * Returns 0 or -errno with err set.
 */
int job_files_layout(const struct job *j, const struct job_files *f,
		     char *err, size_t errlen);

/* Remove files the job used (unlink=1); never block devices. */
void job_files_unlink(const struct job_files *f);
void job_files_free(struct job_files *f);

/* 1 if the block device (or a partition of it) is mounted or used as
 * swap, with what was found in `what`; 0 if not; -errno on error. */
int blockdev_in_use(const char *path, char *what, size_t len);

#endif
