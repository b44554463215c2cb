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

/* The 4K random reads after each readahead point when "tradeoff" is on. */
#define TRADEOFF_USEC 3000000ull

/* Options that describe the image rather than the I/O (CCB_OPTF_LAYOUT in
 * the option table): points that agree on them share one prefilled image.
 * The pool is one of them: a point that names its pool must read an image
 * made there, or a "compare pools" sweep measures one pool. */
static bool is_layout_key(const char *k)
{
	const struct ccb_opt_desc *d = ccb_opt_find(k);

	return d && ((d->flags & CCB_OPTF_LAYOUT) || strcmp(k, "pool") == 0);
}

/* A point that names an image or device of its own reads that one. */
static bool names_target(const json_t *params)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)params, key, v)
	{
		const struct ccb_opt_desc *d = ccb_opt_find(key);
		if (d && (d->flags & CCB_OPTF_TARGET))
			return true;
	}
	return false;
}

/* A config value as the CLI would spell it; NULL for false flags. */
static int value_string(const json_t *v, char *buf, size_t len, const char **out)
{
	if (json_is_string(v))
		*out = json_string_value(v);
	else if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v)), *out = buf;
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v)), *out = buf;
	else if (json_is_true(v))
		*out = "";
	else if (json_is_false(v))
		*out = NULL;
	else
		return -EINVAL;
	return 0;
}

struct built {
	struct ccb_cli cli; /* command, mask, mode and options of the point */
	json_t *strings;    /* owns every string the options point at */
	char layout_key[512];
	bool share_image;       /* librbd / krbd read points share a prefilled image */
	struct ccb_opts layout; /* options that create the shared image */
};

/*
 * Build one point's options: the sweep's own command-line options (the
 * connection, -q), then the command's defaults, then the config's fixed
 * parameters and this point's matrix values.
 */
static int build_point(const struct ccb_opts *base, const char *command, const json_t *params,
                       struct built *b, char *err, size_t err_len)
{
	char cmdbuf[64], num[64];
	const json_t *path = json_object_get(params, "path");
	const char *key;
	json_t *v;

