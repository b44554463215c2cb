/*
 * Views of a saved sweep (the JSON document ccb_sweep_command writes):
 * the seed-002-shaped table, CSV, SVG (the commands that load saved
 * documents are report_cmd.c, explain_cmd.c and compare_cmd.c).
 * Everything here reads only the document, so a view never disagrees
 * with the JSON.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/attr_json.h>
#include <ccbench/escape.h>
#include "chart.h"
#include <ccbench/explain.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include "sweep_space.h"
#include <ccbench/units.h>

#include "sweep_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Each point by "ROW\x1fCOLUMN", the first one of a cell, for the table's
 * cells in constant time each. */
json_t *ccb_sweep_cell_index(const json_t *points, const char *row_key)
{
	json_t *idx = json_object(), *p;
	size_t i;
	char buf[256], vb[64], key[400];

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *m = json_object_get(p, "matrix");

		ccb_sweep_series_label(m, row_key, buf, sizeof(buf));
		snprintf(key, sizeof(key), "%s\x1f%s",
		         ccb_sweep_label_of(json_object_get(m, row_key), vb, sizeof(vb)), buf);
		if (!json_object_get(idx, key))
			json_object_set(idx, key, p);
	}
	return idx;
}

/* A point of a sweep with --fault: the I/O pause (s) / p99 while the
 * cluster recovered (ms), means over its runs; "-" for what none had. */
static void fault_cell(const json_t *p, char *cell, size_t len)
{
	const json_t *a = json_object_get(p, "aggregate");
	char pause[24] = "-", rec[24] = "-";

	if (json_object_get(a, "fault_pause_s"))
		snprintf(pause, sizeof(pause), "%.2f", ccb_sweep_agg(p, "fault_pause_s", "mean"));
	if (json_object_get(a, "fault_recovery_p99_us"))
		snprintf(rec, sizeof(rec), "%.1f",
		         ccb_sweep_agg(p, "fault_recovery_p99_us", "mean") / 1e3);
	snprintf(cell, len, "%s / %s", pause, rec);
}

