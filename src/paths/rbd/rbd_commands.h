/* The rbd path's command rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_RBD_COMMANDS_H
#define CCBENCH_RBD_COMMANDS_H

#include <ccbench/cli.h>

/** rbd read|randread|write|randwrite|rw, ending in a row with no name (rbd_commands.c). */
extern const struct ccb_command ccb_rbd_commands[];

#endif
