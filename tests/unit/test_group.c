/* Unit tests for the pure parts of src/group.c: parameters that must
 * agree, start skew, bytes over a window, the aggregate over the window in
 * which all members ran. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "../../src/report/chart.h"
#include "../../src/group/group_agg.h"
#include "ccbench/group_cmd.h"
#include "ccbench/hist_json.h"
#include "ccbench/group_member.h"
#include "../../src/group/group_store.h"
#include "ccbench/options.h"
#include "ccbench/path.h"
#include "../../src/paths/rados/path_rados.h"
#include <ccbench/path_rbd.h>

#define MIB 1048576.0

static void assert_close(double got, double want, double tol, const char *what)
{
	if (!(fabs(got - want) <= tol))
		fail_msg("%s: %.12g, want %.12g (tol %g)", what, got, want, tol);
}

static void set(struct ccb_opts *o, const char *name, const char *value)
{
	char err[256];

	assert_int_equal(ccb_opt_set(o, ccb_opt_find(name), value, err, sizeof(err)), 0);
}

static void test_params_rados(void **state)
{
	struct ccb_opts o;
	json_t *p;

	(void)state;
	ccb_opts_defaults(&o);
	set(&o, "group", "g");
	set(&o, "members", "3");
	set(&o, "op-size", "64K");
	p = ccb_group_params(&o, "rados write", &ccb_path_rados);
	assert_non_null(p);
	assert_string_equal(json_string_value(json_object_get(p, "command")), "rados write");
	assert_int_equal(json_integer_value(json_object_get(p, "members")), 3);
	/* rados always stops on the (default) duration. */
	assert_string_equal(json_string_value(json_object_get(p, "stop")), "duration");
	assert_int_equal(json_integer_value(json_object_get(p, "duration")), 10000000);
	assert_int_equal(json_integer_value(json_object_get(p, "op-size")), 65536);
	assert_null(json_object_get(p, "total"));
	json_decref(p);
}

static void test_params_rbd_pass_and_total(void **state)
{
	struct ccb_opts o;
	json_t *p;

	(void)state;
	ccb_opts_defaults(&o);
	set(&o, "members", "2");
	p = ccb_group_params(&o, "rbd read", &ccb_path_rbd);
	/* rbd without --duration makes one pass over the image. */
	assert_string_equal(json_string_value(json_object_get(p, "stop")), "pass");
	assert_null(json_object_get(p, "duration"));
	assert_non_null(json_object_get(p, "io-size"));
	json_decref(p);

	set(&o, "total", "1G");
	p = ccb_group_params(&o, "rbd read", &ccb_path_rbd);
	assert_string_equal(json_string_value(json_object_get(p, "stop")), "total");
	assert_int_equal(json_integer_value(json_object_get(p, "total")), 1 << 30);
	json_decref(p);
}

static void test_params_check(void **state)
{
	json_t *g = json_pack("{s:s, s:i, s:s, s:i, s:i}", "command", "rados write", "members", 3,
	                      "stop", "duration", "duration", 3000000, "op-size", 65536);
	json_t *m = json_deep_copy(g);
	char why[256] = "";

	(void)state;
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), 0);

	json_object_set_new(m, "duration", json_integer(5000000));
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "--duration"));
	assert_non_null(strstr(why, "5s"));
	assert_non_null(strstr(why, "3s"));

	/* How a run stops is named before its value. */
	json_object_del(m, "duration");
	json_object_set_new(m, "stop", json_string("total"));
	json_object_set_new(m, "total", json_integer(1 << 30));
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "--total"));
	assert_non_null(strstr(why, "stops"));

	json_decref(m);
	m = json_deep_copy(g);
	json_object_set_new(m, "command", json_string("rados seq"));
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "rados seq"));

	json_decref(m);
	m = json_deep_copy(g);
	json_object_set_new(m, "op-size", json_integer(4 << 20));
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "--op-size: this member has 4M, the group 64K"));

	/* A key only one side has is a conflict too. */
	json_decref(m);
	m = json_deep_copy(g);
	json_object_set_new(m, "io-size", json_integer(4096));
	assert_int_equal(ccb_group_params_check(g, m, why, sizeof(why)), -EINVAL);
	assert_non_null(strstr(why, "--io-size"));
	json_decref(m);
	json_decref(g);
}

