/*
 * One point of a sweep, built from its config: the sweep's own connection
 * options, the command's defaults, the config's parameters, each through
 * the option table and the point's path (its aliases, its rules); the
 * layout of the prefilled image read points share; what a run will cost.
 */
#include <ccbench/capacity.h>
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
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
int ccb_sweep_value_string(const json_t *v, char *buf, size_t len, const char **out)
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

/*
 * Build one point's options: the sweep's own command-line options (the
 * connection, -q), then the command's defaults, then the config's fixed
 * parameters and this point's matrix values.
 */
int ccb_sweep_build_point(const struct ccb_opts *base, const char *command, const json_t *params,
                          struct ccb_sweep_point *b, char *err, size_t err_len)
{
	char cmdbuf[64], num[64];
	const json_t *path = json_object_get(params, "path");
	const char *key;
	json_t *v;

	memset(b, 0, sizeof(*b));
	/* "capacity rados write": each run of the point is a capacity search
	 * of the workload, which also takes the search's options (--slo ...). */
	if (strncmp(command, CCB_SWEEP_CAPACITY_WORD, strlen(CCB_SWEEP_CAPACITY_WORD)) == 0) {
		b->capacity = true;
		command += strlen(CCB_SWEEP_CAPACITY_WORD);
	}
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
	if (b->capacity) {
		struct ccb_cli w;

		if (ccb_capacity_select(&b->cli, cmdbuf, &w, err, err_len) < 0)
			return -EINVAL;
		b->cli = w;
	} else if (ccb_cli_select(&b->cli, cmdbuf, err, err_len) < 0) {
		return -EINVAL;
	}
	if (!b->cli.ops) {
		snprintf(err, err_len, "command: '%s' is not a workload", cmdbuf);
		return -EINVAL;
	}
	b->strings = json_array();
	/* A search's steps each make their image as a run of the workload
	 * does: a prefilled image shared across points is for single runs. */
	b->share_image = !b->capacity && (b->cli.ops->flags & CCB_PATH_TEMP_IMAGE) &&
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
		if (ccb_sweep_value_string(v, num, sizeof(num), &sval) < 0) {
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
		/* Another name of the op size counts as the one the command shows. */
		if (ccb_opt_spelling(d, b->cli.cmd_mask))
			d = ccb_opt_spelling(d, b->cli.cmd_mask);
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
	/* The shared image is named at run time. A path that otherwise makes
	 * its image in a set-up before prepare (krbd) is checked as the run
	 * will be, with a target: a stand-in lets it pass its rules for one
	 * ("--map-options: only with --map"). A path that makes its image in
	 * prepare (librbd) is checked as it was given. */
	if (b->share_image && b->cli.ops->setup)
		ccb_path_set_target(b->cli.ops, &b->cli.opts, "shared/image");
	if (ccb_cli_validate(&b->cli, err, err_len) < 0)
		return -EINVAL;
	/* The shared image is an rbd image: its layout follows rbd's rules. */
	if (b->share_image && (ccb_opts_validate(&b->layout, ccb_cli_command_find("rbd read")->mask,
	                                         err, err_len) < 0 ||
	                       ccb_rbd_validate(&b->layout, err, err_len) < 0))
		return -EINVAL;
	return 0;
}

void ccb_sweep_point_free(struct ccb_sweep_point *b)
{
	json_decref(b->strings);
	b->strings = NULL;
}

/*
 * --until-steady's share of the estimate: a run that is steady at its
 * first chance lasts its ramp and one window; the ramp's bytes (the
 * path's, from the options alone here) take the cluster's time on top.
 */
static json_t *estimate_steady(const struct ccb_sweep_point *b)
{
	struct ccb_opts eo = b->cli.opts;
	struct ccb_run stub = {.opts = &eo, .ops = b->cli.ops, .mode = b->cli.mode};
	bool given = ccb_opt_given(&eo, "steady-ramp");
	double ramp_s = (double)(given ? eo.steady_ramp_usec : CCB_STEADY_RAMP_MIN_USEC) / 1e6;
	double window_s = (double)eo.until_steady.window_usec / 1e6;
	uint64_t ramp_bytes = 0;
	char basis[128] = "";

	/* A shared image is laid out by the point's layout options. */
	if (b->share_image) {
		eo.order = b->layout.order;
		eo.object_size_bytes = b->layout.object_size_bytes;
	}
	if (!given && b->cli.ops->steady_ramp_bytes)
		ramp_bytes = b->cli.ops->steady_ramp_bytes(&stub, basis, sizeof(basis));
	return json_pack("{s:s, s:f, s:I, s:o, s:f, s:f}", "spec", eo.until_steady.text, "ramp_s",
	                 ramp_s, "ramp_bytes", (json_int_t)ramp_bytes, "ramp_basis",
	                 basis[0] ? json_string(basis) : json_null(), "window_s", window_s,
	                 "expected_seconds", ramp_s + window_s);
}

/*
 * What one run of a point will cost, as far as the options say: bytes
 * (null when the run is bound by time, "unbounded", or by something only
 * the cluster knows, "unknown") and seconds (null when bound by bytes).
 * Set-up, connecting and prefilling are not in the seconds.
 */
int ccb_sweep_tradeoff_sizes(const json_t *v, uint64_t sizes[CCB_SWEEP_TRADEOFF_MAX], size_t *n,
                             char *err, size_t err_len)
{
	const json_t *e;
	size_t i;

	*n = 0;
	if (!v || json_is_false(v))
		return 0;
	if (json_is_true(v)) {
		sizes[(*n)++] = 4096;
		return 0;
	}
	if (!json_is_array(v) || !json_array_size(v) ||
	    json_array_size(v) > CCB_SWEEP_TRADEOFF_MAX) {
		snprintf(err, err_len,
		         "'tradeoff' must be true, false or a list of 1 to %d read sizes such as "
		         "[\"4K\", \"64K\"]",
		         CCB_SWEEP_TRADEOFF_MAX);
		return -EINVAL;
	}
	json_array_foreach(v, i, e)
	{
		uint64_t b;
		const char *sv = json_string_value(e);

		if (!sv || ccb_parse_bytes(sv, &b) < 0 || b < 512 || b > (1ull << 30)) {
			snprintf(err, err_len,
			         "tradeoff[%zu]: expected a read size from 512 to 1G "
			         "such as \"4K\"",
			         i);
			return -EINVAL;
		}
		for (size_t j = 0; j < *n; j++)
			if (sizes[j] == b) {
				snprintf(err, err_len, "tradeoff[%zu]: '%s' twice", i, sv);
				return -EINVAL;
			}
		sizes[(*n)++] = b;
	}
	return 0;
}

/*
 * A capacity search's longest: its closed-loop probe (runs of 1 s at 1, 4,
 * 16 ... in flight, then a quarter of a step, 1 to 5 s, as capacity.c),
 * --max-steps steps and the two headroom steps. Most end sooner, at the
 * precision asked.
 */
static json_t *estimate_capacity(const struct ccb_sweep_point *b)
{
	const struct ccb_opts *o = &b->cli.opts;
	uint64_t top = ccb_path_queue_depth(ccb_path_for(b->cli.ops, o), o);
	double step_s = (double)o->step_time_usec / 1e6, probe_s = step_s / 4, secs = 0;

	probe_s = probe_s < 1 ? 1 : probe_s > 5 ? 5 : probe_s;
	for (uint64_t d = 1; d < top; d *= 4)
		secs += 1;
	secs += probe_s + (double)(o->max_steps + 2) * step_s;
	return json_pack("{s:n, s:f, s:s, s:s, s:I, s:f}", "bytes", "seconds", secs, "bound",
	                 "capacity search, at most", "bytes_if_null", "unbounded", "max_steps",
	                 (json_int_t)o->max_steps, "step_s", step_s);
}

json_t *ccb_sweep_estimate_run(const struct ccb_sweep_point *b, size_t n_tradeoff)
{
	const struct ccb_opts *o = &b->cli.opts;
	const struct ccb_path_ops *ops = b->cli.ops;
	bool temp_image = b->share_image || ccb_path_temp_image(ops, o);
	uint64_t image_bytes = b->share_image ? b->layout.image_size_bytes : o->image_size_bytes;
	json_t *bytes = json_null(), *secs = json_null(), *e;
	const char *bound;

	if (b->capacity)
		return estimate_capacity(b);
	if (ccb_opt_given(o, "total")) {
		bound = "total";
		bytes = json_integer((json_int_t)o->total_bytes);
	} else if (ccb_opt_given(o, "duration") || !(ops->flags & CCB_PATH_ONE_PASS)) {
		bound = "duration";
		/* Until steady with no bound of its own: at most a minute (point.c). */
		secs = json_real((double)(o->until_steady.on && !ccb_opt_given(o, "duration")
		                              ? CCB_STEADY_MAX_USEC
		                              : o->duration_usec) /
		                 1e6);
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
	if (n_tradeoff)
		json_object_set_new(
		    e, "tradeoff_seconds",
		    json_real((double)n_tradeoff * (double)CCB_SWEEP_TRADEOFF_USEC / 1e6));
	if (o->until_steady.on)
		json_object_set_new(e, "steady", estimate_steady(b));
	return e;
}
