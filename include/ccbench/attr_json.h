/**
 * @file attr_json.h
 * A result's "attribution" as data: its per-OSD entries built from the
 * merged arrays, merged across results (a group's members: counts added,
 * histograms added, the percentiles read from the sum, never averaged),
 * and read back into one summary that explain, the views, compare and
 * the capacity search share (the worst OSD, the median one, the spread).
 * Every reader checks what it reads: a saved result is anyone's file.
 */
#ifndef CCBENCH_ATTR_JSON_H
#define CCBENCH_ATTR_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/attribution.h>
#include <ccbench/hist.h>

/**
 * The entry of OSD @p osd in array @p osds ({"osd": N, ...}), appended
 * when there is none. A borrowed reference (NULL on ENOMEM).
 */
json_t *ccb_attr_osd_entry(json_t *osds, int osd);

/**
 * Set entry @p e's client-side figures: ops, bytes, share of @p total_ops,
 * latency_us {n, mean, max, and p50, p90, p99 when @p h is given} and the
 * sparse histogram "hist" (hist_json.h) when @p h holds samples.
 */
void ccb_attr_client_json(json_t *e, const struct ccb_attr_stat *st, const struct ccb_hist *h,
                          uint64_t total_ops);

/** Sort @p osds by OSD id. */
void ccb_attr_sort_osds(json_t *osds);

/**
 * Add the per-OSD client figures of attribution @p src into @p dst (both
 * result "attribution" objects): ops, bytes, latency sums and maxima, and
 * histograms by addition, then the percentiles and shares read again from
 * the sums. OSD-side figures (perf, slow ops) describe one cluster over
 * about the same window for every member: @p dst keeps its own, or takes
 * @p src's where it has none. An entry whose histogram does not check
 * (ccb_hist_from_json()) is counted without it, and @p why says so.
 * @return 0, -EINVAL (@p src is not an attribution; @p why), -ENOMEM.
 */
int ccb_attr_merge(json_t *dst, const json_t *src, char *why, size_t why_len);

/** What one result's attribution says, read once for every reader. */
struct ccb_attr_sum {
	bool per_op;     /**< client-side figures exist */
	size_t n_osds;   /**< OSDs with client-side ops */
	size_t n_enough; /**< ... with at least CCB_ATTR_MIN_OPS ops and a histogram */
	uint64_t ops;    /**< the client's ops counted */
	int worst;       /**< OSD with the highest p99 among those with enough ops (-1) */
	double worst_p99_us, worst_mean_us, worst_share;
	uint64_t worst_ops;
	double others_p99_us;  /**< the median p99 of the others with enough ops */
	double others_mean_us; /**< their ops-weighted mean latency */
	int high_few;          /**< an OSD whose p99 stands out from too few ops (-1) */
	double high_few_p99_us;
	uint64_t high_few_ops;
	double median_p99_us; /**< the median OSD's p99 (all with a histogram) */
	/* The OSD with the highest p50 among those with enough ops (-1), and
	 * the others' median p50 and ops-weighted mean beside it. */
	int slow;
	double slow_p50_us, slow_p99_us, slow_mean_us, slow_share;
	uint64_t slow_ops;
	double slow_others_p50_us, slow_others_p99_us, slow_others_mean_us;
};

/** Fewer ops than this on an OSD: its p99 is not compared (docs/explain.md). */
#define CCB_ATTR_MIN_OPS 100

/**
 * Read @p attribution (a result's) into @p s. @return true when it holds
 * per-OSD client figures to read.
 */
bool ccb_attr_summarize(const json_t *attribution, struct ccb_attr_sum *s);

/**
 * The p99 (microseconds) of OSD @p osd's ops in @p attribution, or -1 when
 * it has no such figure (no entry, no histogram, no ops).
 */
double ccb_attr_osd_p99(const json_t *attribution, int osd);

#endif
