/*
 * Helpers of every path that starts a child (rbd, rbd-fuse, ceph-fuse,
 * mount): its environment, sleeping, $PATH, redacting options for a
 * message, freeing a mapping. Also ccb_map_run_cmd*() of
 * <ccbench/mapping.h>, which tests and krbd_setup.c call; the state
 * directory is undo_state.c's.
 */
#ifndef CCBENCH_PATHS_MAP_UTIL_H
#define CCBENCH_PATHS_MAP_UTIL_H

#include <ccbench/redact.h>
#include <ccbench/mapping.h>

#include <stdbool.h>
#include <stddef.h>

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

#endif
