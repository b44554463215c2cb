/*
 * `ccbench restore` (alias `krbd restore`) for mappings and mounts: the
 * crash records of a dead run, validated, then undone (loop detach,
 * unmount, unmap; a CephFS mount of --mount-via taken down).
 */
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include "mapping.h"
#include "read_ahead.h"
#include <ccbench/restore.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/loop.h>

#include "../fuse.h"
#include "mapping_int.h"

/* ---- restore after a crash ------------------------------------------------- */

/*
 * A record is a file anyone who could write to the state directory could
 * have made, and restore runs as root: nothing in it is used before it is
 * checked against the only shapes ccbench writes (a loop device over a
 * file under one of its own mount points, a mount point DIR/mnt-XXXXXX,
 * its log DIR/mnt-XXXXXX.log, /dev/rbdN) and then against the live
 * system (sysfs, the mount table, /proc). Anything else is reported as an
 * invalid record and left alone, together with whatever it names.
 */

/* A pool or image name as ccbench records them: no '/', no control characters. */
static bool valid_object_name(const char *s)
{
	size_t n = 0;

	if (!s || !s[0] || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; s[n]; n++)
		if (s[n] == '/' || (unsigned char)s[n] < 0x20 || s[n] == 0x7f || n >= 127)
			return false;
	return true;
}

/* DIR/mnt-XXXXXX/IMAGE: the file rbd-fuse serves in one of our mounts. */
static bool valid_backing(const char *backing)
{
	size_t l = ccb_fuse_own_mountpoint_len(backing);

	return l && backing[l] == '/' && valid_object_name(backing + l + 1);
}

static int invalid(char *msg, size_t msg_len, const char *kind, const char *why, const char *value)
{
	snprintf(msg, msg_len, "invalid record (%s): %s '%.*s'; nothing touched", kind, why, 200,
	         value ? value : "(missing)");
	return -EINVAL;
}

static int restore_loop(const json_t *rec, char *msg, size_t msg_len)
{
	const char *dev = json_string_value(json_object_get(rec, "dev"));
	const char *backing = json_string_value(json_object_get(rec, "backing"));
	char attr[PATH_MAX], cur[PATH_MAX + 16], devt[32], want[PATH_MAX + 16];
	unsigned n, maj, min;
	struct stat st;
	int fd, r = 0;

	if (!ccb_map_parse_numbered(dev, "/dev/loop", &n))
		return invalid(msg, msg_len, "loop", "dev is not /dev/loopN:", dev);
	if (!valid_backing(backing))
		return invalid(msg, msg_len, "loop",
		               "backing is not a file under a mount point of ccbench's:", backing);
	snprintf(attr, sizeof(attr), "%s/block/loop%u/loop/backing_file", ccb_sysfs_root(), n);
	ccb_sysfs_read_line(attr, cur, sizeof(cur));
	/* Exactly the file (the kernel appends " (deleted)" once it is gone). */
	snprintf(want, sizeof(want), "%s (deleted)", backing);
	if (strcmp(cur, backing) != 0 && strcmp(cur, want) != 0) {
		snprintf(msg, msg_len, "%s: no longer attached to %s; nothing to detach", dev,
		         backing);
		return 0;
	}
	/* The node must be that very device, not something put at its name. */
	snprintf(want, sizeof(want), "%s/block/loop%u/dev", ccb_sysfs_root(), n);
	ccb_sysfs_read_line(want, devt, sizeof(devt));
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = -errno;
		snprintf(msg, msg_len, "open %s: %s", dev, strerror(errno));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || sscanf(devt, "%u:%u", &maj, &min) != 2 ||
	    major(st.st_rdev) != maj || minor(st.st_rdev) != min) {
		close(fd);
		snprintf(msg, msg_len, "%s: not the block device %s of sysfs; nothing touched", dev,
		         devt[0] ? devt : "(unknown)");
		return -EINVAL;
	}
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0) {
		r = -errno;
		snprintf(msg, msg_len, "ioctl(%s, LOOP_CLR_FD): %s", dev, strerror(errno));
	} else {
		snprintf(msg, msg_len, "%s: detached from %s", dev, backing);
	}
	close(fd);
	for (int waited = 0; r == 0 && waited < SETTLE_MSEC && access(attr, F_OK) == 0;
	     waited += 20)
		ccb_sleep_msec(20);
	return r;
}

