/**
 * @file report_osd.h
 * The per-OSD views of a result's "attribution" (attribution.h): the text
 * table under a run (the outliers and a summary line when many OSDs), and
 * `report RESULT --per-osd`'s full table, CSV (one row per OSD) and SVG
 * (each OSD's p99 beside the median OSD's). They read the model alone.
 */
#ifndef CCBENCH_REPORT_OSD_H
#define CCBENCH_REPORT_OSD_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/** A run's table shows every OSD up to this many, then the outliers and a summary. */
#define CCB_REPORT_OSD_ROWS 8
/** ... that many outliers (the highest p99) and the median OSD. */
#define CCB_REPORT_OSD_OUTLIERS 3

/**
 * The "per OSD" lines of result @p r's text view (nothing when it has no
 * attribution). @p all: every OSD, not the outliers (report --per-osd).
 */
void ccb_report_osd_text(const json_t *r, FILE *out, bool all);

/** One CSV row per OSD of result @p r, after a header. @return 0 or -EIO. */
int ccb_report_osd_csv(const json_t *r, FILE *out);

/**
 * An SVG chart of result @p r: each OSD's p99 and p50 (ms) beside a line at
 * the median OSD's p99. @return 0, -ENODATA (no per-OSD client figures), -EIO.
 */
int ccb_report_osd_svg(const json_t *r, FILE *out);

#endif
