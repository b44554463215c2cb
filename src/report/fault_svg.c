/*
 * The SVG timeline of a run with faults (fault_report.h): bandwidth per
 * second above, p99 per second below (log scale: a pause's seconds-long
 * ops beside millisecond ones), both against the run's time, the phases
 * shaded behind them, each fault a dashed vertical line numbered in the
 * legend. Drawn by hand like chart.c's line charts, self-contained, from
 * the saved result alone.
 */
#include "chart.h"
#include "fault_report.h"
#include <ccbench/report.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#define W   960.0
#define L   80.0
#define R   230.0 /* the legend: phases and faults */
#define T   60.0
#define BWH 200.0 /* the bandwidth panel */
#define GAP 50.0
#define LTH 170.0 /* the latency panel */
#define H   (T + BWH + GAP + LTH + 60.0)

static const struct {
	const char *phase, *color;
} phase_colors[] = {{"before", "#9e9e9e"},
                    {"stalled", "#d62728"},
                    {"degraded", "#ff7f0e"},
                    {"recovering", "#1f77b4"},
                    {"clean", "#2ca02c"}};

static const char *color_of(const char *phase)
{
	for (size_t i = 0; i < sizeof(phase_colors) / sizeof(phase_colors[0]); i++)
		if (strcmp(phase_colors[i].phase, phase) == 0)
			return phase_colors[i].color;
	return "#bcbd22";
}

static double xs(double t, double run_s)
{
	return L + (run_s > 0 ? t / run_s : 0) * (W - L - R);
}

/* A step of 1, 2 or 5 times a power of ten giving about @p n ticks over @p span. */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw > 0 ? raw : 1))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The run's last second when it ended less than half into it: a few ops
 * in a sliver of a second say nothing of a rate (drawn as neither). */
static bool sliver(const json_t *s, double run_s)
{
	return run_s - (ccb_report_num(s, "t") - 1) < 0.5;
}

static void text(FILE *out, double x, double y, const char *anchor, const char *cls, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" class=\"%s\">", x, y, anchor,
	        cls);
	ccb_chart_xml_text(out, s);
	fputs("</text>\n", out);
}

static void phases(FILE *out, const json_t *f, double run_s)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(f, "phases"), i, p)
	{
		double a = xs(ccb_report_num(p, "from_s"), run_s);
		double b = xs(ccb_report_num(p, "to_s"), run_s);
		const char *col = color_of(ccb_report_str(p, "phase"));

		fprintf(out,
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
		        "fill-opacity=\"0.16\"/>\n<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
		        "height=\"%.1f\" fill=\"%s\" fill-opacity=\"0.16\"/>\n",
		        a, T, fmax(b - a, 0.5), BWH, col, a, T + BWH + GAP, fmax(b - a, 0.5), LTH,
		        col);
		/* The phase's colour as a band above the plot, its name where it fits. */
		fprintf(out,
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"8\" fill=\"%s\"/>\n",
		        a, T - 12, fmax(b - a, 0.5), col);
		if (b - a > 8.0 * (double)strlen(ccb_report_str(p, "phase")))
			text(out, (a + b) / 2, T - 16, "middle", "ph", ccb_report_str(p, "phase"));
	}
}

static void x_axis(FILE *out, double run_s)
{
	double step = nice_step(run_s, 10), y = T + BWH + GAP + LTH;
	char lab[32];

	for (double t = 0; t <= run_s + 1e-9; t += step) {
		double x = xs(t, run_s);

		fprintf(out, "<path class=\"grid\" d=\"M%.1f %.1f V%.1f M%.1f %.1f V%.1f\"/>\n", x,
		        T, T + BWH, x, T + BWH + GAP, y);
		snprintf(lab, sizeof(lab), "%g", t);
		text(out, x, y + 16, "middle", "tick", lab);
	}
	text(out, (L + W - R) / 2, y + 38, "middle", "axis", "seconds into the run");
}

