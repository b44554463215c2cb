/*
 * Block devices in sysfs, read only: which disk serves a device node, its
 * queue limits, the kernel rbd driver's mappings. Changing read_ahead_kb,
 * with its undo and its lock, is read_ahead.c, a layer above: this file
 * calls nothing of ccbench's, so the core (cluster_state.c) may use it.
 */
#include <ccbench/sysfs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

int ccb_sysfs_parse_u64(const char *text, uint64_t *out)
{
	uint64_t v = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (UINT64_MAX - (uint64_t)(*p - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '\n')
		p++;
	if (*p)
		return -EINVAL;
	*out = v;
	return 0;
}

int ccb_sysfs_read_u64(const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	close(fd);
	buf[n] = '\0';
	return ccb_sysfs_parse_u64(buf, out);
}

int ccb_sysfs_write_u64(const char *path, uint64_t value)
{
	char buf[32];
	int len = snprintf(buf, sizeof(buf), "%" PRIu64 "\n", value);
	ssize_t n;
	/* O_TRUNC as the shell's "echo N > attr" does: sysfs ignores it, and a
	 * fake tree of plain files (unit tests) stays parseable. */
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = write(fd, buf, (size_t)len);
	if (n < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	/* sysfs stores on write; close reports nothing for attributes. */
	close(fd);
	return n == len ? 0 : -EIO;
}

/* Last component of @p path into @p out. */
static int basename_into(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	const char *b = slash ? slash + 1 : path;

	if (!*b)
		return -ENOENT;
	if (snprintf(out, len, "%s", b) >= (int)len)
		return -ENAMETOOLONG;
	return 0;
}

/* Given the resolved sysfs directory of a block device, the disk: itself,
 * or its parent directory when it is a partition. */
static int disk_of_dir(const char *dir, char *name, size_t name_len, char *disk, size_t disk_len)
{
	char part[PATH_MAX + 16], parent[PATH_MAX];
	struct stat st;
	int r;

	if (name && (r = basename_into(dir, name, name_len)) < 0)
		return r;
	if (snprintf(part, sizeof(part), "%s/partition", dir) >= (int)sizeof(part))
		return -ENAMETOOLONG;
	if (stat(part, &st) < 0)
		return basename_into(dir, disk, disk_len);
	snprintf(parent, sizeof(parent), "%s", dir);
	char *slash = strrchr(parent, '/');
	if (!slash)
		return -ENOENT;
	*slash = '\0';
	return basename_into(parent, disk, disk_len);
}

int ccb_sysfs_disk_of_name(const char *root, const char *name, char *disk, size_t disk_len)
{
	char link[PATH_MAX], dir[PATH_MAX];

	if (!name[0] || strchr(name, '/'))
		return -ENOENT;
	if (snprintf(link, sizeof(link), "%s/class/block/%s", root, name) >= (int)sizeof(link))
		return -ENAMETOOLONG;
	/* class/block/NAME is a symlink into devices/; the partition's parent
	 * directory is only visible after resolving it. */
	if (!realpath(link, dir))
		return -errno;
	return disk_of_dir(dir, NULL, 0, disk, disk_len);
}

int ccb_sysfs_disk_of_devt(const char *root, dev_t devt, char *name, size_t name_len, char *disk,
                           size_t disk_len)
{
	char link[PATH_MAX], dir[PATH_MAX];

	if (snprintf(link, sizeof(link), "%s/dev/block/%u:%u", root, major(devt), minor(devt)) >=
	    (int)sizeof(link))
		return -ENAMETOOLONG;
	if (!realpath(link, dir))
		return -errno;
	return disk_of_dir(dir, name, name_len, disk, disk_len);
}

void ccb_sysfs_queue_attr(const char *root, const char *disk, const char *attr, char *buf,
                          size_t len)
{
	snprintf(buf, len, "%s/block/%s/queue/%s", root, disk, attr);
}

int ccb_sysfs_queue_info(const char *root, const char *disk, struct ccb_queue_info *qi)
{
	static const struct {
		const char *attr;
		size_t off;
	} attrs[] = {
	    {"optimal_io_size", offsetof(struct ccb_queue_info, optimal_io_size)},
	    {"max_sectors_kb", offsetof(struct ccb_queue_info, max_sectors_kb)},
	    {"max_hw_sectors_kb", offsetof(struct ccb_queue_info, max_hw_sectors_kb)},
	    {"nr_requests", offsetof(struct ccb_queue_info, nr_requests)},
	    {"logical_block_size", offsetof(struct ccb_queue_info, logical_block_size)},
	    {"rotational", offsetof(struct ccb_queue_info, rotational)},
	};
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		uint64_t *field = (uint64_t *)((char *)qi + attrs[i].off);

		ccb_sysfs_queue_attr(root, disk, attrs[i].attr, path, sizeof(path));
		if (ccb_sysfs_read_u64(path, field) < 0)
			*field = UINT64_MAX;
	}
	ccb_sysfs_queue_attr(root, disk, "read_ahead_kb", path, sizeof(path));
	return ccb_sysfs_read_u64(path, &qi->read_ahead_kb);
}

bool ccb_sysfs_valid_disk_name(const char *name)
{
	size_t n = 0;

	if (!name || !name[0] || name[0] == '-')
		return false;
	for (const char *p = name; *p; p++, n++) {
		bool ok = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		          (*p >= '0' && *p <= '9') || *p == '_' || *p == '-';
		if (!ok || n >= 31)
			return false;
	}
	return true;
}

/* The first line of ROOT/bus/rbd/devices/ID/ATTR, newline cut; "" when unreadable. */
void ccb_sysfs_read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	buf[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static void rbd_attr(const char *root, unsigned id, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	if (snprintf(path, sizeof(path), "%s/bus/rbd/devices/%u/%s", root, id, attr) >=
	    (int)sizeof(path))
		return;
	ccb_sysfs_read_line(path, buf, len);
}

bool ccb_sysfs_rbd_maps(const char *root, unsigned id, const char *pool, const char *image,
                        const char *snap)
{
	char v[256];

	rbd_attr(root, id, "pool", v, sizeof(v));
	if (!v[0] || strcmp(v, pool) != 0)
		return false;
	rbd_attr(root, id, "name", v, sizeof(v));
	if (!v[0] || strcmp(v, image) != 0)
		return false;
	/* Drivers before current_snap existed mapped heads only when asked for one. */
	rbd_attr(root, id, "current_snap", v, sizeof(v));
	return strcmp(v[0] ? v : "-", snap) == 0;
}

static int cmp_unsigned(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

int ccb_sysfs_rbd_find(const char *root, const char *pool, const char *image, const char *snap,
                       unsigned *ids, size_t max)
{
	char dir[PATH_MAX];
	struct dirent *de;
	size_t stored = 0;
	int found = 0;
	DIR *d;

	if (snprintf(dir, sizeof(dir), "%s/bus/rbd/devices", root) >= (int)sizeof(dir))
		return 0;
	d = opendir(dir);
	if (!d)
		return errno == ENOMEM ? -ENOMEM : 0;
	while ((de = readdir(d)) != NULL) {
		char *end;
		unsigned long id;

		/* Entries are the device ids: digits only, no leading zero. */
		if (de->d_name[0] < '0' || de->d_name[0] > '9' ||
		    (de->d_name[0] == '0' && de->d_name[1]))
			continue;
		errno = 0;
		id = strtoul(de->d_name, &end, 10);
		if (*end || errno || id > 0xffffffu)
			continue;
		if (!ccb_sysfs_rbd_maps(root, (unsigned)id, pool, image, snap))
			continue;
		if (stored < max)
			ids[stored++] = (unsigned)id;
		found++;
	}
	closedir(d);
	if (stored)
		qsort(ids, stored, sizeof(*ids), cmp_unsigned);
	return found;
}
