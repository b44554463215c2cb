/**
 * @file restore.h
 * `ccbench restore` (alias `krbd restore`): undo what killed runs left,
 * from the state directory and, with -c CONF, from the copies of
 * cluster-side records kept on that cluster (see src/restore.c for which
 * runs count as gone).
 */
#ifndef CCBENCH_RESTORE_H
#define CCBENCH_RESTORE_H

#include <ccbench/options.h>

/**
 * Undo every record of a run that is gone, newest first per run, through
 * the undo function of its kind; keep (and name) what failed, what has
 * an unknown kind or shape, and what belongs to a run that may still be
 * alive (another PID namespace or host; --force undoes those too).
 * --device DEV: only DEV's read_ahead_kb.
 *
 * @return 0; -EINVAL (bad --device, or the state directory is refused:
 *         exit 2); -EPERM / -EIO / -errno of the first undo that failed.
 */
int ccb_restore_command(const struct ccb_opts *o);

#endif
