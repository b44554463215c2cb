/*
 * A sweep's figures across repeats (sweep_aggregate.h): each point's
 * aggregate (mean, spread and 95 % interval of every figure its runs
 * report, or of a capacity search's), whether repeat_until is met, the
 * row axis of its tables and the knee of each series.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/attr_json.h>
#include <ccbench/capacity_report.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/stats.h>
#include <ccbench/sweep.h>
#include "sweep_aggregate.h"
#include <ccbench/units.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

/* Mean, stddev, min, max and, from two runs on, the 95 % confidence
 * interval of the mean (Student t): what repeats tell of a figure. */
static json_t *stat_json(const double *v, size_t n)
{
	double m = mean_of(v, n), ss = 0, lo = INFINITY, hi = -INFINITY, half;
	json_t *j;

	for (size_t i = 0; i < n; i++) {
		ss += (v[i] - m) * (v[i] - m);
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	j = json_pack("{s:f, s:f, s:f, s:f}", "mean", m, "stddev",
	              n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0, "min", n ? lo : 0.0, "max",
	              n ? hi : 0.0);
	ccb_mean_ci95(v, n, &half);
	if (j && n > 1 && isfinite(half)) {
		json_object_set_new(j, "ci95_half", json_real(half));
		json_object_set_new(j, "ci95_low", json_real(m - half));
		json_object_set_new(j, "ci95_high", json_real(m + half));
	}
	return j;
}

/* The bandwidth levels of a point's ok runs (a steady window's mean where
 * one held: ccb_result_level()), into @p v; how many. */
static size_t ok_levels(const json_t *pt, double *v, size_t max)
{
	const json_t *r;
	size_t i, k = 0;

	json_array_foreach(json_object_get(pt, "runs"), i, r)
	{
		const char *st = json_string_value(json_object_get(r, "status"));
		if (k < max && st && strcmp(st, "ok") == 0)
			v[k++] = ccb_result_level(r, "bandwidth_mib_s");
	}
	return k;
}

bool ccb_sweep_point_settles(json_t *pt, uint64_t centipct)
{
	size_t n = json_array_size(json_object_get(pt, "runs"));
	double *v = calloc(n + 1, sizeof(double)), mean, half, pct = INFINITY;
	size_t k = v ? ok_levels(pt, v, n) : 0;
	bool settled;

	mean = ccb_mean_ci95(v, k, &half);
	if (k >= CCB_SWEEP_MIN_RUNS && mean > 0 && isfinite(half))
		pct = half / mean * 100;
	settled = pct <= (double)centipct / 100;
	json_object_set_new(pt, "repeat_until",
	                    json_pack("{s:b, s:I, s:o}", "settled", settled, "runs_ok",
	                              (json_int_t)k, "ci95_pct",
	                              isfinite(pct) ? json_real(pct) : json_null()));
	free(v);
	return settled;
}

/* The random reads after each point, per read size of the "tradeoff"
 * list, over the ok runs: agg.tradeoff_randread.SIZE = {runs, mean_us,
 * p50_us, p99_us}, each a statistic over the runs. */
static void aggregate_tradeoffs(const json_t *runs, json_t *agg)
{
	json_t *by_size = json_object(), *e, *r;
	const char *size_key;
	size_t i;

	json_array_foreach(runs, i, r)
	{
		const char *st = json_string_value(json_object_get(r, "status"));
		size_t j;

		if (!st || strcmp(st, "ok") != 0)
			continue;
		json_array_foreach(json_object_get(r, "tradeoff_randread"), j, e)
		{
			char key[32];
			const char *est = json_string_value(json_object_get(e, "status"));

			if (!est || strcmp(est, "ok") != 0)
				continue;
			ccb_format_bytes(
			    (uint64_t)json_integer_value(json_object_get(e, "io_bytes")), key,
			    sizeof(key));
			json_t *l = json_object_get(by_size, key);
			if (!l) {
				l = json_array();
				json_object_set_new(by_size, key, l);
			}
			json_array_append(l, e);
		}
	}
	json_object_foreach(by_size, size_key, e)
	{
		size_t m = json_array_size(e), j;
		double *mean = calloc(m + 1, sizeof(double)), *q50 = calloc(m + 1, sizeof(double));
		double *q99 = calloc(m + 1, sizeof(double));
		json_t *x, *all = json_object_get(agg, "tradeoff_randread");

		json_array_foreach(e, j, x)
		{
			mean[j] = json_number_value(json_object_get(x, "mean_us"));
			q50[j] = json_number_value(json_object_get(x, "p50_us"));
			q99[j] = json_number_value(json_object_get(x, "p99_us"));
		}
		if (!all) {
			all = json_object();
			json_object_set_new(agg, "tradeoff_randread", all);
		}
		json_object_set_new(all, size_key,
		                    json_pack("{s:I, s:o, s:o, s:o}", "runs", (json_int_t)m,
		                              "mean_us", stat_json(mean, m), "p50_us",
		                              stat_json(q50, m), "p99_us", stat_json(q99, m)));
		free(mean), free(q50), free(q99);
	}
	json_decref(by_size);
}

/* A capacity point's figures across its searches: the capacity, and the
 * response p99 at 70 % of it (what compare gates on), the knee's rate. */
static void aggregate_capacity(json_t *pt)
{
	json_t *runs = json_object_get(pt, "runs"), *r;
	size_t n = json_array_size(runs), i, k = 0, kp = 0, kk = 0;
	double *cap = calloc(n + 1, sizeof(double)), *p99 = calloc(n + 1, sizeof(double));
	double *knee = calloc(n + 1, sizeof(double));

	json_array_foreach(runs, i, r)
	{
		const char *failed;
		double v;

		if (!cap || !p99 || !knee)
			break;
		v = ccb_capacity_metric(r, false, &failed);
		if (failed)
			continue;
		cap[k++] = v;
		v = ccb_capacity_metric(r, true, &failed);
		if (!failed)
			p99[kp++] = v;
		if (json_is_object(json_object_get(r, "knee")))
			knee[kk++] = ccb_report_num(json_object_get(r, "knee"), "achieved_ops_s");
	}
	json_object_set_new(pt, "aggregate",
	                    json_pack("{s:I, s:I, s:I, s:o, s:o, s:o}", "runs", (json_int_t)n,
	                              "runs_ok", (json_int_t)k, "p99_runs", (json_int_t)kp,
	                              "capacity_ops_s", stat_json(cap, k),
	                              "response_p99_at_70pct_us", stat_json(p99, kp), "knee_ops_s",
	                              stat_json(knee, kk)));
	free(cap), free(p99), free(knee);
}

/* Runs with --fault (docs/failures.md): each figure compare and a sweep's
 * axis read, over the ok runs that have it, with how many ("runs"). */
static void aggregate_faults(const json_t *runs, json_t *agg)
{
	static const struct {
		const char *fig, *agg;
	} figs[] = {{"pause_s", "fault_pause_s"},
	            {"recovery_p99_us", "fault_recovery_p99_us"},
	            {"recovery_slowdown", "fault_recovery_slowdown"},
	            {"time_to_clean_s", "fault_time_to_clean_s"}};
	size_t n = json_array_size(runs), i;
	double *v = calloc(n + 1, sizeof(double));
	const json_t *r;

	for (size_t f = 0; v && f < sizeof(figs) / sizeof(figs[0]); f++) {
		size_t k = 0;
		json_t *st;

		json_array_foreach(runs, i, r)
		{
			const char *status = json_string_value(json_object_get(r, "status"));
			const json_t *x = json_object_get(
			    json_object_get(json_object_get(r, "fault"), "figures"), figs[f].fig);

			if (status && strcmp(status, "ok") == 0 && json_is_number(x))
				v[k++] = json_number_value(x);
		}
		if (!k)
			continue;
		st = stat_json(v, k);
		json_object_set_new(st, "runs", json_integer((json_int_t)k));
		json_object_set_new(agg, figs[f].agg, st);
	}
	free(v);
}

/* Mean, stddev, min and max across a point's runs, for each figure reported. */
/* Per OSD, the point's ok runs merged exactly (attr_json.h): what the
 * point's CSV row and compare --metric osd-p99 read. */
static void aggregate_osds(const json_t *runs, json_t *agg)
{
	const json_t *r;
	json_t *m = NULL;
	size_t i;
	char why[256];

	json_array_foreach(runs, i, r)
	{
		const json_t *att = json_object_get(r, "attribution");
		const char *st = json_string_value(json_object_get(r, "status"));

		if (!st || strcmp(st, "ok") != 0 || !json_is_object(json_object_get(att, "client")))
			continue;
		if (!m)
			m = json_pack("{s:s, s:[], s:{s:s, s:i, s:i, s:i}}", "mode", "per-op",
			              "osds", "client", "by", "primary", "ops", 0, "unmapped_ops",
			              0, "spanning_ops", 0);
		if (m)
			ccb_attr_merge(m, att, why, sizeof(why));
	}
	if (m)
		json_object_set_new(agg, "attribution", m);
}

static void aggregate_point(json_t *pt)
{
	json_t *runs = json_object_get(pt, "runs"), *r;
	size_t n = json_array_size(runs), i, k = 0;
	double *bw = calloc(n + 1, sizeof(double)), *p50 = calloc(n + 1, sizeof(double));
	double *p99 = calloc(n + 1, sizeof(double)), *iops = calloc(n + 1, sizeof(double));
	double *tp50 = calloc(n + 1, sizeof(double)), *tp99 = calloc(n + 1, sizeof(double));
	size_t kt = 0, steady = 0, steady_asked = 0;
	json_t *agg;

	json_array_foreach(runs, i, r)
	{
		json_t *lat = json_object_get(r, "latency_us"), *t = json_object_get(r, "tradeoff");
		const char *st = json_string_value(json_object_get(r, "status"));
		if (!st || strcmp(st, "ok") != 0)
			continue;
		/* A steady run's level is its window's, not the ramp's. */
		bw[k] = ccb_result_level(r, "bandwidth_mib_s");
		iops[k] = ccb_result_level(r, "iops");
		steady += ccb_result_stopped_steady(r);
		steady_asked += json_object_get(r, "steady_state") != NULL;
		p50[k] = json_number_value(json_object_get(lat, "p50"));
		p99[k] = json_number_value(json_object_get(lat, "p99"));
		k++;
		if (t) {
			tp50[kt] = json_number_value(json_object_get(t, "p50_us"));
			tp99[kt] = json_number_value(json_object_get(t, "p99_us"));
			kt++;
		}
	}
	agg = json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}", "runs", (json_int_t)n, "runs_ok",
	                (json_int_t)k, "bandwidth_mib_s", stat_json(bw, k), "iops",
	                stat_json(iops, k), "latency_p50_us", stat_json(p50, k), "latency_p99_us",
	                stat_json(p99, k));
	if (steady_asked)
		json_object_set_new(agg, "steady_runs", json_integer((json_int_t)steady));
	if (kt)
		json_object_set_new(agg, "tradeoff_randread_4k",
		                    json_pack("{s:o, s:o}", "p50_us", stat_json(tp50, kt), "p99_us",
		                              stat_json(tp99, kt)));
	aggregate_tradeoffs(runs, agg);
	aggregate_faults(runs, agg);
	aggregate_osds(runs, agg);
	json_object_set_new(pt, "aggregate", agg);
	free(bw), free(p50), free(p99), free(iops), free(tp50), free(tp99);
}

