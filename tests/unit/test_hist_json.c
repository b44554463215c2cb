/* Unit tests for src/run/hist_json.c: a histogram stored as a record and
 * read back merges into the exact histogram of every sample; records that
 * do not hold what ccbench writes are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/hist_json.h"

#define MEMBERS 7

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* Member m's latencies: each host its own spread (log-uniform 50us..m*40ms),
 * some with a slow tail, so that an average of percentiles is wrong. */
static uint64_t sample(uint64_t *s, unsigned m)
{
	double u = (double)(rng_next(s) >> 11) * 0x1p-53;
	double hi = 40e6 * (m + 1);

	if (m == 3 && (rng_next(s) & 63) == 0)
		return 900000000 + (rng_next(s) % 100000000);
	return (uint64_t)exp(log(5e4) + u * (log(hi) - log(5e4)));
}

static void assert_same(const struct ccb_hist *a, const struct ccb_hist *b)
{
	static const double pcts[] = {1, 10, 50, 90, 99, 99.9, 99.99, 100};

	assert_int_equal(a->count, b->count);
	assert_int_equal(a->min_nsec, b->min_nsec);
	assert_int_equal(a->max_nsec, b->max_nsec);
	for (size_t i = 0; i < sizeof(pcts) / sizeof(pcts[0]); i++) {
		uint64_t x = ccb_hist_percentile(a, pcts[i]), y = ccb_hist_percentile(b, pcts[i]);
		if (x != y)
			fail_msg("p%g: merged records %llu ns, one histogram %llu ns", pcts[i],
			         (unsigned long long)x, (unsigned long long)y);
	}
	assert_memory_equal(a->buckets, b->buckets, sizeof(a->buckets));
	assert_true(fabs(a->sum_nsec - b->sum_nsec) <= 1e-9 * b->sum_nsec);
}

/* The rule the group report rests on: members' histograms, each stored as
 * a record (through its text, as RADOS holds it) and read back, merge into
 * exactly the histogram of one client fed every sample. */
static void test_merged_records_equal_one_histogram(void **state)
{
	struct ccb_hist *one = malloc(sizeof(*one)), *merged = malloc(sizeof(*merged));
	struct ccb_hist *mine = malloc(sizeof(*mine)), *back = malloc(sizeof(*back));
	uint64_t s = 0x9e3779b97f4a7c15ull;
	double avg_p99 = 0;
	char why[160];

	(void)state;
	assert_non_null(one && merged && mine && back);
	ccb_hist_init(one);
	ccb_hist_init(merged);
	for (unsigned m = 0; m < MEMBERS; m++) {
		unsigned n = 1000 + 7919 * m; /* unequal op counts too */
		json_t *rec, *parsed;
		char *text;

		ccb_hist_init(mine);
		for (unsigned i = 0; i < n; i++) {
			uint64_t v = sample(&s, m);
			ccb_hist_record(mine, v);
			ccb_hist_record(one, v);
		}
		avg_p99 += (double)ccb_hist_percentile(mine, 99) / MEMBERS;
		rec = ccb_hist_to_json(mine);
		assert_non_null(rec);
		text = json_dumps(rec, JSON_COMPACT);
		parsed = json_loads(text, 0, NULL);
		assert_int_equal(ccb_hist_from_json(parsed, back, why, sizeof(why)), 0);
		assert_same(back, mine);
		ccb_hist_merge(merged, back);
		free(text);
		json_decref(rec);
		json_decref(parsed);
	}
	assert_same(merged, one);
	/* And the average of the members' p99 is not it (else the test proves
	 * nothing about averaging). */
	assert_true(fabs(avg_p99 - (double)ccb_hist_percentile(one, 99)) >
	            0.05 * (double)ccb_hist_percentile(one, 99));
	free(one);
	free(merged);
	free(mine);
	free(back);
}

static void test_empty_round_trip(void **state)
{
	struct ccb_hist *h = malloc(sizeof(*h)), *back = malloc(sizeof(*back));
	json_t *rec;
	char why[160];

	(void)state;
	ccb_hist_init(h);
	rec = ccb_hist_to_json(h);
	assert_int_equal(ccb_hist_from_json(rec, back, why, sizeof(why)), 0);
	assert_int_equal(back->count, 0);
	assert_int_equal(back->min_nsec, UINT64_MAX);
	json_decref(rec);
	free(h);
	free(back);
}

