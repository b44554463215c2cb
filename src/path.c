/* The path registry: a new path is one file and one line here. */
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
	    {&ccb_path_cephfs, true, 0},
	};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (strcmp(paths[i].ops->name, name) == 0 &&
		    (paths[i].any_mode || paths[i].mode == mode))
			return paths[i].ops;
	return NULL;
}
