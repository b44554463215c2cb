/**
 * @file chart.h
 * Self-contained SVG line charts: no fonts, scripts or styles from
 * outside, so a chart opens in any browser with no network.
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

/** A reference line across the plot: a target (y) or a figure found (x). */
struct ccb_chart_line {
	const char *label;
	double value;
};

struct ccb_chart {
	const char *title;
	const char *x_title; /**< with its unit: "readahead (KiB, log2)" */
	const char *y_title; /**< "MiB/s" */
	bool x_log2;         /**< log2 axis (x values must be > 0) */
	/** Names on the x axis (a categorical axis: x value i is x_labels[i]), or NULL. */
	const char *const *x_labels;
	size_t n_x_labels;
	const struct ccb_chart_series *series;
	size_t n_series;
	bool y_log10; /**< log10 y axis, one tick per decade (y values must be > 0) */
	/** Dashed horizontal lines at y = value (an SLO), and vertical ones at x. */
	const struct ccb_chart_line *hlines, *vlines;
	size_t n_hlines, n_vlines;
};

/**
 * Draw @p c as an SVG document on @p out: axes with ticks, one polyline
 * per series with markers and error bars, a legend.
 *
 * @return 0, or -EIO on a write error.
 */
int ccb_chart_svg(const struct ccb_chart *c, FILE *out);

/**
 * @p s as SVG text on @p out: markup characters as entities, control
 * characters as '?' (for a chart drawn by hand beside this one's).
 */
void ccb_chart_xml_text(FILE *out, const char *s);

#endif
