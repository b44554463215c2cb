/**
 * @file group_agg.h
 * The pure parts of a group, unit-tested without a cluster: the
 * parameters members must share, and the report over the window in which
 * all members ran. Every record it reads comes from the group pool, where
 * anyone may have written it: it is checked before it is used.
 */
#ifndef CCBENCH_GROUP_AGG_H
#define CCBENCH_GROUP_AGG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/options.h>

struct ccb_path_ops;

/** The most members a group can have (--members). */
#define CCB_GROUP_MAX_MEMBERS 1024

/** A member with no result whose last heartbeat (once a second while it
 * runs) is older than this is lost: killed, hung or cut off. */
#define CCB_GROUP_LOST_AFTER_S 5.0

/** `group report`'s exit status when a member was lost: the aggregate is
 * over the others (1 stays for any other incomplete group). */
#define CCB_GROUP_EXIT_LOST 3

/** How far apart the hosts' clocks may be (they are NTP-synchronised). */
#define CCB_GROUP_MAX_CLOCK_SKEW_S 60.0

/**
 * The parameters members of one group must share: command, members,
 * how the run stops (duration, total or one pass) and the op size. Queue
 * depth, clients and pool may differ: hosts are not alike.
 *
 * @return a new object, or NULL on ENOMEM.
 */
json_t *ccb_group_params(const struct ccb_opts *o, const char *command,
                         const struct ccb_path_ops *ops);

/**
 * Compare a member's parameters with the group's.
 *
 * @return 0 when they agree, or -EINVAL with "--KEY: ... this member ...,
 *         the group ..." in @p why.
 */
int ccb_group_params_check(const json_t *group, const json_t *mine, char *why, size_t why_len);

/** Start skew: the largest minus the smallest of @p n start times (s), in ms; 0 when n < 2. */
double ccb_group_skew_ms(const double *starts_s, size_t n);

/**
 * Bytes a member moved during [@p t0, @p t1) (realtime seconds), from its
 * per-second series: bucket i covers [start + i, start + i + 1), the last
 * one ends at start + seconds; a bucket cut by the window counts pro rata.
 */
double ccb_group_bytes_between(const uint64_t *bytes, size_t n, double start_s, double seconds,
                               double t0, double t1);

/**
 * The group report, from the group's state and the stored results.
 *
 * @param state    {"name", "params", "started" (object or null),
 *                  "members": {ID: registration}, "heartbeats": {ID:
 *                  {at, bytes, ops, seconds}}, "now": realtime seconds}
 * @param results  {ID: {"start_realtime", "end_realtime", "result"}}
 * @return the report object (new reference), or NULL on ENOMEM:
 *         members[] (state "done", "running", "lost", "missing" or
 *         "withdrawn"; a running or lost one's last_heard_realtime_us and
 *         heard {bytes, ops, seconds}; window_bytes,
 *         window_bandwidth_mib_s, start_realtime_us, start_offset_ms, the
 *         member's result), window {start_realtime_us, end_realtime_us,
 *         seconds} in which all reporting members ran, aggregate {members,
 *         bytes, seconds, bandwidth_mib_s, jain_index, series[]},
 *         start_skew_ms, planned_start_realtime_us, missing[], lost[],
 *         running[], status "complete" | "incomplete" | "running" (a
 *         member still beats, no result yet) | "waiting"; and malformed[]
 *         {member (when a member's), reason}: records that do not hold
 *         what ccbench writes (an instant outside 1970..2100, seconds
 *         beyond the samples, wrong types, too many ids), left out of the
 *         aggregate, their members in state "malformed".
 */
json_t *ccb_group_aggregate(const json_t *state, const json_t *results);

/**
 * The members' per-OSD figures of group report @p report merged into its
 * aggregate's "attribution" (src/group/group_osd.c): counts and histograms
 * added, percentiles from the sums. Members whose figures did not check
 * are named in its "not_merged". Nothing when no member has any.
 */
void ccb_group_osd_aggregate(json_t *report);

/** True when @p v is a real-time instant (seconds) between 1970 and 2100. */
bool ccb_group_valid_instant(const json_t *v);

/** Realtime seconds as integer microseconds: a real would be cut to whole
 * seconds by a 10-digit precision. New reference. */
json_t *ccb_group_json_us(double s);

/** The ids of registrations @p regs ({ID: record}) in registration order
 * (registered_at, then id). @return a new array, or NULL on ENOMEM. */
json_t *ccb_group_ids_in_order(const json_t *regs);

/**
 * The member ids to report: a started group's claim @p started (checked:
 * strings that are member ids, none twice, at most CCB_GROUP_MAX_MEMBERS),
 * else the registrations @p regs in order. What is left out is noted in
 * @p malformed as {member?, reason}.
 *
 * @return a new array, or NULL on ENOMEM.
 */
json_t *ccb_group_claim_ids(const json_t *started, const json_t *regs, json_t *malformed);

#endif
