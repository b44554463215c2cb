/**
 * @file restore_cmd.h
 * The restore command (`ccbench restore`, alias `krbd restore`): undo
 * what killed runs left, through restore.h's engine.
 */
#ifndef CCBENCH_RESTORE_CMD_H
#define CCBENCH_RESTORE_CMD_H

#include <ccbench/command.h>
#include <ccbench/options.h>

/**
 * Undo every record of a run that is gone (ccb_restore()), reaching a
 * cluster through -c CONF or the conf a record names, each bounded.
 * --device DEV: only DEV's read_ahead_kb.
 *
 * @return 0; -EINVAL (bad --device, or the state directory is refused:
 *         exit 2); -EPERM / -EIO / -errno of the first undo that failed.
 */
int ccb_restore_command(const struct ccb_opts *o);

struct ccb_cli;

/** The restore command's run (struct ccb_command): ccb_restore_command()
 *  as an exit status, 0, 2 for -EINVAL, else 1. */
int ccb_restore_run(const struct ccb_cli *cli, int argc, char **argv);

/** The rows of restore and its older name, krbd restore (command.h). */
extern const struct ccb_command ccb_restore_commands[];

#endif
