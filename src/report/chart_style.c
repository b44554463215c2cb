/*
 * A chart's series styles and its text as SVG. Every series of a chart
 * differs from every other in colour, marker and dash at once, so a
 * reader who cannot tell two colours apart, or a grey print, still can:
 * Okabe and Ito's colour-blind-safe palette (its yellow darkened for a
 * white page) and four of Paul Tol's, matplotlib's way of cycling markers
 * with the colours, and twelve dash patterns.
 */
#include "chart_layout.h"
#include <ccbench/escape.h>

#include "chart_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#define CIRCLE   "M-4,0a4,4 0 1,0 8,0a4,4 0 1,0 -8,0z"
#define SQUARE   "M-3.5,-3.5h7v7h-7z"
#define TRIANGLE "M0,-4.5L4.5,3.5H-4.5z"
#define DIAMOND  "M0,-5L4.5,0L0,5L-4.5,0z"

static const struct ccb_chart_style styles[CCB_CHART_MAX_STYLES] = {
    {"#0072B2", "circle", CIRCLE, true, ""},
    {"#E69F00", "square", SQUARE, true, "8 3"},
    {"#009E73", "triangle", TRIANGLE, true, "2 2"},
    {"#D55E00", "diamond", DIAMOND, true, "9 3 2 3"},
    {"#CC79A7", "triangle-down", "M0,4.5L4.5,-3.5H-4.5z", true, "1 3"},
    {"#56B4E9", "plus", "M-4.5,0H4.5M0,-4.5V4.5", false, "12 4"},
    {"#000000", "cross", "M-3.5,-3.5L3.5,3.5M-3.5,3.5L3.5,-3.5", false, "5 2 1 2 1 2"},
    {"#B08D00", "star",
     "M0,-5L1.2,-1.6L4.8,-1.5L1.9,0.6L2.9,4L0,2L-2.9,4L-1.9,0.6L-4.8,-1.5L-1.2,-1.6z", true,
     "12 3 3 3"},
    {"#882255", "circle-open", CIRCLE, false, "3 5"},
    {"#44AA99", "square-open", SQUARE, false, "6 2 2 2 2 2"},
    {"#999933", "triangle-open", TRIANGLE, false, "16 4"},
    {"#6F6F6F", "diamond-open", DIAMOND, false, "4 4 1 4"},
};

const struct ccb_chart_style *ccb_chart_style_at(size_t i)
{
	return &styles[i % CCB_CHART_MAX_STYLES];
}

void ccb_chart_marker(FILE *out, const struct ccb_chart_style *st, double x, double y)
{
	/* Open markers and the line-drawn ones (plus, cross) are strokes on
	 * white, the others filled: the same shape twice is still two markers. */
	fprintf(out,
	        "<path class=\"mk\" data-marker=\"%s\" transform=\"translate(%.1f %.1f)\" d=\"%s\" "
	        "fill=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"none\"/>",
	        st->marker, x, y, st->marker_d,
	        st->marker_filled                 ? st->color
	        : strchr(st->marker, '-') != NULL ? "white"
	                                          : "none",
	        st->color);
}

/* The entity of a character that markup reserves, or NULL. */
static const char *entity(char c)
{
	return c == '<'    ? "&lt;"
	       : c == '>'  ? "&gt;"
	       : c == '&'  ? "&amp;"
	       : c == '"'  ? "&quot;"
	       : c == '\'' ? "&#39;"
	                   : NULL;
}

void ccb_chart_xml(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; s && i < len && s[i]; i++) {
		const char *e = entity(s[i]);

		if (e)
			fputs(e, out);
		else
			fputc(s[i], out);
	}
}

char *ccb_chart_display(const char *s)
{
	/* ccb_text_esc() writes at most 4 bytes ("\x1b") per byte of s. */
	size_t len = strlen(s ? s : "") * 4 + 1;
	char *d = malloc(len);

	return d ? (char *)ccb_text_esc(s ? s : "", d, len) : NULL;
}

void ccb_chart_text(FILE *out, double x, double y, const char *anchor, const char *attrs,
                    const char *s, const size_t *start, const size_t *len, size_t n_lines, bool cut)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>", x, y, anchor,
	        attrs && attrs[0] ? " " : "", attrs ? attrs : "");
	if (cut) {
		/* What was cut is there on hover. */
		fputs("<title>", out);
		ccb_chart_xml(out, s, strlen(s));
		fputs("</title>", out);
	}
	for (size_t i = 0; i < n_lines; i++) {
		if (n_lines > 1)
			fprintf(out, "<tspan x=\"%.1f\" dy=\"%s\">", x, i ? "16" : "0");
		ccb_chart_xml(out, s + start[i], len[i]);
		if (cut && i + 1 == n_lines)
			fputs("\xe2\x80\xa6", out);
		if (n_lines > 1)
			fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
}

static ssize_t discard(void *cookie, const char *buf, size_t size)
{
	(void)cookie;
	(void)buf;
	return (ssize_t)size;
}

FILE *ccb_chart_null_stream(void)
{
	return fopencookie(NULL, "w", (cookie_io_functions_t){.write = discard});
}
