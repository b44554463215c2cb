/*
 * `ccbench compare BASELINE CURRENT`: the gate CI runs. Per point, the
 * figure (bandwidth, p99, a search's capacity) against a tolerance, or
 * with --same-answer whether two sweeps give the same recommendation;
 * refuses a point marked distrust, and a change of Ceph release.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/command.h>
#include <ccbench/capacity_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/cli.h>
#include <ccbench/explain.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/stats.h>
#include <ccbench/units.h>
#include <ccbench/compare_cmd.h>
#include <ccbench/html.h>
#include <ccbench/attr_json.h>

#include "saved_doc.h"
#include "sweep_int.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Points of a result: key (command + matrix values) -> {"value": the
 * metric} or {"failed": why}. A run whose status is not "ok" (aborted,
 * interrupted), and a sweep point any of whose runs was not, is a failed
 * point: its figure is not a measurement to gate on.
 */
/* What compare judges (--metric): bandwidth higher is better, the others lower. */
enum cmp_metric { M_BANDWIDTH, M_P99, M_PAUSE, M_RECOVERY_P99, M_OSD_P99 };

/*
 * --metric osd-p99: the p99 of the ops of osd.@p osd_id (--osd N), or of
 * the OSD with the highest p99 among those with enough ops to compare
 * (attr_json.h; @p osd_id -1), in @p r's attribution (a run's, or a sweep
 * point's aggregate: its runs' histograms added); NAN with *@p failed set
 * when it has no such figure.
 */
static double osd_metric(const json_t *r, int osd_id, const char **failed)
{
	const json_t *att = json_object_get(r, "attribution");
	struct ccb_attr_sum s;
	double v;

	*failed = NULL;
	if (!ccb_attr_summarize(att, &s)) {
		*failed = "no per-OSD figures (a run with --attribution on, rados or rbd)";
		return NAN;
	}
	if (osd_id >= 0) {
		v = ccb_attr_osd_p99(att, osd_id);
		if (v < 0)
			*failed = "no p99 of that OSD's ops";
		return v;
	}
	if (s.worst < 0)
		*failed = "no OSD with enough ops to compare (100)";
	return s.worst_p99_us;
}

/* A run with faults: its pause or recovery p99 (fault.figures), or why
 * there is none to gate on in *@p missing. */
static double fault_figure(const json_t *run, enum cmp_metric m, const char **missing)
{
	const json_t *fig = json_object_get(json_object_get(run, "fault"), "figures");
	const json_t *v = json_object_get(fig, m == M_PAUSE ? "pause_s" : "recovery_p99_us");

	*missing = NULL;
	if (!json_is_object(fig))
		*missing = "no fault timeline (not run with --fault)";
	else if (!json_is_number(v))
		*missing = m == M_PAUSE ? "no fault fired" : "no recovery phase";
	return json_number_value(v);
}

