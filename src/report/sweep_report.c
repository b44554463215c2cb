/*
 * Views of a saved sweep (the JSON document ccb_sweep_command writes):
 * the seed-002-shaped table, CSV, SVG; `ccbench report` to re-render one;
 * `ccbench compare` to gate a run against a baseline. Everything here reads
 * only the document, so a view never disagrees with the JSON.
 */
#include <ccbench/chart.h>
#include <ccbench/explain.h>
#include <ccbench/report.h>
#include <ccbench/sweep.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *str_or(const json_t *v, const char *dflt)
{
	const char *s = json_string_value(v);
	return s ? s : dflt;
}

static const char *label_of(const json_t *v, char *buf, size_t len)
{
	if (json_is_string(v))
		return json_string_value(v);
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(buf, len, "-");
	return buf;
}

/* "order=20 path=librbd": a point's matrix values other than the row key. */
static void series_label(const json_t *matrix, const char *row_key, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	char vb[64];

	buf[0] = '\0';
	json_object_foreach((json_t *)matrix, key, v)
	{
		size_t l = strlen(buf);
		if (strcmp(key, row_key) == 0)
			continue;
		snprintf(buf + l, len - l, "%s%s=%s", l ? " " : "", key,
		         label_of(v, vb, sizeof(vb)));
	}
	if (!buf[0])
		snprintf(buf, len, "MiB/s");
}

static double agg(const json_t *pt, const char *what, const char *stat)
{
	return json_number_value(
	    json_object_get(json_object_get(json_object_get(pt, "aggregate"), what), stat));
}

/* Distinct labels in order of first appearance. */
static json_t *distinct(const json_t *points, const char *row_key, bool rows)
{
	json_t *out = json_array(), *p;
	size_t i;
	char buf[256], vb[64];

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *m = json_object_get(p, "matrix");
		const char *l = rows ? label_of(json_object_get(m, row_key), vb, sizeof(vb)) : buf;
		bool found = false;
		size_t j;
		json_t *e;

		if (!rows)
			series_label(m, row_key, buf, sizeof(buf));
		json_array_foreach(out, j, e) found |= strcmp(json_string_value(e), l) == 0;
		if (!found)
			json_array_append_new(out, json_string(l));
	}
	return out;
}

static const json_t *find_point(const json_t *points, const char *row_key, const char *row,
                                const char *col)
{
	json_t *p;
	size_t i;
	char buf[256], vb[64];

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *m = json_object_get(p, "matrix");
		series_label(m, row_key, buf, sizeof(buf));
		if (strcmp(label_of(json_object_get(m, row_key), vb, sizeof(vb)), row) == 0 &&
		    strcmp(buf, col) == 0)
			return p;
	}
	return NULL;
}

static bool is_knee(const json_t *doc, const json_t *pt, const char *row_key)
{
	const json_t *m = json_object_get(pt, "matrix"), *k;
	size_t i;

	json_array_foreach(json_object_get(doc, "knees"), i, k)
	{
		json_t *s = json_deep_copy(m);
		json_object_del(s, row_key);
		bool same = json_equal(s, json_object_get(k, "series")) &&
		            json_equal(json_object_get(m, row_key), json_object_get(k, "value"));
		json_decref(s);
		if (same)
			return true;
	}
	return false;
}

