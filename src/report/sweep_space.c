/*
 * A sweep's space table: for each point whose runs wrote to a described
 * data pool (result "space", run_pools.h), the pool's kind and what the
 * writes cost it, mean over the point's runs. Self-contained, below
 * sweep_report.c, which prints it after the bandwidth table.
 */
#include <ccbench/escape.h>
#include "report_pools.h"
#include "sweep_space.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* "rbd randwrite data-pool=ccb-ec21 io-size=4K": a point, for a terminal. */
static void point_label(const json_t *p, char *buf, size_t len)
{
	const char *key;
	const json_t *v;
	char e[128];
	size_t o;

	const char *cmd = json_string_value(json_object_get(p, "command"));

	snprintf(buf, len, "%s", ccb_text_esc(cmd ? cmd : "?", e, sizeof(e)));
	json_object_foreach((json_t *)json_object_get(p, "matrix"), key, v)
	{
		char val[64];

		if (strcmp(key, "command") == 0)
			continue;
		if (json_is_string(v))
			snprintf(val, sizeof(val), "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(val, sizeof(val), "%lld", (long long)json_integer_value(v));
		else if (json_is_number(v))
			snprintf(val, sizeof(val), "%g", json_number_value(v));
		else
			snprintf(val, sizeof(val), "-");
		o = strlen(buf);
		if (o + 1 >= len)
			break;
		snprintf(buf + o, len - o, " %s=", ccb_text_esc(key, e, sizeof(e)));
		o = strlen(buf);
		snprintf(buf + o, len - o, "%s", ccb_text_esc(val, e, sizeof(e)));
	}
}

unsigned ccb_sweep_space_mean(const json_t *p, struct ccb_sweep_space *out)
{
	const json_t *run;
	size_t j;

	*out = (struct ccb_sweep_space){0};
	json_array_foreach(json_object_get(p, "runs"), j, run)
	{
		const json_t *s = json_object_get(run, "space");

		if (!json_is_number(json_object_get(s, "amplification")))
			continue;
		out->pool = json_object_get(json_object_get(run, "pools"), "data");
		out->amplification += json_number_value(json_object_get(s, "amplification"));
		out->raw_per_stored += json_number_value(json_object_get(s, "raw_per_stored"));
		out->unreliable += json_is_false(json_object_get(s, "reliable"));
		out->runs++;
	}
	if (out->runs) {
		out->amplification /= out->runs;
		out->raw_per_stored /= out->runs;
	}
	return out->runs;
}

void ccb_sweep_space_table(const json_t *doc, FILE *out)
{
	const json_t *p;
	bool header = false;
	size_t i;

	json_array_foreach(json_object_get(doc, "points"), i, p)
	{
		struct ccb_sweep_space sp;
		char label[256], kind[64];

		if (!ccb_sweep_space_mean(p, &sp))
			continue;
		if (!header) {
			fprintf(out,
			        "\nspace: amplification (raw bytes added / bytes written) and raw "
			        "bytes per byte stored, mean over runs (! = not reliable: other "
			        "clients wrote beside a run)\n");
			header = true;
		}
		point_label(p, label, sizeof(label));
		ccb_report_pool_kind(sp.pool, kind, sizeof(kind));
		fprintf(out, "  %3zu  %-56s %-16s %8.2f %6.2f%s\n", i + 1, label, kind,
		        sp.amplification, sp.raw_per_stored, sp.unreliable ? " !" : "");
	}
}
