/*
 * `sweep --dry-run`: the grid a config makes, and what it will cost, from
 * the points ccb_sweep_load() built and checked. Nothing here connects:
 * a CI job (or a before-stop hook with a dead monitor in its conf) learns
 * whether every config is well-formed, and how big it is, in milliseconds.
 *
 * The estimate is only what the options say. A run bound by a duration
 * moves as many bytes as the cluster allows ("unbounded"); a run bound by
 * bytes (one pass over an image, --total, a file size) takes as long as
 * the cluster needs ("unknown"). Both are said as such, never guessed.
 */
#include <ccbench/fs_mount.h>
#include <ccbench/sweep.h>
#include "sweep_runner.h"
#include <ccbench/units.h>

#include <stdio.h>
#include <string.h>

static void human_bytes(double bytes, char *buf, size_t len)
{
	static const char *const unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
	size_t u = 0;

	while (bytes >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0]))
		bytes /= 1024, u++;
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

static void human_seconds(double s, char *buf, size_t len)
{
	if (s < 120)
		snprintf(buf, len, "%.0f s", s);
	else if (s < 7200)
		snprintf(buf, len, "%.0f s (%.1f min)", s, s / 60);
	else
		snprintf(buf, len, "%.0f s (%.1f h)", s, s / 3600);
}

/* "key=value" of a config value, as the CLI spells it. */
static void append_kv(char *buf, size_t len, const char *key, const json_t *v)
{
	size_t l = strlen(buf);
	char num[64];

	if (json_is_string(v))
		snprintf(num, sizeof(num), "%s", json_string_value(v));
	else if (json_is_integer(v))
		snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(num, sizeof(num), "%g", json_real_value(v));
	else
		snprintf(num, sizeof(num), "%s", json_is_true(v) ? "true" : "false");
	snprintf(buf + l, len - l, "%s%s=%s", l ? " " : "", key, num);
}

struct totals {
	double run_bytes, prefill_bytes, seconds;
	size_t runs, bytes_unbounded, bytes_unknown, seconds_unknown, images;
	/* --until-steady and repeat_until: every run steady at its first
	 * chance (expected), and also every point settled after the fewest
	 * runs (fastest); the ramps' bytes, whose time the cluster sets. */
	double expected, fastest, ramp_bytes;
	size_t steady_runs, expected_unknown;
};

static void add_up(const json_t *points, size_t repeat, size_t min_runs, struct totals *t)
{
	json_t *seen = json_object(), *p;
	size_t i;

	memset(t, 0, sizeof(*t));
	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *e = json_object_get(p, "estimate");
		const json_t *b = json_object_get(e, "bytes"), *s = json_object_get(e, "seconds");
		const json_t *pf = json_object_get(e, "prefill");
		const char *bn = json_string_value(json_object_get(e, "bytes_if_null"));

		t->runs += repeat;
		if (json_is_number(b))
			t->run_bytes += json_number_value(b) * (double)repeat;
		else if (bn && strcmp(bn, "unbounded") == 0)
			t->bytes_unbounded += repeat;
		else
			t->bytes_unknown += repeat;
		if (json_is_number(s))
			t->seconds += json_number_value(s) * (double)repeat;
		else
			t->seconds_unknown += repeat;
		/* The random-read cost after each run, or the first tradeoff_runs. */
		double trade = json_number_value(json_object_get(e, "tradeoff_seconds"));
		double trade_runs = (double)repeat;

		if (json_is_integer(json_object_get(e, "tradeoff_runs")) &&
		    json_number_value(json_object_get(e, "tradeoff_runs")) < trade_runs)
			trade_runs = json_number_value(json_object_get(e, "tradeoff_runs"));

		t->seconds += trade * trade_runs;
		{
			const json_t *st = json_object_get(e, "steady");
			double one = -1;

			if (st) {
				one = json_number_value(json_object_get(st, "expected_seconds"));
				t->steady_runs += repeat;
				t->ramp_bytes +=
				    json_number_value(json_object_get(st, "ramp_bytes")) *
				    (double)repeat;
			} else if (json_is_number(s)) {
				one = json_number_value(s);
			}
			if (one < 0) {
				t->expected_unknown += repeat;
			} else {
				t->expected += one * (double)repeat + trade * trade_runs;
				t->fastest +=
				    one * (double)min_runs + trade * (trade_runs < (double)min_runs
				                                          ? trade_runs
				                                          : (double)min_runs);
			}
		}
		/* One prefilled image per layout, made once for the whole sweep. */
		if (pf) {
			const char *k = json_string_value(json_object_get(pf, "layout"));
			if (k && !json_object_get(seen, k)) {
				json_object_set_new(seen, k, json_true());
				t->prefill_bytes += json_number_value(json_object_get(pf, "bytes"));
				t->images++;
			}
		}
	}
	json_decref(seen);
}