static void table(const json_t *doc, FILE *out, const char *what, const char *title,
                  const char *unit_scale)
{
	const json_t *points = json_object_get(doc, "points");
	const char *row_key = json_string_value(json_object_get(doc, "row_key"));
	json_t *rows = distinct(points, row_key, true), *cols = distinct(points, row_key, false);
	json_t *r, *c;
	size_t i, j;
	double scale = unit_scale ? atof(unit_scale) : 1;

	fprintf(out, "%s\n%-14s", title, row_key);
	json_array_foreach(cols, j, c) fprintf(out, "  %24s", json_string_value(c));
	fputc('\n', out);
	json_array_foreach(rows, i, r)
	{
		fprintf(out, "%-14s", json_string_value(r));
		json_array_foreach(cols, j, c)
		{
			const json_t *p =
			    find_point(points, row_key, json_string_value(r), json_string_value(c));
			char cell[64] = "-";
			if (p && json_integer_value(json_object_get(json_object_get(p, "aggregate"),
			                                            "runs_ok")) > 0) {
				bool knee = what[0] == 'b' && is_knee(doc, p, row_key);
				if (strcmp(what, "latency") == 0)
					snprintf(cell, sizeof(cell), "%.2f / %.2f",
					         agg(p, "latency_p50_us", "mean") / 1e3,
					         agg(p, "latency_p99_us", "mean") / 1e3);
				else
					snprintf(cell, sizeof(cell), "%s%.1f ± %.1f",
					         knee ? "*" : "", agg(p, what, "mean") * scale,
					         agg(p, what, "stddev") * scale);
			}
			fprintf(out, "  %24s", cell);
		}
		fputc('\n', out);
	}
	json_decref(rows);
	json_decref(cols);
}

/*
 * Footnotes: per point, each warn or distrust kind its runs said (the
 * first run's text), so a table figure that should not be trusted says
 * so under the table. Info lines: `ccbench explain FILE`.
 */
static void sweep_why(const json_t *doc, FILE *out)
{
	const json_t *p, *run, *e;
	size_t i, j, k;
	bool header = false;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_t *said = json_object();
		char *m = json_dumps(json_object_get(p, "matrix"), JSON_SORT_KEYS | JSON_COMPACT);

		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			/* What the run stored: none with --explain=off. */
			json_array_foreach(json_object_get(run, "explain"), k, e)
			{
				const char *sev = str_or(json_object_get(e, "severity"), "info");
				const char *kind = str_or(json_object_get(e, "kind"), "?");
				char tag[96];

				if (strcmp(sev, "info") == 0)
					continue;
				snprintf(tag, sizeof(tag), "%s:%s", kind, sev);
				if (json_object_get(said, tag))
					continue;
				json_object_set_new(said, tag, json_true());
				if (!header)
					fprintf(out, "\nwhy (warnings; all lines: ccbench explain "
					             "FILE)\n");
				header = true;
				fprintf(out, "  [%zu] %s: %s%s\n", i + 1, m ? m : "?",
				        strcmp(sev, "distrust") == 0 ? "DISTRUST: " : "warning: ",
				        str_or(json_object_get(e, "text"), ""));
			}
		}
		free(m);
		json_decref(said);
	}
}

/* The knee's neighbours within 2 standard errors of the difference are
 * not told apart by the repeats (about 95 % for a normal spread). */
#define KNEE_SE_FACTOR 2.0

/* Whether knee point @p k and neighbour @p q differ by more than the
 * repeats' spread, and else how many repeats would tell them apart. */
static void knee_vs(const json_t *k, const json_t *q, const char *row_key, FILE *out)
{
	double mk = agg(k, "bandwidth_mib_s", "mean"), sk = agg(k, "bandwidth_mib_s", "stddev");
	double mq = agg(q, "bandwidth_mib_s", "mean"), sq = agg(q, "bandwidth_mib_s", "stddev");
	double nk =
	    (double)json_integer_value(json_object_get(json_object_get(k, "aggregate"), "runs_ok"));
	double nq =
	    (double)json_integer_value(json_object_get(json_object_get(q, "aggregate"), "runs_ok"));
	double diff = fabs(mk - mq), se;
	char vb[64];

	if (nq < 1)
		return;
	se = sqrt(sk * sk / nk + (nq > 1 ? sq * sq / nq : sk * sk / nk));
	fprintf(out,
	        "  vs %s %s: %.1f ± %.1f (%.0f runs), difference %.1f, %.0f × its standard "
	        "error %.1f: ",
	        row_key,
	        label_of(json_object_get(json_object_get(q, "matrix"), row_key), vb, sizeof(vb)),
	        mq, sq, nq, diff, KNEE_SE_FACTOR, KNEE_SE_FACTOR * se);
	if (diff > KNEE_SE_FACTOR * se) {
		fprintf(out, "distinguishable\n");
		return;
	}
	/* Same spread, n repeats of each: 2 x sqrt((sk^2 + sq^2) / n) < diff. */
	double var = sk * sk + (nq > 1 ? sq * sq : sk * sk);
	if (diff <= 0 || var <= 0) {
		fprintf(out, "not distinguishable (the same figure)\n");
		return;
	}
	fprintf(out, "not distinguishable; about %.0f repeats would tell them apart%s\n",
	        floor(KNEE_SE_FACTOR * KNEE_SE_FACTOR * var / (diff * diff)) + 1,
	        diff < 0.01 * mk ? " (they differ by under 1 %)" : "");
}

