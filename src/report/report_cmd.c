/*
 * `ccbench report`: re-render a saved result, sweep, capacity search or
 * group report (its views are report.c, sweep_views.c, capacity_report.c
 * and group_report.c), with a closed-loop sweep drawn beside a search.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/command.h>
#include <ccbench/capacity_report.h>
#include <ccbench/capacity_sweep_report.h>
#include <ccbench/escape.h>
#include <ccbench/cli.h>
#include <ccbench/explain.h>
#include <ccbench/group_report.h>
#include <ccbench/html.h>
#include "report_osd.h"
#include "fault_report.h"
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/stats.h>
#include <ccbench/units.h>
#include <ccbench/report_cmd.h>

#include "saved_doc.h"
#include "sweep_int.h"

#include <errno.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int single_csv(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_CSV, f);
}

static int group_text(const json_t *doc, FILE *f)
{
	ccb_group_render_text(doc, f);
	return ferror(f) ? -EIO : 0;
}

static int group_json(const json_t *doc, FILE *f)
{
	if (json_dumpf(doc, f, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) < 0)
		return -EIO;
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* A saved group report (`group report G -f json`): its views again. */
static int report_group(const struct ccb_cli *cli, json_t *doc)
{
	const struct ccb_opts *o = &cli->opts;
	int (*render)(const json_t *, FILE *) = o->format == CCB_FMT_JSON  ? group_json
	                                        : o->format == CCB_FMT_CSV ? ccb_group_render_csv
	                                                                   : group_text;
	int r = 0;

	if (o->closed_loop_file) {
		fprintf(stderr,
		        "ccbench: report --closed-loop: %s is a group report, not a capacity "
		        "search\n",
		        cli->args[0]);
		json_decref(doc);
		return 2;
	}
	if (o->svg_file)
		r |= ccb_report_to_file(o->svg_file, "--svg", doc, ccb_group_render_svg);
	if (o->csv_file)
		r |= ccb_report_to_file(o->csv_file, "--csv", doc, ccb_group_render_csv);
	if (o->html_file)
		r |= ccb_report_to_file(o->html_file, "--html", doc, ccb_html_render);
	if (o->output)
		r |= ccb_report_to_file(o->output, "--output", doc, render);
	else if (render(doc, stdout) < 0 || fflush(stdout) != 0)
		r |= -EIO;
	json_decref(doc);
	return r ? 1 : 0;
}

