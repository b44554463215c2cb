/**
 * @file steady_spec.h
 * The value of --until-steady [METRIC:]TOL[/WINDOW], parsed: an option
 * type of the table (CCB_OPT_STEADY). The detector that runs it is
 * steady.h.
 */
#ifndef CCBENCH_STEADY_SPEC_H
#define CCBENCH_STEADY_SPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What the detector watches. */
enum ccb_steady_metric {
	CCB_STEADY_BW,   /**< MiB/s */
	CCB_STEADY_IOPS, /**< ops/s */
	CCB_STEADY_LAT,  /**< mean latency of the second's ops, µs */
};

/** TOL: 0.1 % to 100 % (hundredths of a percent). */
#define CCB_STEADY_TOL_MIN 10
#define CCB_STEADY_TOL_MAX 10000
/** WINDOW when the spec names none. */
#define CCB_STEADY_WINDOW_DEFAULT_USEC 5000000ull
/** The ramp's minimum time: the first second holds the connections' and
 *  the first ops' warm-up. */
#define CCB_STEADY_RAMP_MIN_USEC 1000000ull
/** How often a sample is taken. */
#define CCB_STEADY_SAMPLE_NSEC 1000000000ull
/** A run with --until-steady and neither --duration nor --total nor a pass
 *  of its own stops after this long at the latest. */
#define CCB_STEADY_MAX_USEC 60000000ull
/** The automatic ramp reads this many of the largest window (readahead,
 *  object, cache) in bytes: a readahead window doubles from small, so it
 *  has grown to its full size after about twice its size was read. */
#define CCB_STEADY_RAMP_WINDOWS 2

/** A parsed --until-steady (struct ccb_opts.until_steady). */
struct ccb_steady_spec {
	bool on;
	enum ccb_steady_metric metric;
	bool slope;            /**< the slope criterion (METRIC_slope) */
	uint64_t tol_centipct; /**< TOL in hundredths of a percent */
	uint64_t window_usec;  /**< WINDOW, whole seconds */
	char text[48];         /**< normalised: "bw:5%/5s" */
};

/**
 * Parse "[METRIC:]TOL[/WINDOW]": METRIC bw (default), iops, lat, or one
 * of them with "_slope"; TOL a percentage from 0.1 % to 100 % ("5%", "5",
 * "2.5%"); WINDOW a duration in whole seconds (default 5s) from
 * @p window_min_usec to @p window_max_usec (the option table's range).
 *
 * @return 0, or -EINVAL with the reason (without the option's name) in @p err.
 */
int ccb_steady_parse(const char *s, uint64_t window_min_usec, uint64_t window_max_usec,
                     struct ccb_steady_spec *out, char *err, size_t err_len);

/** "bandwidth_mib_s", "iops" or "lat_mean_us": the metric as the result names it. */
const char *ccb_steady_metric_name(enum ccb_steady_metric m);

#endif
