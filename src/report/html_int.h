/*
 * Private to the HTML page's files: html.c (the page's frame and its
 * parts) and the views of each kind of result (html_run.c,
 * html_sweep.c, html_views.c).
 */
#ifndef CCBENCH_HTML_INT_H
#define CCBENCH_HTML_INT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/* @p s as HTML text: escaped as the text views escape it (a control
 * character as \xHH), then <, >, & and quotes as entities. */
void ccb_html_put(FILE *out, const char *s);

/* printf, then ccb_html_put(). */
void ccb_html_printf(FILE *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The page's head (its title escaped) and the start of its body. */
void ccb_html_begin(FILE *out, const char *title);

/* The end of the page: what wrote it, from the document. */
void ccb_html_end(FILE *out, const json_t *doc);

/* The answer lines, at the top: the first @p n_main large, the others under them. */
void ccb_html_answer(FILE *out, const char *const *lines, size_t n, size_t n_main);

/* Explain lines [{severity, text}] (each prefixed by its "point", when it
 * has one): warn and distrust stand out. */
void ccb_html_explain(FILE *out, const json_t *list);

/* The chart @p render draws of @p doc, inline. @return 0 or -errno. */
int ccb_html_chart(FILE *out, const json_t *doc, int (*render)(const json_t *, FILE *));

/* The text view @p render writes of @p doc, folded. @return 0 or -errno. */
int ccb_html_text_view(FILE *out, const json_t *doc, int (*render)(const json_t *, FILE *));

/* The lines of the text view that start with @p prefix (new reference: strings). */
json_t *ccb_html_text_lines(const json_t *doc, int (*render)(const json_t *, FILE *),
                            const char *prefix);

/* A table of @p obj's members: key, value (a nested value as compact JSON). */
void ccb_html_kv(FILE *out, const char *caption, const json_t *obj);

/* The settings of a run: releases, pools and erasure-code profile, the
 * command line given and every option's value (folded). */
void ccb_html_settings(FILE *out, const json_t *run);

/* A section heading. */
void ccb_html_h2(FILE *out, const char *title);

/* A table cell: <td> (or <th>) with @p fmt's text, escaped; "l" left-aligned. */
void ccb_html_td(FILE *out, const char *cls, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A table's start: its caption and heading row (heading i left-aligned
 * when bit i of @p left is set); end it with ccb_html_table_end(). */
void ccb_html_table(FILE *out, const char *caption, const char *const *heads, size_t n,
                    unsigned left);
void ccb_html_table_end(FILE *out);

/* A number's cell (@p fmt of @p v), "-" when there is none. */
void ccb_html_num(FILE *out, bool have, const char *fmt, double v);

/*
 * A kind's page: the parts in their order (html.c writes the frame). Each
 * part reads the document; explain returns a new reference (NULL: none);
 * charts and the text view return 0 or -errno.
 */
struct ccb_html_view {
	void (*answer)(FILE *out, const json_t *doc);
	json_t *(*explain)(const json_t *doc);
	int (*charts)(FILE *out, const json_t *doc);
	void (*tables)(FILE *out, const json_t *doc);
	int (*text)(const json_t *doc, FILE *out);
	void (*settings)(FILE *out, const json_t *doc);
};

/* The page of @p doc under @p title, in @p v's parts. @return 0 or -errno. */
int ccb_html_page(FILE *out, const json_t *doc, const char *title, const struct ccb_html_view *v);

/* The views of each kind (html_run.c, html_sweep.c, html_views.c). */
int ccb_html_run(const json_t *doc, FILE *out);
int ccb_html_sweep(const json_t *doc, FILE *out);
int ccb_html_capacity(const json_t *doc, FILE *out);
int ccb_html_group(const json_t *doc, FILE *out);
int ccb_html_compare(const json_t *doc, FILE *out);

#endif /* CCBENCH_HTML_INT_H */
