/**
 * @file capacity.h
 * The capacity search (`ccbench capacity WORKLOAD ... --slo p99<=10ms`):
 * the highest open-loop rate a workload carries while its response time
 * meets a latency target. A short closed-loop probe gives a starting
 * figure; the rate steps up geometrically from below it until a step
 * fails, down if the first one does, then bisects the bracket to
 * --precision; two more steps measure the latency at 50 % and 70 % of
 * the capacity found (headroom). Each step is one open-loop point
 * (point.h), run until steady or --step-time.
 *
 * The search itself (struct ccb_cap_search) is pure: it proposes the next
 * rate from the outcomes recorded so far, so it is tested against a model
 * of latency against rate with no cluster.
 */
#ifndef CCBENCH_CAPACITY_H
#define CCBENCH_CAPACITY_H

#include <ccbench/command.h>
#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

struct ccb_cli;

/** Where the search is: what the next step is for. */
enum ccb_cap_phase {
	CCB_CAP_UP,     /**< no step failed yet: step the rate up */
	CCB_CAP_DOWN,   /**< no step passed yet: step the rate down */
	CCB_CAP_BISECT, /**< a bracket: bisect it (geometric mean) */
	CCB_CAP_DONE,   /**< the bracket is within the precision, or a bound was met */
};

/** Up by this factor per step from the start, down by half. */
#define CCB_CAP_STEP_UP   1.4
#define CCB_CAP_STEP_DOWN 0.5
/** The first step's rate as a share of the closed-loop probe's. */
#define CCB_CAP_START_SHARE 0.6
/** No search below this rate (ops per second), nor above the open loop's top. */
#define CCB_CAP_MIN_OPS_S 0.5
#define CCB_CAP_MAX_OPS_S 1e7

struct ccb_cap_search {
	double start;     /**< the first step's rate */
	double precision; /**< a fraction: done when hi / lo - 1 <= it */
	unsigned max_steps;
	unsigned steps;    /**< steps recorded */
	double lo;         /**< the highest rate that passed, 0: none yet */
	double hi;         /**< the lowest rate above lo that failed, 0: none yet */
	bool out_of_order; /**< a step failed below one that passed (noise, or not monotone) */
};

/**
 * Start a search at @p start_ops_s (> 0), to @p precision (a fraction,
 * 0.05 for 5 %), in at most @p max_steps steps.
 */
void ccb_cap_search_init(struct ccb_cap_search *s, double start_ops_s, double precision,
                         unsigned max_steps);

/** The phase the next step belongs to (CCB_CAP_DONE: no next step). */
enum ccb_cap_phase ccb_cap_search_phase(const struct ccb_cap_search *s);

/** The next step's rate in ops per second, or 0 when the search is done. */
double ccb_cap_search_next(const struct ccb_cap_search *s);

/** Record that a step at @p rate_ops_s passed (carried, SLO met) or not. */
void ccb_cap_search_record(struct ccb_cap_search *s, double rate_ops_s, bool pass);

/**
 * Whether a step at @p rate_ops_s carried its rate: none dropped, and the
 * arrivals not completed when it ended (@p open: waiting, or in flight)
 * at most 1 % of @p arrivals or what a carried rate leaves open, whichever
 * is more. That is Little's law's E = rate x mean service time (@p
 * svc_mean_s, from submission), plus its spread (sqrt(E), twice that for
 * @p poisson arrivals) and one for the snapshot, never more than twice
 * the @p slots (--max-in-flight x clients). A rate over the capacity C
 * leaves (rate - C) x T more open at the end of a step of T seconds, of
 * which the mean service time holds half at most. The rule until
 * 2026-12-04 (at most the slots' worth waiting, whatever was in flight)
 * let a rate up to C + slots / T pass: 108.9 ops/s over a mClock limit of
 * 100 with 16 slots and 2 s steps, 132 with 64.
 */
bool ccb_cap_carried(double rate_ops_s, double arrivals, double open, double dropped, double slots,
                     double svc_mean_s, bool poisson);

/** "up", "down", "bisect", "done". */
const char *ccb_cap_phase_name(enum ccb_cap_phase p);

/**
 * `ccbench capacity WORKLOAD ...`: check the workload's options (exit 2
 * before the cluster is touched), run the probe and the steps, write the
 * views (--format, --output, --json, --csv, --svg), also after Ctrl-C (the
 * partial curve, status "interrupted").
 *
 * @return 0 (a capacity found), 1 (none, or a step failed), 2 (bad
 *         input), 128+N after signal N.
 */
int ccb_capacity_command(const struct ccb_cli *cli, int argc, char **argv);

/**
 * Make @p w the command line of a search of @p workload ("rados write"):
 * @p cli's options, the workload's command and path, and the capacity
 * options (--slo, --step-time ...) allowed. Not validated.
 *
 * @return 0, or -EINVAL with @p err set (not a workload that can be paced).
 */
int ccb_capacity_select(const struct ccb_cli *cli, const char *workload, struct ccb_cli *w,
                        char *err, size_t len);

/**
 * Run the search @p w describes (validated, from ccb_capacity_select()):
 * the probe, the steps, the headroom steps, every change put back. The
 * document goes to @p out, also after a failure or Ctrl-C (then partial),
 * NULL only when it could not be made.
 *
 * @return as ccb_capacity_command(), but 0 also when no capacity was found
 *         (the document's status says "none").
 */
int ccb_capacity_search_doc(const struct ccb_cli *w, int argc, char **argv, json_t **out);

/** The capacity command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_capacity_commands[];

#endif
