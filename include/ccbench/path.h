/**
 * @file path.h
 * One ops table per I/O path, as fio's engines have. A new path is one new
 * src/paths/path_X.c plus one line in ccb_path_find(). A path may hold several
 * workloads, each its own table under the path's name, told apart by the
 * command's mode (fs meta is the cephfs path's CCB_MODE_RW).
 */
#ifndef CCBENCH_PATH_H
#define CCBENCH_PATH_H

#include <ccbench/engine.h>

struct ccb_path_ops {
	const char *name; /**< "rados", "rbd", "krbd", "cephfs" */
	/** Check targets, claim names, create what the run needs (and log its undo). */
	int (*prepare)(struct ccb_run *run);
	/** One connection / handle / fd per client. */
	int (*client_open)(struct ccb_client *cl);
	/**
	 * Start one op in @p s. Async paths call ccb_slot_done() later from
	 * their own thread; inline paths call it before returning.
	 * @return 0, CCB_SUBMIT_END when no work is left, or -errno.
	 */
	int (*submit)(struct ccb_client *cl, struct ccb_slot *s);
	/**
	 * On the client thread, after @p s completed without error: verify
	 * the data. @return 0, or -errno (counted as an op error), with a
	 * message in cl->first_error_msg if it is the first.
	 */
	int (*complete)(struct ccb_client *cl, struct ccb_slot *s);
	/** Name the call and target of @p s for messages: "rados_aio_read(r1.00000042)". */
	void (*describe)(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len);
	/** Release the op handle of @p s after completion (or NULL). */
	void (*release)(struct ccb_client *cl, struct ccb_slot *s);
	/**
	 * Optional, on the client thread after its last op completed (not after
	 * an error or a stranded drain): make what was acknowledged durable
	 * (librbd's cache: a flush). Its time counts in the run's elapsed time,
	 * as `rbd bench` counts its final flush. @return 0 or -errno (an op error).
	 */
	int (*quiesce)(struct ccb_client *cl);
	void (*client_close)(struct ccb_client *cl);
	/** Per-run teardown not already in the undo log (metadata, etc). */
	void (*finish)(struct ccb_run *run);
	/**
	 * Optional: add path-specific top-level fields to the finished result
	 * @p res (fs meta's "phases"). Called by ccb_result_build(), after
	 * finish(), while the path's run state is still alive.
	 */
	void (*result)(const struct ccb_run *run, json_t *res);
	/**
	 * Optional: why no op has completed for CCB_STALL_CHECK_SEC while ops
	 * are in flight. Called on the engine's diagnosis thread (never a
	 * client's), with read-only queries only. @return -errno to end the
	 * run with @p why as its reason (a full pool: -ENOSPC, -EDQUOT), 0 to
	 * only show @p why on the progress line (may be left empty).
	 */
	int (*stalled)(struct ccb_run *run, char *why, size_t len);
};

/** The rados object path (src/paths/path_rados.c). */
extern const struct ccb_path_ops ccb_path_rados;

/** The librbd image path (src/paths/path_rbd.c). */
extern const struct ccb_path_ops ccb_path_rbd;

/** The kernel block device path (src/paths/path_krbd.c). */
extern const struct ccb_path_ops ccb_path_krbd;

/** The CephFS path through libcephfs: fs write and read (src/paths/path_cephfs.c). */
extern const struct ccb_path_ops ccb_path_cephfs;

/** The CephFS path's metadata workload, fs meta (src/paths/path_cephfs_meta.c). */
extern const struct ccb_path_ops ccb_path_cephfs_meta;

/** The table of path @p name for a command of mode @p mode, or NULL. */
const struct ccb_path_ops *ccb_path_find(const char *name, enum ccb_mode mode);

#endif