static json_t *plan_json(const char *path, const json_t *config, const json_t *points,
                         size_t repeat, uint64_t until, const struct totals *t)
{
	json_t *pts = json_array(), *p;
	size_t i;
	bool bytes_known = !t->bytes_unbounded && !t->bytes_unknown;

	json_array_foreach((json_t *)points, i, p)
	{
		json_t *q = json_deep_copy(p);
		json_object_set_new(q, "index", json_integer((json_int_t)i + 1));
		json_array_append_new(pts, q);
	}
	json_t *plan = json_pack(
	    "{s:s, s:s, s:O?, s:O, s:I, s:I, s:o, s:{s:o, s:I, s:I, s:I, s:I, s:I, s:o, s:f, s:I}}",
	    "kind", "sweep-plan", "config_file", path, "name", json_object_get(config, "name"),
	    "config", (json_t *)config, "repeat", (json_int_t)repeat, "runs", (json_int_t)t->runs,
	    "points", pts, "estimate", "bytes",
	    bytes_known ? json_integer((json_int_t)(t->run_bytes + t->prefill_bytes)) : json_null(),
	    "bytes_known_part", (json_int_t)t->run_bytes, "prefill_bytes",
	    (json_int_t)t->prefill_bytes, "shared_images", (json_int_t)t->images,
	    "runs_bytes_unbounded", (json_int_t)t->bytes_unbounded, "runs_bytes_unknown",
	    (json_int_t)t->bytes_unknown, "seconds",
	    t->seconds_unknown ? json_null() : json_real(t->seconds), "seconds_known_part",
	    t->seconds, "runs_seconds_unknown", (json_int_t)t->seconds_unknown);
	json_t *est = json_object_get(plan, "estimate");
	if (est && (t->steady_runs || until)) {
		json_object_set_new(est, "seconds_expected",
		                    t->expected_unknown ? json_null() : json_real(t->expected));
		json_object_set_new(est, "seconds_expected_known_part", json_real(t->expected));
		json_object_set_new(est, "runs_expected_unknown",
		                    json_integer((json_int_t)t->expected_unknown));
		json_object_set_new(est, "steady_runs", json_integer((json_int_t)t->steady_runs));
		json_object_set_new(est, "steady_ramp_bytes", json_real(t->ramp_bytes));
	}
	if (est && until) {
		json_object_set_new(est, "repeat_until_pct", json_real((double)until / 100));
		json_object_set_new(est, "seconds_if_settled_early",
		                    t->expected_unknown ? json_null() : json_real(t->fastest));
	}
	return plan;
}

/* What applies to the whole sweep: the overrides, the OSD-side delay, the runners. */
static void plan_head(const json_t *config, const struct ccb_opts *o, FILE *f)
{
	char a[64];

	if (o->n_params || ccb_opt_given(o, "repeat") || ccb_opt_given(o, "repeat-until")) {
		fprintf(f, "overrides:");
		for (unsigned k = 0; k < o->n_params; k++)
			fprintf(f, " --param %s", o->params[k]);
		if (ccb_opt_given(o, "repeat"))
			fprintf(f, " --repeat %llu", (unsigned long long)o->repeat);
		if (ccb_opt_given(o, "repeat-until")) {
			char pc[32];
			ccb_format_pct_centi(o->repeat_until_centipct, pc, sizeof(pc));
			fprintf(f, " --repeat-until %s", pc);
		}
		fputc('\n', f);
	}
	if (o->osd_latency_usec) {
		ccb_format_duration(o->osd_latency_usec, a, sizeof(a));
		fprintf(f,
		        "whole sweep: --osd-latency %s: every OSD delays each client message by "
		        "about %s, set before the first point and put back after the last\n",
		        a, a);
	}
	{
		const char *k;
		json_t *v;
		json_object_foreach(json_object_get(config, "runners"), k, v)
		    fprintf(f, "runner of %s points: %s\n", k,
		            ccb_sweep_runner_of(k, o->runner, json_object_get(config, "runners")));
		if (o->runner)
			fprintf(f, "--runner %s\n", o->runner);
	}
}

