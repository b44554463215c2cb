/*
 * The HTML pages of a capacity search, a group report and a compare
 * (html.h): each its answer, its why lines, its chart, its tables, its
 * text view and its settings, from the document alone.
 */
#include <ccbench/capacity_report.h>
#include "chart.h"
#include <ccbench/explain.h>
#include <ccbench/group_report.h>
#include <ccbench/release.h>
#include <ccbench/report.h>

#include "html_int.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double ms_of(const json_t *o, const char *which, const char *key)
{
	const json_t *v = json_object_get(json_object_get(o, which), key);
	return json_is_number(v) ? json_number_value(v) / 1e3 : NAN;
}

static void cap_answer(FILE *out, const json_t *doc)
{
	const json_t *hr, *knee = json_object_get(doc, "knee");
	char a[600], b[400] = "", c[200] = "";
	const char *lines[3] = {a, b, c};
	size_t n = 1, i, l;

	if (json_is_number(json_object_get(doc, "capacity_ops_s")))
		snprintf(a, sizeof(a), "capacity %.4g ops/s for %s at %s",
		         ccb_report_num(doc, "capacity_ops_s"), ccb_report_str(doc, "workload"),
		         ccb_report_str(json_object_get(doc, "slo"), "text"));
	else
		snprintf(a, sizeof(a), "no capacity found for %s at %s (%s)",
		         ccb_report_str(doc, "workload"),
		         ccb_report_str(json_object_get(doc, "slo"), "text"),
		         ccb_report_str(doc, "status"));
	/* The headroom an operator plans with: 70 % of it, in the same line. */
	json_array_foreach(json_object_get(doc, "headroom"), i, hr)
	{
		l = strlen(a);
		if (ccb_report_num(hr, "share_pct") == 70)
			snprintf(
			    a + l, sizeof(a) - l, "; at 70 %% of it, response p99 %.3g ms (%s)",
			    ms_of(hr, "response_time_us", "p99"), ccb_report_str(hr, "verdict"));
		l = strlen(b);
		snprintf(b + l, sizeof(b) - l,
		         "%sat %.0f %%: %.4g ops/s, response p99 %.3g ms (%s)",
		         l ? "; " : "headroom ", ccb_report_num(hr, "share_pct"),
		         ccb_report_num(hr, "achieved_ops_s"), ms_of(hr, "response_time_us", "p99"),
		         ccb_report_str(hr, "verdict"));
	}
	n += b[0] != '\0';
	if (json_is_object(knee)) {
		snprintf(c, sizeof(c), "knee %.4g ops/s (response p99 %.3g ms)",
		         ccb_report_num(knee, "achieved_ops_s"),
		         ccb_report_num(knee, "response_p99_us") / 1e3);
		lines[n++] = c;
	}
	ccb_html_answer(out, lines, n, 1);
}

static void cap_steps(FILE *out, const json_t *doc)
{
	static const char *const head[] = {"step",     "phase",    "target/s", "achieved/s",
	                                   "resp p50", "resp p99", "p99.9",    "svc p50",
	                                   "svc p99",  "seconds",  "verdict"};
	const json_t *st;
	size_t i;

	ccb_html_table(out, "Steps (latency in ms)", head, sizeof(head) / sizeof(head[0]),
	               1u << 1 | 1u << 10);
	json_array_foreach(json_object_get(doc, "steps"), i, st)
	{
		fputs("<tr>", out);
		ccb_html_td(out, NULL, "%.0f", ccb_report_num(st, "step"));
		ccb_html_td(out, "l", "%s", ccb_report_str(st, "phase"));
		ccb_html_td(out, NULL, "%.4g", ccb_report_num(st, "target_ops_s"));
		ccb_html_td(out, NULL, "%.4g", ccb_report_num(st, "achieved_ops_s"));
		ccb_html_td(out, NULL, "%.3g", ms_of(st, "response_time_us", "p50"));
		ccb_html_td(out, NULL, "%.3g", ms_of(st, "response_time_us", "p99"));
		ccb_html_td(out, NULL, "%.3g", ms_of(st, "response_time_us", "p99_9"));
		ccb_html_td(out, NULL, "%.3g", ms_of(st, "service_time_us", "p50"));
		ccb_html_td(out, NULL, "%.3g", ms_of(st, "service_time_us", "p99"));
		ccb_html_td(out, NULL, "%.1f", ccb_report_num(st, "seconds"));
		ccb_html_td(out, "l", "%s%s%s", ccb_report_str(st, "verdict"),
		            json_object_get(st, "slo_broken") ? ": " : "",
		            ccb_report_str(st, "slo_broken"));
		fputs("</tr>\n", out);
	}
	ccb_html_table_end(out);
}

static json_t *cap_explain(const json_t *doc)
{
	json_t *ex = json_object_get(doc, "explain");

	return json_is_array(ex) ? json_incref(ex) : ccb_explain_capacity(doc);
}

static int cap_chart(FILE *out, const json_t *doc)
{
	return ccb_html_chart(out, doc, ccb_capacity_render_svg);
}

static const struct ccb_html_view cap_view = {
    .answer = cap_answer,
    .explain = cap_explain,
    .charts = cap_chart,
    .tables = cap_steps,
    .text = ccb_capacity_render_text,
    .settings = ccb_html_settings,
};

