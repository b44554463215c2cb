/* The fs path's command and option rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_FS_COMMANDS_H
#define CCBENCH_FS_COMMANDS_H

#include <ccbench/cli.h>
#include <ccbench/options.h>

/** fs write|read|meta, ending in a row with no name (fs_commands.c). */
extern const struct ccb_command ccb_cephfs_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (fs_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_fs_options[];

#endif
