/**
 * @file steady.h
 * Steady-state stops (--until-steady [METRIC:]TOL[/WINDOW]), after fio's
 * steadystate (ss=bw:2%, ss_dur, ss_ramp): a run ends once its per-second
 * bandwidth, IOPS or mean latency has held within TOL of its mean for
 * WINDOW, after a ramp. The detector is fed cumulative counters by the
 * engine's supervisor (it never sees a path) and keeps its own samples,
 * one per second, in a ring allocated once.
 *
 * Criteria, per window of W one-second samples with mean m:
 *  - deviation (bw, iops, lat): every sample within TOL x m of m;
 *  - slope (bw_slope, iops_slope, lat_slope): the least-squares line
 *    through the samples rises or falls less than TOL x m across the
 *    window: a level, not a trend, however noisy the seconds are.
 */
#ifndef CCBENCH_STEADY_H
#define CCBENCH_STEADY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/steady_spec.h>

/**
 * The automatic ramp of a path that fills or grows something first: the
 * largest of @p n named sizes (@p what[i] of @p bytes[i] bytes; 0 where
 * not in play) times CCB_STEADY_RAMP_WINDOWS, with @p basis saying so
 * ("2 x readahead 128M"). @return the bytes, 0 when every size is 0.
 */
uint64_t ccb_steady_ramp_of(const char *const *what, const uint64_t *bytes, size_t n, char *basis,
                            size_t len);

/** One sample: the rates over one interval of about a second. */
struct ccb_steady_sample {
	double t_s; /**< end of the interval, seconds since the start */
	double bw_mib_s, iops, lat_us;
};

/** The figures of one window of samples (of the spec's metric unless named). */
struct ccb_steady_band {
	double from_s, to_s;
	double mean, min, max;
	double max_deviation_pct;      /**< largest |sample - mean| / mean */
	double trend_pct;              /**< the fitted line's change across the window / mean */
	double bw_mib_s, iops, lat_us; /**< each metric's mean over the window */
	size_t samples;
};

/** The detector. Fed by one thread (the engine's supervisor). */
struct ccb_steady {
	struct ccb_steady_spec spec;
	uint64_t ramp_nsec;   /**< the ramp lasts at least this long ... */
	uint64_t ramp_bytes;  /**< ... and until this many bytes were moved */
	bool ramp_auto;       /**< derived, not --steady-ramp */
	char ramp_basis[128]; /**< why ramp_bytes: "2 x readahead 128M" */

	/* State. */
	uint64_t next_nsec; /**< next sample at or after this time since start */
	uint64_t last_nsec, last_bytes, last_ops, last_lat_nsec;
	uint64_t bytes; /**< bytes at the last sample */
	bool ramp_over;
	double ramp_over_s;
	struct ccb_steady_sample *ring;
	struct ccb_steady_sample *scratch; /**< the ring in time order (window_n) */
	size_t window_n;                   /**< samples in a window */
	size_t n, head;                    /**< samples in the ring, index of the oldest */
	size_t samples_after_ramp;
	bool have_band; /**< band holds the latest full window */
	struct ccb_steady_band band;
	double *held; /**< the metric's samples of the window that held (window_n) */
	bool attained;
	double attained_s;
	/** Set by the engine: steady state came with the run's own end less
	 * than a window away, so the run read on to it and its whole figure
	 * counts (the level a full-length run would report), not the window's. */
	bool read_to_end;
	double read_to_end_left_s; /**< that end was this far away, at the window's rate */
};

/**
 * Set up @p d for @p spec: the ramp ends once @p ramp_nsec have passed
 * and @p ramp_bytes were moved (@p basis says why those bytes, may be
 * NULL). @return 0 or -ENOMEM.
 */
int ccb_steady_init(struct ccb_steady *d, const struct ccb_steady_spec *spec, uint64_t ramp_nsec,
                    uint64_t ramp_bytes, bool ramp_auto, const char *basis);

void ccb_steady_free(struct ccb_steady *d);

/**
 * Feed the run's cumulative counters at @p now_nsec since its start (call
 * as often as convenient; a sample is taken once a second has passed).
 *
 * @return true once steady state is reached (and from then on).
 */
bool ccb_steady_feed(struct ccb_steady *d, uint64_t now_nsec, uint64_t bytes, uint64_t ops,
                     uint64_t lat_sum_nsec);

/**
 * Whether @p band meets @p spec's criterion (mean above 0, every sample
 * within TOL, or the trend within TOL). Pure: for tests and replays.
 */
bool ccb_steady_band_holds(const struct ccb_steady_spec *spec, const struct ccb_steady_band *band);

/**
 * The figures of @p n samples of metric @p m (@p s in time order) into
 * @p band.
 */
void ccb_steady_band_of(const struct ccb_steady_sample *s, size_t n, enum ccb_steady_metric m,
                        struct ccb_steady_band *band);

/**
 * The result's "steady_state" object: the spec, the ramp, whether and
 * when steady state was reached and the window that held (or the last
 * one, and why it was not reached: @p end_reason is the run's reason,
 * @p run_bytes what it moved in all, which the last sample may not have
 * seen). New reference, NULL on ENOMEM.
 */
json_t *ccb_steady_json(const struct ccb_steady *d, const char *end_reason, uint64_t run_bytes);

#endif
