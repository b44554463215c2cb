/* The null path's table and command rows, for its registry row. */
#ifndef CCBENCH_PATH_NULL_H
#define CCBENCH_PATH_NULL_H

#include <ccbench/command.h>
#include <ccbench/path.h>

/** The null path: every op done at once, no cluster (path_null.c). */
extern const struct ccb_path_ops ccb_path_null;

/** null write and null read, ending in a row with no name (path_null.c). */
extern const struct ccb_command ccb_null_commands[];

#endif
