/*
 * The path registry: the list of every path's ops table, and the table a
 * run goes through. A new path is one file and one line here. It names
 * every table, so it sits above all the paths; the helpers the paths call
 * themselves are path.c, below them.
 */
#include <ccbench/path.h>

#include <stdbool.h>
#include <string.h>

const struct ccb_path_ops *ccb_path_find(const char *name, enum ccb_mode mode)
{
	/* First match wins: a workload bound to a mode comes before its
	 * path's default table. */
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

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (strcmp(paths[i].ops->name, name) == 0 &&
		    (paths[i].any_mode || paths[i].mode == mode))
			return paths[i].ops;
	return NULL;
}

const struct ccb_path_ops *ccb_path_for(const struct ccb_path_ops *ops, const struct ccb_opts *o)
{
	return ops && ops->variant ? ops->variant(ops, o) : ops;
}