static json_t *metric_points(const json_t *doc, enum cmp_metric m, int osd_id)
{
	bool p99 = m == M_P99;
	json_t *out = json_object(), *p;
	size_t i;

	if (ccb_capacity_is_doc(doc)) {
		const char *failed;
		double v = ccb_capacity_metric(doc, p99, &failed);
		char key[1024];

		ccb_saved_point_key(doc, NULL, key, sizeof(key));
		json_object_set_new(out, key,
		                    failed ? json_pack("{s:s}", "failed", failed)
		                           : json_pack("{s:f}", "value", v));
		return out;
	}
	if (!json_object_get(doc, "points")) {
		const char *st = json_string_value(json_object_get(doc, "status")), *missing = NULL;
		double v = m == M_OSD_P99 ? osd_metric(doc, osd_id, &missing)
		           : m >= M_PAUSE ? fault_figure(doc, m, &missing)
		           : p99          ? json_number_value(
		                                json_object_get(json_object_get(doc, "latency_us"), "p99"))
		                 : json_number_value(json_object_get(doc, "bandwidth_mib_s"));
		char why[96], stb[64], key[1024];

		ccb_saved_point_key(doc, NULL, key, sizeof(key));
		snprintf(why, sizeof(why), "status %s",
		         st ? ccb_text_esc(st, stb, sizeof(stb)) : "missing");
		json_object_set_new(out, key,
		                    st && strcmp(st, "ok") == 0 && !missing
		                        ? json_pack("{s:f}", "value", v)
		                        : json_pack("{s:s}", "failed", missing ? missing : why));
		return out;
	}
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");
		json_int_t runs = json_integer_value(json_object_get(a, "runs"));
		json_int_t ok = json_integer_value(json_object_get(a, "runs_ok"));
		char key[1024], why[96];

		ccb_saved_point_key(doc, p, key, sizeof(key));
		/* A sweep of capacity searches gates as one search does. */
		if (ccb_sweep_is_capacity(json_object_get(doc, "config"))) {
			const char *failed;
			double v = ccb_capacity_sweep_metric(p, p99, &failed);

			json_object_set_new(out, key,
			                    failed ? json_pack("{s:s}", "failed", failed)
			                           : json_pack("{s:f}", "value", v));
			continue;
		}
		if (ok <= 0 || ok < runs) {
			snprintf(why, sizeof(why), "%lld of %lld runs ok", (long long)ok,
			         (long long)runs);
			json_object_set_new(out, key, json_pack("{s:s}", "failed", why));
			continue;
		}
		if (m == M_OSD_P99) {
			const char *of;
			/* Over the point's runs merged (their histograms added). */
			double ov = osd_metric(a, osd_id, &of);

			json_object_set_new(out, key,
			                    of ? json_pack("{s:s}", "failed", of)
			                       : json_pack("{s:f}", "value", ov));
			continue;
		}
		const char *agg = m == M_PAUSE          ? "fault_pause_s"
		                  : m == M_RECOVERY_P99 ? "fault_recovery_p99_us"
		                  : p99                 ? "latency_p99_us"
		                                        : "bandwidth_mib_s";
		/* A fault figure of every run of the point, or none to gate on. */
		if ((m == M_PAUSE || m == M_RECOVERY_P99) &&
		    json_integer_value(json_object_get(json_object_get(a, agg), "runs")) != ok) {
			json_object_set_new(out, key,
			                    json_pack("{s:s}", "failed",
			                              m == M_PAUSE
			                                  ? "a run without a fault timeline"
			                                  : "a run without a recovery phase"));
			continue;
		}
		json_t *v = json_pack("{s:f}", "value", ccb_sweep_agg(p, agg, "mean"));
		/* The repeats' 95 % interval, where they give one. */
		const json_t *ci = json_object_get(json_object_get(a, agg), "ci95_half");
		if (json_is_number(ci))
			json_object_set_new(v, "ci95_half", json_real(json_number_value(ci)));
		/* For compare --same-answer: the runs' spread and count, and
		 * how many stopped at steady state rather than at their bound. */
		json_object_set_new(v, "stddev", json_real(ccb_sweep_agg(p, agg, "stddev")));
		json_object_set_new(v, "runs", json_integer(ok));
		json_object_set_new(
		    v, "steady_runs",
		    json_integer(json_integer_value(json_object_get(a, "steady_runs"))));
		json_object_set_new(out, key, v);
	}
	return out;
}

/*
 * A row of the comparison, for its HTML page (--html): the point, both
 * figures (NAN: none), the change in percent and the verdict as printed.
 */
