/**
 * @file fault.h
 * What a failure costs the client (issue 42, docs/failures.md): a fault
 * schedule (--fault WHEN:ACTION) applied during any workload's run, one
 * timeline of the client's I/O and the cluster's state, the phases and
 * the I/O pause computed from it after the run.
 *
 * Safe by construction:
 *  - nothing happens without --allow-cluster-changes (refused with exit 2
 *    before any connection, naming what would have changed);
 *  - every change is registered in the undo log before it is made, with a
 *    crash record (and a copy on the cluster for the mon commands; never
 *    for a command to run, whose argv is trusted from this host's state
 *    directory only); the unwind puts back what ccbench set and only where
 *    it is still what ccbench set (an OSD it marked out is marked in if it
 *    is still out, a flag it set is unset if still set), runs each
 *    `undo:` command, and names an `exec:` with no `undo:` in the result;
 *  - a wait for the cluster (WHEN `clean`) ends at --recovery-timeout with
 *    the cluster's state, never a hang; every command run is bounded.
 *
 * The engine calls up into this module only through struct ccb_run_watch;
 * the point (point.c) calls the ccb_fault_point_*() steps.
 */
#ifndef CCBENCH_FAULT_H
#define CCBENCH_FAULT_H

#include <ccbench/restore.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/options.h>

struct ccb_run;

/** The most faults of one schedule (all --fault values, ';' parts included). */
#define CCB_FAULT_MAX 32
/** The most words of an exec: or undo: command. */
#define CCB_FAULT_ARGV_MAX 32
/** The longest fault as given. */
#define CCB_FAULT_TEXT_MAX 1024
/** Every command a fault runs (exec:, undo:) is bounded by this, then stopped. */
#define CCB_FAULT_EXEC_TIMEOUT_S 60

/** When a fault fires. */
enum ccb_fault_when {
	CCB_FAULT_AT,    /**< at_usec into the run */
	CCB_FAULT_CLEAN, /**< at_usec after every PG is active+clean again after the fault before */
	CCB_FAULT_UNWIND /**< `undo:` without WHEN: only when the run unwinds */
};

/** What a fault does. */
enum ccb_fault_kind {
	CCB_FAULT_OSD_DOWN, /**< osd-down:N: marked down; a live OSD contests it (a peering blip) */
	CCB_FAULT_OSD_OUT,  /**< osd-out:N: data moves off it */
	CCB_FAULT_OSD_IN,   /**< osd-in:N */
	CCB_FAULT_SET,      /**< set:FLAG (noout, norecover, nobackfill ...) */
	CCB_FAULT_UNSET,    /**< unset:FLAG */
	CCB_FAULT_CONFIG,   /**< config:WHO/NAME=VALUE in the cluster's configuration database */
	CCB_FAULT_EXEC,     /**< exec:COMMAND, an argv run on this host, no shell */
	CCB_FAULT_UNDO,     /**< undo:COMMAND, what puts the exec: before it back */
	CCB_FAULT_END,      /**< end: the run ends there, as at its duration */
};

/** One fault of a schedule, parsed. */
struct ccb_fault {
	char text[CCB_FAULT_TEXT_MAX]; /**< as given */
	enum ccb_fault_when when;
	uint64_t at_usec;
	enum ccb_fault_kind kind;
	int osd;        /**< osd-*: the OSD id */
	char flag[32];  /**< set, unset */
	char who[64];   /**< config: global, osd, osd.3, mon ... */
	char name[128]; /**< config: the option */
	char value[256];
	char words[CCB_FAULT_TEXT_MAX];     /**< exec, undo: the words, NUL-separated */
	char *argv[CCB_FAULT_ARGV_MAX + 1]; /**< into words, NULL-terminated */
	int pair; /**< exec: the index of its undo: (-1: none); undo: its exec's */
};

/** A run's faults, in the order given. */
struct ccb_fault_schedule {
	struct ccb_fault f[CCB_FAULT_MAX];
	size_t n;
};

/**
 * Parse every --fault value of @p faults into @p s (pure: no I/O but the
 * PATH lookup of each command's program). Checks the syntax, the flags,
 * the OSD ids as numbers, each undo: after an exec:, the times in order,
 * `end` last, and refuses key material in a command (its argv is
 * readable by every user of this host).
 *
 * @return 0, or -EINVAL with "--fault 'TEXT': why" in @p err.
 */
int ccb_fault_parse(const struct ccb_opt_list *faults, struct ccb_fault_schedule *s, char *err,
                    size_t err_len);

/**
 * The option rules of --fault for command mask @p cmd, before anything
 * connects: the schedule parses, every time lies within the run's
 * @p run_usec (its --duration; 0: not bounded by time, not checked),
 * no --group, no capacity search, no --until-steady, and
 * --allow-cluster-changes is given (else @p err lists what would change).
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_fault_validate(const struct ccb_opts *o, uint64_t cmd, uint64_t run_usec, char *err,
                       size_t err_len);

/** A fault's change in words ("mark osd.1 out at 5 s"), for messages. */
void ccb_fault_describe(const struct ccb_fault *f, char *buf, size_t len);

/** A point's fault schedule at work (opaque). */
struct ccb_fault_point;

/**
 * Before a point's path prepares anything: connect (a connection of the
 * schedule's own, which outlives the path's for the unwind), check every
 * OSD the schedule names against the OSD map (before any change), read
 * the settings explain names (from an up OSD's running configuration),
 * and hook the schedule into @p run (its timeline and watch).
 *
 * @return 0; -EINVAL (an OSD that does not exist: bad input, exit 2);
 *         another -errno (no cluster), with the reason in @p err.
 */
int ccb_fault_point_begin(const struct ccb_opts *o, struct ccb_run *run,
                          struct ccb_fault_point **out, char *err, size_t err_len);

/**
 * After the run, before explain: the result's "fault" object (schedule,
 * events, the cluster's samples, phases, figures, settings, what an
 * exec: left) and the per-second series' p50_us, p99_us, max_us, errors
 * and phase. @p result may be NULL (nothing measured).
 */
void ccb_fault_point_result(struct ccb_fault_point *fp, const struct ccb_run *run, json_t *result);

/**
 * After the point's unwind: what the undo did ("fault.undone") into
 * @p result (may be NULL); releases @p fp (NULL is fine).
 */
void ccb_fault_point_end(struct ccb_fault_point *fp, json_t *result);

/**
 * Check that @p rec has a shape ccbench writes for a fault's undo
 * (kind "fault": undo osd-in, osd-out, set, unset or config with their
 * fields and a cluster fsid, or exec with an argv and a directory).
 * Pure. @return 0, or -EINVAL with the reason in @p why.
 */
int ccb_fault_check_record(const json_t *rec, char *why, size_t why_len);

/**
 * `ccbench restore` of a "fault" record: validate it, then put back
 * where it is still what ccbench set (connecting as the record says,
 * only to its cluster), or run its undo: command (bounded, in the
 * directory the run was started in).
 *
 * @return 0 (done, or nothing left to do), -EINVAL (invalid record or
 *         another cluster: nothing touched), another -errno (kept for a
 *         retry), with a message.
 */
int ccb_fault_restore(const json_t *rec, const struct ccb_opts *o, char *msg, size_t msg_len);

/** The crash record kind of a fault, for restore (ccb_undo_kinds_add()). */
extern const struct ccb_undo_kind ccb_fault_undo_kinds[];

#endif
