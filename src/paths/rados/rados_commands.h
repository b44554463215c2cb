/* The rados path's command and option rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_RADOS_COMMANDS_H
#define CCBENCH_RADOS_COMMANDS_H

#include <ccbench/cli.h>
#include <ccbench/options.h>

/** rados write|seq|rand and cleanup, ending in a row with no name (rados_commands.c). */
extern const struct ccb_command ccb_rados_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (rados_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_rados_options[];

#endif
