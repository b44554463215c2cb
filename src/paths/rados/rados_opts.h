/* The rados path's own options: the struct its rows write in the path block
 * of struct ccb_opts (fio's engine options), and its accessors. */
#ifndef CCBENCH_RADOS_OPTS_H
#define CCBENCH_RADOS_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>

/** The rados path's own options (its rows: rados_commands.c). */
struct ccb_rados_opts {
	uint64_t max_objects; /**< --max-objects: a write run's objects at most */
	bool no_cleanup;      /**< --no-cleanup: keep a write run's objects for read runs */
	bool no_verify;       /**< --no-verify: reads skip the check of what they read */
};

_Static_assert(sizeof(struct ccb_rados_opts) <= CCB_PATH_OPTS_BYTES,
               "ccb_rados_opts: too big for the path block");

/** @p o's options of this path (the path block, struct ccb_opts), to read. */
#define CCB_RADOS_OPTS(o) ((const struct ccb_rados_opts *)(const void *)(o)->path_block.bytes)
/** ... to write (a copy of the options the path makes for itself). */
#define CCB_RADOS_OPTS_W(o) ((struct ccb_rados_opts *)(void *)(o)->path_block.bytes)

#endif
