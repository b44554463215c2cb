/*
 * The HTML page of one run (html.h): the figure, the why lines, the
 * bandwidth and latency of each second, the figures' tables, the text
 * view and the settings. Read from the result document alone.
 */
#include "chart.h"
#include <ccbench/report.h>

#include "html_int.h"
#include "saved_doc.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double lat_ms(const json_t *r, const char *which, const char *key)
{
	return ccb_report_num(json_object_get(r, which), key) / 1e3;
}

/* The answer: what the run measured, in one line; its status if not ok. */
static void answer(FILE *out, const json_t *r)
{
	const json_t *ol = json_object_get(r, "open_loop");
	char a[512], b[512];
	const char *lines[2] = {a, b};
	size_t n = 1;

	if (json_is_object(ol))
		snprintf(a, sizeof(a),
		         "%s: open loop at %.1f ops/s, achieved %.1f ops/s (%s); response p99 %.3f "
		         "ms, service p99 %.3f ms",
		         ccb_saved_doc_command(r), ccb_report_num(ol, "target_ops_s"),
		         ccb_report_num(ol, "achieved_ops_s"), ccb_report_str(ol, "verdict"),
		         lat_ms(ol, "response_time_us", "p99"),
		         lat_ms(ol, "service_time_us", "p99"));
	else if (json_is_array(json_object_get(r, "phases")))
		snprintf(a, sizeof(a), "%s: %lld ops in %.2f s, %lld errors",
		         ccb_saved_doc_command(r),
		         (long long)json_integer_value(json_object_get(r, "ops")),
		         ccb_report_num(r, "seconds"),
		         (long long)json_integer_value(json_object_get(r, "errors")));
	else
		snprintf(a, sizeof(a),
		         "%s: %.2f MiB/s, %.1f ops/s, latency p50 %.3f ms, p99 %.3f ms",
		         ccb_saved_doc_command(r), ccb_report_num(r, "bandwidth_mib_s"),
		         ccb_report_num(r, "iops"), lat_ms(r, "latency_us", "p50"),
		         lat_ms(r, "latency_us", "p99"));
	if (strcmp(ccb_report_str(r, "status"), "ok") != 0) {
		snprintf(b, sizeof(b), "status %s: %s", ccb_report_str(r, "status"),
		         ccb_report_str(r, "reason"));
		n = 2;
	}
	ccb_html_answer(out, lines, n, 1);
}

/* One figure of each second, as a line: "bandwidth_mib_s" or "lat_mean_us". */
static int per_second(FILE *out, const json_t *r, const char *key, double scale, const char *label,
                      const char *y_title)
{
	const json_t *series = json_object_get(r, "series"), *s;
	size_t n = json_array_size(series), i, m = 0;
	double *x = calloc(n + 1, sizeof(double)), *y = calloc(n + 1, sizeof(double));
	char title[300];
	int rc = -ENOMEM;

	if (!x || !y)
		goto out;
	json_array_foreach(series, i, s)
	{
		if (!json_is_number(json_object_get(s, key)))
			continue;
		x[m] = ccb_report_num(s, "t");
		y[m++] = ccb_report_num(s, key) * scale;
	}
	rc = 0;
	if (!m)
		goto out;
	snprintf(title, sizeof(title), "%s: %s of each second", ccb_saved_doc_command(r), label);
	struct ccb_chart_series se = {.label = label, .x = x, .y = y, .n = m};
	struct ccb_chart c = {.title = title,
	                      .x_title = "time since the run started (s)",
	                      .y_title = y_title,
	                      .series = &se,
	                      .n_series = 1};
	fputs("<figure class=\"chart\">\n", out);
	rc = ccb_chart_svg_inline(&c, out);
	fputs("</figure>\n", out);
out:
	free(x);
	free(y);
	return rc;
}

static void lat_row(FILE *out, const char *label, const json_t *lat)
{
	static const char *const keys[] = {"min", "mean", "p50", "p90", "p99", "p99_9", "max"};

	fputs("<tr>", out);
	ccb_html_td(out, "thl", "%s", label);
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		ccb_html_td(out, NULL, "%.3f", ccb_report_num(lat, keys[k]) / 1e3);
	fputs("</tr>\n", out);
}