/* One point of the plan: its command, matrix and fixed parameters, and what a run costs. */
static void plan_point(size_t i, const json_t *p, FILE *f)
{
	char a[64], b[64];

	const json_t *m = json_object_get(p, "matrix"), *e = json_object_get(p, "estimate");
	const json_t *eb = json_object_get(e, "bytes"), *es = json_object_get(e, "seconds");
	char mline[512] = "", fline[1024] = "", cost[256];
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)m, k, v) append_kv(mline, sizeof(mline), k, v);
	json_object_foreach(json_object_get(p, "params"), k, v) if (!json_object_get(m, k))
	    append_kv(fline, sizeof(fline), k, v);
	if (json_is_number(eb))
		human_bytes(json_number_value(eb), a, sizeof(a));
	else
		snprintf(a, sizeof(a), "%s bytes",
		         json_string_value(json_object_get(e, "bytes_if_null")));
	if (json_is_number(es))
		human_seconds(json_number_value(es), b, sizeof(b));
	else
		snprintf(b, sizeof(b), "time unknown");
	snprintf(cost, sizeof(cost), "%s, %s (%s)", a, b,
	         json_string_value(json_object_get(e, "bound")));
	if (json_object_get(e, "tradeoff_seconds"))
		snprintf(cost + strlen(cost), sizeof(cost) - strlen(cost), " + %.0f s tradeoff%s",
		         json_number_value(json_object_get(e, "tradeoff_seconds")),
		         json_object_get(e, "tradeoff_runs") ? " (first runs)" : "");
	const json_t *st = json_object_get(e, "steady");
	if (st) {
		char rb[64] = "";
		size_t l = strlen(cost);
		if (json_number_value(json_object_get(st, "ramp_bytes")) > 0) {
			human_bytes(json_number_value(json_object_get(st, "ramp_bytes")), rb,
			            sizeof(rb));
			snprintf(rb + strlen(rb), sizeof(rb) - strlen(rb), " and ");
		}
		snprintf(cost + l, sizeof(cost) - l, "; until steady: ramp %s%.0f s, window %.0f s",
		         rb, json_number_value(json_object_get(st, "ramp_s")),
		         json_number_value(json_object_get(st, "window_s")));
	}
	fprintf(f, "%5zu  %s %s | %s  ->  %s\n", i + 1,
	        json_string_value(json_object_get(p, "command")), mline, fline, cost);
}

/* The totals: runs, bytes and time, as far as they are known, and with
 * --until-steady or repeat_until what to expect. */
