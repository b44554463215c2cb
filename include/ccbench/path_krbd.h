/**
 * @file path_krbd.h
 * What the krbd path offers beyond its ops table (ccb_path_krbd in
 * path.h): undoing what a killed run left on the host.
 */
#ifndef CCBENCH_PATH_KRBD_H
#define CCBENCH_PATH_KRBD_H

#include <ccbench/options.h>

/**
 * `ccbench restore` (alias `krbd restore`): for every state file of a dead run (see
 * undo.h), put back its read_ahead_kb values, detach its loop devices,
 * unmount its rbd-fuse mounts and unmap its kernel mappings, newest
 * first, printing one line per record on stdout. With --device, only the
 * read_ahead_kb of that device is restored. Records that cannot be undone
 * stay in their file for the next attempt.
 *
 * @return 0 (also when there was nothing to restore), -EINVAL (bad
 *         --device: exit 2), or the first -errno an undo returned.
 */
int ccb_krbd_restore(const struct ccb_opts *o);

#endif