/*
 * For sweeps with repeats: is the knee told apart from the row values
 * before and after it in its series, given the repeats' stddev? The step
 * up to the knee should be; the plateau after it need not (that is what
 * makes it the knee). Said from the document alone, so old sweeps get it.
 */
static void knee_confidence(const json_t *doc, FILE *out)
{
	const char *row_key = json_string_value(json_object_get(doc, "row_key"));
	const json_t *points = json_object_get(doc, "points"), *k, *p;
	size_t i, j;
	char buf[256], vb[64];

	json_array_foreach(json_object_get(doc, "knees"), i, k)
	{
		const json_t *prev = NULL, *knee = NULL, *next = NULL;

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
		if (!knee || (!prev && !next))
			continue;
		series_label(json_object_get(k, "series"), row_key, buf, sizeof(buf));
		json_int_t n = json_integer_value(
		    json_object_get(json_object_get(knee, "aggregate"), "runs_ok"));
		fprintf(out, "%sknee confidence (%s): %s %s, %.1f ± %.1f (%lld run%s)",
		        i ? "" : "\n", buf, row_key,
		        label_of(json_object_get(k, "value"), vb, sizeof(vb)),
		        agg(knee, "bandwidth_mib_s", "mean"),
		        agg(knee, "bandwidth_mib_s", "stddev"), (long long)n, n == 1 ? "" : "s");
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

void ccb_sweep_render_text(const json_t *doc, FILE *out)
{
	const json_t *cfg = json_object_get(doc, "config"), *k, *p;
	const char *row_key = json_string_value(json_object_get(doc, "row_key"));
	bool any_tradeoff = false;
	size_t i;
	char buf[256], vb[64];

	fprintf(
	    out, "sweep %s: %s, %lld points x %lld repeats (%s), status %s\n",
	    str_or(json_object_get(cfg, "name"), str_or(json_object_get(doc, "config_file"), "")),
	    json_string_value(json_object_get(cfg, "command")),
	    (long long)json_array_size(json_object_get(doc, "points")),
	    (long long)json_integer_value(json_object_get(doc, "repeat")),
	    json_string_value(json_object_get(doc, "order")),
	    json_string_value(json_object_get(doc, "status")));
	table(
	    doc, out, "bandwidth_mib_s",
	    "\nMiB/s, mean ± stddev over repeats (* = knee: smallest value within 5% of the best)",
	    NULL);
	table(doc, out, "latency", "\nlatency p50 / p99 (ms), mean over repeats", NULL);
	json_array_foreach(json_object_get(doc, "points"), i, p) any_tradeoff |=
	    json_object_get(json_object_get(p, "aggregate"), "tradeoff_randread_4k") != NULL;
	if (any_tradeoff) {
		fprintf(out, "\nthe cost: 4K random read latency p99 (ms) at each setting\n");
		/* Re-use the table code on the tradeoff aggregate. */
		json_t *copy = json_deep_copy(doc);
		json_array_foreach(json_object_get(copy, "points"), i, p)
		{
			json_t *a = json_object_get(p, "aggregate");
			json_t *t =
			    json_object_get(json_object_get(a, "tradeoff_randread_4k"), "p99_us");
			if (t)
				json_object_set(a, "tradeoff_p99", t);
		}
		table(copy, out, "tradeoff_p99", "", "0.001");
		json_decref(copy);
	}
	json_array_foreach(json_object_get(doc, "knees"), i, k)
	{
		series_label(json_object_get(k, "series"), row_key, buf, sizeof(buf));
		fprintf(out, "%srecommendation (%s): %s %s, %.1f MiB/s (best %.1f)\n",
		        i ? "" : "\n", buf, row_key,
		        label_of(json_object_get(k, "value"), vb, sizeof(vb)),
		        json_number_value(json_object_get(k, "bandwidth_mib_s")),
		        json_number_value(json_object_get(k, "best_mib_s")));
	}
	knee_confidence(doc, out);
	sweep_why(doc, out);
}

/* A point's explain column: each kind:severity its runs say, once. */
static void point_explain(const json_t *p, char *buf, size_t len)
{
	const json_t *run;
	size_t i, o = 0;

	buf[0] = '\0';
	json_array_foreach(json_object_get(p, "runs"), i, run)
	{
		char one[512], *tok, *save = NULL;

		/* What the run stored: none with --explain=off. */
		ccb_explain_summary(json_object_get(run, "explain"), one, sizeof(one));
		for (tok = strtok_r(one, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
			char want[128];
			int n;

			snprintf(want, sizeof(want), ";%s;", tok);
			/* buf is ";a;b" while built: look for ";tok;" in buf + ";". */
			char probe[1100];
			snprintf(probe, sizeof(probe), "%s;", buf);
			if (strstr(probe, want))
				continue;
			n = snprintf(buf + o, len - o, ";%s", tok);
			if (n < 0 || (size_t)n >= len - o)
				break;
			o += (size_t)n;
		}
	}
	if (buf[0] == ';')
		memmove(buf, buf + 1, strlen(buf));
}

int ccb_sweep_render_csv(const json_t *doc, FILE *out)
{
	const json_t *points = json_object_get(doc, "points"), *p;
	json_t *keys = json_array(), *k;
	size_t i, j;
	const char *key;
	json_t *v;
	char vb[64], eb[1024];

	json_array_foreach((json_t *)points, i, p)
	{
		json_object_foreach(json_object_get(p, "matrix"), key, v)
		{
			bool found = false;
			json_array_foreach(keys, j, k) found |=
			    strcmp(json_string_value(k), key) == 0;
			if (!found)
				json_array_append_new(keys, json_string(key));
		}
	}
	fprintf(out, "point,command");
	json_array_foreach(keys, j, k) fprintf(out, ",%s", json_string_value(k));
	fprintf(out, ",runs,runs_ok,bandwidth_mib_s_mean,bandwidth_mib_s_stddev,"
	             "bandwidth_mib_s_min,bandwidth_mib_s_max,iops_mean,latency_p50_us_mean,"
	             "latency_p99_us_mean,tradeoff_4k_p99_us_mean,explain\n");
	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");
		const json_t *t =
		    json_object_get(json_object_get(a, "tradeoff_randread_4k"), "p99_us");
		fprintf(out, "%zu,%s", i + 1, json_string_value(json_object_get(p, "command")));
		json_array_foreach(keys, j, k) fprintf(
		    out, ",%s",
		    label_of(json_object_get(json_object_get(p, "matrix"), json_string_value(k)),
		             vb, sizeof(vb)));
		fprintf(out, ",%lld,%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
		        (long long)json_integer_value(json_object_get(a, "runs")),
		        (long long)json_integer_value(json_object_get(a, "runs_ok")),
		        agg(p, "bandwidth_mib_s", "mean"), agg(p, "bandwidth_mib_s", "stddev"),
		        agg(p, "bandwidth_mib_s", "min"), agg(p, "bandwidth_mib_s", "max"),
		        agg(p, "iops", "mean"), agg(p, "latency_p50_us", "mean"),
		        agg(p, "latency_p99_us", "mean"));
		if (t)
			fprintf(out, "%.3f", json_number_value(json_object_get(t, "mean")));
		point_explain(p, eb, sizeof(eb));
		fprintf(out, ",%s\n", eb);
	}
	json_decref(keys);
	return ferror(out) ? -EIO : 0;
}

/* A row value on the chart's x axis: sizes in KiB, numbers as they are. */
static double x_value(const json_t *v, bool *is_size)
{
	uint64_t b;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v) && ccb_parse_bytes(json_string_value(v), &b) == 0) {
		*is_size = true;
		return (double)b / 1024.0;
	}
	return NAN;
}

