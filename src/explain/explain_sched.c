/*
 * The OSD scheduler the run met (cluster_state.start.osd_scheduler, see
 * cluster_sched.h): which op queue, and under mClock what the profile
 * gives clients. A profile that limits client I/O (custom with a client
 * limit; Pacific's balanced and high_recovery_ops) caps what any client
 * can measure, whatever the cluster could do: warn, and name the setting
 * that lifts it. Background work (recovery, backfill, scrub) beside the
 * run under a profile that reserves it a share: warn. Split from
 * explain_state.c (explain_int.h).
 */
#include <ccbench/explain.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "explain_int.h"

/* A number that may be null. */
static double num_nan(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* "osd_mclock_scheduler_client_lim=0.01 of osd_mclock_max_capacity_iops_hdd
 * 315" or "=50 per op shard x 5 shards": the limit as the OSD has it. */
static void limit_setting(const json_t *m, char *buf, size_t len)
{
	const json_t *client = json_object_get(m, "client");
	double lim = num_nan(client, "lim");

	if (strcmp(str_or(m, "qos_unit", ""), "capacity_share") == 0)
		snprintf(buf, len, "osd_mclock_scheduler_client_lim=%g of %s %.0f", lim,
		         str_or(m, "capacity_option", "the capacity"), num_nan(m, "capacity_iops"));
	else
		snprintf(buf, len,
		         "osd_mclock_scheduler_client_lim=%.0f per op shard x %.0f shards", lim,
		         num_nan(m, "shards"));
}

/* "clients reserved 50 % of the capacity (158 of 315 IOPS,
 * osd_mclock_max_capacity_iops_hdd), weight 1": the client's share. */
static void share_text(const json_t *m, char *buf, size_t len)
{
	const json_t *client = json_object_get(m, "client");
	double res = num_nan(client, "res"), wgt = num_nan(client, "wgt");
	double res_iops = num_nan(m, "client_reservation_iops");

	if (strcmp(str_or(m, "qos_unit", ""), "capacity_share") == 0)
		snprintf(buf, len,
		         "clients reserved %.0f %% of the OSD's capacity (%.0f of %.0f IOPS, %s), "
		         "weight %g",
		         res * 100, res_iops, num_nan(m, "capacity_iops"),
		         str_or(m, "capacity_option", "?"), wgt);
	else
		snprintf(
		    buf, len,
		    "clients reserved %.0f IOPS per OSD (%g per op shard x %.0f shards), weight %g",
		    res_iops, res, num_nan(m, "shards"), wgt);
}

/* Background work beside the run, at the start or the end: "3 PGs
 * recovering at the start"; empty when none. */
static void background(const json_t *cs, char *buf, size_t len)
{
	static const char *const keys[][2] = {{"pgs_recovering", "recovering"},
	                                      {"pgs_backfilling", "backfilling"},
	                                      {"pgs_scrubbing", "scrubbing"}};
	size_t o = 0;

	buf[0] = '\0';
	for (int k = 0; k < 2; k++) {
		const json_t *s = json_object_get(cs, k ? "end" : "start");

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && o < len; i++) {
			json_int_t n = json_integer_value(json_object_get(s, keys[i][0]));
			if (n > 0)
				o += (size_t)snprintf(buf + o, len - o, "%s%lld PGs %s at the %s",
				                      o ? ", " : "", (long long)n, keys[i][1],
				                      k ? "end" : "start");
		}
		if (o)
			break; /* the start's say it; the end's only when the start had none */
	}
}

void ccb_explain_sched(const json_t *r, json_t *list)
{
	const json_t *cs = json_object_get(r, "cluster_state");
	const json_t *sched = json_object_get(json_object_get(cs, "start"), "osd_scheduler");
	const json_t *m = json_object_get(sched, "mclock");
	const char *queue = str(sched, "osd_op_queue"), *profile = str_or(m, "profile", "?");
	double osds = num(json_object_get(cs, "start"), "osds_up"), iops = num(r, "iops");
	double lim_iops = num_nan(m, "client_limit_iops"), cap = num_nan(m, "capacity_iops");
	char who[96], share[192], setting[160], bg[160];

	if (!json_is_object(sched))
		return;
	if (str(sched, "error")) {
		ccb_explain_add(list, "scheduler", "info", NULL,
		                "the OSD scheduler could not be read: %s", str(sched, "error"));
		return;
	}
	snprintf(who, sizeof(who), "%s%s%s", str_or(sched, "osd", "?"),
	         str(sched, "ceph_version") ? ", " : "", str_or(sched, "ceph_version", ""));
	if (!queue)
		return;
	if (!json_is_object(m)) {
		ccb_explain_add(
		    list, "scheduler", "info", json_pack("{s:s}", "osd_op_queue", queue),
		    "OSD op queue %s (%s): no mClock QoS between clients and background "
		    "work",
		    queue, who);
		return;
	}
	share_text(m, share, sizeof(share));
	if (!isnan(lim_iops)) {
		/* A limit at or above the capacity mClock assumes binds only a
		 * device faster than that figure: info. */
		bool binds = isnan(cap) || lim_iops < cap;
		char run_part[96] = "";

		limit_setting(m, setting, sizeof(setting));
		if (osds > 0 && iops > 0)
			snprintf(run_part, sizeof(run_part),
			         "; this run did %.0f IOPS over %.0f OSD%s", iops, osds,
			         osds == 1 ? "" : "s");
		ccb_explain_add(
		    list, "scheduler", binds ? "warn" : "info",
		    json_pack("{s:s, s:s, s:f, s:s}", "osd_op_queue", queue, "profile", profile,
		              "client_limit_iops", lim_iops, "lifted_by",
		              "osd_mclock_profile=high_client_ops"),
		    "mClock profile %s (%s) limits client I/O to %.0f IOPS per OSD (%s)%s: "
		    "osd_mclock_profile=high_client_ops lifts the limit%s",
		    profile, who, lim_iops, setting, run_part,
		    strcmp(profile, "custom") == 0
		        ? " (or a higher osd_mclock_scheduler_client_lim)"
		        : "");
	} else {
		ccb_explain_add(list, "scheduler", "info",
		                json_pack("{s:s, s:s}", "osd_op_queue", queue, "profile", profile),
		                "OSD op queue mClock, profile %s (%s): %s, no limit", profile, who,
		                share);
	}
	background(cs, bg, sizeof(bg));
	if (bg[0] && strcmp(profile, "high_client_ops") != 0)
		ccb_explain_add(
		    list, "scheduler", "warn",
		    json_pack("{s:s, s:s}", "profile", profile, "favoured_by",
		              "osd_mclock_profile=high_client_ops"),
		    "background work beside the run (%s) under mClock profile %s, where "
		    "%s: the run got the clients' share; osd_mclock_profile=high_client_ops "
		    "favours client I/O",
		    bg, profile, share);
}
