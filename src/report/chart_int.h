/*
 * Private to the chart files (chart.c, chart_axis.c, chart_draw.c,
 * chart_style.c): the frame a chart is drawn in, its scales and panels;
 * and the escaping the HTML page (html.c) shares with them.
 */
#ifndef CCBENCH_CHART_INT_H
#define CCBENCH_CHART_INT_H

#include "chart.h"
#include "chart_layout.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum scale_kind { SCALE_LIN, SCALE_LOG2, SCALE_LOG10, SCALE_CAT };

/* One axis: data to pixels. lo and hi are in axis units (a log axis: the
 * logarithm of the data); p0 and p1 their pixels. */
struct ccb_scale {
	enum scale_kind kind;
	double lo, hi, p0, p1;
	/* A log2 axis with values at 0 (readahead off): they are drawn at
	 * zero_px, left of an axis break, never at a place on the log scale. */
	bool has_zero;
	double zero_px;
};

/* A plot box and its series (indices into the chart's). */
struct ccb_panel {
	double left; /* the panel's left edge (its y title) */
	double x0, y0, x1, y1;
	struct ccb_scale xs, ys; /* the frame's, in this panel's pixels */
	double top;              /* the panel's top (its title), above y0 */
	double band_y;           /* baseline of the labels that went to the margin */
	size_t n_band;           /* how many did */
	double legend_x, legend_y;
	const char *title; /* a small multiple's, or NULL */
	size_t *idx, n;
};

/* Every reference line's label, where it went (chart_draw.c). */
struct ccb_ref_label {
	double x, y;  /* baseline start */
	bool in_band; /* in the margin above the plot, not beside its line */
};

struct ccb_frame {
	const struct ccb_chart *c;
	struct ccb_chart_split sp;
	char **labels; /* each series' label, escaped for display */
	struct ccb_scale x, y;
	bool bars;      /* a categorical x: grouped bars (markers on a log y) */
	bool err_drawn; /* some error bar is drawn: the y title says what they are */
	double W, H;
	struct ccb_panel *panels;
	size_t n_panels;
	struct ccb_chart_legend *legends; /* one (shared) or one per panel */
	size_t n_legends;
	double yt_w;   /* the y tick labels' widest */
	double band_h; /* the margin band's height in every panel */
};

/* The pixel of data value @p v on @p s; NAN when it cannot be drawn. */
double ccb_scale_px(const struct ccb_scale *s, double v);

/* Whether point @p i of @p se is drawn (finite, positive on a log y). */
bool ccb_chart_drawable(const struct ccb_frame *f, const struct ccb_chart_series *se, size_t i);

/* The axes' ranges from the data (chart_axis.c). */
void ccb_chart_ranges(struct ccb_frame *f);

/* A tick value as its label ("1M" on a KiB axis). */
void ccb_chart_tick_label(const struct ccb_frame *f, bool x_axis, double v, char *buf, size_t len);

/* The y ticks (values), and the x ticks of a numeric axis. */
size_t ccb_chart_y_ticks(const struct ccb_frame *f, double *t, size_t max);
size_t ccb_chart_x_ticks(const struct ccb_frame *f, double *t, size_t max);

/* The x title as drawn (escaped; with the note on 0 drawn apart): @p buf. */
const char *ccb_chart_x_title(const struct ccb_frame *f, char *buf, size_t len);

/* How many lines the longest category name takes in @p slot_px. */
size_t ccb_chart_cat_lines(const struct ccb_frame *f, double slot_px);

/* The y title (with what the error bars are, when some are drawn), wrapped
 * to @p room px: its lines into @p start and @p len. @return their number. */
size_t ccb_chart_y_title(const struct ccb_frame *f, double room, char *buf, size_t buf_len,
                         size_t *start, size_t *len, bool *cut);

/* Draw panel @p p's grid, axes, ticks and titles. */
void ccb_chart_draw_axes(const struct ccb_frame *f, const struct ccb_panel *p, FILE *out);

/* Draw panel @p p's series, reference lines and their labels. @return 0 or -ENOMEM. */
int ccb_chart_draw_panel(const struct ccb_frame *f, struct ccb_panel *p, FILE *out);

/* How many reference labels of panel @p p find no place beside their
 * line (and go to the band above the plot). @return it, or -ENOMEM. */
int ccb_chart_band_count(const struct ccb_frame *f, const struct ccb_panel *p);

/* Draw legend @p lg at (@p x, @p y): entry i is @p names[i] in style @p styles[i]. */
void ccb_chart_draw_legend(const struct ccb_frame *f, const struct ccb_chart_legend *lg,
                           const char *const *names, const size_t *styles, const char *header,
                           double x, double y, FILE *out);

/* A stream that writes nowhere (a pass that only measures), or NULL. */
FILE *ccb_chart_null_stream(void);

/* Text for SVG (chart_style.c): @p len bytes of @p s, XML-escaped. */
void ccb_chart_xml(FILE *out, const char *s, size_t len);

/* A <text> element of @p s wrapped as @p lines, first baseline at y. */
void ccb_chart_text(FILE *out, double x, double y, const char *anchor, const char *attrs,
                    const char *s, const size_t *start, const size_t *len, size_t n_lines,
                    bool cut);

/* A copy of @p s escaped for display as the text views do (free()), or NULL. */
char *ccb_chart_display(const char *s);

/* The marker of style @p st at (@p x, @p y). */
void ccb_chart_marker(FILE *out, const struct ccb_chart_style *st, double x, double y);

#endif /* CCBENCH_CHART_INT_H */
