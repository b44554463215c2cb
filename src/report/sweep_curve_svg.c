/*
 * The closed loop's response curve of a sweep whose config says "chart":
 * "latency" (configs/closed-loop-curve.json): each point at its achieved
 * ops per second against its p50 and p99 latency on a log axis, in the
 * order of the ops it kept in flight (clients x queue depth, CBT's
 * total_iodepth). More in flight moves right until the cluster saturates,
 * then only up: the hockey stick a capacity search draws open-loop
 * (capacity_report.c), here as a closed loop sees it.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/capacity_report.h>
#include "chart.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_int.h"

struct pt {
	double in_flight, ops_s, p50_ms, p99_ms;
};

static int by_in_flight(const void *a, const void *b)
{
	const struct pt *x = a, *y = b;
	return (x->in_flight > y->in_flight) - (x->in_flight < y->in_flight);
}

/* A point's number parameter @p key: its matrix value, else the config's. */
static double param(const json_t *doc, const json_t *p, const char *key, double dflt)
{
	const json_t *v = json_object_get(json_object_get(p, "matrix"), key);

	if (!v)
		v = json_object_get(json_object_get(json_object_get(doc, "config"), "params"), key);
	return json_is_number(v) ? json_number_value(v) : dflt;
}

/* The points with a run that completed, in @p v (n + 1 entries), sorted
 * by ops in flight. @return their number. */
static size_t collect(const json_t *doc, struct pt *v)
{
	const json_t *p;
	size_t m = 0, i;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		if (!json_integer_value(
		        json_object_get(json_object_get(p, "aggregate"), "runs_ok")))
			continue;
		v[m].in_flight = param(doc, p, "clients", 1) * param(doc, p, "queue-depth", 1);
		v[m].ops_s = ccb_sweep_agg(p, "iops", "mean");
		v[m].p50_ms = ccb_sweep_agg(p, "latency_p50_us", "mean") / 1e3;
		v[m].p99_ms = ccb_sweep_agg(p, "latency_p99_us", "mean") / 1e3;
		m++;
	}
	qsort(v, m, sizeof(*v), by_in_flight);
	return m;
}

json_t *ccb_sweep_curve_points(const json_t *doc)
{
	size_t n = json_array_size(json_object_get(doc, "points")), m, i;
	struct pt *v = calloc(n + 1, sizeof(*v));
	json_t *a = json_array();

	if (!v || !a) {
		free(v);
		json_decref(a);
		return NULL;
	}
	m = collect(doc, v);
	for (i = 0; i < m; i++)
		json_array_append_new(a, json_pack("{s:f, s:f, s:{s:f, s:f}}", "in_flight",
		                                   v[i].in_flight, "ops_s", v[i].ops_s,
		                                   "latency_us", "p50", v[i].p50_ms * 1e3, "p99",
		                                   v[i].p99_ms * 1e3));
	free(v);
	return a;
}

int ccb_sweep_curve_attach(json_t *cap, const char *cap_path, const json_t *sw, const char *path,
                           char *err, size_t err_len)
{
	const char *slash = strrchr(path, '/');
	json_t *pts;

	if (!ccb_capacity_is_doc(cap)) {
		snprintf(err, err_len,
		         "--closed-loop goes with a saved capacity search, and %s is not one",
		         cap_path);
		return -EINVAL;
	}
	if (!json_object_get(sw, "points")) {
		snprintf(err, err_len, "--closed-loop %s: not a sweep (%s)", path,
		         ccb_capacity_is_doc(sw) ? "a capacity search" : "a single run");
		return -EINVAL;
	}
	pts = ccb_sweep_curve_points(sw);
	if (!pts || !json_array_size(pts) || json_array_size(pts) > CCB_CAPACITY_MAX_SWEEP_POINTS) {
		snprintf(err, err_len, "--closed-loop %s: %s", path,
		         !pts                   ? "out of memory"
		         : json_array_size(pts) ? "more points than one chart draws (at most 64)"
		                                : "no point with a completed run");
		json_decref(pts);
		return -EINVAL;
	}
	json_object_set_new(
	    cap, "closed_loop_sweep",
	    json_pack("{s:s, s:s, s:o}", "file", slash ? slash + 1 : path, "config",
	              ccb_sweep_str_or(json_object_get(json_object_get(sw, "config"), "name"), "-"),
	              "points", pts));
	return 0;
}

int ccb_sweep_render_curve_svg(const json_t *doc, FILE *out)
{
	size_t n = json_array_size(json_object_get(doc, "points")), m, i;
	struct pt *v = calloc(n + 1, sizeof(*v));
	double *xs = calloc(n + 1, sizeof(double)), *y50 = calloc(n + 1, sizeof(double));
	double *y99 = calloc(n + 1, sizeof(double));
	char title[256];
	int r = -ENOMEM;

	if (!v || !xs || !y50 || !y99)
		goto out;
	m = collect(doc, v);
	for (i = 0; i < m; i++) {
		xs[i] = v[i].ops_s;
		y50[i] = v[i].p50_ms;
		y99[i] = v[i].p99_ms;
	}
	struct ccb_chart_series se[] = {
	    {.label = "closed loop p99", .x = xs, .y = y99, .n = m},
	    {.label = "closed loop p50", .x = xs, .y = y50, .n = m},
	};
	snprintf(title, sizeof(title), "%s: throughput against latency, by ops in flight",
	         ccb_sweep_str_or(json_object_get(json_object_get(doc, "config"), "name"),
	                          "ccbench sweep"));
	struct ccb_chart c = {
	    .title = title,
	    .x_title = "achieved rate (ops/s)",
	    .y_title = "latency (ms, log)",
	    .series = se,
	    .n_series = 2,
	    .y_log10 = true,
	};
	r = ccb_chart_svg(&c, out);
out:
	free(v);
	free(xs);
	free(y50);
	free(y99);
	return r;
}