static void test_skew(void **state)
{
	double starts[] = {100.010, 100.000, 100.004};

	(void)state;
	assert_close(ccb_group_skew_ms(starts, 3), 10.0, 1e-6, "skew");
	assert_close(ccb_group_skew_ms(starts, 1), 0, 0, "one member");
	assert_close(ccb_group_skew_ms(NULL, 0), 0, 0, "none");
}

static void test_bytes_between(void **state)
{
	uint64_t b[] = {100, 200, 300, 50};

	(void)state;
	/* Whole run: everything. The last bucket is [3, 3.5). */
	assert_close(ccb_group_bytes_between(b, 4, 10.0, 3.5, 0, 100), 650, 1e-9, "all");
	/* Half of bucket 0 and all of bucket 1. */
	assert_close(ccb_group_bytes_between(b, 4, 10.0, 3.5, 10.5, 12.0), 250, 1e-9, "cut");
	/* Half of the partial last bucket (0.25 of its 0.5 s). */
	assert_close(ccb_group_bytes_between(b, 4, 10.0, 3.5, 13.25, 20), 25, 1e-9, "tail");
	assert_close(ccb_group_bytes_between(b, 4, 10.0, 3.5, 0, 10), 0, 0, "before");
	/* Ops ending exactly at the end land in an empty last bucket: counted once. */
	uint64_t c[] = {100, 100, 7};
	assert_close(ccb_group_bytes_between(c, 3, 0, 2.0, 0, 2.0), 200, 1e-6, "edge");
	assert_close(ccb_group_bytes_between(c, 3, 0, 2.0, 0, 3.0), 207, 1e-6, "edge incl");
}

/* A member's stored result: @p mib per second, run of @p secs seconds. */
static json_t *doc(double start, double secs, const double *mib, size_t n, const char *status)
{
	json_t *series = json_array();
	uint64_t total = 0;

	for (size_t i = 0; i < n; i++) {
		uint64_t b = (uint64_t)(mib[i] * MIB);
		total += b;
		json_array_append_new(series, json_pack("{s:I, s:I}", "t", (json_int_t)i + 1,
		                                        "bytes", (json_int_t)b));
	}
	return json_pack("{s:f, s:f, s:{s:s, s:f, s:I, s:f, s:f, s:{s:I, s:f, s:f, s:f}, s:o}}",
	                 "start_realtime", start, "end_realtime", start + secs, "result", "status",
	                 status, "seconds", secs, "bytes", (json_int_t)total, "bandwidth_mib_s",
	                 (double)total / MIB / secs, "iops", 1.0, "latency_us", "n", (json_int_t)10,
	                 "mean", 1000.0, "p50", 900.0, "p99", 2000.0, "series", series);
}

static json_t *reg(double at, const char *st)
{
	return json_pack("{s:s, s:i, s:f, s:s}", "host", "h", "pid", 1, "registered_at", at,
	                 "state", st);
}

static void test_aggregate_window(void **state)
{
	/* Three members, staggered by up to 10 ms; each moves 10 MiB/s,
	 * 20 MiB/s, 30 MiB/s for 3 s. */
	double a[] = {10, 10, 10}, b[] = {20, 20, 20}, c[] = {30, 30, 30};
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s, s]}, s:{s:o, s:o, s:o}}", "name",
	                       "g", "params", "members", 3, "started", "start_realtime", 1000.0,
	                       "members", "a", "b", "c", "members", "a", reg(1, "done"), "b",
	                       reg(2, "done"), "c", reg(3, "done"));
	json_t *res =
	    json_pack("{s:o, s:o, s:o}", "a", doc(1000.000, 3.0, a, 3, "ok"), "b",
	              doc(1000.004, 3.0, b, 3, "ok"), "c", doc(1000.010, 3.0, c, 3, "ok"));
	json_t *rep, *agg, *win, *m;
	double sum = 0, series_sum = 0;
	size_t i;

	(void)state;
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "complete");
	assert_close(json_number_value(json_object_get(rep, "start_skew_ms")), 10, 1e-6, "skew");
	win = json_object_get(rep, "window");
	/* All ran from the last start (1000.010) to the first end (1003.000). */
	assert_close(json_number_value(json_object_get(win, "seconds")), 2.990, 1e-9, "window");
	assert_int_equal(json_integer_value(json_object_get(win, "start_realtime_us")), 1000010000);
	agg = json_object_get(rep, "aggregate");
	assert_int_equal(json_integer_value(json_object_get(agg, "members")), 3);
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		assert_string_equal(json_string_value(json_object_get(m, "state")), "done");
		sum += json_number_value(json_object_get(m, "window_bytes"));
	}
	/* The aggregate is the sum over the common window, and a steady
	 * 60 MiB/s here. */
	assert_close(json_number_value(json_object_get(agg, "bytes")), sum, 1e-3, "sum");
	assert_close(json_number_value(json_object_get(agg, "bandwidth_mib_s")), 60, 1e-6, "bw");
	json_array_foreach(json_object_get(agg, "series"), i, m) series_sum +=
	    json_number_value(json_object_get(m, "bytes"));
	assert_int_equal(json_array_size(json_object_get(agg, "series")), 3);
	assert_close(series_sum, sum, 1e-3, "series sum");
	/* Jain's index of 10, 20, 30: 60^2 / (3 * 1400). */
	assert_close(json_number_value(json_object_get(agg, "jain_index")), 3600.0 / 4200.0, 1e-9,
	             "jain");
	assert_int_equal(json_array_size(json_object_get(rep, "missing")), 0);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/* The aggregate's latency is that of every member's ops together: the
 * members' stored histograms merged, never an average of their
 * percentiles. Member b is slow in its tail, c has most of the ops. */
