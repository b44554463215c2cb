/*
 * Sweeps: a config names a command, fixed parameters and a matrix; the
 * grid is the cartesian product of the matrix, each point repeated, the
 * runs interleaved (or shuffled) so that drift on a shared machine does not
 * favour one end of the grid. Every point runs through ccb_point_run(), the
 * same code as a single command, and its parameters go through the same
 * option table, so a config can say nothing the CLI could not.
 */
#include <ccbench/cli.h>
#include <ccbench/engine.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/point.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/sweep.h>
#include <ccbench/sweep_point.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

/* ---- running ------------------------------------------------------------- */

static double mean_of(const double *v, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : 0;
}

static json_t *stat_json(const double *v, size_t n)
{
	double m = mean_of(v, n), ss = 0, lo = INFINITY, hi = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		ss += (v[i] - m) * (v[i] - m);
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return json_pack("{s:f, s:f, s:f, s:f}", "mean", m, "stddev",
	                 n > 1 ? sqrt(ss / (double)(n - 1)) : 0.0, "min", n ? lo : 0.0, "max",
	                 n ? hi : 0.0);
}

/* Mean, stddev, min and max across a point's runs, for each figure reported. */
static void aggregate_point(json_t *pt)
{
	json_t *runs = json_object_get(pt, "runs"), *r;
	size_t n = json_array_size(runs), i, k = 0;
	double *bw = calloc(n + 1, sizeof(double)), *p50 = calloc(n + 1, sizeof(double));
	double *p99 = calloc(n + 1, sizeof(double)), *iops = calloc(n + 1, sizeof(double));
	double *tp50 = calloc(n + 1, sizeof(double)), *tp99 = calloc(n + 1, sizeof(double));
	size_t kt = 0;
	json_t *agg;

	json_array_foreach(runs, i, r)
	{
		json_t *lat = json_object_get(r, "latency_us"), *t = json_object_get(r, "tradeoff");
		const char *st = json_string_value(json_object_get(r, "status"));
		if (!st || strcmp(st, "ok") != 0)
			continue;
		bw[k] = json_number_value(json_object_get(r, "bandwidth_mib_s"));
		iops[k] = json_number_value(json_object_get(r, "iops"));
		p50[k] = json_number_value(json_object_get(lat, "p50"));
		p99[k] = json_number_value(json_object_get(lat, "p99"));
		k++;
		if (t) {
			tp50[kt] = json_number_value(json_object_get(t, "p50_us"));
			tp99[kt] = json_number_value(json_object_get(t, "p99_us"));
			kt++;
		}
	}
	agg = json_pack("{s:I, s:I, s:o, s:o, s:o, s:o}", "runs", (json_int_t)n, "runs_ok",
	                (json_int_t)k, "bandwidth_mib_s", stat_json(bw, k), "iops",
	                stat_json(iops, k), "latency_p50_us", stat_json(p50, k), "latency_p99_us",
	                stat_json(p99, k));
	if (kt)
		json_object_set_new(agg, "tradeoff_randread_4k",
		                    json_pack("{s:o, s:o}", "p50_us", stat_json(tp50, kt), "p99_us",
		                              stat_json(tp99, kt)));
	json_object_set_new(pt, "aggregate", agg);
	free(bw), free(p50), free(p99), free(iops), free(tp50), free(tp99);
}

/* The knee: per series (every matrix key but the row key), the smallest
 * row value whose mean bandwidth is within 5% of the series' best. */
static json_t *find_knees(json_t *points, const char *row_key)
{
	json_t *knees = json_array(), *seen = json_object();
	size_t i, j;
	json_t *p, *q;

	json_array_foreach(points, i, p)
	{
		json_t *series = json_deep_copy(json_object_get(p, "matrix"));
		char *skey;
		double best = 0;
		json_t *knee = NULL;

		json_object_del(series, row_key);
		skey = json_dumps(series, JSON_SORT_KEYS | JSON_COMPACT);
		if (json_object_get(seen, skey)) {
			free(skey);
			json_decref(series);
			continue;
		}
		json_object_set_new(seen, skey, json_true());
		/* Points are in matrix order, so row values arrive in the order given. */
		for (int pass = 0; pass < 2; pass++) {
			json_array_foreach(points, j, q)
			{
				json_t *qs = json_deep_copy(json_object_get(q, "matrix"));
				json_object_del(qs, row_key);
				bool same = json_equal(qs, series);
				json_decref(qs);
				if (!same)
					continue;
				double bw = json_number_value(
				    json_object_get(json_object_get(json_object_get(q, "aggregate"),
				                                    "bandwidth_mib_s"),
				                    "mean"));
				if (pass == 0 && bw > best)
					best = bw;
				if (pass == 1 && !knee && best > 0 && bw >= 0.95 * best)
					knee = json_pack(
					    "{s:O, s:O, s:f, s:f}", "series", series, "value",
					    json_object_get(json_object_get(q, "matrix"), row_key),
					    "bandwidth_mib_s", bw, "best_mib_s", best);
			}
		}
		if (knee)
			json_array_append_new(knees, knee);
		free(skey);
		json_decref(series);
	}
	json_decref(seen);
	return knees;
}

