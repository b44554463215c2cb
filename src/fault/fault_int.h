/*
 * What the files of src/fault/ share: the cluster's samples and the
 * events of a run's timeline, the phases' pure computation
 * (fault_phases.c), the actions and their undo (fault_actions.c) and the
 * watching thread (fault_watch.c). Internal: the interface is
 * include/ccbench/fault.h.
 */
#ifndef CCBENCH_FAULT_INT_H
#define CCBENCH_FAULT_INT_H

#include <ccbench/fault.h>
#include <ccbench/timeline.h>

#include <jansson.h>
#include <pthread.h>
#include <rados/librados.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* One look at the cluster (`status`), about once a second. */
struct ccb_fault_sample {
	double t_s; /* into the run */
	bool ok;    /* the mon answered */
	uint32_t epoch, osds, up, in;
	/* PGs by what their state holds (one PG may count in several). */
	uint32_t pgs, clean, peering, degraded, recovering, backfilling, inactive, stale;
	double recovering_objects_s, recovering_bytes_s;
	uint64_t degraded_objects, misplaced_objects;
	char states[160]; /* the largest states, "33 active+undersized+degraded, ..." */
};

/* The cluster clean: every PG active+clean (scrubs and snap trims allowed). */
bool ccb_fault_sample_clean(const struct ccb_fault_sample *s);
/* Recovering or backfilling PGs (waiting to, too). */
bool ccb_fault_sample_moving(const struct ccb_fault_sample *s);

/* Digest of a `status` reply into @p s (its t_s untouched); false when it
 * is not one. Pure. */
bool ccb_fault_parse_status(const json_t *status, struct ccb_fault_sample *s);

/* The input of the phases: what the run measured, as plain arrays. */
struct ccb_fault_phase_in {
	double run_s;                /* the run's seconds */
	const double *bytes, *ops;   /* per whole second of the run */
	const struct ccb_sech *secs; /* per second: latencies and errors (may be NULL) */
	size_t n_secs;
	const struct ccb_fault_sample *samples;
	size_t n_samples;
	const double *fault_s; /* when each fault that changes the cluster fired */
	size_t n_faults;
	const uint64_t *done; /* completion ticks (timeline.h) */
	size_t done_words;
	double tick_s;
};

/* Phase names, in the order a failure and its recovery go through them. */
#define CCB_PHASE_BEFORE     "before"
#define CCB_PHASE_STALLED    "stalled"
#define CCB_PHASE_DEGRADED   "degraded"
#define CCB_PHASE_RECOVERING "recovering"
#define CCB_PHASE_CLEAN      "clean"

/* A stretch with no completion must be this long at least to be a
 * "stalled" phase (and twice the longest before the first fault). */
#define CCB_FAULT_STALL_MIN_S 0.5

/*
 * The phases and the figures of a run, pure: {"phases": [...], "figures":
 * {...}, "second_phase": [name per second]} (see docs/results.md). New
 * reference, NULL on ENOMEM.
 */
json_t *ccb_fault_phases(const struct ccb_fault_phase_in *in);

/* An event of the timeline. */
struct ccb_fault_event {
	double t_s;
	char kind[24]; /* fault, exec, osd-down, osd-up, osd-out, osd-in, flag, pgs, mon ... */
	char text[240];
	int fault; /* the fault's index, or -1 */
};

/* Per fault, as the run went. */
struct ccb_fault_state {
	bool fired;
	double fired_s;
	bool failed;
	char result[240]; /* what it did, or why not */
	int undo;         /* its undo entry (0: none) */
	pid_t pid;        /* exec, undo: running (0: not) */
	uint64_t pid_start_nsec;
	bool exited;
	int status; /* wait status */
};

/* A schedule at work: one per point (fault.h's struct ccb_fault_point). */
struct ccb_fault_point {
	int refs; /* the point's and each undo entry's */
	const struct ccb_opts *opts;
	struct ccb_fault_schedule sched;
	struct ccb_fault_state st[CCB_FAULT_MAX];
	rados_t cl;
	bool connected;
	char fsid[64];
	char cwd[4096]; /* where commands run (and `restore` runs their undo) */
	struct ccb_timeline timeline;
	json_t *settings;  /* what explain names, from an OSD's running configuration */
	json_t *osds_prev; /* {"osd.N": {"up", "in"}} of the last osd dump, and "flags" */
	json_t *up_start;  /* ["osd.N"] up at the start */
	json_t *left;      /* texts: what an exec: without undo: left */
	json_t *undone;    /* texts: what the unwind did */

	/* The watching thread, and what it writes (read after it is joined). */
	struct ccb_run *run;
	pthread_t thread;
	bool started;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	struct ccb_fault_sample *samples;
	size_t n_samples, cap_samples;
	struct ccb_fault_event *events;
	size_t n_events, cap_events;
	size_t next; /* the next fault to fire */
	/* Since the last fault fired, for WHEN clean. */
	double prev_s;
	uint32_t prev_epoch;
	bool seen_unclean;
	double epoch_changed_s; /* the map last changed (< 0: not since) */
	double clean_met_s;     /* the next clean fault's condition held since (< 0: not) */
	bool was_clean, was_moving, mon_silent;
	bool ended; /* the clients ended: an undo now is the unwind's */
};

/* Append an event (the thread's, or the stop hook's once it is joined). */
void ccb_fault_event(struct ccb_fault_point *fp, double t_s, const char *kind, int fault,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Fire fault @p i now (@p t_s into the run): register its undo, then act.
 * The outcome goes into fp->st[i] and the events. */
void ccb_fault_fire(struct ccb_fault_point *fp, size_t i, double t_s);

/* The commands still running: reap those that ended (events), stop those
 * past CCB_FAULT_EXEC_TIMEOUT_S or all of them when @p all. */
void ccb_fault_reap(struct ccb_fault_point *fp, double t_s, bool all);

/* Any exec: or undo: of ours still running. */
bool ccb_fault_running(const struct ccb_fault_point *fp);

/* A JSON mon command @p cmd (stolen) on @p cl; its JSON reply in @p out
 * (may be NULL). 0 or -errno, the reason naming the command in @p err. */
int ccb_fault_mon(rados_t cl, json_t *cmd, json_t **out, char *err, size_t err_len);

/*
 * The crash record of the undo of fault @p i of @p s, as the undo log
 * keeps it: {"kind": "fault", "undo": osd-in | osd-out | set | unset |
 * config | exec, "fault": its text, and osd, flag, who/name/value/before
 * (@p before: the value at WHO/NAME before, or NULL), or argv and dir
 * (@p cwd)}; the mon ones with the cluster's @p fsid and how @p o
 * connects. Pure but for realpath(). NULL on ENOMEM, or for a fault with
 * no undo (osd-down, end, an exec: without undo:).
 */
json_t *ccb_fault_undo_record(const struct ccb_opts *o, const char *fsid, const char *cwd,
                              const struct ccb_fault_schedule *s, size_t i, const json_t *before);

/* A flag --fault may set or unset (set:FLAG). */
bool ccb_fault_known_flag(const char *flag);

/* Drop a reference to @p fp; the last one shuts its connection down. */
void ccb_fault_unref(struct ccb_fault_point *fp);

#endif
