/* The krbd path's face: its table, command rows and option rows, for its
 * row in src/paths/registry.c. */
#ifndef CCBENCH_PATH_KRBD_H
#define CCBENCH_PATH_KRBD_H

#include <ccbench/command.h>
#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>
#include <ccbench/path.h>

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

/** The kernel block device path's table (path_krbd.c). */
extern const struct ccb_path_ops ccb_path_krbd;

/** krbd read|randread, ending in a row with no name
 * (krbd_commands.c).
 */
extern const struct ccb_command ccb_krbd_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (krbd_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_krbd_options[];

#endif