static void test_aggregate_latency_merged(void **state)
{
	double a[] = {10, 10, 10};
	struct ccb_hist *all = malloc(sizeof(*all)), *h = malloc(sizeof(*h));
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s, s]}, s:{s:o, s:o, s:o}}", "name",
	                       "g", "params", "members", 3, "started", "start_realtime", 1000.0,
	                       "members", "a", "b", "c", "members", "a", reg(1, "done"), "b",
	                       reg(2, "done"), "c", reg(3, "done"));
	json_t *res = json_object(), *rep, *lat;
	static const char *const ids[] = {"a", "b", "c"};
	static const double pcts[] = {50, 90, 99, 99.9};
	static const char *const keys[] = {"p50", "p90", "p99", "p99_9"};
	double avg_p99 = 0;

	(void)state;
	ccb_hist_init(all);
	for (unsigned m = 0; m < 3; m++) {
		json_t *d = doc(1000.0, 3.0, a, 3, "ok");
		unsigned n = m == 2 ? 20000 : 2000;

		ccb_hist_init(h);
		for (unsigned i = 0; i < n; i++) {
			uint64_t v = 1000000 + (uint64_t)i * 997 % 4000000;
			if (m == 1 && i % 50 == 0)
				v = 300000000 + i; /* b's slow tail */
			ccb_hist_record(h, v);
			ccb_hist_record(all, v);
		}
		avg_p99 += (double)ccb_hist_percentile(h, 99) / 3e3;
		json_object_set_new(json_object_get(d, "result"), "latency_hist",
		                    ccb_hist_to_json(h));
		json_object_set_new(res, ids[m], d);
	}
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "complete");
	lat = json_object_get(json_object_get(rep, "aggregate"), "latency_us");
	assert_true(json_is_object(lat));
	assert_int_equal(json_integer_value(
	                     json_object_get(json_object_get(rep, "aggregate"), "latency_members")),
	                 3);
	assert_close(json_number_value(json_object_get(lat, "n")), 24000, 0, "ops");
	for (size_t k = 0; k < 4; k++)
		assert_close(json_number_value(json_object_get(lat, keys[k])),
		             (double)ccb_hist_percentile(all, pcts[k]) / 1e3, 1e-9, keys[k]);
	assert_close(json_number_value(json_object_get(lat, "max")), (double)all->max_nsec / 1e3,
	             1e-9, "max");
	/* The average of the members' p99 would have been far off. */
	assert_true(fabs(avg_p99 - json_number_value(json_object_get(lat, "p99"))) > 100);
	json_decref(rep);

	/* A member whose histogram is not ccbench's is left out, named. */
	json_object_set_new(json_object_get(json_object_get(res, "b"), "result"), "latency_hist",
	                    json_pack("{s:i, s:i, s:i, s:i, s:f, s:f, s:[i, i]}", "sub_bits", 6,
	                              "count", 1, "min_ns", 1, "max_ns", 1, "sum_ns", 1.0,
	                              "sumsq_ns", 1.0, "buckets", 99999, 1));
	rep = ccb_group_aggregate(st, res);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	assert_int_equal(json_array_size(json_object_get(rep, "malformed")), 1);
	assert_non_null(strstr(json_string_value(json_object_get(
	                           json_array_get(json_object_get(rep, "malformed"), 0), "reason")),
	                       "latency_hist"));
	assert_int_equal(json_integer_value(
	                     json_object_get(json_object_get(rep, "aggregate"), "latency_members")),
	                 2);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
	free(all);
	free(h);
}

