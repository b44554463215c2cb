/*
 * A saved sweep read back (`ccbench report`, `explain`, `compare`) may be
 * anyone's file: before a view walks it, its shape and its counts are
 * checked here, so a crafted one is refused with one message rather than
 * crash a view or keep it busy for hours. The bounds are far above what a
 * sweep that ran produces (each point is at least a run of a second).
 */
#include <ccbench/sweep_report.h>
#include <ccbench/report.h>

#include <errno.h>
#include <stdio.h>

#define MAX_POINTS         10000
#define MAX_RUNS_PER_POINT 1000 /* --repeat's own maximum */
#define MAX_RUNS           200000
#define MAX_MATRIX_KEYS    64
#define MAX_KNEES          256
#define MAX_KNEE_OTHERS    512 /* over all knees: each is looked up among the points */
#define MAX_EXPLAIN        256

int ccb_sweep_doc_check(const json_t *doc, char *err, size_t err_len)
{
	const json_t *points = json_object_get(doc, "points"),
	             *knees = json_object_get(doc, "knees");
	const json_t *p, *k;
	size_t i, runs = 0, others = 0;

	if (!json_is_array(points) || json_array_size(points) > MAX_POINTS) {
		snprintf(err, err_len, "\"points\": %s",
		         json_is_array(points) ? "more than 10000" : "not a list");
		return -EINVAL;
	}
	if (json_object_get(doc, "row_key") && !json_is_string(json_object_get(doc, "row_key"))) {
		snprintf(err, err_len, "\"row_key\": not a string");
		return -EINVAL;
	}
	json_array_foreach(points, i, p)
	{
		const json_t *m = json_object_get(p, "matrix"), *rs = json_object_get(p, "runs"),
		             *r;
		size_t j;

		if (!json_is_object(p) || (m && !json_is_object(m)) ||
		    json_object_size(m) > MAX_MATRIX_KEYS || (rs && !json_is_array(rs)) ||
		    json_array_size(rs) > MAX_RUNS_PER_POINT ||
		    (runs += json_array_size(rs)) > MAX_RUNS) {
			snprintf(
			    err, err_len,
			    "point %zu: not an object with a matrix (at most %d keys) and runs (at "
			    "most %d, %d in all)",
			    i + 1, MAX_MATRIX_KEYS, MAX_RUNS_PER_POINT, MAX_RUNS);
			return -EINVAL;
		}
		json_array_foreach(rs, j, r)
		{
			if (json_array_size(json_object_get(r, "explain")) > MAX_EXPLAIN) {
				snprintf(err, err_len,
				         "point %zu run %zu: more than %d explain entries", i + 1,
				         j + 1, MAX_EXPLAIN);
				return -EINVAL;
			}
		}
	}
	if (knees && (!json_is_array(knees) || json_array_size(knees) > MAX_KNEES)) {
		snprintf(err, err_len, "\"knees\": not a list of at most %d", MAX_KNEES);
		return -EINVAL;
	}
	json_array_foreach(knees, i, k)
	{
		if ((others += 1 + json_array_size(json_object_get(k, "others"))) >
		    MAX_KNEE_OTHERS) {
			snprintf(err, err_len,
			         "\"knees\": more than %d knees and values to compare",
			         MAX_KNEE_OTHERS);
			return -EINVAL;
		}
	}
	return 0;
}
