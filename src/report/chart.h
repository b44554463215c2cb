/**
 * @file chart.h
 * Self-contained SVG charts: no fonts, scripts or styles from outside, so
 * a chart opens in any browser with no network, alone or inline in an
 * HTML page. The layout rules (a legend that fits and names what differs,
 * labels off each other and off the lines, ticks where the data is, a
 * style per series) are chart_layout.h's.
 */
#ifndef CCBENCH_CHART_H
#define CCBENCH_CHART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct ccb_chart_series {
	const char *label;
	const double *x;
	const double *y;
	const double *err; /**< +/- error bar per point, or NULL */
	size_t n;
};

/**
 * A series' name as key/value pairs (a sweep's matrix values but the row
 * key), in ccb_chart.series_keys. When every series has them, the legend
 * names only the keys whose values differ between series, and more series
 * than one chart tells apart are split by one of them into small
 * multiples.
 */
struct ccb_chart_keys {
	const char *const *keys;
	const char *const *values;
	size_t n;
};

/** A reference line across the plot: a target (y) or a figure found (x). */
struct ccb_chart_line {
	const char *label;
	double value;
};

/** How x tick labels are written. */
enum ccb_chart_x_format {
	CCB_CHART_X_NUMBER = 0, /**< as the number is ("%g") */
	CCB_CHART_X_KIB,        /**< x is in KiB: "256K", "1M", "4M" */
};

struct ccb_chart {
	const char *title;
	const char *x_title; /**< with its unit: "readahead (KiB, log2)" */
	const char *y_title; /**< "MiB/s" */
	bool x_log2;         /**< log2 axis (x <= 0 is drawn apart, left of an axis break) */
	/** Names on the x axis (a categorical axis: x value i is x_labels[i]), or NULL:
	 * drawn as grouped bars (markers on a log y), never joined by lines. */
	const char *const *x_labels;
	size_t n_x_labels;
	const struct ccb_chart_series *series;
	size_t n_series;
	bool y_log10; /**< log10 y axis, ticks at 1, 2, 5 per decade (y values must be > 0) */
	/** Dashed horizontal lines at y = value (an SLO), and vertical ones at x. */
	const struct ccb_chart_line *hlines, *vlines;
	size_t n_hlines, n_vlines;
	/**
	 * What the error bars are ("mean ± stddev of the repeats"): added to
	 * the y axis's title only when at least one error bar is drawn, so a
	 * chart of single runs makes no such claim.
	 */
	const char *err_note;
	enum ccb_chart_x_format x_format;
	/** Optional: @c n_series names as key/value pairs, one per series. */
	const struct ccb_chart_keys *series_keys;
};

/**
 * Draw @p c as an SVG document on @p out: axes with ticks, a line per
 * series (or grouped bars on a categorical axis), each series its own
 * colour, marker and dash, error bars, reference lines with their labels,
 * a legend; small multiples past what one chart tells apart.
 *
 * @return 0, -ENOMEM, or -EIO on a write error.
 */
int ccb_chart_svg(const struct ccb_chart *c, FILE *out);

/**
 * ccb_chart_svg() without the XML declaration: an \<svg\> element for an
 * HTML page.
 *
 * @return 0, -ENOMEM, or -EIO on a write error.
 */
int ccb_chart_svg_inline(const struct ccb_chart *c, FILE *out);

/**
 * @p s as SVG text on @p out: control characters as visible escapes
 * ("\x1b"), markup characters as entities (for a chart drawn by hand
 * beside this one's).
 */
void ccb_chart_xml_text(FILE *out, const char *s);

#endif
