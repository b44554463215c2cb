/*
 * Unit tests for src/cluster/osd_perf.c: the counters that place an op's
 * time, read from `perf dump` replies recorded on each release's throwaway
 * cluster (tests/unit/data/attr/REL/: the primary of a 4K object written
 * 12 times and read 12 times with one replica delayed by up to 50 ms, and
 * a BlueStore OSD's section), and their deltas.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ccbench/osd_perf.h"
#include "attr_data.h"

static double counter_mean(const json_t *d, const char *name)
{
	return json_number_value(
	    json_object_get(json_object_get(json_object_get(d, "counters"), name), "mean_us"));
}

static json_int_t counter_n(const json_t *d, const char *name)
{
	return json_integer_value(
	    json_object_get(json_object_get(json_object_get(d, "counters"), name), "n"));
}

static void test_recorded_delta(void **state)
{
	(void)state;
	for (size_t r = 0; r < N_RELEASES; r++) {
		json_t *b = load(releases[r], "perf_dump_before.json");
		json_t *a = load(releases[r], "perf_dump_after.json");
		struct ccb_osd_perf pb, pa;
		json_t *d;

		assert_int_equal(ccb_osd_perf_parse(b, &pb), 0);
		assert_int_equal(ccb_osd_perf_parse(a, &pa), 0);
		/* Every release names the osd section's counters the same. */
		for (unsigned c = 0; c < CCB_OSDC_STORE_COMMIT; c++)
			if (!pa.have[c])
				fail_msg("%s: no %s", releases[r], ccb_osd_counter_name(c));
		/* memstore: no BlueStore section. */
		assert_false(pa.have[CCB_OSDC_STORE_COMMIT]);
		d = ccb_osd_perf_delta(&pb, &pa);
		assert_non_null(d);
		/* 12 writes and 12 reads on this primary, and its own writes
		 * waited for the delayed replica (up to 50 ms, uniform). */
		assert_true(counter_n(d, "op_w_latency") >= 12);
		assert_true(counter_n(d, "op_r_latency") >= 12);
		if (counter_mean(d, "op_w_latency") < 5000)
			fail_msg("%s: op_w_latency mean %.0f us", releases[r],
			         counter_mean(d, "op_w_latency"));
		assert_true(counter_mean(d, "op_r_latency") < counter_mean(d, "op_w_latency"));
		/* The primary did no replica work for these. */
		assert_int_equal(counter_n(d, "subop_w_latency"), 0);
		assert_true(json_integer_value(json_object_get(d, "op_w")) >= 12);
		assert_true(json_integer_value(json_object_get(d, "op_in_bytes")) >= 12 * 4096);
		json_decref(d);
		/* Counters that went back: the OSD restarted between the dumps. */
		d = ccb_osd_perf_delta(&pa, &pb);
		assert_true(json_is_true(json_object_get(d, "restarted")));
		json_decref(d);
		json_decref(a);
		json_decref(b);
	}
}

/* BlueStore's commit latency under its release's name (commit_lat on
 * Pacific, txc_commit_lat since Quincy), from a BlueStore OSD's dump. */
static void test_bluestore(void **state)
{
	(void)state;
	for (size_t r = 0; r < N_RELEASES; r++) {
		json_t *a = load(releases[r], "perf_dump_after.json");
		json_t *bs = load(releases[r], "perf_dump_bluestore.json");
		struct ccb_osd_perf p;

		json_object_set(a, "bluestore", json_object_get(bs, "bluestore"));
		assert_int_equal(ccb_osd_perf_parse(a, &p), 0);
		if (!p.have[CCB_OSDC_STORE_COMMIT])
			fail_msg("%s: no BlueStore commit latency", releases[r]);
		assert_true(p.count[CCB_OSDC_STORE_COMMIT] > 0);
		json_decref(bs);
		json_decref(a);
	}
}

static void test_bad(void **state)
{
	struct ccb_osd_perf p;
	json_t *none = json_pack("{s:{}}", "bluestore");
	json_t *bad = json_pack("{s:{s:{s:i, s:f}, s:{s:s}, s:i}}", "osd", "op_r_latency",
	                        "avgcount", -1, "sum", 0.5, "op_w_latency", "sum", "x", "op_r", -3);

	(void)state;
	assert_int_equal(ccb_osd_perf_parse(none, &p), -EBADMSG);
	assert_int_equal(ccb_osd_perf_parse(bad, &p), 0);
	assert_false(p.have[CCB_OSDC_OP_R]);
	assert_false(p.have[CCB_OSDC_OP_W]);
	assert_false(p.have_n[CCB_OSDN_OP_R]);
	assert_string_equal(ccb_osd_counter_name(CCB_OSDC_STORE_COMMIT), "store_commit_latency");
	assert_null(ccb_osd_counter_name(CCB_OSDC_N));
	json_decref(none);
	json_decref(bad);
}

/* A counter below zero (Pacific's numpg_stray 18446744073709551610) makes
 * the reply be read with reals (ccb_cluster_osd_json_lenient()): the
 * counters must still read. */
static void test_reals(void **state)
{
	json_t *d = json_loads("{\"osd\": {\"numpg_stray\": 18446744073709551610, \"op_r\": 12,"
	                       " \"op_r_latency\": {\"avgcount\": 4, \"sum\": 0.02}}}",
	                       JSON_DECODE_INT_AS_REAL, NULL);
	struct ccb_osd_perf p;

	(void)state;
	assert_non_null(d);
	assert_int_equal(ccb_osd_perf_parse(d, &p), 0);
	assert_true(p.have[CCB_OSDC_OP_R]);
	assert_int_equal(p.count[CCB_OSDC_OP_R], 4);
	assert_true(p.have_n[CCB_OSDN_OP_R]);
	assert_int_equal(p.n[CCB_OSDN_OP_R], 12);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_recorded_delta),
	    cmocka_unit_test(test_bluestore),
	    cmocka_unit_test(test_bad),
	    cmocka_unit_test(test_reals),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
