/**
 * @file hist.h
 * Log-linear latency histogram, after fio's stat.h.
 *
 * Values (nanoseconds) below 2^CCB_HIST_SUB_BITS are counted exactly. Above,
 * each power of two [2^k, 2^(k+1)) is split into 2^CCB_HIST_SUB_BITS equal
 * sub-buckets, so a bucket's width is at most 1/64 of its lower bound and
 * any percentile read back (the bucket midpoint) is within 1% of the true
 * sample. A histogram is a fixed array: recording never allocates, two
 * histograms merge by adding counts, and one per client is merged after
 * the clients join (no shared writes on the hot path).
 */
#ifndef CCBENCH_HIST_H
#define CCBENCH_HIST_H

#include <stdint.h>

#define CCB_HIST_SUB_BITS 6
#define CCB_HIST_SUB      (1u << CCB_HIST_SUB_BITS)
/* Group 0 holds the exact values [0, 64); groups 1..58 hold the powers of two 2^6..2^63. */
#define CCB_HIST_GROUPS  (64 - CCB_HIST_SUB_BITS + 1)
#define CCB_HIST_BUCKETS (CCB_HIST_GROUPS * CCB_HIST_SUB)

struct ccb_hist {
	uint64_t count;    /**< samples recorded */
	uint64_t min_nsec; /**< exact minimum (UINT64_MAX when empty) */
	uint64_t max_nsec; /**< exact maximum */
	double sum_nsec;   /**< exact sum, for the mean */
	double sumsq_nsec; /**< exact sum of squares, for the stddev */
	uint64_t buckets[CCB_HIST_BUCKETS];
};

/** Empty a histogram. */
void ccb_hist_init(struct ccb_hist *h);

/** Record one sample in nanoseconds. Never fails, never allocates. */
void ccb_hist_record(struct ccb_hist *h, uint64_t nsec);

/** Add every sample of @p src to @p dst. */
void ccb_hist_merge(struct ccb_hist *dst, const struct ccb_hist *src);

/**
 * Value at percentile @p pct (0 < pct <= 100): the midpoint of the bucket
 * holding the ceil(pct/100 * count)-th smallest sample, clamped to
 * [min, max]. 0 when empty. pct is clamped to the valid range, so pct <= 0
 * reads the bucket of the minimum and pct >= 100 that of the maximum (p100
 * is the max only to within the bucket, like any other percentile).
 */
uint64_t ccb_hist_percentile(const struct ccb_hist *h, double pct);

/** Exact mean in nanoseconds (0 when empty). */
double ccb_hist_mean(const struct ccb_hist *h);

/**
 * Exact population standard deviation in nanoseconds (0 when fewer than 2
 * samples). Computed from sum and sum of squares, so it loses precision
 * when the spread is many orders of magnitude below the mean.
 */
double ccb_hist_stddev(const struct ccb_hist *h);

/** Index of the bucket that holds @p nsec (exposed for tests). */
unsigned ccb_hist_bucket_of(uint64_t nsec);

/** Lowest value held by bucket @p idx (exposed for tests); UINT64_MAX if idx >= CCB_HIST_BUCKETS.
 */
uint64_t ccb_hist_bucket_low(unsigned idx);

#endif