static void test_aggregate_missing_and_withdrawn(void **state)
{
	double a[] = {10, 10, 10}, b[] = {20, 5};
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s, s]}, s:{s:o, s:o, s:o}}", "name",
	                       "g", "params", "members", 3, "started", "start_realtime", 1000.0,
	                       "members", "a", "b", "c", "members", "a", reg(1, "done"), "b",
	                       reg(2, "withdrawn"), "c", reg(3, "running"));
	json_t *res = json_pack("{s:o, s:o}", "a", doc(1000.0, 3.0, a, 2, "ok"), "b",
	                        doc(1000.0, 1.5, b, 2, "interrupted"));
	json_t *rep, *members;

	(void)state;
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	members = json_object_get(rep, "members");
	assert_int_equal(json_array_size(members), 3);
	assert_string_equal(json_string_value(json_object_get(json_array_get(members, 0), "state")),
	                    "done");
	assert_string_equal(json_string_value(json_object_get(json_array_get(members, 1), "state")),
	                    "withdrawn");
	/* A member that never reported is listed, not silently dropped. */
	assert_string_equal(json_string_value(json_object_get(json_array_get(members, 2), "state")),
	                    "missing");
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(members, 2), "last_state")),
	    "running");
	assert_int_equal(json_array_size(json_object_get(rep, "missing")), 1);
	/* The withdrawn member does not shrink the window or join the sum. */
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(rep, "aggregate"), "members")), 1);
	assert_close(json_number_value(json_object_get(json_object_get(rep, "window"), "seconds")),
	             3.0, 1e-9, "window");
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/* A member killed mid-run: no result, its heartbeats stopped. Lost once
 * silent CCB_GROUP_LOST_AFTER_S, out of the window and the sum, said with
 * how far it got; running (not lost) while its beats are fresh. */
/* The aggregate of @p st and @p res counts one member malformed, none lost. */
static void assert_one_malformed(const json_t *st, const json_t *res)
{
	json_t *rep = ccb_group_aggregate(st, res);

	assert_int_equal(json_array_size(json_object_get(rep, "lost")), 0);
	assert_int_equal(json_array_size(json_object_get(rep, "malformed")), 1);
	json_decref(rep);
}

static void test_aggregate_lost(void **state)
{
	double a[] = {10, 10, 10, 10}, c[] = {30, 30, 30, 30};
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s, s]}, s:{s:o, s:o, s:o}, s:f, "
	                       "s:{s:{s:f, s:I, s:I, s:f}}}",
	                       "name", "g", "params", "members", 3, "started", "start_realtime",
	                       1000.0, "members", "a", "b", "c", "members", "a", reg(1, "done"),
	                       "b", reg(2, "running"), "c", reg(3, "done"), "now", 1010.0,
	                       "heartbeats", "b", "at", 1001.5, "bytes", (json_int_t)41943040,
	                       "ops", (json_int_t)10, "seconds", 1.5);
	json_t *res = json_pack("{s:o, s:o}", "a", doc(1000.0, 4.0, a, 4, "ok"), "c",
	                        doc(1000.0, 4.0, c, 4, "ok"));
	json_t *rep, *b, *agg;

	(void)state;
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	assert_int_equal(json_array_size(json_object_get(rep, "lost")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(rep, "lost"), 0)),
	                    "b");
	b = json_array_get(json_object_get(rep, "members"), 1);
	assert_string_equal(json_string_value(json_object_get(b, "state")), "lost");
	assert_int_equal(json_integer_value(json_object_get(b, "last_heard_realtime_us")),
	                 1001500000);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(b, "heard"), "bytes")),
	                 41943040);
	/* Out of the aggregate: two members, their 40 MiB/s over the whole 4 s. */
	agg = json_object_get(rep, "aggregate");
	assert_int_equal(json_integer_value(json_object_get(agg, "members")), 2);
	assert_close(json_number_value(json_object_get(agg, "bandwidth_mib_s")), 40, 1e-6, "bw");
	assert_close(json_number_value(json_object_get(json_object_get(rep, "window"), "seconds")),
	             4.0, 1e-9, "window");
	json_decref(rep);

	/* Heard from 2 s ago: still running, not lost; the group is running. */
	json_object_set_new(st, "now", json_real(1003.5));
	rep = ccb_group_aggregate(st, res);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "running");
	assert_int_equal(json_array_size(json_object_get(rep, "lost")), 0);
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(json_object_get(rep, "members"), 1), "state")),
	                    "running");
	json_decref(rep);

	/* A heartbeat that is not ccbench's: the member is malformed, not lost. */
	json_object_set_new(json_object_get(json_object_get(st, "heartbeats"), "b"), "bytes",
	                    json_integer(-1));
	assert_one_malformed(st, res);
	json_decref(st);
	json_decref(res);
}

