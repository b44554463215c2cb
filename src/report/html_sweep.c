/*
 * The HTML page of a sweep (html.h): the recommendations, the caveats
 * and the points' warnings, the chart, a table of each figure by series
 * and row value (the knee marked), the text view and the settings.
 */
#include <ccbench/report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/sweep_report.h>

#include "html_int.h"
#include "sweep_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int text(const json_t *doc, FILE *f)
{
	ccb_sweep_render_text(doc, f);
	return ferror(f) ? -EIO : 0;
}

/* The recommendations (a sweep of searches: how many found a capacity). */
static void answer(FILE *out, const json_t *doc)
{
	static const char *const prefixes[] = {"recommendation", "no recommendation", "SLO "};
	json_t *lines = json_array(), *first;
	const char **l;
	size_t n, i;

	for (size_t k = 0; k < sizeof(prefixes) / sizeof(prefixes[0]); k++) {
		json_t *got = ccb_html_text_lines(doc, text, prefixes[k]);
		json_array_extend(lines, got);
		json_decref(got);
	}
	if (!json_array_size(lines)) {
		first = ccb_html_text_lines(doc, text, "");
		json_array_append(lines, json_array_get(first, 0));
		json_decref(first);
	}
	/* Many series: one line says how many, each series' under it. */
	n = json_array_size(lines);
	if (n > 3) {
		char head[80];

		snprintf(head, sizeof(head), "%zu recommendations, one for each series:", n);
		json_array_insert_new(lines, 0, json_string(head));
	}
	l = calloc(n + 2, sizeof(*l));
	for (i = 0; l && i < json_array_size(lines); i++)
		l[i] = json_string_value(json_array_get(lines, i));
	if (l)
		ccb_html_answer(out, l, json_array_size(lines), n > 3 ? 1 : n);
	free(l);
	json_decref(lines);
}

/* The sweep's caveats, then each point's warnings (named by its matrix). */
static json_t *explain(const json_t *doc)
{
	json_t *list = ccb_sweep_caveats(doc), *w = ccb_sweep_warnings(doc), *e;
	size_t i;

	json_array_foreach(w, i, e)
	{
		char point[1100];

		snprintf(point, sizeof(point), "[%lld] %s",
		         (long long)json_integer_value(json_object_get(e, "point")),
		         ccb_report_str(e, "matrix"));
		json_object_set_new(e, "point", json_string(point));
		json_array_append(list, e);
	}
	json_decref(w);
	return list;
}

/* One figure of every point: a row per series, a column per row value. */
static void table(FILE *out, const json_t *doc, const char *what, const char *caption, double scale)
{
	const json_t *points = json_object_get(doc, "points"), *r, *c;
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	json_t *rows = ccb_sweep_distinct(points, row_key, true),
	       *cols = ccb_sweep_distinct(points, row_key, false),
	       *idx = ccb_sweep_cell_index(points, row_key);
	size_t i, j;

	if (!rows || !cols || !idx ||
	    json_array_size(rows) * json_array_size(cols) > CCB_SWEEP_MAX_CELLS)
		goto out;
	fputs("<div class=\"wide\"><table><caption>", out);
	ccb_html_put(out, caption);
	fputs("</caption><tr>", out);
	ccb_html_td(out, "thl", "%s", row_key);
	json_array_foreach(rows, j, r) ccb_html_td(out, "th", "%s", json_string_value(r));
	fputs("</tr>\n", out);
	json_array_foreach(cols, i, c)
	{
		fputs("<tr>", out);
		ccb_html_td(out, "thl", "%s", json_string_value(c));
		json_array_foreach(rows, j, r)
		{
			char key[400];
			const json_t *p;
			long long ok;

			snprintf(key, sizeof(key), "%s\x1f%s", json_string_value(r),
			         json_string_value(c));
			p = json_object_get(idx, key);
			ok = json_integer_value(
			    json_object_get(json_object_get(p, "aggregate"), "runs_ok"));
			if (!p || ok <= 0) {
				ccb_html_td(out, NULL, "-");
				continue;
			}
			if (strcmp(what, "latency") == 0)
				ccb_html_td(out, NULL, "%.2f / %.2f",
				            ccb_sweep_agg(p, "latency_p50_us", "mean") / 1e3,
				            ccb_sweep_agg(p, "latency_p99_us", "mean") / 1e3);
			else if (ok > 1)
				ccb_html_td(out, ccb_sweep_is_knee(doc, p, row_key) ? "knee" : NULL,
				            "%.1f ± %.1f", ccb_sweep_agg(p, what, "mean") * scale,
				            ccb_sweep_agg(p, what, "stddev") * scale);
			else
				ccb_html_td(out, ccb_sweep_is_knee(doc, p, row_key) ? "knee" : NULL,
				            "%.1f", ccb_sweep_agg(p, what, "mean") * scale);
		}
		fputs("</tr>\n", out);
	}
	ccb_html_table_end(out);
out:
	json_decref(rows);
	json_decref(cols);
	json_decref(idx);
}

static void settings(FILE *out, const json_t *doc)
{
	const json_t *cfg = json_object_get(doc, "config");
	const json_t *run = json_array_get(
	    json_object_get(json_array_get(json_object_get(doc, "points"), 0), "runs"), 0);

	fputs("<p>config ", out);
	ccb_html_put(out, ccb_sweep_str_or(json_object_get(cfg, "name"), "?"));
	fputs(" (", out);
	ccb_html_put(out, ccb_sweep_str_or(json_object_get(doc, "config_file"), "?"));
	fputs("): ", out);
	ccb_html_put(out, ccb_sweep_str_or(json_object_get(cfg, "description"), ""));
	fputs("</p>\n", out);
	ccb_html_kv(out, "parameters", json_object_get(cfg, "params"));
	ccb_html_kv(out, "matrix", json_object_get(cfg, "matrix"));
	ccb_html_kv(out, "overrides on the command line", json_object_get(doc, "overrides"));
	if (run) {
		fputs("<p>The first point's run:</p>\n", out);
		ccb_html_settings(out, run);
	}
}

static int charts(FILE *out, const json_t *doc)
{
	return ccb_html_chart(out, doc, ccb_sweep_render_svg);
}

static void tables(FILE *out, const json_t *doc)
{
	if (ccb_sweep_is_capacity(json_object_get(doc, "config"))) {
		table(out, doc, "capacity_ops_s", "capacity (ops/s), mean ± stddev over repeats",
		      1);
		table(out, doc, "knee_ops_s", "knee (ops/s)", 1);
		return;
	}
	table(out, doc, "bandwidth_mib_s",
	      "MiB/s (mean ± stddev over repeats; green: the knee, the recommendation)", 1);
	table(out, doc, "latency", "latency p50 / p99 (ms), mean over repeats", 1);
}

static const struct ccb_html_view view = {
    .answer = answer,
    .explain = explain,
    .charts = charts,
    .tables = tables,
    .text = text,
    .settings = settings,
};

int ccb_html_sweep(const json_t *doc, FILE *out)
{
	char title[300];

	snprintf(title, sizeof(title), "ccbench sweep %s",
	         ccb_sweep_str_or(json_object_get(json_object_get(doc, "config"), "name"), "?"));
	return ccb_html_page(out, doc, title, &view);
}