bool ccb_sweep_is_knee(const json_t *doc, const json_t *pt, const char *row_key)
{
	const json_t *m = json_object_get(pt, "matrix"), *k;
	size_t i;

	/* A series that cannot show readahead has no knee to show, nor has a
	 * point whose figure is the emulator's. */
	if (ccb_sweep_point_fuse_loop(pt) || ccb_sweep_point_emulated_limit(pt))
		return false;
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

void ccb_sweep_table(const json_t *doc, FILE *out, const char *what, const char *title,
                     const char *unit_scale)
{
	const json_t *points = json_object_get(doc, "points");
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	json_t *rows = ccb_sweep_distinct(points, row_key, true),
	       *cols = ccb_sweep_distinct(points, row_key, false), *idx;
	json_t *r, *c;
	size_t i, j;
	double scale = unit_scale ? atof(unit_scale) : 1;
	char rk[64];
	bool ci = strcmp(what, "bandwidth_mib_s") == 0 && json_object_get(doc, "repeat_until_pct");

	/* A crafted document's points can each be a row and a column of their own. */
	if (json_array_size(rows) * json_array_size(cols) > CCB_SWEEP_MAX_CELLS) {
		fprintf(out, "%s\n(%zu rows by %zu columns: more cells than a table shows)\n\n",
		        title, json_array_size(rows), json_array_size(cols));
		json_decref(rows);
		json_decref(cols);
		return;
	}
	idx = ccb_sweep_cell_index(points, row_key);
	fprintf(out, "%s\n%-14s", title, ccb_text_esc(row_key, rk, sizeof(rk)));
	json_array_foreach(cols, j, c) fprintf(out, "  %24s", json_string_value(c));
	fputc('\n', out);
	json_array_foreach(rows, i, r)
	{
		fprintf(out, "%-14s", json_string_value(r));
		json_array_foreach(cols, j, c)
		{
			char key[400], cell[64] = "-";
			const json_t *p;

			snprintf(key, sizeof(key), "%s\x1f%s", json_string_value(r),
			         json_string_value(c));
			p = json_object_get(idx, key);
			if (p && json_integer_value(json_object_get(json_object_get(p, "aggregate"),
			                                            "runs_ok")) > 0) {
				bool knee = what[0] == 'b' && ccb_sweep_is_knee(doc, p, row_key);
				bool is_tr = strncmp(what, "tradeoff:", 9) == 0;
				const json_t *tr =
				    is_tr ? json_object_get(
				                json_object_get(json_object_get(p, "aggregate"),
				                                "tradeoff_randread"),
				                what + 9)
				          : NULL;
				if (strcmp(what, "latency") == 0)
					snprintf(cell, sizeof(cell), "%.2f / %.2f",
					         ccb_sweep_agg(p, "latency_p50_us", "mean") / 1e3,
					         ccb_sweep_agg(p, "latency_p99_us", "mean") / 1e3);
				else if (strcmp(what, "fault") == 0)
					fault_cell(p, cell, sizeof(cell));
				else if (is_tr && !tr)
					snprintf(cell, sizeof(cell), "-");
				else if (is_tr)
					snprintf(cell, sizeof(cell), "%.2f / %.2f",
					         json_number_value(json_object_get(
					             json_object_get(tr, "mean_us"), "mean")) /
					             1e3,
					         json_number_value(json_object_get(
					             json_object_get(tr, "p99_us"), "mean")) /
					             1e3);
				else if (ci)
					/* Early-stopped repeats: the interval and the runs it took.
					 */
					snprintf(cell, sizeof(cell), "%s%.1f ± %.1f (%lld)",
					         knee ? "*" : "",
					         ccb_sweep_agg(p, what, "mean") * scale,
					         ccb_sweep_agg(p, what, "ci95_half") * scale,
					         (long long)json_integer_value(json_object_get(
					             json_object_get(p, "aggregate"), "runs_ok")));
				else
					snprintf(cell, sizeof(cell), "%s%.1f ± %.1f",
					         knee ? "*"
					         : what[0] == 'b' &&
					                 ccb_sweep_point_emulated_limit(p)
					             ? "~"
					             : "",
					         ccb_sweep_agg(p, what, "mean") * scale,
					         ccb_sweep_agg(p, what, "stddev") * scale);
			}
			fprintf(out, "  %24s", cell);
		}
		fputc('\n', out);
	}
	json_decref(rows);
	json_decref(cols);
	json_decref(idx);
}

/* "DISTRUST: TEXT" or "warning: TEXT" of a warn or distrust line, escaped. */
static void said_line(const json_t *e, FILE *out)
{
	fputs(strcmp(ccb_sweep_str_or(json_object_get(e, "severity"), ""), "distrust") == 0
	          ? "DISTRUST: "
	          : "warning: ",
	      out);
	ccb_text_put(out, ccb_sweep_str_or(json_object_get(e, "text"), ""));
	fputc('\n', out);
}

json_t *ccb_sweep_warnings(const json_t *doc)
{
	const json_t *p, *run, *e;
	size_t i, j, k;
	json_t *out = json_array();

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_t *said = json_object();
		char *m = json_dumps(json_object_get(p, "matrix"), JSON_SORT_KEYS | JSON_COMPACT);

		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			/* What the run stored: none with --explain=off. */
			json_array_foreach(json_object_get(run, "explain"), k, e)
			{
				const char *sev =
				    ccb_sweep_str_or(json_object_get(e, "severity"), "info");
				const char *kind =
				    ccb_sweep_str_or(json_object_get(e, "kind"), "?");
				char tag[96];

				if (strcmp(sev, "info") == 0)
					continue;
				snprintf(tag, sizeof(tag), "%s:%s", kind, sev);
				if (json_object_get(said, tag))
					continue;
				json_object_set_new(said, tag, json_true());
				json_array_append_new(
				    out,
				    json_pack("{s:I, s:s, s:s, s:s}", "point", (json_int_t)(i + 1),
				              "matrix", m ? m : "?", "severity", sev, "text",
				              ccb_sweep_str_or(json_object_get(e, "text"), "")));
			}
		}
		free(m);
		json_decref(said);
	}
	return out;
}

/*
 * Footnotes: per point, each warn or distrust kind its runs said (the
 * first run's text), so a table figure that should not be trusted says
 * so under the table. Info lines: `ccbench explain FILE`.
 */
void ccb_sweep_why(const json_t *doc, FILE *out)
{
	json_t *w = ccb_sweep_warnings(doc);
	const json_t *e;
	size_t i;

	json_array_foreach(w, i, e)
	{
		if (i == 0)
			fprintf(out, "\nwhy (warnings; all lines: ccbench explain FILE)\n");
		/* The matrix and the run's text are the document's: escaped
		 * (JSON escapes C0, not DEL or C1). */
		fprintf(out, "  [%lld] ",
		        (long long)json_integer_value(json_object_get(e, "point")));
		ccb_text_put(out, ccb_sweep_str_or(json_object_get(e, "matrix"), "?"));
		fputs(": ", out);
		said_line(e, out);
	}
	json_decref(w);
}

