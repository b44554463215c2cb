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

struct ccb_path_ops;

struct ccb_cli {
	const char *command; /**< "rados write", "cleanup", ... */
	const char *path;    /**< path name for run commands, NULL otherwise */
	/** The path table the command runs through (workloads), NULL otherwise. */
	const struct ccb_path_ops *ops;
	unsigned cmd_mask; /**< enum ccb_cmd_mask bits of the command */
	enum ccb_mode mode;
	bool help;
	bool version;
	const char *args[4]; /**< positional arguments after the command words */
	int n_args;
	struct ccb_opts opts;
};

/**
 * Parse @p argv. Fills defaults first, so @p cli->opts is complete.
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

/** --help text for @p cmd_mask (0: the overview). */
void ccb_cli_usage(FILE *out, unsigned cmd_mask);

#endif
