/*
 * The SVG view of a saved sweep: one line per series (a point's matrix
 * values other than the row key), the row value on the x axis. Built in
 * two passes over the points, each point looked up in constant time, with
 * memory for each point once: a crafted document of many points and as
 * many series costs linear time and space, and a failed allocation is an
 * error (-ENOMEM), never a crash.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/capacity_sweep_report.h>
#include "chart.h"
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sweep_int.h"

/* A row value on the chart's x axis: sizes in KiB, numbers as they are, a
 * name (mount-via kernel) its place among the row's names. */
static double x_value(const json_t *v, bool *is_size, const json_t *name_at)
{
	uint64_t b;

	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v) && ccb_parse_bytes(json_string_value(v), &b) == 0) {
		*is_size = true;
		return (double)b / 1024.0;
	}
	if (json_is_string(v) && json_object_get(name_at, json_string_value(v)))
		return (double)json_integer_value(json_object_get(name_at, json_string_value(v)));
	return NAN;
}

/* Label -> its index in @p list, or NULL when out of memory. */
static json_t *index_of(const json_t *list)
{
	json_t *idx = json_object(), *v;
	size_t i;

	json_array_foreach((json_t *)list, i, v)
	{
		if (!idx || json_object_set_new(idx, json_string_value(v),
		                                json_integer((json_int_t)i)) < 0) {
			json_decref(idx);
			return NULL;
		}
	}
	return idx;
}

/* A series' name as its matrix's keys and values (but the row key): the
 * strings kept in @p hold, the two arrays allocated. @return 0 or -ENOMEM. */
static int series_keys(const json_t *matrix, const char *row_key, struct ccb_chart_keys *k,
                       json_t *hold)
{
	size_t n = json_object_size(matrix), m = 0;
	const char **keys = calloc(n + 1, sizeof(*keys)), **vals = calloc(n + 1, sizeof(*vals));
	json_t *v, *kb = json_array(), *vb = json_array();
	const char *key;
	char buf[64];

	if (!keys || !vals || !kb || !vb || json_array_append_new(hold, kb) < 0 ||
	    json_array_append_new(hold, vb) < 0) {
		free(keys);
		free(vals);
		return -ENOMEM;
	}
	json_object_foreach((json_t *)matrix, key, v)
	{
		json_t *ks = json_string(key),
		       *vs = json_string(ccb_sweep_label_of(v, buf, sizeof(buf)));

		if (strcmp(key, row_key) == 0 || !ks || !vs) {
			json_decref(ks);
			json_decref(vs);
			continue;
		}
		json_array_append_new(kb, ks);
		json_array_append_new(vb, vs);
		keys[m] = json_string_value(ks);
		vals[m++] = json_string_value(vs);
	}
	*k = (struct ccb_chart_keys){keys, vals, m};
	return 0;
}

/* " (fuse-loop: cannot show readahead)" after the last value of @p k. */
static int note_last(struct ccb_chart_keys *k, json_t *hold)
{
	const char **vals = (const char **)k->values;
	json_t *v = json_sprintf("%s (fuse-loop: cannot show readahead)", vals[k->n - 1]);

	if (!v || json_array_append_new(hold, v) < 0)
		return -ENOMEM;
	vals[k->n - 1] = json_string_value(v);
	return 0;
}