/* Cut off and back: member b stored its result marked partial (the cluster
 * took no beat for 8 s). It stays lost, out of the aggregate, with its
 * figures beside it; a partial record that is not ccbench's is malformed. */
static void test_aggregate_returned(void **state)
{
	double a[] = {10, 10, 10, 10}, b[] = {5, 0, 0, 0, 0, 0, 0, 0, 0, 5}, c[] = {30, 30, 30, 30};
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s, s]}, s:{s:o, s:o, s:o}, s:f}",
	                       "name", "g", "params", "members", 3, "started", "start_realtime",
	                       1000.0, "members", "a", "b", "c", "members", "a", reg(1, "done"),
	                       "b", reg(2, "done"), "c", reg(3, "done"), "now", 1020.0);
	json_t *bd = doc(1000.0, 10.0, b, 10, "ok");
	json_t *res = json_pack("{s:o, s:O, s:o}", "a", doc(1000.0, 4.0, a, 4, "ok"), "b", bd, "c",
	                        doc(1000.0, 4.0, c, 4, "ok"));
	json_t *rep, *m;

	(void)state;
	json_object_set_new(json_object_get(bd, "result"), "group",
	                    json_pack("{s:{s:f, s:I, s:f, s:s}}", "partial", "silent_s", 8.0,
	                              "silent_from_realtime_us", (json_int_t)1001000000,
	                              "lost_after_s", 5.0, "why", "cut off"));
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	assert_int_equal(json_array_size(json_object_get(rep, "lost")), 1);
	m = json_array_get(json_object_get(rep, "members"), 1);
	assert_string_equal(json_string_value(json_object_get(m, "state")), "lost");
	assert_true(json_is_true(json_object_get(m, "returned")));
	assert_close(json_number_value(json_object_get(json_object_get(m, "partial"), "silent_s")),
	             8.0, 1e-9, "silent");
	assert_int_equal(json_integer_value(json_object_get(m, "bytes")), 10 * MIB);
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(rep, "aggregate"), "members")), 2);
	assert_close(json_number_value(
	                 json_object_get(json_object_get(rep, "aggregate"), "bandwidth_mib_s")),
	             40, 1e-6, "bw");
	json_decref(rep);
	/* Not ccbench's: a negative silence. */
	json_object_set_new(
	    json_object_get(json_object_get(json_object_get(bd, "result"), "group"), "partial"),
	    "silent_s", json_real(-1));
	assert_one_malformed(st, res);
	json_decref(bd);
	json_decref(st);
	json_decref(res);
}

static void test_aggregate_waiting(void **state)
{
	json_t *st =
	    json_pack("{s:s, s:{s:i}, s:n, s:{s:o, s:o}}", "name", "g", "params", "members", 3,
	              "started", "members", "b", reg(2, "registered"), "a", reg(1, "registered"));
	json_t *res = json_object(), *rep;

	(void)state;
	rep = ccb_group_aggregate(st, res);
	assert_non_null(rep);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "waiting");
	assert_true(json_is_null(json_object_get(rep, "window")));
	/* Registration order, not the omap's alphabetical one. */
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(json_object_get(rep, "members"), 0), "member")),
	                    "a");
	assert_int_equal(json_array_size(json_object_get(rep, "missing")), 2);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/*
 * Poisoned records. Each case puts member "b" beside a well-formed member
 * "a" in a started group: "b" must come out "malformed", named with a
 * reason, left out of the aggregate, while "a" is aggregated as usual, and
 * the whole must end in bounded time and memory (alarm(): the unfixed code
 * looped forever on start 1e17 and allocated 4.4 GB for seconds 1e12).
 */
