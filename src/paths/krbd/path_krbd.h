/* The krbd path's face: its table, command rows and option rows, for its
 * row in src/paths/registry.c. */
#ifndef CCBENCH_PATH_KRBD_H
#define CCBENCH_PATH_KRBD_H

#include <ccbench/command.h>
#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>
#include <ccbench/path.h>

/** The kernel block device path's table (path_krbd.c). */
extern const struct ccb_path_ops ccb_path_krbd;

/** krbd read|randread, ending in a row with no name
 * (krbd_commands.c).
 */
extern const struct ccb_command ccb_krbd_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (krbd_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_krbd_options[];

#endif
