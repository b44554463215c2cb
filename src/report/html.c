/*
 * The HTML page of a result (html.h): its frame (head, inline CSS, the
 * answer, the explain lines, a chart inline, the text view folded, the
 * settings) and the dispatch to each kind's view. Every string on the
 * page is the document's, escaped as the text views escape it (a control
 * character stays \xHH) and then for HTML; key material is redacted.
 */
#include <ccbench/escape.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include "report_pools.h"

#include "chart_int.h"
#include "html_int.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* One page, read at a glance: no script, no fetch, nothing wider than
 * the window (a wide table or text scrolls in its own box). */
static const char css[] =
    "body{font-family:sans-serif;color:#222;line-height:1.4;max-width:1200px;margin:0 auto;"
    "padding:0 16px 32px;overflow-wrap:anywhere}\n"
    "h1{font-size:1.25em;margin:18px 0 4px}h2{font-size:1.1em;margin:22px 0 6px;"
    "border-bottom:1px solid #ddd}\n"
    ".answer{font-size:1.3em;font-weight:bold;margin:4px 0 8px}\n"
    ".answer div{margin:2px 0}.answer div.more{font-size:.75em;font-weight:normal}\n"
    "ul.explain{list-style:none;padding:0;margin:6px 0}\n"
    "ul.explain li{padding:3px 8px;margin:3px 0;border-left:5px solid #9ab;background:#f4f6f8}\n"
    "ul.explain li.warn{border-color:#E69F00;background:#fff3dc}\n"
    "ul.explain li.distrust{border-color:#c00;background:#fde4e4;font-weight:bold}\n"
    ".sev{font-weight:bold;margin-right:.4em}\n"
    ".chart{margin:10px 0}.chart svg{max-width:100%;height:auto;display:block}\n"
    ".wide{overflow-x:auto;max-width:100%}\n"
    "table{border-collapse:collapse;margin:6px 0 12px;font-size:.9em}\n"
    "th,td{border:1px solid #ccc;padding:2px 6px;text-align:right;vertical-align:top}\n"
    "th{background:#eef1f4}.l{text-align:left}td.knee{font-weight:bold;background:#e6f4ea}\n"
    "caption{text-align:left;font-weight:bold;padding:2px 0;white-space:nowrap}\n"
    "pre{overflow-x:auto;background:#f7f7f7;padding:8px;font-size:.85em;"
    "overflow-wrap:normal}\n"
    "details{margin:8px 0}summary{cursor:pointer;font-weight:bold}\n"
    "footer{margin-top:24px;color:#666;font-size:.85em}\n";

void ccb_html_put(FILE *out, const char *s)
{
	/* As the text views: a control character as \xHH, never as itself;
	 * then for HTML, as for SVG. */
	char *t = ccb_chart_display(s);

	if (!t) {
		fputs("(out of memory)", out);
		return;
	}
	ccb_chart_xml(out, t, strlen(t));
	free(t);
}

void ccb_html_printf(FILE *out, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n >= 0) {
		ccb_html_put(out, s);
		free(s);
	}
}

void ccb_html_td(FILE *out, const char *cls, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;
	bool th = cls && strncmp(cls, "th", 2) == 0;
	const char *c = cls ? cls + (th ? 2 : 0) : "";

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	fprintf(out, "<%s%s%s%s>", th ? "th" : "td", c[0] ? " class=\"" : "", c, c[0] ? "\"" : "");
	ccb_html_put(out, s ? s : "");
	fprintf(out, "</%s>", th ? "th" : "td");
	free(s);
}

void ccb_html_table(FILE *out, const char *caption, const char *const *heads, size_t n,
                    unsigned left)
{
	fputs("<div class=\"wide\"><table>", out);
	if (caption) {
		fputs("<caption>", out);
		ccb_html_put(out, caption);
		fputs("</caption>", out);
	}
	fputs("<tr>", out);
	for (size_t i = 0; i < n; i++)
		ccb_html_td(out, i < 32 && (left >> i & 1) ? "thl" : "th", "%s", heads[i]);
	fputs("</tr>\n", out);
}

void ccb_html_table_end(FILE *out)
{
	fputs("</table></div>\n", out);
}

void ccb_html_num(FILE *out, bool have, const char *fmt, double v)
{
	char buf[64];

	if (!have || !isfinite(v)) {
		ccb_html_td(out, NULL, "-");
		return;
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(buf, sizeof(buf), fmt, v);
#pragma GCC diagnostic pop
	ccb_html_td(out, NULL, "%s", buf);
}

int ccb_html_page(FILE *out, const json_t *doc, const char *title, const struct ccb_html_view *v)
{
	json_t *ex = v->explain ? v->explain(doc) : NULL;
	int r;

	ccb_html_begin(out, title);
	v->answer(out, doc);
	ccb_html_explain(out, ex);
	json_decref(ex);
	ccb_html_h2(out, "Charts");
	r = v->charts(out, doc);
	ccb_html_h2(out, "Tables");
	v->tables(out, doc);
	if (r == 0 && v->text)
		r = ccb_html_text_view(out, doc, v->text);
	ccb_html_h2(out, "Settings");
	v->settings(out, doc);
	ccb_html_end(out, doc);
	return r;
}

void ccb_html_h2(FILE *out, const char *title)
{
	fputs("<h2>", out);
	ccb_html_put(out, title);
	fputs("</h2>\n", out);
}

void ccb_html_begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"ccbench\">\n<title>",
	      out);
	ccb_html_put(out, title);
	fprintf(out, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	ccb_html_put(out, title);
	fputs("</h1>\n", out);
}