#define T0 1764000000.0 /* 2025-11-24: an instant like the ones members write */

static json_t *good_doc(double start)
{
	double mib[] = {10, 10, 10};
	return doc(start, 3.0, mib, 3, "ok");
}

/* Run the aggregate on a+b with b's stored result @p bdoc (or none) and
 * b's registration @p breg; check b is malformed and a still counts. */
static void expect_malformed(const char *what, json_t *bdoc, json_t *breg)
{
	json_t *st =
	    json_pack("{s:s, s:{s:i}, s:{s:f, s:[s, s]}, s:{s:o, s:o}}", "name", "g", "params",
	              "members", 2, "started", "start_realtime", T0, "members", "a", "b", "members",
	              "a", reg(1, "done"), "b", breg ? breg : reg(2, "done"));
	json_t *res = json_pack("{s:o}", "a", good_doc(T0));
	json_t *rep, *b, *mal;

	assert_non_null(st);
	assert_non_null(res);
	if (bdoc)
		json_object_set_new(res, "b", bdoc);
	alarm(20);
	rep = ccb_group_aggregate(st, res);
	alarm(0);
	if (!rep)
		fail_msg("%s: no report", what);
	b = json_array_get(json_object_get(rep, "members"), 1);
	if (strcmp(json_string_value(json_object_get(b, "state")), "malformed") != 0)
		fail_msg("%s: member b is '%s', want 'malformed'", what,
		         json_string_value(json_object_get(b, "state")));
	assert_non_null(json_string_value(json_object_get(b, "reason")));
	assert_null(json_object_get(b, "result"));
	mal = json_object_get(rep, "malformed");
	if (json_array_size(mal) != 1 ||
	    strcmp(json_string_value(json_object_get(json_array_get(mal, 0), "member")), "b") != 0)
		fail_msg("%s: malformed[] does not name b alone", what);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(json_object_get(rep, "members"), 0), "state")),
	                    "done");
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(rep, "aggregate"), "members")), 1);
	assert_close(json_number_value(json_object_get(json_object_get(rep, "window"), "seconds")),
	             3.0, 1e-9, what);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/* A group of one whose only member is poisoned: where the unfixed
 * aggregate's window loop ran (start 1e17: t += 1 never advanced). */
static void expect_malformed_alone(const char *what, json_t *bdoc)
{
	json_t *st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s]}, s:{s:o}}", "name", "g", "params",
	                       "members", 1, "started", "start_realtime", T0, "members", "b",
	                       "members", "b", reg(1, "done"));
	json_t *res = json_pack("{s:o}", "b", bdoc), *rep;

	alarm(20);
	rep = ccb_group_aggregate(st, res);
	alarm(0);
	if (!rep)
		fail_msg("%s: no report", what);
	assert_string_equal(json_string_value(json_object_get(
	                        json_array_get(json_object_get(rep, "members"), 0), "state")),
	                    "malformed");
	assert_true(json_is_null(json_object_get(rep, "window")));
	assert_int_equal(
	    json_array_size(json_object_get(json_object_get(rep, "aggregate"), "series")), 0);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/* b's result with field @p path ("start_realtime" or "result.KEY") set to @p v (NULL: removed). */
static json_t *poisoned(const char *key, json_t *v)
{
	json_t *d = good_doc(T0 + 0.001), *o = d;
	const char *k = key;

	if (strncmp(key, "result.", 7) == 0) {
		o = json_object_get(d, "result");
		k = key + 7;
	}
	if (v)
		json_object_set_new(o, k, v);
	else
		json_object_del(o, k);
	return d;
}