static void plan_totals(const struct totals *t, size_t n, size_t repeat, uint64_t until, FILE *f)
{
	char a[64], b[64];

	fprintf(f, "\nruns: %zu (%zu point%s x %zu repeat%s)\n", t->runs, n, n == 1 ? "" : "s",
	        repeat, repeat == 1 ? "" : "s");

	/* What is known, said once for either verdict. */
	char parts[256] = "";
	human_bytes(t->run_bytes, a, sizeof(a));
	if (t->run_bytes > 0)
		snprintf(parts, sizeof(parts), "%s by the runs", a);
	if (t->images) {
		size_t l = strlen(parts);
		human_bytes(t->prefill_bytes, b, sizeof(b));
		snprintf(parts + l, sizeof(parts) - l, "%s%s to prefill %zu shared image%s",
		         l ? ", " : "", b, t->images, t->images == 1 ? "" : "s");
	}
	if (t->bytes_unbounded)
		fprintf(f,
		        "estimated bytes: unbounded: %zu of %zu runs stop after a duration and "
		        "move what the cluster allows%s%s%s\n",
		        t->bytes_unbounded, t->runs, parts[0] ? " (known part: " : "", parts,
		        parts[0] ? ")" : "");
	else if (t->bytes_unknown)
		fprintf(f,
		        "estimated bytes: unknown: %zu of %zu runs read an image, device or files "
		        "whose size only the cluster knows%s%s%s\n",
		        t->bytes_unknown, t->runs, parts[0] ? " (known part: " : "", parts,
		        parts[0] ? ")" : "");
	else {
		human_bytes(t->run_bytes + t->prefill_bytes, b, sizeof(b));
		fprintf(f, "estimated bytes: %s%s%s%s\n", b, parts[0] ? " (" : "", parts,
		        parts[0] ? ")" : "");
	}
	human_seconds(t->seconds, a, sizeof(a));
	if (t->seconds_unknown && t->seconds > 0)
		fprintf(f,
		        "estimated time: unknown: %zu of %zu runs stop after a number of bytes, "
		        "at the cluster's speed (known part: %s; set-up, connecting and prefill "
		        "come on top)\n",
		        t->seconds_unknown, t->runs, a);
	else if (t->seconds_unknown)
		fprintf(f,
		        "estimated time: unknown: %zu of %zu runs stop after a number of bytes, "
		        "at the cluster's speed (give \"duration\" to bound them)\n",
		        t->seconds_unknown, t->runs);
	else
		fprintf(f,
		        "estimated time: %s of measurement (set-up, connecting and prefill come "
		        "on top)\n",
		        a);
	if (t->steady_runs) {
		human_bytes(t->ramp_bytes, b, sizeof(b));
		human_seconds(t->expected, a, sizeof(a));
		if (t->expected_unknown)
			fprintf(
			    f,
			    "expected with --until-steady: unknown: %zu of %zu runs are bounded "
			    "by bytes alone (known part: %s)\n",
			    t->expected_unknown, t->runs, a);
		else
			fprintf(
			    f,
			    "expected with --until-steady: %s, if every run is steady after its "
			    "ramp and one window (%zu of %zu runs; the ramps' %s take the "
			    "cluster's time on top); a run that never settles goes to its bound "
			    "(the estimate above is that worst case)\n",
			    a, t->steady_runs, t->runs, b);
	}
	if (until && !t->expected_unknown) {
		human_seconds(t->fastest, a, sizeof(a));
		fprintf(f,
		        "with repeat_until %g %%: %s if every point settles after %d runs; %zu "
		        "repeats at most\n",
		        (double)until / 100, a, CCB_SWEEP_MIN_RUNS, repeat);
	}
}

static void plan_text(const char *path, const json_t *config, const json_t *points, size_t repeat,
                      uint64_t until, const struct totals *t, const struct ccb_opts *o, FILE *f)
{
	const char *name = json_string_value(json_object_get(config, "name"));
	const char *command = json_string_value(json_object_get(config, "command"));
	size_t n = json_array_size(points), i;
	json_t *p;

	fprintf(f,
	        "sweep %s (%s): %s, %zu point%s x %zu repeat%s = %zu runs; dry run, nothing "
	        "contacted\n",
	        name ? name : "?", path, command, n, n == 1 ? "" : "s", repeat,
	        repeat == 1 ? "" : "s", t->runs);
	plan_head(config, o, f);
	fprintf(f, "\npoint  command and parameters (matrix | fixed)  ->  per run\n");
	json_array_foreach((json_t *)points, i, p) plan_point(i, p, f);
	plan_totals(t, n, repeat, until, f);
}

/*
 * What this host could not run: a plan is checked as the run would be,
 * but a client the local kernel lacks (--mount-via kernel without the
 * CephFS module) is the host's, not the config's; the plan may be meant
 * for another host. A real run refuses those points (exit 2) before it
 * starts. [{mount_via, points, why}].
 */
