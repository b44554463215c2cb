/*
 * The views of a sweep of capacity searches: one figure per point where a
 * sweep of runs has bandwidth, from the point's aggregate (sweep.c:
 * capacity_ops_s, response_p99_at_70pct_us, knee_ops_s over its searches).
 * The tables and the footnotes are the sweep's own (sweep_report.c); the
 * chart is the sweep's with capacity on the y axis (sweep_svg.c).
 */
#include <ccbench/sweep_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/release.h>
#include <ccbench/report.h>

#include "sweep_int.h"

#include <errno.h>
#include <string.h>

bool ccb_sweep_is_capacity(const json_t *config)
{
	const char *c = json_string_value(json_object_get(config, "command"));

	return c && strncmp(c, CCB_SWEEP_CAPACITY_WORD, strlen(CCB_SWEEP_CAPACITY_WORD)) == 0;
}

/* The SLO the points share, or "per point" when the matrix varies it. */
static const char *slo_of(const json_t *cfg)
{
	const json_t *v = json_object_get(json_object_get(cfg, "params"), "slo");

	return json_is_string(v) ? json_string_value(v) : "per point (see the matrix)";
}

void ccb_capacity_sweep_render_text(const json_t *doc, FILE *out)
{
	const json_t *cfg = json_object_get(doc, "config"), *p;
	size_t i, found = 0, runs = 0;
	char buf[256], e1[256], e2[256], e3[128], e4[64];

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");
		found += (size_t)json_integer_value(json_object_get(a, "runs_ok"));
		runs += (size_t)json_integer_value(json_object_get(a, "runs"));
	}
	/* Every string of the document printed here is escaped: a saved
	 * sweep can be crafted. */
	fprintf(
	    out, "capacity sweep %s: %s, %zu points x %lld repeats, status %s\n",
	    ccb_text_esc(
	        ccb_sweep_str_or(json_object_get(cfg, "name"),
	                         ccb_sweep_str_or(json_object_get(doc, "config_file"), "")),
	        e1, sizeof(e1)),
	    ccb_text_esc(ccb_sweep_commands_of(cfg, buf, sizeof(buf)), e2, sizeof(e2)),
	    json_array_size(json_object_get(doc, "points")),
	    (long long)json_integer_value(json_object_get(doc, "repeat")),
	    ccb_text_esc(ccb_sweep_str_or(json_object_get(doc, "status"), "?"), e4, sizeof(e4)));
	fprintf(out, "SLO %s; %zu of %zu searches found a capacity\n",
	        ccb_text_esc(slo_of(cfg), e3, sizeof(e3)), found, runs);
	ccb_release_text(json_object_get(doc, "releases"), buf, sizeof(buf));
	if (buf[0])
		fprintf(out, "releases: %s\n", ccb_text_esc(buf, e1, sizeof(e1)));
	ccb_sweep_table(doc, out, "capacity_ops_s",
	                "\ncapacity (ops/s: the highest rate held within the SLO), mean ± stddev "
	                "over repeats",
	                NULL);
	ccb_sweep_table(doc, out, "response_p99_at_70pct_us",
	                "\nresponse p99 at 70 % of capacity (ms), mean ± stddev", "0.001");
	ccb_sweep_table(doc, out, "knee_ops_s",
	                "\nknee (ops/s: the highest rate whose response p99 is within 2 x the "
	                "curve's lowest)",
	                NULL);
	ccb_sweep_why(doc, out);
	fprintf(out,
	        "\neach search's steps and chart: ccbench report FILE -f json (points[].runs[])\n");
}

int ccb_capacity_sweep_render_csv(const json_t *doc, FILE *out)
{
	const json_t *points = json_object_get(doc, "points"), *p;
	json_t *keys = json_array();
	size_t i;

	ccb_sweep_csv_head(points, keys, out);
	fprintf(out, ",runs,runs_ok,capacity_ops_s_mean,capacity_ops_s_stddev,capacity_ops_s_min,"
	             "capacity_ops_s_max,response_p99_at_70pct_us_mean,knee_ops_s_mean\n");
	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");

		ccb_sweep_csv_point(p, i, keys, out);
		fprintf(out, ",%lld,%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
		        (long long)json_integer_value(json_object_get(a, "runs")),
		        (long long)json_integer_value(json_object_get(a, "runs_ok")),
		        ccb_sweep_agg(p, "capacity_ops_s", "mean"),
		        ccb_sweep_agg(p, "capacity_ops_s", "stddev"),
		        ccb_sweep_agg(p, "capacity_ops_s", "min"),
		        ccb_sweep_agg(p, "capacity_ops_s", "max"),
		        ccb_sweep_agg(p, "response_p99_at_70pct_us", "mean"),
		        ccb_sweep_agg(p, "knee_ops_s", "mean"));
	}
	json_decref(keys);
	return ferror(out) ? -EIO : 0;
}

double ccb_capacity_sweep_metric(const json_t *point, bool p99, const char **failed)
{
	const json_t *a = json_object_get(point, "aggregate");
	const char *what = p99 ? "response_p99_at_70pct_us" : "capacity_ops_s";
	json_int_t runs = json_integer_value(json_object_get(a, "runs"));
	json_int_t ok = json_integer_value(json_object_get(a, "runs_ok"));
	const json_t *st = json_object_get(a, what);

	*failed = NULL;
	/* Every search of the point found a capacity, and (for p99) measured
	 * the headroom step its figure is from. */
	if (ok <= 0 || ok < runs || !json_is_number(json_object_get(st, "mean")) ||
	    (p99 && json_integer_value(json_object_get(a, "p99_runs")) < runs)) {
		*failed = p99 ? "a search found no capacity or no response p99 at 70 %"
		              : "a search found no capacity (failed, interrupted or none)";
		return 0;
	}
	return ccb_sweep_agg(point, what, "mean");
}
