/*
 * Sweeps: a config names a command, fixed parameters and a matrix; the
 * grid is the cartesian product of the matrix, each point repeated, the
 * runs interleaved (or shuffled) so that drift on a shared machine does not
 * favour one end of the grid. Every point runs through ccb_point_run(), the
 * same code as a single command, and its parameters go through the same
 * option table, so a config can say nothing the CLI could not.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/command.h>
#include <ccbench/redact.h>
#include <ccbench/clock.h>
#include <ccbench/capacity.h>
#include <ccbench/capacity_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/cli.h>
#include <ccbench/configs.h>
#include <ccbench/engine.h>
#include <ccbench/explain.h>
#include <ccbench/html.h>
#include <ccbench/latency_probe.h>
#include <ccbench/osd_inject.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/point.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/sweep.h>
#include "sweep_aggregate.h"
#include "sweep_point.h"
#include "sweep_runner.h"
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <limits.h>
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
	if (o->html_file && ccb_report_to_file(o->html_file, "--html", doc, ccb_html_render) < 0)
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

/* How many runs of point @p pt measured their tradeoff so far. */
static size_t tradeoffs_of(const json_t *pt)
{
	const json_t *r;
	size_t i, n = 0;

	json_array_foreach(json_object_get(pt, "runs"), i, r)
	{
		if (json_object_get(r, "tradeoff_randread"))
			n++;
	}
	return n;
}

/*
 * Run point @p b: in this process (ccb_point_run(), which also records the
 * latency's side), or through @p runner, whose result gets here what a
 * local run's gets in ccb_point_run(): which side the latency was on,
 * whether the OSDs kept it, and an explain list re-derived with both.
 */
static int run_point(struct ccb_sweep_point *b, const char *image_spec, const char *runner,
                     json_t **res)
{
	struct ccb_point pt = {.command = b->cli.command,
	                       .path = b->cli.path,
	                       .ops = b->cli.ops,
	                       .cmd_mask = b->cli.cmd_mask,
	                       .mode = b->cli.mode,
	                       .opts = &b->cli.opts};
	json_t *args;
	uint64_t t0 = ccb_now_nsec();
	char err[1024];
	int st;

	*res = NULL;
	if (!runner)
		return ccb_point_run(&pt, res);
	args = ccb_sweep_point_args(b, image_spec);
	if (!args)
		return 1;
	st = ccb_sweep_runner_exec(runner, args, res, err, sizeof(err));
	if (st < 0 || !*res)
		fprintf(stderr, "ccbench: sweep: %s\n", err);
	if (*res) {
		json_t *ex = json_object_get(*res, "explain");

		ccb_osd_inject_annotate(*res, b->cli.opts.sim_osd_latency_usec,
		                        ccb_osd_inject_active() ? ccb_osd_inject_check() : NULL);
		json_object_set_new(*res, "runner",
		                    json_pack("{s:s, s:O, s:i, s:f}", "command", runner, "args",
		                              args, "exit", st, "seconds",
		                              (double)(ccb_now_nsec() - t0) / 1e9));
		/* The runner's explain knew nothing of the latency's side: again,
		 * from the figures (its client_cpu is the remote host's). */
		if (json_is_array(ex))
			json_object_set_new(*res, "explain", ccb_explain(*res, NULL));
	}
	json_decref(args);
	if (st < 0)
		return 1;
	if (st == 0 && !*res)
		return 1; /* exit 0 with no result: not a measurement */
	/* Ended by the TERM ccbench passed on: ccbench's own signal says how. */
	if (st >= 128 && ccb_signal_pending)
		return 128 + ccb_signal_pending;
	return st;
}

/* The random-read cost of a readahead setting with reads of @p io_bytes,
 * measured right after the point, through the same runner. */