/* A record from the pool that does not hold what ccbench writes. */
static void expect_refused(const char *text, const char *what)
{
	struct ccb_hist *h = malloc(sizeof(*h));
	json_t *j = json_loads(text, 0, NULL);
	char why[160] = "";

	assert_non_null(j);
	if (ccb_hist_from_json(j, h, why, sizeof(why)) != -EINVAL)
		fail_msg("accepted %s: %s", what, text);
	assert_non_null(strstr(why, "latency_hist"));
	assert_int_equal(h->count, 0);
	json_decref(j);
	free(h);
}

#define OK_SUMS "\"sum_ns\": 3, \"sumsq_ns\": 5"
static void test_refused(void **state)
{
	(void)state;
	/* What ccbench writes, for reference: accepted. */
	{
		struct ccb_hist *h = malloc(sizeof(*h));
		json_t *j = json_loads("{\"sub_bits\": 6, \"count\": 3, \"min_ns\": 1, \"max_ns\": "
		                       "2, " OK_SUMS ", \"buckets\": [1, 2, 2, 1]}",
		                       0, NULL);
		char why[160];
		assert_int_equal(ccb_hist_from_json(j, h, why, sizeof(why)), 0);
		assert_int_equal(ccb_hist_percentile(h, 100), 2);
		json_decref(j);
		free(h);
	}
	expect_refused("[]", "not an object");
	expect_refused("{\"sub_bits\": 5, \"count\": 0, \"min_ns\": 0, \"max_ns\": 0, " OK_SUMS
	               ", \"buckets\": []}",
	               "another bucket layout");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, " OK_SUMS
	               ", \"buckets\": [3776, 1]}",
	               "an index beyond the last bucket");
	expect_refused("{\"sub_bits\": 6, \"count\": 2, \"min_ns\": 1, \"max_ns\": 2, " OK_SUMS
	               ", \"buckets\": [2, 1, 1, 1]}",
	               "indices out of order");
	expect_refused("{\"sub_bits\": 6, \"count\": 2, \"min_ns\": 1, \"max_ns\": 1, " OK_SUMS
	               ", \"buckets\": [1, 1, 1, 1]}",
	               "an index twice");
	expect_refused("{\"sub_bits\": 6, \"count\": 5, \"min_ns\": 1, \"max_ns\": 2, " OK_SUMS
	               ", \"buckets\": [1, 2, 2, 1]}",
	               "counts short of count");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 2, " OK_SUMS
	               ", \"buckets\": [1, 2, 2, 1]}",
	               "counts beyond count");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, " OK_SUMS
	               ", \"buckets\": [1, 0, 2, 1]}",
	               "a zero count");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, " OK_SUMS
	               ", \"buckets\": [1, -1]}",
	               "a negative count");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, " OK_SUMS
	               ", \"buckets\": [1]}",
	               "an odd list");
	expect_refused("{\"sub_bits\": 6, \"count\": 9007199254740993, \"min_ns\": 1, \"max_ns\": "
	               "1, " OK_SUMS ", \"buckets\": [1, 9007199254740993]}",
	               "a count beyond 2^53");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 5, \"max_ns\": 5, " OK_SUMS
	               ", \"buckets\": [1, 1]}",
	               "min and max outside the bucket");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, \"sum_ns\": "
	               "-1, \"sumsq_ns\": 1, \"buckets\": [1, 1]}",
	               "a negative sum");
	expect_refused("{\"sub_bits\": 6, \"count\": 1, \"min_ns\": 1, \"max_ns\": 1, \"sum_ns\": "
	               "\"x\", \"sumsq_ns\": 1, \"buckets\": [1, 1]}",
	               "a sum not a number");
}

/* More pairs than buckets: refused before any is looked at. */
static void test_refused_too_many(void **state)
{
	json_t *b = json_array(), *j;
	struct ccb_hist *h = malloc(sizeof(*h));
	char why[160];

	(void)state;
	for (unsigned i = 0; i <= CCB_HIST_BUCKETS; i++) {
		json_array_append_new(b, json_integer(i));
		json_array_append_new(b, json_integer(1));
	}
	j = json_pack("{s:i, s:i, s:i, s:i, s:f, s:f, s:o}", "sub_bits", 6, "count",
	              CCB_HIST_BUCKETS + 1, "min_ns", 0, "max_ns", 0, "sum_ns", 0.0, "sumsq_ns",
	              0.0, "buckets", b);
	assert_int_equal(ccb_hist_from_json(j, h, why, sizeof(why)), -EINVAL);
	json_decref(j);
	free(h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merged_records_equal_one_histogram),
	    cmocka_unit_test(test_empty_round_trip),
	    cmocka_unit_test(test_refused),
	    cmocka_unit_test(test_refused_too_many),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
