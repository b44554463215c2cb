/*
 * Views of a group report (the document ccb_group_aggregate() builds):
 * the text table, CSV, and an SVG of every member's bandwidth per second
 * with the aggregate over the common window. Like report.c and
 * sweep_report.c, they read only the document.
 */
#include <ccbench/escape.h>
#include "chart.h"
#include <ccbench/explain.h>
#include <ccbench/group_report.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MIB 1048576.0

void ccb_group_format_realtime(double t, char *buf, size_t len)
{
	time_t sec = isfinite(t) && t >= 0 && t <= 1e11 ? (time_t)floor(t) : 0;
	struct tm tm;
	char base[32];

	if (!isfinite(t) || t < 0 || t > 1e11 || !gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", base, (int)((t - floor(t)) * 1000));
}

/* The group, its command and state, the releases, the start and the window. */
static void render_head(const json_t *rep, FILE *out)
{
	const json_t *params = json_object_get(rep, "params");
	const json_t *agg = json_object_get(rep, "aggregate");
	const json_t *win = json_object_get(rep, "window");
	char when[64], dur[32] = "";

	if (json_object_get(params, "duration"))
		ccb_format_duration(
		    (uint64_t)json_integer_value(json_object_get(params, "duration")), dur,
		    sizeof(dur));
	fputs("group ", out);
	ccb_text_put(out, ccb_report_str(rep, "group"));
	fputs(": ", out);
	ccb_text_put(out, ccb_report_str(params, "command"));
	fprintf(out, ", %lld members expected%s%s, ",
	        (long long)json_integer_value(json_object_get(rep, "members_expected")),
	        dur[0] ? ", duration " : "", dur);
	ccb_text_put(out, ccb_report_str(rep, "status"));
	fputc('\n', out);
	{
		char rel[320];

		ccb_release_text(json_object_get(rep, "releases"), rel, sizeof(rel));
		if (rel[0])
			fprintf(out, "%-10s %s\n", "releases", rel);
	}
	if (json_object_get(rep, "planned_start_realtime_us")) {
		ccb_group_format_realtime(ccb_report_num(rep, "planned_start_realtime_us") / 1e6,
		                          when, sizeof(when));
		fprintf(out, "%-10s %s planned, skew %.1f ms between measured starts\n", "start",
		        when, ccb_report_num(rep, "start_skew_ms"));
	}
	if (json_is_object(win))
		fprintf(out, "%-10s %.2f s in which all %lld reporting members ran\n", "window",
		        ccb_report_num(win, "seconds"),
		        (long long)json_integer_value(json_object_get(agg, "members")));
	else
		fprintf(out, "%-10s none (no member reported, or their runs did not overlap)\n",
		        "window");
}

/* A line per member, then the aggregate's bandwidth, latency and fairness. */
static void render_members(const json_t *rep, FILE *out)
{
	const json_t *agg = json_object_get(rep, "aggregate"), *m;
	size_t i;

	fprintf(out, "\n%-36s %-9s %-11s %10s %12s %9s %9s %9s %9s\n", "member", "state", "status",
	        "MiB/s", "window MiB/s", "iops", "p50 ms", "p99 ms", "start ms");
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *lat = json_object_get(m, "latency_us");
		char st[32], mb[160], sb[96];

		/* Every string here is another client's: escaped (report_escape.c). */
		ccb_text_esc(ccb_report_str(m, "state"), st, sizeof(st));
		ccb_text_esc(ccb_report_str(m, "member"), mb, sizeof(mb));
		if (!json_object_get(m, "result")) {
			ccb_text_esc(json_object_get(m, "last_state")
			                 ? ccb_report_str(m, "last_state")
			                 : "-",
			             sb, sizeof(sb));
			fprintf(out, "%-36s %-9s %-11s %10s %12s %9s %9s %9s", mb, st, sb, "-", "-",
			        "-", "-", "-");
		} else {
			ccb_text_esc(ccb_report_str(m, "status"), sb, sizeof(sb));
			fprintf(out, "%-36s %-9s %-11s %10.2f ", mb, st, sb,
			        ccb_report_num(m, "bandwidth_mib_s"));
			if (json_object_get(m, "window_bandwidth_mib_s"))
				fprintf(out, "%12.2f", ccb_report_num(m, "window_bandwidth_mib_s"));
			else
				fprintf(out, "%12s", "-");
			fprintf(out, " %9.1f %9.3f %9.3f", ccb_report_num(m, "iops"),
			        ccb_report_num(lat, "p50") / 1e3, ccb_report_num(lat, "p99") / 1e3);
		}
		if (json_object_get(m, "start_offset_ms"))
			fprintf(out, " %+9.1f\n", ccb_report_num(m, "start_offset_ms"));
		else
			fprintf(out, " %9s\n", "-");
	}
	fprintf(out, "%-36s %-9s %-11s %10s %12.2f  (%.1f MiB in %.2f s)", "aggregate", "", "", "",
	        ccb_report_num(agg, "bandwidth_mib_s"), ccb_report_num(agg, "bytes") / MIB,
	        ccb_report_num(agg, "seconds"));
	/* A lost member is out of the window: the aggregate says so itself. */
	if (json_array_size(json_object_get(rep, "lost")))
		fprintf(out, "  incomplete: %zu of %lld lost",
		        json_array_size(json_object_get(rep, "lost")),
		        (long long)json_integer_value(json_object_get(rep, "members_expected")));
	fputc('\n', out);
	if (json_is_object(json_object_get(agg, "latency_us"))) {
		const json_t *lat = json_object_get(agg, "latency_us");

		fprintf(out,
		        "%-10s p50 %.3f, p90 %.3f, p99 %.3f, p99.9 %.3f, max %.3f ms over the %.0f "
		        "ops of %lld members (their histograms merged)\n",
		        "latency", ccb_report_num(lat, "p50") / 1e3,
		        ccb_report_num(lat, "p90") / 1e3, ccb_report_num(lat, "p99") / 1e3,
		        ccb_report_num(lat, "p99_9") / 1e3, ccb_report_num(lat, "max") / 1e3,
		        ccb_report_num(lat, "n"),
		        (long long)json_integer_value(json_object_get(agg, "latency_members")));
	}
	if (json_is_number(json_object_get(agg, "jain_index")))
		fprintf(out,
		        "%-10s Jain's index %.4f over the members' window bandwidth (1 = equal)\n",
		        "fairness", ccb_report_num(agg, "jain_index"));
}

