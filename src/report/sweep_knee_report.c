/*
 * How sure a sweep's knee is (its text view's last lines): told apart by
 * the repeats from the row values beside it, or, on a row axis of names,
 * the best value against each other one; and how many repeats would tell
 * them apart. compare --same-answer asks the same of two sweeps. Reads
 * only the document, as every view does.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/units.h>

#include "sweep_int.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The knee's neighbours within 2 standard errors of the difference are
 * not told apart by the repeats (about 95 % for a normal spread). */
#define KNEE_SE_FACTOR 2.0

/* A point's bandwidth over its repeats: mean, standard deviation, runs. */
struct spread {
	double mean, sd, n;
};

static struct spread spread_of(const json_t *p)
{
	return (struct spread){ccb_sweep_agg(p, "bandwidth_mib_s", "mean"),
	                       ccb_sweep_agg(p, "bandwidth_mib_s", "stddev"),
	                       (double)json_integer_value(
	                           json_object_get(json_object_get(p, "aggregate"), "runs_ok"))};
}

bool ccb_sweep_told_apart(const json_t *k, const json_t *q, double *diff, double *two_se)
{
	struct spread a = spread_of(k), b = spread_of(q);

	*diff = fabs(a.mean - b.mean);
	/* One run of q: its spread taken as k's. */
	*two_se = a.n >= 1 && b.n >= 1
	              ? KNEE_SE_FACTOR * sqrt(a.sd * a.sd / a.n +
	                                      (b.n > 1 ? b.sd * b.sd / b.n : a.sd * a.sd / a.n))
	              : 0;
	return *diff > *two_se;
}

/* Whether knee point @p k and neighbour @p q differ by more than the
 * repeats' spread, and else how many repeats would tell them apart. */
static void knee_vs(const json_t *k, const json_t *q, const char *row_key, FILE *out)
{
	struct spread a = spread_of(k), b = spread_of(q);
	double diff, two_se;
	bool apart = ccb_sweep_told_apart(k, q, &diff, &two_se);
	char vb[64], rk[64];

	if (b.n < 1)
		return;
	fprintf(out,
	        "  vs %s %s: %.1f ± %.1f (%.0f runs), difference %.1f, %.0f × its standard "
	        "error %.1f: ",
	        ccb_text_esc(row_key, rk, sizeof(rk)),
	        ccb_sweep_label_of(json_object_get(json_object_get(q, "matrix"), row_key), vb,
	                           sizeof(vb)),
	        b.mean, b.sd, b.n, diff, KNEE_SE_FACTOR, two_se);
	if (apart) {
		fprintf(out, "distinguishable\n");
		return;
	}
	/* Same spread, n repeats of each: 2 x sqrt((sk^2 + sq^2) / n) < diff. */
	double var = a.sd * a.sd + (b.n > 1 ? b.sd * b.sd : a.sd * a.sd);
	if (diff <= 0 || var <= 0) {
		fprintf(out, "not distinguishable (the same figure)\n");
		return;
	}
	fprintf(out, "not distinguishable; about %.0f repeats would tell them apart%s\n",
	        floor(KNEE_SE_FACTOR * KNEE_SE_FACTOR * var / (diff * diff)) + 1,
	        diff < 0.01 * a.mean ? " (they differ by under 1 %)" : "");
}

/* A recommendation of a categorical row axis: the best, not a knee. */
bool ccb_sweep_is_best(const json_t *k)
{
	const char *kind = json_string_value(json_object_get(k, "kind"));

	return kind && strcmp(kind, "best") == 0;
}

const json_t *ccb_sweep_series_point(const json_t *doc, const json_t *series, const json_t *value)
{
	/* A sweep without one: "", as its views read it. */
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_t *m = json_deep_copy(json_object_get(p, "matrix"));
		bool same;

		if (!m)
			return NULL;
		same = json_equal(json_object_get(m, row_key), value);
		json_object_del(m, row_key);
		same = same && json_equal(m, series);
		json_decref(m);
		if (same)
			return p;
	}
	return NULL;
}

/* The best of a categorical series against each other value: told apart
 * by the repeats, or how many would tell them apart. */
