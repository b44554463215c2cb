/**
 * @file path.h
 * One ops table per I/O path, as fio's engines have. A new path is a
 * folder src/paths/X/ with its table, which carries its command rows and
 * its own option rows, and one row in src/paths/registry.c (registry.h)
 * naming the table.
 * The table carries everything the rest of the program must know about
 * the path: its option checks (validate), its flags (how a run is bounded
 * and queued), the name it gives the op size and its set-up before
 * prepare. Nothing outside src/paths/ tests which path it runs. A path
 * may hold several workloads, each its own table under the path's name,
 * told apart by the command's mode (fs meta is the cephfs path's
 * CCB_MODE_RW). A command may also run through another path when its
 * options say so (fs write --mount-via fuse goes through the posix path):
 * the command's table names it (variant), and ccb_path_for() is what
 * every caller asks.
 */
#ifndef CCBENCH_PATH_H
#define CCBENCH_PATH_H

#include <ccbench/engine.h>

struct ccb_attr_target;

/** What a path's runs are like (struct ccb_path_ops.flags). */
enum ccb_path_flags {
	/** Without --duration or --total a run makes one pass over its target
	 * (the image, the device, each client's file) and ends itself. */
	CCB_PATH_ONE_PASS = 1u << 0,
	/** One blocking call per op: the queue depth is 1 whatever the options say. */
	CCB_PATH_SYNC = 1u << 1,
	/** Without a target of its own, a run makes a temporary rbd image laid
	 * out by the options flagged CCB_OPTF_LAYOUT; read points of a sweep
	 * share one such image (see target_opt). */
	CCB_PATH_TEMP_IMAGE = 1u << 2,
	/** Bounded by its files (--file-size, --files), not a pass over one target. */
	CCB_PATH_FILES = 1u << 3,
	/** Runs in phases that each run to completion (fs meta: create, stat,
	 * delete): no per-second rate settles, so --until-steady is refused. */
	CCB_PATH_PHASED = 1u << 4,
};

struct ccb_command;
struct ccb_undo_kind;

