/*
 * A saved document as report, explain and compare read it (saved_doc.h):
 * loaded and checked (a result, a sweep, a capacity search, a group
 * report), each point's name in their lines, and each run of it.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/capacity_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/cli.h>
#include <ccbench/explain.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/stats.h>
#include <ccbench/units.h>

#include "saved_doc.h"
#include "sweep_int.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The command a saved document names ("rbd read"), "run" if none. */
const char *ccb_saved_doc_command(const json_t *doc)
{
	const char *s = json_string_value(json_object_get(doc, "command"));
	return s ? s : "run";
}

/*
 * The name a point has in compare's and explain's lines and in compare's
 * matching: "rbd read {"readahead":128}", the run's command for a single
 * result. Printed, so escaped (a saved document's strings, crafted or
 * another host's).
 */
void ccb_saved_point_key(const json_t *doc, const json_t *p, char *key, size_t len)
{
	char raw[1024];

	if (!p) {
		ccb_text_esc(ccb_saved_doc_command(doc), key, len);
		return;
	}
	char *m = json_dumps(json_object_get(p, "matrix"), JSON_SORT_KEYS | JSON_COMPACT);

	snprintf(raw, sizeof(raw), "%s %s", ccb_sweep_str_or(json_object_get(p, "command"), "?"),
	         m ? m : "?");
	free(m);
	ccb_text_esc(raw, key, len);
}

/* `ccbench group report G -f json`'s document (ccb_group_aggregate()). */
bool ccb_saved_is_group_report(const json_t *doc)
{
	const char *kind = json_string_value(json_object_get(doc, "kind"));

	return kind && strcmp(kind, "group_report") == 0 &&
	       json_is_array(json_object_get(doc, "members"));
}

/* A result or a sweep (and, if @p group_ok, a group report). */
json_t *ccb_saved_load(const char *path, bool group_ok, char *err, size_t err_len)
{
	json_error_t jerr;
	json_t *doc = json_load_file(path, 0, &jerr);

	if (!doc) {
		char raw[512];

		/* jansson's text quotes the document ("near '...'"): escaped. */
		if (jerr.line > 0)
			snprintf(raw, sizeof(raw), "%s:%d:%d: %s", path, jerr.line, jerr.column,
			         jerr.text);
		else
			snprintf(raw, sizeof(raw), "%s", jerr.text);
		ccb_text_esc(raw, err, err_len);
		return NULL;
	}
	if (group_ok && ccb_saved_is_group_report(doc))
		return doc;
	if (ccb_capacity_is_doc(doc)) {
		char why[256];

		if (ccb_capacity_doc_check(doc, why, sizeof(why)) < 0) {
			snprintf(err, err_len, "%s: not a capacity search ccbench wrote: %s", path,
			         why);
			json_decref(doc);
			return NULL;
		}
		return doc;
	}
	if (json_is_object(doc) && json_object_get(doc, "points")) {
		char why[256];

		if (ccb_sweep_doc_check(doc, why, sizeof(why)) < 0) {
			snprintf(err, err_len, "%s: not a sweep ccbench wrote: %s", path, why);
			json_decref(doc);
			return NULL;
		}
	}
	if (!json_is_object(doc) ||
	    (!json_object_get(doc, "points") && !json_object_get(doc, "bandwidth_mib_s"))) {
		snprintf(err, err_len, "%s: not a ccbench result%s", path,
		         group_ok ? ", sweep or group report" : " or sweep");
		json_decref(doc);
		return NULL;
	}
	return doc;
}

json_t *ccb_saved_load_result(const char *path, char *err, size_t err_len)
{
	return ccb_saved_load(path, false, err, err_len);
}

/* A run's explain list: the stored one, else (an older result, or one run
 * with --explain=off) re-derived from its figures. New reference. */
json_t *ccb_saved_run_explain(const json_t *run)
{
	json_t *ex = json_object_get(run, "explain");

	return json_is_array(ex) ? json_incref(ex) : ccb_explain(run, NULL);
}

/* The runs of @p doc, each with the key its point has in metric_points():
 * calls @p fn(key, run, arg) until it returns nonzero, and returns that. */
int ccb_saved_each_run(const json_t *doc, int (*fn)(const char *, const json_t *, void *),
                       void *arg)
{
	const json_t *p, *run;
	size_t i, j;
	int r = 0;
	char key[1024];

	if (!json_object_get(doc, "points")) {
		ccb_saved_point_key(doc, NULL, key, sizeof(key));
		return fn(key, doc, arg);
	}
	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		ccb_saved_point_key(doc, p, key, sizeof(key));
		json_array_foreach(json_object_get(p, "runs"), j, run)
		{
			r = fn(key, run, arg);
			if (r)
				return r;
		}
	}
	return 0;
}
