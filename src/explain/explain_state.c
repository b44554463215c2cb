/*
 * The kinds that read the run against the cluster it ran on: seconds with
 * no completion and what the stall check found, the cluster's state at
 * start and end (health, PGs, OSDs down, flags), the route to it and its
 * link. Split from explain.c, which runs them (explain_int.h).
 */
#include <ccbench/explain.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* Seconds with no completion. The last second of the series is skipped
 * when the run ended less than half into it. */
void ccb_explain_stall(const json_t *r, json_t *list)
{
	const json_t *series = json_object_get(r, "series"), *s;
	double secs = num(r, "seconds");
	json_t *which;
	char buf[256] = "";
	size_t i, o = 0, n = json_array_size(series);

	/* A run with faults: its pause is the fault kinds' (explain_fault.c). */
	if (json_is_object(json_object_get(r, "fault")))
		return;
	which = json_array();

	json_array_foreach(series, i, s)
	{
		double t = num(s, "t");
		if (json_integer_value(json_object_get(s, "ops")) != 0)
			continue;
		if (i + 1 == n && secs - (t - 1) < 0.5)
			continue;
		json_array_append_new(which, json_integer((json_int_t)t));
		if (o < sizeof(buf) - 16)
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%.0f", o ? "," : "", t);
		else if (!strstr(buf, "..."))
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, ",...");
	}
	/* What the engine's stall check found while it waited (the progress
	 * line's "no completion for N s: osd.1 down"). */
	char found[320] = "";
	const json_t *d;
	size_t j, fo = 0, k = json_array_size(which);
	json_array_foreach(json_object_get(r, "stall_diagnosis"), j, d)
	{
		if (!str(d, "why") || fo >= sizeof(found) - 8)
			continue;
		fo += (size_t)snprintf(found + fo, sizeof(found) - fo,
		                       "%s%s (no completion from "
		                       "%.1f s into the run)",
		                       fo ? "; " : "", str(d, "why"), num(d, "since_s"));
	}
	if (!k && !found[0]) {
		json_decref(which);
		return;
	}
	json_t *fig = json_pack("{s:o, s:I}", "seconds", which, "count", (json_int_t)k);
	if (found[0] && !k) {
		json_object_set(fig, "diagnosis", json_object_get(r, "stall_diagnosis"));
		ccb_explain_add(list, "stall", "warn", fig, "the I/O stopped: %s", found);
	} else if (found[0]) {
		json_object_set(fig, "diagnosis", json_object_get(r, "stall_diagnosis"));
		ccb_explain_add(list, "stall", "warn", fig,
		                "%zu second%s of %zu with no completion (t=%s): %s", k,
		                k == 1 ? "" : "s", n, buf, found);
	} else {
		ccb_explain_add(
		    list, "stall", "warn", fig,
		    "%zu second%s of %zu with no completion (t=%s): something stopped the I/O", k,
		    k == 1 ? "" : "s", n, buf);
	}
}

/* In @p a (a JSON array of strings), @p s. */
static bool has_name(const json_t *a, const char *s)
{
	const json_t *v;
	size_t i;

	/* A crafted record's list may hold other than strings. */
	json_array_foreach(a, i, v) if (s && json_is_string(v) &&
	                                strcmp(json_string_value(v), s) == 0) return true;
	return false;
}

/* "12 degraded, 3 recovering" of the PG counts of @p st; empty for none. */
static void pg_trouble(const json_t *st, char *buf, size_t len)
{
	static const char *const keys[][2] = {{"pgs_inactive", "inactive"},
	                                      {"pgs_degraded", "degraded"},
	                                      {"pgs_recovering", "recovering"},
	                                      {"pgs_backfilling", "backfilling"}};
	size_t o = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		json_int_t n = json_integer_value(json_object_get(st, keys[k][0]));
		if (n > 0 && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%lld %s", o ? ", " : "",
			                      (long long)n, keys[k][1]);
	}
}