static int run_tradeoff(struct ccb_sweep_point *b, const char *image_spec, const char *runner,
                        uint64_t io_bytes, json_t *result)
{
	struct ccb_sweep_point t = *b;
	json_t *res = NULL, *list;
	char err[256], size[32];
	int st;

	t.cli.opts.queue_depth = 1;
	t.cli.opts.duration_usec = CCB_SWEEP_TRADEOFF_USEC;
	t.cli.opts.given[ccb_opt_find("duration") - ccb_opt_table] = true;
	t.cli.opts.given[ccb_opt_find("total") - ccb_opt_table] = false;
	/* A p99 over a fixed time, whatever the point's own stop. */
	t.cli.opts.until_steady.on = false;
	t.cli.opts.given[ccb_opt_find("until-steady") - ccb_opt_table] = false;
	t.cli.opts.given[ccb_opt_find("steady-ramp") - ccb_opt_table] = false;
	if (!ccb_cli_sibling(&b->cli, "randread") ||
	    ccb_cli_select(&t.cli, ccb_cli_sibling(&b->cli, "randread"), err, sizeof(err)) < 0)
		return -EINVAL;
	snprintf(size, sizeof(size), "%llu", (unsigned long long)io_bytes);
	if (ccb_opt_set(&t.cli.opts, ccb_opt_find(t.cli.ops->op_size_name), size, err,
	                sizeof(err)) < 0)
		return -EINVAL;
	if (image_spec)
		ccb_path_set_target(t.cli.ops, &t.cli.opts, image_spec);
	st = run_point(&t, image_spec, runner, &res);
	if (res) {
		json_t *lat = json_object_get(res, "latency_us");
		json_t *e =
		    json_pack("{s:I, s:f, s:f, s:f, s:s?}", "io_bytes", (json_int_t)io_bytes,
		              "mean_us", json_number_value(json_object_get(lat, "mean")), "p50_us",
		              json_number_value(json_object_get(lat, "p50")), "p99_us",
		              json_number_value(json_object_get(lat, "p99")), "status",
		              json_string_value(json_object_get(res, "status")));

		list = json_object_get(result, "tradeoff_randread");
		if (!list) {
			list = json_array();
			json_object_set_new(result, "tradeoff_randread", list);
		}
		json_array_append(list, e);
		/* The 4K figure where results before read-size lists had it. */
		if (io_bytes == 4096)
			json_object_set_new(
			    result, "tradeoff",
			    json_pack("{s:O, s:O, s:O}", "p50_us", json_object_get(e, "p50_us"),
			              "p99_us", json_object_get(e, "p99_us"), "status",
			              json_object_get(e, "status") ? json_object_get(e, "status")
			                                           : json_null()));
		json_decref(e);
		json_decref(res);
	}
	return st;
}

static const char *side_name(const struct ccb_opts *wide, uint64_t client_us)
{
	return client_us && wide->osd_latency_usec ? "OSD and client side"
	       : client_us                         ? "client side"
	       : wide->osd_latency_usec            ? "OSD side"
	                                           : "none injected";
}

/*
 * The sweep's latency, before its first point: the OSD-side injection of
 * the whole sweep (--osd-latency, in params or on the command line), then
 * one probe per latency the points will see (the OSDs' plus each
 * --sim-osd-latency a path's points have), so the result says what each
 * side measured as, not only what was asked.
 */
