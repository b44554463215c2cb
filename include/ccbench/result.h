/**
 * @file result.h
 * The one result model, the same for every path: built once from a
 * finished run as a jansson object. Text, CSV and SVG render from it, so
 * they can never disagree with the JSON. Fields are documented in README.
 */
#ifndef CCBENCH_RESULT_H
#define CCBENCH_RESULT_H

#include <jansson.h>

#include <ccbench/engine.h>
#include <ccbench/hist.h>

#define CCB_RESULT_SCHEMA 1

/**
 * Build the result of @p run (after ccb_run_execute()).
 * @p cmd_mask selects the parameters recorded. Returns a new reference, or NULL on ENOMEM.
 */
json_t *ccb_result_build(const struct ccb_run *run, unsigned cmd_mask, int argc, char **argv);

/** Latency object {n,min,mean,stddev,p50,p90,p99,p99_9,max} in microseconds. */
json_t *ccb_result_latency(const struct ccb_hist *h);

/** "write", "seq", "rand", "randwrite", "rw". */
const char *ccb_mode_name(enum ccb_mode mode);

/** "ok", "aborted" or "interrupted", from how the run stopped. */
const char *ccb_result_status(const struct ccb_run *run);

#endif