int ccb_sweep_render_svg(const json_t *doc, FILE *out)
{
	const json_t *points = json_object_get(doc, "points");
	const char *row_key = json_string_value(json_object_get(doc, "row_key"));
	json_t *cols = distinct(points, row_key, false), *c;
	size_t nc = json_array_size(cols), np = json_array_size(points), j;
	struct ccb_chart_series *ser = calloc(nc + 1, sizeof(*ser));
	double *xs = calloc(np * nc + 1, sizeof(double)), *ys = calloc(np * nc + 1, sizeof(double));
	double *es = calloc(np * nc + 1, sizeof(double));
	bool is_size = false, all_pos = true;
	char xt[128], title[256];
	int r;

	json_array_foreach(cols, j, c)
	{
		size_t i, n = 0;
		const json_t *p;
		char buf[256];

		ser[j].label = json_string_value(c);
		ser[j].x = xs + j * np;
		ser[j].y = ys + j * np;
		ser[j].err = es + j * np;
		json_array_foreach((json_t *)points, i, p)
		{
			series_label(json_object_get(p, "matrix"), row_key, buf, sizeof(buf));
			if (strcmp(buf, ser[j].label) != 0)
				continue;
			double x = x_value(json_object_get(json_object_get(p, "matrix"), row_key),
			                   &is_size);
			if (isnan(x) || !json_integer_value(json_object_get(
			                    json_object_get(p, "aggregate"), "runs_ok")))
				continue;
			all_pos &= x >= 0;
			xs[j * np + n] = x;
			ys[j * np + n] = agg(p, "bandwidth_mib_s", "mean");
			es[j * np + n] = agg(p, "bandwidth_mib_s", "stddev");
			n++;
		}
		ser[j].n = n;
	}
	snprintf(xt, sizeof(xt), "%s%s", row_key,
	         is_size ? (all_pos ? " (KiB, log2 scale)" : " (KiB)") : "");
	/* A log2 axis can show 0 (readahead off) at its left end; negatives, never. */
	snprintf(title, sizeof(title), "%s: %s",
	         str_or(json_object_get(json_object_get(doc, "config"), "name"), "ccbench sweep"),
	         json_string_value(json_object_get(json_object_get(doc, "config"), "command")));
	struct ccb_chart ch = {.title = title,
	                       .x_title = xt,
	                       .y_title = "bandwidth (MiB/s), mean ± stddev",
	                       .x_log2 = is_size && all_pos,
	                       .series = ser,
	                       .n_series = nc};
	r = ccb_chart_svg(&ch, out);
	free(ser), free(xs), free(ys), free(es);
	json_decref(cols);
	return r;
}