static void row(json_t *rows, const char *key, double b, double x, double delta,
                const char *verdict)
{
	json_t *r = json_pack("{s:s, s:s}", "point", key, "verdict", verdict);

	json_object_set_new(r, "baseline", isfinite(b) ? json_real(b) : json_null());
	json_object_set_new(r, "current", isfinite(x) ? json_real(x) : json_null());
	json_object_set_new(r, "delta_pct", isfinite(delta) ? json_real(delta) : json_null());
	json_array_append_new(rows, r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* "order=20 path=krbd" of a knee's series, escaped for the terminal. */
static void knee_label(const json_t *series, char *buf, size_t len)
{
	const char *k;
	json_t *v;
	size_t l = 0;
	char raw[256];

	raw[0] = '\0';
	json_object_foreach((json_t *)series, k, v)
	{
		char *val = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		int n =
		    snprintf(raw + l, sizeof(raw) - l, "%s%s=%s", l ? " " : "", k, val ? val : "?");
		free(val);
		if (n < 0 || (size_t)n >= sizeof(raw) - l)
			break;
		l += (size_t)n;
	}
	ccb_text_esc(raw, buf, len);
}

/* Neither point's runs stopped at steady state: each ran to its bound. */
static bool whole_runs_both(const json_t *b, const json_t *c)
{
	return json_integer_value(json_object_get(b, "steady_runs")) == 0 &&
	       json_integer_value(json_object_get(c, "steady_runs")) == 0;
}

/* Welch's 95 % half-width of the difference of two points' means. */
static double welch_half(const json_t *b, const json_t *c)
{
	return ccb_welch_half95(json_number_value(json_object_get(b, "stddev")),
	                        (size_t)json_integer_value(json_object_get(b, "runs")),
	                        json_number_value(json_object_get(c, "stddev")),
	                        (size_t)json_integer_value(json_object_get(c, "runs")));
}

/*
 * compare --same-answer: whether a faster way of measuring (steady-state
 * stops, early-stopped repeats) gives the baseline's answer. Each point
 * within the tolerance either way, or, where the current point's repeats
 * give a 95 % interval, the baseline within it, or the current figure
 * within the baseline's own 95 % interval, or, where no run of either
 * stopped at steady state (passes shorter than a ramp and a window, as
 * seed 002's fastest points: the same measurement twice), the difference
 * within Welch's two-sample 95 % interval; and every series' knee
 * (the recommendation) the same row value, except a fuse-loop series',
 * for which the sweep recommends nothing. Prints a line per point and
 * knee; @return the number of differences (failed points count).
 */
/* What compare --same-answer found so far. */
struct answer {
	int differ, matched, same_points, knees, same_knees, spread_knees, fuse_knees;
	double *ratios; /* current / baseline of each point, for the grid's shift */
	size_t n_ratios;
	json_t *rows;
};

/* One point of --same-answer: its line, its row and its verdict counted. */
static void same_point(struct answer *an, const char *key, const json_t *v, const json_t *c,
                       double tol, const char *cur_name)
{
	json_t *rows = an->rows;
	char verdict[400];

	const char *bf = json_string_value(json_object_get(v, "failed"));
	const char *cf = json_string_value(json_object_get(c, "failed"));
	double b = json_number_value(json_object_get(v, "value")), x, delta;
	const json_t *ci, *bci = json_object_get(v, "ci95_half");

	if (!c) {
		printf("%-60s %12.2f %12s %9s  missing in %s\n", key, b, "-", "-", cur_name);
		snprintf(verdict, sizeof(verdict), "missing in %s", cur_name);
		row(rows, key, b, NAN, NAN, verdict);
		return;
	}
	an->matched++;
	if (bf || cf) {
		an->differ++;
		printf("%-60s %12s %12s %9s  FAILED (%s)\n", key, bf ? "-" : "", cf ? "-" : "", "-",
		       bf ? bf : cf);
		snprintf(verdict, sizeof(verdict), "FAILED (%s)", bf ? bf : cf);
		row(rows, key, bf ? NAN : b,
		    cf ? NAN : json_number_value(json_object_get(c, "value")), NAN, verdict);
		return;
	}
	x = json_number_value(json_object_get(c, "value"));
	ci = json_object_get(c, "ci95_half");
	delta = b != 0 ? (x - b) / b * 100 : 0;
	if (an->ratios && b > 0)
		an->ratios[an->n_ratios++] = x / b;
	if (fabs(delta) <= tol) {
		an->same_points++;
		printf("%-60s %12.2f %12.2f %+8.1f%%  same\n", key, b, x, delta);
		row(rows, key, b, x, delta, "same");
	} else if (json_is_number(ci) && fabs(x - b) <= json_number_value(ci)) {
		an->same_points++;
		printf("%-60s %12.2f %12.2f %+8.1f%%  same (within its 95%% interval ±%.2f)\n", key,
		       b, x, delta, json_number_value(ci));
		row(rows, key, b, x, delta, "same (within its 95 % interval)");
	} else if (json_is_number(bci) && fabs(x - b) <= json_number_value(bci)) {
		/* The issue's own wording: the point within the full-length
		 * figure's interval. Where the baseline's repeats spread (a
		 * fuse-loop device whose seconds follow the host's CPU), the
		 * full-length runs themselves do not know the figure closer
		 * than that; where they agree, this band is narrow. */
		an->same_points++;
		printf("%-60s %12.2f %12.2f %+8.1f%%  same (within the baseline's 95%% "
		       "interval ±%.2f)\n",
		       key, b, x, delta, json_number_value(bci));
		row(rows, key, b, x, delta, "same (within the baseline's 95 % interval)");
	} else if (whole_runs_both(v, c) && fabs(x - b) <= welch_half(v, c)) {
		/* No run of either stopped early: the point was measured
		 * the same way twice, so the steady-state rule is not what
		 * differs; only the runs' own spread can. */
		an->same_points++;
		printf("%-60s %12.2f %12.2f %+8.1f%%  same (whole runs both ways, within "
		       "their two-sample 95%% interval ±%.2f)\n",
		       key, b, x, delta, welch_half(v, c));
		row(rows, key, b, x, delta,
		    "same (whole runs both ways, within their two-sample 95 % interval)");
	} else {
		an->differ++;
		printf("%-60s %12.2f %12.2f %+8.1f%%  DIFFERS%s\n", key, b, x, delta,
		       json_is_number(ci) || json_is_number(bci)
		           ? " (outside the 95% intervals too)"
		           : "");
		row(rows, key, b, x, delta, "DIFFERS");
	}
}

/* One series' knee of --same-answer: the same recommendation or not. */
static void same_knee(struct answer *an, const json_t *base, const json_t *cur, const json_t *bk)
{
	json_t *rows = an->rows, *ck;
	char verdict[400];
	size_t j;

	const json_t *found = NULL;
	char label[256], bvs[64], cvs[64];
	char *bv, *cv;

	an->knees++;
	json_array_foreach(json_object_get(cur, "knees"), j, ck)
	{
		if (json_equal(json_object_get(ck, "series"), json_object_get(bk, "series")))
			found = ck;
	}
	knee_label(json_object_get(bk, "series"), label, sizeof(label));
	bv = json_dumps(json_object_get(bk, "value"), JSON_ENCODE_ANY);
	cv = found ? json_dumps(json_object_get(found, "value"), JSON_ENCODE_ANY) : NULL;
	/* JSON escapes C0, not DEL or C1: escaped for the terminal. */
	ccb_text_esc(bv ? bv : "?", bvs, sizeof(bvs));
	ccb_text_esc(cv ? cv : "none", cvs, sizeof(cvs));
	free(bv);
	free(cv);
	const json_t *kp = ccb_sweep_series_point(base, json_object_get(bk, "series"),
	                                          json_object_get(bk, "value"));
	const json_t *cq = found ? ccb_sweep_series_point(base, json_object_get(bk, "series"),
	                                                  json_object_get(found, "value"))
	                         : NULL;
	double diff = 0, two_se = 0;

	if (found && json_equal(json_object_get(found, "value"), json_object_get(bk, "value"))) {
		an->same_knees++;
		printf("knee%s%s%s: %s in both: same recommendation\n", label[0] ? " (" : "", label,
		       label[0] ? ")" : "", bvs);
		snprintf(verdict, sizeof(verdict), "%s in both: same recommendation", bvs);
	} else if ((kp && ccb_sweep_point_fuse_loop(kp)) || (cq && ccb_sweep_point_fuse_loop(cq))) {
		/* The sweep recommends nothing for such a series (its DISTRUST
		 * line): its curve is rbd-fuse's, flat within the noise, and
		 * its knee is where the noise put the best. Not judged. */
		an->fuse_knees++;
		printf("knee%s%s%s: baseline %s, current %s: no recommendation either way "
		       "(fuse-loop: the series cannot show readahead, the sweep recommends "
		       "nothing for it)\n",
		       label[0] ? " (" : "", label, label[0] ? ")" : "", bvs, cvs);
		snprintf(verdict, sizeof(verdict),
		         "baseline %s, current %s: no recommendation either way (fuse-loop)", bvs,
		         cvs);
	} else if (kp && cq && !ccb_sweep_told_apart(kp, cq, &diff, &two_se)) {
		/* The baseline's own repeats do not tell the two row values
		 * apart: either is its recommendation, within its spread. */
		an->same_knees++;
		an->spread_knees++;
		printf("knee%s%s%s: baseline %s, current %s, which the baseline's repeats do "
		       "not tell apart (%.1f MiB/s, under 2 standard errors %.1f): the same "
		       "recommendation within the spread\n",
		       label[0] ? " (" : "", label, label[0] ? ")" : "", bvs, cvs, diff, two_se);
		snprintf(verdict, sizeof(verdict),
		         "baseline %s, current %s: the same recommendation within the spread", bvs,
		         cvs);
	} else {
		an->differ++;
		printf("knee%s%s%s: baseline %s, current %s: DIFFERENT recommendation\n",
		       label[0] ? " (" : "", label, label[0] ? ")" : "", bvs, cvs);
		snprintf(verdict, sizeof(verdict),
		         "baseline %s, current %s: DIFFERENT recommendation", bvs, cvs);
	}
	{
		char kl[300];

		snprintf(kl, sizeof(kl), "knee%s%s%s", label[0] ? " (" : "", label,
		         label[0] ? ")" : "");
		row(rows, kl, NAN, NAN, NAN, verdict);
	}
}

static int same_answer(const json_t *base, const json_t *cur, const json_t *bp, const json_t *cp,
                       double tol, const char *cur_name, int *matched, json_t *rows, char *sum,
                       size_t sum_len)
{
	struct answer an = {.rows = rows,
	                    .ratios = calloc(json_object_size(bp) + 1, sizeof(double))};
	const char *key;
	const json_t *v, *bk;
	size_t i, sl;

	printf("%-60s %12s %12s %9s  %s\n", "point", "baseline", "current", "delta", "verdict");
	json_object_foreach((json_t *)bp, key, v)
	    same_point(&an, key, v, json_object_get(cp, key), tol, cur_name);
	json_array_foreach(json_object_get(base, "knees"), i, bk) same_knee(&an, base, cur, bk);
	*matched = an.matched;
	snprintf(sum, sum_len, "%s answer: %d of %d points within ±%g%% or their 95%% interval",
	         an.differ ? "NOT the same" : "same", an.same_points, *matched, tol);
	sl = strlen(sum);
	if (an.knees)
		snprintf(sum + sl, sum_len - sl, ", %d of %d knees the same%s", an.same_knees,
		         an.knees, an.spread_knees ? " (some within the baseline's spread)" : "");
	sl = strlen(sum);
	if (an.fuse_knees)
		snprintf(sum + sl, sum_len - sl,
		         ", %d fuse-loop knee%s not judged (no recommendation)", an.fuse_knees,
		         an.fuse_knees == 1 ? "" : "s");
	printf("%s\n", sum);
	/* Every point moved alike: the machine between the two, more likely
	 * than the way of measuring (which moves some points, not all). */
	if (an.n_ratios > 2) {
		qsort(an.ratios, an.n_ratios, sizeof(double), cmp_double);
		printf("median current/baseline over the points: %.3f (%s)\n",
		       an.ratios[an.n_ratios / 2],
		       fabs(an.ratios[an.n_ratios / 2] - 1) * 100 > tol / 2
		           ? "the whole grid moved: compare on a quieter machine, or closer in time"
		           : "no shift of the whole grid");
	}
	free(an.ratios);
	return an.differ;
}

struct distrust_arg {
	const char *file;
};

/* What the run said, and what its figures say now (a result saved
 * before a kind existed, or with --explain=off): either distrusts. */
static int refuse_distrust(const char *key, const json_t *run, void *arg)
{
	const struct distrust_arg *a = arg;
	json_t *ex = ccb_saved_run_explain(run);
	const char *text = NULL;
	char tb[1024];
	int r = 0;

	if (!ccb_explain_has(ex, "distrust", &text)) {
		json_decref(ex);
		ex = ccb_explain(run, NULL);
	}
	if (ccb_explain_has(ex, "distrust", &text)) {
		fprintf(stderr,
		        "ccbench: compare: %s: point %s: distrust: %s; not a figure to gate on "
		        "(--allow-distrust gates on it anyway)\n",
		        a->file, key, ccb_text_esc(text ? text : "?", tb, sizeof(tb)));
		r = 1;
	}
	json_decref(ex);
	return r;
}

/*
 * Another Ceph release of the cluster or of the client libraries measures
 * another system: a regression (or an improvement) between them is the
 * release's, not the cluster's. Refused unless --allow-release-change.
 * Said, not refused: other versions of the same releases (16.2.14 and
 * 16.2.15), and a side that one document does not name -- a result saved
 * before ccbench recorded releases, or whose mon did not answer
 * "versions": an unknown release is not a different one, and the next
 * baseline names it. Returns 1 to refuse.
 */
static int refuse_release_change(const json_t *base, const json_t *cur, const char *base_file,
                                 const char *cur_file, bool allow)
{
	json_t *br = ccb_release_of_doc(base), *cr = ccb_release_of_doc(cur);
	char raw[512] = "", why[512];
	int refuse = 0;
	enum ccb_release_diff cmp = ccb_release_compare(br, cr, raw, sizeof(raw));

	/* The documents' release strings: escaped for the terminal. */
	ccb_text_esc(raw, why, sizeof(why));
	switch (cmp) {
	case CCB_RELEASE_CHANGED:
		if (!allow) {
			fprintf(stderr,
			        "ccbench: compare: %s and %s were measured with different Ceph "
			        "releases: %s; not a gate across releases "
			        "(--allow-release-change gates on it anyway)\n",
			        base_file, cur_file, why);
			refuse = 1;
		} else {
			fprintf(stderr,
			        "ccbench: compare: note: different Ceph releases: %s "
			        "(gated anyway: --allow-release-change)\n",
			        why);
		}
		break;
	case CCB_RELEASE_VERSIONS:
		fprintf(stderr, "ccbench: compare: note: the same releases, other versions: %s\n",
		        why);
		break;
	case CCB_RELEASE_UNKNOWN:
		fprintf(stderr,
		        "ccbench: compare: note: %s: the releases cannot be compared (a result "
		        "saved before ccbench recorded them names none)\n",
		        why[0] ? why : "neither file names its Ceph releases");
		break;
	case CCB_RELEASE_SAME:
		if (why[0])
			fprintf(stderr, "ccbench: compare: note: %s: not checked\n", why);
		break;
	}
	json_decref(br);
	json_decref(cr);
	return refuse;
}

/*
 * compare --html: the comparison as a document (kind "compare": the two
 * files, the metric, the tolerance, a row per point and knee, the summary
 * and both sides' releases), written as a page by html.c.
 */
static int compare_html(const struct ccb_opts *o, const char *base_file, const char *cur_file,
                        const json_t *base, const json_t *cur, enum cmp_metric m, json_t *rows,
                        const char *sum)
{
	bool cap =
	    ccb_capacity_is_doc(base) || ccb_sweep_is_capacity(json_object_get(base, "config"));
	bool p99 = m == M_P99;
	json_t *doc =
	    json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b, s:O, s:s, s:{s:o, s:o}}", "kind",
	              "compare", "baseline", base_file, "current", cur_file, "metric",
	              cap   ? (p99 ? "response p99 at 70 % of capacity (us)" : "capacity (ops/s)")
	              : p99 ? "p99 latency (us)"
	              : m == M_PAUSE        ? "the I/O pause after a fault (s)"
	              : m == M_RECOVERY_P99 ? "p99 while the cluster recovered (us)"
	              : m == M_OSD_P99      ? "p99 of an OSD's ops (us)"
	                                    : "bandwidth (MiB/s)",
	              "tolerance", o->tolerance ? o->tolerance : "", "ccbench_version", CCB_VERSION,
	              "same_answer", o->same_answer, "rows", rows, "summary", sum, "releases",
	              "baseline", ccb_release_of_doc(base), "current", ccb_release_of_doc(cur));
	int r;

	if (!doc)
		return -ENOMEM;
	r = ccb_report_to_file(o->html_file, "--html", doc, ccb_html_render);
	json_decref(doc);
	return r;
}

