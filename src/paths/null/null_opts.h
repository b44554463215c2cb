/* The null path's own options: the struct its rows write in the path block
 * of struct ccb_opts (fio's engine options), and its accessors. */
#ifndef CCBENCH_NULL_OPTS_H
#define CCBENCH_NULL_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>

/** The null path's own options (its rows: path_null.c). */
struct ccb_null_opts {
	uint64_t complete_after_usec; /**< --complete-after: each op's service time (0: at once) */
};

_Static_assert(sizeof(struct ccb_null_opts) <= CCB_PATH_OPTS_BYTES,
               "ccb_null_opts: too big for the path block");

/** @p o's options of the null path (the path block, struct ccb_opts). */
#define CCB_NULL_OPTS(o) ((const struct ccb_null_opts *)(const void *)(o)->path_block.bytes)

#endif
