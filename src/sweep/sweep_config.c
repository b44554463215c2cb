/*
 * Loading a sweep config: its keys, --param and --repeat overrides,
 * path_params scopes, and every point built and checked before anything
 * runs (a bad config exits 2 with the key it is about).
 */
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/cli.h>
#include <ccbench/engine.h>
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/point.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/sweep.h>
#include "sweep_point.h"
#include "sweep_runner.h"
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool key_allowed(const char *k)
{
	static const char *const keys[] = {"name",     "description",   "command", "params",
	                                   "matrix",   "path_params",   "repeat",  "repeat_until",
	                                   "tradeoff", "tradeoff_runs", "runners", "chart"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strcmp(k, keys[i]) == 0)
			return true;
	return false;
}

/* Paths a config may scope parameters to ("path_params"), named as the
 * commands name them (the path tables' names). */
static bool is_path_name(const char *s)
{
	return ccb_path_find(s, CCB_MODE_SEQ) != NULL;
}

/* The path a point runs through: its "path" value, else its command's.
 * NULL when neither says (ccb_sweep_build_point then names the error). */
static const char *point_path(const char *command, const json_t *p)
{
	struct ccb_cli c;
	char e[128];

	if (json_object_get(p, "path"))
		return json_string_value(json_object_get(p, "path"));
	memset(&c, 0, sizeof(c));
	if (ccb_cli_select(&c, command, e, sizeof(e)) < 0)
		return NULL;
	return c.path;
}

/*
 * A --param VALUE as the config would hold it: a JSON list when it starts
 * with '[', true/false for a flag, an integer for an integer option (so the
 * point's matrix reads as the config's would), else the CLI string.
 */
static json_t *param_value(const char *arg, const char *key, const char *val, char *err,
                           size_t err_len)
{
	const struct ccb_opt_desc *d = ccb_opt_find(key);
	json_error_t jerr;
	json_t *l;

	if (val[0] == '[') {
		l = json_loads(val, JSON_REJECT_DUPLICATES, &jerr);
		if (!json_is_array(l) || !json_array_size(l)) {
			snprintf(err, err_len, "--param '%s': expected a non-empty JSON list%s%s",
			         arg, l ? "" : ": ", l ? "" : jerr.text);
			json_decref(l);
			return NULL;
		}
		return l;
	}
	if (d && d->type == CCB_OPT_FLAG) {
		if (strcmp(val, "true") != 0 && strcmp(val, "false") != 0) {
			snprintf(err, err_len, "--param '%s': --%s is a flag: true or false", arg,
			         key);
			return NULL;
		}
		return json_boolean(strcmp(val, "true") == 0);
	}
	if (d && d->type == CCB_OPT_UINT && strlen(val) < 19 &&
	    strspn(val, "0123456789") == strlen(val))
		return json_integer((json_int_t)strtoll(val, NULL, 10));
	return json_string(val);
}

/*
 * One --param KEY=VALUE, applied to the loaded config before the grid is
 * built, so an override is checked like the config itself. KEY goes where
 * the config has it: a matrix axis becomes the one value (a JSON list
 * replaces the axis, or makes one); a key scoped in path_params is replaced
 * in each scope that holds it; anything else lands in params. KEY= (empty)
 * removes KEY from params and path_params.
 */
