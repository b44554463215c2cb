/**
 * @file capacity_sweep_report.h
 * A sweep of capacity searches (a config whose command is "capacity
 * WORKLOAD"): each run of a point is a whole search, and the point's
 * figures are its capacity, its response p99 at 70 % of it and its knee.
 * The sweep's own views (sweep_report.c, sweep_svg.c) call these for such
 * a document; compare reads the same figures.
 */
#ifndef CCBENCH_CAPACITY_SWEEP_REPORT_H
#define CCBENCH_CAPACITY_SWEEP_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/** A config's command that starts with this is a capacity search of the rest. */
#define CCB_SWEEP_CAPACITY_WORD "capacity "

/** Whether sweep config @p config (or a document's "config") is of capacity searches. */
bool ccb_sweep_is_capacity(const json_t *config);

/** The text view: capacity, response p99 at 70 % and knee per point, and the warnings. */
void ccb_capacity_sweep_render_text(const json_t *doc, FILE *out);

/** One CSV row per point: its matrix values and figures. */
int ccb_capacity_sweep_render_csv(const json_t *doc, FILE *out);

/**
 * A point's figure for compare: its capacity (@p p99 false) or its
 * response p99 at 70 % of capacity, the mean of its searches; @p failed
 * says why there is none (a search not ok).
 */
double ccb_capacity_sweep_metric(const json_t *point, bool p99, const char **failed);

#endif
