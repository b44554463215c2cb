/*
 * The views of a capacity search (capacity_report.h): every figure comes
 * from the document, so a saved search renders the same text, CSV and
 * chart as the run that wrote it. Strings of a saved document may be
 * crafted: escaped for the terminal, CSV and SVG.
 */
#include <ccbench/capacity_report.h>
#include "chart.h"
#include <ccbench/escape.h>
#include <ccbench/explain.h>
#include <ccbench/report.h>

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

bool ccb_capacity_is_doc(const json_t *doc)
{
	return json_is_object(doc) && strcmp(ccb_report_str(doc, "kind"), "capacity") == 0;
}

int ccb_capacity_doc_check(const json_t *doc, char *err, size_t err_len)
{
	const json_t *steps = json_object_get(doc, "steps"), *st;
	const json_t *slo = json_object_get(doc, "slo");
	const json_t *hr = json_object_get(doc, "headroom");
	const json_t *ex = json_object_get(doc, "explain");
	size_t i;

	if (!ccb_capacity_is_doc(doc)) {
		snprintf(err, err_len, "not a capacity search");
		return -EINVAL;
	}
	if (!json_is_array(steps) || json_array_size(steps) > CCB_CAPACITY_MAX_STEPS) {
		snprintf(err, err_len, "\"steps\" is not a list of at most %d steps",
		         CCB_CAPACITY_MAX_STEPS);
		return -EINVAL;
	}
	json_array_foreach(steps, i, st) if (!json_is_object(st))
	{
		snprintf(err, err_len, "step %zu is not an object", i + 1);
		return -EINVAL;
	}
	if (!json_is_object(slo) || json_array_size(json_object_get(slo, "terms")) > 4) {
		snprintf(err, err_len, "\"slo\" is not an object of at most 4 terms");
		return -EINVAL;
	}
	if (hr && (!json_is_array(hr) || json_array_size(hr) > 4)) {
		snprintf(err, err_len, "\"headroom\" is not a list of at most 4 entries");
		return -EINVAL;
	}
	if (json_object_get(doc, "closed_loop") &&
	    (!json_is_array(json_object_get(doc, "closed_loop")) ||
	     json_array_size(json_object_get(doc, "closed_loop")) > 64)) {
		snprintf(err, err_len, "\"closed_loop\" is not a list of at most 64 points");
		return -EINVAL;
	}
	if (ex && !json_is_array(ex)) {
		snprintf(err, err_len, "\"explain\" is not a list");
		return -EINVAL;
	}
	if (json_object_get(doc, "closed_loop_sweep") &&
	    (!json_is_array(json_object_get(json_object_get(doc, "closed_loop_sweep"), "points")) ||
	     json_array_size(json_object_get(json_object_get(doc, "closed_loop_sweep"), "points")) >
	         CCB_CAPACITY_MAX_SWEEP_POINTS)) {
		snprintf(err, err_len,
		         "\"closed_loop_sweep\" has no list \"points\" of at most %d points",
		         CCB_CAPACITY_MAX_SWEEP_POINTS);
		return -EINVAL;
	}
	return 0;
}

