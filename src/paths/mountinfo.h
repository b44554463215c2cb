/**
 * @file mountinfo.h
 * What /proc/self/mountinfo says of a mount: its type, source and options,
 * the per-mount and the file system's (super) ones. Read-only.
 */
#ifndef CCBENCH_MOUNTINFO_H
#define CCBENCH_MOUNTINFO_H

#include <limits.h>
#include <stddef.h>

struct ccb_mountinfo {
	int id, parent;
	unsigned major, minor;
	char root[PATH_MAX];       /**< the mount's root within its file system */
	char mountpoint[PATH_MAX]; /**< unescaped */
	char mount_options[512];   /**< per mount: rw,noatime,... */
	char fstype[64];           /**< ceph, fuse.ceph-fuse, xfs, tmpfs ... */
	char source[512];          /**< unescaped */
	char super_options[1024];  /**< the file system's: rasize=..., secret=<hidden> ... */
};

/**
 * Parse one line of mountinfo ("id parent maj:min root mountpoint opts
 * [optional...] - fstype source superopts"), undoing the octal escapes
 * (\040 for a space) of the path fields.
 *
 * @return 0, or -EINVAL for a line not of that shape.
 */
int ccb_mountinfo_parse(const char *line, struct ccb_mountinfo *mi);

/**
 * The mount @p path (resolved) is on: among the mounts of its device, the
 * one whose mount point is the longest leading part of the path (the last
 * mounted when several are, the visible one).
 *
 * @return 0, or -errno (-ENOENT: no mount found).
 */
int ccb_mountinfo_of(const char *path, struct ccb_mountinfo *mi);

/**
 * The visible mount at exactly @p mountpoint (the last listed there).
 *
 * @return 0, or -ENOENT when nothing is mounted there.
 */
int ccb_mountinfo_at(const char *mountpoint, struct ccb_mountinfo *mi);

/**
 * The value of @p key in comma-separated @p opts ("" for a bare flag),
 * copied into @p val; NULL when absent. The last occurrence wins.
 */
const char *ccb_mountinfo_option(const char *opts, const char *key, char *val, size_t val_len);

/** The type of the file system mounted at @p dir ("fuse.rbd-fuse"), "" when none. */
void ccb_mountinfo_fstype(const char *dir, char *type, size_t len);

#endif
