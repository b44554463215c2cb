/* The fs path's command rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_FS_COMMANDS_H
#define CCBENCH_FS_COMMANDS_H

#include <ccbench/cli.h>

/** fs write|read|meta, ending in a row with no name (fs_commands.c). */
extern const struct ccb_command ccb_cephfs_commands[];

#endif
