/*
 * Unit tests for src/cluster/osd_ops.c: the stage reduction on
 * `dump_historic_ops_by_duration` replies recorded on each release's
 * throwaway cluster (tests/unit/data/attr/REL/historic_osdN.json, made by
 * record_attr.sh): writes to a size-3 pool whose replica osd.1 delayed
 * the primary's messages by up to 50 ms. The primary's ops must wait
 * mostly for replicas, the delayed replica must be named the last to
 * answer (from its own osd_repop entries: no release names it in the
 * event), and the stages must add up to each op's duration.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccbench/osd_ops.h"
#include "attr_data.h"

/* Every OSD's recorded ops of object @p prefix, with @p f's gids. */
static size_t parse_all(const char *rel, struct ccb_ops_filter *f, struct ccb_slow_op **ops)
{
	size_t n = 0;

	for (int o = 0; o < 3; o++) {
		char file[64];
		json_t *d;

		snprintf(file, sizeof(file), "historic_osd%d.json", o);
		d = load(rel, file);
		assert_true(ccb_osd_ops_parse(d, o, f, ops, &n) >= 0);
		json_decref(d);
	}
	return n;
}

static void test_replica_case(void **state)
{
	(void)state;
	for (size_t r = 0; r < N_RELEASES; r++) {
		json_t *c = load(releases[r], "replica_case.json"), *j, *share, *last;
		const char *obj = json_string_value(json_object_get(c, "object"));
		int primary = (int)json_integer_value(json_object_get(c, "primary"));
		int slow = (int)json_integer_value(json_object_get(c, "slow_replica"));
		struct ccb_ops_filter f = {.prefix = obj};
		struct ccb_slow_op *ops = NULL;
		size_t n = parse_all(releases[r], &f, &ops), prim = 0, named = 0;
		char slow_name[16];

		assert_true(n >= 3);
		ccb_osd_ops_last_replica(ops, n);
		for (size_t i = 0; i < n; i++) {
			double sum = 0;

			assert_string_equal(ops[i].object, obj);
			for (unsigned k = 0; k < CCB_STAGE_N; k++) {
				assert_true(ops[i].stage_s[k] >= 0);
				sum += ops[i].stage_s[k];
			}
			assert_true(fabs(sum - (ops[i].end_s - ops[i].initiated_s)) < 1e-6);
			if (ops[i].repop) {
				assert_int_not_equal(ops[i].osd, primary);
				continue;
			}
			assert_int_equal(ops[i].osd, primary);
			/* The reads of the object wait for no replica. */
			if (!ops[i].write) {
				assert_int_equal(ops[i].n_waited, 0);
				continue;
			}
			assert_int_equal(ops[i].n_waited, 2);
			prim++;
			if (ops[i].last_replica >= 0) {
				if (ops[i].last_replica != slow)
					fail_msg(
					    "%s: %s: last replica osd.%d, not the delayed osd.%d",
					    releases[r], ops[i].reqid, ops[i].last_replica, slow);
				assert_int_equal(ops[i].last_how, CCB_LAST_REPLICA);
				named++;
			}
		}
		assert_true(prim >= 1);
		assert_true(named >= 1);
		j = ccb_osd_ops_json(ops, n, 5);
		share = json_object_get(j, "stage_share");
		if (json_number_value(json_object_get(share, "replicas")) < 0.5)
			fail_msg("%s: replicas %.2f of the primary's time", releases[r],
			         json_number_value(json_object_get(share, "replicas")));
		last = json_object_get(j, "last_replica");
		snprintf(slow_name, sizeof(slow_name), "osd.%d", slow);
		assert_int_equal(json_integer_value(json_object_get(last, slow_name)), named);
		assert_int_equal(json_object_size(last), 1);
		assert_true(json_array_size(json_object_get(j, "ops")) <= 5);
		/* The slowest listed first. */
		assert_true(json_number_value(json_object_get(
		                json_array_get(json_object_get(j, "ops"), 0), "duration_us")) >=
		            json_number_value(json_object_get(
		                json_array_get(json_object_get(j, "ops"), 1), "duration_us")));
		/* The replica's own entries: the delay is on its way in. */
		for (size_t i = 0; i < n; i++)
			if (ops[i].repop && ops[i].osd == slow &&
			    ops[i].end_s - ops[i].initiated_s > 0.01)
				assert_true(ops[i].stage_s[CCB_STAGE_RECEIVED] >
				            0.5 * (ops[i].end_s - ops[i].initiated_s));
		json_decref(j);
		json_decref(c);
		free(ops);
	}
}

