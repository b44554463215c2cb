/*
 * Block queue settings in sysfs. The read_ahead_kb change is the one
 * setting ccbench makes on a production host's devices, so its original
 * value goes into the undo log and the crash state file before the write.
 */
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include "device_lock.h"

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

enum ccb_sysfs_restore ccb_sysfs_restore_decision(uint64_t now, uint64_t original, uint64_t set)
{
	if (now == original)
		return CCB_SYSFS_ALREADY;
	/* Anything but the value this run left is someone else's since. */
	return now == set ? CCB_SYSFS_WRITE_BACK : CCB_SYSFS_CHANGED;
}

void ccb_sysfs_changed_msg(const char *disk, uint64_t now, uint64_t set, uint64_t original,
                           char *msg, size_t msg_len)
{
	snprintf(msg, msg_len,
	         "read_ahead_kb of %s: changed by someone else since ccbench set it: now %" PRIu64
	         ", ccbench set %" PRIu64 ", was %" PRIu64 "; left as is",
	         disk, now, set, original);
}

/*
 * Put back @p original on @p path if it still holds @p set_kb (see
 * ccb_sysfs_restore_decision). @return 0 (what happened in @p msg) or
 * -errno.
 */
static int restore_if_ours(const char *disk, const char *path, uint64_t original, uint64_t set_kb,
                           char *msg, size_t msg_len)
{
	uint64_t now;
	int r = ccb_sysfs_read_u64(path, &now);

	if (r == -ENOENT) {
		snprintf(msg, msg_len, "%s: device gone, nothing to restore", disk);
		return 0;
	}
	if (r < 0) {
		snprintf(msg, msg_len, "read %s: %s", path, strerror(-r));
		return r;
	}
	switch (ccb_sysfs_restore_decision(now, original, set_kb)) {
	case CCB_SYSFS_ALREADY:
		snprintf(msg, msg_len, "read_ahead_kb of %s: already %" PRIu64, disk, original);
		return 0;
	case CCB_SYSFS_CHANGED:
		ccb_sysfs_changed_msg(disk, now, set_kb, original, msg, msg_len);
		return 0;
	case CCB_SYSFS_WRITE_BACK:
		break;
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

struct ra_undo {
	char path[PATH_MAX];
	char disk[64];
	uint64_t original;
	uint64_t set_kb;
	struct ccb_devlock *lock; /* held from before the read of original to the end */
};

static void free_ra_undo(void *arg)
{
	struct ra_undo *u = arg;

	/* After the undo ran (or instead of it): the device is free again. */
	ccb_devlock_release(u->lock);
	free(u);
}

static int undo_read_ahead_kb(void *arg)
{
	struct ra_undo *u = arg;
	char msg[PATH_MAX + 256];
	struct stat st;
	int r;

	/* A mapping unwound earlier takes its queue with it: nothing to restore. */
	if (stat(u->path, &st) < 0 && errno == ENOENT)
		return 0;
	msg[0] = '\0';
	r = restore_if_ours(u->disk, u->path, u->original, u->set_kb, msg, sizeof(msg));
	/* Restored or already back: said by the result's "after". */
	if (r < 0 || strstr(msg, "left as is"))
		fprintf(stderr, "ccbench: %s\n", msg);
	return r;
}

int ccb_sysfs_set_read_ahead_kb(const char *disk, uint64_t kb, uint64_t *before, uint64_t *during,
                                int *handle, char *err, size_t err_len)
{
	struct ra_undo *u = calloc(1, sizeof(*u));
	struct ccb_devlock_rec prev;
	char what[160], devs[24];
	bool stale = false;
	dev_t devt;
	json_t *rec;
	int r, h;

	if (!u)
		return -ENOMEM;
	snprintf(u->disk, sizeof(u->disk), "%s", disk);
	ccb_sysfs_queue_attr(ccb_sysfs_root(), disk, "read_ahead_kb", u->path, sizeof(u->path));
	/* One tuner per device: taken before the original is read, so that
	 * no other run's value is ever taken for the device's own. */
	r = ccb_devlock_disk_devt(ccb_sysfs_root(), disk, &devt);
	if (r < 0) {
		snprintf(err, err_len, "read %s/block/%s/dev: %s", ccb_sysfs_root(), disk,
		         strerror(-r));
		free(u);
		return r;
	}
	r = ccb_devlock_acquire(devt, disk, &u->lock, &stale, &prev, err, err_len);
	if (r < 0) {
		free(u);
		return r;
	}
	/* From an earlier boot, its value went with that boot. */
	if (stale && ccb_devlock_same_boot(&prev))
		fprintf(stderr,
		        "ccbench: warning: %s: run pid %ld (%s) ended without putting its settings "
		        "back; its read_ahead_kb may still be in place ('ccbench restore' puts it "
		        "back)\n",
		        disk, prev.pid, prev.command);
	r = ccb_sysfs_read_u64(u->path, &u->original);
	if (r < 0) {
		snprintf(err, err_len, "read %s: %s", u->path, strerror(-r));
		free_ra_undo(u);
		return r;
	}
	u->set_kb = kb;
	*before = u->original;
	snprintf(devs, sizeof(devs), "%u:%u", major(devt), minor(devt));
	snprintf(what, sizeof(what),
	         "read_ahead_kb of %s: put back %" PRIu64 " (set to %" PRIu64 ")", disk,
	         u->original, kb);
	rec = json_pack("{s:s, s:s, s:s, s:s, s:I, s:I}", "kind", "read_ahead_kb", "disk", disk,
	                "device", devs, "path", u->path, "original", (json_int_t)u->original, "set",
	                (json_int_t)kb);
	h = ccb_undo_push_state(what, undo_read_ahead_kb, u, free_ra_undo, rec);
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
	/* The kernel rounds to whole pages; restore must compare with what it
	 * kept, in process and after a crash alike. */
	u->set_kb = *during;
	if (*during != kb)
		ccb_undo_state_set(h, "set", json_integer((json_int_t)*during));
	return 0;
}

int ccb_sysfs_restore_read_ahead_kb(const char *disk, uint64_t original, uint64_t set_kb, char *msg,
                                    size_t msg_len)
{
	struct ccb_devlock *lock = NULL;
	char path[PATH_MAX];
	dev_t devt;
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
	/* A live run tuning the device now owns its value: not ours to judge
	 * until it ends. The dead run's own lock file goes with the release. */
	if (ccb_devlock_disk_devt(ccb_sysfs_root(), disk, &devt) == 0) {
		r = ccb_devlock_acquire(devt, disk, &lock, NULL, NULL, msg, msg_len);
		if (r == -EBUSY) {
			size_t l = strlen(msg);

			snprintf(msg + l, msg_len - l, "; its record is kept for a later restore");
			return r;
		}
		if (r < 0)
			return r;
	}
	r = restore_if_ours(disk, path, original, set_kb, msg, msg_len);
	ccb_devlock_release(lock);
	return r;
}
