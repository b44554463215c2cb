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

#include <jansson.h>

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

struct ccb_cli;

/** The restore command's run (struct ccb_command): ccb_restore_command()
 *  as an exit status, 0, 2 for -EINVAL, else 1. */
int ccb_restore_run(const struct ccb_cli *cli, int argc, char **argv);

/**
 * Whether a copy read from the cluster (config-key @p key, its value
 * @p text) is one ccb_undo_cluster_put() wrote, of the cluster @p fsid:
 * exactly the fields and kinds it writes (osd_inject, rbd_image, fault), its run's
 * identity of the right types, @p key exactly the one
 * ccb_undo_cluster_key() makes for that run (PREFIX BOOT/PID-START-HANDLE,
 * and the record's cluster_key when it has one), at most CCB_UNDO_CLUSTER_MAX bytes. Pure:
 * no I/O, no state; any input is safe (fuzzed by tests/fuzz/fuzz_restore.c).
 * It does not judge whether the run is gone (ccb_undo_judge()) nor check
 * the values a kind's undo checks before it acts.
 *
 * @param text   the value, NUL-terminated; NULL is refused
 * @param doc_out the parsed copy (new reference) when accepted, else NULL
 * @return NULL when accepted, else why not (a static string, for the message)
 */
const char *ccb_restore_check_copy(const char *key, const char *text, const char *fsid,
                                   json_t **doc_out);

#endif