static double lat(const json_t *st, const char *which, const char *key)
{
	const json_t *v = json_object_get(json_object_get(st, which), key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "2.34 ms" of microseconds, "-" when not measured. */
static const char *ms(double us, char *buf, size_t len)
{
	if (!isfinite(us))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3g", us / 1e3);
	return buf;
}

int ccb_capacity_render_text(const json_t *doc, FILE *out)
{
	const json_t *cap = json_object_get(doc, "capacity_ops_s");
	const json_t *search = json_object_get(doc, "search"),
	             *probe = json_object_get(doc, "probe");
	const json_t *knee = json_object_get(doc, "knee"), *st;
	char a[256], b[256], c[32], d[32], e[32], f[32], g[32], h[32];
	size_t i;

	ccb_text_esc(ccb_report_str(doc, "workload"), a, sizeof(a));
	ccb_text_esc(ccb_report_str(json_object_get(doc, "slo"), "text"), b, sizeof(b));
	if (json_is_number(cap))
		fprintf(out, "%-18s %.4g ops/s for %s at %s (the highest rate that met it)\n",
		        "capacity", json_number_value(cap), a, b);
	else
		fprintf(out, "%-18s none found for %s at %s\n", "capacity", a, b);
	ccb_text_esc(ccb_report_str(doc, "status"), c, sizeof(c));
	ccb_text_esc(ccb_report_str(search, "ended"), a, sizeof(a));
	fprintf(out, "%-18s %s (%s; %zu steps, %.1f s)\n", "status", c, a,
	        json_array_size(json_object_get(doc, "steps")), ccb_report_num(doc, "seconds"));
	if (json_object_get(doc, "partial")) {
		ccb_text_esc(ccb_report_str(doc, "partial"), a, sizeof(a));
		fprintf(out, "%-18s %s\n", "partial", a);
	}
	if (json_object_get(doc, "error")) {
		ccb_text_esc(ccb_report_str(doc, "error"), a, sizeof(a));
		fprintf(out, "%-18s %s\n", "error", a);
	}
	if (probe)
		fprintf(
		    out, "%-18s closed loop, %.0f in flight per client: %.4g ops/s, p99 %s ms\n",
		    "probe", ccb_report_num(probe, "queue_depth"), ccb_report_num(probe, "ops_s"),
		    ms(lat(probe, "latency_us", "p99"), c, sizeof(c)));
	json_array_foreach(json_object_get(doc, "closed_loop"), i, st)
	{
		snprintf(a, sizeof(a), "closed loop %.0f", ccb_report_num(st, "in_flight"));
		fprintf(out, "%-18s %.4g ops/s, latency p50 %s p99 %s ms\n", a,
		        ccb_report_num(st, "ops_s"), ms(lat(st, "latency_us", "p50"), c, sizeof(c)),
		        ms(lat(st, "latency_us", "p99"), d, sizeof(d)));
	}
	if (json_object_get(doc, "closed_loop_sweep")) {
		const json_t *sw = json_object_get(doc, "closed_loop_sweep");

		ccb_text_esc(ccb_report_str(sw, "config"), a, sizeof(a));
		ccb_text_esc(ccb_report_str(sw, "file"), b, sizeof(b));
		fprintf(out, "%-18s %s (%s), %zu points, on the chart\n", "closed-loop sweep", a, b,
		        json_array_size(json_object_get(sw, "points")));
		json_array_foreach(json_object_get(sw, "points"), i, st)
		{
			snprintf(a, sizeof(a), "  %.0f in flight", ccb_report_num(st, "in_flight"));
			fprintf(out, "%-18s %.4g ops/s, latency p50 %s p99 %s ms\n", a,
			        ccb_report_num(st, "ops_s"),
			        ms(lat(st, "latency_us", "p50"), c, sizeof(c)),
			        ms(lat(st, "latency_us", "p99"), d, sizeof(d)));
		}
	}
	if (json_is_object(knee))
		fprintf(out, "%-18s %.4g ops/s (response p99 %s ms)\n", "knee",
		        ccb_report_num(knee, "achieved_ops_s"),
		        ms(ccb_report_num(knee, "response_p99_us"), c, sizeof(c)));
	json_array_foreach(json_object_get(doc, "headroom"), i, st)
	{
		snprintf(a, sizeof(a), "headroom %.0f%%", ccb_report_num(st, "share_pct"));
		fprintf(out,
		        "%-18s %.4g ops/s: response p50 %s p99 %s ms, service p99 %s ms (%s)\n", a,
		        ccb_report_num(st, "achieved_ops_s"),
		        ms(lat(st, "response_time_us", "p50"), c, sizeof(c)),
		        ms(lat(st, "response_time_us", "p99"), d, sizeof(d)),
		        ms(lat(st, "service_time_us", "p99"), e, sizeof(e)),
		        ccb_text_esc(ccb_report_str(st, "verdict"), b, sizeof(b)));
	}
	fprintf(out, "\n%4s %-8s %10s %10s %9s %9s %9s %9s %9s %9s %7s  %s\n", "step", "phase",
	        "target/s", "achieved/s", "resp p50", "resp p99", "p99.9", "svc p50", "svc p99",
	        "p99.9", "seconds", "verdict (ms)");
	json_array_foreach(json_object_get(doc, "steps"), i, st)
	{
		ccb_text_esc(ccb_report_str(st, "phase"), a, sizeof(a));
		ccb_text_esc(ccb_report_str(st, "verdict"), b, sizeof(b));
		fprintf(out, "%4.0f %-8.8s %10.4g %10.4g %9s %9s %9s %9s %9s %9s %7.1f  %s",
		        ccb_report_num(st, "step"), a, ccb_report_num(st, "target_ops_s"),
		        ccb_report_num(st, "achieved_ops_s"),
		        ms(lat(st, "response_time_us", "p50"), c, sizeof(c)),
		        ms(lat(st, "response_time_us", "p99"), d, sizeof(d)),
		        ms(lat(st, "response_time_us", "p99_9"), e, sizeof(e)),
		        ms(lat(st, "service_time_us", "p50"), f, sizeof(f)),
		        ms(lat(st, "service_time_us", "p99"), g, sizeof(g)),
		        ms(lat(st, "service_time_us", "p99_9"), h, sizeof(h)),
		        ccb_report_num(st, "seconds"), b);
		if (json_object_get(st, "slo_broken")) {
			ccb_text_esc(ccb_report_str(st, "slo_broken"), a, sizeof(a));
			fprintf(out, ": %s", a);
		}
		fputc('\n', out);
	}
	if (json_array_size(json_object_get(doc, "explain"))) {
		fputc('\n', out);
		ccb_explain_write_text(json_object_get(doc, "explain"), out);
	}
	return ferror(out) ? -EIO : 0;
}

int ccb_capacity_render_csv(const json_t *doc, FILE *out)
{
	static const char *const which[] = {"response_time_us", "service_time_us"};
	static const char *const keys[] = {"p50", "p99", "p99_9"};
	const json_t *st;
	double cap = ccb_report_num(doc, "capacity_ops_s");
	size_t i;

	fprintf(out, "step,phase,target_ops_s,achieved_ops_s,response_p50_us,response_p99_us,"
	             "response_p99_9_us,service_p50_us,service_p99_us,service_p99_9_us,"
	             "issuer_lag_p99_us,late,dropped,carried,slo_met,verdict,seconds,capacity\n");
	json_array_foreach(json_object_get(doc, "steps"), i, st)
	{
		fprintf(out, "%.0f,", ccb_report_num(st, "step"));
		ccb_csv_cell(out, ccb_report_str(st, "phase"));
		fprintf(out, ",%.6g,%.6g", ccb_report_num(st, "target_ops_s"),
		        ccb_report_num(st, "achieved_ops_s"));
		for (size_t w = 0; w < 2; w++)
			for (size_t k = 0; k < 3; k++) {
				double v = lat(st, which[w], keys[k]);
				if (isfinite(v))
					fprintf(out, ",%.6g", v);
				else
					fputs(",", out);
			}
		fprintf(out, ",%.6g,%.0f,%.0f,%d,%d,",
		        ccb_report_num(json_object_get(st, "issuer_lag_us"), "p99"),
		        ccb_report_num(st, "late"), ccb_report_num(st, "dropped"),
		        json_is_true(json_object_get(st, "carried")),
		        json_is_true(json_object_get(st, "slo_met")));
		ccb_csv_cell(out, ccb_report_str(st, "verdict"));
		fprintf(out, ",%.3f,%d\n", ccb_report_num(st, "seconds"),
		        cap > 0 && ccb_report_num(st, "target_ops_s") == cap &&
		            strcmp(ccb_report_str(st, "verdict"), "meets SLO") == 0);
	}
	return ferror(out) ? -EIO : 0;
}

int ccb_capacity_render_json(const json_t *doc, FILE *out)
{
	if (json_dumpf(doc, out, JSON_INDENT(2)) < 0)
		return -EIO;
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

static int cmp_x(const void *a, const void *b)
{
	double x = **(const double *const *)a, y = **(const double *const *)b;
	return (x > y) - (x < y);
}

int ccb_capacity_render_svg(const json_t *doc, FILE *out)
{
	const json_t *steps = json_object_get(doc, "steps"), *term;
	size_t n = json_array_size(steps), m = 0, i;
	static const struct {
		const char *which, *key, *label;
	} lines[] = {{"response_time_us", "p99", "response p99"},
	             {"response_time_us", "p50", "response p50"},
	             {"service_time_us", "p99", "service p99"},
	             {"response_time_us", "p99_9", "response p99.9"}};
	enum { NL = sizeof(lines) / sizeof(lines[0]) };
	double *buf = calloc(n * (NL + 1) + 1, sizeof(double));
	double **order = calloc(n + 1, sizeof(double *));
	struct ccb_chart_series se[NL + 3];
	/* A closed-loop sweep's points (report --closed-loop), p99 and p50. */
	const json_t *swp = json_object_get(json_object_get(doc, "closed_loop_sweep"), "points");
	size_t nsw = json_array_size(swp) < CCB_CAPACITY_MAX_SWEEP_POINTS
	                 ? json_array_size(swp)
	                 : CCB_CAPACITY_MAX_SWEEP_POINTS;
	double swx[CCB_CAPACITY_MAX_SWEEP_POINTS], sw99[CCB_CAPACITY_MAX_SWEEP_POINTS],
	    sw50[CCB_CAPACITY_MAX_SWEEP_POINTS];
	/* The closed loop's points (the probe's curve) on the same axes. */
	const json_t *cl = json_object_get(doc, "closed_loop"), *cp;
	size_t ncl = json_array_size(cl) < 16 ? json_array_size(cl) : 16;
	double clx[16], cly[16];
	struct ccb_chart_line hl[4], vl[2];
	char hlab[4][96], vlab[2][64], title[300], wl[128], sl[128];
	size_t nh = 0, nv = 0;
	int r;

	if (!buf || !order) {
		free(buf);
		free(order);
		return -ENOMEM;
	}
	/* By achieved rate: the curve reads left to right as load grows. */
	for (i = 0; i < n; i++) {
		const json_t *st = json_array_get(steps, i);
		double *row = buf + m * (NL + 1);
		if (ccb_report_num(st, "completed") <= 0)
			continue;
		row[0] = ccb_report_num(st, "achieved_ops_s");
		for (size_t k = 0; k < NL; k++)
			row[k + 1] = lat(st, lines[k].which, lines[k].key) / 1e3;
		order[m++] = row;
	}
	qsort(order, m, sizeof(*order), cmp_x);
	double *xs = calloc(m + 1, sizeof(double)), *ys = calloc((m + 1) * NL, sizeof(double));
	if (!xs || !ys) {
		free(xs);
		free(ys);
		free(buf);
		free(order);
		return -ENOMEM;
	}
	for (i = 0; i < m; i++) {
		xs[i] = order[i][0];
		for (size_t k = 0; k < NL; k++)
			ys[k * (m + 1) + i] = order[i][k + 1];
	}
	for (size_t k = 0; k < NL; k++)
		se[k] = (struct ccb_chart_series){
		    .label = lines[k].label, .x = xs, .y = ys + k * (m + 1), .n = m};
	for (i = 0; i < ncl; i++) {
		cp = json_array_get(cl, i);
		clx[i] = ccb_report_num(cp, "ops_s");
		cly[i] = lat(cp, "latency_us", "p99") / 1e3;
	}
	se[NL] = (struct ccb_chart_series){
	    .label = "closed loop p99 (1, 4, ... in flight)", .x = clx, .y = cly, .n = ncl};
	for (i = 0; i < nsw; i++) {
		cp = json_array_get(swp, i);
		swx[i] = ccb_report_num(cp, "ops_s");
		sw99[i] = lat(cp, "latency_us", "p99") / 1e3;
		sw50[i] = lat(cp, "latency_us", "p50") / 1e3;
	}
	se[NL + 1] = (struct ccb_chart_series){
	    .label = "closed-loop sweep p99 (clients x depth)", .x = swx, .y = sw99, .n = nsw};
	se[NL + 2] = (struct ccb_chart_series){
	    .label = "closed-loop sweep p50", .x = swx, .y = sw50, .n = nsw};
	json_array_foreach(json_object_get(json_object_get(doc, "slo"), "terms"), i, term)
	{
		if (nh == 4)
			break;
		snprintf(hlab[nh], sizeof(hlab[nh]), "SLO %s <= %.3g ms",
		         ccb_report_str(term, "percentile"),
		         ccb_report_num(term, "limit_us") / 1e3);
		hl[nh] = (struct ccb_chart_line){hlab[nh], ccb_report_num(term, "limit_us") / 1e3};
		nh++;
	}
	if (json_is_number(json_object_get(doc, "capacity_ops_s"))) {
		snprintf(vlab[nv], sizeof(vlab[nv]), "capacity %.4g/s",
		         ccb_report_num(doc, "capacity_ops_s"));
		vl[nv] = (struct ccb_chart_line){vlab[nv], ccb_report_num(doc, "capacity_ops_s")};
		nv++;
	}
	if (json_is_object(json_object_get(doc, "knee"))) {
		snprintf(vlab[nv], sizeof(vlab[nv]), "knee %.4g/s",
		         ccb_report_num(json_object_get(doc, "knee"), "achieved_ops_s"));
		vl[nv] = (struct ccb_chart_line){
		    vlab[nv], ccb_report_num(json_object_get(doc, "knee"), "achieved_ops_s")};
		nv++;
	}
	snprintf(wl, sizeof(wl), "%s", ccb_report_str(doc, "workload"));
	snprintf(sl, sizeof(sl), "%s", ccb_report_str(json_object_get(doc, "slo"), "text"));
	snprintf(title, sizeof(title), "capacity of %s at %s%s", wl, sl,
	         json_object_get(doc, "partial") ? " (interrupted: partial)" : "");
	struct ccb_chart c = {
	    .title = title,
	    .x_title = "achieved rate (ops/s)",
	    .y_title = "latency (ms, log)",
	    .series = se,
	    .n_series = nsw ? NL + 3 : NL + 1,
	    .y_log10 = true,
	    .hlines = hl,
	    .n_hlines = nh,
	    .vlines = vl,
	    .n_vlines = nv,
	};
	r = ccb_chart_svg(&c, out);
	free(xs);
	free(ys);
	free(buf);
	free(order);
	return r;
}

int ccb_capacity_emit(const json_t *doc, const struct ccb_opts *o)
{
	int r = 0;

	if (o->json_file &&
	    ccb_report_to_file(o->json_file, "--json", doc, ccb_capacity_render_json) < 0)
		r = -EIO;
	if (o->csv_file &&
	    ccb_report_to_file(o->csv_file, "--csv", doc, ccb_capacity_render_csv) < 0)
		r = -EIO;
	if (o->svg_file &&
	    ccb_report_to_file(o->svg_file, "--svg", doc, ccb_capacity_render_svg) < 0)
		r = -EIO;
	int (*render)(const json_t *, FILE *) = o->format == CCB_FMT_JSON ? ccb_capacity_render_json
	                                        : o->format == CCB_FMT_CSV
	                                            ? ccb_capacity_render_csv
	                                            : ccb_capacity_render_text;
	if (o->output) {
		if (ccb_report_to_file(o->output, "--output", doc, render) < 0)
			r = -EIO;
	} else if (render(doc, stdout) < 0 || fflush(stdout) != 0) {
		r = -EIO;
	}
	return r;
}

double ccb_capacity_metric(const json_t *doc, bool p99, const char **failed)
{
	const json_t *hr = json_object_get(doc, "headroom"), *e;
	size_t i;

	*failed = NULL;
	if (strcmp(ccb_report_str(doc, "status"), "ok") != 0) {
		*failed = "search not ok (interrupted, failed, or no capacity found)";
		return 0;
	}
	if (!p99)
		return ccb_report_num(doc, "capacity_ops_s");
	json_array_foreach(hr, i, e) if (ccb_report_num(e, "share_pct") == 70)
	{
		double v = lat(e, "response_time_us", "p99");
		if (isfinite(v))
			return v;
	}
	*failed = "no response p99 at 70 % of the capacity";
	return 0;
}
