/**
 * @file restore.h
 * Undoing what killed runs left, from the state directory and, with
 * -c CONF, from the copies of cluster-side records kept on that cluster
 * (see src/undo/restore.c for which runs count as gone). Each record
 * goes through the undo of its kind, which the code that writes such
 * records registers at start-up (the cluster's OSD delay, each path's
 * mappings, mounts, images and read_ahead_kb values); the command is
 * src/cli/restore_cmd.c.
 */
#ifndef CCBENCH_RESTORE_H
#define CCBENCH_RESTORE_H

#include <ccbench/options.h>

#include <jansson.h>
#include <rados/librados.h>

/** One kind of crash record and its undo. */
struct ccb_undo_kind {
	const char *name; /**< the record's "kind"; NULL ends a group */
	/**
	 * Put back what @p rec says was set, only while it is still what
	 * ccbench set. @return 0 (what was done in @p msg), or -errno with
	 * the reason in @p msg (the record is kept).
	 */
	int (*undo)(const json_t *rec, const struct ccb_opts *o, char *msg, size_t msg_len);
	/** Kept on the cluster too: the fields its copy may have; NULL: not kept there. */
	const char *const *cluster_fields;
};

/**
 * Register a group of kinds (rows ending in one with no name), once;
 * adding the same group again does nothing.
 *
 * @return 0, or -E2BIG past the room for groups.
 */
int ccb_undo_kinds_add(const struct ccb_undo_kind *kinds);

/** The registered kind called @p name, or NULL. */
const struct ccb_undo_kind *ccb_undo_kind_find(const char *name);

/**
 * How restore reaches a cluster: @p rec NULL, the cluster of @p o's
 * -c CONF; else the one a record names (its conf, keyring and entity).
 * Bounded. @return 0 with *@p cl connected, or -errno with the reason.
 */
typedef int (*ccb_restore_connect_fn)(const struct ccb_opts *o, const json_t *rec, rados_t *cl,
                                      char *err, size_t err_len);

/**
 * Undo every record of a run that is gone, newest first per run, through
 * the undo of its kind; keep (and name) what failed, what has an unknown
 * kind or shape, and what belongs to a run that may still be alive
 * (another PID namespace or host; --force undoes those too).
 * @p only_disk (a disk's name, or NULL): only that disk's read_ahead_kb.
 *
 * @return 0; -EINVAL (the state directory is refused: exit 2); -EPERM /
 *         -EIO / -errno of the first undo that failed.
 */
int ccb_restore(const struct ccb_opts *o, const char *only_disk, ccb_restore_connect_fn connect);

/**
 * Whether a copy read from the cluster (config-key @p key, its value
 * @p text) is one ccb_undo_cluster_put() wrote, of the cluster @p fsid:
 * exactly the fields and kinds it writes (a registered kind with
 * cluster_fields: osd_inject, rbd_image, fault), its run's identity of the right
 * types, @p key exactly the one ccb_undo_cluster_key() makes for that run
 * (PREFIX BOOT/PID-START-HANDLE, and the record's cluster_key when it has
 * one), at most CCB_UNDO_CLUSTER_MAX bytes. Pure: no I/O, no state; any
 * input is safe (fuzzed by tests/fuzz/fuzz_restore.c). It does not judge
 * whether the run is gone (ccb_undo_judge()) nor check the values a
 * kind's undo checks before it acts.
 *
 * @param text   the value, NUL-terminated; NULL is refused
 * @param doc_out the parsed copy (new reference) when accepted, else NULL
 * @return NULL when accepted, else why not (a static string, for the message)
 */
const char *ccb_restore_check_copy(const char *key, const char *text, const char *fsid,
                                   json_t **doc_out);

#endif