/* The members left out of the aggregate, and why: malformed, lost, still
 * running, missing. */
static void render_left_out(const json_t *rep, FILE *out)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(rep, "malformed"), i, m)
	{
		fprintf(out, "%-10s %s", "MALFORMED",
		        json_object_get(m, "member") ? "member " : "");
		ccb_text_put(out, ccb_report_str(m, "member"));
		fprintf(out, "%s: ", json_object_get(m, "member") ? "" : "group record");
		ccb_text_put(out, ccb_report_str(m, "reason"));
		fputs("; not in the aggregate\n", out);
	}
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *heard = json_object_get(m, "heard");
		bool lost = strcmp(ccb_report_str(m, "state"), "lost") == 0;
		char heard_at[64], mb[160];

		if (!lost && strcmp(ccb_report_str(m, "state"), "running") != 0)
			continue;
		ccb_text_esc(ccb_report_str(m, "member"), mb, sizeof(mb));
		if (json_is_true(json_object_get(m, "returned"))) {
			const json_t *p = json_object_get(m, "partial");

			ccb_group_format_realtime(ccb_report_num(p, "silent_from_realtime_us") /
			                              1e6,
			                          heard_at, sizeof(heard_at));
			fprintf(out,
			        "%-10s member %s: the cluster heard nothing from it for %.1f s "
			        "from %s; it came back and stored a partial result (%.1f MiB in "
			        "%.1f s): not in the aggregate\n",
			        "LOST", mb, ccb_report_num(p, "silent_s"), heard_at,
			        ccb_report_num(m, "bytes") / MIB, ccb_report_num(m, "seconds"));
			continue;
		}
		ccb_group_format_realtime(ccb_report_num(m, "last_heard_realtime_us") / 1e6,
		                          heard_at, sizeof(heard_at));
		fprintf(out,
		        "%-10s member %s: last heard %s, %.2f s into its run, %.1f MiB in %.0f ops "
		        "so far; %s\n",
		        lost ? "LOST" : "RUNNING", mb, heard_at, ccb_report_num(heard, "seconds"),
		        ccb_report_num(heard, "bytes") / MIB, ccb_report_num(heard, "ops"),
		        lost ? "not in the aggregate" : "no result yet, not in the aggregate");
	}
	if (json_array_size(json_object_get(rep, "missing")))
		fprintf(out,
		        "%-10s %zu member(s) registered but never reported a result: not in the "
		        "aggregate\n",
		        "MISSING", json_array_size(json_object_get(rep, "missing")));
}