static int apply_param(json_t *cfg, const char *arg, char *err, size_t err_len)
{
	json_t *matrix = json_object_get(cfg, "matrix");
	json_t *scopes = json_object_get(cfg, "path_params");
	json_t *params = json_object_get(cfg, "params");
	const char *eq = strchr(arg, '='), *val = eq + 1, *sk;
	char key[128];
	json_t *v, *sv;
	bool scoped = false;

	if ((size_t)(eq - arg) >= sizeof(key)) {
		snprintf(err, err_len, "--param '%.60s...': key too long", arg);
		return -EINVAL;
	}
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	if (strcmp(key, "path") != 0 && strcmp(key, "command") != 0 && !ccb_opt_find(key)) {
		snprintf(err, err_len, "--param '%s': no such option '%s'", arg, key);
		return -EINVAL;
	}
	if (!val[0]) {
		if (json_object_get(matrix, key)) {
			snprintf(err, err_len,
			         "--param '%s': '%s' is a matrix axis; give a value or a list", arg,
			         key);
			return -EINVAL;
		}
		if (params)
			json_object_del(params, key);
		json_object_foreach(scopes, sk, sv) json_object_del(sv, key);
		return 0;
	}
	v = param_value(arg, key, val, err, err_len);
	if (!v)
		return -EINVAL;
	if (json_is_array(v)) {
		if (params)
			json_object_del(params, key);
		json_object_foreach(scopes, sk, sv) json_object_del(sv, key);
		json_object_set_new(matrix, key, v);
		return 0;
	}
	/* The config's command, unless the matrix varies it. */
	if (strcmp(key, "command") == 0 && !json_object_get(matrix, key)) {
		json_object_set_new(cfg, "command", v);
		return 0;
	}
	if (json_object_get(matrix, key)) {
		json_t *one = json_array();
		json_array_append_new(one, v);
		json_object_set_new(matrix, key, one);
		return 0;
	}
	json_object_foreach(scopes, sk, sv)
	{
		if (json_object_get(sv, key)) {
			json_object_set(sv, key, v);
			scoped = true;
		}
	}
	if (!scoped) {
		if (!params) {
			params = json_object();
			json_object_set_new(cfg, "params", params);
		}
		json_object_set(params, key, v);
	}
	json_decref(v);
	return 0;
}

/* Does the config set KEY anywhere (params, matrix, a path scope)? */
static bool config_sets(const json_t *cfg, const char *key)
{
	const char *sk;
	json_t *sv;

	if (json_object_get(json_object_get(cfg, "params"), key) ||
	    json_object_get(json_object_get(cfg, "matrix"), key))
		return true;
	json_object_foreach(json_object_get(cfg, "path_params"), sk,
	                    sv) if (json_object_get(sv, key)) return true;
	return false;
}

/*
 * The command line over the config: -p POOL first (the default pool of
 * every point; where the config names a pool itself, -p replaces it like
 * --param pool=POOL, rather than being silently outvoted), then each
 * --param in order, then --repeat N.
 */
static int apply_overrides(json_t *cfg, const struct ccb_opts *o, char *err, size_t err_len)
{
	if (ccb_opt_given(o, "pool") && config_sets(cfg, "pool")) {
		char arg[300];
		snprintf(arg, sizeof(arg), "pool=%s", o->pool);
		if (apply_param(cfg, arg, err, err_len) < 0)
			return -EINVAL;
	}
	for (unsigned i = 0; i < o->n_params; i++)
		if (apply_param(cfg, o->params[i], err, err_len) < 0)
			return -EINVAL;
	if (ccb_opt_given(o, "repeat"))
		json_object_set_new(cfg, "repeat", json_integer((json_int_t)o->repeat));
	if (ccb_opt_given(o, "repeat-until")) {
		char pct[32];
		ccb_format_pct_centi(o->repeat_until_centipct, pct, sizeof(pct));
		json_object_set_new(cfg, "repeat_until", json_string(pct));
	}
	return 0;
}

/* "repeat_until": "5%", "2.5" or a number (percent); 0 is off. */
static int repeat_until_of(const json_t *v, uint64_t *centi)
{
	char buf[64];

	*centi = 0;
	if (!v)
		return 0;
	if (json_is_integer(v) && json_integer_value(v) >= 0 && json_integer_value(v) <= 100) {
		*centi = (uint64_t)json_integer_value(v) * 100;
		return 0;
	}
	if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%g", json_real_value(v));
	else if (json_is_string(v))
		snprintf(buf, sizeof(buf), "%s", json_string_value(v));
	else
		return -EINVAL;
	if (ccb_parse_pct_centi(buf, centi) < 0 || *centi > 10000)
		return -EINVAL;
	return 0;
}

