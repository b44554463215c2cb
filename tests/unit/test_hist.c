/* Unit tests for src/hist.c: bucket layout, percentile accuracy, merge. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/hist.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define N_SAMPLES 1000000u

/* xorshift64*: fixed seed, so every run sees the same samples. */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Uniform in [0, 1). */
static double rng_unit(uint64_t *s)
{
	return (double)(rng_next(s) >> 11) * 0x1p-53;
}

/* Uniform 1us..100ms. */
static uint64_t gen_uniform(uint64_t *s)
{
	return 1000 + (uint64_t)(rng_unit(s) * (100e6 - 1000));
}

/* Log-uniform 1us..100ms: equal mass per decade, so every group is exercised. */
static uint64_t gen_log_uniform(uint64_t *s)
{
	return (uint64_t)exp(log(1e3) + rng_unit(s) * (log(100e6) - log(1e3)));
}

/* Exponential, mean 2ms: values all the way down to the exact buckets. */
static uint64_t gen_exponential(uint64_t *s)
{
	return (uint64_t)(-2e6 * log(1.0 - rng_unit(s)));
}

/* 90% cache hits around 200us, 10% disk reads around 40ms. */
static uint64_t gen_bimodal(uint64_t *s)
{
	if (rng_unit(s) < 0.9)
		return 150000 + (uint64_t)(rng_unit(s) * 100000);
	return 30000000 + (uint64_t)(rng_unit(s) * 20000000);
}

/* Pareto (alpha 1.5, from 100us): a long tail that stresses p99.9 and up. */
static uint64_t gen_pareto(uint64_t *s)
{
	return (uint64_t)(100e3 / pow(1.0 - rng_unit(s), 1.0 / 1.5));
}

struct dist {
	const char *name;
	uint64_t (*gen)(uint64_t *s);
};