/* The members' own explain lines (warn and distrust), then the aggregate's. */
static void render_why(const json_t *rep, FILE *out)
{
	const json_t *m;
	size_t i;

	/* Each member's own explain (warn and distrust), as it stored it. */
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *e;
		size_t k;

		json_array_foreach(json_object_get(json_object_get(m, "result"), "explain"), k, e)
		{
			const char *sev = ccb_report_str(e, "severity");

			if (strcmp(sev, "warn") != 0 && strcmp(sev, "distrust") != 0)
				continue;
			fprintf(out, "%-10s ", "why");
			ccb_text_put(out, ccb_report_str(m, "member"));
			fputs(strcmp(sev, "distrust") == 0 ? ": DISTRUST: " : ": warning: ", out);
			ccb_text_put(out, ccb_report_str(e, "text"));
			fputc('\n', out);
		}
	}
	/* The aggregate's own, every severity: the report stored it, an
	 * older one gets it re-derived. */
	json_t *ex = json_object_get(rep, "explain");
	const json_t *e;
	ex = json_is_array(ex) ? json_incref(ex) : ccb_explain_group(rep);
	json_array_foreach(ex, i, e)
	{
		const char *sev = ccb_report_str(e, "severity");
		fprintf(out, "%-10s aggregate: %s", "why",
		        strcmp(sev, "distrust") == 0 ? "DISTRUST: "
		        : strcmp(sev, "warn") == 0   ? "warning: "
		                                     : "");
		ccb_text_put(out, ccb_report_str(e, "text"));
		fputc('\n', out);
	}
	json_decref(ex);
}

void ccb_group_render_text(const json_t *rep, FILE *out)
{
	render_head(rep, out);
	render_members(rep, out);
	render_left_out(rep, out);
	render_why(rep, out);
}

int ccb_group_render_csv(const json_t *rep, FILE *out)
{
	const json_t *agg = json_object_get(rep, "aggregate"), *m;
	size_t i;
	char ex[512];

	fprintf(out, "group,member,host,state,status,start_offset_ms,seconds,bytes,bandwidth_mib_s,"
	             "window_bytes,window_bandwidth_mib_s,iops,latency_us_p50,latency_us_p99,"
	             "latency_us_p99_9,explain\n");
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *lat = json_object_get(m, "latency_us");
		bool res = json_object_get(m, "result") != NULL;

		/* Cells another client wrote: no formula, no control character. */
		static const char *const cells[] = {"member", "host", "state", "status"};

		ccb_csv_cell(out, ccb_report_str(rep, "group"));
		for (size_t c = 0; c < sizeof(cells) / sizeof(cells[0]); c++) {
			fputc(',', out);
			ccb_csv_cell(out, ccb_report_str(m, cells[c]));
		}
		fputc(',', out);
		if (json_object_get(m, "start_offset_ms"))
			fprintf(out, "%.3f", ccb_report_num(m, "start_offset_ms"));
		ccb_explain_summary(json_object_get(json_object_get(m, "result"), "explain"), ex,
		                    sizeof(ex));
		if (res) {
			fprintf(out, ",%.3f,%lld,%.3f,%.0f,%.3f,%.3f,%.3f,%.3f,%.3f,",
			        ccb_report_num(m, "seconds"),
			        (long long)json_integer_value(json_object_get(m, "bytes")),
			        ccb_report_num(m, "bandwidth_mib_s"),
			        ccb_report_num(m, "window_bytes"),
			        ccb_report_num(m, "window_bandwidth_mib_s"),
			        ccb_report_num(m, "iops"), ccb_report_num(lat, "p50"),
			        ccb_report_num(lat, "p99"), ccb_report_num(lat, "p99_9"));
			ccb_csv_cell(out, ex);
			fputc('\n', out);
		} else
			fprintf(out, ",,,,,,,,,,\n");
	}
	{
		json_t *gx = json_object_get(rep, "explain");
		gx = json_is_array(gx) ? json_incref(gx) : ccb_explain_group(rep);
		ccb_explain_summary(gx, ex, sizeof(ex));
		json_decref(gx);
	}
	ccb_csv_cell(out, ccb_report_str(rep, "group"));
	fputs(",aggregate,,", out);
	ccb_csv_cell(out, ccb_report_str(rep, "status"));
	fprintf(out, ",,,%.3f,,,%.0f,%.3f,,", ccb_report_num(agg, "seconds"),
	        ccb_report_num(agg, "bytes"), ccb_report_num(agg, "bandwidth_mib_s"));
	/* The merged histogram's percentiles, when the members stored theirs. */
	if (json_is_object(json_object_get(agg, "latency_us"))) {
		const json_t *lat = json_object_get(agg, "latency_us");

		fprintf(out, "%.3f,%.3f,%.3f,", ccb_report_num(lat, "p50"),
		        ccb_report_num(lat, "p99"), ccb_report_num(lat, "p99_9"));
	} else
		fputs(",,,", out);
	ccb_csv_cell(out, ex);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

