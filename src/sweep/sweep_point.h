/**
 * @file sweep_point.h
 * One point of a sweep built from its config (src/sweep_point.c): its
 * command line as the CLI would have parsed it, and the layout of the
 * prefilled image it may share with other read points. Used by the config
 * loader (sweep_config.c) to check every point first, and by the runner
 * (sweep.c) to run them.
 */
#ifndef CCBENCH_SWEEP_POINT_H
#define CCBENCH_SWEEP_POINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/capacity_sweep_report.h>
#include <ccbench/cli.h>

/** The random reads after each readahead point when "tradeoff" is on, per read size:
 *  2 s, some 1000 reads at depth 1 under 2 ms, enough for a p99; seed 002's grid
 *  measures 44 of them. */
#define CCB_SWEEP_TRADEOFF_USEC 2000000ull
/** The most read sizes a "tradeoff" list may name. */
#define CCB_SWEEP_TRADEOFF_MAX 8

struct ccb_sweep_point {
	struct ccb_cli cli; /**< command, mask, mode, path and options of the point */
	json_t *strings;    /**< owns every string the options point at */
	char layout_key[512];
	bool share_image;       /**< read points of an image-making path share a prefilled image */
	bool capacity;          /**< "capacity WORKLOAD": each run is a capacity search */
	struct ccb_opts layout; /**< options that create the shared image */
};

/** A config value as the CLI would spell it; *@p out NULL for false flags. @return 0 or -EINVAL. */
int ccb_sweep_value_string(const json_t *v, char *buf, size_t len, const char **out);

/**
 * Build one point's options: the sweep's own command-line options @p base
 * (the connection, -q), then @p command's defaults, then @p params (the
 * config's fixed parameters and this point's matrix values), checked as
 * the CLI checks them. @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_sweep_build_point(const struct ccb_opts *base, const char *command, const json_t *params,
                          struct ccb_sweep_point *b, char *err, size_t err_len);

void ccb_sweep_point_free(struct ccb_sweep_point *b);

/**
 * What one run of @p b will cost, as far as the options say: bytes (null
 * when bound by time or by what only the cluster knows) and seconds.
 */
json_t *ccb_sweep_estimate_run(const struct ccb_sweep_point *b, size_t n_tradeoff);

/**
 * A config's "tradeoff": false or absent (none), true (4K random reads),
 * or a list of read sizes (["4K", "64K"]: seed 002's author weighed both),
 * each 512 bytes to 1G, at most CCB_SWEEP_TRADEOFF_MAX, none twice.
 *
 * @return 0 with the sizes in @p sizes and their number in *@p n, or
 *         -EINVAL with the reason in @p err.
 */
int ccb_sweep_tradeoff_sizes(const json_t *v, uint64_t sizes[CCB_SWEEP_TRADEOFF_MAX], size_t *n,
                             char *err, size_t err_len);

#endif
