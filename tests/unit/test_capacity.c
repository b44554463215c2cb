/*
 * Unit tests for the capacity search (src/capacity/capacity_search.c),
 * the SLO parser (src/run/slo.c), the views of a capacity document
 * (src/report/capacity_report.c) and explain's word on what set it
 * (src/explain/explain_capacity.c). The search runs against a model of
 * latency against rate (an M/M/1-like p99 that grows as 1 / (1 - rate /
 * capacity), nothing carried at or above the capacity): fast and
 * deterministic, no cluster.
 */
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

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/capacity.h"
#include "ccbench/capacity_report.h"
#include "ccbench/capacity_sweep_report.h"
#include "ccbench/sweep.h"
#include "ccbench/explain.h"
#include "ccbench/slo.h"

/* The model: service time d_ms, capacity cap; p99 of the response time. */
static double model_p99_ms(double rate, double cap, double d_ms)
{
	return rate >= cap ? INFINITY : d_ms * 4.6 / (1 - rate / cap);
}

/* Run a whole search on the model; returns the capacity found (0: none). */
static double search_model(double probe, double cap, double d_ms, double slo_ms, double precision,
                           unsigned max_steps, unsigned *steps)
{
	struct ccb_cap_search s;
	double rate;

	ccb_cap_search_init(&s, probe * CCB_CAP_START_SHARE, precision, max_steps);
	while ((rate = ccb_cap_search_next(&s)) > 0)
		ccb_cap_search_record(&s, rate, model_p99_ms(rate, cap, d_ms) <= slo_ms);
	*steps = s.steps;
	return s.lo;
}

static void test_search_finds_the_slo_rate(void **state)
{
	static const double caps[] = {12, 200, 4096, 55000};
	static const double probes[] = {0.25, 1, 4};
	(void)state;

	for (size_t i = 0; i < sizeof(caps) / sizeof(caps[0]); i++)
		for (size_t j = 0; j < sizeof(probes) / sizeof(probes[0]); j++) {
			double cap = caps[i], d = 2, slo = 20;
			/* Where the model's p99 meets the SLO: 4.6 d / (1 - r/c) = slo. */
			double truth = cap * (1 - 4.6 * d / slo);
			unsigned steps;
			double found = search_model(cap * probes[j], cap, d, slo, 0.05, 40, &steps);

			if (!(found <= truth && found >= truth / 1.05))
				fail_msg("capacity %g, probe x%g: found %g, the SLO's rate is %g",
				         cap, probes[j], found, truth);
			if (steps > 14)
				fail_msg("capacity %g, probe x%g: %u steps", cap, probes[j], steps);
		}
}

static void test_search_precision_and_bounds(void **state)
{
	unsigned steps;
	(void)state;

	/* A finer precision costs more steps and lands closer. */
	double coarse = search_model(1000, 1000, 2, 20, 0.2, 40, &steps);
	unsigned coarse_steps = steps;
	double fine = search_model(1000, 1000, 2, 20, 0.01, 40, &steps);
	assert_true(steps > coarse_steps);
	assert_true(fabs(fine - 540) <= 540 * 0.01 + 1e-9);
	assert_true(fabs(coarse - 540) <= 540 * 0.2 + 1e-9);
	/* No rate meets an SLO below the service time: down to the floor, none found. */
	assert_true(search_model(1000, 1000, 2, 1, 0.05, 200, &steps) == 0);
	assert_true(steps < 200);
	/* --max-steps bounds it whatever the model says. */
	search_model(1000, 1000, 2, 20, 0.0001, 5, &steps);
	assert_int_equal(steps, 5);
	/* Everything passes: stepped up to the open loop's top, then done. */
	struct ccb_cap_search s;
	ccb_cap_search_init(&s, 1, 0.05, 1000);
	double rate;
	while ((rate = ccb_cap_search_next(&s)) > 0)
		ccb_cap_search_record(&s, rate, true);
	assert_true(s.lo <= CCB_CAP_MAX_OPS_S && s.lo * CCB_CAP_STEP_UP > CCB_CAP_MAX_OPS_S);
}

