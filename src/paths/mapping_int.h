/*
 * The internals of krbd mappings, shared by mapping.c (choosing a way,
 * child processes, ccb_map()), map_fuse.c (fuse-loop), map_kernel.c (the
 * kernel driver) and map_restore.c (undoing a dead run's records).
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

/* ---- mapping.c: child processes ---- */

void ccb_map_sleep_msec(long ms);
/** The environment of rbd, rbd-fuse: ours plus the connection options of @p o. */
char **ccb_map_child_env(const struct ccb_opts *o);
void ccb_map_free_env(char **env);
/** Start @p argv in its own session with stdout/stderr on the given fds. */
pid_t ccb_map_spawn(char *const argv[], char **env, int out_fd, int err_fd);

/* ---- map_fuse.c ---- */

/** Whether @p pid is the rbd-fuse ccbench started for @p mountpoint. */
bool ccb_map_is_our_fuse(pid_t pid, const char *mountpoint);
int ccb_map_unmount_fuse(const char *mountpoint, int busy_msec, char *msg, size_t msg_len);
int ccb_map_stop_fuse(pid_t pid, bool child, const char *mountpoint, int grace_msec);
void ccb_map_free_mapping(void *arg);
/** rbd-fuse, its mount and a loop device over the image file, each in the undo log. */
int ccb_map_do_fuse_loop(const struct ccb_opts *o, struct ccb_mapping *m, char *err,
                         size_t err_len);

/* ---- map_kernel.c ---- */

/** "PREFIX" then a device number and nothing else. */
bool ccb_map_parse_numbered(const char *s, const char *prefix, unsigned *n);
/** Unmap /dev/rbd@p id through /sys/bus/rbd/remove_single_major. */
int ccb_map_rbd_remove(unsigned id, char *msg, size_t msg_len);
/** `rbd device map --read-only`, in the undo log. */
int ccb_map_do_kernel(const struct ccb_opts *o, struct ccb_mapping *m, int mons_v1, char *err,
                      size_t err_len);

#endif
