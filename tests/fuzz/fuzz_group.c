/*
 * Fuzz target: a group's member records and their aggregation
 * (src/group/, the pure functions tests/unit/test_group.c exercises).
 * The input is one JSON object:
 *   {"state":   {"name", "params", "started", "members": {ID: record}},
 *    "results": {ID: {"start_realtime", "end_realtime", "result"}},
 *    "mine":    a member's parameters, checked against state.params}
 * A member record may also be given as JSON text, as it is stored in the
 * group object's omap ("member.ID" values); it is then parsed as
 * `group report` parses the omap (json_loads, non-objects dropped).
 * Everything read from the cluster is here: state and results come from
 * other hosts' writes, so none of it is to be trusted.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
#include "../../src/group/group_agg.h"
#include <ccbench/group_cmd.h>
#include <ccbench/group_member.h>
#include "../../src/group/group_store.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* state.members with text records parsed, as gstate_members() does. */
static json_t *parse_members(const json_t *members)
{
	json_t *m = json_object(), *v;
	const char *id;

	json_object_foreach((json_t *)members, id, v)
	{
		json_t *rec =
		    json_is_string(v) ? json_loads(json_string_value(v), 0, NULL) : json_incref(v);
		if (json_is_object(rec))
			json_object_set_new(m, id, rec);
		else
			json_decref(rec);
	}
	return m;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *in = json_loadb((const char *)data, size, 0, NULL), *state, *results, *rep;
	char why[512];

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!json_is_object(in)) {
		json_decref(in);
		return 0;
	}
	state = json_deep_copy(json_object_get(in, "state"));
	results = json_object_get(in, "results");
	if (json_is_object(state))
		json_object_set_new(state, "members",
		                    parse_members(json_object_get(state, "members")));
	rep = ccb_group_aggregate(state, results);
	if (rep) {
		char *s = json_dumps(rep, JSON_COMPACT);
		free(s);
	}
	json_decref(rep);
	if (json_object_get(in, "mine"))
		ccb_group_params_check(json_object_get(json_object_get(in, "state"), "params"),
		                       json_object_get(in, "mine"), why, sizeof(why));
	json_decref(state);
	json_decref(in);
	return 0;
}
