/**
 * @file timeline.h
 * What a run's timeline needs beyond the per-second series (stats.h): the
 * latency distribution of each second (its p50 and p99) and when ops
 * completed, to 10 ms. Kept only when something asks for a timeline (a
 * fault schedule, fault.h): the engine then records each op here too.
 *
 * Cheap on the hot path and bounded in memory for long runs:
 *  - each client fills one coarse histogram for the second its ops start in
 *    (struct ccb_sech, under 1 KiB: 8 buckets per power of two) and hands
 *    it to the run's table once the second is over, under a lock taken
 *    once per second per client, never per op; the table holds one merged
 *    histogram per second of the run, whatever the clients;
 *  - each client sets one bit per 10 ms tick in which an op of its own
 *    completed (a bitmap of its own, grown geometrically like the series),
 *    OR-ed into the run's when the client ends: a tick with no bit set had
 *    no completion at all, which is how the I/O pause is measured.
 * Both stop growing at CCB_TIMELINE_MAX_SECS (the result says so).
 */
#ifndef CCBENCH_TIMELINE_H
#define CCBENCH_TIMELINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Values are kept in units of 2^CCB_SECH_SHIFT ns (1.024 us). */
#define CCB_SECH_SHIFT 10
/** 2^CCB_SECH_SUB_BITS buckets per power of two: a bucket is 1/8 of its low bound wide. */
#define CCB_SECH_SUB_BITS 3
#define CCB_SECH_SUB      (1u << CCB_SECH_SUB_BITS)
/** Group 0 holds 0..7 units exactly; group g >= 1 the powers up to 2^(g+2) units
 *  (29 groups: up to 2^41 ns, about 37 minutes; longer ops count in the last). */
#define CCB_SECH_GROUPS  29
#define CCB_SECH_BUCKETS (CCB_SECH_GROUPS * CCB_SECH_SUB)

/** The completion grid of the timeline: 10 ms ticks. */
#define CCB_TIMELINE_TICK_NSEC 10000000ull
/** Seconds a timeline keeps (six hours: 20 MiB of histograms, 270 KiB of ticks a client). */
#define CCB_TIMELINE_MAX_SECS (6u * 3600u)

/** The latencies of the ops that started in one second, coarse (within 6 %
 *  at the bucket's midpoint), and the errors in that second. */
struct ccb_sech {
	uint32_t n[CCB_SECH_BUCKETS];
	uint32_t count;  /**< ops completed in the second */
	uint32_t errors; /**< ops that failed in it */
	uint64_t max_nsec;
};

/** A client's share, owned by its thread while it runs. */
struct ccb_tl_client {
	struct ccb_sech cur; /**< the second the client is in */
	size_t cur_sec;
	bool used;
	uint64_t *done; /**< a bit per tick with a completion of this client */
	size_t done_words;
	bool oom;
};

/** The run's timeline: every client's seconds and ticks, merged. */
struct ccb_timeline {
	pthread_mutex_t lock;
	struct ccb_sech *secs; /**< one per second of the run */
	size_t n_secs, cap_secs;
	uint64_t *done; /**< merged when each client ends */
	size_t done_words;
	bool truncated; /**< a second past CCB_TIMELINE_MAX_SECS, or no memory: not all kept */
};

/** Record @p nsec in @p h. */
void ccb_sech_record(struct ccb_sech *h, uint64_t nsec);
/** Add @p src to @p dst. */
void ccb_sech_merge(struct ccb_sech *dst, const struct ccb_sech *src);
/**
 * The value at percentile @p pct (0 < pct <= 100) in nanoseconds: the
 * midpoint of its bucket, at most the exact maximum (which p100 is);
 * 0 when empty.
 */
uint64_t ccb_sech_percentile(const struct ccb_sech *h, double pct);

/** Make @p t empty. @return 0. */
int ccb_timeline_init(struct ccb_timeline *t);
/** Release what @p t holds (after every client ended). */
void ccb_timeline_free(struct ccb_timeline *t);

/**
 * An op of client @p c that started @p started_nsec into the run completed
 * @p since_nsec into it, after @p lat_nsec: the client thread's own call.
 * Its latency counts in the second it started in (an op stuck through a
 * stall is the second that issued it's, not the one after the stall
 * that saw it come back), its completion in its tick. Allocates only when
 * a second or a bitmap word is new (geometric growth), never per op.
 */
void ccb_timeline_op(struct ccb_timeline *t, struct ccb_tl_client *c, uint64_t started_nsec,
                     uint64_t since_nsec, uint64_t lat_nsec);
/** An op of client @p c failed @p since_nsec into the run. */
void ccb_timeline_error(struct ccb_timeline *t, struct ccb_tl_client *c, uint64_t since_nsec);
/** Client @p c is done: its last second and its ticks into @p t. */
void ccb_timeline_client_end(struct ccb_timeline *t, struct ccb_tl_client *c);
/** Release what @p c holds. */
void ccb_tl_client_free(struct ccb_tl_client *c);

/** Whether any op completed in tick @p tick (after every client ended). */
bool ccb_timeline_done_in(const struct ccb_timeline *t, size_t tick);

#endif
