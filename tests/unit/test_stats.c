/* Unit tests for src/stats.c: per-second series, merge, bandwidth summary, fairness. */
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
#include "ccbench/stats.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define MIB 1048576ull
#define SEC 1000000000ull

static void assert_close(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: %.12g, want %.12g (tol %g)", what, got, want, tol);
}

/* A series with bytes[i] = mib[i] MiB, one op per second. */
static void fill_mib(struct ccb_series *s, const double *mib, size_t n)
{
	ccb_series_init(s);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(ccb_series_add(s, i, (uint64_t)(mib[i] * MIB), 1000), 0);
}

static void test_init_empty(void **state)
{
	struct ccb_series s;
	struct ccb_bw_summary bw;

	(void)state;
	memset(&s, 0xa5, sizeof(s));
	ccb_series_init(&s);
	assert_int_equal(s.n_secs, 0);
	assert_null(s.bytes);
	ccb_series_bw_summary(&s, 0, &bw);
	assert_int_equal(bw.samples, 0);
	assert_true(bw.mean_mib_s == 0);
	ccb_series_free(&s);
	ccb_series_free(&s); /* free leaves an empty series: freeing twice is safe */
	assert_int_equal(s.n_secs, 0);
}

/* Seconds on both sides of every growth step keep their values; gaps read 0. */
static void test_add_growth(void **state)
{
	static const size_t secs[] = {0, 63, 64, 127, 128, 1000, 5, 1000, 0};
	struct ccb_series s;
	uint64_t want_bytes[1001] = {0}, want_ops[1001] = {0}, want_lat[1001] = {0};

	(void)state;
	ccb_series_init(&s);
	for (size_t i = 0; i < ARRAY_SIZE(secs); i++) {
		size_t sec = secs[i];
		uint64_t bytes = 4096 * (i + 1), lat = 1000 + 17 * i;

		assert_int_equal(ccb_series_add(&s, sec, bytes, lat), 0);
		want_bytes[sec] += bytes;
		want_ops[sec]++;
		want_lat[sec] += lat;
		/* n_secs covers the highest second seen so far. */
		size_t hi = 0;
		for (size_t j = 0; j <= i; j++)
			if (secs[j] > hi)
				hi = secs[j];
		assert_int_equal(s.n_secs, hi + 1);
		assert_true(s.cap >= s.n_secs);
	}
	assert_int_equal(s.n_secs, 1001);
	for (size_t i = 0; i < s.n_secs; i++) {
		if (s.bytes[i] != want_bytes[i] || s.ops[i] != want_ops[i] ||
		    s.lat_sum_nsec[i] != want_lat[i])
			fail_msg("second %zu: %llu/%llu/%llu, want %llu/%llu/%llu", i,
			         (unsigned long long)s.bytes[i], (unsigned long long)s.ops[i],
			         (unsigned long long)s.lat_sum_nsec[i],
			         (unsigned long long)want_bytes[i], (unsigned long long)want_ops[i],
			         (unsigned long long)want_lat[i]);
	}
	assert_int_equal(s.ops[1000], 2);
	assert_int_equal(s.ops[0], 2);
	ccb_series_free(&s);
	assert_null(s.bytes);
	assert_int_equal(s.n_secs, 0);
}

/* Growth is geometric: a long run reallocates a handful of times, not once per second. */
static void test_add_geometric(void **state)
{
	struct ccb_series s;
	size_t caps_seen = 0, last_cap = 0;

	(void)state;
	ccb_series_init(&s);
	for (size_t sec = 0; sec < 100000; sec++) {
		assert_int_equal(ccb_series_add(&s, sec, 1, 1), 0);
		if (s.cap != last_cap) {
			caps_seen++;
			last_cap = s.cap;
		}
	}
	assert_true(caps_seen <= 20);
	assert_int_equal(s.n_secs, 100000);
	for (size_t sec = 0; sec < 100000; sec++)
		assert_true(s.bytes[sec] == 1 && s.ops[sec] == 1);
	ccb_series_free(&s);
}