int ccb_sweep_render_svg(const json_t *doc, FILE *out)
{
	if (strcmp(ccb_sweep_str_or(json_object_get(json_object_get(doc, "config"), "chart"), ""),
	           "latency") == 0)
		return ccb_sweep_render_curve_svg(doc, out);

	const json_t *points = json_object_get(doc, "points"), *p;
	const char *row_key = ccb_sweep_str_or(json_object_get(doc, "row_key"), "");
	/* A sweep of capacity searches draws each point's capacity. */
	bool capacity = ccb_sweep_is_capacity(json_object_get(doc, "config"));
	const char *what = capacity ? "capacity_ops_s" : "bandwidth_mib_s";
	json_t *cols = ccb_sweep_distinct(points, row_key, false);
	json_t *names = ccb_sweep_is_best(json_array_get(json_object_get(doc, "knees"), 0))
	                    ? ccb_sweep_distinct(points, row_key, true)
	                    : json_array();
	json_t *col_at = index_of(cols), *name_at = index_of(names);
	size_t nc = json_array_size(cols), np = json_array_size(points),
	       nn = json_array_size(names);
	size_t *of = calloc(np + 1, sizeof(*of)), *at = calloc(nc + 1, sizeof(*at)), i, j;
	const char **labels = calloc(nn + 1, sizeof(*labels));
	struct ccb_chart_series *ser = calloc(nc + 1, sizeof(*ser));
	double *xs = calloc(np + 1, sizeof(double)), *ys = calloc(np + 1, sizeof(double));
	double *es = calloc(np + 1, sizeof(double));
	bool *fuse = calloc(nc + 1, sizeof(*fuse));
	/* Each series' matrix values (but the row key), for a legend that
	 * names only what differs: their strings held here. */
	struct ccb_chart_keys *keys = calloc(nc + 1, sizeof(*keys));
	json_t *hold = json_array();
	char(*series_labels)[320] = calloc(nc + 1, sizeof(*series_labels));
	bool is_size = false, all_pos = true, repeats = false;
	char xt[128], title[256], cmds[256], buf[256];
	int r = -ENOMEM;

	if (!cols || !names || !col_at || !name_at || !of || !at || !labels || !ser || !xs || !ys ||
	    !es || !fuse || !series_labels || !keys || !hold)
		goto out;
	/* Pass 1: each point's series, how many points each has, and whether
	 * one went through fuse-loop (the legend then says it is not a
	 * readahead curve). */
	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *c;

		ccb_sweep_series_label(json_object_get(p, "matrix"), row_key, buf, sizeof(buf));
		/* A label cut inside a UTF-8 character is no JSON key: no series. */
		c = json_object_get(col_at, buf);
		of[i] = c ? (size_t)json_integer_value(c) : SIZE_MAX;
		if (of[i] >= nc) {
			of[i] = SIZE_MAX;
			continue;
		}
		if (!at[of[i] + 1]++ &&
		    series_keys(json_object_get(p, "matrix"), row_key, &keys[of[i]], hold) < 0)
			goto out;
		fuse[of[i]] |= ccb_sweep_point_fuse_loop(p);
	}
	for (j = 0; j < nc; j++) {
		at[j + 1] += at[j];
		ser[j].label = json_string_value(json_array_get(cols, j));
		if (fuse[j]) {
			snprintf(series_labels[j], sizeof(series_labels[j]),
			         "%s (fuse-loop: cannot show readahead)", ser[j].label);
			ser[j].label = series_labels[j];
			/* The legend names values: the note goes with the last. */
			if (keys[j].n && note_last(&keys[j], hold) < 0)
				goto out;
		}
		ser[j].x = xs + at[j];
		ser[j].y = ys + at[j];
		ser[j].err = es + at[j];
	}
	/* Pass 2: the points that have a figure, in order within each series. */
	json_array_foreach((json_t *)points, i, p)
	{
		struct ccb_chart_series *se;
		double x;
		size_t k;

		if (of[i] == SIZE_MAX)
			continue;
		se = &ser[of[i]];
		k = at[of[i]] + se->n;
		x = x_value(json_object_get(json_object_get(p, "matrix"), row_key), &is_size,
		            name_at);
		if (isnan(x) || !json_integer_value(
		                    json_object_get(json_object_get(p, "aggregate"), "runs_ok")))
			continue;
		all_pos &= x >= 0;
		repeats |= json_integer_value(
		               json_object_get(json_object_get(p, "aggregate"), "runs_ok")) > 1;
		xs[k] = x;
		ys[k] = ccb_sweep_agg(p, what, "mean");
		es[k] = ccb_sweep_agg(p, what, "stddev");
		se->n++;
	}
	/* A log2 axis draws 0 (readahead off) apart, left of a break; negatives, never. */
	snprintf(xt, sizeof(xt), "%s%s", row_key,
	         is_size ? (all_pos ? " (bytes, log2 scale)" : " (KiB)") : "");
	/* Single runs have no spread: no error bars, and no claim of them. */
	for (j = 0; !repeats && j < nc; j++)
		ser[j].err = NULL;
	snprintf(title, sizeof(title), "%s: %s",
	         ccb_sweep_str_or(json_object_get(json_object_get(doc, "config"), "name"),
	                          "ccbench sweep"),
	         ccb_sweep_commands_of(json_object_get(doc, "config"), cmds, sizeof(cmds)));
	for (size_t k = 0; k < nn; k++)
		labels[k] = json_string_value(json_array_get(names, k));
	struct ccb_chart ch = {
	    .title = title,
	    .x_title = xt,
	    .y_title = capacity ? "capacity (ops/s within the SLO)" : "bandwidth (MiB/s)",
	    .err_note = "mean ± stddev of the repeats",
	    .x_format = is_size && all_pos ? CCB_CHART_X_KIB : CCB_CHART_X_NUMBER,
	    .series_keys = keys,
	    .x_log2 = is_size && all_pos,
	    .x_labels = nn ? labels : NULL,
	    .n_x_labels = nn,
	    .series = ser,
	    .n_series = nc};
	r = ccb_chart_svg(&ch, out);
out:
	free(of), free(at), free(fuse), free(ser), free(xs), free(ys), free(es), free(labels);
	free(series_labels);
	for (j = 0; keys && j < nc; j++) {
		free((void *)keys[j].keys);
		free((void *)keys[j].values);
	}
	free(keys);
	json_decref(hold);
	json_decref(col_at);
	json_decref(name_at);
	json_decref(cols);
	json_decref(names);
	return r;
}
