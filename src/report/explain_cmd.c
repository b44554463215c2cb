/*
 * `ccbench explain`: the why lines of a saved result, of each run of a
 * sweep (after what qualifies the sweep as a whole), of a capacity search
 * or of a group report's members, re-derived from their figures.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/command.h>
#include <ccbench/capacity_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/cli.h>
#include <ccbench/explain.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/stats.h>
#include <ccbench/units.h>
#include <ccbench/explain_cmd.h>

#include "saved_doc.h"
#include "sweep_int.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct explain_arg {
	bool json, sweep;
	json_t *out;
};

static int print_explain(const char *key, const json_t *run, void *arg)
{
	struct explain_arg *a = arg;
	json_t *ex = ccb_explain(run, NULL);

	if (!ex)
		return -ENOMEM;
	if (a->json) {
		json_array_append_new(a->out, json_pack("{s:s, s:o}", "point", key, "explain", ex));
		return 0;
	}
	if (a->sweep)
		printf("%s\n", key);
	if (!json_array_size(ex))
		printf("%-18s nothing to say: no limit found\n", "why");
	ccb_explain_write_text(ex, stdout);
	json_decref(ex);
	return 0;
}

/* A group report: each member's list, then the aggregate's, each under
 * its name as a sweep's points are (JSON: [{point, explain}]). */
static int explain_group(const json_t *doc, bool json)
{
	json_t *lists = ccb_explain_group_rederive(doc), *p;
	size_t i;
	int r = 0;

	if (!lists)
		return -ENOMEM;
	if (json) {
		r = json_dumpf(lists, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
		fputc('\n', stdout);
	} else {
		json_array_foreach(lists, i, p)
		{
			/* "member NAME": the name is the record's. */
			ccb_text_put(stdout, json_string_value(json_object_get(p, "point")));
			fputc('\n', stdout);
			if (!json_array_size(json_object_get(p, "explain")))
				printf("%-18s nothing to say: no limit found\n", "why");
			ccb_explain_write_text(json_object_get(p, "explain"), stdout);
		}
	}
	if (fflush(stdout) != 0)
		r = -EIO;
	json_decref(lists);
	return r;
}

int ccb_explain_command(const struct ccb_cli *cli)
{
	char err[512];
	json_t *doc = ccb_saved_load(cli->args[0], true, err, sizeof(err));
	struct explain_arg a = {.json = cli->opts.format == CCB_FMT_JSON};
	int r;

	if (!doc) {
		fprintf(stderr, "ccbench: explain: %s\n", err);
		return 2;
	}
	if (ccb_saved_is_group_report(doc)) {
		r = explain_group(doc, a.json);
		json_decref(doc);
		return r ? 1 : 0;
	}
	if (ccb_capacity_is_doc(doc)) {
		json_t *ex = ccb_explain_capacity(doc);

		r = 0;
		if (a.json)
			r = ccb_capacity_render_json(ex, stdout);
		else
			ccb_explain_write_text(ex, stdout);
		r = fflush(stdout) != 0 ? -EIO : r;
		json_decref(ex);
		json_decref(doc);
		return r ? 1 : 0;
	}
	a.sweep = json_object_get(doc, "points") != NULL;
	a.out = json_array();
	/* What the sweep as a whole cannot be read as comes first: it
	 * qualifies every point below it (latency on one side only). */
	if (a.sweep) {
		json_t *cav = ccb_sweep_caveats(doc);
		if (json_array_size(cav) && a.json)
			json_array_append_new(
			    a.out, json_pack("{s:s, s:O}", "point", "sweep", "explain", cav));
		else if (json_array_size(cav)) {
			printf("sweep\n");
			ccb_explain_write_text(cav, stdout);
		}
		json_decref(cav);
	}
	r = ccb_saved_each_run(doc, print_explain, &a);
	if (r == 0 && a.json) {
		json_t *o = a.sweep
		                ? json_incref(a.out)
		                : json_incref(json_object_get(json_array_get(a.out, 0), "explain"));
		r = json_dumpf(o, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
		fputc('\n', stdout);
		json_decref(o);
	}
	if (fflush(stdout) != 0)
		r = -EIO;
	json_decref(a.out);
	json_decref(doc);
	return r ? 1 : 0;
}

int ccb_explain_run(const struct ccb_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return ccb_explain_command(cli);
}

/* The explain command's row. */
const struct ccb_command ccb_explain_commands[] = {
    {
        .name = "explain",
        .mask = CCB_CMD_EXPLAIN,
        .mode = CCB_MODE_SEQ,
        .n_args = 1,
        .args_help = "RESULT.json",
        .args_kind = CCB_ARG_FILE,
        .summary = "say what limited a saved run or sweep result (re-derived from its figures)",
        .description = "Says what limited a saved run, group report or sweep, and whether to "
                       "trust it: the why lines, derived again from the figures in the file "
                       "(nothing is measured or contacted).",
        .example = "ccbench explain result.json",
        .run = ccb_explain_run,
    },
    {0},
};