static int sweep_latency(const struct ccb_opts *wide, const json_t *points, json_t *doc)
{
	json_t *lat = json_object(), *probes = json_array(), *seen = json_object(), *p;
	char err[1024];
	size_t i;
	int r = 0;

	json_object_set_new(doc, "latency", lat);
	json_object_set_new(lat, "osd_us", json_integer((json_int_t)wide->osd_latency_usec));
	json_object_set_new(lat, "probes", probes);
	if (wide->osd_latency_usec) {
		r = ccb_osd_inject_start(wide, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: sweep: %s\n", err);
			json_object_set_new(lat, "error", json_string(err));
			json_decref(seen);
			return r;
		}
		json_t *tmp = json_object();
		ccb_osd_inject_annotate(tmp, 0, NULL);
		json_object_set(lat, "osd", json_object_get(tmp, "latency_injection"));
		json_decref(tmp);
	}
	json_array_foreach(points, i, p)
	{
		const json_t *params = json_object_get(p, "params");
		const char *sim = json_string_value(json_object_get(params, "sim-osd-latency"));
		uint64_t us = 0;
		char key[32];
		struct ccb_cli c;
		json_t *paths;

		if (sim)
			ccb_parse_duration_usec(sim, &us);
		snprintf(key, sizeof(key), "%llu", (unsigned long long)us);
		memset(&c, 0, sizeof(c));
		ccb_cli_select(&c, json_string_value(json_object_get(p, "command")), err,
		               sizeof(err));
		paths = json_object_get(seen, key);
		if (!paths) {
			paths = json_array();
			json_object_set_new(seen, key, paths);
		}
		if (c.ops) {
			bool have = false;
			size_t j;
			json_t *v;
			json_array_foreach(paths, j, v) have |=
			    strcmp(json_string_value(v), c.ops->name) == 0;
			if (!have)
				json_array_append_new(paths, json_string(c.ops->name));
		}
	}
	const char *key;
	json_t *paths;
	json_object_foreach(seen, key, paths)
	{
		uint64_t us = strtoull(key, NULL, 10);
		json_t *pr;

		if (ccb_signal_pending)
			break;
		pr = ccb_latency_probe(wide, us);
		if (!pr)
			continue;
		json_object_set(pr, "paths", paths);
		if (!wide->quiet && json_object_get(pr, "error"))
			fprintf(stderr, "sweep: latency probe (%s): %s\n", side_name(wide, us),
			        json_string_value(json_object_get(pr, "error")));
		else if (!wide->quiet)
			fprintf(stderr,
			        "sweep: latency probe (%s): round trips at depth 1, %.2f ms mean, "
			        "%.2f ms "
			        "p50 (%lld reads)\n",
			        side_name(wide, us),
			        json_number_value(json_object_get(pr, "mean_us")) / 1e3,
			        json_number_value(json_object_get(pr, "p50_us")) / 1e3,
			        (long long)json_integer_value(json_object_get(pr, "ops")));
		json_array_append_new(probes, pr);
	}
	json_decref(seen);
	return 0;
}

/* One sweep as it runs: the loaded config and its points, the order of
 * the runs, what has been done and the images points share. */
struct sweep {
	const struct ccb_opts *o;
	json_t *cfg, *points, *images;
	size_t n_points, repeat, n_runs, done, skipped;
	size_t *order;
	bool *settled;
	uint64_t until, t0;
	uint64_t tradeoff_sizes[CCB_SWEEP_TRADEOFF_MAX];
	size_t n_tradeoff, tradeoff_runs;
	int status;
};

/* The sweep's document before its runs: the config, its points, the
 * order (interleaved, or a seeded shuffle) and the overrides. */
static json_t *sweep_doc(struct sweep *sw, const char *path, const char *row_key)
{
	const struct ccb_opts *o = sw->o;
	json_t *doc;

	/* Interleaved: every point once, then every point again. With --seed,
	 * a seeded shuffle of all runs. */
	for (size_t k = 0; k < sw->n_runs; k++)
		sw->order[k] = k % sw->n_points;
	if (ccb_opt_given(o, "seed")) {
		uint64_t x = o->seed * 0x9e3779b97f4a7c15ull + 1;
		for (size_t k = sw->n_runs; k > 1; k--) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			size_t j = (size_t)(x % k), t = sw->order[k - 1];
			sw->order[k - 1] = sw->order[j], sw->order[j] = t;
		}
	}
	doc = json_pack("{s:s, s:s, s:i, s:s, s:O, s:O, s:s, s:s, s:I}", "ccbench_version",
	                CCB_VERSION, "kind", "sweep", "schema", 1, "config_file", path, "config",
	                sw->cfg, "points", sw->points, "row_key", row_key, "order",
	                ccb_opt_given(o, "seed") ? "shuffled" : "interleaved", "repeat",
	                (json_int_t)sw->repeat);
	if (ccb_opt_given(o, "seed"))
		json_object_set_new(doc, "seed", json_integer((json_int_t)o->seed));
	if (sw->until)
		json_object_set_new(doc, "repeat_until_pct", json_real((double)sw->until / 100));
	/* A shrunk or altered config says so: "config" above is the one run. */
	if (o->n_params || ccb_opt_given(o, "repeat") || ccb_opt_given(o, "repeat-until")) {
		json_t *ov = json_object(), *pl = json_array();
		for (unsigned k = 0; k < o->n_params; k++)
			json_array_append_new(pl, json_string(o->params[k]));
		json_object_set_new(ov, "param", pl);
		if (ccb_opt_given(o, "repeat"))
			json_object_set_new(ov, "repeat", json_integer((json_int_t)o->repeat));
		if (ccb_opt_given(o, "repeat-until"))
			json_object_set_new(ov, "repeat_until",
			                    json_real((double)o->repeat_until_centipct / 100));
		json_object_set_new(doc, "overrides", ov);
	}
	return doc;
}

