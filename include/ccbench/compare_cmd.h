/**
 * @file compare_cmd.h
 * `ccbench compare`: the gate of a result against a baseline (src/report/compare_cmd.c).
 */
#ifndef CCBENCH_COMPARE_CMD_H
#define CCBENCH_COMPARE_CMD_H

#include <ccbench/command.h>
#include <ccbench/cli.h>

/**
 * `ccbench compare BASELINE CURRENT`: 0 no regression, 1 a regression or
 * a failed point (a run whose status is not "ok"), 2 mismatch or bad input
 * (a --tolerance that is not a finite percentage from 0 to 1000).
 */
int ccb_compare_command(const struct ccb_cli *cli);

/** Its run function (struct ccb_command): ccb_compare_command()'s status. */
int ccb_compare_run(const struct ccb_cli *cli, int argc, char **argv);

/**
 * Parse --tolerance: "10%" or "10", finite, 0 to 1000 (NaN and inf are
 * refused). @return 0 with the percentage in @p pct, or -EINVAL.
 */
int ccb_compare_parse_tolerance(const char *text, double *pct);

/** The compare command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_compare_commands[];

#endif /* CCBENCH_COMPARE_CMD_H */
