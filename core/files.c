/*
 * A job's files: names, region sizes, layout before the run, and the check
 * that refuses writes to a mounted block device.
 */
#include "files.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "blkid_safety.h"
#include "offsets.h"

static int add_path(struct job_files *f, const char *dir, const char *name, size_t namelen)
{
	char **p = realloc(f->paths, (f->n + 1) * sizeof(*p));
	char *s;

	if (!p)
		return -ENOMEM;
	f->paths = p;
	if (dir && *dir && name[0] != '/') {
		size_t dl = strlen(dir);
		s = malloc(dl + 1 + namelen + 1);
		if (!s)
			return -ENOMEM;
		memcpy(s, dir, dl);
		s[dl] = '/';
		memcpy(s + dl + 1, name, namelen);
		s[dl + 1 + namelen] = 0;
	} else {
		s = strndup(name, namelen);
		if (!s)
			return -ENOMEM;
	}
	f->paths[f->n++] = s;
	return 0;
}

/* Split "a:b" on colons; "\:" keeps a colon in a name (as fio). */
static int split_filenames(struct job_files *f, const char *dir, const char *list)
{
	char buf[4096];
	size_t len = 0;
	int rc;

	for (const char *c = list;; c++) {
		if (*c == '\\' && c[1] == ':') {
			c++;
		} else if (*c == ':' || *c == 0) {
			if (len) {
				rc = add_path(f, dir, buf, len);
				if (rc)
					return rc;
			}
			len = 0;
			if (!*c)
				return 0;
			continue;
		}
		if (len + 1 >= sizeof(buf))
			return -ENAMETOOLONG;
		buf[len++] = *c;
	}
}

static int blockdev_size(const char *path, uint64_t *size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, BLKGETSIZE64, size) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

int job_files_resolve(const struct job *j, uint32_t instance, bool diskless,
		      struct job_files *out, char *err, size_t errlen)
{
	const struct job_opts *o = &j->o;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	out->offset = job_instance_offset(o, instance);
	if (o->filename && *o->filename) {
		rc = split_filenames(out, o->directory, o->filename);
	} else if (diskless && o->nrfiles <= 1) {
		rc = add_path(out, NULL, o->name, strlen(o->name));
	} else {
		/* A diskless engine's files are objects or images: no directory. */
		const char *dir = diskless ? NULL : o->directory ? o->directory : ".";
		uint32_t nr = o->nrfiles ? o->nrfiles : 1;

		for (uint32_t i = 0; i < nr && !rc; i++) {
			char name[512];
			int n = snprintf(name, sizeof(name), "%s.%u.%u", o->name, instance, i);
			rc = add_path(out, dir, name, (size_t)n);
		}
	}
	if (rc) {
		snprintf(err, errlen, "job '%s': cannot build its file list: %s", o->name, strerror(-rc));
		goto fail;
	}
	if (!out->n) {
		snprintf(err, errlen, "job '%s': filename names no file", o->name);
		rc = -EINVAL;
		goto fail;
	}
	out->sizes = calloc(out->n, sizeof(*out->sizes));
	out->is_blockdev = calloc(out->n, sizeof(*out->is_blockdev));
	if (!out->sizes || !out->is_blockdev) {
		rc = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (uint32_t i = 0; i < out->n; i++) {
		struct stat sb;
		uint64_t per = o->size / out->n;
		bool exists = !diskless && stat(out->paths[i], &sb) == 0;

		if (exists && S_ISBLK(sb.st_mode)) {
			uint64_t dev;
			out->is_blockdev[i] = true;
			rc = blockdev_size(out->paths[i], &dev);
			if (rc) {
				snprintf(err, errlen, "job '%s': cannot read the size of %s: %s",
					 o->name, out->paths[i], strerror(-rc));
				goto fail;
			}
			if (out->offset >= dev) {
				snprintf(err, errlen, "job '%s': offset %llu is past the end of %s (%llu bytes)",
					 o->name, (unsigned long long)out->offset, out->paths[i],
					 (unsigned long long)dev);
				rc = -EINVAL;
				goto fail;
			}
			if (!per || per > dev - out->offset)
				per = dev - out->offset;
		} else if (exists && S_ISREG(sb.st_mode) && !per) {
			/* No size given: use what the file has, like fio. */
			if ((uint64_t)sb.st_size > out->offset)
				per = (uint64_t)sb.st_size - out->offset;
		} else if (exists && !S_ISREG(sb.st_mode) && !S_ISBLK(sb.st_mode)) {
			snprintf(err, errlen, "job '%s': %s is neither a regular file nor a block device",
				 o->name, out->paths[i]);
			rc = -EINVAL;
			goto fail;
		}
		out->sizes[i] = per;
	}
	return 0;
fail:
	job_files_free(out);
	return rc;
}

void job_files_free(struct job_files *f)
{
	for (uint32_t i = 0; i < f->n; i++)
		free(f->paths[i]);
	free(f->paths);
	free(f->sizes);
	free(f->is_blockdev);
	memset(f, 0, sizeof(*f));
}

void job_files_unlink(const struct job_files *f)
{
	for (uint32_t i = 0; i < f->n; i++)
		if (!f->is_blockdev[i])
			unlink(f->paths[i]);
}

/* Does /proc/self/mountinfo or /proc/swaps name device `dev`? */
static int dev_mounted(dev_t dev, char *what, size_t len)
{
	char line[4096];
	FILE *mi = fopen("/proc/self/mountinfo", "r");
	int found = 0;

	if (!mi)
		return -errno;
	while (!found && fgets(line, sizeof(line), mi)) {
		unsigned maj, min;
		char mnt[1024];
		/* id parent major:minor root mountpoint ... */
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mnt) == 3 &&
		    makedev(maj, min) == dev) {
			snprintf(what, len, "mounted on %s", mnt);
			found = 1;
		}
	}
	fclose(mi);
	return found;
}