/* Run @p k of the sweep (point sw->order[k]): its point built, its
 * shared image made at its first use, run (or searched), its result kept
 * in the point's runs. @return 0 to go on, 1 to stop the sweep. */
static int sweep_run(struct sweep *sw, size_t k)
{
	const struct ccb_opts *o = sw->o;
	json_t *pt = json_array_get(sw->points, sw->order[k]);
	struct ccb_sweep_point b;
	json_t *res = NULL;
	const char *runner;
	char *desc = json_dumps(json_object_get(pt, "matrix"), JSON_COMPACT);
	const char *image_spec = NULL;
	double elapsed = (double)(ccb_now_nsec() - sw->t0) / 1e9;
	char err[1024];
	int st;

	/* repeat_until: a settled point's further runs are not needed. */
	if (sw->settled[sw->order[k]]) {
		sw->skipped++;
		free(desc);
		return 0;
	}
	if (!o->quiet) {
		fprintf(stderr, "sweep: run %zu of %s%zu: point %zu %s", sw->done + 1,
		        sw->until ? "at most " : "", sw->n_runs - sw->skipped, sw->order[k] + 1,
		        desc);
		if (sw->done)
			fprintf(stderr, ", ETA %s%.0f s", sw->until ? "at most " : "",
			        elapsed / (double)sw->done *
			            (double)(sw->n_runs - sw->skipped - sw->done));
		fputc('\n', stderr);
	}
	free(desc);
	if (ccb_sweep_build_point(o, json_string_value(json_object_get(pt, "command")),
	                          json_object_get(pt, "params"), &b, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: sweep: %s\n", err);
		sw->status = 2;
		return 1;
	}
	if (b.share_image) {
		/* One prefilled image per layout, created at its first use and
		 * removed when the sweep ends. */
		json_t *spec = json_object_get(sw->images, b.layout_key);
		if (!spec) {
			char s[300];
			if (ccb_rbd_shared_image(&b.layout, s, sizeof(s)) < 0) {
				ccb_sweep_point_free(&b);
				sw->status = ccb_signal_pending ? 128 + ccb_signal_pending : 1;
				return 1;
			}
			json_object_set_new(sw->images, b.layout_key, json_string(s));
			spec = json_object_get(sw->images, b.layout_key);
		}
		image_spec = json_string_value(spec);
		ccb_path_set_target(b.cli.ops, &b.cli.opts, image_spec);
	}
	runner =
	    ccb_sweep_runner_of(b.cli.ops->name, o->runner, json_object_get(sw->cfg, "runners"));
	if (runner && !o->quiet)
		fprintf(stderr, "sweep:   through the runner of %s: %s\n", b.cli.ops->name, runner);
	if (b.capacity) {
		/* A capacity search per run: its document is the run's entry.
		 * One that found no rate within the SLO is no figure. */
		st = ccb_capacity_search_doc(&b.cli, 0, NULL, &res);
		if (st == 0 && !json_is_number(json_object_get(res, "capacity_ops_s")))
			st = 1;
	} else {
		st = run_point(&b, image_spec, runner, &res);
	}
	if (res) {
		json_object_set_new(res, "repeat_index",
		                    json_integer((json_int_t)(k / sw->n_points)));
		for (size_t z = 0; z < sw->n_tradeoff && st == 0 && !ccb_signal_pending &&
		                   tradeoffs_of(pt) < sw->tradeoff_runs;
		     z++)
			if (json_object_get(json_object_get(pt, "params"), "readahead") ||
			    json_object_get(json_object_get(pt, "params"), "read-ahead-kb"))
				run_tradeoff(&b, image_spec, runner, sw->tradeoff_sizes[z], res);
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
		                                (json_int_t)(k / sw->n_points)));
	}
	ccb_sweep_point_free(&b);
	sw->done++;
	if (sw->until && ccb_sweep_point_settles(pt, sw->until))
		sw->settled[sw->order[k]] = true;
	if (st >= 128 || st == 2) {
		sw->status = st;
		return 1;
	}
	if (st != 0)
		sw->status = 1;
	return 0;
}