static const struct dist dists[] = {
    {"uniform", gen_uniform}, {"log-uniform", gen_log_uniform}, {"exponential", gen_exponential},
    {"bimodal", gen_bimodal}, {"pareto", gen_pareto},
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* Static rather than malloc'ed: a failed assertion longjmps past any free(). */
static uint64_t samples[N_SAMPLES];

static uint64_t *gen_samples(const struct dist *d, uint64_t seed)
{
	size_t i;

	for (i = 0; i < N_SAMPLES; i++)
		samples[i] = d->gen(&seed);
	return samples;
}

static void assert_rel_close(double got, double want, double tol, const char *what)
{
	double err = want == 0.0 ? fabs(got) : fabs(got - want) / fabs(want);

	if (!(err <= tol))
		fail_msg("%s: got %.17g want %.17g (rel err %.3g > %.3g)", what, got, want, err,
		         tol);
}

/* Highest value of bucket @i; the last bucket ends at UINT64_MAX. */
static uint64_t bucket_high(unsigned i)
{
	return i + 1 < CCB_HIST_BUCKETS ? ccb_hist_bucket_low(i + 1) - 1 : UINT64_MAX;
}

static void test_bucket_layout(void **state)
{
	uint64_t prev = 0;
	unsigned i;

	(void)state;
	for (i = 0; i < CCB_HIST_BUCKETS; i++) {
		uint64_t low = ccb_hist_bucket_low(i), high = bucket_high(i);

		if (i > 0 && low <= prev)
			fail_msg("bucket %u: low %llu not above %llu", i, (unsigned long long)low,
			         (unsigned long long)prev);
		prev = low;
		if (ccb_hist_bucket_of(low) != i || ccb_hist_bucket_of(high) != i)
			fail_msg("bucket %u [%llu, %llu] maps to %u..%u", i,
			         (unsigned long long)low, (unsigned long long)high,
			         ccb_hist_bucket_of(low), ccb_hist_bucket_of(high));
		/* The header's promise: width at most 1/64 of the lower bound (1 below 128). */
		if (i < 2 * CCB_HIST_SUB)
			assert_true(high == low);
		else
			assert_true(high - low + 1 <= low / CCB_HIST_SUB);
	}
	/* The buckets tile [0, UINT64_MAX] with no gap: bucket 0 starts at 0 ... */
	assert_true(ccb_hist_bucket_low(0) == 0);
	/* ... and the last one ends at UINT64_MAX. */
	assert_int_equal(ccb_hist_bucket_of(UINT64_MAX), CCB_HIST_BUCKETS - 1);
	assert_true(ccb_hist_bucket_low(CCB_HIST_BUCKETS) == UINT64_MAX);
}

static void test_bucket_known_values(void **state)
{
	static const struct {
		uint64_t v;
		unsigned idx;
	} cases[] = {
	    {0, 0},
	    {1, 1},
	    {63, 63},
	    {64, 64},
	    {65, 65},
	    {127, 127},
	    {128, 128},
	    {129, 128},
	    {130, 129},
	    {255, 191},
	    {256, 192},
	    {259, 192},
	    {260, 193},
	    {1000, 4 * 64 + 61},
	    {1ull << 63, 58 * 64},
	    {UINT64_MAX, 58 * 64 + 63},
	};
	uint64_t seed = 42;
	unsigned k, i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (ccb_hist_bucket_of(cases[i].v) != cases[i].idx)
			fail_msg("bucket_of(%llu) = %u, want %u", (unsigned long long)cases[i].v,
			         ccb_hist_bucket_of(cases[i].v), cases[i].idx);
	}
	/* Every power of two from 2^6 opens its own group. */
	for (k = CCB_HIST_SUB_BITS; k < 64; k++) {
		unsigned first = (k - CCB_HIST_SUB_BITS + 1) * CCB_HIST_SUB;

		assert_int_equal(ccb_hist_bucket_of(1ull << k), first);
		assert_int_equal(ccb_hist_bucket_of((1ull << k) - 1), first - 1);
	}
	/* Random values of every magnitude land in a bucket that contains them. */
	for (i = 0; i < 1000000; i++) {
		uint64_t v = rng_next(&seed) >> (rng_next(&seed) % 64);
		unsigned b = ccb_hist_bucket_of(v);

		assert_true(b < CCB_HIST_BUCKETS);
		assert_true(ccb_hist_bucket_low(b) <= v && v <= bucket_high(b));
	}
}

static void test_empty(void **state)
{
	struct ccb_hist h, other;
	unsigned i;

	(void)state;
	memset(&h, 0xa5, sizeof(h));
	ccb_hist_init(&h);
	assert_true(h.count == 0);
	assert_true(h.min_nsec == UINT64_MAX);
	assert_true(h.max_nsec == 0);
	for (i = 0; i < CCB_HIST_BUCKETS; i++)
		assert_true(h.buckets[i] == 0);
	assert_true(ccb_hist_percentile(&h, 50) == 0);
	assert_true(ccb_hist_percentile(&h, 100) == 0);
	assert_true(ccb_hist_percentile(&h, 0.001) == 0);
	assert_true(ccb_hist_mean(&h) == 0.0);
	assert_true(ccb_hist_stddev(&h) == 0.0);

	/* Merging empties keeps the empty-min sentinel. */
	ccb_hist_init(&other);
	ccb_hist_merge(&h, &other);
	assert_true(h.count == 0);
	assert_true(h.min_nsec == UINT64_MAX);
	assert_true(ccb_hist_percentile(&h, 50) == 0);

	/* An empty source leaves the destination alone, and vice versa. */
	ccb_hist_record(&other, 1234);
	ccb_hist_merge(&other, &h);
	assert_true(other.count == 1 && other.min_nsec == 1234 && other.max_nsec == 1234);
	ccb_hist_merge(&h, &other);
	assert_memory_equal(&h, &other, sizeof(h));
}