int ccb_group_render_svg(const json_t *rep, FILE *out)
{
	const json_t *members = json_object_get(rep, "members"), *m;
	const json_t *agg_series = json_object_get(json_object_get(rep, "aggregate"), "series");
	size_t n_lines = 0, i;
	struct ccb_chart_series *lines = calloc(json_array_size(members) + 1, sizeof(*lines));
	char title[160];
	double t0 = INFINITY;
	int r = -ENOMEM;

	if (!lines)
		return r;
	json_array_foreach(members, i, m) if (json_object_get(m, "result") &&
	                                      json_object_get(m, "start_realtime_us")) t0 =
	    fmin(t0, ccb_report_num(m, "start_realtime_us") / 1e6);
	/* Each member's own seconds, placed at its measured start. */
	json_array_foreach(members, i, m)
	{
		const json_t *res = json_object_get(m, "result"), *s;
		const json_t *series = json_object_get(res, "series");
		double start = ccb_report_num(m, "start_realtime_us") / 1e6,
		       secs = ccb_report_num(res, "seconds");
		struct ccb_chart_series *ln = &lines[n_lines];
		size_t j;

		if (!res || !json_object_get(m, "start_realtime_us"))
			continue;
		ln->label = ccb_report_str(m, "member");
		ln->x = calloc(json_array_size(series) + 1, sizeof(double));
		ln->y = calloc(json_array_size(series) + 1, sizeof(double));
		if (!ln->x || !ln->y)
			goto out;
		n_lines++;
		json_array_foreach(series, j, s)
		{
			double b0 = (double)j, b1 = fmin(b0 + 1, secs);
			if (b1 <= b0)
				continue;
			((double *)ln->x)[ln->n] = start - t0 + (b0 + b1) / 2;
			((double *)ln->y)[ln->n++] = ccb_report_num(s, "bytes") / MIB / (b1 - b0);
		}
	}
	if (json_array_size(agg_series)) {
		struct ccb_chart_series *ln = &lines[n_lines];
		double w0 =
		    ccb_report_num(json_object_get(rep, "window"), "start_realtime_us") / 1e6;
		const json_t *s;

		ln->label = "aggregate (all members running)";
		ln->x = calloc(json_array_size(agg_series), sizeof(double));
		ln->y = calloc(json_array_size(agg_series), sizeof(double));
		if (!ln->x || !ln->y)
			goto out;
		n_lines++;
		json_array_foreach(agg_series, i, s)
		{
			((double *)ln->x)[ln->n] = w0 - t0 + ccb_report_num(s, "offset_s") +
			                           ccb_report_num(s, "seconds") / 2;
			((double *)ln->y)[ln->n++] = ccb_report_num(s, "bandwidth_mib_s");
		}
	}
	snprintf(title, sizeof(title), "ccbench group %s: %s, bandwidth per second",
	         ccb_report_str(rep, "group"),
	         ccb_report_str(json_object_get(rep, "params"), "command"));
	r = ccb_chart_svg(&(struct ccb_chart){.title = title,
	                                      .x_title = "time since the first member started (s)",
	                                      .y_title = "bandwidth (MiB/s)",
	                                      .series = lines,
	                                      .n_series = n_lines},
	                  out);
out:
	for (i = 0; i <= n_lines && i < json_array_size(members) + 1; i++) {
		free((void *)lines[i].x);
		free((void *)lines[i].y);
	}
	free(lines);
	return r;
}
