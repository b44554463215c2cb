/*
 * What every path's table answers through one function: the table a run
 * goes through, queue depth, a target image, a temporary image. The paths call these too, so
 * this file sits below all of them; the list of the paths' tables is
 * src/paths/registry.c, above them.
 */
#include <ccbench/path.h>

#include <stdbool.h>

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

	if (!d)
		return;
	/* The option is the path's own: its block holds that path's options. */
	if (o->path_block_of != (d->cmds & CCB_CMD_PATHS))
		ccb_opts_block_select(o, d->cmds & CCB_CMD_PATHS);
	*(const char **)(void *)((char *)o + d->offset) = spec;
}

const struct ccb_path_ops *ccb_path_for(const struct ccb_path_ops *ops, const struct ccb_opts *o)
{
	return ops && ops->variant ? ops->variant(ops, o) : ops;
}
