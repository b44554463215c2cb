/*
 * Fuzz target: the views of a saved document, as `ccbench report FILE`
 * renders them (src/report/): a sweep (checked first by
 * ccb_sweep_doc_check(), as report_cmd.c does) to its text table, CSV and
 * SVG; a single result to text, CSV and JSON; a group report to text, CSV
 * and SVG. The input is the file's contents: anyone's, so a crafted one
 * must end in a message, never a crash, a leak or an unbounded loop.
 * Everything is rendered into memory; nothing is written.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/group_report.h>
#include <ccbench/report.h>
#include <ccbench/sweep.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Render @p doc with @p render into memory, then drop it. */
static void into_memory(const json_t *doc, int (*render)(const json_t *, FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return;
	render(doc, f);
	fclose(f);
	free(buf);
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

	if (!json_is_object(doc)) {
		json_decref(doc);
		return 0;
	}
	if (kind && strcmp(kind, "group_report") == 0 &&
	    json_is_array(json_object_get(doc, "members"))) {
		into_memory(doc, group_text);
		into_memory(doc, ccb_group_render_csv);
		into_memory(doc, ccb_group_render_svg);
	} else if (json_object_get(doc, "points")) {
		if (ccb_sweep_doc_check(doc, err, sizeof(err)) == 0) {
			into_memory(doc, sweep_text);
			into_memory(doc, ccb_sweep_render_csv);
			into_memory(doc, ccb_sweep_render_svg);
		} else if (!err[0]) {
			fprintf(stderr, "sweep document refused without a message\n");
			abort();
		}
	} else if (json_object_get(doc, "bandwidth_mib_s")) {
		into_memory(doc, result_text);
		into_memory(doc, result_csv);
		into_memory(doc, result_json);
	}
	json_decref(doc);
	return 0;
}