int ccb_html_capacity(const json_t *doc, FILE *out)
{
	char title[300];

	snprintf(title, sizeof(title), "ccbench capacity %s", ccb_report_str(doc, "workload"));
	return ccb_html_page(out, doc, title, &cap_view);
}

static int group_text(const json_t *doc, FILE *f)
{
	ccb_group_render_text(doc, f);
	return ferror(f) ? -EIO : 0;
}

/* The aggregate's why lines (stored, or re-derived), then each member's
 * warn and distrust lines, named by the member. */
static json_t *group_explain(const json_t *rep)
{
	json_t *ex = json_object_get(rep, "explain"), *list = json_array();
	const json_t *m, *e;
	size_t i, k;

	ex = json_is_array(ex) ? json_incref(ex) : ccb_explain_group(rep);
	json_array_extend(list, ex);
	json_decref(ex);
	json_array_foreach(json_object_get(rep, "members"), i, m)
	    json_array_foreach(json_object_get(json_object_get(m, "result"), "explain"), k, e)
	{
		const char *sev = ccb_report_str(e, "severity");

		if (strcmp(sev, "warn") == 0 || strcmp(sev, "distrust") == 0)
			json_array_append_new(list,
			                      json_pack("{s:s, s:s, s:s}", "severity", sev, "text",
			                                ccb_report_str(e, "text"), "point",
			                                ccb_report_str(m, "member")));
	}
	return list;
}

static void group_members(FILE *out, const json_t *rep)
{
	static const char *const head[] = {"member",       "host",  "state",  "status", "MiB/s",
	                                   "window MiB/s", "ops/s", "p50 ms", "p99 ms", "start ms"};
	const json_t *m;
	size_t i;

	ccb_html_table(out, "Members", head, sizeof(head) / sizeof(head[0]), 0xf);
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		bool res = json_object_get(m, "result") != NULL;

		fputs("<tr>", out);
		ccb_html_td(out, "l", "%s", ccb_report_str(m, "member"));
		ccb_html_td(out, "l", "%s", ccb_report_str(m, "host"));
		ccb_html_td(out, "l", "%s", ccb_report_str(m, "state"));
		ccb_html_td(out, "l", "%s", res ? ccb_report_str(m, "status") : "-");
		ccb_html_num(out, res, "%.2f", ccb_report_num(m, "bandwidth_mib_s"));
		ccb_html_num(out, res && json_object_get(m, "window_bandwidth_mib_s"), "%.2f",
		             ccb_report_num(m, "window_bandwidth_mib_s"));
		ccb_html_num(out, res, "%.1f", ccb_report_num(m, "iops"));
		ccb_html_num(out, res, "%.3f", ms_of(m, "latency_us", "p50"));
		ccb_html_num(out, res, "%.3f", ms_of(m, "latency_us", "p99"));
		ccb_html_num(out, json_object_get(m, "start_offset_ms") != NULL, "%+.1f",
		             ccb_report_num(m, "start_offset_ms"));
		fputs("</tr>\n", out);
	}
	ccb_html_table_end(out);
}

static void group_answer(FILE *out, const json_t *rep)
{
	const json_t *agg = json_object_get(rep, "aggregate");
	const json_t *lat = json_object_get(agg, "latency_us");
	char a[400], b[300] = "";
	const char *lines[2] = {a, b};

	snprintf(a, sizeof(a), "group %s: %.2f MiB/s from %lld members together over %.2f s (%s)",
	         ccb_report_str(rep, "group"), ccb_report_num(agg, "bandwidth_mib_s"),
	         (long long)json_integer_value(json_object_get(agg, "members")),
	         ccb_report_num(agg, "seconds"), ccb_report_str(rep, "status"));
	if (json_is_object(lat))
		snprintf(b, sizeof(b), "latency p50 %.3f ms, p99 %.3f ms over every member's ops",
		         ccb_report_num(lat, "p50") / 1e3, ccb_report_num(lat, "p99") / 1e3);
	ccb_html_answer(out, lines, b[0] ? 2 : 1, 1);
}

static int group_chart(FILE *out, const json_t *rep)
{
	return ccb_html_chart(out, rep, ccb_group_render_svg);
}

/* What the members agreed on, and their releases. */
static void group_settings(FILE *out, const json_t *rep)
{
	json_t *rel = ccb_release_of_doc(rep);

	ccb_html_kv(out, "what the members agreed on", json_object_get(rep, "params"));
	if (json_object_size(rel)) {
		json_t *w = json_pack("{s:O}", "releases", rel);
		ccb_html_settings(out, w);
		json_decref(w);
	}
	json_decref(rel);
}

static const struct ccb_html_view group_view = {
    .answer = group_answer,
    .explain = group_explain,
    .charts = group_chart,
    .tables = group_members,
    .text = group_text,
    .settings = group_settings,
};

int ccb_html_group(const json_t *rep, FILE *out)
{
	char title[300];

	snprintf(title, sizeof(title), "ccbench group %s", ccb_report_str(rep, "group"));
	return ccb_html_page(out, rep, title, &group_view);
}
