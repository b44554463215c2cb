/*
 * Fuzz target: the views of a saved document, as `ccbench report FILE`
 * renders them (src/report/): a sweep (checked first by
 * ccb_sweep_doc_check(), as report_cmd.c does) to its text table, CSV and
 * SVG; a single result to text, CSV and JSON; a group report to text, CSV
 * and SVG; and each one's explain text as `ccbench explain FILE` derives
 * it (each run's list from its figures, a sweep's caveats, a group's
 * re-derived lists); and the HTML page of each, a capacity search's too.
 * The input is the file's contents: anyone's, so a crafted one must end
 * in a message, never a crash, a leak or an unbounded loop, and no text,
 * CSV or HTML view may pass an ESC byte through (the start of every
 * terminal sequence). Everything is rendered into
 * memory; nothing is written.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include <ccbench/capacity_report.h>
#include <ccbench/path.h>
#include <ccbench/explain.h>
#include <ccbench/group_report.h>
#include <ccbench/html.h>
#include <ccbench/report.h>
#include <ccbench/sweep.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Render @p doc with @p render into memory, then drop it; a text or CSV
 * view (@p inert) must hold no ESC byte. */
static void render_to_memory(const json_t *doc, int (*render)(const json_t *, FILE *), bool inert,
                             const char *what)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	render(doc, f);
	fclose(f);
	if (inert && buf && memchr(buf, '\x1b', len)) {
		fprintf(stderr, "%s: an ESC byte passed unescaped\n", what);
		abort();
	}
	free(buf);
}

#define into_memory(doc, render)     render_to_memory(doc, render, true, #render)
#define svg_into_memory(doc, render) render_to_memory(doc, render, false, #render)

/* A list's why lines and summary, as explain and the CSV views print them. */
static void write_list(const json_t *ex, FILE *f)
{
	char sum[1024];

	ccb_explain_write_text(ex, f);
	ccb_explain_summary(ex, sum, sizeof(sum));
	fputs(sum, f);
}

/* `ccbench explain RESULT`: the list re-derived from the run's figures. */
static int explain_result(const json_t *run, FILE *f)
{
	json_t *ex = ccb_explain(run, NULL);

	write_list(ex, f);
	json_decref(ex);
	return 0;
}

/* `ccbench explain SWEEP`: the sweep's caveats, then each run's list. */
static int explain_sweep(const json_t *doc, FILE *f)
{
	json_t *cav = ccb_sweep_caveats(doc);
	const json_t *p, *run;
	size_t i, j;

	write_list(cav, f);
	json_decref(cav);
	json_array_foreach(json_object_get(doc, "points"), i, p)
	    json_array_foreach(json_object_get(p, "runs"), j, run) explain_result(run, f);
	return 0;
}

/* `ccbench explain GROUP`: each member's list and the aggregate's, re-derived. */
static int explain_group(const json_t *doc, FILE *f)
{
	json_t *lists = ccb_explain_group_rederive(doc);
	const json_t *l;
	size_t i;

	json_array_foreach(lists, i, l) write_list(json_object_get(l, "explain"), f);
	json_decref(lists);
	return 0;
}

static int sweep_text(const json_t *doc, FILE *f)
{
	ccb_sweep_render_text(doc, f);
	return 0;
}

static int group_text(const json_t *doc, FILE *f)
{
	ccb_group_render_text(doc, f);
	return 0;
}

static int result_text(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_TEXT, f);
}

static int result_csv(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_CSV, f);
}

static int result_json(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_JSON, f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL);
	const char *kind = json_string_value(json_object_get(doc, "kind"));
	char err[512] = "";

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!json_is_object(doc)) {
		json_decref(doc);
		return 0;
	}
	if (kind && strcmp(kind, "group_report") == 0 &&
	    json_is_array(json_object_get(doc, "members"))) {
		into_memory(doc, group_text);
		into_memory(doc, ccb_group_render_csv);
		svg_into_memory(doc, ccb_group_render_svg);
		into_memory(doc, explain_group);
		into_memory(doc, ccb_html_render);
	} else if (json_object_get(doc, "points")) {
		if (ccb_sweep_doc_check(doc, err, sizeof(err)) == 0) {
			into_memory(doc, sweep_text);
			into_memory(doc, ccb_sweep_render_csv);
			svg_into_memory(doc, ccb_sweep_render_svg);
			into_memory(doc, explain_sweep);
			into_memory(doc, ccb_html_render);
		} else if (!err[0]) {
			fprintf(stderr, "sweep document refused without a message\n");
			abort();
		}
	} else if (json_object_get(doc, "bandwidth_mib_s")) {
		into_memory(doc, result_text);
		into_memory(doc, result_csv);
		/* JSON escapes C0 controls itself. */
		into_memory(doc, result_json);
		into_memory(doc, explain_result);
		into_memory(doc, ccb_html_render);
	} else if (ccb_capacity_is_doc(doc) && ccb_capacity_doc_check(doc, err, sizeof(err)) == 0) {
		/* A search's page holds its text view and chart too. */
		into_memory(doc, ccb_html_render);
	}
	json_decref(doc);
	return 0;
}
