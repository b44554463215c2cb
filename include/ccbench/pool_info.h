/**
 * @file pool_info.h
 * What a run's pools are and what a write cost them in space, from the
 * mon: read-only commands (`osd dump`, `osd erasure-code-profile get`,
 * `osd pool get POOL allow_ec_optimizations`, `df detail`), each bounded
 * by the handle's rados_mon_op_timeout (--connect-timeout). Replies are
 * validated (types, ranges, counts) before use. Nothing is ever changed.
 *
 * A pool's description (result "pools", docs/results.md):
 *     {name, id, type: "replicated"|"erasure"|"other", size, min_size,
 *      pg_num, application: ["rbd"],
 *      erasure: {profile, k, m, plugin, technique, crush_failure_domain,
 *                stripe_unit, stripe_width, allow_ec_overwrites,
 *                allow_ec_optimizations: true|false|"not on this release"}}
 * ("erasure" only for an erasure-coded pool).
 */
#ifndef CCBENCH_POOL_INFO_H
#define CCBENCH_POOL_INFO_H

#include <jansson.h>
#include <stdint.h>

#include <rados/librados.h>

/** The value "allow_ec_optimizations" takes on a release without FastEC. */
#define CCB_POOL_NO_FASTEC "not on this release"

/**
 * The description of pool @p pool from the mon's `osd dump` reply
 * @p osd_dump, its EC profile reply @p profile (NULL for a replicated
 * pool) and @p ec_opt: 1 or 0 for the pool's allow_ec_optimizations, -1
 * when the release has no such setting. The parsing part of
 * ccb_pool_describe(), for tests.
 * @return a new reference; NULL when @p osd_dump names no such pool, or
 *         on ENOMEM.
 */
json_t *ccb_pool_describe_parse(const json_t *osd_dump, const char *pool, const json_t *profile,
                                int ec_opt);

/**
 * The description of pool @p pool, read from the mon on @p r.
 * @param out  set to a new reference on success.
 * @param err  on failure, why ("no such pool", the command that failed).
 * @return 0; -ENOENT when the pool does not exist; -EBADMSG on a reply
 *         that does not parse; another -errno when a mon command failed
 *         (-ETIMEDOUT past --connect-timeout).
 */
int ccb_pool_describe(rados_t r, const char *pool, json_t **out, char *err, size_t len);

/**
 * The space figures of pool @p pool in the mon's `df detail` reply @p df:
 * {stored, used, stored_raw, objects} (bytes, bytes, bytes, count).
 * @return a new reference; NULL when the reply names no such pool or a
 *         figure is missing or negative.
 */
json_t *ccb_pool_df_parse(const json_t *df, const char *pool);

/**
 * ccb_pool_df_parse() of `df detail` read from the mon on @p r.
 * @return a new reference, or {"error"} naming why the mon did not answer
 *         or the pool is not in its reply.
 */
json_t *ccb_pool_df(rados_t r, const char *pool);

/**
 * What a write run cost pool @p pool in space: {pool, before, after,
 * bytes_written, stored_delta, used_delta, stored_raw_delta,
 * objects_delta, amplification, amplification_of: "used"|"stored_raw",
 * reliable, why}. amplification is used_delta / @p bytes_written; where
 * the OSDs report no per-pool usage (memstore, filestore: USED is then
 * STORED for every pool, whatever its redundancy), it is stored_raw_delta
 * / bytes (the mon's STORED x its raw rate, arithmetic rather than a
 * measure) and @c amplification_of says so. Not reliable (and why says
 * it) when the pool gained more objects than @p max_objects or more
 * bytes than @p max_stored (what the run could have added), or lost
 * some: other clients wrote or removed beside the run.
 * @return a new reference, NULL on ENOMEM or when @p before or @p after
 *         is not a df figure set.
 */
json_t *ccb_pool_space(const char *pool, const json_t *before, const json_t *after,
                       uint64_t bytes_written, uint64_t max_stored, uint64_t max_objects);

#endif
