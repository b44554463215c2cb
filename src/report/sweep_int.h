/*
 * Shared by the sweep views of src/report/ (sweep_report.c, sweep_svg.c,
 * sweep_doc_check.c, the capacity sweep's) and by the commands that read
 * a saved sweep back, not by the rest of ccbench. The labels are
 * sweep_labels.c's, the knee's confidence sweep_knee_report.c's.
 */
#ifndef CCBENCH_SWEEP_INT_H
#define CCBENCH_SWEEP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/* A table of more cells than this is not printed (a crafted document can
 * make each point a row and a column of its own). */
#define CCB_SWEEP_MAX_CELLS 1000000

/* The string of @p v, else @p dflt (sweep_labels.c, as the labels below). */
const char *ccb_sweep_str_or(const json_t *v, const char *dflt);

/* A config with "chart": "latency": the closed loop's curve, throughput
 * against latency on a log axis (sweep_curve_svg.c). */
int ccb_sweep_render_curve_svg(const json_t *doc, FILE *out);

/* The same curve as data, for a capacity search's chart (report
 * --closed-loop): [{in_flight, ops_s, latency_us: {p50, p99}}] of the
 * points with a run that completed, by ops in flight; NULL without memory. */
json_t *ccb_sweep_curve_points(const json_t *doc);

/* report --closed-loop: saved sweep @p sw (read from @p path, checked as
 * any saved sweep) as "closed_loop_sweep" of @p cap, which must be a
 * capacity search (read from @p cap_path). @return 0, or -EINVAL with
 * the reason in @p err. */
int ccb_sweep_curve_attach(json_t *cap, const char *cap_path, const json_t *sw, const char *path,
                           char *err, size_t err_len);

/* A matrix value as a label ("128K", "4", "true", "-"). */
const char *ccb_sweep_label_of(const json_t *v, char *buf, size_t len);

/* "order=20 path=librbd": a point's matrix values other than @p row_key. */
void ccb_sweep_series_label(const json_t *matrix, const char *row_key, char *buf, size_t len);

/* Distinct row values (@p rows) or series labels, in order of first appearance. */
json_t *ccb_sweep_distinct(const json_t *points, const char *row_key, bool rows);

/* Whether knee @p k is a categorical series' best (sweep_knee_report.c). */
bool ccb_sweep_is_best(const json_t *k);

/* The point of sweep @p doc in knee series @p series (its matrix but the
 * row key) at row value @p value, NULL if none (sweep_knee_report.c). */
const json_t *ccb_sweep_series_point(const json_t *doc, const json_t *series, const json_t *value);

/* The knee's confidence lines of a sweep's text view (sweep_knee_report.c). */
void ccb_sweep_knee_confidence(const json_t *doc, FILE *out);

/* The commands of a config ("rbd read, krbd read"). */
const char *ccb_sweep_commands_of(const json_t *cfg, char *buf, size_t len);

/* The points' @p what ("bandwidth_mib_s", "latency", "tradeoff:KEY" or any
 * aggregate figure: its mean ± stddev times @p unit_scale), rows by the
 * row key, columns by the other axes, under @p title. */
void ccb_sweep_table(const json_t *doc, FILE *out, const char *what, const char *title,
                     const char *unit_scale);

/* Each point by "ROW\x1fCOLUMN" (its row value, its series' label), the
 * first of a cell: new reference, NULL on ENOMEM (sweep_report.c). */
json_t *ccb_sweep_cell_index(const json_t *points, const char *row_key);

/* Whether point @p pt is its series' knee (a recommendation shown with *). */
bool ccb_sweep_is_knee(const json_t *doc, const json_t *pt, const char *row_key);

/* Each warn or distrust kind the runs of each point stored, once per
 * point (the first run's text): [{point (1-based), matrix, severity,
 * text}], the document's strings unescaped. New reference. */
json_t *ccb_sweep_warnings(const json_t *doc);

/* Footnotes: each warning and distrust the points' runs said, once per point. */
void ccb_sweep_why(const json_t *doc, FILE *out);

/* The views of a sweep of single runs (sweep_report.c); ccb_sweep_render_text()
 * and _csv() (sweep_views.c) choose between them and a capacity sweep's. */
void ccb_sweep_runs_render_text(const json_t *doc, FILE *out);
int ccb_sweep_runs_render_csv(const json_t *doc, FILE *out);

/* A sweep CSV's head: "point,command" and the matrix keys of @p points
 * (collected into @p keys, the command axis left out), escaped cells. */
void ccb_sweep_csv_head(const json_t *points, json_t *keys, FILE *out);

/* Point @p p's (index @p i) first cells: its number, command and @p keys' values. */
void ccb_sweep_csv_point(const json_t *p, size_t i, const json_t *keys, FILE *out);

#endif
