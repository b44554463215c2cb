/* The command rows of the older paths (src/paths/commands.c), each list
 * ending in a row with no name; registry.c names them in its rows. */
#ifndef CCBENCH_PATH_COMMANDS_H
#define CCBENCH_PATH_COMMANDS_H

#include <ccbench/cli.h>

extern const struct ccb_command ccb_rados_commands[];  /**< rados write|seq|rand, cleanup */
extern const struct ccb_command ccb_rbd_commands[];    /**< rbd read|randread|write|randwrite|rw */
extern const struct ccb_command ccb_krbd_commands[];   /**< krbd read|randread|restore */
extern const struct ccb_command ccb_cephfs_commands[]; /**< fs write|read|meta */

#endif