uint64_t ccb_sweep_repeat_until(const json_t *config)
{
	const json_t *rep = json_object_get(config, "repeat");
	uint64_t c;

	/* At most CCB_SWEEP_MIN_RUNS repeats (a config shrunk with --repeat 1):
	 * nothing could stop early, so nothing is said of it. */
	if (!json_is_integer(rep) || json_integer_value(rep) <= CCB_SWEEP_MIN_RUNS)
		return 0;
	return repeat_until_of(json_object_get(config, "repeat_until"), &c) < 0 ? 0 : c;
}

/* path_params: {PATH: {option: value}}, each key in one place only. */
static int check_path_params(const json_t *scopes, const json_t *params, const json_t *matrix,
                             const char *file, char *err, size_t err_len)
{
	const char *sk, *k;
	json_t *sv, *v;

	if (!scopes)
		return 0;
	if (!json_is_object(scopes)) {
		snprintf(err, err_len,
		         "%s: 'path_params' must be an object such as "
		         "{\"librbd\": {\"sim-osd-latency\": \"2ms\"}}",
		         file);
		return -EINVAL;
	}
	json_object_foreach((json_t *)scopes, sk, sv)
	{
		if (!is_path_name(sk)) {
			snprintf(
			    err, err_len,
			    "%s: path_params.%s: not a path (expected rados, librbd, krbd, cephfs)",
			    file, sk);
			return -EINVAL;
		}
		if (!json_is_object(sv)) {
			snprintf(err, err_len, "%s: path_params.%s must be an object", file, sk);
			return -EINVAL;
		}
		json_object_foreach(sv, k, v)
		{
			const char *where = strcmp(k, "path") == 0       ? "path_params"
			                    : json_object_get(params, k) ? "params"
			                    : json_object_get(matrix, k) ? "matrix"
			                                                 : NULL;
			if (where) {
				snprintf(
				    err, err_len,
				    "%s: path_params.%s.%s: '%s' is also in %s; give it in one "
				    "place",
				    file, sk, k, k, where);
				return -EINVAL;
			}
		}
	}
	return 0;
}
/*
 * Options that change something for the whole sweep (CCB_OPTF_SWEEP_WIDE:
 * --osd-latency) are made once, before the first point: in a config they
 * belong in "params", never in a matrix or a path's scope, where they
 * would seem to vary per point. Their values are checked here, as the
 * command line's are, so a bad one fails before anything runs.
 */
static int check_sweep_wide(const json_t *cfg, const struct ccb_opts *sweep_opts, const char *file,
                            char *err, size_t err_len)
{
	struct ccb_opts wide;
	json_t *strings = json_array();
	int r = ccb_sweep_wide_opts(cfg, sweep_opts, &wide, strings, err, err_len);
	const char *sk;
	json_t *sv;

	json_decref(strings);
	if (r < 0)
		return r;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const char *where = NULL;

		if (!(d->flags & CCB_OPTF_SWEEP_WIDE))
			continue;
		if (json_object_get(json_object_get(cfg, "matrix"), d->name))
			where = "matrix";
		json_object_foreach(json_object_get(cfg, "path_params"), sk,
		                    sv) if (json_object_get(sv, d->name)) where = "path_params";
		if (where) {
			snprintf(
			    err, err_len,
			    "%s: '%s' in %s: it applies to the whole sweep (set once before the "
			    "first point); give it in params or on the command line",
			    file, d->name, where);
			return -EINVAL;
		}
	}
	return 0;
}

