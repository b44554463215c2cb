/* The krbd path's command and option rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_KRBD_COMMANDS_H
#define CCBENCH_KRBD_COMMANDS_H

#include <ccbench/cli.h>
#include <ccbench/options.h>

/** krbd read|randread, and restore under its older name, ending in a row with no name
 * (krbd_commands.c).
 */
extern const struct ccb_command ccb_krbd_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (krbd_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_krbd_options[];

#endif
