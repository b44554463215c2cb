/**
 * @file group_cmd.h
 * The commands on a group in the cluster: report, rm, ls.
 */
#ifndef CCBENCH_GROUP_CMD_H
#define CCBENCH_GROUP_CMD_H

#include <ccbench/command.h>
#include <ccbench/cli.h>

/**
 * `ccbench group report NAME`, `group rm NAME`, `group ls`: the run
 * (struct ccb_command) of each, through a table of its subcommands.
 *
 * @return the exit status: 0 ok, 1 failure or (report) an incomplete
 *         group, 2 bad input (no such group or pool, not a group command).
 */
int ccb_group_command(const struct ccb_cli *cli, int argc, char **argv);

/** The rows of group report, rm and ls (command.h), listed by the front. */
extern const struct ccb_command ccb_group_commands[];

#endif