/* Only the run's clients: a gid filter keeps one client's ops. */
static void test_gid_filter(void **state)
{
	struct ccb_ops_filter all = {0};
	struct ccb_slow_op *ops = NULL, *mine = NULL;
	size_t n, m;
	uint64_t gid;

	(void)state;
	n = parse_all("pacific", &all, &ops);
	assert_true(n > 3);
	gid = strtoull(ops[0].reqid + 7, NULL, 10);
	{
		struct ccb_ops_filter f = {.gids = &gid, .n_gids = 1, .prefix = NULL};
		m = parse_all("pacific", &f, &mine);
	}
	assert_true(m >= 1 && m < n);
	for (size_t i = 0; i < m; i++)
		assert_int_equal(strtoull(mine[i].reqid + 7, NULL, 10), gid);
	free(ops);
	free(mine);
}

/* Hand-made entries: a release that names the replica in its event, a
 * read, and what does not parse. */
static void test_crafted(void **state)
{
	json_t *d = json_loads(
	    "{\"ops\": ["
	    "{\"description\": \"osd_op(client.9.0:5 1.2 1:aa:::run.1:head [write 0~4096])\","
	    " \"type_data\": {\"events\": ["
	    "{\"event\": \"initiated\", \"time\": \"2026-01-01T00:00:00.000000+0000\"},"
	    "{\"event\": \"queued_for_pg\", \"time\": \"2026-01-01T00:00:00.001000+0000\"},"
	    "{\"event\": \"reached_pg\", \"time\": \"2026-01-01T00:00:00.011000+0000\"},"
	    "{\"event\": \"waiting for subops from 3,4\", \"time\": "
	    "\"2026-01-01T00:00:00.012000+0000\"},"
	    "{\"event\": \"op_commit\", \"time\": \"2026-01-01T00:00:00.013000+0000\"},"
	    "{\"event\": \"sub_op_commit_rec from 3\", \"time\": "
	    "\"2026-01-01T00:00:00.014000+0000\"},"
	    "{\"event\": \"sub_op_commit_rec from 4\", \"time\": "
	    "\"2026-01-01T00:00:00.050000+0000\"},"
	    "{\"event\": \"commit_sent\", \"time\": \"2026-01-01T00:00:00.050500+0000\"},"
	    "{\"event\": \"done\", \"time\": \"2026-01-01T00:00:00.051000+0000\"}]}},"
	    "{\"description\": \"osd_op(client.9.0:6 1.2 1:aa:::run.2:head [read 0~4096])\","
	    " \"type_data\": {\"events\": ["
	    "{\"event\": \"initiated\", \"time\": \"2026-01-01T00:00:01.000000Z\"},"
	    "{\"event\": \"reached_pg\", \"time\": \"2026-01-01T00:00:01.002000Z\"},"
	    "{\"event\": \"done\", \"time\": \"2026-01-01T00:00:01.003000Z\"}]}},"
	    "{\"description\": \"osd_op(client.9.0:7 1.2 1:aa:::other.1:head [read 0~4096])\","
	    " \"type_data\": {\"events\": []}},"
	    "{\"description\": \"osd_op(client.9.0:8 1.2 1:aa:::run.3:head [read])\","
	    " \"type_data\": {\"events\": [{\"event\": \"initiated\", \"time\": \"soon\"},"
	    "{\"event\": \"done\", \"time\": \"later\"}]}},"
	    "{\"description\": \"MOSDPing\"}, {\"description\": 7}]}",
	    0, NULL);
	struct ccb_ops_filter f = {.prefix = "run."};
	struct ccb_slow_op *ops = NULL;
	size_t n = 0;

	(void)state;
	assert_non_null(d);
	assert_int_equal(ccb_osd_ops_parse(d, 2, &f, &ops, &n), 2);
	ccb_osd_ops_last_replica(ops, n);
	assert_int_equal(ops[0].last_replica, 4);
	assert_int_equal(ops[0].last_how, CCB_LAST_EVENT);
	assert_true(fabs(ops[0].stage_s[CCB_STAGE_QUEUED] - 0.010) < 1e-6);
	assert_true(fabs(ops[0].stage_s[CCB_STAGE_REPLICAS] - 0.037) < 1e-6);
	assert_true(fabs(ops[0].stage_s[CCB_STAGE_COMMIT] - 0.001) < 1e-6);
	assert_true(fabs(ops[0].stage_s[CCB_STAGE_REPLY] - 0.001) < 1e-6);
	assert_string_equal(ops[0].pgid, "1.2");
	assert_false(ops[1].write);
	assert_true(fabs(ops[1].stage_s[CCB_STAGE_IN_PG] - 0.001) < 1e-6);
	assert_int_equal(ops[1].last_replica, -1);
	free(ops);
	json_decref(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replica_case),
	    cmocka_unit_test(test_gid_filter),
	    cmocka_unit_test(test_crafted),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
