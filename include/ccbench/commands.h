/**
 * @file commands.h
 * The front's start-up: the option table and the command table, put
 * together once before anything is parsed or shown (src/commands/).
 */
#ifndef CCBENCH_COMMANDS_H
#define CCBENCH_COMMANDS_H

/**
 * Put the option table (every path's rows, ccb_paths_init()) and the
 * command table (the paths' rows, then every other command's, each bound
 * to its run function by symbol) together. main(), ccbench-gendoc, the
 * unit tests and the fuzz targets call it first; a later call does
 * nothing more.
 *
 * @return 0, or ccb_paths_init()'s or ccb_cli_commands_init()'s -errno.
 */
int ccb_commands_init(void);

#endif