/* One step of T seconds at a uniform rate against S slots, FIFO: with
 * limit_ops_s, a server that starts one op per 1 / limit (a mClock limit,
 * 2 ms each); else every op takes delay_s (--osd-latency, M / D).
 * Whether ccb_cap_carried says the step carried its rate. */
static bool step_carried(double rate, double t, unsigned slots, double limit_ops_s, double delay_s)
{
	unsigned n = (unsigned)ceil(rate * t - 1e-9), left = 0, done = 0;
	double *c = calloc(n, sizeof(*c)), svc = 0;

	assert_non_null(c);
	for (unsigned i = 0; i < n; i++) {
		double sub = i < slots ? i / rate : fmax(i / rate, c[i - slots]);

		c[i] = limit_ops_s > 0 ? fmax(sub + 0.002, (i ? c[i - 1] : 0) + 1 / limit_ops_s)
		                       : sub + delay_s;
		if (c[i] > t) {
			left++;
		} else {
			done++;
			svc += c[i] - sub;
		}
	}
	free(c);
	return ccb_cap_carried(rate, n, left, 0, slots, done ? svc / done : 0, false);
}

/*
 * Carried: a rate within the capacity is, whatever the slots; one 6 %
 * over it is not. The rule until 2026-12-04 (the slots' worth waiting,
 * whatever was in flight) passed 2 s steps up to C + slots / 2: 108 of a
 * limit of 100 with 16 slots (the release stages found 108.9 over
 * mClock's), 130 with 64.
 */
static void test_carried(void **state)
{
	(void)state;
	for (unsigned slots = 4; slots <= 64; slots *= 4) {
		assert_true(step_carried(95, 2, slots, 100, 0));
		assert_true(step_carried(100, 2, slots, 100, 0));
		assert_false(step_carried(106, 2, slots, 100, 0));
		assert_false(step_carried(130, 2, slots, 100, 0));
	}
	/* M / D: 4 slots of 50 ms carry 80 ops/s (t_capacity); 8 of 100 ms too. */
	assert_true(step_carried(37, 2, 4, 0, 0.05));
	assert_true(step_carried(78, 2, 4, 0, 0.05));
	assert_true(step_carried(80, 2, 8, 0, 0.1));
	assert_false(step_carried(84, 2, 4, 0, 0.05));
	assert_false(step_carried(84, 2, 8, 0, 0.1));
	/* The 1 % floor at a high rate; a drop is never carried. */
	assert_true(ccb_cap_carried(5000, 10000, 90, 0, 16, 0.001, false));
	assert_false(ccb_cap_carried(5000, 10000, 120, 0, 16, 0.001, false));
	assert_false(ccb_cap_carried(50, 100, 0, 1, 16, 0.001, false));
	/* Poisson arrivals: twice the spread (E = 4: 4 + 4 + 1 = 9 open pass). */
	assert_true(ccb_cap_carried(200, 400, 9, 0, 16, 0.02, true));
	assert_false(ccb_cap_carried(200, 400, 9, 0, 16, 0.02, false));
}

static void test_search_phases_and_noise(void **state)
{
	struct ccb_cap_search s;
	(void)state;

	ccb_cap_search_init(&s, 100, 0.05, 20);
	assert_int_equal(ccb_cap_search_phase(&s), CCB_CAP_UP);
	assert_true(ccb_cap_search_next(&s) == 100);
	ccb_cap_search_record(&s, 100, true);
	assert_true(fabs(ccb_cap_search_next(&s) - 140) < 1e-9);
	ccb_cap_search_record(&s, 140, false);
	assert_int_equal(ccb_cap_search_phase(&s), CCB_CAP_BISECT);
	assert_true(fabs(ccb_cap_search_next(&s) - sqrt(100 * 140)) < 1e-9);
	/* A failure below a pass is noise: flagged, the bracket kept. */
	ccb_cap_search_record(&s, 90, false);
	assert_true(s.out_of_order);
	assert_true(s.lo == 100 && s.hi == 140);
	/* A pass at the failure's rate: that failure was noise; step up again. */
	ccb_cap_search_record(&s, 140, true);
	assert_true(s.hi == 0 && s.lo == 140);
	assert_int_equal(ccb_cap_search_phase(&s), CCB_CAP_UP);
	/* The first step fails: down by half. */
	ccb_cap_search_init(&s, 100, 0.05, 20);
	ccb_cap_search_record(&s, 100, false);
	assert_int_equal(ccb_cap_search_phase(&s), CCB_CAP_DOWN);
	assert_true(ccb_cap_search_next(&s) == 50);
	assert_string_equal(ccb_cap_phase_name(CCB_CAP_BISECT), "bisect");
}

