/*
 * explain's "fault" kinds: what a fault cost the client (a run with
 * --fault, its result's "fault" object, docs/failures.md). Read from the
 * result alone, so a saved result says the same:
 *
 *   fault-pause     what set the I/O pause: the fault before it, when the
 *                   mon marked an OSD down or saw one come back, against
 *                   osd_heartbeat_grace; an osd-down is a peering blip;
 *   fault-slowdown  p99 while the cluster recovered (or ran degraded)
 *                   against before, with the scheduler's settings that set
 *                   how hard recovery competes with clients;
 *   fault-clean     when the cluster was active+clean again, or that it
 *                   was not by the run's end;
 *   fault-left      an exec: without undo: that left a daemon stopped;
 *   fault-failed    a fault that could not be applied.
 * Thresholds in docs/explain.md.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

/* A pause under this is a blip, whatever caused it. */
#define BLIP_S 1.0
/* What a pause after an osd-down fault is, said where the pause is small. */
#define OSD_DOWN_BLIP                                                                              \
	"; an OSD marked down while it runs contests it at once (osd-down), a peering blip, not "  \
	"a failure"
/* A phase's p99 at least this times the p99 before is a slowdown worth a warning. */
#define SLOW_WARN 3.0

/* A setting of the run's OSDs as text, or NULL. */
static const char *setting(const json_t *f, const char *key)
{
	return str(json_object_get(json_object_get(f, "settings"), "values"), key);
}

static double setting_num(const json_t *f, const char *key)
{
	const char *v = setting(f, key);

	return v ? strtod(v, NULL) : NAN;
}

/* The fault that fired last at or before @p t (a little after counts:
 * the thread fires it within its tick), or NULL. */
static const json_t *fault_before(const json_t *f, double t)
{
	const json_t *e, *best = NULL;
	size_t i;

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		if (!json_is_true(json_object_get(e, "fired")) ||
		    strcmp(str_or(e, "action", ""), "end") == 0 || num(e, "fired_s") > t + 0.05)
			continue;
		if (!best || num(e, "fired_s") >= num(best, "fired_s"))
			best = e;
	}
	return best;
}

/* The fault that fired first (not end), or NULL. */
static const json_t *first_fault(const json_t *f)
{
	const json_t *e, *best = NULL;
	size_t i;

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		if (!json_is_true(json_object_get(e, "fired")) ||
		    strcmp(str_or(e, "action", ""), "end") == 0)
			continue;
		if (!best || num(e, "fired_s") < num(best, "fired_s"))
			best = e;
	}
	return best;
}

/* Whether a fault of action @p action fired. */
static bool any_action(const json_t *f, const char *action)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		if (json_is_true(json_object_get(e, "fired")) &&
		    strcmp(str_or(e, "action", ""), action) == 0)
			return true;
	}
	return false;
}

/* When the first fault after @p t fired (INFINITY: none did). */
static double next_fault_s(const json_t *f, double t)
{
	const json_t *e;
	double best = INFINITY;
	size_t i;

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		if (json_is_true(json_object_get(e, "fired")) && num(e, "fired_s") > t + 1e-6)
			best = fmin(best, num(e, "fired_s"));
	}
	return best;
}

/* The first event of @p kind in [@p a, @p b), or NULL. */
static const json_t *event_in(const json_t *f, const char *kind, double a, double b)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(f, "events"), i, e)
	{
		const char *k = str(e, "kind");

		if (k && strcmp(k, kind) == 0 && num(e, "t_s") >= a && num(e, "t_s") < b)
			return e;
	}
	return NULL;
}

/* "osd_heartbeat_grace (6 s)" as the run's OSDs had it. */
static void grace_text(const json_t *f, char *buf, size_t len)
{
	double g = setting_num(f, "osd_heartbeat_grace");

	if (isnan(g))
		snprintf(buf, len, "osd_heartbeat_grace (not read)");
	else
		snprintf(buf, len, "osd_heartbeat_grace (%g s)", g);
}