static json_t *host_refusals(const json_t *points)
{
	json_t *out = json_array(), *p;
	size_t i;

	json_array_foreach((json_t *)points, i, p)
	{
		const char *via =
		    json_string_value(json_object_get(json_object_get(p, "params"), "mount-via"));
		char why[512];
		json_t *e = NULL, *x;
		size_t j;

		if (!via || ccb_fsmount_available(via, why, sizeof(why)) == 0)
			continue;
		json_array_foreach(out, j,
		                   x) if (strcmp(json_string_value(json_object_get(x, "mount_via")),
		                                 via) == 0) e = x;
		if (!e) {
			e = json_pack("{s:s, s:[], s:s}", "mount_via", via, "points", "why", why);
			json_array_append_new(out, e);
		}
		json_array_append_new(json_object_get(e, "points"),
		                      json_integer((json_int_t)i + 1));
	}
	return out;
}

/*
 * Points that need FastEC (a data pool named by --fastec-pool, or
 * --data-pool-type fastec): only the cluster can say whether its release
 * and pool have it, and a dry run asks no cluster, so they are planned
 * and said: a run refuses them (exit 2) where FastEC is missing.
 */
static json_t *fastec_points(const json_t *points)
{
	json_t *out = json_array(), *p;
	size_t i;

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *pr = json_object_get(p, "params");
		const char *fp = json_string_value(json_object_get(pr, "fastec-pool"));
		const char *t = json_string_value(json_object_get(pr, "data-pool-type"));
		const char *dp = json_string_value(json_object_get(pr, "data-pool"));
		const char *pool = json_string_value(json_object_get(pr, "pool"));
		bool needs =
		    (t && strcmp(t, "fastec") == 0) ||
		    (fp && ((dp && strcmp(dp, fp) == 0) || (!dp && pool && strcmp(pool, fp) == 0)));

		if (needs)
			json_array_append_new(out, json_integer((json_int_t)i + 1));
	}
	return out;
}

int ccb_sweep_dry_run(const char *path, const json_t *config, const json_t *points,
                      const struct ccb_opts *o, FILE *out)
{
	json_t *refusals = host_refusals(points), *x, *fast = fastec_points(points);
	size_t k;
	const json_t *r = json_object_get(config, "repeat");
	size_t repeat = json_is_integer(r) ? (size_t)json_integer_value(r) : 1;
	uint64_t until = ccb_sweep_repeat_until(config);
	struct totals t;

	add_up(points, repeat, until && repeat > CCB_SWEEP_MIN_RUNS ? CCB_SWEEP_MIN_RUNS : repeat,
	       &t);
	if (o->format == CCB_FMT_JSON) {
		json_t *doc = plan_json(path, config, points, repeat, until, &t);
		json_object_set(doc, "host_refusals", refusals);
		json_object_set(doc, "fastec_points", fast);
		json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10));
		fputc('\n', out);
		json_decref(doc);
	} else {
		plan_text(path, config, points, repeat, until, &t, o, out);
		json_array_foreach(refusals, k, x)
		{
			fprintf(out,
			        "on this host: the %zu mount-via=%s point%s would be refused when "
			        "run (exit 2): %s\n",
			        json_array_size(json_object_get(x, "points")),
			        json_string_value(json_object_get(x, "mount_via")),
			        json_array_size(json_object_get(x, "points")) == 1 ? "" : "s",
			        json_string_value(json_object_get(x, "why")));
		}
	}
	if (o->format != CCB_FMT_JSON && json_array_size(fast))
		fprintf(out,
		        "FastEC: %zu point%s need%s a data pool with allow_ec_optimizations "
		        "(Tentacle 20.2 or later); on an older release or a pool without it %s "
		        "refused when run (exit 2)\n",
		        json_array_size(fast), json_array_size(fast) == 1 ? "" : "s",
		        json_array_size(fast) == 1 ? "s" : "",
		        json_array_size(fast) == 1 ? "it is" : "they are");
	json_decref(fast);
	json_decref(refusals);
	return fflush(out) == 0 && !ferror(out) ? 0 : 1;
}