void ccb_sweep_aggregate(json_t *pt, bool capacity)
{
	if (capacity)
		aggregate_capacity(pt);
	else
		aggregate_point(pt);
}

/* A row axis of names (mount-via: libcephfs, fuse, kernel), not of
 * amounts: no value is "smaller", so its recommendation is the best one. */
static bool categorical(const json_t *points, const char *row_key)
{
	const json_t *p;
	size_t i;
	uint64_t b;

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *v = json_object_get(json_object_get(p, "matrix"), row_key);
		if (!json_is_string(v) || ccb_parse_bytes(json_string_value(v), &b) == 0)
			return false;
	}
	return json_array_size(points) > 0;
}

/* Point @p q is of @p series: its matrix but the row key is that. */
static bool of_series(const json_t *q, const char *row_key, const json_t *series)
{
	json_t *qs = json_deep_copy(json_object_get(q, "matrix"));
	bool same;

	json_object_del(qs, row_key);
	same = json_equal(qs, series);
	json_decref(qs);
	return same;
}

/* The best of a categorical series, and how far below it each other one is. */
static json_t *best_of(json_t *points, const char *row_key, const json_t *series)
{
	json_t *best = NULL, *others = json_array(), *q;
	double top = 0;
	size_t j;

	json_array_foreach(points, j, q)
	{
		if (of_series(q, row_key, series) &&
		    json_integer_value(
		        json_object_get(json_object_get(q, "aggregate"), "runs_ok")) > 0 &&
		    ccb_sweep_agg(q, "bandwidth_mib_s", "mean") > top) {
			top = ccb_sweep_agg(q, "bandwidth_mib_s", "mean");
			best = q;
		}
	}
	if (!best) {
		json_decref(others);
		return NULL;
	}
	json_array_foreach(points, j, q)
	{
		if (!of_series(q, row_key, series) || q == best)
			continue;
		double bw = ccb_sweep_agg(q, "bandwidth_mib_s", "mean");
		bool ok = json_integer_value(
		              json_object_get(json_object_get(q, "aggregate"), "runs_ok")) > 0;
		json_array_append_new(
		    others,
		    json_pack("{s:O, s:o, s:o}", "value",
		              json_object_get(json_object_get(q, "matrix"), row_key),
		              "bandwidth_mib_s", ok ? json_real(bw) : json_null(), "vs_best_pct",
		              ok ? json_real((bw / top - 1) * 100) : json_null()));
	}
	return json_pack("{s:O, s:O, s:f, s:f, s:s, s:o}", "series", series, "value",
	                 json_object_get(json_object_get(best, "matrix"), row_key),
	                 "bandwidth_mib_s", top, "best_mib_s", top, "kind", "best", "others",
	                 others);
}

