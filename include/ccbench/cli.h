/**
 * @file cli.h
 * argv to a command and its options, through the one option table.
 */
#ifndef CCBENCH_CLI_H
#define CCBENCH_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include <ccbench/engine.h>
#include <ccbench/options.h>

#include <ccbench/command.h>

struct ccb_path_ops;

/** The command table, in the order help lists it; *@p n receives its length. */
const struct ccb_command *ccb_cli_commands(size_t *n);

/** The command called @p name ("rbd read"), or NULL. */
const struct ccb_command *ccb_cli_command_find(const char *name);

/**
 * Put the command table together, once, before any command is parsed or
 * shown: every path's rows in the registry's order (ccb_path_commands()),
 * then @p n_groups groups of the front's rows (each ending in a row with
 * no name), in the order help lists them. A workload's row without a run
 * function runs @p workload. A later call keeps the first table.
 *
 * @return 0, or -E2BIG past the room for commands.
 */
int ccb_cli_commands_init(const struct ccb_command *const *groups, size_t n_groups,
                          ccb_command_run workload);

/**
 * Parse @p argv. Fills defaults first, so @p cli->opts is complete.
 * On an error, @p cli->command still names the command argv's words
 * select, when they select one (for the hint that names its --help).
 *
 * @return 0, or -EINVAL with one message naming the option and value in @p err.
 */
int ccb_cli_parse(int argc, char **argv, struct ccb_cli *cli, char *err, size_t err_len);

/**
 * Make @p cli run command @p name ("rbd read"), applying that command's
 * own defaults to options not given. Used by sweeps, which name their
 * command in a config rather than on the command line.
 *
 * @return 0, or -EINVAL for an unknown command.
 */
int ccb_cli_select(struct ccb_cli *cli, const char *name, char *err, size_t err_len);

/**
 * Check @p cli's options: the generic rules (ccb_opts_validate()), then
 * its path's own (the ops table's validate). Needs no cluster.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_cli_validate(const struct ccb_cli *cli, char *err, size_t err_len);

/**
 * The command of path @p ops (by name: fs meta's table is the cephfs
 * path's too) whose second word is @p word, or NULL.
 */
const char *ccb_cli_command_of(const struct ccb_path_ops *ops, const char *word);

/**
 * The command of @p cli's path whose second word is @p word ("randread"
 * of "krbd read" is "krbd randread"), or NULL.
 */
const char *ccb_cli_sibling(const struct ccb_cli *cli, const char *word);

#endif