static int osd_json(const json_t *doc, FILE *f)
{
	if (json_dumpf(json_object_get(doc, "attribution"), f, JSON_INDENT(2)) < 0)
		return -EIO;
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

static int osd_text(const json_t *doc, FILE *f)
{
	ccb_report_osd_text(doc, f, true);
	return ferror(f) ? -EIO : 0;
}

/* report --per-osd: a run's per-OSD views. */
static int per_osd(const char *file, const json_t *doc, const struct ccb_opts *o)
{
	int r = 0;

	if (!json_is_object(json_object_get(doc, "attribution"))) {
		fprintf(stderr,
		        "ccbench: report --per-osd: %s has no per-OSD figures (a single run made "
		        "with --attribution on)\n",
		        file);
		return 2;
	}
	if (o->svg_file && ccb_report_to_file(o->svg_file, "--svg", doc, ccb_report_osd_svg) < 0)
		r = 1;
	if (o->csv_file && ccb_report_to_file(o->csv_file, "--csv", doc, ccb_report_osd_csv) < 0)
		r = 1;
	if ((o->output ? ccb_report_to_file(o->output, "--output", doc,
	                                    o->format == CCB_FMT_JSON  ? osd_json
	                                    : o->format == CCB_FMT_CSV ? ccb_report_osd_csv
	                                                               : osd_text)
	               : (o->format == CCB_FMT_JSON  ? osd_json
	                  : o->format == CCB_FMT_CSV ? ccb_report_osd_csv
	                                             : osd_text)(doc, stdout)) < 0 ||
	    fflush(stdout) != 0)
		r = 1;
	return r;
}

int ccb_report_command(const struct ccb_cli *cli)
{
	const struct ccb_opts *o = &cli->opts;
	char err[512];
	json_t *doc = ccb_saved_load(cli->args[0], true, err, sizeof(err));
	bool sweep;
	int r = 0;

	if (!doc) {
		fprintf(stderr, "ccbench: report: %s\n", err);
		return 2;
	}
	if (ccb_saved_is_group_report(doc))
		return report_group(cli, doc);
	if (o->closed_loop_file) {
		json_t *sw = ccb_saved_load_result(o->closed_loop_file, err, sizeof(err));
		r = sw ? ccb_sweep_curve_attach(doc, cli->args[0], sw, o->closed_loop_file, err,
		                                sizeof(err))
		       : -EINVAL;
		json_decref(sw);
		if (r < 0) {
			fprintf(stderr, "ccbench: report: %s\n", err);
			json_decref(doc);
			return 2;
		}
	}
	if (ccb_capacity_is_doc(doc)) {
		if (o->explain && strcmp(o->explain, "off") == 0)
			json_object_del(doc, "explain");
		r = ccb_capacity_emit(doc, o);
		if (o->html_file &&
		    ccb_report_to_file(o->html_file, "--html", doc, ccb_html_render) < 0)
			r = -EIO;
		json_decref(doc);
		return r ? 1 : 0;
	}
	sweep = json_object_get(doc, "points") != NULL;
	if (o->per_osd) {
		r = sweep ? (fprintf(stderr,
		                     "ccbench: report --per-osd: %s is a sweep; its runs each hold "
		                     "their own (jq '.points[].runs[].attribution')\n",
		                     cli->args[0]),
		             2)
		          : per_osd(cli->args[0], doc, o);
		json_decref(doc);
		return r;
	}
	/* report --explain=off: the views without the why lines. */
	if (o->explain && strcmp(o->explain, "off") == 0) {
		const json_t *p;
		json_t *run;
		size_t i, j;

		json_object_del(doc, "explain");
		json_array_foreach(json_object_get(doc, "points"), i, p)
		    json_array_foreach(json_object_get(p, "runs"), j, run)
		        json_object_del(run, "explain");
	}
	if (o->svg_file && !sweep && !ccb_fault_report_is(doc)) {
		fprintf(stderr,
		        "ccbench: report --svg: %s is a single run, not a sweep (nor a run with "
		        "--fault, whose timeline it draws)\n",
		        cli->args[0]);
		json_decref(doc);
		return 2;
	}
	if (o->svg_file && !sweep)
		r |= ccb_report_to_file(o->svg_file, "--svg", doc, ccb_fault_render_svg);
	else if (o->svg_file)
		r |= ccb_report_to_file(o->svg_file, "--svg", doc, ccb_sweep_render_svg);
	if (o->html_file)
		r |= ccb_report_to_file(o->html_file, "--html", doc, ccb_html_render);
	if (o->csv_file)
		r |= ccb_report_to_file(o->csv_file, "--csv", doc,
		                        sweep ? ccb_sweep_render_csv : single_csv);
	if (!sweep)
		r |= ccb_report_emit(doc, o);
	else if (o->format == CCB_FMT_JSON)
		r |= json_dumpf(doc, stdout, JSON_INDENT(2)) < 0 ? -EIO : 0;
	else if (o->format == CCB_FMT_CSV)
		r |= ccb_sweep_render_csv(doc, stdout);
	else
		ccb_sweep_render_text(doc, stdout);
	json_decref(doc);
	return r ? 1 : 0;
}

int ccb_report_run(const struct ccb_cli *cli, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return ccb_report_command(cli);
}

/* The report command's row. */
const struct ccb_command ccb_report_commands[] = {
    {
        .name = "report",
        .mask = CCB_CMD_REPORT | CCB_CMD_OUTPUT,
        .mode = CCB_MODE_SEQ,
        .n_args = 1,
        .args_help = "RESULTS.json",
        .args_kind = CCB_ARG_FILE,
        .summary = "re-render a saved result: a run, sweep, capacity search or group report",
        .description = "Renders a saved result again: a sweep's table, CSV or chart, a "
                       "run's result in another --format, a capacity search's or a group "
                       "report's views; --html writes its page, the same page the run wrote.",
        .example = "ccbench report q.json --csv q.csv --svg q.svg --html q.html",
        .run = ccb_report_run,
    },
    {0},
};
