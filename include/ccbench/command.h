/**
 * @file command.h
 * One row of the command table: what argv's command words select, what
 * it runs, and the words a user reads about it. --help, `help CMD`, the
 * man page, the bash completion and docs/commands.md are all rendered
 * from these rows and the option table (see help.h, gendoc.h).
 *
 * A command's row lives with its code and names its run function by
 * symbol, as git's builtins do: a path's rows in its folder (its
 * registry row brings them, src/paths/registry.c), the others in their
 * wing (sweep, report, group, capacity, restore, help), listed by the
 * front (src/commands/commands.c). With the command line a run function
 * receives (struct ccb_cli). Types only, so that the paths and the
 * command line both use them without an upward include.
 */
#ifndef CCBENCH_COMMAND_H
#define CCBENCH_COMMAND_H

#include <stdbool.h>
#include <stddef.h>

#include <ccbench/engine.h>
#include <ccbench/options.h>

struct ccb_cli;
struct ccb_path_ops;

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

/** What a command is, beyond its options (struct ccb_command.flags). */
enum ccb_command_flags {
	/** Acts on the crash records itself (restore): the front does not
	 *  report a killed run's records before it runs. */
	CCB_CMDF_OWN_STATE = 1u << 0,
};

struct ccb_command {
	const char *name;               /**< one or two words: "cleanup", "rbd read" */
	const struct ccb_path_ops *ops; /**< the path a workload runs through, else NULL */
	/** enum ccb_cmd_mask bits: the options it takes. A workload's row gives
	 *  its own (CCB_CMD_OUTPUT, ...); its path's capabilities are added
	 *  when the table is put together. */
	uint64_t mask;
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
	/** What it runs; NULL: help, or a workload (the front's one run of
	 *  every workload, given to ccb_cli_commands_init()). */
	ccb_command_run run;
	/**
	 * Optional: the command's own option rules that need no cluster, after
	 * the generic ones (ccb_cli_validate()). @return 0, or -EINVAL with
	 * the reason in @p err.
	 */
	int (*validate)(const struct ccb_opts *o, char *err, size_t err_len);
	/**
	 * Optional, for a command above the paths that runs a workload
	 * (capacity): whether it talks to a cluster, as the workload's path
	 * says. NULL: a workload asks its path; another command, its options
	 * (CCB_CMD_CONN, a sweep, a group).
	 */
	bool (*needs_cluster)(const struct ccb_cli *cli);
	unsigned flags; /**< enum ccb_command_flags */
};

/** A command line, parsed: the command it selects and its options (cli.h). */
struct ccb_cli {
	const char *command; /**< "rados write", "cleanup", ... */
	const char *path;    /**< path name for run commands, NULL otherwise */
	/** The path table the command runs through (workloads), NULL otherwise. */
	const struct ccb_path_ops *ops;
	uint64_t cmd_mask; /**< enum ccb_cmd_mask bits of the command */
	enum ccb_mode mode;
	bool help; /**< --help, -h or `help [COMMAND]`: show help for command (or all) */
	const char *help_group; /**< `rbd --help`: the first word of the commands to list */
	bool version;
	const char *args[4]; /**< positional arguments after the command words */
	int n_args;
	/** The command that runs this workload in its own way (capacity's
	 *  search), whose own rules apply too (ccb_cli_validate()), or NULL. */
	const struct ccb_command *outer;
	struct ccb_opts opts;
};

#endif
