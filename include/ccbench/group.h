/**
 * @file group.h
 * Multi-host runs coordinated through RADOS itself: no daemon, no ssh.
 *
 * A group NAME is one object in the group pool, namespace
 * CCB_GROUP_NAMESPACE, whose omap holds:
 *   - "params":          the parameters every member must share (the first
 *                        member's, see ccb_group_params());
 *   - "member.<ID>":     one registration per member {host, pid, command,
 *                        params, registered_at, state, start_realtime...};
 *   - "started":         the start claim {start_realtime, members[], by},
 *                        written once, by whoever saw the N-th member.
 * Beside it, "<NAME>.result.<ID>" holds each member's full result (results
 * outgrow what omap values are meant for). A group with no member left
 * and no start is removed altogether: the empty group is no object.
 *
 * Every change is one atomic RADOS write op guarded by omap comparisons
 * (or the object version), so members racing to register, claim the
 * start, or withdraw cannot lose each other's updates.
 */
#ifndef CCBENCH_GROUP_H
#define CCBENCH_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/cli.h>
#include <ccbench/options.h>
#include <ccbench/point.h>

/** The most members a group can have (--members). */
#define CCB_GROUP_MAX_MEMBERS 1024

/** RADOS namespace of the group objects, in --group-pool. */
#define CCB_GROUP_NAMESPACE "ccbench-groups"

/**
 * Run @p pt as a member of --group: register, wait for the other
 * members, start at the common instant, store the result in the cluster.
 * Refused (nothing run) when the group's parameters differ, it is full or
 * it already ran; gives up when the group is not complete within
 * --group-timeout, withdrawing its registration.
 *
 * @param result  the member's own result with a "group" object added
 *                (new reference), or NULL when nothing was measured
 * @return the exit status: 0 ok, 1 failed or timed out, 2 refused or bad
 *         input, 128+N after signal N.
 */
int ccb_group_run(const struct ccb_point *pt, json_t **result);

/**
 * `ccbench group report NAME`, `group rm NAME`, `group ls`.
 *
 * @return the exit status: 0 ok, 1 failure or (report) an incomplete
 *         group, 2 bad input (no such group or pool).
 */
int ccb_group_command(const struct ccb_cli *cli);

/*
 * Pure parts, unit-tested without a cluster.
 */

/**
 * The parameters members of one group must share: command, members,
 * how the run stops (duration, total or one pass) and the op size. Queue
 * depth, clients and pool may differ: hosts are not alike.
 *
 * @return a new object, or NULL on ENOMEM.
 */
json_t *ccb_group_params(const struct ccb_opts *o, const char *command, unsigned cmd_mask);

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
 *                  "members": {ID: registration}}
 * @param results  {ID: {"start_realtime", "end_realtime", "result"}}
 * @return the report object (new reference), or NULL on ENOMEM:
 *         members[] (state "done", "missing" or "withdrawn", window_bytes,
 *         window_bandwidth_mib_s, start_realtime_us, start_offset_ms, the
 *         member's result), window {start_realtime_us, end_realtime_us,
 *         seconds} in which all reporting members ran, aggregate {members,
 *         bytes, seconds, bandwidth_mib_s, jain_index, series[]},
 *         start_skew_ms, planned_start_realtime_us, missing[], status
 *         "complete" | "incomplete" | "waiting"; and malformed[]
 *         {member (when a member's), reason}: records that do not hold
 *         what ccbench writes (an instant outside 1970..2100, seconds
 *         beyond the samples, wrong types, too many ids), left out of the
 *         aggregate, their members in state "malformed".
 */
json_t *ccb_group_aggregate(const json_t *state, const json_t *results);

#endif
