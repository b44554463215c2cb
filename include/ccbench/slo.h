/**
 * @file slo.h
 * A latency target (--slo p99<=10ms,p50<=2ms): a few percentiles of the
 * response time, each with its limit. The capacity search (capacity.h)
 * holds each step's response time against it; explain names the term
 * that set the capacity. Parsed in the base, so that a bad target is
 * refused with the other options, before the cluster is touched.
 */
#ifndef CCBENCH_SLO_H
#define CCBENCH_SLO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/** Terms of one target at most: one per percentile a result reports. */
#define CCB_SLO_MAX_TERMS 4

/** One term: the percentile @c q of the response time at most @c limit_usec. */
struct ccb_slo_term {
	const char *key;     /**< the result's key: "p50", "p90", "p99", "p99_9" */
	const char *name;    /**< as written: "p99.9" */
	double q;            /**< 50, 90, 99, 99.9 */
	uint64_t limit_usec; /**< above 0 */
};

struct ccb_slo {
	struct ccb_slo_term terms[CCB_SLO_MAX_TERMS];
	unsigned n;
};

/**
 * Parse @p text: terms "pQ<=DUR" joined by commas, Q one of 50, 90, 99,
 * 99.9, DUR a duration above 0 with its unit (10ms, 500us, 2s), each
 * percentile once.
 *
 * @return 0, or -EINVAL with "--slo 'TEXT': why" in @p err.
 */
int ccb_slo_parse(const char *text, struct ccb_slo *slo, char *err, size_t err_len);

/**
 * Whether the latency object @p lat_us (a result's percentiles in
 * microseconds: {"p50": ..., "p99": ...}) meets every term. When one does
 * not, the first such term's index goes to *@p broken (may be NULL) and
 * "p99 12.3 ms > 10 ms" to @p why (may be NULL). A missing percentile
 * does not meet its term.
 */
bool ccb_slo_met(const struct ccb_slo *slo, const json_t *lat_us, unsigned *broken, char *why,
                 size_t why_len);

/**
 * The samples a percentile @p q needs to rest on more than the largest
 * one or two: 2 / (1 - q/100), 200 for p99, 2000 for p99.9.
 */
uint64_t ccb_slo_samples_needed(double q);

/** The target as JSON: {"text": ..., "terms": [{"percentile", "key", "limit_us"}]}. */
json_t *ccb_slo_json(const struct ccb_slo *slo, const char *text);

#endif
