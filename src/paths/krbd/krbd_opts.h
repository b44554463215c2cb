/* The krbd path's own options: the struct its rows write in the path block
 * of struct ccb_opts (fio's engine options), and its accessors. */
#ifndef CCBENCH_KRBD_OPTS_H
#define CCBENCH_KRBD_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>

/** The krbd path's own options (its rows: krbd_commands.c). */
struct ccb_krbd_opts {
	const char *map;     /**< POOL/IMAGE to map for the run */
	const char *map_via; /**< auto | kernel | fuse-loop */
	const char *map_options;
	uint64_t read_ahead_kb;
	uint64_t offset_bytes;
	uint64_t streams;
};

_Static_assert(sizeof(struct ccb_krbd_opts) <= CCB_PATH_OPTS_BYTES,
               "ccb_krbd_opts: too big for the path block");

/** @p o's options of this path (the path block, struct ccb_opts), to read. */
#define CCB_KRBD_OPTS(o) ((const struct ccb_krbd_opts *)(const void *)(o)->path_block.bytes)
/** ... to write (a copy of the options the path makes for itself). */
#define CCB_KRBD_OPTS_W(o) ((struct ccb_krbd_opts *)(void *)(o)->path_block.bytes)

#endif
