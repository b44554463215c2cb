/*
 * Unit tests for src/cluster_sched.c: the scheduler record from an OSD's
 * `config show`, with the values Pacific 16.2.15, Reef 18.2.7 and Tentacle
 * 20.2.4 OSDs reported on memstore test clusters (their strings as
 * given: Pacific's QoS options are uint IOPS per op shard, Reef's floats,
 * shares of the OSD's capacity).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/cluster_sched.h"

static const json_t *mclock(const json_t *s)
{
	return json_object_get(s, "mclock");
}

static double fig(const json_t *s, const char *key)
{
	return json_number_value(json_object_get(mclock(s), key));
}

static json_t *meta(const char *version, const char *rotational)
{
	return json_pack("{s:s, s:s, s:s}", "ceph_version_short", version, "rotational", rotational,
	                 "osd_objectstore", "memstore");
}

/* Pacific's default queue: wpq, and no mClock figures even though the
 * options exist. */
static void test_wpq(void **state)
{
	json_t *cfg = json_pack("{s:s, s:s, s:s}", "osd_op_queue", "wpq", "osd_mclock_profile",
	                        "high_client_ops", "osd_mclock_scheduler_client_lim", "999999");
	json_t *m = meta("16.2.15", "1"), *s = ccb_cluster_sched_parse(3, cfg, m);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(s, "osd")), "osd.3");
	assert_string_equal(json_string_value(json_object_get(s, "osd_op_queue")), "wpq");
	assert_string_equal(json_string_value(json_object_get(s, "ceph_version")), "16.2.15");
	assert_true(json_is_true(json_object_get(s, "rotational")));
	assert_null(mclock(s));
	json_decref(s);
	json_decref(m);
	json_decref(cfg);
}

/* Pacific under mClock: IOPS per shard, 999999 for "no limit". */
static void test_pacific_mclock(void **state)
{
	json_t *cfg = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "osd_op_queue",
	    "mclock_scheduler", "osd_mclock_profile", "high_client_ops",
	    "osd_mclock_scheduler_client_res", "17934", "osd_mclock_scheduler_client_wgt", "2",
	    "osd_mclock_scheduler_client_lim", "999999", "osd_mclock_max_capacity_iops_hdd",
	    "179339.932206", "osd_mclock_max_capacity_iops_ssd", "21500.000000",
	    "osd_op_num_shards", "0", "osd_op_num_shards_hdd", "5", "osd_op_num_shards_ssd", "8");
	json_t *m = meta("16.2.15", "1"), *s = ccb_cluster_sched_parse(0, cfg, m);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(mclock(s), "profile")),
	                    "high_client_ops");
	assert_string_equal(json_string_value(json_object_get(mclock(s), "qos_unit")),
	                    "iops_per_shard");
	assert_true(fig(s, "shards") == 5);
	assert_true(fig(s, "client_reservation_iops") == 17934.0 * 5);
	assert_string_equal(json_string_value(json_object_get(mclock(s), "capacity_option")),
	                    "osd_mclock_max_capacity_iops_hdd");
	assert_null(json_object_get(mclock(s), "client_limit_iops"));
	json_decref(s);
	/* custom with a client limit of 50 per shard: 250 per OSD. */
	json_object_set_new(cfg, "osd_mclock_profile", json_string("custom"));
	json_object_set_new(cfg, "osd_mclock_scheduler_client_lim", json_string("50"));
	json_object_set_new(cfg, "osd_mclock_scheduler_client_res", json_string("1"));
	s = ccb_cluster_sched_parse(0, cfg, m);
	assert_true(fig(s, "client_limit_iops") == 250);
	assert_true(
	    json_number_value(json_object_get(json_object_get(mclock(s), "client"), "lim")) == 50);
	json_decref(s);
	/* An SSD: its shard count and capacity. An explicit osd_op_num_shards wins. */
	json_decref(m);
	m = meta("16.2.15", "0");
	s = ccb_cluster_sched_parse(0, cfg, m);
	assert_true(fig(s, "shards") == 8);
	assert_true(fig(s, "capacity_iops") == 21500);
	assert_true(fig(s, "client_limit_iops") == 400);
	json_decref(s);
	json_object_set_new(cfg, "osd_op_num_shards", json_string("2"));
	s = ccb_cluster_sched_parse(0, cfg, m);
	assert_true(fig(s, "client_limit_iops") == 100);
	json_decref(s);
	json_decref(m);
	json_decref(cfg);
}

/* Reef and Tentacle: shares of the capacity, 0 for none. */
static void test_reef_share(void **state)
{
	json_t *cfg = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "osd_op_queue", "mclock_scheduler",
	    "osd_mclock_profile", "balanced", "osd_mclock_scheduler_client_res", "0.500000",
	    "osd_mclock_scheduler_client_wgt", "1", "osd_mclock_scheduler_client_lim", "0.000000",
	    "osd_mclock_max_capacity_iops_hdd", "315.000000", "osd_mclock_max_capacity_iops_ssd",
	    "21500.000000", "osd_op_num_shards_hdd", "1");
	json_t *m = meta("18.2.7", "1"), *s = ccb_cluster_sched_parse(1, cfg, m);

	(void)state;
	assert_string_equal(json_string_value(json_object_get(mclock(s), "qos_unit")),
	                    "capacity_share");
	assert_true(fig(s, "capacity_iops") == 315);
	assert_true(fig(s, "client_reservation_iops") == 157.5);
	assert_null(json_object_get(mclock(s), "client_limit_iops"));
	json_decref(s);
	json_object_set_new(cfg, "osd_mclock_profile", json_string("custom"));
	json_object_set_new(cfg, "osd_mclock_scheduler_client_lim", json_string("0.010000"));
	s = ccb_cluster_sched_parse(1, cfg, m);
	assert_true(fabs(fig(s, "client_limit_iops") - 3.15) < 1e-9);
	json_decref(s);
	/* No metadata (the mon did not answer): the SSD figures, no version. */
	s = ccb_cluster_sched_parse(1, cfg, NULL);
	assert_true(fig(s, "capacity_iops") == 21500);
	assert_null(json_object_get(s, "ceph_version"));
	assert_null(json_object_get(s, "rotational"));
	json_decref(s);
	json_decref(m);
	json_decref(cfg);
}

/* Options missing from an OSD's config (another release): null, not 0. */
static void test_missing(void **state)
{
	json_t *cfg = json_pack("{s:s}", "osd_op_queue", "mclock_scheduler");
	json_t *s = ccb_cluster_sched_parse(0, cfg, NULL);

	(void)state;
	assert_true(json_is_null(json_object_get(mclock(s), "capacity_iops")));
	assert_true(json_is_null(json_object_get(json_object_get(mclock(s), "client"), "res")));
	assert_null(json_object_get(mclock(s), "client_limit_iops"));
	json_decref(s);
	json_decref(cfg);
	cfg = json_object();
	s = ccb_cluster_sched_parse(0, cfg, NULL);
	assert_null(json_object_get(s, "osd_op_queue"));
	json_decref(s);
	json_decref(cfg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wpq),
	    cmocka_unit_test(test_pacific_mclock),
	    cmocka_unit_test(test_reef_share),
	    cmocka_unit_test(test_missing),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
