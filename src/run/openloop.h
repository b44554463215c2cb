/**
 * @file openloop.h
 * Open-loop load (--rate): a schedule of intended start times per client,
 * a bounded backlog of arrivals that found every slot busy, and the two
 * latencies of each op, response time (from its intended start) and
 * service time (from its submission).
 *
 * The backlog is two cursors over the schedule, not a queue: the arrival
 * cursor is the first arrival still in the future, the issue cursor the
 * oldest arrival not yet issued or dropped; the backlog is the arrivals
 * between them. Both cursors step the same seeded sequence, so an intended
 * time is recomputed, never stored. The engine calls in at three points
 * of its client loop (take an arrival for a free slot, record a reaped op,
 * sleep until the next arrival); no path knows about any of it.
 *
 * All of a client's state is written by its own thread only and merged
 * after join, as the closed loop's histogram is.
 */
#ifndef CCBENCH_OPENLOOP_H
#define CCBENCH_OPENLOOP_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/hist.h>

struct ccb_run;
struct ccb_slot;

/** How arrivals are spaced (--arrivals). */
enum ccb_arrivals {
	CCB_ARRIVALS_UNIFORM, /**< one every 1/rate, clients out of phase */
	CCB_ARRIVALS_POISSON, /**< exponential gaps of mean 1/rate, seeded */
};

/** One position in a client's schedule. */
struct ccb_ol_cursor {
	uint64_t idx;  /**< arrivals before this one */
	double t_nsec; /**< intended time of arrival idx, from the schedule's start */
	uint64_t rng;  /**< poisson: the generator's state after arrival idx */
};

/** One client's schedule, backlog and counters. */
struct ccb_openloop {
	enum ccb_arrivals arrivals;
	uint64_t start_nsec;   /**< CLOCK_MONOTONIC of the schedule's start (the run's) */
	double period_nsec;    /**< mean gap: 1e9 / this client's rate */
	double phase_nsec;     /**< uniform: this client's offset into the first gap */
	uint64_t seed;         /**< poisson: this client's seed (from the run's and its index) */
	uint64_t backlog_max;  /**< most waiting arrivals; 0: bounded by time instead */
	uint64_t backlog_nsec; /**< longest wait before an arrival is dropped; 0: by count */
	struct ccb_ol_cursor arr, next;
	/** When a slot last became free after all were busy; UINT64_MAX while all are. */
	uint64_t free_since_nsec;

	uint64_t arrivals_total;  /**< arrivals whose intended time passed (to the run's end) */
	uint64_t issued;          /**< arrivals submitted */
	uint64_t late;            /**< submitted more than one period after the intended time */
	uint64_t dropped;         /**< past the backlog bound: never submitted */
	uint64_t left;            /**< still waiting when the run ended: never submitted */
	uint64_t due_nsec;        /**< the run's end by its duration (0: none given) */
	uint64_t done_after_due;  /**< ops that completed after due_nsec: in flight at the end */
	uint64_t end_nsec;        /**< the end of the arrivals that count (ccb_openloop_finish) */
	struct ccb_hist response; /**< end minus intended start, successful ops */
	struct ccb_hist lag;      /**< submission minus intended start, where a slot was free */
};

/** The run's open-loop parameters, from the options (run->openloop). */
struct ccb_openloop_run {
	double target_ops_s;     /**< the whole run's (a group's: this member's share) */
	uint64_t target_bytes_s; /**< as given, when --rate was bytes per second; else 0 */
	enum ccb_arrivals arrivals;
	uint64_t seed;
	uint64_t backlog_max, backlog_usec;
	unsigned members; /**< --members the rate was split across (1 without --group) */
};

/**
 * Initialise one client's schedule: @p rate_ops_s of this client, the
 * schedule starting at @p start_nsec; uniform arrivals are offset by
 * @p phase (0 to 1) of a gap, so that N clients interleave evenly.
 * Exactly one of @p backlog_max and @p backlog_nsec is non-zero.
 */
void ccb_openloop_init(struct ccb_openloop *ol, enum ccb_arrivals arrivals, double rate_ops_s,
                       uint64_t seed, double phase, uint64_t start_nsec, uint64_t backlog_max,
                       uint64_t backlog_nsec);

/**
 * An arrival for a free slot at @p now: counts the arrivals that came,
 * drops those past the backlog bound, and hands out the oldest one
 * waiting (its intended time in *intended_nsec), counting it late or its
 * issuer lag. @p fills_last sets that this submission makes every slot
 * busy. @p now is the op's submission time.
 *
 * @return true when an arrival was taken, false when none is due.
 */
bool ccb_openloop_take(struct ccb_openloop *ol, uint64_t now, bool fills_last,
                       uint64_t *intended_nsec);

/**
 * Record a successful op that completed: its response time, and, when
 * @p was_full (every slot was busy before it), that a slot is free since
 * its end.
 */
void ccb_openloop_done(struct ccb_openloop *ol, uint64_t intended_nsec, uint64_t end_nsec,
                       bool was_full);

/** Whichever comes first: @p until_nsec or the next arrival's intended time. */
uint64_t ccb_openloop_wake(const struct ccb_openloop *ol, uint64_t until_nsec);

/** The run ended at @p end_nsec: count its arrivals up to then; those still waiting are left. */
void ccb_openloop_finish(struct ccb_openloop *ol, uint64_t end_nsec);

/** "uniform" or "poisson" to its enum; -EINVAL for another word. */
int ccb_arrivals_parse(const char *word, enum ccb_arrivals *out);

/**
 * From the run's options: when --rate is given, allocate run->openloop and
 * each client's schedule (rate split over --members and --clients, seeds
 * from --rate-seed or the clock). Call with the clients initialised,
 * before run->start_nsec is set; ccb_openloop_start() sets it.
 *
 * @return 0 (also without --rate), -EINVAL (a rate that is no op per
 *         second for this op size, message in @p err), -ENOMEM.
 */
int ccb_openloop_setup(struct ccb_run *run, char *err, size_t err_len);

/** Start every client's schedule at run->start_nsec. */
void ccb_openloop_start(struct ccb_run *run);

/** Release what ccb_openloop_setup() allocated. */
void ccb_openloop_free(struct ccb_run *run);

/**
 * The result's "open_loop" object: target and achieved rate, arrivals,
 * late, dropped, issuer lag, response and service time (each through
 * @p latency_json, the result's percentile object), and the verdict with
 * its rule. NULL without --rate or when out of memory.
 */
json_t *ccb_openloop_json(const struct ccb_run *run,
                          json_t *(*latency_json)(const struct ccb_hist *h));

#endif
