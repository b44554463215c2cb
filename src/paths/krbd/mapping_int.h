/*
 * The internals of krbd mappings, shared by mapping.c (choosing a way,
 * ccb_map()), map_fuse.c (fuse-loop), map_kernel.c (the kernel driver) and
 * map_restore.c (undoing a dead run's records). Each calls only down:
 * map_fuse.c and map_kernel.c on the helpers every path that starts a
 * child or mounts a fuse file system shares (../child.h, ../fuse.h);
 * mapping.c (the dispatcher) on those; map_restore.c, which undoes what
 * all of them made, at the top.
 */
#ifndef CCBENCH_MAPPING_INT_H
#define CCBENCH_MAPPING_INT_H

#include "mapping.h"

#include "../fuse.h"
#include "../child.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- map_fuse.c ---- */

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

/** Close a mapping's descriptors and free it (the undo entry that owns it frees it so). */
void ccb_mapping_free(void *arg);

#endif
