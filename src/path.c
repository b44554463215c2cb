/* The path registry: a new path is one file and one line here. */
#include <ccbench/path.h>

#include <string.h>

const struct ccb_path_ops *ccb_path_find(const char *name)
{
	static const struct ccb_path_ops *const paths[] = {&ccb_path_rados, &ccb_path_rbd,
							    &ccb_path_krbd, &ccb_path_cephfs};

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (strcmp(paths[i]->name, name) == 0)
			return paths[i];
	return NULL;
}
