/**
 * @file capacity_report.h
 * Views of a capacity search's document (capacity.h): text, CSV, JSON and
 * the SVG hockey stick (achieved rate against response time on a log
 * axis, the SLO drawn), the check of a saved one before a view walks it,
 * and what compare gates on.
 */
#ifndef CCBENCH_CAPACITY_REPORT_H
#define CCBENCH_CAPACITY_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include <ccbench/options.h>

/** Steps a saved document may hold at most (the search's bound, with room). */
#define CCB_CAPACITY_MAX_STEPS 1000
/** Points of a closed-loop sweep drawn with a search (report --closed-loop). */
#define CCB_CAPACITY_MAX_SWEEP_POINTS 64

/** Whether @p doc says it is a capacity search's ("kind": "capacity"). */
bool ccb_capacity_is_doc(const json_t *doc);

/**
 * Check a saved capacity document's shape and counts before a view walks
 * it: "steps" a list of at most CCB_CAPACITY_MAX_STEPS objects, "slo" an
 * object with at most 4 terms, "headroom" at most 4 entries, "explain" a
 * list if given, "closed_loop_sweep" (report --closed-loop) an object whose
 * "points" are at most CCB_CAPACITY_MAX_SWEEP_POINTS.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_capacity_doc_check(const json_t *doc, char *err, size_t err_len);

/** The text view. @return 0 or -EIO. */
int ccb_capacity_render_text(const json_t *doc, FILE *out);

/** One CSV row per step. @return 0 or -EIO. */
int ccb_capacity_render_csv(const json_t *doc, FILE *out);

/** The document as indented JSON. @return 0 or -EIO. */
int ccb_capacity_render_json(const json_t *doc, FILE *out);

/** The hockey stick as a self-contained SVG. @return 0, -EIO or -ENOMEM. */
int ccb_capacity_render_svg(const json_t *doc, FILE *out);

/**
 * Every view @p o asks for: --json, --csv, --svg files, and --format to
 * --output or stdout.
 *
 * @return 0, or -EIO when one could not be written (said on stderr).
 */
int ccb_capacity_emit(const json_t *doc, const struct ccb_opts *o);

/**
 * compare's figure of a capacity document: the capacity in ops per second
 * (@p p99 false; higher is better) or the response p99 at 70 % of it in
 * microseconds (@p p99 true; lower is better). Sets *@p failed to why
 * there is none (status not ok, no capacity found), else NULL.
 */
double ccb_capacity_metric(const json_t *doc, bool p99, const char **failed);

#endif
