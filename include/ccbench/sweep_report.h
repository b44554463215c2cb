/**
 * @file sweep_report.h
 * The views of a sweep document (src/report/sweep_*.c, one view a file):
 * its table, CSV and SVG, the figures they read off a point, and the
 * caveats a document carries. The sweep wing writes them after a run;
 * report, explain and compare after reading one back.
 */
#ifndef CCBENCH_SWEEP_REPORT_H
#define CCBENCH_SWEEP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/** Runs a point always gets under "repeat_until" (the interval needs two). */
#define CCB_SWEEP_MIN_RUNS 2

/** Text table of a sweep document, shaped like seed 002's. */
void ccb_sweep_render_text(const json_t *doc, FILE *out);

/**
 * The aggregate figure @p what / @p stat ("bandwidth_mib_s", "mean") of
 * sweep point @p pt; 0 when missing.
 */
double ccb_sweep_agg(const json_t *pt, const char *what, const char *stat);

/**
 * Whether sweep points @p k and @p q (of one document) have bandwidths
 * told apart by their repeats: their difference (*@p diff) above twice
 * its standard error (*@p two_se, from each point's stddev and runs; a
 * point of one run is taken to spread as the other).
 */
bool ccb_sweep_told_apart(const json_t *k, const json_t *q, double *diff, double *two_se);

/**
 * What the figures of sweep document @p doc cannot be read as, from the
 * document alone: [{kind, severity, text, series?}] with kinds
 * "latency-sides" (paths under different injected latency: not
 * comparable), "osd-latency-lost" (an OSD lost the injected latency during
 * some runs), "fuse-loop" (a kernel series through rbd-fuse, which cannot
 * show readahead; "series" names it), "emulated-limit" (points of a series
 * where the client's emulated CPU was the limit). New array (empty:
 * nothing to say).
 */
json_t *ccb_sweep_caveats(const json_t *doc);

/** Whether a run of sweep point @p point went through fuse-loop. */
bool ccb_sweep_point_fuse_loop(const json_t *point);

/** Whether a run of sweep point @p point says its emulated client CPU was the limit. */
bool ccb_sweep_point_emulated_limit(const json_t *point);

/** One CSV row per point. @return 0 or -EIO. */
int ccb_sweep_render_csv(const json_t *doc, FILE *out);

/** Self-contained SVG chart of a sweep document. @return 0 or -EIO. */
int ccb_sweep_render_svg(const json_t *doc, FILE *out);

/**
 * Check a saved sweep's shape and counts before a view walks it: "points"
 * a list of at most 10000 objects (a matrix of at most 64 keys, at most
 * 1000 runs each, 200000 in all), "row_key" a string if given, at most 256 knees.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_sweep_doc_check(const json_t *doc, char *err, size_t err_len);

#endif