/* Runs with --until-steady: how many reached steady state, and which
 * figure the table shows for them. */
static void steady_note(const json_t *doc, FILE *out)
{
	const json_t *p;
	size_t i;
	long long ok = 0, steady = 0, asked = 0;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");
		if (!json_object_get(a, "steady_runs"))
			continue;
		asked++;
		ok += json_integer_value(json_object_get(a, "runs_ok"));
		steady += json_integer_value(json_object_get(a, "steady_runs"));
	}
	if (!asked)
		return;
	fprintf(out,
	        "(--until-steady: %lld of %lld runs stopped at steady state and count their "
	        "window's mean; the others their whole run)\n",
	        steady, ok);
}

/* Whether the points of @p series (a matrix less the row key) went through fuse-loop. */
static bool series_fuse_loop(const json_t *doc, const json_t *series, const char *row_key)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_t *s = json_deep_copy(json_object_get(p, "matrix"));
		json_object_del(s, row_key);
		bool same = json_equal(s, series);
		json_decref(s);
		if (same && ccb_sweep_point_fuse_loop(p))
			return true;
	}
	return false;
}

/* Whether the point of knee @p k says its emulated client CPU was the limit. */
static bool knee_emulated(const json_t *doc, const json_t *k, const char *row_key)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		json_t *s = json_deep_copy(json_object_get(p, "matrix"));
		json_object_del(s, row_key);
		bool same = json_equal(s, json_object_get(k, "series")) &&
		            json_equal(json_object_get(json_object_get(p, "matrix"), row_key),
		                       json_object_get(k, "value"));
		json_decref(s);
		if (same)
			return ccb_sweep_point_emulated_limit(p);
	}
	return false;
}

/*
 * The sweep's latency, before its tables: what was injected where, what
 * the probe measured, and what the figures cannot be read as.
 */
static void latency_lines(const json_t *doc, FILE *out)
{
	const json_t *lat = json_object_get(doc, "latency"), *pr, *c;
	json_t *caveats = ccb_sweep_caveats(doc);
	size_t i;
	char d[32];

	if (json_integer_value(json_object_get(lat, "osd_us")) > 0) {
		ccb_format_duration((uint64_t)json_integer_value(json_object_get(lat, "osd_us")), d,
		                    sizeof(d));
		fprintf(out,
		        "latency: about %s injected on every OSD for every client (--osd-latency; "
		        "librbd and the kernel client alike)\n",
		        d);
	}
	json_array_foreach(json_object_get(lat, "probes"), i, pr)
	{
		char paths[128] = "";
		const json_t *v;
		size_t j;

		char raw[128] = "";

		json_array_foreach(json_object_get(pr, "paths"), j, v)
		    snprintf(raw + strlen(raw), sizeof(raw) - strlen(raw), "%s%s", j ? ", " : "",
		             ccb_sweep_str_or(v, "?"));
		ccb_text_esc(raw, paths, sizeof(paths));
		if (json_object_get(pr, "error")) {
			fprintf(out, "latency probe (%s): ", paths);
			ccb_text_put(out, ccb_sweep_str_or(json_object_get(pr, "error"), "?"));
			fputc('\n', out);
			continue;
		}
		ccb_format_duration((uint64_t)json_integer_value(json_object_get(pr, "client_us")),
		                    d, sizeof(d));
		fprintf(out,
		        "latency probe (%s%s%s): round trips at depth 1, %.2f ms mean, %.2f ms p50 "
		        "(%lld reads)\n",
		        paths,
		        json_integer_value(json_object_get(pr, "client_us")) ? ", client-side "
		                                                             : "",
		        json_integer_value(json_object_get(pr, "client_us")) ? d : "",
		        json_number_value(json_object_get(pr, "mean_us")) / 1e3,
		        json_number_value(json_object_get(pr, "p50_us")) / 1e3,
		        (long long)json_integer_value(json_object_get(pr, "ops")));
	}
	json_array_foreach(caveats, i, c)
	{
		/* Built from the document's paths and matrix values. */
		said_line(c, out);
	}
	json_decref(caveats);
}

