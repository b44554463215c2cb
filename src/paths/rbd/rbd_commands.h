/* The rbd path's command and option rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_RBD_COMMANDS_H
#define CCBENCH_RBD_COMMANDS_H

#include <ccbench/cli.h>
#include <ccbench/options.h>

/** rbd read|randread|write|randwrite|rw, ending in a row with no name (rbd_commands.c). */
extern const struct ccb_command ccb_rbd_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (rbd_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_rbd_options[];

#endif
