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

uint64_t ccb_path_op_bytes(const struct ccb_path_ops *ops, const struct ccb_opts *o)
{
	const struct ccb_opt_desc *d = ops->op_size_opt ? ccb_opt_find(ops->op_size_opt) : NULL;

	return d ? *(const uint64_t *)(const void *)((const char *)o + d->offset) : 0;
}

uint64_t ccb_path_queue_depth(const struct ccb_path_ops *ops, const struct ccb_opts *o)
{
	if (ops->flags & CCB_PATH_SYNC)
		return 1;
	return ops->queue_depth ? ops->queue_depth(o) : o->queue_depth;
}

bool ccb_path_temp_image(const struct ccb_path_ops *ops, const struct ccb_opts *o)
{
	return (ops->flags & CCB_PATH_TEMP_IMAGE) && !(ops->has_target && ops->has_target(o));
}

void ccb_path_set_target(const struct ccb_path_ops *ops, struct ccb_opts *o, const char *spec)
{
	const struct ccb_opt_desc *d = ops->target_opt ? ccb_opt_find(ops->target_opt) : NULL;

	if (d)
		*(const char **)(void *)((char *)o + d->offset) = spec;
}