static void explain_pause(const json_t *f, json_t *list)
{
	const json_t *fig = json_object_get(f, "figures"), *cause, *down, *up;
	double p = num(fig, "pause_s"), from = num(fig, "pause_from_s"),
	       to = num(fig, "pause_to_s");
	const char *action;
	char grace[64], after_grace[96], after[96];
	double since, until;

	if (!json_is_number(json_object_get(fig, "pause_s")))
		return;
	if (p <= 0) {
		/* Not one tick without a completion after the first fault (a
		 * buffered path, libcephfs' say, may hide a peering blip): said
		 * too, so that every run with a schedule has its pause line. */
		double tick = num(f, "resolution_s");

		cause = first_fault(f);
		if (cause)
			ccb_explain_add(
			    list, "fault-pause", "info", json_pack("{s:f}", "pause_s", 0.0),
			    "no pause: a completion in every %g ms after the first "
			    "fault ('%s' at %.1f s)%s",
			    (tick > 0 ? tick : 0.01) * 1e3, str_or(cause, "fault", "?"),
			    num(cause, "fired_s"), any_action(f, "osd-down") ? OSD_DOWN_BLIP : "");
		return;
	}
	cause = fault_before(f, from);
	if (!cause)
		return;
	action = str_or(cause, "action", "");
	since = from - num(cause, "fired_s");
	grace_text(f, grace, sizeof(grace));
	snprintf(after_grace, sizeof(after_grace), "after its peers' %s", grace);
	snprintf(after, sizeof(after), "%.1f s after '%s'", since, str_or(cause, "fault", "?"));
	json_t *figs =
	    json_pack("{s:f, s:f, s:f, s:s, s:f}", "pause_s", p, "pause_from_s", from, "pause_to_s",
	              to, "after_fault", str_or(cause, "fault", "?"), "after_s", since);
	if (json_is_true(json_object_get(fig, "pause_open"))) {
		ccb_explain_add(
		    list, "fault-pause", "warn", figs,
		    "client I/O stopped at %.1f s, %s, and had not resumed when the run "
		    "ended %.1f s later",
		    from, after, p);
		return;
	}
	if (p < BLIP_S) {
		ccb_explain_add(
		    list, "fault-pause", "info", figs,
		    "no pause to speak of: the longest stretch without a completion was "
		    "%.2f s, at %.1f s (%s)%s",
		    p, from, after, strcmp(action, "osd-down") == 0 ? OSD_DOWN_BLIP : "");
		return;
	}
	/* What the map said between the fault and the pause's end (a sample
	 * may come up to a second late), before the next fault, whose own it
	 * would be. */
	until = fmin(to + 1.0, next_fault_s(f, num(cause, "fired_s")));
	down = event_in(f, "osd-down", num(cause, "fired_s"), until);
	up = event_in(f, "osd-up", num(cause, "fired_s"), until);
	if (strcmp(action, "osd-down") == 0) {
		/* Marked down by the fault, not by its peers: the OSD contests it,
		 * and its PGs peer twice (without it, then with it again). */
		char back[96] = "";

		if (up)
			snprintf(back, sizeof(back),
			         ", up again at %.0f s (the map, read each second)",
			         num(up, "t_s"));
		ccb_explain_add(
		    list, "fault-pause", "warn", figs,
		    "client I/O stopped for %.1f s at %.1f s (%s): the OSD, marked down "
		    "while it runs, contested it%s; its PGs peered without it and again "
		    "with it, and the clients resent their ops",
		    p, from, after, back);
		return;
	}
	if (up && (!down || num(up, "t_s") >= num(down, "t_s")) && since > 0.5) {
		ccb_explain_add(
		    list, "fault-pause", p < BLIP_S ? "info" : "warn", figs,
		    "client I/O stopped for %.1f s at %.1f s (%s): %s at %.0f s, and its "
		    "PGs peered again; writes to objects it lacked waited for their "
		    "recovery (an OSD coming back costs a pause too)",
		    p, from, after, str_or(up, "text", "an OSD came up"), num(up, "t_s"));
		return;
	}
	if (down) {
		double marked = num(down, "t_s") - num(cause, "fired_s");
		double g = setting_num(f, "osd_heartbeat_grace");
		bool fast = !isnan(g) && marked + 1.0 < g;

		char who[32] = "an OSD";

		/* The event says "osd.N marked down": its first word. */
		sscanf(str_or(down, "text", "an OSD"), "%31s", who);
		json_object_set_new(figs, "marked_down_after_s", json_real(marked));
		ccb_explain_add(
		    list, "fault-pause", p < BLIP_S ? "info" : "warn", figs,
		    "client I/O stopped for %.1f s at %.1f s (%s): the monitors marked %s down "
		    "%.0f s "
		    "after the fault (to the second), %s; peering and the clients' resends took "
		    "the "
		    "rest. %s",
		    p, from, after, who, marked,
		    fast ? "sooner than its grace: its peers found its port closed "
		           "(osd_fast_fail_on_connection_refused), as for a killed process"
		         : after_grace,
		    fast ? "A hung OSD (not a dead one) is marked down only after the grace"
		         : "A lower grace fails over sooner, at the risk of flapping");
		return;
	}
	ccb_explain_add(list, "fault-pause", p < BLIP_S ? "info" : "warn", figs,
	                "client I/O stopped for %.1f s at %.1f s (%s)", p, from, after);
}