	memset(b, 0, sizeof(*b));
	snprintf(cmdbuf, sizeof(cmdbuf), "%s", command);
	/* "path" moves a point between the paths that read rbd images
	 * (CCB_PATH_TEMP_IMAGE: librbd, krbd), keeping the command's mode word. */
	if (path) {
		const char *p = json_string_value(path);
		const struct ccb_path_ops *to = p ? ccb_path_find(p, CCB_MODE_SEQ) : NULL;
		const struct ccb_path_ops *from = NULL;
		const char *word = strchr(command, ' '), *moved = NULL;
		struct ccb_cli c;
		char e[128];

		if (!to || !(to->flags & CCB_PATH_TEMP_IMAGE)) {
			snprintf(err, err_len, "path: expected \"librbd\" or \"krbd\"");
			return -EINVAL;
		}
		memset(&c, 0, sizeof(c));
		if (ccb_cli_select(&c, command, e, sizeof(e)) == 0)
			from = c.ops;
		/* The target path's command word ("krbd"), then this mode's word;
		 * a mode the path lacks is then an unknown command. */
		moved = ccb_cli_command_of(to, "read");
		if (!word || !from || !(from->flags & CCB_PATH_TEMP_IMAGE) || !moved) {
			snprintf(err, err_len, "path: only for the rbd and krbd read commands");
			return -EINVAL;
		}
		snprintf(cmdbuf, sizeof(cmdbuf), "%.*s%s", (int)strcspn(moved, " "), moved, word);
	}
	b->cli.opts = *base;
	/* The sweep's own options (--json, --seed ...) are not the point's. */
	memset(b->cli.opts.given, 0, sizeof(b->cli.opts.given));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if (base->given[d - ccb_opt_table] && (d->cmds & CCB_CMD_CONN))
			b->cli.opts.given[d - ccb_opt_table] = true;
	b->cli.opts.quiet = true; /* the sweep prints its own progress */
	if (ccb_cli_select(&b->cli, cmdbuf, err, err_len) < 0)
		return -EINVAL;
	if (!b->cli.ops) {
		snprintf(err, err_len, "command: '%s' is not a workload", cmdbuf);
		return -EINVAL;
	}
	b->strings = json_array();
	b->share_image = (b->cli.ops->flags & CCB_PATH_TEMP_IMAGE) &&
	                 (b->cli.mode == CCB_MODE_SEQ || b->cli.mode == CCB_MODE_RAND) &&
	                 !names_target(params);
	if (b->share_image) {
		char e2[256];
		b->layout = *base;
		memset(b->layout.given, 0, sizeof(b->layout.given));
		struct ccb_cli lc = {.opts = b->layout};
		ccb_cli_select(&lc, "rbd read", e2, sizeof(e2));
		b->layout = lc.opts;
		if (base->pool)
			b->layout.pool = base->pool;
	}
	json_object_foreach((json_t *)params, key, v)
	{
		const struct ccb_opt_desc *d;
		const char *sval, *name = key; /* key itself drives the iteration */
		struct ccb_opts *target = &b->cli.opts;

		if (strcmp(key, "path") == 0)
			continue;
		if (value_string(v, num, sizeof(num), &sval) < 0) {
			snprintf(err, err_len, "%s: expected a string, number or boolean", key);
			return -EINVAL;
		}
		if (b->cli.ops->param_alias &&
		    b->cli.ops->param_alias(key, &name, &sval, num, sizeof(num), err, err_len) < 0)
			return -EINVAL;
		d = ccb_opt_find(name);
		if (!d) {
			snprintf(err, err_len, "%s: no such option", name);
			return -EINVAL;
		}
		if (b->share_image && is_layout_key(name)) {
			target = &b->layout;
			size_t l = strlen(b->layout_key);
			snprintf(b->layout_key + l, sizeof(b->layout_key) - l, "%s=%s;", name,
			         sval ? sval : "");
		}
		if (!sval)
			continue; /* false: the flag stays off */
		if ((d->type == CCB_OPT_FLAG) != (json_is_boolean(v) != 0)) {
			snprintf(err, err_len, "%s: %s", name,
			         d->type == CCB_OPT_FLAG ? "a flag takes true or false"
			                                 : "expected a value, not a boolean");
			return -EINVAL;
		}
		json_array_append_new(b->strings, json_string(sval));
		sval =
		    json_string_value(json_array_get(b->strings, json_array_size(b->strings) - 1));
		if (ccb_opt_set(target, d, sval, err, err_len) < 0)
			return -EINVAL;
		/* The point itself also runs in (and reports) its pool. */
		if (target == &b->layout && strcmp(name, "pool") == 0 &&
		    ccb_opt_set(&b->cli.opts, d, sval, err, err_len) < 0)
			return -EINVAL;
	}
	/* The shared image is named at run time; until then a stand-in lets
	 * the point pass its path's rules for an existing image (krbd's
	 * "--map-options: only with --map"). */
	if (b->share_image && b->cli.ops->setup)
		ccb_path_set_target(b->cli.ops, &b->cli.opts, "shared/image");
	if (ccb_cli_validate(&b->cli, err, err_len) < 0)
		return -EINVAL;
	/* The shared image is an rbd image: its layout follows rbd's rules. */
	if (b->share_image &&
	    (ccb_opts_validate(&b->layout, CCB_CMD_CONN | CCB_CMD_RBD, err, err_len) < 0 ||
	     ccb_rbd_validate(&b->layout, err, err_len) < 0))
		return -EINVAL;
	return 0;
}

static void built_free(struct built *b)
{
	json_decref(b->strings);
	b->strings = NULL;
}

