/* The librbd path's own options: the struct its rows write in the path block
 * of struct ccb_opts (fio's engine options), and its accessors. */
#ifndef CCBENCH_RBD_OPTS_H
#define CCBENCH_RBD_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>

/** The librbd path's own options (its rows: rbd_commands.c). */
struct ccb_rbd_opts {
	const char *image; /**< POOL/NAME of an existing image */
	bool allow_write_existing;
	const char *pattern; /**< "seq" or "rand" */
	uint64_t rw_mix_read_pct;
	uint64_t readahead_bytes;
	uint64_t readahead_trigger;
	uint64_t readahead_disable_after_bytes;
	const char *cache_policy;
	uint64_t cache_size_bytes;
	bool no_cache;
};

_Static_assert(sizeof(struct ccb_rbd_opts) <= CCB_PATH_OPTS_BYTES,
               "ccb_rbd_opts: too big for the path block");

/** @p o's options of this path (the path block, struct ccb_opts), to read. */
#define CCB_RBD_OPTS(o) ((const struct ccb_rbd_opts *)(const void *)(o)->path_block.bytes)
/** ... to write (a copy of the options the path makes for itself). */
#define CCB_RBD_OPTS_W(o) ((struct ccb_rbd_opts *)(void *)(o)->path_block.bytes)

#endif