/* ---- report and compare ---------------------------------------------------- */

/* `ccbench group report G -f json`'s document (ccb_group_aggregate()). */
static bool is_group_report(const json_t *doc)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));

	return kind && strcmp(kind, "group_report") == 0 &&
	       json_is_array(json_object_get(doc, "members"));
}

/* A result or a sweep (and, if @p group_ok, a group report). */
static json_t *load_doc(const char *path, bool group_ok, char *err, size_t err_len)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);

	if (!doc) {
		if (jerr.line > 0)
			snprintf(err, err_len, "%s:%d:%d: %s", path, jerr.line, jerr.column,
			         jerr.text);
		else
			snprintf(err, err_len, "%s", jerr.text);
		return NULL;
	}
	if (group_ok && is_group_report(doc))
		return doc;
	if (!json_is_object(doc) ||
	    (!json_object_get(doc, "points") && !json_object_get(doc, "bandwidth_mib_s"))) {
		snprintf(err, err_len, "%s: not a ccbench result%s", path,
		         group_ok ? ", sweep or group report" : " or sweep");
		json_decref(doc);
		return NULL;
	}
	return doc;
}

static json_t *load_result(const char *path, char *err, size_t err_len)
{
	return load_doc(path, false, err, err_len);
}

static int single_csv(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_CSV, f);
}

