/**
 * @file result.h
 * The one result model, the same for every path: built once from a
 * finished run as a jansson object. Text, CSV and SVG render from it, so
 * they can never disagree with the JSON. Fields are documented in docs/results.md.
 */
#ifndef CCBENCH_RESULT_H
#define CCBENCH_RESULT_H

#include <jansson.h>

#include <ccbench/engine.h>
#include <ccbench/hist.h>

#define CCB_RESULT_SCHEMA 1

/**
 * Build the result of @p run (after ccb_run_execute()).
 * @p cmd_mask selects the parameters recorded. Key material in the
 * command line, the settings and what the path adds is redacted
 * (ccb_redact_json()). Returns a new reference, or NULL on ENOMEM.
 */
json_t *ccb_result_build(const struct ccb_run *run, uint64_t cmd_mask, int argc, char **argv);

/** Latency object {n,min,mean,stddev,p50,p90,p99,p99_9,max} in microseconds. */
json_t *ccb_result_latency(const struct ccb_hist *h);

/** "write", "seq", "rand", "randwrite", "rw". */
const char *ccb_mode_name(enum ccb_mode mode);

/**
 * Whether a saved run stopped at steady state: reached it, and did not
 * read on to its own end (steady_state.read_to_end, when that end was
 * under a window away).
 */
bool ccb_result_stopped_steady(const json_t *run);

/**
 * The level a saved run measured, as sweeps aggregate it: the mean of the
 * steady-state window that held (a run that stopped at steady state:
 * ccb_result_stopped_steady()), else the whole run's figure. @p what: "bandwidth_mib_s" or "iops".
 * The whole run's figure stays the result's own ("bandwidth_mib_s" is
 * bytes / seconds, ramp included), so every result reads the same.
 */
double ccb_result_level(const json_t *run, const char *what);

/** "ok", "aborted" or "interrupted", from how the run stopped. */
const char *ccb_result_status(const struct ccb_run *run);

#endif
