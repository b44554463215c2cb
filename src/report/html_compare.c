/*
 * The HTML page of a compare (html.h, from compare_cmd.c's document): the
 * summary, baseline and current of each point side by side as bars (the
 * points numbered, the table names them), the table with each verdict,
 * and both sides' releases.
 */
#include "chart.h"
#include <ccbench/release.h>
#include <ccbench/report.h>

#include "html_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Past this many points the bars are too thin to read: the table alone. */
#define MAX_BARS 60

static int bars(FILE *out, const json_t *doc)
{
	const json_t *rows = json_object_get(doc, "rows"), *r;
	size_t n = json_array_size(rows), i, m = 0;
	double *x = calloc(n + 1, sizeof(double)), *yb = calloc(n + 1, sizeof(double)),
	       *yc = calloc(n + 1, sizeof(double));
	char(*num)[24] = calloc(n + 1, sizeof(*num));
	const char **names = calloc(n + 1, sizeof(*names));
	char title[600], lb[300], lc[300];
	int rc = -ENOMEM;

	if (!x || !yb || !yc || !num || !names)
		goto out;
	json_array_foreach(rows, i, r)
	{
		/* The points that have a figure on either side; knees have none. */
		if (!json_is_number(json_object_get(r, "baseline")) &&
		    !json_is_number(json_object_get(r, "current")))
			continue;
		snprintf(num[m], sizeof(num[m]), "%zu", i + 1);
		names[m] = num[m];
		x[m] = (double)m;
		yb[m] = json_is_number(json_object_get(r, "baseline"))
		            ? ccb_report_num(r, "baseline")
		            : NAN;
		yc[m] = json_is_number(json_object_get(r, "current")) ? ccb_report_num(r, "current")
		                                                      : NAN;
		m++;
	}
	rc = 0;
	if (!m || m > MAX_BARS)
		goto out;
	snprintf(lb, sizeof(lb), "baseline %s", ccb_report_str(doc, "baseline"));
	snprintf(lc, sizeof(lc), "current %s", ccb_report_str(doc, "current"));
	snprintf(title, sizeof(title), "%s of each point: %s against %s",
	         ccb_report_str(doc, "metric"), ccb_report_str(doc, "current"),
	         ccb_report_str(doc, "baseline"));
	struct ccb_chart_series se[2] = {{.label = lb, .x = x, .y = yb, .n = m},
	                                 {.label = lc, .x = x, .y = yc, .n = m}};
	struct ccb_chart c = {.title = title,
	                      .x_title = "point (its number in the table)",
	                      .y_title = ccb_report_str(doc, "metric"),
	                      .x_labels = names,
	                      .n_x_labels = m,
	                      .series = se,
	                      .n_series = 2};
	fputs("<figure class=\"chart\">\n", out);
	rc = ccb_chart_svg_inline(&c, out);
	fputs("</figure>\n", out);
out:
	free(x);
	free(yb);
	free(yc);
	free(num);
	free(names);
	return rc;
}

static void cell(FILE *out, const json_t *r, const char *key, const char *fmt)
{
	ccb_html_num(out, json_is_number(json_object_get(r, key)), fmt, ccb_report_num(r, key));
}

static void table(FILE *out, const json_t *doc)
{
	const json_t *r;
	size_t i;

	static const char *const head[] = {"#",       "point",  "baseline",
	                                   "current", "change", "verdict"};

	ccb_html_table(out, "Each point", head, 6, 1u << 1 | 1u << 5);
	json_array_foreach(json_object_get(doc, "rows"), i, r)
	{
		const char *v = ccb_report_str(r, "verdict");
		bool bad = strstr(v, "REGRESSED") || strstr(v, "DIFFER") || strstr(v, "FAILED") ||
		           strstr(v, "missing");

		fputs(bad ? "<tr class=\"bad\" style=\"background:#fde4e4\">" : "<tr>", out);
		ccb_html_td(out, NULL, "%zu", i + 1);
		ccb_html_td(out, "l", "%s", ccb_report_str(r, "point"));
		cell(out, r, "baseline", "%.2f");
		cell(out, r, "current", "%.2f");
		cell(out, r, "delta_pct", "%+.1f %%");
		ccb_html_td(out, "l", "%s", v);
		fputs("</tr>\n", out);
	}
	ccb_html_table_end(out);
}

static void answer(FILE *out, const json_t *doc)
{
	const char *sum = ccb_report_str(doc, "summary");

	ccb_html_answer(out, &sum, 1, 1);
}

static void settings(FILE *out, const json_t *doc)
{
	const json_t *rel = json_object_get(doc, "releases");
	char b[400], c[400];

	ccb_release_text(json_object_get(rel, "baseline"), b, sizeof(b));
	ccb_release_text(json_object_get(rel, "current"), c, sizeof(c));
	fputs("<ul class=\"settings\"><li>metric: ", out);
	ccb_html_put(out, ccb_report_str(doc, "metric"));
	fputs(json_is_true(json_object_get(doc, "same_answer")) ? ", --same-answer" : "", out);
	fputs("; tolerance: ", out);
	ccb_html_put(out, ccb_report_str(doc, "tolerance"));
	fputs("</li><li>baseline releases: ", out);
	ccb_html_put(out, b[0] ? b : "not named");
	fputs("</li><li>current releases: ", out);
	ccb_html_put(out, c[0] ? c : "not named");
	fputs("</li></ul>\n", out);
}

static const struct ccb_html_view view = {
    .answer = answer,
    .charts = bars,
    .tables = table,
    .settings = settings,
};

int ccb_html_compare(const json_t *doc, FILE *out)
{
	char title[600];

	snprintf(title, sizeof(title), "ccbench compare %s %s", ccb_report_str(doc, "baseline"),
	         ccb_report_str(doc, "current"));
	return ccb_html_page(out, doc, title, &view);
}
