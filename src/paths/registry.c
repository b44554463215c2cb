/*
 * The path registry: the list of every path's ops table, and the table a
 * run goes through. A new path is one folder and one line here: its ops
 * table, its command rows and its own option rows. It names
 * every table, so it sits above all the paths; the helpers the paths call
 * themselves are path.c, below them.
 */
#include <ccbench/fault.h>
#include <ccbench/osd_inject.h>
#include <ccbench/path_rbd.h>
#include <ccbench/registry.h>
#include <ccbench/restore.h>

#include "fs/path_cephfs.h"
#include "krbd/path_krbd.h"
#include "null/path_null.h"
#include "rados/path_rados.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/*
 * Every path's table. First match wins: a workload bound to a mode comes
 * before its path's default table. A path's command rows hang on one of
 * its rows, and the command table lists them in this order.
 */
static const struct {
	const struct ccb_path_ops *ops;
	bool any_mode;
	enum ccb_mode mode;
} paths[] = {
    {&ccb_path_rados, true, 0},  {&ccb_path_rbd, true, 0},
    {&ccb_path_krbd, true, 0},   {&ccb_path_cephfs_meta, false, CCB_MODE_RW},
    {&ccb_path_cephfs, true, 0}, {&ccb_path_posix_meta, false, CCB_MODE_RW},
    {&ccb_path_posix, true, 0},  {&ccb_path_null, true, 0},
};

#define N_PATHS (sizeof(paths) / sizeof(paths[0]))

const struct ccb_path_ops *ccb_path_find(const char *name, enum ccb_mode mode)
{
	for (size_t i = 0; i < N_PATHS; i++)
		if (strcmp(paths[i].ops->name, name) == 0 &&
		    (paths[i].any_mode || paths[i].mode == mode))
			return paths[i].ops;
	return NULL;
}

const struct ccb_path_ops *ccb_path_at(size_t i, size_t *n_paths)
{
	*n_paths = N_PATHS;
	return i < N_PATHS ? paths[i].ops : NULL;
}

int ccb_paths_init(void)
{
	const struct ccb_opt_desc *groups[N_PATHS];
	size_t n = 0;
	int r;

	for (size_t i = 0; i < N_PATHS; i++) {
		/* A path's own options must fit the block every run's options have. */
		if (paths[i].ops->opts_bytes > CCB_PATH_OPTS_BYTES)
			return -E2BIG;
		if (paths[i].ops->options && (n == 0 || groups[n - 1] != paths[i].ops->options))
			groups[n++] = paths[i].ops->options;
	}
	r = ccb_opt_table_build(groups, n);
	/* Every kind of crash record a run can leave, for restore: the OSD
	 * delay's and the faults' (which any path's run may make) and each path's. */
	if (r == 0)
		r = ccb_undo_kinds_add(ccb_osd_inject_undo_kinds);
	if (r == 0)
		r = ccb_undo_kinds_add(ccb_fault_undo_kinds);
	for (size_t i = 0; r == 0 && i < N_PATHS; i++)
		if (paths[i].ops->undo_kinds)
			r = ccb_undo_kinds_add(paths[i].ops->undo_kinds);
	return r;
}