int ccb_sweep_wide_opts(const json_t *cfg, const struct ccb_opts *sweep_opts, struct ccb_opts *wide,
                        json_t *strings, char *err, size_t err_len)
{
	const json_t *params = json_object_get(cfg, "params");

	*wide = *sweep_opts;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		const json_t *v = json_object_get(params, d->name);
		const char *sval;
		char num[64];

		/* The command line's own value wins over the config's. */
		if (!(d->flags & CCB_OPTF_SWEEP_WIDE) || !v || ccb_opt_given(sweep_opts, d->name))
			continue;
		if (ccb_sweep_value_string(v, num, sizeof(num), &sval) < 0 || !sval) {
			snprintf(err, err_len, "params.%s: expected a string or a number", d->name);
			return -EINVAL;
		}
		json_array_append_new(strings, json_string(sval));
		sval = json_string_value(json_array_get(strings, json_array_size(strings) - 1));
		if (ccb_opt_set(wide, d, sval, err, err_len) < 0)
			return -EINVAL;
	}
	/* The sweep command's own options (its output ones too), with the point options
	 * the whole sweep may take. */
	return ccb_opts_validate(wide, CCB_CMD_SWEEP | CCB_CMD_OUTPUT | CCB_CMD_CONN, err, err_len);
}

/* The config's keys, each of the right shape and range, and its matrix's
 * size (*@p total points); what the tradeoff measures, and after how many
 * runs. */
static int check_config(json_t *cfg, const struct ccb_opts *sweep_opts, const char *path,
                        size_t *total, size_t *n_tradeoff, size_t *tradeoff_runs, char *err,
                        size_t err_len)
{
	uint64_t tradeoff_sizes[CCB_SWEEP_TRADEOFF_MAX];
	json_t *matrix, *params, *scopes, *v;
	const char *key, *command;
	char e2[512];

	*total = 1;
	json_object_foreach(cfg, key, v)
	{
		if (!key_allowed(key)) {
			snprintf(
			    err, err_len,
			    "%s: unknown key '%s' (expected name, description, command, params, "
			    "matrix, path_params, repeat, repeat_until, tradeoff, tradeoff_runs, "
			    "runners, chart)",
			    path, key);
			return -EINVAL;
		}
	}
	command = json_string_value(json_object_get(cfg, "command"));
	if (!command) {
		snprintf(err, err_len, "%s: 'command' must be a string such as \"rbd read\"", path);
		return -EINVAL;
	}
	params = json_object_get(cfg, "params");
	if (params && !json_is_object(params)) {
		snprintf(err, err_len, "%s: 'params' must be an object", path);
		return -EINVAL;
	}
	matrix = json_object_get(cfg, "matrix");
	if (!json_is_object(matrix) || !json_object_size(matrix)) {
		snprintf(err, err_len, "%s: 'matrix' must be an object of non-empty lists", path);
		return -EINVAL;
	}
	scopes = json_object_get(cfg, "path_params");
	if (check_path_params(scopes, params, matrix, path, err, err_len) < 0)
		return -EINVAL;
	if (apply_overrides(cfg, sweep_opts, err, err_len) < 0)
		return -EINVAL;
	params = json_object_get(cfg, "params"); /* an override may have made it */
	if (check_sweep_wide(cfg, sweep_opts, path, err, err_len) < 0)
		return -EINVAL;
	if (ccb_sweep_runners_check(json_object_get(cfg, "runners"), sweep_opts->runner, e2,
	                            sizeof(e2)) < 0) {
		snprintf(err, err_len, "%s: %s", path, e2);
		return -EINVAL;
	}
	command = json_string_value(json_object_get(cfg, "command")); /* or replaced it */
	if (!command) {
		snprintf(err, err_len, "%s: 'command' must be a string such as \"rbd read\"", path);
		return -EINVAL;
	}
	v = json_object_get(cfg, "repeat");
	if (v &&
	    (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)) {
		snprintf(err, err_len, "%s: 'repeat' must be an integer from 1 to 1000", path);
		return -EINVAL;
	}
	{
		uint64_t ru;

		v = json_object_get(cfg, "repeat_until");
		if (repeat_until_of(v, &ru) < 0) {
			snprintf(
			    err, err_len,
			    "%s: 'repeat_until' must be a percentage from 0%% to 100%% such as "
			    "\"5%%\" (0: off)",
			    path);
			return -EINVAL;
		}
	}
	if (ccb_sweep_tradeoff_sizes(json_object_get(cfg, "tradeoff"), tradeoff_sizes, n_tradeoff,
	                             e2, sizeof(e2)) < 0) {
		snprintf(err, err_len, "%s: %s", path, e2);
		return -EINVAL;
	}
	v = json_object_get(cfg, "tradeoff_runs");
	if (v &&
	    (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)) {
		snprintf(err, err_len,
		         "%s: 'tradeoff_runs' must be an integer from 1 to 1000 (the runs of each "
		         "point that measure the tradeoff; default: all)",
		         path);
		return -EINVAL;
	}
	*tradeoff_runs = v ? (size_t)json_integer_value(v) : 0;
	/* What --svg draws: bandwidth against the row key, or the closed
	 * loop's curve (throughput against latency, as CBT's total_iodepth). */
	v = json_object_get(cfg, "chart");
	if (v && (!json_is_string(v) || (strcmp(json_string_value(v), "bandwidth") != 0 &&
	                                 strcmp(json_string_value(v), "latency") != 0))) {
		snprintf(err, err_len, "%s: 'chart' must be \"bandwidth\" or \"latency\"", path);
		return -EINVAL;
	}
	v = json_object_get(cfg, "name");
	if (v && !json_is_string(v)) {
		snprintf(err, err_len, "%s: 'name' must be a string", path);
		return -EINVAL;
	}
	json_object_foreach(matrix, key, v)
	{
		if (!json_is_array(v) || !json_array_size(v)) {
			snprintf(err, err_len, "%s: matrix.%s must be a non-empty list", path, key);
			return -EINVAL;
		}
		if (params && json_object_get(params, key)) {
			snprintf(err, err_len, "%s: '%s' is both in params and in matrix", path,
			         key);
			return -EINVAL;
		}
		*total *= json_array_size(v);
		if (*total > 100000) {
			snprintf(err, err_len, "%s: the matrix has more than 100000 points", path);
			return -EINVAL;
		}
	}

	/* A grid of capacity searches: each run is a search with its own steps,
	 * so what belongs to single runs does not apply. */
	if (ccb_sweep_is_capacity(cfg)) {
		static const char *const single[] = {"runners", "tradeoff", "tradeoff_runs",
		                                     "repeat_until", "chart"};

		for (size_t k = 0; k < sizeof(single) / sizeof(single[0]); k++)
			if (json_object_get(cfg, single[k])) {
				snprintf(err, err_len,
				         "%s: '%s' is not for a capacity sweep (each run is a "
				         "capacity search)",
				         path, single[k]);
				return -EINVAL;
			}
	}

	return 0;
}