/* The scheduler's settings that set how hard recovery competes. */
static void sched_text(const json_t *f, char *buf, size_t len)
{
	const char *q = setting(f, "osd_op_queue"), *prof = setting(f, "osd_mclock_profile");

	if (q && strcmp(q, "mclock_scheduler") == 0)
		snprintf(buf, len,
		         "the OSDs' mClock profile `%s` sets the share recovery gets of each OSD "
		         "(high_client_ops favours clients, high_recovery_ops recovery)",
		         prof ? prof : "?");
	else
		snprintf(
		    buf, len,
		    "the OSDs' op queue is %s: osd_max_backfills %s, osd_recovery_max_active %s "
		    "(hdd %s, ssd %s) and osd_recovery_sleep_hdd %s s set how hard recovery "
		    "competes with clients",
		    q ? q : "?",
		    str_or(json_object_get(json_object_get(f, "settings"), "values"),
		           "osd_max_backfills", "?"),
		    setting(f, "osd_recovery_max_active") ? setting(f, "osd_recovery_max_active")
		                                          : "?",
		    setting(f, "osd_recovery_max_active_hdd")
		        ? setting(f, "osd_recovery_max_active_hdd")
		        : "?",
		    setting(f, "osd_recovery_max_active_ssd")
		        ? setting(f, "osd_recovery_max_active_ssd")
		        : "?",
		    setting(f, "osd_recovery_sleep_hdd") ? setting(f, "osd_recovery_sleep_hdd")
		                                         : "?");
}

static void explain_slowdown(const json_t *f, json_t *list)
{
	const json_t *fig = json_object_get(f, "figures");
	double before = num(fig, "before_p99_us"), rec = num(fig, "recovery_p99_us");
	double deg = num(fig, "degraded_p99_us");
	char sched[400];

	sched_text(f, sched, sizeof(sched));
	if (before > 0 && rec > 0) {
		double x = rec / before;

		ccb_explain_add(
		    list, "fault-slowdown", x >= SLOW_WARN ? "warn" : "info",
		    json_pack("{s:f, s:f, s:f, s:f}", "recovering_s", num(fig, "recovering_s"),
		              "recovery_p99_us", rec, "before_p99_us", before, "slowdown", x),
		    "while the cluster recovered or backfilled (%.1f s), p99 of the ops "
		    "started then was %.1f times its level before (%.1f ms against %.1f "
		    "ms); %s",
		    num(fig, "recovering_s"), x, rec / 1e3, before / 1e3, sched);
	}
	if (before > 0 && deg > 0 && deg / before >= SLOW_WARN)
		ccb_explain_add(
		    list, "fault-slowdown", "warn",
		    json_pack("{s:f, s:f, s:f}", "degraded_s", num(fig, "degraded_s"),
		              "degraded_p99_us", deg, "before_p99_us", before),
		    "while the cluster ran degraded (%.1f s), p99 was %.1f times its level "
		    "before (%.1f ms against %.1f ms): ops sent before a PG's OSD was "
		    "marked down waited for it",
		    num(fig, "degraded_s"), deg / before, deg / 1e3, before / 1e3);
}

static void explain_clean(const json_t *f, json_t *list)
{
	const json_t *fig = json_object_get(f, "figures"), *ph = json_object_get(f, "phases"),
	             *last;
	const json_t *cl = json_object_get(f, "cluster");
	const json_t *s = json_array_get(cl, json_array_size(cl) ? json_array_size(cl) - 1 : 0);
	double ttc = num(fig, "time_to_clean_s");
	bool disturbed = num(fig, "degraded_s") > 0 || num(fig, "recovering_s") > 0;

	if (!disturbed)
		return;
	if (json_is_number(json_object_get(fig, "time_to_clean_s"))) {
		ccb_explain_add(
		    list, "fault-clean", "info",
		    json_pack("{s:f, s:f}", "time_to_clean_s", ttc, "recovering_s",
		              num(fig, "recovering_s")),
		    "every PG was active+clean again %.1f s after the first fault (%.1f s "
		    "of it recovering or backfilling)",
		    ttc, num(fig, "recovering_s"));
		return;
	}
	last = json_array_get(ph, json_array_size(ph) ? json_array_size(ph) - 1 : 0);
	ccb_explain_add(list, "fault-clean", "warn",
	                json_pack("{s:s, s:s}", "last_phase", str_or(last, "phase", "?"), "states",
	                          str_or(s, "states", "")),
	                "the cluster was not clean again by the end of the run (last phase %s; "
	                "PGs: %s): the figures after the fault are of a cluster still recovering",
	                str_or(last, "phase", "?"), str_or(s, "states", "not read"));
}

void ccb_explain_fault(const json_t *r, json_t *list)
{
	const json_t *f = json_object_get(r, "fault"), *e;
	size_t i;

	if (!json_is_object(f))
		return;
	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		if (json_is_true(json_object_get(e, "failed")))
			ccb_explain_add(list, "fault-failed", "warn",
			                json_pack("{s:s}", "fault", str_or(e, "fault", "?")),
			                "fault '%s' did not do what it said: %s",
			                str_or(e, "fault", "?"), str_or(e, "result", "?"));
	}
	explain_pause(f, list);
	explain_slowdown(f, list);
	explain_clean(f, list);
	json_array_foreach(json_object_get(f, "left"), i, e)
	    ccb_explain_add(list, "fault-left", "warn", NULL, "%s", string_or(e, "?"));
}