static void check_sum(const struct ccb_series *a, const struct ccb_series *b,
                      const struct ccb_series *m)
{
	size_t n = a->n_secs > b->n_secs ? a->n_secs : b->n_secs;

	assert_int_equal(m->n_secs, n);
	for (size_t i = 0; i < n; i++) {
		uint64_t wb = (i < a->n_secs ? a->bytes[i] : 0) + (i < b->n_secs ? b->bytes[i] : 0);
		uint64_t wo = (i < a->n_secs ? a->ops[i] : 0) + (i < b->n_secs ? b->ops[i] : 0);
		uint64_t wl = (i < a->n_secs ? a->lat_sum_nsec[i] : 0) +
		              (i < b->n_secs ? b->lat_sum_nsec[i] : 0);
		if (m->bytes[i] != wb || m->ops[i] != wo || m->lat_sum_nsec[i] != wl)
			fail_msg("merged second %zu wrong", i);
	}
}

static void test_merge(void **state)
{
	struct ccb_series a, b, m, empty;

	(void)state;
	ccb_series_init(&a);
	ccb_series_init(&b);
	ccb_series_init(&empty);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(ccb_series_add(&a, i, 100 + i, 10 + i), 0);
	for (size_t i = 0; i < 200; i += 3)
		assert_int_equal(ccb_series_add(&b, i, 1000 * i, 7), 0);

	/* Short into empty, then long into it: dst grows to the longer one. */
	ccb_series_init(&m);
	assert_int_equal(ccb_series_merge(&m, &a), 0);
	assert_int_equal(ccb_series_merge(&m, &b), 0);
	check_sum(&a, &b, &m);
	ccb_series_free(&m);

	/* Long first, short second: dst keeps its length. */
	ccb_series_init(&m);
	assert_int_equal(ccb_series_merge(&m, &b), 0);
	assert_int_equal(ccb_series_merge(&m, &a), 0);
	check_sum(&a, &b, &m);

	/* An empty source changes nothing. */
	assert_int_equal(ccb_series_merge(&m, &empty), 0);
	check_sum(&a, &b, &m);
	ccb_series_free(&m);

	/* Merging into an existing short series grows it in place. */
	assert_int_equal(ccb_series_merge(&a, &b), 0);
	assert_int_equal(a.n_secs, b.n_secs);
	assert_int_equal(a.bytes[0], 100 + 0);
	assert_int_equal(a.bytes[1], 101);
	assert_int_equal(a.bytes[3], 3000);
	assert_int_equal(a.ops[0], 2); /* b had second 0 too */
	assert_int_equal(a.bytes[198], 198000);
	assert_int_equal(a.bytes[199], 0);

	ccb_series_free(&a);
	ccb_series_free(&b);
}

static void test_bw_whole_seconds(void **state)
{
	/* Population stddev of these is 2; sample stddev sqrt(32/7). */
	static const double mib[] = {2, 4, 4, 4, 5, 5, 7, 9};
	struct ccb_series s;
	struct ccb_bw_summary bw;

	(void)state;
	fill_mib(&s, mib, ARRAY_SIZE(mib));
	ccb_series_bw_summary(&s, 8 * SEC, &bw);
	assert_int_equal(bw.samples, 8);
	assert_close(bw.mean_mib_s, 5.0, 1e-12, "mean");
	assert_close(bw.min_mib_s, 2.0, 0, "min");
	assert_close(bw.max_mib_s, 9.0, 0, "max");
	assert_close(bw.stddev_mib_s, 2.1380899352993950, 1e-12, "sample stddev");
	ccb_series_free(&s);
}

