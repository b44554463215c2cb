/* The krbd path's command rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_KRBD_COMMANDS_H
#define CCBENCH_KRBD_COMMANDS_H

#include <ccbench/cli.h>

/** krbd read|randread, and restore under its older name, ending in a row with no name
 * (krbd_commands.c).
 */
extern const struct ccb_command ccb_krbd_commands[];

#endif