static const char *pick_row_key(const json_t *matrix)
{
	const char *key;
	json_t *v;
	static const char *const prefer[] = {"readahead",   "read-ahead-kb", "clients",
	                                     "queue-depth", "io-size",       "op-size"};

	for (size_t i = 0; i < sizeof(prefer) / sizeof(prefer[0]); i++)
		if (json_object_get(matrix, prefer[i]))
			return prefer[i];
	json_object_foreach((json_t *)matrix, key, v) return key;
	return "";
}

static int render_json(const json_t *doc, FILE *f)
{
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0)
		return -EIO;
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

static int render_text(const json_t *doc, FILE *f)
{
	ccb_sweep_render_text(doc, f);
	return ferror(f) ? -EIO : 0;
}

/* Every output of a sweep, also the partial ones after Ctrl-C. */
static int write_outputs(const json_t *doc, const struct ccb_opts *o)
{
	int r = 0;

	if (o->json_file && ccb_report_to_file(o->json_file, "--json", doc, render_json) < 0)
		r = -EIO;
	if (o->csv_file && ccb_report_to_file(o->csv_file, "--csv", doc, ccb_sweep_render_csv) < 0)
		r = -EIO;
	if (o->svg_file && ccb_report_to_file(o->svg_file, "--svg", doc, ccb_sweep_render_svg) < 0)
		r = -EIO;
	if (o->output)
		r |= ccb_report_to_file(o->output, "--output", doc,
		                        o->format == CCB_FMT_JSON  ? render_json
		                        : o->format == CCB_FMT_CSV ? ccb_sweep_render_csv
		                                                   : render_text);
	else if (o->format == CCB_FMT_JSON)
		render_json(doc, stdout);
	else if (o->format == CCB_FMT_CSV)
		ccb_sweep_render_csv(doc, stdout);
	else
		ccb_sweep_render_text(doc, stdout);
	fflush(stdout);
	return r;
}

/* The 4K random-read cost of a readahead setting, measured right after the point. */
static int run_tradeoff(struct ccb_sweep_point *b, const char *image_spec, json_t *result)
{
	struct ccb_sweep_point t = *b;
	struct ccb_point pt;
	json_t *res = NULL;
	char err[256];
	int st;

	t.cli.opts.queue_depth = 1;
	t.cli.opts.duration_usec = CCB_SWEEP_TRADEOFF_USEC;
	t.cli.opts.given[ccb_opt_find("duration") - ccb_opt_table] = true;
	t.cli.opts.given[ccb_opt_find("total") - ccb_opt_table] = false;
	if (!ccb_cli_sibling(&b->cli, "randread") ||
	    ccb_cli_select(&t.cli, ccb_cli_sibling(&b->cli, "randread"), err, sizeof(err)) < 0)
		return -EINVAL;
	if (ccb_opt_set(&t.cli.opts, ccb_opt_find(t.cli.ops->op_size_opt), "4096", err,
	                sizeof(err)) < 0)
		return -EINVAL;
	if (image_spec)
		ccb_path_set_target(t.cli.ops, &t.cli.opts, image_spec);
	pt = (struct ccb_point){.command = t.cli.command,
	                        .path = t.cli.path,
	                        .ops = t.cli.ops,
	                        .cmd_mask = t.cli.cmd_mask,
	                        .mode = t.cli.mode,
	                        .opts = &t.cli.opts};
	st = ccb_point_run(&pt, &res);
	if (res) {
		json_t *lat = json_object_get(res, "latency_us");
		json_object_set_new(
		    result, "tradeoff",
		    json_pack("{s:f, s:f, s:s}", "p50_us",
		              json_number_value(json_object_get(lat, "p50")), "p99_us",
		              json_number_value(json_object_get(lat, "p99")), "status",
		              json_string_value(json_object_get(res, "status"))));
		json_decref(res);
	}
	return st;
}