struct ccb_path_ops {
	const char *name; /**< "rados", "librbd", "krbd", "cephfs" */
	unsigned flags;   /**< enum ccb_path_flags */
	/**
	 * What the path can do (CCB_CAP_* and CCB_CMD_WORKLOAD or
	 * CCB_CMD_ENGINE, options.h): its workloads take the shared option rows
	 * that name one of these, and its own rows (struct ccb_path_ops.options).
	 */
	uint64_t caps;
	/**
	 * The bytes of this path's own option struct, which its rows write in
	 * the path block of struct ccb_opts (fio's option_struct_size): at most
	 * CCB_PATH_OPTS_BYTES (ccb_paths_init() refuses more). 0: none.
	 */
	size_t opts_bytes;
	/** The name this path's commands give the op size (struct
	 * ccb_opts.op_size_bytes): "op-size", "io-size" or "block-size", the
	 * option row they show, and the key of the size in its group records. */
	const char *op_size_name;
	/**
	 * The option that names an existing image for this path (krbd
	 * "map", librbd "image"), which a shared temporary image is given
	 * as; NULL when the path has no CCB_PATH_TEMP_IMAGE.
	 */
	const char *target_opt;
	/**
	 * Optional: the table a run of this command with @p o goes through
	 * instead (another path's), or @p ops itself. Pure: no I/O.
	 */
	const struct ccb_path_ops *(*variant)(const struct ccb_path_ops *ops,
	                                      const struct ccb_opts *o);
	/**
	 * Optional: the options of a run name their own target (an image,
	 * a device), so no temporary image is made. NULL: never.
	 */
	bool (*has_target)(const struct ccb_opts *o);
	/**
	 * Optional: the rules of this path's options that need no cluster.
	 * Called by ccb_cli_validate() after the generic rules; bad input is
	 * refused here, before anything connects. @return 0, or -EINVAL with
	 * the reason in @p err.
	 */
	int (*validate)(const struct ccb_opts *o, char *err, size_t err_len);
	/** Optional: whether a run with @p o talks to the cluster. NULL: always. */
	bool (*needs_cluster)(const struct ccb_opts *o);
	/** Optional: the queue depth a run with @p o uses. NULL: --queue-depth. */
	uint64_t (*queue_depth)(const struct ccb_opts *o);
	/**
	 * Optional: a sweep config's @p key spelled as this path's option
	 * (krbd: "readahead" in bytes is --read-ahead-kb). Sets *@p name and
	 * *@p val (in @p buf if rewritten) and returns 1; 0 when @p key is
	 * not an alias; -EINVAL with the reason in @p err.
	 */
	int (*param_alias)(const char *key, const char **name, const char **val, char *buf,
	                   size_t buf_len, char *err, size_t err_len);
	/**
	 * Optional, for sweep --dry-run: the bytes a run with @p o moves when
	 * neither --total nor a time says (0: unknown). @p one_pass: the run is
	 * bounded by one pass; @p image_bytes: the size of the temporary image
	 * it reads (0: none). May name the bound in *@p bound ("max-objects").
	 */
	uint64_t (*estimate_bytes)(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
	                           uint64_t image_bytes, const char **bound);
	/**
	 * Optional, for --until-steady without --steady-ramp: the bytes a run
	 * must move before its rate can be steady, because a readahead window
	 * grows or a cache fills first (CCB_STEADY_RAMP_WINDOWS times the
	 * largest of them), with the reason in @p basis ("2 x readahead 128M").
	 * Called with the clients open (run->layout holds what prepare and
	 * client_open learnt), and by sweep --dry-run on a run that only has
	 * opts, mode and ops set. 0: the ramp's time alone.
	 */
	uint64_t (*steady_ramp_bytes)(const struct ccb_run *run, char *basis, size_t len);
	/**
	 * Optional: before prepare(), make what a run without a target of its
	 * own needs (krbd: a temporary prefilled image, mapped for the point).
	 * May point run->opts at a copy in @p scratch. Its undo entries go
	 * with the point. @return 0 or -errno (the reason printed).
	 */
	int (*setup)(struct ccb_run *run, struct ccb_opts *scratch, char *buf, size_t buf_len);
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
	 * the data, or record what the path keeps per op (fs meta's phases).
	 * @return 0, or -errno (counted as an op error), with a message in
	 * cl->first_error_msg if it is the first.
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
	/**
	 * Optional: the kinds of crash record this path's runs write (a
	 * mapping, a mount, a temporary image), with their undo, for
	 * `ccbench restore` (restore.h; rows ending in one with no name).
	 */
	const struct ccb_undo_kind *undo_kinds;
	/** Optional: this path's command rows (command.h), ending in a row
	 *  with no name; the command table lists them in the registry's order. */
	const struct ccb_command *commands;
	/** Optional: the option rows only this path's commands take, ending in
	 *  a row with no name; ccb_paths_init() puts them in the table. */
	const struct ccb_opt_desc *options;
	/**
	 * Optional, with op_object (per-op attribution, attribution.h): after
	 * prepare(), where the run's data objects are: their pool's id, their
	 * namespace and the prefix every one of their names starts with.
	 * @return 0, or -errno (the run is then attributed on the OSDs' side only).
	 */
	int (*attr_target)(const struct ccb_run *run, struct ccb_attr_target *t);
	/**
	 * Optional: the name of the object the op of @p s went to (its first,
	 * when it spans several) into @p name. Called on the client thread
	 * right after submit() started the op; no allocation, no lock.
	 * @return how many objects the op spans, 0 when it names none. NULL:
	 * the client cannot name its ops' objects (the kernel's, libcephfs'),
	 * and the result's attribution is the OSDs' side only.
	 */
	unsigned (*op_object)(const struct ccb_client *cl, const struct ccb_slot *s, char *name,
	                      size_t len);
};

/** The table a run of @p ops's command with @p o goes through (see variant). */
const struct ccb_path_ops *ccb_path_for(const struct ccb_path_ops *ops, const struct ccb_opts *o);

/** Queue depth of a run of @p ops with @p o: 1 for CCB_PATH_SYNC, else the path's rule. */
uint64_t ccb_path_queue_depth(const struct ccb_path_ops *ops, const struct ccb_opts *o);

/** Point @p o at the existing image @p spec, through @p ops's target_opt. */
void ccb_path_set_target(const struct ccb_path_ops *ops, struct ccb_opts *o, const char *spec);

/** Whether a run of @p ops with @p o uses a temporary image it makes itself. */
bool ccb_path_temp_image(const struct ccb_path_ops *ops, const struct ccb_opts *o);

#endif