static void tables(FILE *out, const json_t *r)
{
	static const char *const figs[] = {
	    "MiB/s", "ops/s", "seconds", "MiB", "ops", "errors", "clients x in flight"};
	static const char *const lat[] = {" ", "min", "mean", "p50", "p90", "p99", "p99.9", "max"};
	static const char *const cl[] = {"client", "MiB/s", "ops/s", "errors", "p50 ms", "p99 ms"};
	const json_t *ol = json_object_get(r, "open_loop"), *c;
	size_t i;

	ccb_html_table(out, "The figures", figs, sizeof(figs) / sizeof(figs[0]), 0);
	fputs("<tr>", out);
	ccb_html_td(out, NULL, "%.2f", ccb_report_num(r, "bandwidth_mib_s"));
	ccb_html_td(out, NULL, "%.1f", ccb_report_num(r, "iops"));
	ccb_html_td(out, NULL, "%.2f", ccb_report_num(r, "seconds"));
	ccb_html_td(out, NULL, "%.1f", ccb_report_num(r, "bytes") / 1048576.0);
	ccb_html_td(out, NULL, "%lld", (long long)json_integer_value(json_object_get(r, "ops")));
	ccb_html_td(out, NULL, "%lld", (long long)json_integer_value(json_object_get(r, "errors")));
	ccb_html_td(out, NULL, "%lld x %lld",
	            (long long)json_integer_value(json_object_get(r, "clients_n")),
	            (long long)json_integer_value(json_object_get(r, "queue_depth")));
	fputs("</tr>", out);
	ccb_html_table_end(out);
	ccb_html_table(out, "Latency (ms)", lat, sizeof(lat) / sizeof(lat[0]), 0);
	lat_row(out, json_is_object(ol) ? "service" : "each op", json_object_get(r, "latency_us"));
	if (json_is_object(ol))
		lat_row(out, "response", json_object_get(ol, "response_time_us"));
	ccb_html_table_end(out);
	if (!json_array_size(json_object_get(r, "clients")))
		return;
	ccb_html_table(out, "Each client", cl, sizeof(cl) / sizeof(cl[0]), 0);
	json_array_foreach(json_object_get(r, "clients"), i, c)
	{
		fputs("<tr>", out);
		ccb_html_td(out, NULL, "%lld",
		            (long long)json_integer_value(json_object_get(c, "client")));
		ccb_html_td(out, NULL, "%.2f", ccb_report_num(c, "bandwidth_mib_s"));
		ccb_html_td(out, NULL, "%.1f", ccb_report_num(c, "iops"));
		ccb_html_td(out, NULL, "%lld",
		            (long long)json_integer_value(json_object_get(c, "errors")));
		ccb_html_td(out, NULL, "%.3f", lat_ms(c, "latency_us", "p50"));
		ccb_html_td(out, NULL, "%.3f", lat_ms(c, "latency_us", "p99"));
		fputs("</tr>\n", out);
	}
	ccb_html_table_end(out);
}

static int text(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_TEXT, f);
}

/* The bandwidth and the latency of each second. */
static int charts(FILE *out, const json_t *doc)
{
	int r = per_second(out, doc, "bandwidth_mib_s", 1, "bandwidth", "bandwidth (MiB/s)");

	return r ? r : per_second(out, doc, "lat_mean_us", 1e-3, "mean latency", "latency (ms)");
}

static const struct ccb_html_view view = {
    .answer = answer,
    .explain = ccb_saved_run_explain,
    .charts = charts,
    .tables = tables,
    .text = text,
    .settings = ccb_html_settings,
};

int ccb_html_run(const json_t *doc, FILE *out)
{
	char title[300];

	snprintf(title, sizeof(title), "ccbench %s", ccb_saved_doc_command(doc));
	return ccb_html_page(out, doc, title, &view);
}