/* The trailing partial second would read as a dip (or a spike); it is left out. */
static void test_bw_partial_tail(void **state)
{
	static const double mib[] = {10, 20, 30, 1};
	struct ccb_series s;
	struct ccb_bw_summary bw;

	(void)state;
	fill_mib(&s, mib, ARRAY_SIZE(mib));
	ccb_series_bw_summary(&s, 3 * SEC + SEC / 2, &bw);
	assert_int_equal(bw.samples, 3);
	assert_close(bw.mean_mib_s, 20.0, 1e-12, "mean");
	assert_close(bw.min_mib_s, 10.0, 0, "min");
	assert_close(bw.max_mib_s, 30.0, 0, "max");
	assert_close(bw.stddev_mib_s, 10.0, 1e-12, "stddev");

	/* A hair short of 4 s is still 3 whole seconds. */
	ccb_series_bw_summary(&s, 4 * SEC - 1, &bw);
	assert_int_equal(bw.samples, 3);
	assert_close(bw.min_mib_s, 10.0, 0, "min");

	/* At exactly 4 s the fourth second is whole. */
	ccb_series_bw_summary(&s, 4 * SEC, &bw);
	assert_int_equal(bw.samples, 4);
	assert_close(bw.min_mib_s, 1.0, 0, "min");
	assert_close(bw.mean_mib_s, 61.0 / 4, 1e-12, "mean");
	ccb_series_free(&s);
}

static void test_bw_sub_second(void **state)
{
	struct ccb_series s;
	struct ccb_bw_summary bw;

	(void)state;
	ccb_series_init(&s);
	assert_int_equal(ccb_series_add(&s, 0, 3 * MIB, 1000), 0);
	assert_int_equal(ccb_series_add(&s, 0, 1 * MIB, 1000), 0);
	/* 4 MiB in 250 ms: one sample of 16 MiB/s. */
	ccb_series_bw_summary(&s, SEC / 4, &bw);
	assert_int_equal(bw.samples, 1);
	assert_close(bw.mean_mib_s, 16.0, 1e-9, "mean");
	assert_close(bw.min_mib_s, 16.0, 1e-9, "min");
	assert_close(bw.max_mib_s, 16.0, 1e-9, "max");
	assert_close(bw.stddev_mib_s, 0.0, 0, "stddev");

	/* One whole second: one sample, no spread. */
	ccb_series_bw_summary(&s, SEC, &bw);
	assert_int_equal(bw.samples, 1);
	assert_close(bw.mean_mib_s, 4.0, 1e-12, "mean");
	assert_close(bw.stddev_mib_s, 0.0, 0, "stddev");

	/* A zero-length run has no sample at all. */
	ccb_series_bw_summary(&s, 0, &bw);
	assert_int_equal(bw.samples, 0);
	assert_true(bw.mean_mib_s == 0);
	ccb_series_free(&s);
}

/* Large, nearly equal samples: the spread must not drown in rounding. */
static void test_bw_stddev_precision(void **state)
{
	double mib[10];
	struct ccb_series s;
	struct ccb_bw_summary bw;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(mib); i++)
		mib[i] = 10000 + (i % 2); /* 10000, 10001, ...: sample stddev sqrt(10/36) */
	fill_mib(&s, mib, ARRAY_SIZE(mib));
	ccb_series_bw_summary(&s, 10 * SEC, &bw);
	assert_int_equal(bw.samples, 10);
	assert_close(bw.mean_mib_s, 10000.5, 1e-9, "mean");
	assert_close(bw.stddev_mib_s, sqrt(10.0 / 36.0), 1e-6, "stddev");
	ccb_series_free(&s);
}