static void test_single_sample(void **state)
{
	static const uint64_t vals[] = {0, 1, 63, 64, 1000, 123456789, 1ull << 63, UINT64_MAX};
	struct ccb_hist h;
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(vals); i++) {
		ccb_hist_init(&h);
		ccb_hist_record(&h, vals[i]);
		/* One sample: min and max pin every percentile to it exactly. */
		assert_true(ccb_hist_percentile(&h, 0.1) == vals[i]);
		assert_true(ccb_hist_percentile(&h, 50) == vals[i]);
		assert_true(ccb_hist_percentile(&h, 100) == vals[i]);
		assert_true(ccb_hist_mean(&h) == (double)vals[i]);
		assert_true(ccb_hist_stddev(&h) == 0.0);
	}
}

static void test_small_values_exact(void **state)
{
	struct ccb_hist h;
	uint64_t v, k;

	(void)state;
	ccb_hist_init(&h);
	for (v = 0; v < 2 * CCB_HIST_SUB; v++)
		for (k = 0; k <= v; k++)
			ccb_hist_record(&h, v);
	/* Below 128 every bucket is one value wide, so counts are per value. */
	for (v = 0; v < 2 * CCB_HIST_SUB; v++)
		assert_true(h.buckets[v] == v + 1);
	assert_true(h.count == 128 * 129 / 2);

	/* Ten samples 0..9: p30 is the 3rd smallest, even though 0.3 * 10 > 3 in binary. */
	ccb_hist_init(&h);
	for (v = 0; v < 10; v++)
		ccb_hist_record(&h, v);
	assert_true(ccb_hist_percentile(&h, 10) == 0);
	assert_true(ccb_hist_percentile(&h, 10.0001) == 1);
	assert_true(ccb_hist_percentile(&h, 30) == 2);
	assert_true(ccb_hist_percentile(&h, 50) == 4);
	assert_true(ccb_hist_percentile(&h, 70) == 6);
	assert_true(ccb_hist_percentile(&h, 90) == 8);
	assert_true(ccb_hist_percentile(&h, 99.9) == 9);
	assert_true(ccb_hist_percentile(&h, 100) == 9);
	/* Out-of-range pct is clamped to the first/last sample. */
	assert_true(ccb_hist_percentile(&h, 0) == 0);
	assert_true(ccb_hist_percentile(&h, -5) == 0);
	assert_true(ccb_hist_percentile(&h, NAN) == 0);
	assert_true(ccb_hist_percentile(&h, 250) == 9);

	/*
	 * 71.808 * 87500 / 100 is 62832 exactly, but 62832.00000000001 in
	 * doubles: a bare ceil() would read the 62833rd sample.
	 */
	ccb_hist_init(&h);
	for (k = 0; k < 87500; k++)
		ccb_hist_record(&h, k < 62832 ? 1 : 2);
	assert_true(ccb_hist_percentile(&h, 71.808) == 1);
	assert_true(ccb_hist_percentile(&h, 71.809) == 2);
}

/* Above 128, the answer is the bucket midpoint, clamped to the observed range. */
static void test_percentile_midpoint(void **state)
{
	struct ccb_hist h;

	(void)state;
	/* 1000 and 1007 share bucket [1000, 1008); 5000 is in [4992, 5056). */
	ccb_hist_init(&h);
	ccb_hist_record(&h, 1000);
	ccb_hist_record(&h, 1007);
	ccb_hist_record(&h, 5000);
	assert_int_equal(ccb_hist_bucket_low(ccb_hist_bucket_of(1007)), 1000);
	assert_int_equal(ccb_hist_bucket_low(ccb_hist_bucket_of(5000)), 4992);
	assert_int_equal(ccb_hist_percentile(&h, 33), 1004);
	assert_int_equal(ccb_hist_percentile(&h, 50), 1004);
	assert_int_equal(ccb_hist_percentile(&h, 66.6), 1004);
	/* The midpoint 5024 was never seen: clamp to max. */
	assert_int_equal(ccb_hist_percentile(&h, 66.7), 5000);
	assert_int_equal(ccb_hist_percentile(&h, 100), 5000);
	/* Once the max is above the midpoint, even p100 is the midpoint, not the max. */
	ccb_hist_record(&h, 5055);
	assert_int_equal(ccb_hist_percentile(&h, 75), 5024);
	assert_int_equal(ccb_hist_percentile(&h, 100), 5024);
	assert_int_equal(ccb_hist_percentile(&h, 200), 5024);

	/* Midpoint 1004 is below the smallest sample: clamp to min. */
	ccb_hist_init(&h);
	ccb_hist_record(&h, 1006);
	ccb_hist_record(&h, 1007);
	assert_int_equal(ccb_hist_percentile(&h, 50), 1006);
}

