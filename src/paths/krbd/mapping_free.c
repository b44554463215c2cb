/*
 * Letting go of a mapping: below the ways of making one (map_kernel.c,
 * map_fuse.c) and their dispatcher (mapping.c), which all free one, so
 * that none of them calls another's file for it.
 */
#include "mapping.h"

#include <stdlib.h>
#include <unistd.h>

#include "mapping_int.h"
void ccb_mapping_free(void *arg)
{
	struct ccb_mapping *m = arg;

	if (m->loop_fd >= 0)
		close(m->loop_fd);
	if (m->backing_fd >= 0)
		close(m->backing_fd);
	free(m);
}
