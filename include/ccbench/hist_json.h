/**
 * @file hist_json.h
 * A latency histogram as a record (JSON), sparse: only the buckets that
 * hold samples, so that histograms of many hosts can be stored, read back
 * and merged into the exact histogram of all their samples.
 *
 * {"sub_bits": 6, "count": N, "min_ns", "max_ns", "sum_ns", "sumsq_ns",
 *  "buckets": [index, count, index, count, ...]} with indices increasing.
 */
#ifndef CCBENCH_HIST_JSON_H
#define CCBENCH_HIST_JSON_H

#include <stddef.h>

#include <jansson.h>

#include <ccbench/hist.h>

/** The record of @p h. @return a new object, or NULL on ENOMEM. */
json_t *ccb_hist_to_json(const struct ccb_hist *h);

/**
 * Read a record back into @p h, checking it first: it may come from
 * another host or anyone who can write the pool. The bucket layout must be
 * this build's (sub_bits), indices increasing and below CCB_HIST_BUCKETS,
 * every count positive and their sum the record's count (at most 2^53),
 * min and max inside the first and last bucket, the sums finite.
 *
 * @return 0, or -EINVAL with the reason in @p why (@p h is then empty).
 */
int ccb_hist_from_json(const json_t *j, struct ccb_hist *h, char *why, size_t why_len);

#endif