static void test_slo_parse(void **state)
{
	struct ccb_slo slo;
	char err[256];
	static const char *const bad[] = {"",
	                                  "p99",
	                                  "p99<10ms",
	                                  "p98<=10ms",
	                                  "p99<=0ms",
	                                  "p99<=10",
	                                  "p99<=10ms,",
	                                  "p99<=10ms,p99<=1ms",
	                                  "p50<=1ms,p90<=1ms,p99<=1ms,p99.9<=1ms,p50<=2ms",
	                                  "p99<=-1ms",
	                                  "p99<=10xs"};
	(void)state;

	assert_int_equal(ccb_slo_parse("p99<=10ms,p50<=2ms", &slo, err, sizeof(err)), 0);
	assert_int_equal(slo.n, 2);
	assert_string_equal(slo.terms[0].key, "p99");
	assert_true(slo.terms[0].limit_usec == 10000);
	assert_string_equal(slo.terms[1].key, "p50");
	assert_int_equal(ccb_slo_parse("p99.9<=1500ms", &slo, err, sizeof(err)), 0);
	assert_string_equal(slo.terms[0].key, "p99_9");
	assert_true(slo.terms[0].limit_usec == 1500000);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		if (ccb_slo_parse(bad[i], &slo, err, sizeof(err)) != -EINVAL)
			fail_msg("--slo '%s' accepted", bad[i]);
		assert_non_null(strstr(err, "--slo '"));
	}
	/* Met, broken, missing. */
	ccb_slo_parse("p99<=10ms,p50<=2ms", &slo, err, sizeof(err));
	json_t *lat = json_pack("{s:f, s:f}", "p50", 1500.0, "p99", 9000.0);
	unsigned broken = 9;
	assert_true(ccb_slo_met(&slo, lat, &broken, err, sizeof(err)));
	json_object_set_new(lat, "p50", json_real(2500));
	assert_false(ccb_slo_met(&slo, lat, &broken, err, sizeof(err)));
	assert_int_equal(broken, 1);
	assert_non_null(strstr(err, "p50 2.5 ms > 2 ms"));
	json_object_del(lat, "p99");
	assert_false(ccb_slo_met(&slo, lat, &broken, err, sizeof(err)));
	assert_int_equal(broken, 0);
	json_decref(lat);
	assert_true(ccb_slo_samples_needed(99) == 200);
	assert_true(ccb_slo_samples_needed(99.9) == 2000);
}