static void test_poisoned_values(void **state)
{
	(void)state;
	/* The reproduced ones: a start far in the future, a run of 30000 years. */
	expect_malformed("start 1e17", poisoned("start_realtime", json_real(1e17)), NULL);
	expect_malformed("seconds 1e12", poisoned("result.seconds", json_real(1e12)), NULL);
	{
		/* 100 s at 1e17: past the double's unit there, so t += 1 stood still. */
		double mib[100];
		for (size_t i = 0; i < 100; i++)
			mib[i] = 1;
		expect_malformed_alone("alone, start 1e17", doc(1e17, 100.0, mib, 100, "ok"));
	}
	expect_malformed_alone("alone, seconds 1e12", poisoned("result.seconds", json_real(1e12)));
	expect_malformed("start 1e300", poisoned("start_realtime", json_real(1e300)), NULL);
	expect_malformed("start negative", poisoned("start_realtime", json_real(-5)), NULL);
	expect_malformed("seconds negative", poisoned("result.seconds", json_real(-1)), NULL);
	/* Seconds far beyond the samples it holds (3 samples, a day). */
	expect_malformed("seconds beyond samples", poisoned("result.seconds", json_real(86400)),
	                 NULL);
}

static void test_poisoned_types(void **state)
{
	json_t *d;

	(void)state;
	expect_malformed("start a string", poisoned("start_realtime", json_string("soon")), NULL);
	expect_malformed("seconds a string", poisoned("result.seconds", json_string("3")), NULL);
	expect_malformed("result a number", poisoned("result", json_integer(5)), NULL);
	expect_malformed("series an object", poisoned("result.series", json_object()), NULL);
	expect_malformed("latency a list", poisoned("result.latency_us", json_array()), NULL);
	expect_malformed("status a number", poisoned("result.status", json_integer(0)), NULL);
	d = poisoned("result.seconds", NULL);
	json_array_append_new(json_object_get(json_object_get(d, "result"), "series"),
	                      json_pack("{s:i, s:s}", "t", 4, "bytes", "many"));
	json_object_set_new(json_object_get(d, "result"), "seconds", json_real(4));
	expect_malformed("series bytes a string", d, NULL);
	d = good_doc(T0);
	json_object_set_new(
	    json_array_get(json_object_get(json_object_get(d, "result"), "series"), 0), "bytes",
	    json_integer(-1));
	expect_malformed("series bytes negative", d, NULL);
	d = good_doc(T0);
	json_array_append_new(json_object_get(json_object_get(d, "result"), "series"),
	                      json_string("x"));
	expect_malformed("series entry a string", d, NULL);
	d = good_doc(T0);
	json_object_set_new(
	    json_array_get(json_object_get(json_object_get(d, "result"), "series"), 0), "t",
	    json_integer(1000000000));
	expect_malformed("series t out of range", d, NULL);
	/* The registration (the member.ID omap record). */
	expect_malformed("registration state a number", NULL,
	                 json_pack("{s:s, s:i, s:i}", "host", "h", "pid", 1, "state", 7));
	expect_malformed("registration host a list", NULL,
	                 json_pack("{s:[], s:i, s:s}", "host", "pid", 1, "state", "running"));
	expect_malformed(
	    "registration start 1e17", NULL,
	    json_pack("{s:s, s:f, s:s}", "host", "h", "start_realtime", 1e17, "state", "running"));
	expect_malformed("registration pid a string", NULL,
	                 json_pack("{s:s, s:s, s:s}", "host", "h", "pid", "1", "state", "running"));
}

static void test_poisoned_missing_fields(void **state)
{
	(void)state;
	expect_malformed("no start", poisoned("start_realtime", NULL), NULL);
	expect_malformed("no seconds", poisoned("result.seconds", NULL), NULL);
	expect_malformed("no series", poisoned("result.series", NULL), NULL);
	expect_malformed("no result", poisoned("result", NULL), NULL);
}