int ccb_compare_parse_tolerance(const char *text, double *pct)
{
	char *end;
	double tol;

	if (!text)
		return -EINVAL;
	errno = 0;
	tol = strtod(text, &end);
	/* strtod takes "nan" and "inf": a NaN passes every range check and
	 * then compares false, so a 99 % drop would read "ok". */
	if (end == text || (*end && strcmp(end, "%") != 0) || errno == ERANGE || !isfinite(tol) ||
	    tol < 0 || tol > 1000)
		return -EINVAL;
	*pct = tol;
	return 0;
}

/* The gate: a line and a row per point, the regressions, failures and
 * matches counted. Bandwidth regresses downwards, the others (@p lower)
 * upwards. */
static void gate_points(const json_t *bp, const json_t *cp, double tol, bool lower,
                        const char *cur_name, json_t *rows, int *matched, int *failed,
                        int *regressed)
{
	const char *key;
	json_t *v;

	printf("%-60s %12s %12s %9s  %s\n", "point", "baseline", "current", "delta", "verdict");
	json_object_foreach((json_t *)bp, key, v)
	{
		json_t *c = json_object_get(cp, key);
		const char *bf = json_string_value(json_object_get(v, "failed"));
		const char *cf = json_string_value(json_object_get(c, "failed"));
		double b = json_number_value(json_object_get(v, "value")), x, delta;
		char bs[32], xs[32];
		const char *verdict;

		snprintf(bs, sizeof(bs), bf ? "-" : "%.2f", b);
		if (!c) {
			printf("%-60s %12s %12s %9s  missing in %s\n", key, bs, "-", "-", cur_name);
			row(rows, key, bf ? NAN : b, NAN, NAN, "missing in the current result");
			continue;
		}
		++*matched;
		x = json_number_value(json_object_get(c, "value"));
		snprintf(xs, sizeof(xs), cf ? "-" : "%.2f", x);
		if (bf || cf) {
			/* No figure to compare: the gate cannot pass on it. */
			++*failed;
			printf("%-60s %12s %12s %9s  FAILED (%s%s%s%s%s)\n", key, bs, xs, "-",
			       bf ? "baseline: " : "", bf ? bf : "", bf && cf ? ", " : "",
			       cf ? "current: " : "", cf ? cf : "");
			row(rows, key, bf ? NAN : b, cf ? NAN : x, NAN, "FAILED");
			continue;
		}
		delta = b != 0 ? (x - b) / b * 100 : 0;
		/* Bandwidth regresses downwards, latency and pauses upwards. */
		bool worse = lower ? delta > tol : delta < -tol;
		bool better = lower ? delta < -tol : delta > tol;
		verdict = worse ? "REGRESSED" : better ? "improved" : "ok";
		*regressed += worse;
		printf("%-60s %12.2f %12.2f %+8.1f%%  %s\n", key, b, x, delta, verdict);
		row(rows, key, b, x, delta, verdict);
	}
}

