/**
 * @file cluster_sched.h
 * The OSD op scheduler a run met: osd_op_queue, and for mClock its
 * profile and the client class's reservation, weight and limit as the
 * OSD applies them (a built-in profile sets them in the OSD at start, so
 * only the OSD itself knows them: `ceph tell osd.N config show`). Read
 * once, read-only, from the lowest-numbered OSD that is up.
 *
 * The QoS units changed between releases: Pacific 16 takes the
 * reservation and limit in IOPS per op shard (options of type uint),
 * Reef 18 and later as a share of the OSD's IOPS capacity (type float,
 * 0 for "none"). The record keeps the values as the OSD gave them and
 * says which unit they are in, and derives both in IOPS per OSD.
 */
#ifndef CCBENCH_CLUSTER_SCHED_H
#define CCBENCH_CLUSTER_SCHED_H

#include <jansson.h>

#include <rados/librados.h>

/** Pacific's "no limit": the uint options' largest value (default_max). */
#define CCB_SCHED_PACIFIC_MAX 999999.0

/**
 * The scheduler record of OSD @p osd from its running configuration
 * @p config (the reply of `config show`: option name -> string) and its
 * metadata @p metadata (`osd metadata N`, may be NULL):
 *
 *     {osd, ceph_version, rotational, osd_op_queue,
 *      mclock: {profile, qos_unit ("iops_per_shard" | "capacity_share"),
 *               client: {res, wgt, lim} as the OSD has them,
 *               capacity_iops, capacity_option, shards,
 *               client_reservation_iops, client_limit_iops (per OSD;
 *               the limit absent when there is none)}}
 *
 * "mclock" only when osd_op_queue is mclock_scheduler. New reference;
 * NULL on ENOMEM.
 */
json_t *ccb_cluster_sched_parse(int osd, const json_t *config, const json_t *metadata);

/**
 * The scheduler record of the first OSD up on @p r: `osd dump` and
 * `osd metadata` (mon, --connect-timeout) and `config show` (the OSD,
 * --op-timeout). {"error"} names the call when one failed. New reference.
 */
json_t *ccb_cluster_sched(rados_t r);

#endif
