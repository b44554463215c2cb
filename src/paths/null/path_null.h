/* The null path's command rows, for its registry row. */
#ifndef CCBENCH_PATH_NULL_H
#define CCBENCH_PATH_NULL_H

#include <ccbench/cli.h>

/** null write and null read, ending in a row with no name (path_null.c). */
extern const struct ccb_command ccb_null_commands[];

#endif
