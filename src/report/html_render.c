/*
 * ccb_html_render() (html.h): the document as its JSON file holds it,
 * redacted, to the view of its kind. Above the views, so that none of
 * them calls back into the dispatch.
 */
#include <ccbench/html.h>
#include <ccbench/redact.h>
#include <ccbench/report.h>

#include "html_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The precision each kind's JSON file is written with (its writer's):
 * the page reads the numbers as that file holds them. */
static int precision_of(const char *kind)
{
	if (strcmp(kind, "capacity") == 0)
		return 17;
	if (strcmp(kind, "group_report") == 0)
		return 15;
	return 10;
}

int ccb_html_render(const json_t *doc, FILE *out)
{
	const char *kind = ccb_report_str(doc, "kind");
	char *s = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(precision_of(kind)));
	json_t *d = s ? json_loads(s, 0, NULL) : NULL;
	int r;

	free(s);
	if (!d || ccb_redact_json(d) < 0) {
		json_decref(d);
		return -ENOMEM;
	}
	if (strcmp(kind, "capacity") == 0)
		r = ccb_html_capacity(d, out);
	else if (strcmp(kind, "group_report") == 0)
		r = ccb_html_group(d, out);
	else if (strcmp(kind, "compare") == 0)
		r = ccb_html_compare(d, out);
	else if (json_object_get(d, "points"))
		r = ccb_html_sweep(d, out);
	else if (json_object_get(d, "bandwidth_mib_s"))
		r = ccb_html_run(d, out);
	else
		r = -EINVAL;
	json_decref(d);
	if (r == 0 && ferror(out))
		r = -EIO;
	return r;
}
