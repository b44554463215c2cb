/**
 * @file report_pools.h
 * The text view of a result's "pools" and "space" (run_pools.h): a line
 * per pool (its type, EC profile and settings) and the data pool's space.
 */
#ifndef CCBENCH_REPORT_POOLS_H
#define CCBENCH_REPORT_POOLS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/** Print result @p r's pool lines and space line to @p out (nothing when it has none). */
void ccb_report_pools_text(const json_t *r, FILE *out);

/**
 * A short word for a pool @p d of a result's "pools": "replicated x3",
 * "EC 2+1", "EC 2+1 FastEC", into @p buf; "" when @p d is not a pool.
 */
const char *ccb_report_pool_kind(const json_t *d, char *buf, size_t len);

#endif