int ccb_report_command(const struct ccb_cli *cli)
{
	const struct ccb_opts *o = &cli->opts;
	char err[512];
	json_t *doc = load_result(cli->args[0], err, sizeof(err));
	bool sweep;
	int r = 0;

	if (!doc) {
		fprintf(stderr, "ccbench: report: %s\n", err);
		return 2;
	}
	sweep = json_object_get(doc, "points") != NULL;
	/* report --explain=off: the views without the why lines. */
	if (o->explain && strcmp(o->explain, "off") == 0) {
		const json_t *p;
		json_t *run;
		size_t i, j;

		json_object_del(doc, "explain");
		json_array_foreach(json_object_get(doc, "points"), i, p)
		    json_array_foreach(json_object_get(p, "runs"), j, run)
		        json_object_del(run, "explain");
	}
	if (o->svg_file && !sweep) {
		fprintf(stderr, "ccbench: report --svg: %s is a single run, not a sweep\n",
		        cli->args[0]);
		json_decref(doc);
		return 2;
	}
	if (o->svg_file)
		r |= ccb_report_to_file(o->svg_file, "--svg", doc, ccb_sweep_render_svg);
	if (o->csv_file)
		r |= ccb_report_to_file(o->csv_file, "--csv", doc,
		                        sweep ? ccb_sweep_render_csv : single_csv);
	if (!sweep)
		r |= ccb_report_emit(doc, o);
	else if (o->format == CCB_FMT_JSON)
		r |= json_dumpf(doc, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
	else if (o->format == CCB_FMT_CSV)
		r |= ccb_sweep_render_csv(doc, stdout);
	else
		ccb_sweep_render_text(doc, stdout);
	json_decref(doc);
	return r ? 1 : 0;
}

/*
 * Points of a result: key (command + matrix values) -> {"value": the
 * metric} or {"failed": why}. A run whose status is not "ok" (aborted,
 * interrupted), and a sweep point any of whose runs was not, is a failed
 * point: its figure is not a measurement to gate on.
 */
static json_t *metric_points(const json_t *doc, bool p99)
{
	json_t *out = json_object(), *p;
	size_t i;

	if (!json_object_get(doc, "points")) {
		const char *st = json_string_value(json_object_get(doc, "status"));
		double v = p99 ? json_number_value(
		                     json_object_get(json_object_get(doc, "latency_us"), "p99"))
		               : json_number_value(json_object_get(doc, "bandwidth_mib_s"));
		char why[96];

		snprintf(why, sizeof(why), "status %s", st ? st : "missing");
		json_object_set_new(out, str_or(json_object_get(doc, "command"), "run"),
		                    st && strcmp(st, "ok") == 0
		                        ? json_pack("{s:f}", "value", v)
		                        : json_pack("{s:s}", "failed", why));
		return out;
	}
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		char *m = json_dumps(json_object_get(p, "matrix"), JSON_SORT_KEYS | JSON_COMPACT);
		const json_t *a = json_object_get(p, "aggregate");
		json_int_t runs = json_integer_value(json_object_get(a, "runs"));
		json_int_t ok = json_integer_value(json_object_get(a, "runs_ok"));
		char key[1024], why[96];

		snprintf(key, sizeof(key), "%s %s",
		         json_string_value(json_object_get(p, "command")), m ? m : "?");
		free(m);
		if (ok <= 0 || ok < runs) {
			snprintf(why, sizeof(why), "%lld of %lld runs ok", (long long)ok,
			         (long long)runs);
			json_object_set_new(out, key, json_pack("{s:s}", "failed", why));
			continue;
		}
		json_object_set_new(out, key,
		                    json_pack("{s:f}", "value",
		                              p99 ? agg(p, "latency_p99_us", "mean")
		                                  : agg(p, "bandwidth_mib_s", "mean")));
	}
	return out;
}

/* A run's explain list: the stored one, else (an older result, or one run
 * with --explain=off) re-derived from its figures. New reference. */
static json_t *run_explain(const json_t *run)
{
	json_t *ex = json_object_get(run, "explain");

	return json_is_array(ex) ? json_incref(ex) : ccb_explain(run, NULL);
}

/* The runs of @p doc, each with the key its point has in metric_points():
 * calls @p fn(key, run, arg) until it returns nonzero, and returns that. */
