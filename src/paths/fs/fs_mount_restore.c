/*
 * `ccbench restore` of a CephFS mount of --mount-via that a dead run left:
 * its record checked against the only shape ccbench writes (ceph-fuse or
 * the kernel client at one of its own mount points, ceph-fuse's log next
 * to it), then taken down. The record's other kinds are krbd's
 * (../krbd/map_restore.c).
 */
#include <ccbench/fs_mount.h>
#include <ccbench/restore.h>

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../fuse.h"

static int invalid(char *msg, size_t msg_len, const char *kind, const char *why, const char *value)
{
	snprintf(msg, msg_len, "invalid record (%s): %s '%.*s'; nothing touched", kind, why, 200,
	         value ? value : "(missing)");
	return -EINVAL;
}

/* A CephFS mount of --mount-via: ceph-fuse or the kernel client at one of
 * our mount points, with ceph-fuse's log next to it. */
int ccb_fsmount_restore(const json_t *rec, char *msg, size_t msg_len)
{
	const char *via = json_string_value(json_object_get(rec, "via"));
	const char *mp = json_string_value(json_object_get(rec, "mountpoint"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	json_t *jpid = json_object_get(rec, "pid");
	json_int_t pid = json_integer_value(jpid);
	char want[PATH_MAX + 8], umsg[2 * PATH_MAX + 512] = "";
	const char *cid;
	enum ccb_fsmount_via v;
	struct stat st;
	int r;

	if (!via || (strcmp(via, "fuse") != 0 && strcmp(via, "kernel") != 0))
		return invalid(msg, msg_len, "fs_mount", "via is not fuse or kernel:", via);
	v = strcmp(via, "fuse") == 0 ? CCB_FSMOUNT_FUSE : CCB_FSMOUNT_KERNEL;
	if (!ccb_fuse_valid_mountpoint(mp))
		return invalid(msg, msg_len, "fs_mount",
		               "mountpoint is not a mount point of ccbench's:", mp);
	snprintf(want, sizeof(want), "%s.log", mp);
	if (log && strcmp(log, want) != 0)
		return invalid(msg, msg_len, "fs_mount",
		               "log is not the log of its mount point:", log);
	if (jpid && (!json_is_integer(jpid) || pid < 0 || pid > INT32_MAX))
		return invalid(msg, msg_len, "fs_mount", "pid is not a process id:", "pid");
	if (lstat(mp, &st) == 0 && !S_ISDIR(st.st_mode))
		return invalid(msg, msg_len, "fs_mount", "mountpoint is not a directory:", mp);
	/* Only the ceph-fuse that still serves this mount point is ours. */
	if (v != CCB_FSMOUNT_FUSE || !ccb_fuse_is_ours((pid_t)pid, "ceph-fuse", mp))
		pid = 0;
	cid = json_string_value(json_object_get(rec, "client_id"));
	r = ccb_fsmount_unmount_at(v, mp, (pid_t)pid, false, SETTLE_MSEC,
	                           cid && strlen(cid) < 32 ? cid : "", umsg, sizeof(umsg));
	if (r < 0) {
		snprintf(msg, msg_len, "%s", umsg);
		return r;
	}
	snprintf(msg, msg_len, "%s: %s unmounted%s%s", mp,
	         v == CCB_FSMOUNT_FUSE ? "ceph-fuse" : "the CephFS kernel mount",
	         umsg[0] ? "; " : "", umsg);
	return 0;
}

static int undo_fs_mount(const json_t *e, const struct ccb_opts *o, char *msg, size_t len)
{
	(void)o;
	return ccb_fsmount_restore(e, msg, len);
}

const struct ccb_undo_kind ccb_fs_undo_kinds[] = {
    {.name = "fs_mount", .undo = undo_fs_mount},
    {0},
};