/* The config's command, or the commands of its "command" axis. */
const char *ccb_sweep_commands_of(const json_t *cfg, char *buf, size_t len)
{
	const json_t *axis = json_object_get(json_object_get(cfg, "matrix"), "command"), *c;
	size_t i;

	if (!json_is_array(axis))
		return ccb_sweep_str_or(json_object_get(cfg, "command"), "?");
	buf[0] = '\0';
	json_array_foreach(axis, i, c)
	{
		size_t l = strlen(buf);
		snprintf(buf + l, len - l, "%s%s", i ? ", " : "", ccb_sweep_str_or(c, "?"));
	}
	return buf;
}

/* The tradeoff's tables: what each readahead cost random reads after it. */
static void tradeoff_tables(const json_t *doc, FILE *out)
{
	bool any_tradeoff = false;
	const json_t *p;
	size_t i;

	json_t *sizes = json_object();
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		const char *sk;
		json_t *sv;
		json_object_foreach(
		    json_object_get(json_object_get(p, "aggregate"), "tradeoff_randread"), sk, sv)
		    json_object_set_new(sizes, sk, json_true());
	}
	if (json_object_size(sizes)) {
		const char *sk;
		json_t *sv;
		/* Smallest reads first ("4K" before "64K"). */
		for (int pass = 0; pass < 2; pass++)
			json_object_foreach(sizes, sk, sv)
			{
				uint64_t b = 0;
				char what[48], title[160];

				ccb_parse_bytes(sk, &b);
				if ((pass == 0) != (b <= 4096))
					continue;
				snprintf(what, sizeof(what), "tradeoff:%s", sk);
				snprintf(
				    title, sizeof(title),
				    "\nthe cost: %s random reads at depth 1 after each setting, "
				    "latency mean / p99 (ms)",
				    sk);
				ccb_sweep_table(doc, out, what, title, NULL);
			}
	}
	json_decref(sizes);
	json_array_foreach(json_object_get(doc, "points"), i, p) any_tradeoff |=
	    json_object_get(json_object_get(p, "aggregate"), "tradeoff_randread_4k") != NULL &&
	    !json_object_get(json_object_get(p, "aggregate"), "tradeoff_randread");
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
		ccb_sweep_table(copy, out, "tradeoff_p99", "", "0.001");
		json_decref(copy);
	}
}

/* A line per series' knee: the recommendation, or why there is none. */
static void recommendations(const json_t *doc, FILE *out)
{
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	char buf[256], vb[64], rk[64];
	const json_t *k;
	size_t i;

	ccb_text_esc(row_key, rk, sizeof(rk));
	json_array_foreach(json_object_get(doc, "knees"), i, k)
	{
		const json_t *o;
		size_t j;

		ccb_sweep_series_label(json_object_get(k, "series"), row_key, buf, sizeof(buf));
		if (series_fuse_loop(doc, json_object_get(k, "series"), row_key))
			continue;
		if (knee_emulated(doc, k, row_key)) {
			fprintf(out,
			        "%sno recommendation (%s): at its knee, %s %s, the client's "
			        "emulated CPU was the limit\n",
			        i ? "" : "\n", buf, rk,
			        ccb_sweep_label_of(json_object_get(k, "value"), vb, sizeof(vb)));
			continue;
		}
		if (!ccb_sweep_is_best(k)) {
			fprintf(out, "%srecommendation (%s): %s %s, %.1f MiB/s (best %.1f)\n",
			        i ? "" : "\n", buf, rk,
			        ccb_sweep_label_of(json_object_get(k, "value"), vb, sizeof(vb)),
			        json_number_value(json_object_get(k, "bandwidth_mib_s")),
			        json_number_value(json_object_get(k, "best_mib_s")));
			continue;
		}
		/* A choice between names: the best, and what each other one loses. */
		fprintf(out, "%srecommendation (%s): %s %s, %.1f MiB/s, the best", i ? "" : "\n",
		        buf, rk, ccb_sweep_label_of(json_object_get(k, "value"), vb, sizeof(vb)),
		        json_number_value(json_object_get(k, "bandwidth_mib_s")));
		json_array_foreach(json_object_get(k, "others"), j, o)
		{
			if (json_is_number(json_object_get(o, "vs_best_pct")))
				fprintf(
				    out, "%s %s %.1f (%+.0f %%)", j ? "," : ";",
				    ccb_sweep_label_of(json_object_get(o, "value"), vb, sizeof(vb)),
				    json_number_value(json_object_get(o, "bandwidth_mib_s")),
				    json_number_value(json_object_get(o, "vs_best_pct")));
			else
				fprintf(out, "%s %s failed", j ? "," : ";",
				        ccb_sweep_label_of(json_object_get(o, "value"), vb,
				                           sizeof(vb)));
		}
		fputc('\n', out);
	}
}

