/**
 * @file html.h
 * One self-contained HTML page of a result (src/report/html.c and
 * html_*.c): a run, a sweep, a capacity search, a group report or a
 * compare. At the top the answer in one line and the explain lines
 * (warn and distrust stand out), then the charts (inline SVG), the
 * tables, the text view and the settings (releases, pools, the options
 * given). Inline CSS, no script, nothing fetched.
 */
#ifndef CCBENCH_HTML_H
#define CCBENCH_HTML_H

#include <stdio.h>

#include <jansson.h>

/**
 * Write the page of @p doc on @p out. The page is built from the document
 * alone, with its numbers as its saved JSON holds them (the precision of
 * each kind's JSON writer) and key material redacted (redact.h), so the
 * page of a saved result is byte for byte the one its run wrote.
 *
 * @return 0, -EINVAL for a document of no kind it knows, -ENOMEM, or -EIO.
 */
int ccb_html_render(const json_t *doc, FILE *out);

#endif /* CCBENCH_HTML_H */