int ccb_sweep_command(const struct ccb_cli *cli, int argc, char **argv)
{
	const struct ccb_opts *o = &cli->opts;
	const char *path = cli->args[0];
	json_t *cfg = NULL, *points = NULL, *doc, *images = json_object(), *p;
	size_t n_points, repeat, n_runs, done = 0, i;
	size_t *order;
	uint64_t t0 = ccb_now_nsec();
	char err[1024];
	int status = 0, mark = ccb_undo_mark();
	bool tradeoff;
	const char *row_key;

	(void)argc;
	(void)argv;
	if (ccb_sweep_load(path, o, &cfg, &points, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: sweep: %s\n", err);
		json_decref(images);
		return 2;
	}
	if (o->dry_run) {
		if ((o->json_file || o->csv_file || o->svg_file || o->output) && !o->quiet)
			fprintf(stderr, "ccbench: sweep --dry-run: the plan goes to stdout only; "
			                "--json, --csv, --svg and --output are not written\n");
		status = ccb_sweep_dry_run(path, cfg, points, o, stdout);
		json_decref(points);
		json_decref(cfg);
		json_decref(images);
		return status;
	}
	n_points = json_array_size(points);
	repeat = json_is_integer(json_object_get(cfg, "repeat"))
	             ? (size_t)json_integer_value(json_object_get(cfg, "repeat"))
	             : 1;
	tradeoff = json_is_true(json_object_get(cfg, "tradeoff"));
	row_key = pick_row_key(json_object_get(cfg, "matrix"));
	n_runs = n_points * repeat;
	json_array_foreach(points, i, p) json_object_set_new(p, "runs", json_array());

	/* Interleaved: every point once, then every point again. With --seed,
	 * a seeded shuffle of all runs. */
	order = calloc(n_runs, sizeof(*order));
	for (size_t k = 0; k < n_runs; k++)
		order[k] = k % n_points;
	if (ccb_opt_given(o, "seed")) {
		uint64_t x = o->seed * 0x9e3779b97f4a7c15ull + 1;
		for (size_t k = n_runs; k > 1; k--) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t j = (size_t)(x % k), t = order[k - 1];
			order[k - 1] = order[j], order[j] = t;
		}
	}
	doc = json_pack("{s:s, s:s, s:i, s:s, s:O, s:O, s:s, s:s, s:I}", "ccbench_version",
	                CCB_VERSION, "kind", "sweep", "schema", 1, "config_file", path, "config",
	                cfg, "points", points, "row_key", row_key, "order",
	                ccb_opt_given(o, "seed") ? "shuffled" : "interleaved", "repeat",
	                (json_int_t)repeat);
	if (ccb_opt_given(o, "seed"))
		json_object_set_new(doc, "seed", json_integer((json_int_t)o->seed));
	/* A shrunk or altered config says so: "config" above is the one run. */
	if (o->n_params || ccb_opt_given(o, "repeat")) {
		json_t *ov = json_object(), *pl = json_array();
		for (unsigned k = 0; k < o->n_params; k++)
			json_array_append_new(pl, json_string(o->params[k]));
		json_object_set_new(ov, "param", pl);
		if (ccb_opt_given(o, "repeat"))
			json_object_set_new(ov, "repeat", json_integer((json_int_t)o->repeat));
		json_object_set_new(doc, "overrides", ov);
	}

	for (size_t k = 0; k < n_runs && !ccb_signal_pending; k++) {
		json_t *pt = json_array_get(points, order[k]);
		struct ccb_sweep_point b;
		struct ccb_point run_pt;
		json_t *res = NULL;
		char *desc = json_dumps(json_object_get(pt, "matrix"), JSON_COMPACT);
		const char *image_spec = NULL;
		double elapsed = (double)(ccb_now_nsec() - t0) / 1e9;
		int st;

		if (!o->quiet) {
			fprintf(stderr, "sweep: run %zu of %zu: point %zu %s", k + 1, n_runs,
			        order[k] + 1, desc);
			if (done)
				fprintf(stderr, ", ETA %.0f s",
				        elapsed / (double)done * (double)(n_runs - done));
			fputc('\n', stderr);
		}
		free(desc);
		if (ccb_sweep_build_point(o, json_string_value(json_object_get(pt, "command")),
		                          json_object_get(pt, "params"), &b, err,
		                          sizeof(err)) < 0) {
			fprintf(stderr, "ccbench: sweep: %s\n", err);
			status = 2;
			break;
		}
		if (b.share_image) {
			/* One prefilled image per layout, created at its first use and
			 * removed when the sweep ends. */
			json_t *spec = json_object_get(images, b.layout_key);
			if (!spec) {
				char s[300];
				if (ccb_rbd_shared_image(&b.layout, s, sizeof(s)) < 0) {
					ccb_sweep_point_free(&b);
					status = ccb_signal_pending ? 128 + ccb_signal_pending : 1;
					break;
				}
				json_object_set_new(images, b.layout_key, json_string(s));
				spec = json_object_get(images, b.layout_key);
			}
			image_spec = json_string_value(spec);
			ccb_path_set_target(b.cli.ops, &b.cli.opts, image_spec);
		}
		run_pt = (struct ccb_point){.command = b.cli.command,
		                            .path = b.cli.path,
		                            .ops = b.cli.ops,
		                            .cmd_mask = b.cli.cmd_mask,
		                            .mode = b.cli.mode,
		                            .opts = &b.cli.opts,
		                            .argc = 0,
		                            .argv = NULL};
		st = ccb_point_run(&run_pt, &res);
		if (res) {
			json_object_set_new(res, "repeat_index",
			                    json_integer((json_int_t)(k / n_points)));
			if (tradeoff && st == 0 && !ccb_signal_pending &&
			    (json_object_get(json_object_get(pt, "params"), "readahead") ||
			     json_object_get(json_object_get(pt, "params"), "read-ahead-kb")))
				run_tradeoff(&b, image_spec, res);
			json_array_append_new(json_object_get(pt, "runs"), res);
		} else if (st != 0) {
			/* A run that ended before it had a result (refused on a full
			 * pool, interrupted while it was set up) still counts: without an
			 * entry, the point would read "1 of 1 ok" for two runs. */
			char why[160];

			snprintf(why, sizeof(why),
			         "the run ended in its set-up, before it produced a result (exit "
			         "%d); its "
			         "message is on stderr",
			         st);
			json_array_append_new(json_object_get(pt, "runs"),
			                      json_pack("{s:s, s:s, s:I}", "status",
			                                st >= 128 ? "interrupted"
			                                : st == 2 ? "failed"
			                                          : "aborted",
			                                "reason", why, "repeat_index",
			                                (json_int_t)(k / n_points)));
		}
		ccb_sweep_point_free(&b);
		done++;
		if (st >= 128) {
			status = st;
			break;
		}
		if (st == 2) {
			status = 2;
			break;
		}
		if (st != 0)
			status = 1;
	}
	free(order);
	/* A signal that came while a run was already ending (stopped by its
	 * duration, then aborted by --op-timeout) ends that run as "aborted",
	 * but it still cut the sweep short: the sweep is interrupted. */
	if (ccb_signal_pending && done < n_runs && status < 128 && status != 2)
		status = 128 + ccb_signal_pending;
	json_array_foreach(points, i, p) aggregate_point(p);
	json_object_set_new(doc, "knees", find_knees(points, row_key));
	json_object_set_new(doc, "status",
	                    json_string(status >= 128 ? "interrupted"
	                                : status == 0 ? "ok"
	                                              : "failed"));
	json_object_set_new(doc, "runs_done", json_integer((json_int_t)done));
	json_object_set_new(doc, "seconds", json_real((double)(ccb_now_nsec() - t0) / 1e9));
	ccb_redact_json(doc); /* the config's own -o key=... too; the runs are over */
	if (write_outputs(doc, o) < 0 && status == 0)
		status = 1;
	json_decref(doc);
	json_decref(points);
	json_decref(cfg);
	/* Shared images, mappings and read_ahead_kb values go back now. */
	ccb_undo_unwind_to(mark);
	json_decref(images);
	if (status >= 128 && !o->quiet)
		fprintf(stderr,
		        "ccbench: sweep interrupted after %zu of %zu runs; partial "
		        "results written\n",
		        done, n_runs);
	return status;
}