/* A capacity document as the search writes it: a limit of 4 slots x 20 ms. */
static json_t *fake_doc(void)
{
	json_t *steps = json_array();
	static const struct {
		const char *phase, *verdict;
		double target, achieved, rp99, sp99;
		int carried;
	} st[] = {{"up", "meets SLO", 120, 120, 45, 40, 1},
	          {"up", "meets SLO", 168, 167, 90, 41, 1},
	          {"up", "not carried", 235, 190, 900, 42, 0},
	          {"bisect", "meets SLO", 199, 197, 140, 41, 1},
	          {"bisect", "over SLO", 216, 214, 400, 42, 1},
	          {"headroom", "meets SLO", 99.5, 99.5, 42, 40, 1},
	          {"headroom", "meets SLO", 139, 139, 60, 40, 1}};

	for (size_t i = 0; i < sizeof(st) / sizeof(st[0]); i++)
		json_array_append_new(
		    steps,
		    json_pack(
		        "{s:i, s:s, s:s, s:f, s:f, s:f, s:b, s:b, s:f, s:f, s:{s:f, s:f, s:f}, "
		        "s:{s:f, s:f, s:f}, s:{s:f}, s:{s:f}, s:f}",
		        "step", (int)i + 1, "phase", st[i].phase, "verdict", st[i].verdict,
		        "target_ops_s", st[i].target, "achieved_ops_s", st[i].achieved, "completed",
		        st[i].achieved * 2, "carried", st[i].carried, "slo_met",
		        strcmp(st[i].verdict, "meets SLO") == 0, "dropped",
		        st[i].carried ? 0.0 : 40.0, "arrivals_total", st[i].target * 2,
		        "response_time_us", "p50", st[i].rp99 * 400, "p99", st[i].rp99 * 1000,
		        "p99_9", st[i].rp99 * 1100, "service_time_us", "p50", 20000.0, "p99",
		        st[i].sp99 * 1000, "p99_9", st[i].sp99 * 1050, "issuer_lag_us", "p99", 80.0,
		        "latency_injection", "osd_us", 20000.0, "seconds", 2.5));
	return json_pack(
	    "{s:s, s:s, s:s, s:{s:s, s:[{s:s, s:s, s:f, s:I}]}, s:o, s:f, s:f, s:f, s:s, "
	    "s:{s:s, s:b}, s:[{s:f, s:i, s:f, s:f, s:{s:f, s:f}, s:{s:f}, s:s}], s:{s:f, s:f}, "
	    "s:f, s:{}}",
	    "kind", "capacity", "command", "capacity rados write", "workload", "rados write", "slo",
	    "text", "p99<=200ms", "terms", "percentile", "p99", "key", "p99", "q", 99.0, "limit_us",
	    (json_int_t)200000, "steps", steps, "capacity_ops_s", 199.0, "max_in_flight", 4.0,
	    "clients", 1.0, "status", "ok", "search", "ended", "precision reached", "out_of_order",
	    0, "headroom", "share_pct", 70.0, "step", 7, "target_ops_s", 139.0, "achieved_ops_s",
	    139.0, "response_time_us", "p50", 20000.0, "p99", 60000.0, "service_time_us", "p99",
	    40000.0, "verdict", "meets SLO", "knee", "achieved_ops_s", 167.0, "response_p99_us",
	    90000.0, "seconds", 30.0, "parameters");
}

static char *render(int (*fn)(const json_t *, FILE *), const json_t *doc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(doc, f), 0);
	fclose(f);
	return buf;
}

