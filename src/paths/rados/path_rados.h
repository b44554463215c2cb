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
