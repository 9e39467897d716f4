/*
 * Disk statistics as fio's "Disk stats (read/write)" and "disk_util":
 * the block devices under a run's files, read from /sys/block/<dev>/stat
 * when the run starts and when it ends.
 *
 * A file's device: a block device is itself; a file on a filesystem is on
 * the device of its st_dev (/sys/dev/block/MAJ:MIN); a partition is
 * reported as its whole disk; device-mapper and loop devices as
 * themselves (as fio).  Files on filesystems without a block device
 * (tmpfs, overlay, network) have no disk stats.
 */
#ifndef IORIG_DISKSTATS_H
#define IORIG_DISKSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "job.h"

/* Counters of /sys/block/<dev>/stat that the report uses. */
struct disk_counters {
	uint64_t ios[2];      /* read, write */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];    /* ms */
	uint64_t io_ticks;    /* ms the device was busy */
	uint64_t in_queue;    /* ms, weighted by requests in flight */
};

struct disk_util {
	char name[64];        /* "sda", "loop0", "dm-0" */
	char stat_path[320];
	struct disk_counters start, end;
	uint64_t start_ns, end_ns;
	bool ended;
};

struct disk_set {
	struct disk_util *d;
	size_t n;
};

/*
 * Name of the disk under `path` (a file that may not exist yet: then its
 * directory's), for reporting: 0 and name set, -ENODEV when it has no
 * block device, -errno otherwise.
 */
int diskstats_disk_of(const char *path, char *name, size_t len);

/* Collect the disks under every job's files and take the first reading. */
int diskstats_begin(struct disk_set *s, const struct job_list *jobs, uint64_t now);
void diskstats_end(struct disk_set *s, uint64_t now);
void diskstats_free(struct disk_set *s);

/* Per disk, the figures the reports print. */
struct disk_figures {
	uint64_t ios[2], merges[2], ticks[2], in_queue;
	double util;          /* percent of the run the device was busy */
};
void diskstats_figures(const struct disk_util *d, struct disk_figures *f);

/* "\nDisk stats (read/write):\n  loop0: ios=..." as fio; nothing without disks. */
void diskstats_print_normal(FILE *f, const struct disk_set *s);
/* fio's "disk_util" array. */
json_object *diskstats_json(const struct disk_set *s);

#endif
