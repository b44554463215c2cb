/*
 * What the paths that mount a fuse file system share (fuse.c): krbd's
 * rbd-fuse and CephFS's ceph-fuse.
 */
#ifndef CCBENCH_PATHS_FUSE_H
#define CCBENCH_PATHS_FUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How long a fuse helper may take to exit once unmounted, and a loop
 * device to let go of its file. */
#define SETTLE_MSEC 10000

/** Whether @p pid is the @p prog ("rbd-fuse", "ceph-fuse") ccbench started for @p mountpoint. */
bool ccb_fuse_is_ours(pid_t pid, const char *prog, const char *mountpoint);
/** Unmount @p mountpoint while @p fstype is mounted there (EBUSY retried
 *  for @p busy_msec, then detached lazily). */
int ccb_fuse_unmount(const char *mountpoint, const char *fstype, int busy_msec, char *msg,
                     size_t msg_len);
/** The last line that says something of a helper's log @p path (opened
 *  O_NOFOLLOW), its reason; "" when there is none. */
void ccb_fuse_log_reason(const char *path, char *buf, size_t len);
/** Wait up to @p grace_msec for our @p prog at @p mountpoint to exit, then TERM, then KILL. */
int ccb_fuse_stop(pid_t pid, const char *prog, bool child, const char *mountpoint, int grace_msec);
/** Length of "DIR/mnt-XXXXXX" at the start of @p path (DIR the state
 *  directory, X as mkdtemp makes them), or 0 when it does not start so. */
size_t ccb_fuse_own_mountpoint_len(const char *path);
/** Whether @p mp is exactly one of ccbench's mount points, DIR/mnt-XXXXXX. */
bool ccb_fuse_valid_mountpoint(const char *mp);

#endif
