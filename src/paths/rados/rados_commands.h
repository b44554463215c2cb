/* The rados path's command rows, for its row in src/paths/registry.c. */
#ifndef CCBENCH_RADOS_COMMANDS_H
#define CCBENCH_RADOS_COMMANDS_H

#include <ccbench/cli.h>

/** rados write|seq|rand and cleanup, ending in a row with no name (rados_commands.c). */
extern const struct ccb_command ccb_rados_commands[];

#endif