void ccb_html_end(FILE *out, const json_t *doc)
{
	const char *v = ccb_report_str(doc, "ccbench_version");

	fputs("<footer>Written by ccbench", out);
	if (v[0]) {
		fputc(' ', out);
		ccb_html_put(out, v);
	}
	fputs(" from the result document alone: <code>ccbench report FILE --html PAGE</code> "
	      "writes the same page from the saved JSON.</footer>\n</body>\n</html>\n",
	      out);
}

void ccb_html_answer(FILE *out, const char *const *lines, size_t n, size_t n_main)
{
	fputs("<div class=\"answer\">", out);
	for (size_t i = 0; i < n; i++) {
		fputs(i < n_main ? "<div>" : "<div class=\"more\">", out);
		ccb_html_put(out, lines[i]);
		fputs("</div>", out);
	}
	fputs("</div>\n", out);
}

void ccb_html_explain(FILE *out, const json_t *list)
{
	const json_t *e;
	size_t i;

	if (!json_array_size(list))
		return;
	fputs("<ul class=\"explain\">\n", out);
	json_array_foreach(list, i, e)
	{
		const char *sev = ccb_report_str(e, "severity");
		bool d = strcmp(sev, "distrust") == 0, w = strcmp(sev, "warn") == 0;

		fprintf(out, "<li class=\"%s\"><span class=\"sev\">%s</span>",
		        d   ? "distrust"
		        : w ? "warn"
		            : "info",
		        d   ? "DISTRUST"
		        : w ? "warning"
		            : "why");
		if (json_object_get(e, "point")) {
			ccb_html_put(out, ccb_report_str(e, "point"));
			fputs(": ", out);
		}
		ccb_html_put(out, ccb_report_str(e, "text"));
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* What @p render writes of @p doc, in memory. NULL on an error. */
static char *rendered(const json_t *doc, int (*render)(const json_t *, FILE *), int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	*rc = -ENOMEM;
	if (!m)
		return NULL;
	*rc = render(doc, m);
	if (fclose(m) != 0 && *rc == 0)
		*rc = -EIO;
	if (*rc < 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int ccb_html_chart(FILE *out, const json_t *doc, int (*render)(const json_t *, FILE *))
{
	int rc;
	char *svg = rendered(doc, render, &rc);
	const char *at;

	if (!svg)
		return rc;
	/* Inline: the <svg> element, without the file's XML declaration. */
	at = strstr(svg, "<svg");
	fprintf(out, "<figure class=\"chart\">\n%s</figure>\n", at ? at : "");
	free(svg);
	return 0;
}

int ccb_html_text_view(FILE *out, const json_t *doc, int (*render)(const json_t *, FILE *))
{
	int rc;
	char *text = rendered(doc, render, &rc);

	if (!text)
		return rc;
	fputs("<details class=\"text-view\"><summary>The text view</summary><pre>", out);
	ccb_html_put(out, text);
	fputs("</pre></details>\n", out);
	free(text);
	return 0;
}

json_t *ccb_html_text_lines(const json_t *doc, int (*render)(const json_t *, FILE *),
                            const char *prefix)
{
	int rc;
	char *text = rendered(doc, render, &rc), *line, *save = NULL;
	json_t *out = json_array();

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && out;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, prefix, strlen(prefix)) == 0)
			json_array_append_new(out, json_string(line));
	free(text);
	return out;
}

void ccb_html_kv(FILE *out, const char *caption, const json_t *obj)
{
	const char *key;
	json_t *v;

	if (!json_object_size(obj))
		return;
	fputs("<div class=\"wide\"><table>", out);
	if (caption) {
		fputs("<caption>", out);
		ccb_html_put(out, caption);
		fputs("</caption>", out);
	}
	json_object_foreach((json_t *)obj, key, v)
	{
		char *s = json_is_string(v) ? NULL : json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		fputs("<tr>", out);
		ccb_html_td(out, "thl", "%s", key);
		ccb_html_td(out, "l", "%s", json_is_string(v) ? json_string_value(v) : s ? s : "?");
		fputs("</tr>\n", out);
		free(s);
	}
	fputs("</table></div>\n", out);
}

/* The pools' lines of the text view. */
static int pools_text(const json_t *doc, FILE *f)
{
	ccb_report_pools_text(doc, f);
	return ferror(f) ? -EIO : 0;
}

void ccb_html_settings(FILE *out, const json_t *run)
{
	const json_t *argv = json_object_get(run, "argv"), *a;
	json_t *rel = ccb_release_of_doc(run), *pools = ccb_html_text_lines(run, pools_text, "");
	char buf[512];
	size_t i;

	/* A run's own (with its libraries' versions), else the summary of its runs'. */
	ccb_release_text(json_object_get(run, "releases") ? json_object_get(run, "releases") : rel,
	                 buf, sizeof(buf));
	fputs("<ul class=\"settings\">\n", out);
	if (buf[0]) {
		fputs("<li>releases: ", out);
		ccb_html_put(out, buf);
		fputs("</li>\n", out);
	}
	json_array_foreach(pools, i, a)
	{
		fputs("<li>", out);
		ccb_html_put(out, json_string_value(a));
		fputs("</li>\n", out);
	}
	if (json_array_size(argv)) {
		fputs("<li>command line: <code>", out);
		json_array_foreach(argv, i, a)
		{
			fputs(i ? " " : "", out);
			ccb_html_put(out, json_string_value(a) ? json_string_value(a) : "?");
		}
		fputs("</code></li>\n", out);
	}
	fputs("</ul>\n", out);
	if (json_object_size(json_object_get(run, "parameters"))) {
		fprintf(out, "<details><summary>Every option's value (%zu)</summary>\n",
		        json_object_size(json_object_get(run, "parameters")));
		ccb_html_kv(out, NULL, json_object_get(run, "parameters"));
		fputs("</details>\n", out);
	}
	json_decref(rel);
	json_decref(pools);
}