static void best_confidence(const json_t *doc, const json_t *k, bool first, FILE *out)
{
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	const json_t *best = ccb_sweep_series_point(doc, json_object_get(k, "series"),
	                                            json_object_get(k, "value")),
	             *o;
	char buf[256], vb[64], rk[64];
	size_t j;

	if (!best || !json_array_size(json_object_get(k, "others")))
		return;
	json_int_t n =
	    json_integer_value(json_object_get(json_object_get(best, "aggregate"), "runs_ok"));
	ccb_sweep_series_label(json_object_get(k, "series"), row_key, buf, sizeof(buf));
	fprintf(out, "%sconfidence (%s): %s %s, %.1f ± %.1f (%lld run%s)", first ? "\n" : "", buf,
	        ccb_text_esc(row_key, rk, sizeof(rk)),
	        ccb_sweep_label_of(json_object_get(k, "value"), vb, sizeof(vb)),
	        ccb_sweep_agg(best, "bandwidth_mib_s", "mean"),
	        ccb_sweep_agg(best, "bandwidth_mib_s", "stddev"), (long long)n, n == 1 ? "" : "s");
	if (n < 2) {
		fprintf(out, ": one run per point, no spread to judge by (give \"repeat\": 3 or "
		             "more)\n");
		return;
	}
	fputc('\n', out);
	json_array_foreach(json_object_get(k, "others"), j, o)
	{
		const json_t *q = ccb_sweep_series_point(doc, json_object_get(k, "series"),
		                                         json_object_get(o, "value"));
		if (q)
			knee_vs(best, q, row_key, out);
	}
}

/*
 * For sweeps with repeats: is the knee told apart from the row values
 * before and after it in its series, given the repeats' stddev? The step
 * up to the knee should be; the plateau after it need not (that is what
 * makes it the knee). Said from the document alone, so old sweeps get it.
 */
void ccb_sweep_knee_confidence(const json_t *doc, FILE *out)
{
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	const json_t *points = json_object_get(doc, "points"), *k, *p;
	size_t i, j;
	char buf[256], vb[64], rk[64];

	json_array_foreach(json_object_get(doc, "knees"), i, k)
	{
		const json_t *prev = NULL, *knee = NULL, *next = NULL;

		if (ccb_sweep_is_best(k)) {
			best_confidence(doc, k, i == 0, out);
			continue;
		}

		/* The knee's series in row order (points arrive in matrix order). */
		json_array_foreach(points, j, p)
		{
			json_t *s = json_deep_copy(json_object_get(p, "matrix"));
			json_object_del(s, row_key);
			bool same = json_equal(s, json_object_get(k, "series"));
			json_decref(s);
			if (!same || json_integer_value(json_object_get(
			                 json_object_get(p, "aggregate"), "runs_ok")) < 1)
				continue;
			if (knee) {
				next = p;
				break;
			}
			if (json_equal(json_object_get(json_object_get(p, "matrix"), row_key),
			               json_object_get(k, "value")))
				knee = p;
			else
				prev = p;
		}
		if (!knee || (!prev && !next) || ccb_sweep_point_fuse_loop(knee) ||
		    ccb_sweep_point_emulated_limit(knee))
			continue;
		ccb_sweep_series_label(json_object_get(k, "series"), row_key, buf, sizeof(buf));
		json_int_t n = json_integer_value(
		    json_object_get(json_object_get(knee, "aggregate"), "runs_ok"));
		fprintf(out, "%sknee confidence (%s): %s %s, %.1f ± %.1f (%lld run%s)",
		        i ? "" : "\n", buf, ccb_text_esc(row_key, rk, sizeof(rk)),
		        ccb_sweep_label_of(json_object_get(k, "value"), vb, sizeof(vb)),
		        ccb_sweep_agg(knee, "bandwidth_mib_s", "mean"),
		        ccb_sweep_agg(knee, "bandwidth_mib_s", "stddev"), (long long)n,
		        n == 1 ? "" : "s");
		if (n < 2) {
			fprintf(out, ": one run per point, no spread to judge the knee by (give "
			             "\"repeat\": 3 or more)\n");
			continue;
		}
		fputc('\n', out);
		if (prev)
			knee_vs(knee, prev, row_key, out);
		if (next)
			knee_vs(knee, next, row_key, out);
	}
}
