/**
 * @file report_cmd.h
 * `ccbench report`: re-render a saved document (src/report/report_cmd.c).
 */
#ifndef CCBENCH_REPORT_CMD_H
#define CCBENCH_REPORT_CMD_H

#include <ccbench/command.h>
#include <ccbench/cli.h>

/** `ccbench report RESULTS.json`: re-render a saved sweep or run result. */
int ccb_report_command(const struct ccb_cli *cli);

/** Its run function (struct ccb_command): ccb_report_command()'s status. */
int ccb_report_run(const struct ccb_cli *cli, int argc, char **argv);

/** The report command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_report_commands[];

#endif /* CCBENCH_REPORT_CMD_H */
