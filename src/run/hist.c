/*
 * Log-linear latency histogram (see hist.h for the bucket layout).
 *
 * Bucket index of v >= 64: with msb the index of its highest set bit, the
 * group is msb - 5 (so [64, 128) is group 1, right after the 64 exact
 * values of group 0) and the sub-bucket is the 6 bits just below the msb.
 * Group g >= 1 therefore covers [2^(g+5), 2^(g+6)) with buckets
 * 2^(g-1) wide, i.e. at most 1/64 of the bucket's lower bound.
 */
#include "ccbench/hist.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* Width of the buckets of group @g: 1 for the exact group 0 and for group 1. */
static uint64_t group_width(unsigned g)
{
	return g == 0 ? 1 : 1ull << (g - 1);
}

void ccb_hist_init(struct ccb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_nsec = UINT64_MAX;
}

unsigned ccb_hist_bucket_of(uint64_t nsec)
{
	unsigned msb, shift;

	if (nsec < CCB_HIST_SUB)
		return (unsigned)nsec;
	msb = 63u - (unsigned)__builtin_clzll(nsec);
	shift = msb - CCB_HIST_SUB_BITS;
	return (msb - CCB_HIST_SUB_BITS + 1) * CCB_HIST_SUB +
	       (unsigned)((nsec >> shift) & (CCB_HIST_SUB - 1));
}

uint64_t ccb_hist_bucket_low(unsigned idx)
{
	unsigned g = idx / CCB_HIST_SUB;
	uint64_t sub = idx % CCB_HIST_SUB;
	unsigned msb;

	if (idx >= CCB_HIST_BUCKETS)
		return UINT64_MAX;
	if (g == 0)
		return sub;
	msb = g + CCB_HIST_SUB_BITS - 1;
	return (1ull << msb) | (sub << (msb - CCB_HIST_SUB_BITS));
}

void ccb_hist_record(struct ccb_hist *h, uint64_t nsec)
{
	double d = (double)nsec;

	h->buckets[ccb_hist_bucket_of(nsec)]++;
	h->count++;
	if (nsec < h->min_nsec)
		h->min_nsec = nsec;
	if (nsec > h->max_nsec)
		h->max_nsec = nsec;
	h->sum_nsec += d;
	h->sumsq_nsec += d * d;
}

void ccb_hist_merge(struct ccb_hist *dst, const struct ccb_hist *src)
{
	unsigned i;

	if (src->count == 0)
		return;
	for (i = 0; i < CCB_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
	dst->count += src->count;
	if (src->min_nsec < dst->min_nsec)
		dst->min_nsec = src->min_nsec;
	if (src->max_nsec > dst->max_nsec)
		dst->max_nsec = src->max_nsec;
	dst->sum_nsec += src->sum_nsec;
	dst->sumsq_nsec += src->sumsq_nsec;
}

/*
 * 1-based rank of the sample at @pct: ceil(pct/100 * count), at least 1.
 * The product is nudged down by a few ulps first because decimal
 * percentages are inexact in binary: 0.3 * 10 is 3.0000000000000004,
 * and a plain ceil() would make p30 of ten samples the 4th instead of the
 * 3rd. Out-of-range pct is clamped rather than trusted.
 */
static uint64_t percentile_rank(uint64_t count, double pct)
{
	double x;
	uint64_t rank;

	if (!(pct > 0.0))
		return 1;
	if (pct >= 100.0)
		return count;
	x = pct * (double)count / 100.0;
	x = ceil(x - x * 4 * DBL_EPSILON);
	if (x >= (double)count)
		return count;
	rank = (uint64_t)x;
	return rank ? rank : 1;
}

uint64_t ccb_hist_percentile(const struct ccb_hist *h, double pct)
{
	uint64_t rank, seen = 0, mid;
	unsigned i;

	if (h->count == 0)
		return 0;
	rank = percentile_rank(h->count, pct);
	for (i = 0; i < CCB_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			break;
	}
	/* Unreachable unless buckets and count disagree; max is the only safe answer. */
	if (i == CCB_HIST_BUCKETS)
		return h->max_nsec;
	/*
	 * The midpoint bounds the error by half a bucket (< 1/128 of the value)
	 * instead of a whole one. Clamping keeps a sparse end bucket from
	 * reporting a value outside what was seen (a lone sample reads back
	 * exactly).
	 */
	mid = ccb_hist_bucket_low(i) + group_width(i / CCB_HIST_SUB) / 2;
	if (mid < h->min_nsec)
		return h->min_nsec;
	if (mid > h->max_nsec)
		return h->max_nsec;
	return mid;
}

double ccb_hist_mean(const struct ccb_hist *h)
{
	if (h->count == 0)
		return 0.0;
	return h->sum_nsec / (double)h->count;
}

/*
 * From the raw sums, because those are what merge can add. The
 * subtraction cancels when the spread is tiny next to the mean (say 10ns
 * around 100ms), so the variance can come out slightly negative: clamp it.
 */
double ccb_hist_stddev(const struct ccb_hist *h)
{
	double n, mean, var;

	if (h->count < 2)
		return 0.0;
	n = (double)h->count;
	mean = h->sum_nsec / n;
	var = h->sumsq_nsec / n - mean * mean;
	return var > 0.0 ? sqrt(var) : 0.0;
}