static void test_views_and_explain(void **state)
{
	json_t *doc = fake_doc(), *ex;
	char err[256], *text, *csv, *svg;
	const char *failed;
	(void)state;

	assert_non_null(doc);
	assert_int_equal(ccb_capacity_doc_check(doc, err, sizeof(err)), 0);
	ex = ccb_explain_capacity(doc);
	json_object_set_new(doc, "explain", ex);
	json_object_set_new(doc, "closed_loop",
	                    json_pack("[{s:i, s:f, s:{s:f, s:f}}, {s:i, s:f, s:{s:f, s:f}}]",
	                              "in_flight", 1, "ops_s", 45.0, "latency_us", "p50", 20000.0,
	                              "p99", 40000.0, "in_flight", 4, "ops_s", 180.0, "latency_us",
	                              "p50", 21000.0, "p99", 45000.0));
	/* A closed-loop sweep beside it (report --closed-loop). */
	json_object_set_new(
	    doc, "closed_loop_sweep",
	    json_pack("{s:s, s:s, s:[{s:f, s:f, s:{s:f, s:f}}, {s:f, s:f, s:{s:f, s:f}}]}", "file",
	              "closed.json", "config", "closed-loop-curve", "points", "in_flight", 2.0,
	              "ops_s", 90.0, "latency_us", "p50", 20500.0, "p99", 41000.0, "in_flight",
	              64.0, "ops_s", 199.5, "latency_us", "p50", 320000.0, "p99", 480000.0));
	assert_int_equal(ccb_capacity_doc_check(doc, err, sizeof(err)), 0);
	text = render(ccb_capacity_render_text, doc);
	csv = render(ccb_capacity_render_csv, doc);
	svg = render(ccb_capacity_render_svg, doc);
	assert_non_null(strstr(svg, "closed-loop sweep p99 (clients x depth)"));
	assert_non_null(strstr(svg, "closed-loop sweep p50"));
	assert_non_null(
	    strstr(text, "closed-loop sweep  closed-loop-curve (closed.json), 2 points"));
	assert_non_null(strstr(text, "  64 in flight     199.5 ops/s, latency p50 320 p99 480 ms"));
	assert_non_null(strstr(text, "capacity           199 ops/s for rados write at p99<=200ms"));
	assert_non_null(strstr(text, "headroom 70%"));
	assert_non_null(strstr(text, "knee               167 ops/s"));
	/* explain: the next step up and by how much it was short, then the
	 * limit the injected delay sets: 4 slots / 20 ms = 200 ops/s. */
	assert_non_null(strstr(text, "the next step up, 216 ops/s (+8.5 %), was over the SLO"));
	assert_non_null(strstr(text, "simulated latency set the capacity"));
	assert_non_null(strstr(text, "= 200 ops/s"));
	/* Every step a CSV row, the capacity's marked. */
	assert_non_null(strstr(csv, "\n4,bisect,199,197,"));
	assert_non_null(strstr(csv, "meets SLO,2.500,1\n"));
	/* The hockey stick: a log y axis, the SLO line, the capacity line. */
	assert_non_null(strstr(svg, "latency (ms, log)"));
	assert_non_null(strstr(svg, "SLO p99 &lt;= 200 ms"));
	assert_non_null(strstr(svg, "capacity 199/s"));
	assert_non_null(strstr(svg, ">1000</text>"));
	/* The closed loop's points beside the open loop's, in the text too. */
	assert_non_null(strstr(svg, "closed loop p99 (1, 4, ... in flight)"));
	assert_non_null(strstr(text, "closed loop 4      180 ops/s, latency p50 21 p99 45 ms"));
	/* compare's figures. */
	assert_true(ccb_capacity_metric(doc, false, &failed) == 199 && !failed);
	assert_true(ccb_capacity_metric(doc, true, &failed) == 60000 && !failed);
	json_object_set_new(doc, "status", json_string("interrupted"));
	ccb_capacity_metric(doc, false, &failed);
	assert_non_null(failed);
	/* A read-back document with too many steps, or a crafted one, is refused:
	 * more sweep points than a chart draws too. */
	{
		json_t *many = json_array();
		for (int k = 0; k <= CCB_CAPACITY_MAX_SWEEP_POINTS; k++)
			json_array_append_new(many, json_pack("{s:f}", "ops_s", 1.0));
		json_object_set_new(json_object_get(doc, "closed_loop_sweep"), "points", many);
		assert_int_equal(ccb_capacity_doc_check(doc, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "closed_loop_sweep"));
	}
	json_object_set_new(doc, "steps", json_string("x"));
	assert_int_equal(ccb_capacity_doc_check(doc, err, sizeof(err)), -EINVAL);
	free(text);
	free(csv);
	free(svg);
	json_decref(doc);
}

/* A sweep of capacity searches: its views and compare's figures read the
 * points' aggregates; a point any of whose searches found none has none. */