static void test_poisoned_huge_arrays(void **state)
{
	json_t *d = good_doc(T0), *series, *one, *st, *res, *rep, *claim;

	(void)state;
	/* More samples than the longest run can have (one shared entry, so
	 * the test itself stays small). */
	series = json_object_get(json_object_get(d, "result"), "series");
	one = json_pack("{s:i}", "bytes", 1);
	for (size_t i = 0; i < 31 * 86400 + 3600 + 10; i++)
		json_array_append(series, one);
	json_decref(one);
	expect_malformed("series of 2.7 million samples", d, NULL);

	/* A start claim naming 100000 members, and non-strings: at most
	 * CCB_GROUP_MAX_MEMBERS looked at, the claim named malformed. */
	claim = json_array();
	json_array_append_new(claim, json_string("a"));
	json_array_append_new(claim, json_integer(3));
	json_array_append_new(claim, json_string("a"));
	for (int i = 0; i < 100000; i++) {
		char id[32];
		snprintf(id, sizeof(id), "h.%d.0000", i);
		json_array_append_new(claim, json_string(id));
	}
	st = json_pack("{s:s, s:{s:i}, s:{s:f, s:o}, s:{s:o}}", "name", "g", "params", "members", 2,
	               "started", "start_realtime", T0, "members", claim, "members", "a",
	               reg(1, "done"));
	res = json_pack("{s:o}", "a", good_doc(T0));
	alarm(20);
	rep = ccb_group_aggregate(st, res);
	alarm(0);
	assert_non_null(rep);
	assert_true(json_array_size(json_object_get(rep, "members")) <= CCB_GROUP_MAX_MEMBERS);
	assert_int_equal(json_array_size(json_object_get(rep, "malformed")), 1);
	assert_string_equal(json_string_value(json_object_get(rep, "status")), "incomplete");
	/* "a" once, not twice. */
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(rep, "aggregate"), "members")), 1);
	json_decref(rep);
	json_decref(st);
	json_decref(res);

	/* A claim whose start is poisoned: named, the members still reported. */
	st = json_pack("{s:s, s:{s:i}, s:{s:f, s:[s]}, s:{s:o}}", "name", "g", "params", "members",
	               1, "started", "start_realtime", 1e17, "members", "a", "members", "a",
	               reg(1, "done"));
	res = json_pack("{s:o}", "a", good_doc(T0));
	alarm(20);
	rep = ccb_group_aggregate(st, res);
	alarm(0);
	assert_non_null(rep);
	assert_int_equal(json_array_size(json_object_get(rep, "malformed")), 1);
	assert_null(json_object_get(rep, "planned_start_realtime_us"));
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(rep, "aggregate"), "members")), 1);
	json_decref(rep);
	json_decref(st);
	json_decref(res);
}

/* A chart of poisoned values ends and stays an SVG: far-off x (where
 * x += step no longer advances), infinite and NaN y, a huge log2 span. */
static void test_chart_poisoned(void **state)
{
	double xs[] = {1e20, 1e20 + 3e4, 1e20 + 6e4}, ys[] = {1, 2, 3};
	double xi[] = {1, 2, 3}, yi[] = {1, INFINITY, NAN}, ei[] = {0, 0, INFINITY};
	double xl[] = {1e-300, 1, 1e300}, yl[] = {1, 1e308, 1e308};
	struct ccb_chart_series s[] = {{"far", xs, ys, NULL, 3}, {"inf", xi, yi, ei, 3}};
	struct ccb_chart_series sl[] = {{"log", xl, yl, NULL, 3}};
	struct ccb_chart c = {
	    .title = "t", .x_title = "x", .y_title = "y", .series = s, .n_series = 1};
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	for (int k = 0; k < 3; k++) {
		if (k == 1)
			c.series = s + 1;
		if (k == 2)
			c.series = sl, c.x_log2 = true;
		f = open_memstream(&text, &len);
		assert_non_null(f);
		alarm(20);
		assert_int_equal(ccb_chart_svg(&c, f), 0);
		alarm(0);
		fclose(f);
		assert_non_null(strstr(text, "</svg>"));
		assert_true(len < 1000000);
		free(text);
		text = NULL;
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_params_rados),
	    cmocka_unit_test(test_params_rbd_pass_and_total),
	    cmocka_unit_test(test_params_check),
	    cmocka_unit_test(test_skew),
	    cmocka_unit_test(test_bytes_between),
	    cmocka_unit_test(test_aggregate_window),
	    cmocka_unit_test(test_aggregate_latency_merged),
	    cmocka_unit_test(test_aggregate_missing_and_withdrawn),
	    cmocka_unit_test(test_aggregate_waiting),
	    cmocka_unit_test(test_aggregate_lost),
	    cmocka_unit_test(test_aggregate_returned),
	    cmocka_unit_test(test_poisoned_values),
	    cmocka_unit_test(test_poisoned_types),
	    cmocka_unit_test(test_poisoned_missing_fields),
	    cmocka_unit_test(test_poisoned_huge_arrays),
	    cmocka_unit_test(test_chart_poisoned),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