static int dev_swap(const char *path, char *what, size_t len)
{
	char line[1024], name[1024];
	FILE *sw = fopen("/proc/swaps", "r");
	int found = 0;
	struct stat want, sb;

	if (!sw || stat(path, &want))
		goto out;
	while (!found && fgets(line, sizeof(line), sw))
		if (sscanf(line, "%1023s", name) == 1 && stat(name, &sb) == 0 &&
		    S_ISBLK(sb.st_mode) && sb.st_rdev == want.st_rdev) {
			snprintf(what, len, "used as swap");
			found = 1;
		}
out:
	if (sw)
		fclose(sw);
	return found;
}

int blockdev_in_use(const char *path, char *what, size_t len)
{
	struct stat sb;
	char sys[512], line[64];
	int rc;

	if (stat(path, &sb))
		return -errno;
	if (!S_ISBLK(sb.st_mode))
		return 0;
	rc = dev_mounted(sb.st_rdev, what, len);
	if (rc)
		return rc;
	if (dev_swap(path, what, len))
		return 1;
	/* A whole disk is in use when one of its partitions is: partitions
	 * are subdirectories of its sysfs node (sda1, loop0p1, nvme0n1p1). */
	{
		char dir[256];
		snprintf(dir, sizeof(dir), "/sys/dev/block/%u:%u", major(sb.st_rdev), minor(sb.st_rdev));
		for (unsigned part = 1; part < 256; part++) {
			FILE *f;
			unsigned maj, min;
			char pname[64];
			const char *base = strrchr(path, '/');
			base = base ? base + 1 : path;
			/* sdX -> sdX1, loopN/nvmeXnY -> loopNp1 */
			snprintf(pname, sizeof(pname), "%s%s%u", base,
				 (base[strlen(base) - 1] >= '0' && base[strlen(base) - 1] <= '9') ? "p" : "",
				 part);
			snprintf(sys, sizeof(sys), "%s/%s/dev", dir, pname);
			f = fopen(sys, "r");
			if (!f)
				break;
			rc = fgets(line, sizeof(line), f) && sscanf(line, "%u:%u", &maj, &min) == 2;
			fclose(f);
			if (rc) {
				int m = dev_mounted(makedev(maj, min), what, len);
				if (m > 0) {
					size_t l = strlen(what);
					snprintf(what + l, len - l, " (partition %s)", pname);
					return 1;
				}
			}
		}
	}
	return 0;
}

/* Fill [from, to) of fd with pseudo-random data so reads return real bytes. */
static int fill_region(int fd, uint64_t from, uint64_t to, uint64_t seed)
{
	const size_t chunk = 1 << 20;
	uint64_t *buf = malloc(chunk);
	struct rng r;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	rng_seed(&r, seed);
	for (size_t i = 0; i < chunk / 8; i++)
		buf[i] = rng_next(&r);
	while (from < to) {
		size_t n = to - from < chunk ? (size_t)(to - from) : chunk;
		ssize_t w = pwrite(fd, buf, n, (off_t)from);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		from += (uint64_t)w;
		buf[0] ^= from; /* blocks differ, so dedupe does not flatter */
	}
	free(buf);
	if (!rc && fsync(fd))
		rc = -errno;
	return rc;
}

int job_files_layout(const struct job *j, const struct job_files *f, char *err, size_t errlen)
{
	const struct job_opts *o = &j->o;
	bool writes = rw_writes(o->rw) || rw_trims(o->rw);
	bool reads = rw_reads(o->rw);

	for (uint32_t i = 0; i < f->n; i++) {
		const char *p = f->paths[i];
		uint64_t end = f->offset + f->sizes[i];
		struct stat sb;
		int fd, rc = 0;

		if (f->is_blockdev[i]) {
			/* Mounted, stacked on, or holding a filesystem: see blkid_safety.c. */
			if (writes && (rc = blockdev_write_check(o, p, err, errlen)))
				return rc;
			continue;
		}
		if (!f->sizes[i]) {
			snprintf(err, errlen,
				 "job '%s': no size for %s: the file does not exist or is empty; set size= (e.g. size=1g)",
				 o->name, p);
			return -EINVAL;
		}
		fd = open(p, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0 && reads && !writes && errno == EACCES)
			fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			rc = -errno;
			snprintf(err, errlen, "job '%s': cannot open %s: %s", o->name, p, strerror(errno));
			return rc;
		}
		if (fstat(fd, &sb)) {
			rc = -errno;
		} else if ((uint64_t)sb.st_size < end) {
			if (reads) {
				fprintf(stderr, "iorig: %s: laying out %s (%llu MiB)\n", o->name, p,
					(unsigned long long)((end - (uint64_t)sb.st_size) >> 20));
				rc = fill_region(fd, (uint64_t)sb.st_size, end, j->index * 7919ull + i);
			} else if (ftruncate(fd, (off_t)end)) {
				rc = -errno;
			}
		}
		close(fd);
		if (rc) {
			snprintf(err, errlen, "job '%s': cannot lay out %s to %llu bytes: %s", o->name,
				 p, (unsigned long long)end, strerror(-rc));
			return rc;
		}
	}
	return 0;
}
