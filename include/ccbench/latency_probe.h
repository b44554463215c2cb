/**
 * @file latency_probe.h
 * What latency a client sees, measured the same way whichever side it was
 * injected on (none, the client's --sim-osd-latency, the OSDs'
 * --osd-latency): reads at queue depth 1 of an object that does not exist,
 * each a round trip to its primary OSD; nothing is written. A sweep
 * probes before its first point, once for each latency its points use;
 * a run with --osd-latency probes before it starts.
 */
#ifndef CCBENCH_LATENCY_PROBE_H
#define CCBENCH_LATENCY_PROBE_H

#include <stdint.h>

#include <jansson.h>

#include <ccbench/options.h>

/** Reads of a probe: at least this many, for at least PROBE_USEC, at most PROBE_MAX_OPS. */
#define CCB_PROBE_MIN_OPS 10
#define CCB_PROBE_MAX_OPS 200
#define CCB_PROBE_USEC    1000000ull
/** ... and never longer than this, whatever the latency. */
#define CCB_PROBE_MAX_USEC 10000000ull

/**
 * Probe with the connection options of @p o, in --pool (default rbd) and
 * --namespace, adding @p client_usec of client-side latency to the
 * probe's own connection (0: none). Bounded: connect by
 * --connect-timeout, each read by --op-timeout, the whole by
 * CCB_PROBE_MAX_USEC; stops at a signal.
 *
 * @return {op, ops, min_us, mean_us, p50_us, max_us, client_us,
 *         osd_us, pool}, or {error, client_us, osd_us} naming the call
 *         that failed. New reference (NULL only on ENOMEM).
 */
json_t *ccb_latency_probe(const struct ccb_opts *o, uint64_t client_usec);

#endif
