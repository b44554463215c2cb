/**
 * @file fs_mount.h
 * CephFS mounts that ccbench makes for a run (--mount-via fuse|kernel):
 * ceph-fuse, or mount -t ceph (the kernel client), each at a fresh mount
 * point DIR/mnt-XXXXXX of the state directory, logged in the undo log with
 * a crash record before it is made, unmounted in reverse on every end and
 * by `ccbench restore` after a crash (ccb_fsmount_restore() validates the
 * record and calls ccb_fsmount_unmount_at()).
 */
#ifndef CCBENCH_FS_MOUNT_H
#define CCBENCH_FS_MOUNT_H

#include <ccbench/restore.h>
#include <limits.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <ccbench/options.h>

enum ccb_fsmount_via {
	CCB_FSMOUNT_FUSE,   /* ceph-fuse -f, in a session of its own */
	CCB_FSMOUNT_KERNEL, /* mount -t ceph :/ MP -o name=,conf=,noshare,... */
};

struct ccb_fsmount {
	enum ccb_fsmount_via via;
	char mountpoint[PATH_MAX];
	char log[PATH_MAX]; /* fuse: ceph-fuse's stderr */
	bool log_made;
	pid_t pid;          /* fuse: ceph-fuse */
	char client_id[64]; /* its MDS session, "client4520" (ceph.client_id), or "" */
	char options[1024]; /* what went to -o */
	/* How long an unmount may take before the hint is printed. */
	unsigned bound_msec;
};

/* "fuse" or "kernel". */
const char *ccb_fsmount_via_name(enum ccb_fsmount_via via);

/* The file system type the mount shows in /proc/self/mountinfo. */
const char *ccb_fsmount_fstype(enum ccb_fsmount_via via);

/*
 * Whether @p via ("fuse", "kernel") can mount on this host, changing
 * nothing: ceph-fuse in PATH and /dev/fuse; the kernel's ceph file system
 * (in /proc/filesystems, or a module of the running kernel) and
 * mount.ceph. @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_fsmount_available(const char *via, char *err, size_t err_len);

/*
 * The -o of a kernel mount for @p o: name=ID, conf=PATH (mount.ceph reads
 * the monitors and the key from them and hands the key to the kernel
 * through its keyring, never on a command line), noshare (each mount its
 * own client, as a node of its own), mount_timeout (--connect-timeout),
 * osd_request_timeout (--op-timeout), fs=NAME for -o client_fs=NAME, then
 * --mount-options. Pure: no I/O. @return 0 or -ENAMETOOLONG.
 */
int ccb_fsmount_kernel_options(const struct ccb_opts *o, char *buf, size_t len);

/*
 * Mount the CephFS of @p o for @p who ("the control mount", "client 0")
 * through @p via. The undo entry (and crash record) is pushed before the
 * mount is made; *@p out is owned by the undo log from then on, also on
 * failure. Bounded by --connect-timeout (plus 5 s).
 *
 * @return 0, or -errno with the reason in @p err.
 */
int ccb_fsmount(const struct ccb_opts *o, enum ccb_fsmount_via via, const char *who,
                struct ccb_fsmount **out, char *err, size_t err_len);

/*
 * Unmount what ccbench mounted at @p mp through @p via, if it is still
 * mounted there: umount, EBUSY retried, then forced (kernel) or with
 * ceph-fuse stopped (fuse, @p pid when it is still that ceph-fuse; @p
 * child: our own child, to be reaped), then detached lazily. An unmount
 * stuck past @p bound_msec is left running and the exact command to
 * finish by hand is in @p msg. Then the mount point and log go. @p
 * client_id (may be ""): the mount's MDS session; when the client had to
 * be ended without closing it, @p msg says how to free the caps it holds.
 *
 * @return 0 (what happened in @p msg, maybe nothing), or -errno.
 */
int ccb_fsmount_unmount_at(enum ccb_fsmount_via via, const char *mp, pid_t pid, bool child,
                           unsigned bound_msec, const char *client_id, char *msg, size_t msg_len);

/**
 * `ccbench restore` of a dead run's "fs_mount" record: checked against the
 * only shape ccbench writes (ceph-fuse or the kernel client at one of its
 * own mount points, ceph-fuse's log beside it), then unmounted.
 *
 * @return 0 (what happened in @p msg), -EINVAL (an invalid record, said in
 *         @p msg, nothing touched), or -errno of the unmount.
 */
int ccb_fsmount_restore(const json_t *rec, char *msg, size_t msg_len);

/** The crash record kind of a CephFS mount, for restore. */
extern const struct ccb_undo_kind ccb_fs_undo_kinds[];

#endif
