/**
 * @file path_rados.h
 * What the rados path offers beyond its ops table: removing what earlier
 * runs left behind.
 */
#ifndef CCBENCH_PATH_RADOS_H
#define CCBENCH_PATH_RADOS_H

#include <ccbench/command.h>
#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>
#include <ccbench/path.h>

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

/**
 * `ccbench cleanup`: remove the objects of --run-name (or of every
 * ccbench run in the namespace with --all-runs). Only names ccbench
 * writes (RUN.meta with a ccbench header, RUN.NNNNNNNN) are touched.
 *
 * @return 0, -EINVAL / -ENOENT for bad input (exit 2), or another -errno.
 */
int ccb_rados_cleanup(const struct ccb_opts *o);

struct ccb_cli;

/** The cleanup command's run (struct ccb_command): ccb_rados_cleanup() as
 *  an exit status, 0, 2 for -EINVAL or -ENOENT, else 1. */
int ccb_rados_cleanup_run(const struct ccb_cli *cli, int argc, char **argv);

/** The rados path's table (path_rados.c), a row of src/paths/registry.c. */
extern const struct ccb_path_ops ccb_path_rados;

/** rados write|seq|rand and cleanup, ending in a row with no name (rados_commands.c). */
extern const struct ccb_command ccb_rados_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (rados_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_rados_options[];

#endif
