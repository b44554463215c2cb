/**
 * @file cluster_state.h
 * What the cluster said about itself at the start and end of a run, and
 * how this host reaches it, for the result's explain list: read-only mon
 * commands (status, osd dump, mon dump) on a connection the run already
 * has, bounded by its rados_mon_op_timeout (--connect-timeout), and the
 * local routing table and /sys/class/net. Nothing is ever changed.
 */
#ifndef CCBENCH_CLUSTER_STATE_H
#define CCBENCH_CLUSTER_STATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include <rados/librados.h>

/**
 * The cluster's state now: {health, checks{NAME: message}, osds, osds_up,
 * osds_down["osd.N"], full, nearfull, pgs, pgs_degraded, pgs_recovering,
 * pgs_backfilling, pgs_scrubbing, pgs_inactive, mon_addrs[], osd_addrs[]}
 * from `status`, `osd dump` and `mon dump`; {error} when the mon did not
 * answer. The engine adds "osd_scheduler" to the start's snapshot
 * (cluster_sched.h). New reference (NULL only on ENOMEM).
 */
json_t *ccb_cluster_state(rados_t r);

/**
 * Digest of the mon replies (the parsing part of ccb_cluster_state(), for
 * tests): @p status, @p osd_dump, @p mon_dump (may be NULL).
 */
json_t *ccb_cluster_state_parse(const json_t *status, const json_t *osd_dump,
                                const json_t *mon_dump);

/**
 * Whether health check @p check (a name as `status` lists it) says the
 * cluster is @p kind: "full" (writes stop: OSD_FULL, POOL_FULL ...) or
 * "nearfull" (OSD_NEARFULL, POOL_NEARFULL, POOL_NEAR_FULL ...).
 */
bool ccb_cluster_state_check_is(const char *check, const char *kind);

/**
 * How this host reaches each address of @p state (its mon_addrs and
 * osd_addrs): [{addr, role, interface, loopback, speed_mbps}], the
 * interface the kernel routes to it (a UDP socket's connect, which sends
 * nothing), loopback for 127.0.0.0/8, ::1 or an address of this host,
 * the link speed from /sys/class/net/IF/speed where the link reports one.
 * New reference; an empty array when nothing could be resolved.
 */
json_t *ccb_cluster_network(const json_t *state);

#endif