/* The health checks of @p st, "NAME (message); ...". */
static void checks_text(const json_t *st, char *buf, size_t len)
{
	const char *key;
	const json_t *v;
	size_t o = 0;

	buf[0] = '\0';
	json_object_foreach((json_t *)json_object_get(st, "checks"), key, v)
	{
		int n = snprintf(buf + o, len - o, "%s%s (%s)", o ? "; " : "", key,
		                 json_string_value(v) ? json_string_value(v) : "");
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}

/* The OSDs down in snapshot @p a and not in @p b (a new array; empty when
 * @p b is missing or could not be read, so nothing is guessed). */
static json_t *down_only_in(const json_t *a, const json_t *b)
{
	json_t *out = json_array(), *v;
	size_t i;

	if (!json_is_object(b) || str(b, "error"))
		return out;
	json_array_foreach(json_object_get(a, "osds_down"), i, v)
	{
		if (!has_name(json_object_get(b, "osds_down"), json_string_value(v)))
			json_array_append(out, v);
	}
	return out;
}

/*
 * What the cluster said at the start and end (cluster_state, read-only
 * mon commands). A capacity check on a cluster that is repairing itself
 * (degraded, recovering, backfilling PGs, an OSD down) measures the
 * repair too: warn; an OSD that went down during the run moved the
 * figure under it: distrust. A full or nearfull flag: warn. Scrubs read
 * beside the run: info. Other health checks (a pool without redundancy,
 * clock skew): info, named.
 */
void ccb_explain_cluster(const json_t *r, json_t *list)
{
	const json_t *cs = json_object_get(r, "cluster_state"), *v;
	const json_t *st = json_object_get(cs, "start"), *en = json_object_get(cs, "end");
	const json_t *rel = json_object_get(json_object_get(r, "releases"), "cluster");
	char a[160], b[160], c[400];

	/* Daemons of two releases: an upgrade in progress, whose OSDs may
	 * differ in more than their version (the scheduler, its defaults). */
	if (str(rel, "release") && strchr(str(rel, "release"), '+'))
		ccb_explain_add(list, "cluster", "warn",
		                json_pack("{s:s, s:O}", "releases", str(rel, "release"),
		                          "ceph_versions", json_object_get(rel, "ceph_versions")),
		                "the cluster's daemons run different releases (%s): an upgrade in "
		                "progress; the figure is of the mix",
		                str(rel, "release"));
	if (!json_is_object(cs))
		return;
	if (str(st, "error") || str(en, "error")) {
		ccb_explain_add(list, "cluster", "info", NULL,
		                "the cluster state could not be read at the %s: %s",
		                str(st, "error") ? "start" : "end",
		                str_or(st, "error", str_or(en, "error", "")));
		if (str(st, "error") && str(en, "error"))
			return;
	}
	/* OSDs down during the run: at the end and not at the start; and back. */
	json_t *went = down_only_in(en, st), *back = down_only_in(st, en);
	if (json_array_size(went)) {
		ccb_explain_names(went, a, sizeof(a));
		ccb_explain_add(
		    list, "cluster", "distrust", json_pack("{s:O}", "went_down", went),
		    "%s went down during the run (%lld of %lld OSDs up at the end): the figure "
		    "mixes a healthy cluster and a failover",
		    a, (long long)json_integer_value(json_object_get(en, "osds_up")),
		    (long long)json_integer_value(json_object_get(en, "osds")));
	}
	if (json_array_size(back)) {
		ccb_explain_names(back, a, sizeof(a));
		ccb_explain_add(
		    list, "cluster", "warn", json_pack("{s:O}", "came_up", back),
		    "%s came back up during the run: the figure mixes a degraded and a recovering "
		    "cluster",
		    a);
	}
	json_decref(went);
	json_decref(back);
	for (int k = 0; k < 2; k++) {
		const json_t *s = k == 0 ? st : en;
		const char *when = k == 0 ? "start" : "end";

		if (!json_is_object(s) || str(s, "error"))
			continue;
		/* An OSD down at the start (and still at the end: the same
		 * names say it once). */
		if (k == 0 && json_array_size(json_object_get(s, "osds_down"))) {
			ccb_explain_names(json_object_get(s, "osds_down"), a, sizeof(a));
			ccb_explain_add(
			    list, "cluster", "warn",
			    json_pack("{s:O}", "osds_down", json_object_get(s, "osds_down")),
			    "%s down at the start (%lld of %lld OSDs up): a capacity check on a "
			    "degraded cluster measures it degraded",
			    a, (long long)json_integer_value(json_object_get(s, "osds_up")),
			    (long long)json_integer_value(json_object_get(s, "osds")));
		}
		pg_trouble(s, b, sizeof(b));
		if (b[0] && (k == 0 || (pg_trouble(st, c, sizeof(c)), strcmp(b, c) != 0)))
			ccb_explain_add(
			    list, "cluster", "warn", NULL,
			    "PGs at the %s: %s of %lld: a capacity check during recovery measures "
			    "a cluster busy repairing itself, not its capacity",
			    when, b, (long long)json_integer_value(json_object_get(s, "pgs")));
		if (json_is_true(json_object_get(s, "full")) ||
		    json_is_true(json_object_get(s, "nearfull")))
			ccb_explain_add(
			    list, "cluster", "warn", NULL,
			    "the cluster was %s at the %s: writes slow down or stop",
			    json_is_true(json_object_get(s, "full")) ? "full" : "nearfull", when);
		if (json_integer_value(json_object_get(s, "pgs_scrubbing")) > 0)
			ccb_explain_add(
			    list, "cluster", "info", NULL,
			    "%lld PGs scrubbing at the %s: scrubs read the OSDs beside the run",
			    (long long)json_integer_value(json_object_get(s, "pgs_scrubbing")),
			    when);
	}
	/* The health checks, once: at the start, and those new at the end. */
	if (json_is_object(st) && !str(st, "error") &&
	    json_object_size(json_object_get(st, "checks"))) {
		checks_text(st, c, sizeof(c));
		ccb_explain_add(list, "cluster", "info", NULL, "%s at the start: %s",
		                str_or(st, "health", "?"), c);
	}
	if (json_is_object(en) && !str(en, "error")) {
		json_t *fresh = json_object();
		const char *key;
		json_object_foreach((json_t *)json_object_get(en, "checks"), key,
		                    v) if (!json_object_get(json_object_get(st, "checks"), key))
		    json_object_set(fresh, key, (json_t *)v);
		if (json_object_size(fresh)) {
			json_t *tmp = json_pack("{s:O}", "checks", fresh);
			checks_text(tmp, c, sizeof(c));
			json_decref(tmp);
			ccb_explain_add(list, "cluster", "info", NULL,
			                "%s at the end, new during the run: %s",
			                str_or(en, "health", "?"), c);
		}
		json_decref(fresh);
	}
}

/*
 * How this host reaches the cluster (network, resolved at the start):
 * over loopback there is no link to saturate, and the client shares the
 * CPU with the OSDs; over a link that reports its speed, the share of it
 * the run used (warn above CCB_EXPLAIN_LINK_WARN).
 */
void ccb_explain_network(const json_t *r, json_t *list)
{
	const json_t *net = json_object_get(r, "network"), *p, *fast = NULL;
	double bw = num(r, "bandwidth_mib_s");
	size_t i, loop = 0, n = json_array_size(net);

	json_array_foreach(net, i, p)
	{
		if (json_is_true(json_object_get(p, "loopback")))
			loop++;
		else if (num(p, "speed_mbps") > 0 &&
		         (!fast || num(p, "speed_mbps") < num(fast, "speed_mbps")))
			fast = p; /* the slowest link is the limit */
	}
	if (!n)
		return;
	/* In an emulated machine (the krbd-vm guest) loopback addresses are
	 * relays to its host: neither "this host's CPU" nor "no link" holds. */
	if (loop == n && str(json_object_get(r, "client_cpu"), "emulated")) {
		ccb_explain_add(list, "network", "info", json_pack("{s:b}", "loopback", 1),
		                "mons and OSDs reached through loopback relays of this emulated "
		                "machine (%s): its network is emulated, and carried by its CPU",
		                str(json_object_get(r, "client_cpu"), "emulated"));
		return;
	}
	if (loop == n) {
		ccb_explain_add(
		    list, "network", "info", json_pack("{s:b}", "loopback", 1),
		    "mons and OSDs on this host (loopback): no link limits the run, and the client "
		    "shares this host's CPU with the OSDs");
		return;
	}
	if (fast) {
		double link = num(fast, "speed_mbps") * 1e6 / 8 / 1048576, share = bw / link;
		ccb_explain_add(
		    list, "network", share > CCB_EXPLAIN_LINK_WARN ? "warn" : "info",
		    json_pack("{s:s, s:f, s:f, s:f}", "interface", str_or(fast, "interface", "?"),
		              "speed_mbps", num(fast, "speed_mbps"), "link_mib_s", link, "share",
		              share),
		    "link %s %.0f Mb/s = %.0f MiB/s; this run used %.0f %% of it%s",
		    str_or(fast, "interface", "?"), num(fast, "speed_mbps"), link, share * 100,
		    share > CCB_EXPLAIN_LINK_WARN ? ": the network may be the limit" : "");
	}
}