/* The document after the runs: each point's aggregate, the knees, the
 * status and the counts, key material out. */
static void sweep_done(struct sweep *sw, json_t *doc, const char *row_key, bool capacity)
{
	json_t *p;
	size_t i;

	/* A signal that came while a run was already ending (stopped by its
	 * duration, then aborted by --op-timeout) ends that run as "aborted",
	 * but it still cut the sweep short: the sweep is interrupted. */
	if (ccb_signal_pending && sw->done + sw->skipped < sw->n_runs && sw->status < 128 &&
	    sw->status != 2)
		sw->status = 128 + ccb_signal_pending;
	json_array_foreach(sw->points, i, p)
	{
		ccb_sweep_aggregate(p, capacity);
	}
	json_object_set_new(doc, "releases", ccb_release_of_doc(doc));
	/* A bandwidth knee; a capacity search has its own in each run. */
	json_object_set_new(doc, "knees",
	                    capacity ? json_array() : ccb_sweep_knees(sw->points, row_key));
	json_object_set_new(doc, "status",
	                    json_string(sw->status >= 128 ? "interrupted"
	                                : sw->status == 0 ? "ok"
	                                                  : "failed"));
	json_object_set_new(doc, "runs_done", json_integer((json_int_t)sw->done));
	if (sw->until)
		json_object_set_new(doc, "runs_not_needed", json_integer((json_int_t)sw->skipped));
	json_object_set_new(doc, "seconds", json_real((double)(ccb_now_nsec() - sw->t0) / 1e9));
	ccb_redact_json(doc); /* the config's own -o key=... too; the runs are over */
}