void ccb_sweep_runs_render_text(const json_t *doc, FILE *out)
{
	const json_t *cfg = json_object_get(doc, "config"), *p;
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	size_t i;
	char buf[256], rk[64], e1[256], e2[256], e3[64], e4[64];

	/* Every string of the document printed here is escaped: a saved
	 * sweep can be crafted. */
	ccb_text_esc(row_key, rk, sizeof(rk));
	fprintf(
	    out, "sweep %s: %s, %lld points x %lld repeats (%s), status %s\n",
	    ccb_text_esc(
	        ccb_sweep_str_or(json_object_get(cfg, "name"),
	                         ccb_sweep_str_or(json_object_get(doc, "config_file"), "")),
	        e1, sizeof(e1)),
	    ccb_text_esc(ccb_sweep_commands_of(cfg, buf, sizeof(buf)), e2, sizeof(e2)),
	    (long long)json_array_size(json_object_get(doc, "points")),
	    (long long)json_integer_value(json_object_get(doc, "repeat")),
	    ccb_text_esc(ccb_sweep_str_or(json_object_get(doc, "order"), "?"), e3, sizeof(e3)),
	    ccb_text_esc(ccb_sweep_str_or(json_object_get(doc, "status"), "?"), e4, sizeof(e4)));
	ccb_release_text(json_object_get(doc, "releases"), buf, sizeof(buf));
	if (buf[0])
		fprintf(out, "releases: %s\n", ccb_text_esc(buf, e1, sizeof(e1)));
	latency_lines(doc, out);
	if (json_object_get(doc, "repeat_until_pct")) {
		fprintf(
		    out,
		    "repeats until the 95 %% interval is within ±%g %% (at least %d runs): %lld "
		    "runs, %lld not needed\n",
		    json_number_value(json_object_get(doc, "repeat_until_pct")), CCB_SWEEP_MIN_RUNS,
		    (long long)json_integer_value(json_object_get(doc, "runs_done")),
		    (long long)json_integer_value(json_object_get(doc, "runs_not_needed")));
		ccb_sweep_table(
		    doc, out, "bandwidth_mib_s",
		    ccb_sweep_is_best(json_array_get(json_object_get(doc, "knees"), 0))
		        ? "\nMiB/s, mean ± 95 % confidence interval (runs) (* = the best of its "
		          "column)"
		        : "\nMiB/s, mean ± 95 % confidence interval (runs) (* = knee: smallest "
		          "value within 5% of the best)",
		    NULL);
	} else {
		ccb_sweep_table(
		    doc, out, "bandwidth_mib_s",
		    ccb_sweep_is_best(json_array_get(json_object_get(doc, "knees"), 0))
		        ? "\nMiB/s, mean ± stddev over repeats (* = the best of its column)"
		        : "\nMiB/s, mean ± stddev over repeats (* = knee: smallest value within 5% "
		          "of the best; ~ = the client's emulated CPU was the limit)",
		    NULL);
	}
	steady_note(doc, out);
	ccb_sweep_table(doc, out, "latency", "\nlatency p50 / p99 (ms), mean over repeats", NULL);
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		if (!json_object_get(json_object_get(p, "aggregate"), "fault_pause_s"))
			continue;
		ccb_sweep_table(
		    doc, out, "fault",
		    "\n--fault: I/O pause (s) / p99 while the cluster recovered (ms), mean "
		    "over repeats",
		    NULL);
		break;
	}
	ccb_sweep_space_table(doc, out);
	tradeoff_tables(doc, out);
	recommendations(doc, out);
	ccb_sweep_knee_confidence(doc, out);
	ccb_sweep_why(doc, out);
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

void ccb_sweep_csv_head(const json_t *points, json_t *keys, FILE *out)
{
	const json_t *p, *k;
	const char *key;
	json_t *v;
	size_t i, j;

	json_array_foreach((json_t *)points, i, p)
	{
		json_object_foreach(json_object_get(p, "matrix"), key, v)
		{
			/* A command axis is the row's command column already. */
			bool found = strcmp(key, "command") == 0;
			json_array_foreach(keys, j, k) found |=
			    strcmp(json_string_value(k), key) == 0;
			if (!found)
				json_array_append_new(keys, json_string(key));
		}
	}
	/* The matrix's keys and values and the command are the document's:
	 * CSV cells (escaped, never a formula). */
	fprintf(out, "point,command");
	json_array_foreach(keys, j, k)
	{
		fputc(',', out);
		ccb_csv_cell(out, json_string_value(k));
	}
}

