/**
 * @file group_report.h
 * Views of a group report (ccb_group_aggregate()): text, CSV, SVG.
 */
#ifndef CCBENCH_GROUP_REPORT_H
#define CCBENCH_GROUP_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/** The table: params, start and skew, window, one row per member, the aggregate. */
void ccb_group_render_text(const json_t *rep, FILE *out);

/** One CSV row per member and one for the aggregate. @return 0 or -EIO. */
int ccb_group_render_csv(const json_t *rep, FILE *out);

/** Each member's bandwidth per second at its measured start, and the
 * aggregate over the common window. @return 0, -ENOMEM or -EIO. */
int ccb_group_render_svg(const json_t *rep, FILE *out);

/** Realtime seconds @p t as "YYYY-MM-DDTHH:MM:SS.mmmZ" ("?" when not an instant). */
void ccb_group_format_realtime(double t, char *buf, size_t len);

#endif
