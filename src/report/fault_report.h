/**
 * @file fault_report.h
 * The views of a run with faults (its result's "fault" object, fault.h):
 * a table of phases in the text view, the per-second CSV with each
 * second's phase and events, and an SVG timeline (bandwidth and p99
 * against time, the faults as vertical lines, the phases shaded). Each
 * reads only the saved result, so `ccbench report` redraws them.
 */
#ifndef CCBENCH_FAULT_REPORT_H
#define CCBENCH_FAULT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/** Whether @p r is a run with faults (a "fault" object). */
bool ccb_fault_report_is(const json_t *r);

/** The schedule, the phases' table and the figures, for the text view. */
void ccb_fault_report_text(const json_t *r, FILE *out);

/**
 * One CSV row per second of @p r: t, bandwidth, ops, p50, p99, slowest
 * op, errors, the phase, the cluster's last sample (OSDs up and in, PGs
 * clean, degraded, recovering, backfilling) and the events of that second.
 *
 * @return 0 or -EIO.
 */
int ccb_fault_report_csv(const json_t *r, FILE *out);

/**
 * The timeline of @p r as a self-contained SVG document.
 *
 * @return 0, -EINVAL (@p r has no fault timeline) or -EIO.
 */
int ccb_fault_render_svg(const json_t *r, FILE *out);

#endif
