/*
 * Unit tests for src/run/attr_json.c and the hot path's record
 * (attribution.h): per-OSD entries from client arrays, the exact merge
 * across results (a group's members: counts and histograms added, the
 * percentiles read from the sum and equal to those of all the samples in
 * one histogram), and the summary that explain reads (the worst OSD
 * against the median of the others, too few ops).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ccbench/attr_json.h"
#include "ccbench/attribution.h"
#include "ccbench/hist_json.h"

/* A client array of @p n OSD slots, all with histograms. */
static struct ccb_attr_client *client(unsigned n)
{
	struct ccb_attr_client *c = calloc(1, sizeof(*c));

	c->n_osds = n;
	c->n_hist = n;
	c->stat = calloc(n + 1, sizeof(*c->stat));
	c->hist = calloc(n + 1, sizeof(*c->hist));
	for (unsigned i = 0; i <= n; i++)
		ccb_hist_init(&c->hist[i]);
	return c;
}

static void client_free(struct ccb_attr_client *c)
{
	free(c->stat);
	free(c->hist);
	free(c);
}

/* An attribution of three OSDs: @p per ops each, latencies from @p base
 * nanoseconds (osd.1's times @p slow), every value also into @p all. */
static json_t *attribution(unsigned per, uint64_t base, unsigned slow, uint64_t seed,
                           struct ccb_hist *all)
{
	struct ccb_attr_client *c = client(3);
	json_t *osds = json_array(), *a;
	uint64_t total = 0;

	for (unsigned i = 0; i < 3 * per; i++) {
		int32_t slot = (int32_t)(i % 3);
		uint64_t lat = base + (seed * 7919 + i * 104729) % base;

		if (slot == 1)
			lat *= slow;
		ccb_attr_record(c, slot, lat, 4096);
		ccb_hist_record(&all[slot], lat);
	}
	/* A slot past the table counts as unmapped. */
	ccb_attr_record(c, 7, 5, 4096);
	assert_int_equal(c->stat[3].ops, 1);
	for (unsigned s = 0; s <= 3; s++)
		total += c->stat[s].ops;
	for (unsigned s = 0; s < 3; s++)
		ccb_attr_client_json(ccb_attr_osd_entry(osds, (int)s), &c->stat[s], &c->hist[s],
		                     total);
	ccb_attr_sort_osds(osds);
	a = json_pack("{s:o, s:{s:I, s:I, s:I}}", "osds", osds, "client", "ops", (json_int_t)total,
	              "unmapped_ops", (json_int_t)1, "spanning_ops", (json_int_t)0);
	client_free(c);
	return a;
}

static double p99(const json_t *a, int osd)
{
	return ccb_attr_osd_p99(a, osd);
}

static void test_merge_exact(void **state)
{
	struct ccb_hist *all = calloc(3, sizeof(*all));
	json_t *a, *b, *c;
	char why[256];

	(void)state;
	for (int i = 0; i < 3; i++)
		ccb_hist_init(&all[i]);
	a = attribution(400, 1000000, 10, 1, all);
	b = attribution(300, 2000000, 10, 2, all);
	c = attribution(200, 500000, 10, 3, all);
	assert_int_equal(ccb_attr_merge(a, b, why, sizeof(why)), 0);
	assert_int_equal(ccb_attr_merge(a, c, why, sizeof(why)), 0);
	for (int osd = 0; osd < 3; osd++) {
		const json_t *e = json_array_get(json_object_get(a, "osds"), (size_t)osd);

		assert_int_equal(json_integer_value(json_object_get(e, "osd")), osd);
		assert_int_equal(json_integer_value(json_object_get(e, "ops")), 900);
		/* Percentiles of the sum of histograms: those of all samples. */
		assert_true(fabs(p99(a, osd) - (double)ccb_hist_percentile(&all[osd], 99) / 1e3) <
		            1e-6);
		assert_true(fabs(json_number_value(
		                     json_object_get(json_object_get(e, "latency_us"), "mean")) -
		                 ccb_hist_mean(&all[osd]) / 1e3) < 1e-3);
		/* Of every op, the 3 unmapped ones too. */
		assert_true(fabs(json_number_value(json_object_get(e, "share")) - 900.0 / 2703) <
		            1e-9);
	}
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(a, "client"), "unmapped_ops")), 3);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	free(all);
}

/* A member without a histogram for an OSD: counted, but no percentile
 * is made up from the others' alone. */
static void test_merge_no_hist(void **state)
{
	struct ccb_hist *all = calloc(3, sizeof(*all));
	json_t *a, *b, *e;
	char why[256];

	(void)state;
	a = attribution(150, 1000000, 1, 1, all);
	b = attribution(150, 1000000, 1, 2, all);
	json_object_del(json_array_get(json_object_get(b, "osds"), 2), "hist");
	assert_int_equal(ccb_attr_merge(a, b, why, sizeof(why)), 0);
	e = json_array_get(json_object_get(a, "osds"), 2);
	assert_int_equal(json_integer_value(json_object_get(e, "ops")), 300);
	assert_null(json_object_get(json_object_get(e, "latency_us"), "p99"));
	assert_null(json_object_get(e, "hist"));
	assert_true(p99(a, 2) < 0);
	/* Not an attribution at all. */
	e = json_object();
	assert_int_equal(ccb_attr_merge(a, e, why, sizeof(why)), -EINVAL);
	json_decref(e);
	json_decref(a);
	json_decref(b);
	free(all);
}

static void test_summary(void **state)
{
	struct ccb_hist *all = calloc(3, sizeof(*all));
	struct ccb_attr_sum s;
	json_t *slow, *even, *few;

	(void)state;
	slow = attribution(300, 1000000, 10, 1, all);
	assert_true(ccb_attr_summarize(slow, &s));
	assert_int_equal(s.worst, 1);
	assert_int_equal(s.n_enough, 3);
	assert_true(s.worst_p99_us > 5 * s.others_p99_us);
	assert_true(s.worst_mean_us > 5 * s.others_mean_us);
	/* Its share counts the one unmapped op too. */
	assert_true(fabs(s.worst_share - 300.0 / 901) < 1e-9);
	even = attribution(300, 1000000, 1, 1, all);
	assert_true(ccb_attr_summarize(even, &s));
	assert_true(s.worst_p99_us < 1.5 * s.others_p99_us);
	/* Fewer than CCB_ATTR_MIN_OPS ops: not compared, but named as such. */
	few = attribution(50, 1000000, 10, 1, all);
	assert_true(ccb_attr_summarize(few, &s));
	assert_int_equal(s.n_enough, 0);
	assert_int_equal(s.worst, -1);
	assert_int_equal(s.high_few, 1);
	assert_int_equal(s.high_few_ops, 50);
	/* An OSD-side-only attribution has nothing to summarize. */
	{
		json_t *none = json_pack("{s:[]}", "osds");
		assert_false(ccb_attr_summarize(none, &s));
		json_decref(none);
	}
	json_decref(slow);
	json_decref(even);
	json_decref(few);
	free(all);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_merge_exact),
	    cmocka_unit_test(test_merge_no_hist),
	    cmocka_unit_test(test_summary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
