/*
 * A group's explain list: the aggregate of its members' (explain.c's
 * kinds per member), and re-deriving a saved group report's lists.
 */
#include <ccbench/explain.h>
#include <ccbench/release.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/*
 * A group's aggregate: what its members said (a distrusted member is in
 * the sum), how equal they were, how far apart they started against the
 * window in which all ran, who never reported, who shared a host.
 */
json_t *ccb_explain_group(const json_t *report)
{
	const json_t *members = json_object_get(report, "members"), *m, *e;
	const json_t *agg = json_object_get(report, "aggregate");
	json_t *list = json_array(), *hosts = json_object(), *kinds = json_object();
	size_t i, k, warned = 0, done = 0;
	double slow = INFINITY, fast = -INFINITY;
	const char *slow_m = NULL, *fast_m = NULL, *key;
	char buf[256];

	if (!list || !hosts || !kinds) {
		json_decref(hosts);
		json_decref(kinds);
		return list;
	}
	json_array_foreach(members, i, m)
	{
		const json_t *res = json_object_get(m, "result"), *h;
		const char *name = str_or(m, "member", "?"), *host = str(m, "host");
		bool distrust = false, warn = false;

		if (!json_is_object(res))
			continue;
		done++;
		json_array_foreach(json_object_get(res, "explain"), k, e)
		{
			const char *sev = str_or(e, "severity", "");
			if (strcmp(sev, "distrust") == 0 && !distrust) {
				distrust = true;
				ccb_explain_add(list, "group", "distrust",
				                json_pack("{s:s, s:s?}", "member", name, "kind",
				                          str(e, "kind")),
				                "member %s: %s; the aggregate includes it", name,
				                str_or(e, "text", ""));
			}
			if (strcmp(sev, "warn") == 0) {
				warn = true;
				json_object_set_new(kinds, str_or(e, "kind", "?"), json_true());
			}
		}
		warned += warn && !distrust;
		if (json_is_number(json_object_get(m, "window_bandwidth_mib_s"))) {
			double bw = num(m, "window_bandwidth_mib_s");
			if (bw < slow)
				slow = bw, slow_m = name;
			if (bw > fast)
				fast = bw, fast_m = name;
		}
		if (host && *host) {
			h = json_object_get(hosts, host);
			if (!h) {
				json_object_set_new(hosts, host, json_array());
				h = json_object_get(hosts, host);
			}
			json_array_append_new((json_t *)h, json_string(name));
		}
	}
	if (warned) {
		size_t o = 0;
		buf[0] = '\0';
		json_object_foreach(kinds, key, e) if (o < sizeof(buf)) o +=
		    (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%s", o ? ", " : "", key);
		ccb_explain_add(list, "group", "warn",
		                json_pack("{s:I}", "members_warned", (json_int_t)warned),
		                "%zu of %zu members warned (%s): see the members' why lines",
		                warned, done, buf);
	}
	const json_t *jain = json_object_get(agg, "jain_index");
	if (json_is_number(jain) && done > 1 && json_number_value(jain) < CCB_EXPLAIN_GROUP_JAIN &&
	    slow_m && fast_m)
		ccb_explain_add(
		    list, "group", "warn",
		    json_pack("{s:f, s:f, s:f}", "jain_index", json_number_value(jain),
		              "slowest_mib_s", slow, "fastest_mib_s", fast),
		    "members unequal: Jain's index %.2f; %s %.1f MiB/s against %s %.1f in the "
		    "window: the sum hides the slow one",
		    json_number_value(jain), slow_m, slow, fast_m, fast);
	double skew = num(report, "start_skew_ms"),
	       win = num(json_object_get(report, "window"), "seconds");
	if (win > 0 && skew / 1e3 > CCB_EXPLAIN_GROUP_SKEW * win)
		ccb_explain_add(
		    list, "group", "warn",
		    json_pack("{s:f, s:f}", "start_skew_ms", skew, "window_s", win),
		    "members started %.0f ms apart, %.0f %% of the %.2f s in which all ran: the "
		    "window is short of what each measured",
		    skew, skew / 1e3 / win * 100, win);
	size_t missing = json_array_size(json_object_get(report, "missing"));
	if (missing)
		ccb_explain_add(
		    list, "group", "warn", json_pack("{s:I}", "missing", (json_int_t)missing),
		    "%zu member%s never reported: the aggregate is of %zu of %lld", missing,
		    missing == 1 ? "" : "s", done,
		    (long long)json_integer_value(json_object_get(report, "members_expected")));
	/* Members' clients of different releases: the sum mixes them. */
	json_t *rel = ccb_release_of_doc(report);
	const char *crel = str(json_object_get(rel, "client"), "release");
	if (crel && strchr(crel, '+'))
		ccb_explain_add(list, "group", "warn", json_pack("{s:s}", "client_releases", crel),
		                "members ran client libraries of different releases (%s): the "
		                "aggregate mixes them",
		                crel);
	json_decref(rel);
	json_object_foreach(hosts, key, e)
	{
		if (json_array_size(e) < 2)
			continue;
		ccb_explain_names(e, buf, sizeof(buf));
		ccb_explain_add(
		    list, "group", "info", json_pack("{s:s, s:O}", "host", key, "members", e),
		    "members %s ran on one host (%s): they share its CPU and its link", buf, key);
	}
	/* Where the time went, from every member's ops together. */
	if (json_is_object(json_object_get(agg, "attribution"))) {
		json_t *view =
		    json_pack("{s:O, s:O?}", "attribution", json_object_get(agg, "attribution"),
		              "latency_us", json_object_get(agg, "latency_us"));

		ccb_explain_osd(view, list);
		json_decref(view);
	}
	json_decref(hosts);
	json_decref(kinds);
	return list;
}

json_t *ccb_explain_group_rederive(const json_t *report)
{
	json_t *copy = json_deep_copy(report), *out = json_array(), *m, *ex;
	size_t i;

	if (!copy || !out)
		goto fail;
	/* Each member's list from its figures, as for a single result; the
	 * aggregate's from those lists, on the copy, so a report saved
	 * before a kind existed (or without any lists) gets them all. */
	json_array_foreach(json_object_get(copy, "members"), i, m)
	{
		json_t *res = json_object_get(m, "result");
		char point[256];

		if (!json_is_object(res))
			continue;
		ex = ccb_explain(res, NULL);
		if (!ex || json_object_set(res, "explain", ex) < 0)
			goto fail_ex;
		snprintf(point, sizeof(point), "member %s", str_or(m, "member", "?"));
		if (json_array_append_new(
		        out, json_pack("{s:s, s:o}", "point", point, "explain", ex)) < 0)
			goto fail;
	}
	ex = ccb_explain_group(copy);
	if (!ex || json_array_append_new(
	               out, json_pack("{s:s, s:o}", "point", "aggregate", "explain", ex)) < 0)
		goto fail;
	json_decref(copy);
	return out;
fail_ex:
	json_decref(ex);
fail:
	json_decref(copy);
	json_decref(out);
	return NULL;
}
