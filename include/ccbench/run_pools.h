/**
 * @file run_pools.h
 * A run's pools in its result: what they are (result "pools": the
 * metadata and data pools as pool_info.h describes them), whether they
 * are what the user asked for (--data-pool-type, --fastec-pool), and what
 * a write run cost the data pool in space (result "space"). Read-only mon
 * commands on a connection the path already holds.
 */
#ifndef CCBENCH_RUN_POOLS_H
#define CCBENCH_RUN_POOLS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include <rados/librados.h>

struct ccb_run;

/**
 * Describe the run's pools into its result: @p metadata_pool (an rbd
 * image's own pool; NULL for rados) and @p data_pool (where the data
 * goes: the rados pool, the image's data pool or its own pool), and
 * refuse what the user's options rule out: a data pool of another type
 * than --data-pool-type, one named by --fastec-pool without FastEC on,
 * an erasure-coded pool holding an image's metadata, and (when
 * @p needs_overwrites, rbd) an erasure-coded data pool without
 * allow_ec_overwrites. Refusals set run->bad_input (exit 2) and are said
 * on stderr as "ccbench: ..." lines; call it before anything is created.
 * @return 0; -ENOENT (no such pool), -EINVAL (a refusal), or the -errno
 *         of a mon command that failed (-ETIMEDOUT).
 */
int ccb_run_pools(struct ccb_run *run, rados_t r, const char *metadata_pool, const char *data_pool,
                  bool needs_overwrites);

/**
 * The data pool's space figures around a write run: at the start (@p start)
 * its `df detail` figures; at the end, once the mon's statistics have
 * caught up (polled each second, at most 8 s), result "space"
 * (pool_info.h ccb_pool_space()). Nothing for a run that does not write,
 * or whose pools were not described. The wait ends early once *@p cancel
 * is set (a signal).
 */
void ccb_run_space(struct ccb_run *run, rados_t r, bool start, const volatile sig_atomic_t *cancel);

#endif