static void test_capacity_sweep_views(void **state)
{
	json_t *doc = json_pack(
	    "{s:s, s:{s:s, s:s, s:{s:s}}, s:s, s:i, s:s, s:[{s:s, s:{s:i}, s:{s:i, s:i, s:i, "
	    "s:{s:f, s:f}, s:{s:f, s:f}, s:{s:f, s:f}}}, {s:s, s:{s:i}, s:{s:i, s:i, s:i, "
	    "s:{s:f, s:f}, s:{s:f, s:f}, s:{s:f, s:f}}}]}",
	    "kind", "sweep", "config", "name", "grid", "command", "capacity rados write", "params",
	    "slo", "p99<=500ms", "row_key", "max-in-flight", "repeat", 1, "status", "ok", "points",
	    "command", "capacity rados write", "matrix", "max-in-flight", 2, "aggregate", "runs", 1,
	    "runs_ok", 1, "p99_runs", 1, "capacity_ops_s", "mean", 38.5, "stddev", 0.0,
	    "response_p99_at_70pct_us", "mean", 120000.0, "stddev", 0.0, "knee_ops_s", "mean", 36.0,
	    "stddev", 0.0, "command", "capacity rados write", "matrix", "max-in-flight", 8,
	    "aggregate", "runs", 2, "runs_ok", 1, "p99_runs", 1, "capacity_ops_s", "mean", 150.0,
	    "stddev", 0.0, "response_p99_at_70pct_us", "mean", 90000.0, "stddev", 0.0, "knee_ops_s",
	    "mean", 140.0, "stddev", 0.0);
	const json_t *pts = json_object_get(doc, "points");
	const char *failed;
	char *csv;
	(void)state;

	assert_non_null(doc);
	assert_true(ccb_sweep_is_capacity(json_object_get(doc, "config")));
	assert_false(ccb_sweep_is_capacity(json_object_get(json_array_get(pts, 0), "matrix")));
	csv = render(ccb_capacity_sweep_render_csv, doc);
	assert_non_null(strstr(csv, ",max-in-flight,runs,runs_ok,capacity_ops_s_mean,"));
	assert_non_null(strstr(csv, "\n1,capacity rados write,2,1,1,38.500,"));
	free(csv);
	/* The sweep's own text view hands over to the capacity one. */
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ccb_sweep_render_text(doc, f);
		fclose(f);
		assert_non_null(strstr(buf, "capacity sweep grid: capacity rados write, 2 points"));
		assert_non_null(strstr(buf, "SLO p99<=500ms; 2 of 3 searches found a capacity"));
		/* Capacity, then the p99 at 70 % in ms, each a row per max-in-flight. */
		assert_non_null(strstr(buf, "38.5 ± 0.0\n8 "));
		assert_non_null(strstr(buf, "120.0 ± 0.0\n8 "));
		free(buf);
	}
	assert_true(ccb_capacity_sweep_metric(json_array_get(pts, 0), false, &failed) == 38.5 &&
	            !failed);
	assert_true(ccb_capacity_sweep_metric(json_array_get(pts, 0), true, &failed) == 120000 &&
	            !failed);
	/* One of two searches found none: no figure to gate on. */
	ccb_capacity_sweep_metric(json_array_get(pts, 1), false, &failed);
	assert_non_null(failed);
	json_decref(doc);
}

