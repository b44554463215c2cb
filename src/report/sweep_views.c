/*
 * Which views a sweep document gets: a sweep of single runs has its
 * bandwidth tables (sweep_report.c), a sweep of capacity searches its
 * capacity tables (capacity_sweep_report.c). Here, so that neither of
 * those two files calls the other's views.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/capacity_sweep_report.h>

#include "sweep_int.h"

void ccb_sweep_render_text(const json_t *doc, FILE *out)
{
	if (ccb_sweep_is_capacity(json_object_get(doc, "config")))
		ccb_capacity_sweep_render_text(doc, out);
	else
		ccb_sweep_runs_render_text(doc, out);
}

int ccb_sweep_render_csv(const json_t *doc, FILE *out)
{
	if (ccb_sweep_is_capacity(json_object_get(doc, "config")))
		return ccb_capacity_sweep_render_csv(doc, out);
	return ccb_sweep_runs_render_csv(doc, out);
}