/* Point @p idx of the cartesian product (first axis slowest), built and
 * checked as its run will be, appended to @p points with its estimate. */
static int add_point(json_t *cfg, const struct ccb_opts *sweep_opts, const char *path, size_t idx,
                     size_t total, size_t n_tradeoff, size_t tradeoff_runs, json_t *points,
                     char *err, size_t err_len)
{
	json_t *params = json_object_get(cfg, "params"), *matrix = json_object_get(cfg, "matrix");
	json_t *scopes = json_object_get(cfg, "path_params"), *v;
	const char *key, *command = json_string_value(json_object_get(cfg, "command"));
	char e2[512];

	json_t *p = params ? json_deep_copy(params) : json_object();
	json_t *mvals = json_object(), *scope;
	size_t rest = idx, stride = total;
	const char *pp, *pcmd;
	struct ccb_sweep_point b;

	json_object_foreach(matrix, key, v)
	{
		size_t n = json_array_size(v);
		stride /= n;
		json_t *val = json_array_get(v, rest / stride);
		rest %= stride;
		json_object_set(p, key, val);
		json_object_set(mvals, key, val);
	}
	/* A "command" axis runs each point's own command (fs write and fs
	 * read side by side); the config's names the rest. */
	pcmd = command;
	if (json_object_get(p, "command")) {
		pcmd = json_string_value(json_object_get(mvals, "command"));
		json_object_del(p, "command");
	}
	/* Parameters scoped to this point's path join its own. */
	pp = pcmd ? point_path(pcmd, p) : NULL;
	scope = pp ? json_object_get(scopes, pp) : NULL;
	if (scope)
		json_object_update(p, scope);
	/* The whole sweep's (--osd-latency): made once by the sweep, not per point. */
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (d->flags & CCB_OPTF_SWEEP_WIDE)
			json_object_del(p, d->name);
	if (!pcmd) {
		snprintf(e2, sizeof(e2), "matrix.command: expected strings such as \"fs read\"");
		memset(&b, 0, sizeof(b));
	}
	if (pcmd && ccb_sweep_is_capacity(cfg) != (strncmp(pcmd, CCB_SWEEP_CAPACITY_WORD,
	                                                   strlen(CCB_SWEEP_CAPACITY_WORD)) == 0)) {
		snprintf(e2, sizeof(e2),
		         "command: '%s': a sweep is of capacity searches or of single runs, "
		         "not both",
		         pcmd);
		pcmd = NULL;
		memset(&b, 0, sizeof(b));
	}
	if (!pcmd || ccb_sweep_build_point(sweep_opts, pcmd, p, &b, e2, sizeof(e2)) < 0) {
		char where[256] = "";
		json_object_foreach(mvals, key, v)
		{
			char vb[64];
			const char *vs = NULL;
			ccb_sweep_value_string(v, vb, sizeof(vb), &vs);
			size_t l = strlen(where);
			snprintf(where + l, sizeof(where) - l, "%s%s=%s", l ? ", " : "", key,
			         vs ? vs : "false");
		}
		snprintf(err, err_len, "%s: point {%s}: %s", path, where, e2);
		ccb_sweep_point_free(&b);
		json_decref(p);
		json_decref(mvals);
		return -EINVAL;
	}
	json_t *est = ccb_sweep_estimate_run(
	    &b, json_object_get(p, "readahead") || json_object_get(p, "read-ahead-kb") ? n_tradeoff
	                                                                               : 0);
	/* tradeoff_runs: after the point's first N runs only. */
	if (tradeoff_runs && json_object_get(est, "tradeoff_seconds"))
		json_object_set_new(est, "tradeoff_runs", json_integer((json_int_t)tradeoff_runs));
	char cmdname[96];

	snprintf(cmdname, sizeof(cmdname), "%s%s", b.capacity ? CCB_SWEEP_CAPACITY_WORD : "",
	         b.cli.command);
	json_array_append_new(points, json_pack("{s:s, s:o, s:o, s:o}", "command", cmdname,
	                                        "params", p, "matrix", mvals, "estimate", est));
	ccb_sweep_point_free(&b);
	return 0;
}

