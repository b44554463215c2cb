/**
 * @file stats.h
 * Per-second series: bytes, ops and summed latency per whole second of a
 * run, one series per client (no sharing on the hot path), merged by
 * addition after the clients join.
 */
#ifndef CCBENCH_STATS_H
#define CCBENCH_STATS_H

#include <stddef.h>
#include <stdint.h>

struct ccb_series {
	uint64_t *bytes;
	uint64_t *ops;
	uint64_t *lat_sum_nsec;
	size_t n_secs; /**< seconds with a slot (the last may be partial) */
	size_t cap;
};

/** Summary of per-second bandwidth samples. */
struct ccb_bw_summary {
	double mean_mib_s, stddev_mib_s, min_mib_s, max_mib_s;
	size_t samples;
};

void ccb_series_init(struct ccb_series *s);
void ccb_series_free(struct ccb_series *s);

/**
 * Account one completed op in second @p sec. Grows geometrically, so it
 * allocates about log2(seconds) times per run, never per op.
 *
 * @return 0, or -ENOMEM.
 */
int ccb_series_add(struct ccb_series *s, size_t sec, uint64_t bytes, uint64_t lat_nsec);

/** Add @p src into @p dst second by second. @return 0 or -ENOMEM. */
int ccb_series_merge(struct ccb_series *dst, const struct ccb_series *src);

/**
 * Bandwidth statistics over the whole seconds of a run lasting
 * @p run_nsec: the trailing partial second is left out, unless the run
 * is shorter than a second, in which case its one sample is the mean.
 */
void ccb_series_bw_summary(const struct ccb_series *s, uint64_t run_nsec,
                           struct ccb_bw_summary *out);

/**
 * The 0.975 quantile of Student's t with @p df degrees of freedom: the
 * factor of a two-sided 95 % confidence interval of a mean of df + 1
 * samples (12.706 for 2 samples, 4.303 for 3, 1.960 in the limit).
 * A table to 30, then the Cornish-Fisher expansion (within 0.001).
 * @p df 0: infinity (one sample has no interval).
 */
double ccb_t95(size_t df);

/**
 * Mean of @p n values and the half-width of its 95 % confidence interval
 * (Student t, sample stddev): *@p half INFINITY when n < 2.
 */
double ccb_mean_ci95(const double *v, size_t n, double *half);

/**
 * The half-width of the 95 % confidence interval of the difference of two
 * means (Welch: unequal variances, Welch-Satterthwaite degrees of freedom,
 * rounded down, so the interval errs wide): whether two sets of runs of
 * the same measurement tell their means apart. INFINITY when either has
 * fewer than 2 runs.
 */
double ccb_welch_half95(double sd1, size_t n1, double sd2, size_t n2);

/** Jain's fairness index of @p n values: 1 when all equal, 1/n when one has all. */
double ccb_jain_index(const double *v, size_t n);

#endif