int ccb_sweep_command(const struct ccb_cli *cli, int argc, char **argv)
{
	const struct ccb_opts *o = &cli->opts;
	struct sweep sw = {.o = o, .images = json_object(), .t0 = ccb_now_nsec()};
	char path[PATH_MAX], err[1024];
	json_t *doc, *p, *wide_strings = json_array();
	int mark = ccb_undo_mark();
	const char *row_key;
	struct ccb_opts wide;
	bool capacity;
	size_t i;

	(void)argc;
	(void)argv;
	/* A name ("quick") is a shipped config; a path is read as given. */
	if (ccb_configs_find(cli->args[0], path, sizeof(path), err, sizeof(err)) < 0 ||
	    ccb_sweep_load(path, o, &sw.cfg, &sw.points, err, sizeof(err)) < 0 ||
	    ccb_sweep_wide_opts(sw.cfg, o, &wide, wide_strings, err, sizeof(err)) < 0 ||
	    ccb_sweep_tradeoff_sizes(json_object_get(sw.cfg, "tradeoff"), sw.tradeoff_sizes,
	                             &sw.n_tradeoff, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: sweep: %s\n", err);
		sw.status = 2;
		goto out;
	}
	if (o->dry_run) {
		if ((o->json_file || o->csv_file || o->svg_file || o->html_file || o->output) &&
		    !o->quiet)
			fprintf(stderr, "ccbench: sweep --dry-run: the plan goes to stdout only; "
			                "--json, --csv, --svg and --output are not written\n");
		sw.status = ccb_sweep_dry_run(path, sw.cfg, sw.points, &wide, stdout);
		goto out;
	}
	sw.n_points = json_array_size(sw.points);
	sw.repeat = json_is_integer(json_object_get(sw.cfg, "repeat"))
	                ? (size_t)json_integer_value(json_object_get(sw.cfg, "repeat"))
	                : 1;
	/* Checked by the loader: 1 to 1000, or absent (every run). */
	sw.tradeoff_runs =
	    json_is_integer(json_object_get(sw.cfg, "tradeoff_runs"))
	        ? (size_t)json_integer_value(json_object_get(sw.cfg, "tradeoff_runs"))
	        : SIZE_MAX;
	sw.until = ccb_sweep_repeat_until(sw.cfg);
	row_key = ccb_sweep_row_key(json_object_get(sw.cfg, "matrix"));
	capacity = ccb_sweep_is_capacity(sw.cfg);
	sw.n_runs = sw.n_points * sw.repeat;
	sw.settled = calloc(sw.n_points + 1, sizeof(*sw.settled));
	sw.order = calloc(sw.n_runs ? sw.n_runs : 1, sizeof(*sw.order));
	json_array_foreach(sw.points, i, p) json_object_set_new(p, "runs", json_array());
	doc = sweep_doc(&sw, path, row_key);
	/* The latency of the whole sweep, set and measured before any point. */
	{
		int r = sweep_latency(&wide, sw.points, doc);
		if (r < 0) {
			sw.status = r == -EPERM || r == -EACCES ? 2
			            : ccb_signal_pending        ? 128 + ccb_signal_pending
			                                        : 1;
			sw.n_runs = 0; /* nothing runs; the outputs still say why */
		}
	}
	for (size_t k = 0; k < sw.n_runs && !ccb_signal_pending; k++)
		if (sweep_run(&sw, k))
			break;
	sweep_done(&sw, doc, row_key, capacity);
	/* Shared images, mappings, read_ahead_kb values and the OSD delay go
	 * back first: an output that cannot be written (or a slow reader of
	 * /dev/stdout) must not keep them in place. */
	ccb_undo_unwind_to(mark);
	if (write_outputs(doc, o) < 0 && sw.status == 0)
		sw.status = 1;
	json_decref(doc);
	if (sw.status >= 128 && !o->quiet)
		fprintf(stderr,
		        "ccbench: sweep interrupted after %zu of %zu runs; partial "
		        "results written\n",
		        sw.done, sw.n_runs - sw.skipped);
out:
	free(sw.order);
	free(sw.settled);
	json_decref(sw.points);
	json_decref(sw.cfg);
	json_decref(sw.images);
	json_decref(wide_strings);
	return sw.status;
}

/* The sweep command's row: its words and its run, by symbol. */
const struct ccb_command ccb_sweep_commands[] = {
    {
        .name = "sweep",
        .mask = CCB_CMD_SWEEP | CCB_CMD_OUTPUT,
        .mode = CCB_MODE_SEQ,
        .n_args = 1,
        .args_help = "CONFIG",
        .args_kind = CCB_ARG_CONFIG,
        .summary = "run a parameter grid from a JSON config",
        .description =
            "Runs the points of a JSON config: a command, fixed params and a matrix whose "
            "product is the grid, each point --repeat times, interleaved or shuffled with "
            "--seed. CONFIG is a file, or the name of a shipped config (an unknown name lists "
            "them). Prints a table and a recommendation; --json, --csv and --svg write the "
            "runs, the points and a chart. --dry-run checks every point and estimates bytes "
            "and time without contacting anything.",
        .example = "ccbench sweep quick -p rbd --json q.json --svg q.svg",
        .run = ccb_sweep_command,
    },
    {0},
};
