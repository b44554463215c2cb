/**
 * @file registry.h
 * The path registry (src/paths/registry.c): the list of every path's ops
 * table, in the order help lists their commands. A new path is a folder
 * src/paths/X/ and one row there. It names every table, so it sits above
 * all the paths; what the paths call themselves is path.h, below them.
 */
#ifndef CCBENCH_REGISTRY_H
#define CCBENCH_REGISTRY_H

#include <stddef.h>

#include <ccbench/engine.h>
#include <ccbench/path.h>

/** The table of path @p name for a command of mode @p mode, or NULL. */
const struct ccb_path_ops *ccb_path_find(const char *name, enum ccb_mode mode);

/**
 * The table of the @p i th row of the registry, or NULL past the end;
 * *@p n_paths receives the number of rows. The command table lists the
 * rows' commands (struct ccb_path_ops.commands) first, in this order.
 */
const struct ccb_path_ops *ccb_path_at(size_t i, size_t *n_paths);

/**
 * Start-up: give the option table every path's own option rows, in the
 * registry's order (ccb_opt_table_build()), and restore every kind of
 * crash record (ccb_undo_kinds_add(): the cluster's and each path's).
 * Before any option is parsed or shown (ccb_commands_init() calls it).
 *
 * @return 0, or ccb_opt_table_build()'s or ccb_undo_kinds_add()'s -errno.
 */
int ccb_paths_init(void);

#endif