static void test_jain(void **state)
{
	double v[16];

	(void)state;
	assert_true(ccb_jain_index(NULL, 0) == 0);
	assert_true(ccb_jain_index(v, 0) == 0);

	for (size_t n = 1; n <= ARRAY_SIZE(v); n++) {
		for (size_t i = 0; i < n; i++)
			v[i] = 123.25;
		assert_close(ccb_jain_index(v, n), 1.0, 1e-12, "equal");
		/* One client got everything. */
		for (size_t i = 0; i < n; i++)
			v[i] = 0;
		v[n - 1] = 50;
		assert_close(ccb_jain_index(v, n), 1.0 / (double)n, 1e-12, "one of n");
	}
	/* Nothing moved at all: no fairness to speak of. */
	for (size_t i = 0; i < 4; i++)
		v[i] = 0;
	assert_true(ccb_jain_index(v, 4) == 0);
	/* (1+2+3)^2 / (3 * (1+4+9)) = 36/42 */
	v[0] = 1;
	v[1] = 2;
	v[2] = 3;
	assert_close(ccb_jain_index(v, 3), 36.0 / 42.0, 1e-12, "1,2,3");
}

/* Student t quantiles against published values, and the interval they make. */
static void test_t95_ci(void **state)
{
	static const struct {
		size_t df;
		double t;
	} known[] = {{1, 12.706}, {2, 4.303},  {3, 3.182},   {10, 2.228},    {30, 2.042},
	             {40, 2.021}, {60, 2.000}, {120, 1.980}, {100000, 1.960}};
	double v[4] = {10, 12, 11, 13}, half, mean;

	(void)state;
	assert_true(isinf(ccb_t95(0)));
	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		assert_close(ccb_t95(known[i].df), known[i].t, 0.0015, "t quantile");
	/* Decreasing towards the normal quantile. */
	for (size_t df = 1; df < 200; df++)
		assert_true(ccb_t95(df + 1) < ccb_t95(df));
	/* mean 11.5, stddev sqrt(5/3), t(3) 3.182: 3.182 x 1.29099 / 2 = 2.054 */
	mean = ccb_mean_ci95(v, 4, &half);
	assert_close(mean, 11.5, 1e-12, "mean");
	assert_close(half, 3.182 * sqrt(5.0 / 3.0) / 2.0, 1e-9, "half-width");
	/* Two runs: t(1) = 12.706, stddev |a-b|/sqrt 2. */
	mean = ccb_mean_ci95(v, 2, &half);
	assert_close(half, 12.706 * (2.0 / sqrt(2.0)) / sqrt(2.0), 1e-9, "two runs");
	/* One run has no interval; equal runs a zero one. */
	ccb_mean_ci95(v, 1, &half);
	assert_true(isinf(half));
	v[1] = v[0];
	ccb_mean_ci95(v, 2, &half);
	assert_true(half == 0);
}

/* Welch's interval of a difference: by hand, and its limits. */
static void test_welch(void **state)
{
	(void)state;
	/* sd 170 and 9 over 3 runs each: v1 9633.3, v2 27; df = (9660.3)^2 /
	 * (9633.3^2/2 + 27^2/2) = 2.01 -> 2, t 4.303; sqrt(9660.3) = 98.29. */
	assert_close(ccb_welch_half95(170, 3, 9, 3), 4.303 * sqrt(170.0 * 170 / 3 + 9.0 * 9 / 3),
	             1e-9, "welch");
	/* Equal spreads and counts: df 2(n-1) = 4, t 2.776. */
	assert_close(ccb_welch_half95(10, 3, 10, 3), 2.776 * sqrt(200.0 / 3), 1e-9, "equal");
	assert_true(isinf(ccb_welch_half95(10, 1, 10, 3)));
	assert_true(isinf(ccb_welch_half95(10, 3, 10, 1)));
	assert_true(ccb_welch_half95(0, 3, 0, 3) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_init_empty),
	    cmocka_unit_test(test_add_growth),
	    cmocka_unit_test(test_add_geometric),
	    cmocka_unit_test(test_merge),
	    cmocka_unit_test(test_bw_whole_seconds),
	    cmocka_unit_test(test_bw_partial_tail),
	    cmocka_unit_test(test_bw_sub_second),
	    cmocka_unit_test(test_bw_stddev_precision),
	    cmocka_unit_test(test_jain),
	    cmocka_unit_test(test_t95_ci),
	    cmocka_unit_test(test_welch),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
