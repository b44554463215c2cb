/*
 * Block queue settings in sysfs. The read_ahead_kb change is the one
 * setting ccbench makes on a production host's devices, so its original
 * value goes into the undo log and the crash state file before the write.
 */
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

const char *ccb_sysfs_root(void)
{
	const char *r = getenv("CCB_SYSFS_ROOT");

	return r && r[0] ? r : "/sys";
}

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

/* ---- read_ahead_kb for a run -------------------------------------------- */

struct ra_undo {
	char path[PATH_MAX];
	char disk[64];
	uint64_t original;
	uint64_t set_kb;
};

static int undo_read_ahead_kb(void *arg)
{
	struct ra_undo *u = arg;
	struct stat st;
	int r;

	/* A mapping unwound earlier takes its queue with it: nothing to restore. */
	if (stat(u->path, &st) < 0 && errno == ENOENT)
		return 0;
	r = ccb_sysfs_write_u64(u->path, u->original);
	if (r < 0)
		fprintf(stderr, "ccbench: write %s (restore %" PRIu64 "): %s\n", u->path,
		        u->original, strerror(-r));
	return r;
}

int ccb_sysfs_set_read_ahead_kb(const char *disk, uint64_t kb, uint64_t *before, uint64_t *during,
                                int *handle, char *err, size_t err_len)
{
	struct ra_undo *u = calloc(1, sizeof(*u));
	char what[160];
	json_t *rec;
	int r, h;

	if (!u)
		return -ENOMEM;
	snprintf(u->disk, sizeof(u->disk), "%s", disk);
	ccb_sysfs_queue_attr(ccb_sysfs_root(), disk, "read_ahead_kb", u->path, sizeof(u->path));
	r = ccb_sysfs_read_u64(u->path, &u->original);
	if (r < 0) {
		snprintf(err, err_len, "read %s: %s", u->path, strerror(-r));
		free(u);
		return r;
	}
	u->set_kb = kb;
	*before = u->original;
	snprintf(what, sizeof(what),
	         "read_ahead_kb of %s: put back %" PRIu64 " (set to %" PRIu64 ")", disk,
	         u->original, kb);
	rec = json_pack("{s:s, s:s, s:s, s:I, s:I}", "kind", "read_ahead_kb", "disk", disk, "path",
	                u->path, "original", (json_int_t)u->original, "set", (json_int_t)kb);
	h = ccb_undo_push_state(what, undo_read_ahead_kb, u, free, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the read_ahead_kb of %s in %s: %s", disk,
		         ccb_undo_state_dir(), strerror(-h));
		return h;
	}
	*handle = h;
	r = ccb_sysfs_write_u64(u->path, kb);
	if (r < 0) {
		snprintf(err, err_len, "write %s: %s", u->path, strerror(-r));
		return r; /* the log holds an undo of nothing: harmless */
	}
	r = ccb_sysfs_read_u64(u->path, during);
	if (r < 0) {
		snprintf(err, err_len, "read %s: %s", u->path, strerror(-r));
		return r;
	}
	/* The kernel rounds to whole pages; restore must compare with what it kept. */
	if (*during != kb)
		ccb_undo_state_set(h, "set", json_integer((json_int_t)*during));
	return 0;
}

int ccb_sysfs_restore_read_ahead_kb(const char *disk, uint64_t original, uint64_t set_kb, char *msg,
                                    size_t msg_len)
{
	char path[PATH_MAX];
	uint64_t now;
	int r;

	/* The name comes from a record anyone with access to the state
	 * directory could have written: it goes into a path only if it is a
	 * plain device name ("../../x" would write elsewhere under /sys). */
	if (!ccb_sysfs_valid_disk_name(disk)) {
		snprintf(msg, msg_len,
		         "invalid record: disk '%s' is not a block device name; nothing "
		         "touched",
		         disk ? disk : "(none)");
		return -EINVAL;
	}
	ccb_sysfs_queue_attr(ccb_sysfs_root(), disk, "read_ahead_kb", path, sizeof(path));
	r = ccb_sysfs_read_u64(path, &now);
	if (r == -ENOENT) {
		snprintf(msg, msg_len, "%s: device gone, nothing to restore", disk);
		return 0;
	}
	if (r < 0) {
		snprintf(msg, msg_len, "read %s: %s", path, strerror(-r));
		return r;
	}
	if (now == original) {
		snprintf(msg, msg_len, "read_ahead_kb of %s: already %" PRIu64, disk, original);
		return 0;
	}
	if (now != set_kb) {
		snprintf(msg, msg_len,
		         "read_ahead_kb of %s: now %" PRIu64 ", not the %" PRIu64
		         " the run set; changed since, left as is (it was %" PRIu64 ")",
		         disk, now, set_kb, original);
		return 0;
	}
	r = ccb_sysfs_write_u64(path, original);
	if (r < 0) {
		snprintf(msg, msg_len, "write %s: %s", path, strerror(-r));
		return r;
	}
	snprintf(msg, msg_len, "read_ahead_kb of %s: restored %" PRIu64 " (was %" PRIu64 ")", disk,
	         original, now);
	return 0;
}
