/*
 * explain's "steady" kind: what --until-steady found. A run that reached
 * steady state says when, the band it held and which figure a sweep takes
 * (the window's mean, not the whole run's, which includes the ramp); one
 * that did not says its figure is a trend, not a level.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* "MiB/s", "IOPS" or "µs" for the result's metric name. */
static const char *unit_of(const char *metric)
{
	return strcmp(metric, "iops") == 0          ? "IOPS"
	       : strcmp(metric, "lat_mean_us") == 0 ? "µs mean latency"
	                                            : "MiB/s";
}

void ccb_explain_steady(const json_t *r, json_t *list)
{
	const json_t *ss = json_object_get(r, "steady_state");
	const json_t *w = json_object_get(ss, "window"), *ramp = json_object_get(ss, "ramp");
	const char *metric = str_or(ss, "metric", "bandwidth_mib_s");
	const char *basis = str(ramp, "basis");
	double secs = num(r, "seconds");
	char ramp_text[160];

	if (!json_is_object(ss))
		return;
	if (basis && strcmp(basis, "--steady-ramp") == 0)
		snprintf(ramp_text, sizeof(ramp_text), "a %.1f s ramp (--steady-ramp)",
		         num(ramp, "min_s"));
	else
		snprintf(ramp_text, sizeof(ramp_text), "a ramp of %.0f s%s%s", num(ramp, "min_s"),
		         basis ? " and " : "", basis ? basis : "");
	if (json_is_true(json_object_get(ss, "attained")) && json_is_object(w)) {
		bool slope = strcmp(str_or(ss, "criterion", ""), "slope") == 0;
		char held[96];

		if (slope)
			snprintf(held, sizeof(held), "trending %.1f %% across it",
			         num(w, "trend_pct"));
		else
			snprintf(held, sizeof(held), "within ±%.1f %% (%.1f to %.1f)",
			         num(w, "max_deviation_pct"), num(w, "min"), num(w, "max"));
		if (json_is_true(json_object_get(ss, "read_to_end"))) {
			ccb_explain_add(
			    list, "steady", "info",
			    json_pack("{s:f, s:f, s:f, s:b, s:f}", "at_s", num(ss, "at_s"),
			              "end_was_s", num(ss, "end_was_s"), "window_bandwidth_mib_s",
			              num(w, "bandwidth_mib_s"), "read_to_end", 1,
			              "run_bandwidth_mib_s", num(r, "bandwidth_mib_s")),
			    "steady after %.1f s (%s): %.1f %s held for %.0f s %s, but the run's "
			    "own "
			    "end was %.1f s away, under a window: it read on to it, and a sweep "
			    "takes "
			    "the whole run's %.1f MiB/s (the window's was %.1f), as a full-length "
			    "run "
			    "would",
			    num(ss, "at_s"), str_or(ss, "spec", "?"), num(w, "mean"),
			    unit_of(metric), num(ss, "window_s"), held, num(ss, "end_was_s"),
			    num(r, "bandwidth_mib_s"), num(w, "bandwidth_mib_s"));
			return;
		}
		ccb_explain_add(
		    list, "steady", "info",
		    json_pack("{s:f, s:f, s:f, s:f, s:f}", "at_s", num(ss, "at_s"), "window_s",
		              num(ss, "window_s"), "window_mean", num(w, "mean"),
		              "window_bandwidth_mib_s", num(w, "bandwidth_mib_s"),
		              "run_bandwidth_mib_s", num(r, "bandwidth_mib_s")),
		    "steady after %.1f s (%s): %.1f %s held for %.0f s %s after %s; a sweep takes "
		    "this window's %.1f MiB/s, the whole run's %.1f MiB/s includes the ramp",
		    num(ss, "at_s"), str_or(ss, "spec", "?"), num(w, "mean"), unit_of(metric),
		    num(ss, "window_s"), held, ramp_text, num(w, "bandwidth_mib_s"),
		    num(r, "bandwidth_mib_s"));
		return;
	}
	ccb_explain_add(list, "steady", "warn",
	                json_pack("{s:f, s:o}", "seconds", secs, "ramp_over_at_s",
	                          json_is_number(json_object_get(ramp, "over_at_s"))
	                              ? json_real(num(ramp, "over_at_s"))
	                              : json_null()),
	                "not steady after %.0f s (%s): %s: the figure is %s, not a level", secs,
	                str_or(ss, "spec", "?"), str_or(ss, "why", "no window held"),
	                json_is_number(json_object_get(ramp, "over_at_s")) ? "a trend"
	                                                                   : "the ramp's");
}
