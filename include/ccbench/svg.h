/**
 * @file svg.h
 * A small, self-contained SVG line chart: no fonts, scripts or styles
 * from outside the file, so it opens the same in a browser, an image
 * viewer or a CI artifact page. Used by `group report --svg`; a sweep can
 * draw its points with the same call.
 */
#ifndef CCBENCH_SVG_H
#define CCBENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/** One polyline: n points (x[i], y[i]), drawn in the order given. */
struct ccb_svg_line {
	const char *label;  /**< shown in the legend (escaped for XML) */
	const double *x;
	const double *y;
	size_t n;
	bool emphasis;      /**< drawn thicker and darker (an aggregate) */
};

/** Titles of the chart; the axis titles should carry their units. */
struct ccb_svg_chart {
	const char *title;   /**< "group g: bandwidth per second" */
	const char *x_title; /**< "time since the first start (s)" */
	const char *y_title; /**< "bandwidth (MiB/s)" */
};

/**
 * Write a complete SVG document with one polyline per @p lines entry, axes
 * with ticks at round values, the axis titles and a legend. Non-finite
 * points are skipped; an empty chart is still a valid document.
 *
 * @return 0, or -EIO when writing to @p out failed.
 */
int ccb_svg_lines(FILE *out, const struct ccb_svg_chart *chart, const struct ccb_svg_line *lines,
		  size_t n_lines);

#endif