int ccb_sweep_load(const char *path, const struct ccb_opts *sweep_opts, json_t **out_config,
                   json_t **out_points, char *err, size_t err_len)
{
	json_error_t jerr;
	json_t *cfg = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	json_t *points = NULL;
	size_t total = 1, n_tradeoff = 0, tradeoff_runs = 0;

	if (!cfg) {
		if (jerr.line > 0)
			snprintf(err, err_len, "%s:%d:%d: %s", path, jerr.line, jerr.column,
			         jerr.text);
		else
			snprintf(err, err_len, "%s", jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(cfg)) {
		snprintf(err, err_len, "%s: expected a JSON object", path);
		goto bad;
	}
	if (check_config(cfg, sweep_opts, path, &total, &n_tradeoff, &tradeoff_runs, err, err_len) <
	    0)
		goto bad;
	/* Every point is built and checked now, so a bad value fails before
	 * anything runs. */
	points = json_array();
	for (size_t idx = 0; idx < total; idx++)
		if (add_point(cfg, sweep_opts, path, idx, total, n_tradeoff, tradeoff_runs, points,
		              err, err_len) < 0)
			goto bad;
	*out_config = cfg;
	*out_points = points;
	return 0;
bad:
	json_decref(points);
	json_decref(cfg);
	return -EINVAL;
}
