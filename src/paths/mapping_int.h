/*
 * The internals of krbd mappings, shared by mapping.c (choosing a way,
 * ccb_map()), map_fuse.c (fuse-loop), map_kernel.c (the kernel driver),
 * fs_mount.c (CephFS mounts of --mount-via), map_restore.c (undoing a dead
 * run's records) and map_util.c, below them all (child processes; the
 * state directory is undo_state.c's). Each calls only down: map_util.c at the bottom;
 * map_fuse.c and map_kernel.c on it; mapping.c (the dispatcher) and
 * fs_mount.c (which stops its ceph-fuse as map_fuse.c stops rbd-fuse) on
 * those; map_restore.c, which undoes what all of them made, at the top.
 */
#ifndef CCBENCH_MAPPING_INT_H
#define CCBENCH_MAPPING_INT_H

#include <ccbench/mapping.h>

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How long rbd-fuse may take to exit once unmounted, and the loop device to
 * let go of its file. */
#define SETTLE_MSEC 10000

/* ---- map_util.c (also ccb_map_run_cmd*() of mapping.h, which tests and
 * krbd_setup.c call) ---- */

void ccb_map_sleep_msec(long ms);
/** Whether @p prog is an executable in $PATH. */
bool ccb_map_in_path(const char *prog);
/** The environment of rbd, rbd-fuse: ours plus the connection options of @p o. */
char **ccb_map_child_env(const struct ccb_opts *o);
void ccb_map_free_env(char **env);
/** ccb_redact_text() of @p buf, back into @p buf: map and mount options in messages. */
void ccb_map_redact_in_place(char *buf, size_t len);
/** Close a mapping's descriptors and free it (the undo entry that owns it frees it so). */
void ccb_map_free_mapping(void *arg);

/* ---- map_fuse.c ---- */

/** The type of the file system mounted at @p dir ("fuse.rbd-fuse"), "" when none. */
void ccb_map_mount_type(const char *dir, char *type, size_t len);
/** Whether @p pid is the @p prog ("rbd-fuse", "ceph-fuse") ccbench started for @p mountpoint. */
bool ccb_map_is_our_fuse(pid_t pid, const char *prog, const char *mountpoint);
/** Unmount @p mountpoint while @p fstype is mounted there (EBUSY retried
 *  for @p busy_msec, then detached lazily). */
int ccb_map_unmount_fuse(const char *mountpoint, const char *fstype, int busy_msec, char *msg,
                         size_t msg_len);
/** The last line that says something of a helper's log @p path (opened
 *  O_NOFOLLOW), its reason; "" when there is none. */
void ccb_map_log_reason(const char *path, char *buf, size_t len);
/** Wait up to @p grace_msec for our @p prog at @p mountpoint to exit, then TERM, then KILL. */
int ccb_map_stop_fuse(pid_t pid, const char *prog, bool child, const char *mountpoint,
                      int grace_msec);
/** rbd-fuse, its mount and a loop device over the image file, each in the undo log. */
int ccb_map_do_fuse_loop(const struct ccb_opts *o, struct ccb_mapping *m, char *err,
                         size_t err_len);

/* ---- map_kernel.c ---- */

/** "PREFIX" then a device number and nothing else. */
bool ccb_map_parse_numbered(const char *s, const char *prefix, unsigned *n);
/** Unmap /dev/rbd@p id through /sys/bus/rbd/remove_single_major. */
int ccb_map_rbd_remove(unsigned id, char *msg, size_t msg_len);
/** `rbd device map --read-only`, in the undo log; a key in the map options
 *  is refused (ccb_map_options_check()), never put on rbd's argv. */
int ccb_map_do_kernel(const struct ccb_opts *o, struct ccb_mapping *m, int mons, char *err,
                      size_t err_len);

#endif
