/*
 * Device safety (blkid_safety.h).  A write job on a block device is
 * refused when the device, its whole disk or a device stacked on it is in
 * use, or when libblkid finds a filesystem, RAID member, LVM PV or
 * partition table on it: the tutorials' "this destroys your filesystem"
 * turned into a check.
 */
#include "blkid_safety.h"

#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "files.h"

static const char *probe_value(blkid_probe pr, const char *name)
{
	const char *v = NULL;

	if (blkid_probe_lookup_value(pr, name, &v, NULL) || !v || !*v)
		return NULL;
	return v;
}

int blockdev_signature(const char *path, char *what, size_t len)
{
	const char *type, *usage, *pttype, *label;
	blkid_probe pr;
	int rc;

	pr = blkid_new_probe_from_filename(path);
	if (!pr)
		return errno ? -errno : -EIO;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE | BLKID_SUBLKS_LABEL);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		blkid_free_probe(pr);
		return 0;
	}
	if (rc == -2) {
		/* Several signatures disagree: there is data either way. */
		snprintf(what, len, "several conflicting signatures");
		blkid_free_probe(pr);
		return 1;
	}
	if (rc < 0) {
		blkid_free_probe(pr);
		return -EIO;
	}
	type = probe_value(pr, "TYPE");
	usage = probe_value(pr, "USAGE");
	pttype = probe_value(pr, "PTTYPE");
	label = probe_value(pr, "LABEL");
	if (type && usage && !strcmp(usage, "filesystem"))
		snprintf(what, len, "%s filesystem signature", type);
	else if (type)
		snprintf(what, len, "%s signature (%s)", type, usage ? usage : "other");
	else if (pttype)
		snprintf(what, len, "%s partition table", pttype);
	else
		snprintf(what, len, "an unnamed signature");
	if (label) {
		size_t l = strlen(what);
		snprintf(what + l, len - l, " labelled '%s'", label);
	}
	blkid_free_probe(pr);
	return 1;
}

/* ---- sysfs: partitions and holders ---------------------------------------- */

/* /sys/devices/... directory of a block device, resolved. */
static int sysfs_dir(dev_t dev, char *out)
{
	char link[64];

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	return realpath(link, out) ? 0 : -errno;
}

/* A device stacked on this one (dm, md, bcache) holds it: its name, or 0. */
static int holder_of(const char *sysdir, char *name, size_t len)
{
	char path[PATH_MAX + 16];
	struct dirent *de;
	DIR *d;
	int found = 0;

	snprintf(path, sizeof(path), "%s/holders", sysdir);
	d = opendir(path);
	if (!d)
		return 0;
	while (!found && (de = readdir(d)))
		if (de->d_name[0] != '.') {
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	closedir(d);
	return found;
}

static int refuse(char *err, size_t errlen, const struct job_opts *o, const char *path,
		  const char *what, const char *remedy)
{
	snprintf(err, errlen,
		 "job '%s': refusing to write to %s: %s; writing would destroy its data. %s",
		 o->name, path, what, remedy);
	return -EBUSY;
}

#define REMEDY_MOUNTED "Unmount it, or set allow_mounted_write=1 if you mean it"
#define REMEDY_SIGNATURE "Set overwrite_device=1 if you mean to destroy it " \
	"(wipefs -a clears it for good), or use a blank device"

int blockdev_write_check(const struct job_opts *o, const char *path, char *err, size_t errlen)
{
	char what[512] = "", msg[2048], sysdir[PATH_MAX], name[256];
	struct stat sb;
	int rc;

	if (o->allow_mounted_write)
		return 0;
	if (stat(path, &sb)) {
		rc = -errno;
		snprintf(err, errlen, "job '%s': cannot check %s: %s", o->name, path, strerror(errno));
		return rc;
	}
	if (!S_ISBLK(sb.st_mode))
		return 0;

	rc = blockdev_in_use(path, what, sizeof(what));
	if (rc > 0) {
		snprintf(msg, sizeof(msg), "it is %s", what);
		return refuse(err, errlen, o, path, msg, REMEDY_MOUNTED);
	}
	if (rc < 0) {
		snprintf(err, errlen, "job '%s': cannot check whether %s is in use: %s",
			 o->name, path, strerror(-rc));
		return rc;
	}

	if (!sysfs_dir(sb.st_rdev, sysdir)) {
		char part[PATH_MAX + 16];
		struct stat ps;

		/* A partition: its whole disk (or a sibling partition) in use counts. */
		snprintf(part, sizeof(part), "%s/partition", sysdir);
		if (!stat(part, &ps)) {
			char *slash = strrchr(sysdir, '/'), disk[300];

			*slash = '\0';
			snprintf(disk, sizeof(disk), "/dev/%s", strrchr(sysdir, '/') + 1);
			if (blockdev_in_use(disk, what, sizeof(what)) > 0) {
				snprintf(msg, sizeof(msg), "it is a partition of %s, which is %s", disk,
					 what);
				return refuse(err, errlen, o, path, msg, REMEDY_MOUNTED);
			}
			*slash = '/';
		}
		if (holder_of(sysdir, name, sizeof(name))) {
			snprintf(msg, sizeof(msg),
				 "it is in use by %s (device-mapper, LVM or RAID stacked on it)", name);
			return refuse(err, errlen, o, path, msg, REMEDY_MOUNTED);
		}
	}

	if (o->overwrite_device)
		return 0;
	rc = blockdev_signature(path, what, sizeof(what));
	if (rc > 0) {
		bool bare = !strncmp(what, "several", 7) || !strncmp(what, "an ", 3);

		snprintf(msg, sizeof(msg), "it holds %s%s",
			 bare ? "" : strchr("aeiou", what[0]) ? "an " : "a ", what);
		return refuse(err, errlen, o, path, msg, REMEDY_SIGNATURE);
	}
	if (rc < 0) {
		snprintf(err, errlen,
			 "job '%s': cannot probe %s for a filesystem or partition table: %s. "
			 "Set overwrite_device=1 if the device holds nothing you need",
			 o->name, path, strerror(-rc));
		return rc;
	}
	return 0;
}