/* The knee: per series (every matrix key but the row key), the smallest
 * row value whose mean bandwidth is within 5% of the series' best. On a
 * categorical row axis, the best value of the series (see best_of). */
json_t *ccb_sweep_knees(json_t *points, const char *row_key)
{
	bool names = categorical(points, row_key);
	json_t *knees = json_array(), *seen = json_object();
	size_t i, j;
	json_t *p, *q;

	json_array_foreach(points, i, p)
	{
		json_t *series = json_deep_copy(json_object_get(p, "matrix"));
		char *skey;
		double best = 0;
		json_t *knee = NULL;

		json_object_del(series, row_key);
		skey = json_dumps(series, JSON_SORT_KEYS | JSON_COMPACT);
		if (json_object_get(seen, skey)) {
			free(skey);
			json_decref(series);
			continue;
		}
		json_object_set_new(seen, skey, json_true());
		if (names) {
			knee = best_of(points, row_key, series);
			if (knee)
				json_array_append_new(knees, knee);
			free(skey);
			json_decref(series);
			continue;
		}
		/* Points are in matrix order, so row values arrive in the order given. */
		for (int pass = 0; pass < 2; pass++) {
			json_array_foreach(points, j, q)
			{
				json_t *qs = json_deep_copy(json_object_get(q, "matrix"));
				json_object_del(qs, row_key);
				bool same = json_equal(qs, series);
				json_decref(qs);
				if (!same)
					continue;
				double bw = json_number_value(
				    json_object_get(json_object_get(json_object_get(q, "aggregate"),
				                                    "bandwidth_mib_s"),
				                    "mean"));
				if (pass == 0 && bw > best)
					best = bw;
				if (pass == 1 && !knee && best > 0 && bw >= 0.95 * best)
					knee = json_pack(
					    "{s:O, s:O, s:f, s:f}", "series", series, "value",
					    json_object_get(json_object_get(q, "matrix"), row_key),
					    "bandwidth_mib_s", bw, "best_mib_s", best);
			}
		}
		if (knee)
			json_array_append_new(knees, knee);
		free(skey);
		json_decref(series);
	}
	json_decref(seen);
	return knees;
}

const char *ccb_sweep_row_key(const json_t *matrix)
{
	const char *key;
	json_t *v;
	/* "max-in-flight": the slots of an open loop, as in a capacity sweep. */
	static const char *const prefer[] = {"readahead",    "read-ahead-kb", "clients",
	                                     "queue-depth",  "io-size",       "op-size",
	                                     "max-in-flight"};

	/* A client axis of two or more is what a side-by-side config compares:
	 * its rows, each column a workload. */
	if (json_array_size(json_object_get(matrix, "mount-via")) > 1)
		return "mount-via";
	for (size_t i = 0; i < sizeof(prefer) / sizeof(prefer[0]); i++) {
		/* Before an op size, a pool axis (replicated against
		 * erasure-coded): a recommendation of a pool per workload and
		 * I/O size, not of a size per pool. */
		if (i == 4 && json_array_size(json_object_get(matrix, "data-pool")) > 1)
			return "data-pool";
		if (i == 4 && json_array_size(json_object_get(matrix, "pool")) > 1)
			return "pool";
		if (json_object_get(matrix, prefer[i]))
			return prefer[i];
	}
	json_object_foreach((json_t *)matrix, key, v) return key;
	return "";
}