int ccb_compare_command(const struct ccb_cli *cli)
{
	const struct ccb_opts *o = &cli->opts;
	char err[512];
	json_t *base, *cur = NULL, *bp = NULL, *cp = NULL;
	enum cmp_metric m = !o->metric                               ? M_BANDWIDTH
	                    : strcmp(o->metric, "p99") == 0          ? M_P99
	                    : strcmp(o->metric, "pause") == 0        ? M_PAUSE
	                    : strcmp(o->metric, "recovery-p99") == 0 ? M_RECOVERY_P99
	                    : strcmp(o->metric, "osd-p99") == 0      ? M_OSD_P99
	                                                             : M_BANDWIDTH;
	int osd_id = ccb_opt_given(o, "osd") ? (int)o->osd_id : -1;
	bool p99 = m == M_P99, lower = m != M_BANDWIDTH;
	double tol;
	int regressed = 0, failed = 0, matched = 0, status;
	json_t *rows = NULL;
	char sum[512] = "";

	if (osd_id >= 0 && m != M_OSD_P99) {
		fprintf(stderr, "ccbench: --osd %d: only with --metric osd-p99\n", osd_id);
		return 2;
	}
	if (ccb_compare_parse_tolerance(o->tolerance, &tol) < 0) {
		fprintf(stderr,
		        "ccbench: --tolerance '%s': expected a finite percentage from 0 to 1000, "
		        "such as 10%%\n",
		        o->tolerance ? o->tolerance : "");
		return 2;
	}
	base = ccb_saved_load_result(cli->args[0], err, sizeof(err));
	if (!base) {
		fprintf(stderr, "ccbench: compare: %s\n", err);
		return 2;
	}
	cur = ccb_saved_load_result(cli->args[1], err, sizeof(err));
	if (!cur) {
		fprintf(stderr, "ccbench: compare: %s\n", err);
		json_decref(base);
		return 2;
	}
	/* A point its own result distrusts (a cached read, a saturated
	 * client) is not a measurement of the cluster: no gate on it. */
	if (!o->allow_distrust) {
		struct distrust_arg da = {cli->args[0]};
		int refused = ccb_saved_each_run(base, refuse_distrust, &da);

		da.file = cli->args[1];
		if (!refused)
			refused = ccb_saved_each_run(cur, refuse_distrust, &da);
		if (refused) {
			json_decref(base);
			json_decref(cur);
			return 2;
		}
	}
	if (refuse_release_change(base, cur, cli->args[0], cli->args[1], o->allow_release_change)) {
		json_decref(base);
		json_decref(cur);
		return 2;
	}
	rows = json_array();
	if (m >= M_PAUSE &&
	    (ccb_capacity_is_doc(base) || ccb_sweep_is_capacity(json_object_get(base, "config")))) {
		fprintf(stderr,
		        "ccbench: compare --metric %s: only for %s, not a capacity search\n",
		        o->metric, m == M_OSD_P99 ? "runs and sweeps" : "runs with --fault");
		json_decref(base);
		json_decref(cur);
		return 2;
	}
	bp = metric_points(base, m, osd_id);
	cp = metric_points(cur, m, osd_id);
	if (o->same_answer) {
		int differ = same_answer(base, cur, bp, cp, tol, cli->args[1], &matched, rows, sum,
		                         sizeof(sum));

		if (!matched || matched != (int)json_object_size(bp)) {
			fprintf(
			    stderr,
			    "ccbench: compare: %s and %s do not hold the same points (%d of %zu "
			    "matched)\n",
			    cli->args[0], cli->args[1], matched, json_object_size(bp));
			status = 2;
		} else {
			status = differ ? 1 : 0;
		}
		goto out;
	}
	gate_points(bp, cp, tol, lower, cli->args[1], rows, &matched, &failed, &regressed);
	if (!matched || matched != (int)json_object_size(bp)) {
		fprintf(stderr,
		        "ccbench: compare: %s and %s do not hold the same points (%d of %zu "
		        "matched)\n",
		        cli->args[0], cli->args[1], matched, json_object_size(bp));
		status = 2;
	} else {
		snprintf(sum, sizeof(sum), "%d of %d points regressed beyond %s (%s)", regressed,
		         matched, o->tolerance,
		         ccb_capacity_is_doc(base) ||
		                 ccb_sweep_is_capacity(json_object_get(base, "config"))
		             ? (p99 ? "response p99 at 70 % of capacity" : "capacity")
		         : p99                 ? "p99 latency"
		         : m == M_PAUSE        ? "the I/O pause after a fault"
		         : m == M_RECOVERY_P99 ? "p99 while the cluster recovered"
		         : m == M_OSD_P99      ? (osd_id >= 0 ? "p99 latency of the named OSD's ops"
		                                              : "p99 latency of the worst OSD's ops")
		                               : "bandwidth");
		if (failed) {
			size_t sl = strlen(sum);
			snprintf(sum + sl, sizeof(sum) - sl, ", %d failed (a run not ok)", failed);
		}
		printf("%s\n", sum);
		status = regressed || failed ? 1 : 0;
	}
out:
	if (o->html_file && status != 2 &&
	    compare_html(o, cli->args[0], cli->args[1], base, cur, m, rows, sum) < 0)
		status = status ? status : 1;
	json_decref(rows);
	json_decref(bp);
	json_decref(cp);
	json_decref(base);
	json_decref(cur);
	return status;
}

int ccb_compare_run(const struct ccb_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return ccb_compare_command(cli);
}

/* The compare command's row. */
const struct ccb_command ccb_compare_commands[] = {
    {
        .name = "compare",
        .mask = CCB_CMD_COMPARE,
        .mode = CCB_MODE_SEQ,
        .n_args = 2,
        .args_help = "BASELINE.json CURRENT.json",
        .args_kind = CCB_ARG_FILE,
        .summary = "compare a result against a baseline; exit 1 on regression",
        .description =
            "Compares a result with a baseline point by point on --metric and exits 1 when a "
            "point is worse by more than --tolerance or failed. Results whose points do not "
            "match, and points whose explain says distrust (unless --allow-distrust), are "
            "refused with exit 2.",
        .example = "ccbench compare baseline.json current.json --tolerance 10%",
        .run = ccb_compare_run,
    },
    {0},
};