void ccb_sweep_csv_point(const json_t *p, size_t i, const json_t *keys, FILE *out)
{
	const json_t *k;
	char vb[64];
	size_t j;

	fprintf(out, "%zu,", i + 1);
	ccb_csv_cell(out, ccb_sweep_str_or(json_object_get(p, "command"), ""));
	json_array_foreach(keys, j, k)
	{
		const json_t *mv =
		    json_object_get(json_object_get(p, "matrix"), json_string_value(k));
		const char *l = ccb_sweep_label_of(mv, vb, sizeof(vb));

		fputc(',', out);
		/* A number as it is ("-1" is not a formula); a string a cell. */
		if (json_is_string(mv))
			ccb_csv_cell(out, l);
		else
			fputs(l, out);
	}
}

int ccb_sweep_runs_render_csv(const json_t *doc, FILE *out)
{
	const json_t *points = json_object_get(doc, "points"), *p;
	json_t *keys = json_array();
	size_t i;
	char eb[1024];

	ccb_sweep_csv_head(points, keys, out);
	fprintf(out, ",runs,runs_ok,bandwidth_mib_s_mean,bandwidth_mib_s_stddev,"
	             "bandwidth_mib_s_min,bandwidth_mib_s_max,iops_mean,latency_p50_us_mean,"
	             "latency_p99_us_mean,tradeoff_4k_p99_us_mean,bandwidth_mib_s_ci95_low,"
	             "bandwidth_mib_s_ci95_high,steady_runs,amplification_mean,"
	             "raw_per_stored_mean,space_unreliable_runs,osd_worst,osd_worst_p99_us,"
	             "osd_median_p99_us,explain\n");
	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *a = json_object_get(p, "aggregate");
		const json_t *t =
		    json_object_get(json_object_get(a, "tradeoff_randread_4k"), "p99_us");
		ccb_sweep_csv_point(p, i, keys, out);
		fprintf(out, ",%lld,%lld,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,",
		        (long long)json_integer_value(json_object_get(a, "runs")),
		        (long long)json_integer_value(json_object_get(a, "runs_ok")),
		        ccb_sweep_agg(p, "bandwidth_mib_s", "mean"),
		        ccb_sweep_agg(p, "bandwidth_mib_s", "stddev"),
		        ccb_sweep_agg(p, "bandwidth_mib_s", "min"),
		        ccb_sweep_agg(p, "bandwidth_mib_s", "max"),
		        ccb_sweep_agg(p, "iops", "mean"),
		        ccb_sweep_agg(p, "latency_p50_us", "mean"),
		        ccb_sweep_agg(p, "latency_p99_us", "mean"));
		if (t)
			fprintf(out, "%.3f", json_number_value(json_object_get(t, "mean")));
		/* Empty where the repeats give no interval (one run) or the runs
		 * had no --until-steady; explain stays last. */
		const json_t *bwa = json_object_get(a, "bandwidth_mib_s");
		if (json_object_get(bwa, "ci95_half"))
			fprintf(out, ",%.3f,%.3f,",
			        json_number_value(json_object_get(bwa, "ci95_low")),
			        json_number_value(json_object_get(bwa, "ci95_high")));
		else
			fprintf(out, ",,,");
		if (json_object_get(a, "steady_runs"))
			fprintf(out, "%lld",
			        (long long)json_integer_value(json_object_get(a, "steady_runs")));
		/* Empty where no run wrote to a described pool (reads, fs). */
		struct ccb_sweep_space sp;
		if (ccb_sweep_space_mean(p, &sp))
			fprintf(out, ",%.3f,%.3f,%u", sp.amplification, sp.raw_per_stored,
			        sp.unreliable);
		else
			fprintf(out, ",,,");
		/* The OSD whose ops had the highest p99 over the point's runs. */
		struct ccb_attr_sum os;
		if (ccb_attr_summarize(json_object_get(a, "attribution"), &os) && os.worst >= 0)
			fprintf(out, ",%d,%.3f,%.3f", os.worst, os.worst_p99_us, os.median_p99_us);
		else
			fprintf(out, ",,,");
		point_explain(p, eb, sizeof(eb));
		fputc(',', out);
		ccb_csv_cell(out, eb);
		fputc('\n', out);
	}
	json_decref(keys);
	return ferror(out) ? -EIO : 0;
}