static void bandwidth(FILE *out, const json_t *series, double run_s)
{
	double hi = 0, step;
	const json_t *s;
	size_t i;
	char lab[32];

	json_array_foreach(series, i, s) if (!sliver(s, run_s)) hi =
	    fmax(hi, ccb_report_num(s, "bandwidth_mib_s"));
	hi = hi > 0 ? hi * 1.1 : 1;
	step = nice_step(hi, 4);
	for (double v = 0; v <= hi + 1e-9; v += step) {
		double y = T + BWH - v / hi * BWH;

		fprintf(out, "<path class=\"grid\" d=\"M%.1f %.1f H%.1f\"/>\n", L, y, W - R);
		snprintf(lab, sizeof(lab), "%g", v);
		text(out, L - 6, y + 4, "end", "tick", lab);
	}
	text(out, 18, T + BWH / 2, "middle", "axis vert", "MiB/s");
	fputs("<polyline class=\"bw\" points=\"", out);
	json_array_foreach(series, i, s) if (!sliver(s, run_s))
	    fprintf(out, "%.1f,%.1f ", xs(ccb_report_num(s, "t") - 0.5, run_s),
	            T + BWH - ccb_report_num(s, "bandwidth_mib_s") / hi * BWH);
	fputs("\"/>\n", out);
}

static void latency(FILE *out, const json_t *series, double run_s)
{
	double lo = INFINITY, hi = 0, y0 = T + BWH + GAP;
	const json_t *s;
	size_t i;
	bool open = false;
	char lab[32];

	json_array_foreach(series, i, s)
	{
		double v = ccb_report_num(s, "p99_us");

		if (v > 0 && !sliver(s, run_s)) {
			lo = fmin(lo, v);
			hi = fmax(hi, v);
		}
	}
	if (!(hi > 0))
		return;
	lo = floor(log10(lo));
	hi = fmax(ceil(log10(hi)), lo + 1);
	for (double d = lo; d <= hi; d++) {
		double y = y0 + LTH - (d - lo) / (hi - lo) * LTH, us = pow(10, d);

		fprintf(out, "<path class=\"grid\" d=\"M%.1f %.1f H%.1f\"/>\n", L, y, W - R);
		if (us >= 1e6)
			snprintf(lab, sizeof(lab), "%g s", us / 1e6);
		else if (us >= 1e3)
			snprintf(lab, sizeof(lab), "%g ms", us / 1e3);
		else
			snprintf(lab, sizeof(lab), "%g us", us);
		text(out, L - 6, y + 4, "end", "tick", lab);
	}
	text(out, 18, y0 + LTH / 2, "middle", "axis vert", "p99");
	/* A second with no op has no p99: the line breaks there. */
	json_array_foreach(series, i, s)
	{
		double v = sliver(s, run_s) ? 0 : ccb_report_num(s, "p99_us");

		if (!(v > 0)) {
			if (open)
				fputs("\"/>\n", out);
			open = false;
			continue;
		}
		if (!open)
			fputs("<polyline class=\"lat\" points=\"", out);
		open = true;
		fprintf(out, "%.1f,%.1f ", xs(ccb_report_num(s, "t") - 0.5, run_s),
		        y0 + LTH - (log10(v) - lo) / (hi - lo) * LTH);
	}
	if (open)
		fputs("\"/>\n", out);
}