/* The client's lag, or a binding mClock limit, names the limit instead. */
static void test_explain_limits(void **state)
{
	json_t *doc = fake_doc(), *ex, *lim;
	char *s;
	(void)state;

	lim = json_array_get(json_object_get(doc, "steps"), 4);
	json_object_set_new(json_object_get(lim, "issuer_lag_us"), "p99", json_real(30000));
	ex = ccb_explain_capacity(doc);
	s = json_dumps(ex, 0);
	assert_non_null(strstr(s, "the client lagged at 216 ops/s"));
	assert_non_null(strstr(s, "simulated latency set the capacity"));
	assert_true(ccb_explain_has(ex, "distrust", NULL));
	free(s);
	json_decref(ex);
	json_object_set_new(json_object_get(lim, "issuer_lag_us"), "p99", json_real(50));
	json_object_set_new(
	    lim, "explain",
	    json_pack("[{s:s, s:s, s:s, s:{}}]", "kind", "scheduler", "severity", "warn", "text",
	              "mClock custom profile: osd_mclock_scheduler_client_lim=50 per op shard",
	              "figures"));
	ex = ccb_explain_capacity(doc);
	s = json_dumps(ex, 0);
	assert_non_null(strstr(s, "the OSD scheduler set the capacity: mClock"));
	free(s);
	json_decref(ex);
	/* A headroom step that failed below the capacity: noise, said. */
	json_object_set_new(json_array_get(json_object_get(doc, "steps"), 5), "verdict",
	                    json_string("not carried"));
	json_object_set_new(json_array_get(json_object_get(doc, "steps"), 5), "carried",
	                    json_false());
	ex = ccb_explain_capacity(doc);
	s = json_dumps(ex, 0);
	assert_non_null(strstr(s, "at 50 % of the capacity (99.5 ops/s) the headroom step was not "
	                          "carried"));
	free(s);
	json_decref(ex);
	/* Injected 2 ms with 4 in flight allows 2000 ops/s: a step failing at
	 * 216 is far under it, and the cluster's service time is named. */
	{
		json_t *d2 = fake_doc(), *l2 = json_array_get(json_object_get(d2, "steps"), 4);

		json_object_set_new(json_object_get(l2, "latency_injection"), "osd_us",
		                    json_real(2000));
		json_object_set_new(json_object_get(l2, "service_time_us"), "p99",
		                    json_real(80000));
		ex = ccb_explain_capacity(d2);
		s = json_dumps(ex, 0);
		assert_null(strstr(s, "simulated latency set the capacity"));
		assert_non_null(strstr(s, "simulated latency did not set the capacity"));
		assert_non_null(strstr(s, "allows 2000 ops/s"));
		assert_non_null(
		    strstr(s, "the cluster set the capacity: its service time p99 rose"));
		free(s);
		json_decref(ex);
		json_decref(d2);
	}
	/* Too few samples for the SLO's p99 at the capacity's step. */
	json_object_set_new(json_array_get(json_object_get(doc, "steps"), 3), "completed",
	                    json_real(150));
	ex = ccb_explain_capacity(doc);
	s = json_dumps(ex, 0);
	assert_non_null(strstr(s, "too few samples for the SLO's p99"));
	free(s);
	json_decref(ex);
	json_decref(doc);
}

/* A plain --rate run not held: by how much, and the limit (explain.c's list). */
static void test_explain_open_loop(void **state)
{
	json_t *r = json_pack(
	    "{s:{s:f, s:f, s:f, s:f, s:I, s:s, s:{s:f}, s:{s:f}, s:{s:f}}, s:{s:I, s:[s]}}",
	    "open_loop", "target_ops_s", 400.0, "achieved_ops_s", 190.0, "late", 500.0, "dropped",
	    20.0, "max_in_flight", (json_int_t)4, "verdict", "not held", "response_time_us", "p99",
	    900000.0, "service_time_us", "p99", 45000.0, "issuer_lag_us", "p99", 100.0,
	    "parameters", "clients", (json_int_t)1, "set", "ms_inject_delay_max=0.04");
	json_t *ex;
	char *s;
	(void)state;

	assert_non_null(r);
	ex = ccb_explain(r, NULL);
	s = json_dumps(ex, 0);
	assert_non_null(strstr(s, "rate not held: achieved 190 of 400 ops/s (52 % short)"));
	assert_non_null(strstr(s, "simulated latency set the rate: about 20 ms per op"));
	assert_non_null(strstr(s, "= 200 ops/s"));
	free(s);
	json_decref(ex);
	/* Held: nothing said. */
	json_object_set_new(json_object_get(r, "open_loop"), "verdict", json_string("held"));
	ex = ccb_explain(r, NULL);
	s = json_dumps(ex, 0);
	assert_null(strstr(s, "open-loop"));
	free(s);
	json_decref(ex);
	json_decref(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_search_finds_the_slo_rate),
	    cmocka_unit_test(test_search_precision_and_bounds),
	    cmocka_unit_test(test_search_phases_and_noise),
	    cmocka_unit_test(test_carried),
	    cmocka_unit_test(test_slo_parse),
	    cmocka_unit_test(test_views_and_explain),
	    cmocka_unit_test(test_capacity_sweep_views),
	    cmocka_unit_test(test_explain_limits),
	    cmocka_unit_test(test_explain_open_loop),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