static void test_stddev_small(void **state)
{
	static const uint64_t vals[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct ccb_hist h;
	size_t i;

	(void)state;
	ccb_hist_init(&h);
	for (i = 0; i < ARRAY_SIZE(vals); i++)
		ccb_hist_record(&h, vals[i]);
	/* The textbook example: mean 5, population stddev 2 (sample stddev would be 2.14). */
	assert_true(ccb_hist_mean(&h) == 5.0);
	assert_true(fabs(ccb_hist_stddev(&h) - 2.0) < 1e-12);

	/* Identical large samples: the sums cancel to ~0; must not go NaN. */
	ccb_hist_init(&h);
	for (i = 0; i < 1000; i++)
		ccb_hist_record(&h, 123456789);
	assert_true(ccb_hist_stddev(&h) >= 0.0);
	assert_true(ccb_hist_stddev(&h) < 1.0);
}

/*
 * The point of the histogram: percentiles from 1e6 samples agree with an
 * exact sort to within 1% (in fact within half a bucket, 1/128).
 */
static void test_percentiles_vs_sort(void **state)
{
	/* Percentiles in basis points, so the exact rank can be computed in integers. */
	static const uint64_t bps[] = {
	    1, 100, 1000, 2500, 5000, 7500, 9000, 9500, 9900, 9990, 9999, 10000,
	};
	static struct ccb_hist h;
	size_t di, i;

	(void)state;
	for (di = 0; di < ARRAY_SIZE(dists); di++) {
		const struct dist *d = &dists[di];
		uint64_t *v = gen_samples(d, 0x1234567 + di);
		long double sum = 0, sq = 0, mean;
		double worst = 0;

		ccb_hist_init(&h);
		for (i = 0; i < N_SAMPLES; i++)
			ccb_hist_record(&h, v[i]);
		qsort(v, N_SAMPLES, sizeof(*v), cmp_u64);

		assert_true(h.count == N_SAMPLES);
		assert_true(h.min_nsec == v[0]);
		assert_true(h.max_nsec == v[N_SAMPLES - 1]);

		for (i = 0; i < ARRAY_SIZE(bps); i++) {
			uint64_t rank = (bps[i] * N_SAMPLES + 9999) / 10000;
			uint64_t want = v[rank - 1];
			uint64_t got = ccb_hist_percentile(&h, (double)bps[i] / 100.0);
			double err = fabs((double)got - (double)want) / (double)want;

			if (err >= 0.01 || err > 1.0 / 128 ||
			    ccb_hist_bucket_of(got) != ccb_hist_bucket_of(want))
				fail_msg("%s p%g: got %llu want %llu (rel err %.4f%%)", d->name,
				         (double)bps[i] / 100.0, (unsigned long long)got,
				         (unsigned long long)want, err * 100);
			if (err > worst)
				worst = err;
		}

		for (i = 0; i < N_SAMPLES; i++)
			sum += v[i];
		mean = sum / N_SAMPLES;
		for (i = 0; i < N_SAMPLES; i++)
			sq += ((long double)v[i] - mean) * ((long double)v[i] - mean);
		assert_rel_close(ccb_hist_mean(&h), (double)mean, 1e-12, "mean");
		assert_rel_close(ccb_hist_stddev(&h), (double)sqrtl(sq / N_SAMPLES), 1e-6,
		                 "stddev");
		print_message("%-12s min %llu max %llu worst percentile error %.3f%%\n", d->name,
		              (unsigned long long)h.min_nsec, (unsigned long long)h.max_nsec,
		              worst * 100);
	}
}

static void assert_hist_equal(const struct ccb_hist *a, const struct ccb_hist *b)
{
	assert_true(a->count == b->count);
	assert_true(a->min_nsec == b->min_nsec);
	assert_true(a->max_nsec == b->max_nsec);
	assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
	/* Merging adds the sums in another order: allow for rounding, not for a lost term. */
	assert_rel_close(a->sum_nsec, b->sum_nsec, 1e-15, "sum");
	assert_rel_close(a->sumsq_nsec, b->sumsq_nsec, 1e-12, "sumsq");
}

static void test_merge(void **state)
{
	/* Static: three 30KB histograms are better off the (ASan-enlarged) stack. */
	static struct ccb_hist all, a, b, c, merged;
	static const double pcts[] = {1, 50, 90, 99, 99.9, 100};
	uint64_t *v = gen_samples(&dists[3], 7);
	size_t i;

	(void)state;
	ccb_hist_init(&all);
	ccb_hist_init(&a);
	ccb_hist_init(&b);
	for (i = 0; i < N_SAMPLES; i++) {
		ccb_hist_record(&all, v[i]);
		ccb_hist_record(i < N_SAMPLES / 2 ? &a : &b, v[i]);
	}
	ccb_hist_merge(&a, &b);
	assert_hist_equal(&a, &all);
	for (i = 0; i < ARRAY_SIZE(pcts); i++)
		assert_true(ccb_hist_percentile(&a, pcts[i]) == ccb_hist_percentile(&all, pcts[i]));
	assert_rel_close(ccb_hist_mean(&a), ccb_hist_mean(&all), 1e-15, "merged mean");
	assert_rel_close(ccb_hist_stddev(&a), ccb_hist_stddev(&all), 1e-9, "merged stddev");

	/* Per-client shape: many small histograms, uneven, folded into an empty one. */
	ccb_hist_init(&merged);
	for (i = 0; i < N_SAMPLES;) {
		size_t n = 1 + (i * 7919) % 50000, j;

		ccb_hist_init(&c);
		for (j = 0; j < n && i < N_SAMPLES; j++, i++)
			ccb_hist_record(&c, v[i]);
		ccb_hist_merge(&merged, &c);
	}
	assert_hist_equal(&merged, &all);

	/* The extreme buckets merge like any other. */
	ccb_hist_init(&a);
	ccb_hist_init(&b);
	ccb_hist_record(&a, 0);
	ccb_hist_record(&a, UINT64_MAX);
	ccb_hist_record(&b, UINT64_MAX);
	ccb_hist_merge(&a, &b);
	assert_true(a.count == 3 && a.min_nsec == 0 && a.max_nsec == UINT64_MAX);
	assert_true(a.buckets[0] == 1 && a.buckets[CCB_HIST_BUCKETS - 1] == 2);
	assert_int_equal(ccb_hist_bucket_of(ccb_hist_percentile(&a, 50)), CCB_HIST_BUCKETS - 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bucket_layout),
	    cmocka_unit_test(test_bucket_known_values),
	    cmocka_unit_test(test_empty),
	    cmocka_unit_test(test_single_sample),
	    cmocka_unit_test(test_small_values_exact),
	    cmocka_unit_test(test_percentile_midpoint),
	    cmocka_unit_test(test_stddev_small),
	    cmocka_unit_test(test_percentiles_vs_sort),
	    cmocka_unit_test(test_merge),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