static int restore_fuse(const json_t *rec, char *msg, size_t msg_len)
{
	const char *mp = json_string_value(json_object_get(rec, "mountpoint"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	json_t *jpid = json_object_get(rec, "pid");
	char umsg[PATH_MAX + 64] = "", want[PATH_MAX + 8];
	json_int_t pid = json_integer_value(jpid);
	struct stat st;
	int r;

	if (!ccb_fuse_valid_mountpoint(mp))
		return invalid(msg, msg_len, "fuse",
		               "mountpoint is not a mount point of ccbench's:", mp);
	snprintf(want, sizeof(want), "%s.log", mp);
	if (log && strcmp(log, want) != 0)
		return invalid(msg, msg_len, "fuse", "log is not the log of its mount point:", log);
	if (!json_is_integer(jpid) || pid < 0 || pid > INT32_MAX)
		return invalid(msg, msg_len, "fuse", "pid is not a process id:", "pid");
	if (lstat(mp, &st) == 0 && !S_ISDIR(st.st_mode))
		return invalid(msg, msg_len, "fuse", "mountpoint is not a directory:", mp);
	r = ccb_fuse_unmount(mp, "fuse.rbd-fuse", SETTLE_MSEC, umsg, sizeof(umsg));
	if (r < 0) {
		snprintf(msg, msg_len, "%s", umsg);
		return r;
	}
	if (ccb_fuse_is_ours((pid_t)pid, "rbd-fuse", mp) &&
	    ccb_fuse_stop((pid_t)pid, "rbd-fuse", false, mp, SETTLE_MSEC) < 0) {
		snprintf(msg, msg_len, "rbd-fuse (pid %d) did not exit after unmount of %s",
		         (int)pid, mp);
		return -ETIMEDOUT;
	}
	if (rmdir(mp) < 0 && errno != ENOENT) {
		snprintf(msg, msg_len, "rmdir %s: %s", mp, strerror(errno));
		return -errno;
	}
	/* Only a plain file of ours (unlink would not follow a link, but a
	 * directory or a device at that name is not our log either). */
	if (lstat(want, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
		unlink(want);
	snprintf(msg, msg_len, "%s: rbd-fuse unmounted%s%s", mp, umsg[0] ? "; " : "", umsg);
	return 0;
}

static int restore_krbd(const json_t *rec, char *msg, size_t msg_len)
{
	const char *dev = json_string_value(json_object_get(rec, "dev"));
	const char *pool = json_string_value(json_object_get(rec, "pool"));
	const char *image = json_string_value(json_object_get(rec, "image"));
	const char *snap = json_string_value(json_object_get(rec, "snap"));
	unsigned id;

	if (!valid_object_name(pool))
		return invalid(msg, msg_len, "krbd_map", "pool is not a pool name:", pool);
	if (!valid_object_name(image))
		return invalid(msg, msg_len, "krbd_map", "image is not an image name:", image);
	if (!snap)
		snap = "-"; /* records before snap was written: ccbench maps heads only */
	else if (strcmp(snap, "-") != 0 && !valid_object_name(snap))
		return invalid(msg, msg_len, "krbd_map", "snap is not a snapshot name:", snap);
	if (!dev || (dev[0] && !ccb_map_parse_numbered(dev, "/dev/rbd", &id)))
		return invalid(msg, msg_len, "krbd_map", "dev is not /dev/rbdN:", dev);
	if (!dev[0]) {
		/* The run died inside `rbd device map`. A device of this image
		 * that was not there before may be its, or someone's since:
		 * named, not removed. */
		unsigned ids[8];
		int n = ccb_sysfs_rbd_find(ccb_sysfs_root(), pool, image, snap, ids, 8), k = 0;
		char list[128] = "";
		json_t *pre = json_object_get(rec, "preexisting");

		for (int i = 0; i < n && i < 8; i++) {
			bool old = false;
			size_t j;
			json_t *v;

			json_array_foreach(pre, j, v) old |=
			    json_integer_value(v) == (json_int_t)ids[i];
			if (!old && k++ < 4)
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
				         " /dev/rbd%u", ids[i]);
		}
		snprintf(msg, msg_len, "%s/%s: the map had not finished%s%s%s", pool, image,
		         k ? "; mapped since it began:" : "; no device of it was added", list,
		         k ? " (check with 'rbd device list' and unmap what is not in use)" : "");
		return 0;
	}
	/* Only a device still mapping the recorded image is ours to remove. */
	if (!ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, pool, image, snap)) {
		snprintf(msg, msg_len, "%s: no longer maps %s/%s; nothing to unmap", dev, pool,
		         image);
		return 0;
	}
	if (ccb_map_rbd_remove(id, msg, msg_len) < 0)
		return -EIO;
	snprintf(msg, msg_len, "%s: unmapped %s/%s", dev, pool, image);
	return 0;
}

int ccb_map_restore(const json_t *record, char *msg, size_t msg_len)
{
	const char *kind = json_string_value(json_object_get(record, "kind"));

	if (!kind)
		return -ENOTSUP;
	if (strcmp(kind, "loop") == 0)
		return restore_loop(record, msg, msg_len);
	if (strcmp(kind, "fuse") == 0)
		return restore_fuse(record, msg, msg_len);
	if (strcmp(kind, "krbd_map") == 0)
		return restore_krbd(record, msg, msg_len);
	return -ENOTSUP;
}

static int undo_map(const json_t *e, const struct ccb_opts *o, char *msg, size_t len)
{
	(void)o;
	return ccb_map_restore(e, msg, len);
}

static int undo_read_ahead(const json_t *e, const struct ccb_opts *o, char *msg, size_t len)
{
	const char *disk = json_string_value(json_object_get(e, "disk"));
	json_t *orig = json_object_get(e, "original"), *set = json_object_get(e, "set");

	(void)o;
	if (!json_is_integer(orig) || !json_is_integer(set) || json_integer_value(orig) < 0 ||
	    json_integer_value(set) < 0) {
		snprintf(msg, len,
		         "invalid record (read_ahead_kb): original and set must be "
		         "numbers; nothing touched");
		return -EINVAL;
	}
	return ccb_sysfs_restore_read_ahead_kb(disk, (uint64_t)json_integer_value(orig),
	                                       (uint64_t)json_integer_value(set), msg, len);
}

const struct ccb_undo_kind ccb_krbd_undo_kinds[] = {
    {.name = "read_ahead_kb", .undo = undo_read_ahead},
    {.name = "loop", .undo = undo_map},
    {.name = "fuse", .undo = undo_map},
    {.name = "krbd_map", .undo = undo_map},
    {0},
};
