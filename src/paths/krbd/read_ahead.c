/*
 * read_ahead_kb for a run: the one setting ccbench makes on a production
 * host's devices, so its original value goes into the undo log and the
 * crash state file before the write, one run at a time holds a device
 * (device_lock.c), and every restore writes back only what is still ours.
 */
#include <ccbench/host.h>
#include "read_ahead.h"
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