/* Each fault that fired: a dashed line, its number above, its text in the legend. */
static void faults(FILE *out, const json_t *f, double run_s)
{
	const json_t *e;
	size_t i, n = 0;
	char lab[64];

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		double x;

		if (!json_is_true(json_object_get(e, "fired")))
			continue;
		n++;
		x = xs(ccb_report_num(e, "fired_s"), run_s);
		fprintf(out, "<path class=\"fault\" d=\"M%.1f %.1f V%.1f M%.1f %.1f V%.1f\"/>\n", x,
		        T - 2, T + BWH, x, T + BWH + GAP, T + BWH + GAP + LTH);
		snprintf(lab, sizeof(lab), "F%zu", n);
		text(out, x, T + BWH + GAP - 8, "middle", "flab", lab);
		snprintf(lab, sizeof(lab), "F%zu %.1f s", n, ccb_report_num(e, "fired_s"));
		text(out, W - R + 15, T + 120 + 30.0 * (double)(n - 1), "start", "flab", lab);
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" class=\"leg\">", W - R + 15,
		        T + 134 + 30.0 * (double)(n - 1));
		{
			char shown[40];
			const char *t = ccb_report_str(e, "fault");

			snprintf(shown, sizeof(shown), "%.34s%s", t, strlen(t) > 34 ? "..." : "");
			ccb_chart_xml_text(out, shown);
		}
		fputs("</text>\n", out);
	}
}

static void legend(FILE *out)
{
	for (size_t i = 0; i < sizeof(phase_colors) / sizeof(phase_colors[0]); i++) {
		fprintf(out,
		        "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\" "
		        "fill-opacity=\"0.5\"/>\n",
		        W - R + 15, T + 18.0 * (double)i, phase_colors[i].color);
		text(out, W - R + 35, T + 18.0 * (double)i + 9, "start", "leg",
		     phase_colors[i].phase);
	}
}

int ccb_fault_render_svg(const json_t *r, FILE *out)
{
	const json_t *f = json_object_get(r, "fault"), *fig = json_object_get(f, "figures");
	const json_t *series = json_object_get(r, "series");
	double run_s = ccb_report_num(r, "seconds");
	char title[512], cmd[160];

	if (!ccb_fault_report_is(r) || !json_is_array(series))
		return -EINVAL;
	if (run_s <= 0)
		run_s = (double)json_array_size(series);
	snprintf(cmd, sizeof(cmd), "%s", ccb_report_str(r, "command"));
	if (json_is_number(json_object_get(fig, "pause_s")))
		snprintf(title, sizeof(title), "ccbench %s: I/O pause %.2f s%s", cmd,
		         ccb_report_num(fig, "pause_s"),
		         json_is_number(json_object_get(fig, "time_to_clean_s"))
		             ? ", clean again after the first fault in"
		             : ", not clean again by the end");
	else
		snprintf(title, sizeof(title), "ccbench %s", cmd);
	if (json_is_number(json_object_get(fig, "time_to_clean_s")))
		snprintf(title + strlen(title), sizeof(title) - strlen(title), " %.1f s",
		         ccb_report_num(fig, "time_to_clean_s"));
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n"
	        "<style>.grid{stroke:#ddd;fill:none}.tick{font-size:11px;fill:#444}"
	        ".axis{font-size:12px;fill:#222}.vert{writing-mode:vertical-rl}"
	        ".ph{font-size:10px;fill:#333}.leg{font-size:11px;fill:#222}"
	        ".flab{font-size:11px;font-weight:bold;fill:#000}.title{font-size:15px}"
	        ".bw{fill:none;stroke:#1f1f7a;stroke-width:1.8}"
	        ".lat{fill:none;stroke:#7a1f1f;stroke-width:1.5}"
	        ".fault{stroke:#000;stroke-width:1.2;stroke-dasharray:5,4}</style>\n"
	        "<rect width=\"100%%\" height=\"100%%\" fill=\"#fff\"/>\n",
	        W, H, W, H);
	text(out, L, 24, "start", "title", title);
	phases(out, f, run_s);
	x_axis(out, run_s);
	bandwidth(out, series, run_s);
	text(out, L + 4, T + 14, "start", "axis", "bandwidth per second");
	latency(out, series, run_s);
	text(out, L + 4, T + BWH + GAP - 24, "start", "axis",
	     "p99 of the ops started in each second (log)");
	faults(out, f, run_s);
	legend(out);
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}
