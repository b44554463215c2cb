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
struct ccb_cli;

/**
 * What a command does once its options are checked: returns the process's
 * exit status (0 ok, 1 failed, 2 bad input). Workloads share one.
 */
typedef int (*ccb_command_run)(const struct ccb_cli *cli, int argc, char **argv);

/** What a command's positional arguments are, for the shell completion. */
enum ccb_arg_kind {
	CCB_ARG_NONE,    /**< none, or a name only the cluster knows (group NAME) */
	CCB_ARG_FILE,    /**< files on this host (RESULT.json ...) */
	CCB_ARG_CONFIG,  /**< a sweep config: a file, or the name of a shipped one */
	CCB_ARG_COMMAND, /**< a command's words (help COMMAND) */
};

/**
 * One row of the command table (src/cli.c): what argv's command words
 * select, and the words a user reads about it. --help, `help CMD`, the man
 * page, the bash completion and docs/commands.md are all rendered from
 * these rows and the option table (see help.h, gendoc.h).
 */
struct ccb_command {
	const char *name;               /**< one or two words: "cleanup", "rbd read" */
	const struct ccb_path_ops *ops; /**< the path a workload runs through, else NULL */
	unsigned mask;                  /**< enum ccb_cmd_mask bits: the options it takes */
	enum ccb_mode mode;
	int n_args;                  /**< positional arguments after the command words */
	const char *args_help;       /**< their names ("BASELINE.json CURRENT.json"), or NULL */
	enum ccb_arg_kind args_kind; /**< what they are, for completion */
	/** Command-specific defaults: name, value, ..., NULL (applied, not given). */
	const char *const *defaults;
	/** How a default reads for this command where no value says it: name,
	 * text, ..., NULL ("duration", "one pass over the image"). */
	const char *const *default_notes;
	const char *summary;     /**< one line, lower case, no full stop */
	const char *description; /**< a paragraph: what it does, what it needs */
	const char *example;     /**< one command line, starting with "ccbench " */
	/**
	 * What it runs. A row sets it when the function sits in the command
	 * line's layer or below (cleanup's, in the rados path); the ones above
	 * (restore, sweep, report, group, the workloads) are bound by the
	 * front, src/main.c, through ccb_cli_command_bind(). NULL: help.
	 */
	ccb_command_run run;
};

/** The command table, in the order help lists it; *@p n receives its length. */
const struct ccb_command *ccb_cli_commands(size_t *n);

/** The command called @p name ("rbd read"), or NULL. */
const struct ccb_command *ccb_cli_command_find(const char *name);

/**
 * Give the commands named @p name (NULL: every workload, a row with a
 * path) the run function @p run, unless their row names one already.
 * The front calls it once at start-up with the functions of the layers
 * above this one, which the rows cannot name.
 *
 * @return the number of rows bound, 0 when none is called @p name.
 */
int ccb_cli_command_bind(const char *name, ccb_command_run run);

struct ccb_cli {
	const char *command; /**< "rados write", "cleanup", ... */
	const char *path;    /**< path name for run commands, NULL otherwise */
	/** The path table the command runs through (workloads), NULL otherwise. */
	const struct ccb_path_ops *ops;
	unsigned cmd_mask; /**< enum ccb_cmd_mask bits of the command */
	enum ccb_mode mode;
	bool help; /**< --help, -h or `help [COMMAND]`: show help for command (or all) */
	const char *help_group; /**< `rbd --help`: the first word of the commands to list */
	bool version;
	const char *args[4]; /**< positional arguments after the command words */
	int n_args;
	struct ccb_opts opts;
};

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