static int each_run(const json_t *doc, int (*fn)(const char *, const json_t *, void *), void *arg)
{
	const json_t *p, *run;
	size_t i, j;
	int r = 0;

	if (!json_object_get(doc, "points"))
		return fn(str_or(json_object_get(doc, "command"), "run"), doc, arg);
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		char *m = json_dumps(json_object_get(p, "matrix"), JSON_SORT_KEYS | JSON_COMPACT);
		char key[1024];

		snprintf(key, sizeof(key), "%s %s",
		         json_string_value(json_object_get(p, "command")), m ? m : "?");
		free(m);
		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			r = fn(key, run, arg);
			if (r)
				return r;
		}
	}
	return 0;
}

struct distrust_arg {
	const char *file;
};

/* What the run said, and what its figures say now (a result saved
 * before a kind existed, or with --explain=off): either distrusts. */
static int refuse_distrust(const char *key, const json_t *run, void *arg)
{
	const struct distrust_arg *a = arg;
	json_t *ex = run_explain(run);
	const char *text = NULL;
	int r = 0;

	if (!ccb_explain_has(ex, "distrust", &text)) {
		json_decref(ex);
		ex = ccb_explain(run, NULL);
	}
	if (ccb_explain_has(ex, "distrust", &text)) {
		fprintf(stderr,
		        "ccbench: compare: %s: point %s: distrust: %s; not a figure to gate on "
		        "(--allow-distrust gates on it anyway)\n",
		        a->file, key, text ? text : "?");
		r = 1;
	}
	json_decref(ex);
	return r;
}

struct explain_arg {
	bool json, sweep;
	json_t *out;
};

static int print_explain(const char *key, const json_t *run, void *arg)
{
	struct explain_arg *a = arg;
	json_t *ex = ccb_explain(run, NULL);

	if (!ex)
		return -ENOMEM;
	if (a->json) {
		json_array_append_new(a->out, json_pack("{s:s, s:o}", "point", key, "explain", ex));
		return 0;
	}
	if (a->sweep)
		printf("%s\n", key);
	if (!json_array_size(ex))
		printf("%-18s nothing to say: no limit found\n", "why");
	ccb_explain_write_text(ex, stdout);
	json_decref(ex);
	return 0;
}

/* A group report: each member's list, then the aggregate's, each under
 * its name as a sweep's points are (JSON: [{point, explain}]). */
