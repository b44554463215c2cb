/**
 * @file sweep_aggregate.h
 * A sweep's figures across repeats (src/sweep/sweep_aggregate.c): each
 * point's aggregate, whether repeat_until is met, the row axis of its
 * tables and the knee of each series. sweep.c calls them as the runs come
 * in and once the grid is done; the views (sweep_report.c) read what they
 * wrote.
 */
#ifndef CCBENCH_SWEEP_AGGREGATE_H
#define CCBENCH_SWEEP_AGGREGATE_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

/**
 * Set sweep point @p pt's "aggregate" from its "runs": for single runs the
 * mean, stddev, min, max and 95 % interval of bandwidth, IOPS and latency
 * p50 / p99 over the ok runs (a steady run's level is its window's), and
 * of the tradeoff reads; for capacity searches (@p capacity) those of the
 * capacity, the response p99 at 70 % of it and the knee's rate.
 */
void ccb_sweep_aggregate(json_t *pt, bool capacity);

/**
 * repeat_until: whether sweep point @p pt (its "runs" so far) is settled:
 * at least CCB_SWEEP_MIN_RUNS ok runs whose levels (ccb_result_level():
 * a steady window's mean where one held) put the 95 % interval of their
 * mean (Student t) within @p centipct hundredths of a percent of it.
 * Records the verdict in the point's "repeat_until" {settled, runs_ok,
 * ci95_pct}.
 */
bool ccb_sweep_point_settles(json_t *pt, uint64_t centipct);

/**
 * The matrix key a sweep's table has as its rows: a client axis of two or
 * more values (mount-via), else the first of readahead, read-ahead-kb,
 * clients, queue-depth, io-size, op-size, else the first key.
 */
const char *ccb_sweep_row_key(const json_t *matrix);

/**
 * The recommendations of aggregated @p points (new reference): per series
 * (every matrix key but @p row_key), the knee, the smallest row value
 * within 5 % of the series' best bandwidth: {series, value,
 * bandwidth_mib_s, best_mib_s}. On a row axis of names (mount-via kernel,
 * fuse, libcephfs) no value is smaller than another: the best one, with
 * "kind": "best" and "others": [{value, bandwidth_mib_s, vs_best_pct}].
 */
json_t *ccb_sweep_knees(json_t *points, const char *row_key);

#endif /* CCBENCH_SWEEP_AGGREGATE_H */