static bool key_allowed(const char *k)
{
	static const char *const keys[] = {"name",   "description", "command", "params",
	                                   "matrix", "path_params", "repeat",  "tradeoff"};
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
 * NULL when neither says (build_point then names the error). */
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
	if (strcmp(key, "path") != 0 && !ccb_opt_find(key)) {
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
	return 0;
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
 * What one run of a point will cost, as far as the options say: bytes
 * (null when the run is bound by time, "unbounded", or by something only
 * the cluster knows, "unknown") and seconds (null when bound by bytes).
 * Set-up, connecting and prefilling are not in the seconds.
 */
static json_t *estimate_run(const struct built *b, bool tradeoff)
{
	const struct ccb_opts *o = &b->cli.opts;
	const struct ccb_path_ops *ops = b->cli.ops;
	bool temp_image = b->share_image || ccb_path_temp_image(ops, o);
	uint64_t image_bytes = b->share_image ? b->layout.image_size_bytes : o->image_size_bytes;
	json_t *bytes = json_null(), *secs = json_null(), *e;
	const char *bound;

	if (ccb_opt_given(o, "total")) {
		bound = "total";
		bytes = json_integer((json_int_t)o->total_bytes);
	} else if (ccb_opt_given(o, "duration") || !(ops->flags & CCB_PATH_ONE_PASS)) {
		bound = "duration";
		secs = json_real((double)o->duration_usec / 1e6);
	} else if (ops->flags & CCB_PATH_FILES) {
		bound = "file size";
	} else {
		bound = "one pass";
	}
	if (json_is_null(bytes) && ops->estimate_bytes) {
		uint64_t n = ops->estimate_bytes(o, b->cli.mode, strcmp(bound, "one pass") == 0,
		                                 temp_image ? image_bytes : 0, &bound);
		if (n) {
			json_decref(bytes);
			bytes = json_integer((json_int_t)n);
		}
	}
	e = json_pack("{s:o, s:o, s:s, s:s}", "bytes", bytes, "seconds", secs, "bound", bound,
	              "bytes_if_null", strcmp(bound, "duration") == 0 ? "unbounded" : "unknown");
	if (b->share_image)
		json_object_set_new(e, "prefill",
		                    json_pack("{s:s, s:I}", "layout", b->layout_key, "bytes",
		                              (json_int_t)b->layout.image_size_bytes));
	if (tradeoff)
		json_object_set_new(e, "tradeoff_seconds", json_real((double)TRADEOFF_USEC / 1e6));
	return e;
}

int ccb_sweep_load(const char *path, const struct ccb_opts *sweep_opts, json_t **out_config,
                   json_t **out_points, char *err, size_t err_len)
{
	json_error_t jerr;
	json_t *cfg = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	json_t *matrix, *params, *scopes, *points = NULL, *v;
	const char *key, *command;
	size_t total = 1;
	bool tradeoff;
	char e2[512];

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
	json_object_foreach(cfg, key, v)
	{
		if (!key_allowed(key)) {
			snprintf(
			    err, err_len,
			    "%s: unknown key '%s' (expected name, description, command, params, "
			    "matrix, path_params, repeat, tradeoff)",
			    path, key);
			goto bad;
		}
	}
	command = json_string_value(json_object_get(cfg, "command"));
	if (!command) {
		snprintf(err, err_len, "%s: 'command' must be a string such as \"rbd read\"", path);
		goto bad;
	}
	params = json_object_get(cfg, "params");
	if (params && !json_is_object(params)) {
		snprintf(err, err_len, "%s: 'params' must be an object", path);
		goto bad;
	}
	matrix = json_object_get(cfg, "matrix");
	if (!json_is_object(matrix) || !json_object_size(matrix)) {
		snprintf(err, err_len, "%s: 'matrix' must be an object of non-empty lists", path);
		goto bad;
	}
	scopes = json_object_get(cfg, "path_params");
	if (check_path_params(scopes, params, matrix, path, err, err_len) < 0)
		goto bad;
	if (apply_overrides(cfg, sweep_opts, err, err_len) < 0)
		goto bad;
	params = json_object_get(cfg, "params"); /* an override may have made it */
	v = json_object_get(cfg, "repeat");
	if (v &&
	    (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)) {
		snprintf(err, err_len, "%s: 'repeat' must be an integer from 1 to 1000", path);
		goto bad;
	}
	v = json_object_get(cfg, "tradeoff");
	if (v && !json_is_boolean(v)) {
		snprintf(err, err_len, "%s: 'tradeoff' must be true or false", path);
		goto bad;
	}
	tradeoff = json_is_true(v);
	v = json_object_get(cfg, "name");
	if (v && !json_is_string(v)) {
		snprintf(err, err_len, "%s: 'name' must be a string", path);
		goto bad;
	}
	json_object_foreach(matrix, key, v)
	{
		if (!json_is_array(v) || !json_array_size(v)) {
			snprintf(err, err_len, "%s: matrix.%s must be a non-empty list", path, key);
			goto bad;
		}
		if (params && json_object_get(params, key)) {
			snprintf(err, err_len, "%s: '%s' is both in params and in matrix", path,
			         key);
			goto bad;
		}
		total *= json_array_size(v);
		if (total > 100000) {
			snprintf(err, err_len, "%s: the matrix has more than 100000 points", path);
			goto bad;
		}
	}

	/* The cartesian product, first axis slowest. Every point is built and
	 * checked now, so a bad value fails before anything runs. */
	points = json_array();
	for (size_t idx = 0; idx < total; idx++) {
		json_t *p = params ? json_deep_copy(params) : json_object();
		json_t *mvals = json_object(), *scope;
		size_t rest = idx, stride = total;
		const char *pp;
		struct built b;

		json_object_foreach(matrix, key, v)
		{
			size_t n = json_array_size(v);
			stride /= n;
			json_t *val = json_array_get(v, rest / stride);
			rest %= stride;
			json_object_set(p, key, val);
			json_object_set(mvals, key, val);
		}
		/* Parameters scoped to this point's path join its own. */
		pp = point_path(command, p);
		scope = pp ? json_object_get(scopes, pp) : NULL;
		if (scope)
			json_object_update(p, scope);
		if (build_point(sweep_opts, command, p, &b, e2, sizeof(e2)) < 0) {
			char where[256] = "";
			json_object_foreach(mvals, key, v)
			{
				char vb[64];
				const char *vs = NULL;
				value_string(v, vb, sizeof(vb), &vs);
				size_t l = strlen(where);
				snprintf(where + l, sizeof(where) - l, "%s%s=%s", l ? ", " : "",
				         key, vs ? vs : "false");
			}
			snprintf(err, err_len, "%s: point {%s}: %s", path, where, e2);
			built_free(&b);
			json_decref(p);
			json_decref(mvals);
			goto bad;
		}
		json_array_append_new(
		    points,
		    json_pack("{s:s, s:o, s:o, s:o}", "command", b.cli.command, "params", p,
		              "matrix", mvals, "estimate",
		              estimate_run(&b, tradeoff && (json_object_get(p, "readahead") ||
		                                            json_object_get(p, "read-ahead-kb")))));
		built_free(&b);
	}
	*out_config = cfg;
	*out_points = points;
	return 0;
bad:
	json_decref(points);
	json_decref(cfg);
	return -EINVAL;
}

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
static int run_tradeoff(struct built *b, const char *image_spec, json_t *result)
{
	struct built t = *b;
	struct ccb_point pt;
	json_t *res = NULL;
	char err[256];
	int st;

	t.cli.opts.queue_depth = 1;
	t.cli.opts.duration_usec = TRADEOFF_USEC;
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
		struct built b;
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
		if (build_point(o, json_string_value(json_object_get(pt, "command")),
		                json_object_get(pt, "params"), &b, err, sizeof(err)) < 0) {
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
					built_free(&b);
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
		built_free(&b);
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