static int explain_group(const json_t *doc, bool json)
{
	json_t *lists = ccb_explain_group_rederive(doc), *p;
	size_t i;
	int r = 0;

	if (!lists)
		return -ENOMEM;
	if (json) {
		r = json_dumpf(lists, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
		fputc('\n', stdout);
	} else {
		json_array_foreach(lists, i, p)
		{
			printf("%s\n", json_string_value(json_object_get(p, "point")));
			if (!json_array_size(json_object_get(p, "explain")))
				printf("%-18s nothing to say: no limit found\n", "why");
			ccb_explain_write_text(json_object_get(p, "explain"), stdout);
		}
	}
	if (fflush(stdout) != 0)
		r = -EIO;
	json_decref(lists);
	return r;
}

int ccb_explain_command(const struct ccb_cli *cli)
{
	char err[512];
	json_t *doc = load_doc(cli->args[0], true, err, sizeof(err));
	struct explain_arg a = {.json = cli->opts.format == CCB_FMT_JSON};
	int r;

	if (!doc) {
		fprintf(stderr, "ccbench: explain: %s\n", err);
		return 2;
	}
	if (is_group_report(doc)) {
		r = explain_group(doc, a.json);
		json_decref(doc);
		return r ? 1 : 0;
	}
	a.sweep = json_object_get(doc, "points") != NULL;
	a.out = json_array();
	r = each_run(doc, print_explain, &a);
	if (r == 0 && a.json) {
		json_t *o = a.sweep
		                ? json_incref(a.out)
		                : json_incref(json_object_get(json_array_get(a.out, 0), "explain"));
		r = json_dumpf(o, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
		fputc('\n', stdout);
		json_decref(o);
	}
	if (fflush(stdout) != 0)
		r = -EIO;
	json_decref(a.out);
	json_decref(doc);
	return r ? 1 : 0;
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

int ccb_compare_command(const struct ccb_cli *cli)
{
	const struct ccb_opts *o = &cli->opts;
	char err[512];
	json_t *base, *cur = NULL, *bp = NULL, *cp = NULL, *v;
	bool p99 = o->metric && strcmp(o->metric, "p99") == 0;
	double tol;
	const char *key;
	int regressed = 0, failed = 0, matched = 0, status;

	if (ccb_compare_parse_tolerance(o->tolerance, &tol) < 0) {
		fprintf(stderr,
		        "ccbench: --tolerance '%s': expected a finite percentage from 0 to 1000, "
		        "such as 10%%\n",
		        o->tolerance ? o->tolerance : "");
		return 2;
	}
	base = load_result(cli->args[0], err, sizeof(err));
	if (!base) {
		fprintf(stderr, "ccbench: compare: %s\n", err);
		return 2;
	}
	cur = load_result(cli->args[1], err, sizeof(err));
	if (!cur) {
		fprintf(stderr, "ccbench: compare: %s\n", err);
		json_decref(base);
		return 2;
	}
	/* A point its own result distrusts (a cached read, a saturated
	 * client) is not a measurement of the cluster: no gate on it. */
	if (!o->allow_distrust) {
		struct distrust_arg da = {cli->args[0]};
		int refused = each_run(base, refuse_distrust, &da);

		da.file = cli->args[1];
		if (!refused)
			refused = each_run(cur, refuse_distrust, &da);
		if (refused) {
			json_decref(base);
			json_decref(cur);
			return 2;
		}
	}
	bp = metric_points(base, p99);
	cp = metric_points(cur, p99);
	printf("%-60s %12s %12s %9s  %s\n", "point", "baseline", "current", "delta", "verdict");
	json_object_foreach(bp, key, v)
	{
		json_t *c = json_object_get(cp, key);
		const char *bf = json_string_value(json_object_get(v, "failed"));
		const char *cf = json_string_value(json_object_get(c, "failed"));
		double b = json_number_value(json_object_get(v, "value")), x, delta;
		char bs[32], xs[32];
		const char *verdict;

		snprintf(bs, sizeof(bs), bf ? "-" : "%.2f", b);
		if (!c) {
			printf("%-60s %12s %12s %9s  missing in %s\n", key, bs, "-", "-",
			       cli->args[1]);
			continue;
		}
		matched++;
		x = json_number_value(json_object_get(c, "value"));
		snprintf(xs, sizeof(xs), cf ? "-" : "%.2f", x);
		if (bf || cf) {
			/* No figure to compare: the gate cannot pass on it. */
			failed++;
			printf("%-60s %12s %12s %9s  FAILED (%s%s%s%s%s)\n", key, bs, xs, "-",
			       bf ? "baseline: " : "", bf ? bf : "", bf && cf ? ", " : "",
			       cf ? "current: " : "", cf ? cf : "");
			continue;
		}
		delta = b != 0 ? (x - b) / b * 100 : 0;
		/* Bandwidth regresses downwards, latency upwards. */
		bool worse = p99 ? delta > tol : delta < -tol;
		bool better = p99 ? delta < -tol : delta > tol;
		verdict = worse ? "REGRESSED" : better ? "improved" : "ok";
		regressed += worse;
		printf("%-60s %12.2f %12.2f %+8.1f%%  %s\n", key, b, x, delta, verdict);
	}
	if (!matched || matched != (int)json_object_size(bp)) {
		fprintf(stderr,
		        "ccbench: compare: %s and %s do not hold the same points (%d of %zu "
		        "matched)\n",
		        cli->args[0], cli->args[1], matched, json_object_size(bp));
		status = 2;
	} else {
		printf("%d of %d points regressed beyond %s (%s)", regressed, matched, o->tolerance,
		       p99 ? "p99 latency" : "bandwidth");
		if (failed)
			printf(", %d failed (a run not ok)", failed);
		printf("\n");
		status = regressed || failed ? 1 : 0;
	}
	json_decref(bp);
	json_decref(cp);
	json_decref(base);
	json_decref(cur);
	return status;
}
