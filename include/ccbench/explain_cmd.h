/**
 * @file explain_cmd.h
 * `ccbench explain`: the why lines of a saved document (src/report/explain_cmd.c).
 */
#ifndef CCBENCH_EXPLAIN_CMD_H
#define CCBENCH_EXPLAIN_CMD_H

#include <ccbench/command.h>
#include <ccbench/cli.h>

/**
 * `ccbench explain RESULT.json`: the explain list of a saved run, or of
 * each run of each point of a sweep, re-derived from the figures (text:
 * why lines; -f json: the lists). 0, or 2 when the file is not a result.
 */
int ccb_explain_command(const struct ccb_cli *cli);

/** Its run function (struct ccb_command): ccb_explain_command()'s status. */
int ccb_explain_run(const struct ccb_cli *cli, int argc, char **argv);

/** The explain command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_explain_commands[];

#endif /* CCBENCH_EXPLAIN_CMD_H */
