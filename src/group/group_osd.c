/*
 * A group report's per-OSD figures (attribution.h): the members' merged
 * exactly, by addition (ops, bytes, histograms; the percentiles read from
 * the sum, never averaged), so a slow OSD seen from many hosts is named
 * from all their ops. The OSD side (counters, slow ops) is the same
 * cluster over about the same window for every member: the first
 * member's that has it stands for all.
 */
#include <ccbench/attr_json.h>
#include "group_agg.h"

#include <stdio.h>
#include <string.h>

void ccb_group_osd_aggregate(json_t *report)
{
	const json_t *m, *att;
	json_t *agg = json_object_get(report, "aggregate"), *merged = NULL, *bad;
	size_t i, n = 0;
	char why[256];

	if (!json_is_object(agg))
		return;
	bad = json_array();
	json_array_foreach(json_object_get(report, "members"), i, m)
	{
		att = json_object_get(json_object_get(m, "result"), "attribution");
		if (!json_is_object(att))
			continue;
		if (!merged) {
			merged = json_pack("{s:s, s:[]}", "mode", "per-op", "osds");
			if (!merged)
				break;
			/* Counts start from nothing: the first member adds like the rest. */
			if (json_is_object(json_object_get(att, "client")))
				json_object_set_new(merged, "client",
				                    json_pack("{s:s, s:i, s:i, s:i}", "by",
				                              "primary", "ops", 0, "unmapped_ops",
				                              0, "spanning_ops", 0));
			else
				json_object_set_new(merged, "mode", json_string("osd-side"));
			json_object_set(merged, "pg_map", json_object_get(att, "pg_map"));
			json_object_set(merged, "not_answering",
			                json_object_get(att, "not_answering"));
			json_object_set(merged, "unavailable", json_object_get(att, "unavailable"));
		}
		if (ccb_attr_merge(merged, att, why, sizeof(why)) < 0 || why[0])
			json_array_append_new(
			    bad, json_pack("{s:s, s:s}", "member",
			                   json_string_value(json_object_get(m, "member"))
			                       ? json_string_value(json_object_get(m, "member"))
			                       : "?",
			                   "why", why));
		n++;
	}
	if (merged) {
		json_object_set_new(merged, "members", json_integer((json_int_t)n));
		if (json_array_size(bad))
			json_object_set(merged, "not_merged", bad);
		json_object_set_new(agg, "attribution", merged);
	}
	json_decref(bad);
}
