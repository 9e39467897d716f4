/*
 * Device safety: the checks that keep a job from destroying data on a
 * block device it writes to (mounted, part of a mounted disk, held by
 * device-mapper/RAID, or carrying a filesystem or partition table
 * signature found by libblkid).
 */
#ifndef IORIG_BLKID_SAFETY_H
#define IORIG_BLKID_SAFETY_H

#include <stdbool.h>
#include <stddef.h>

#include "job.h"

/*
 * What libblkid finds on the device: 1 with `what` naming it ("ext4
 * filesystem signature", "dos partition table"), 0 when blank, -errno when
 * the device cannot be probed.
 */
int blockdev_signature(const char *path, char *what, size_t len);

/*
 * Whether job o may write to block device `path`.  0 when allowed;
 * -EBUSY with a message in err naming the device, what was found and the
 * option that allows it; another -errno when the check itself failed.
 * allow_mounted_write skips every check (as fio); overwrite_device only
 * the signature check.
 */
int blockdev_write_check(const struct job_opts *o, const char *path, char *err, size_t errlen);

#endif
