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
json_t *ccb_result_build(const struct ccb_run *run, unsigned cmd_mask, int argc, char **argv);

/** What replaces the value of a setting that carries key material. */
#define CCB_REDACTED "<redacted>"

/**
 * @p text with key material replaced by CCB_REDACTED, everything else
 * unchanged:
 * - the VALUE of NAME=VALUE anywhere (at the start, after a blank, comma,
 *   quote or '=': "--set=key=X", "-okey=X", "... -o secret=X,noudev")
 *   whose NAME is key material: key, secret, keyring, password, token, or
 *   ending in _key, -secret, .token ...; but not --keyring=PATH, a file;
 * - the word after --key, --secret, --token, --password ("rbd --key X");
 * - a ceph key itself (AQ..., 40 base64 characters ending "=="), wherever
 *   it stands ("key = AQ...==" of a keyring).
 * A VALUE ends at a comma, blank or quote; a quoted VALUE at its closing
 * quote; in text without a blank or quote before it (an argv item such as
 * "password=two words"), at the next comma only.
 *
 * @return a new string (free()), or NULL on ENOMEM.
 */
char *ccb_redact_text(const char *text);

/** ccb_redact_text() over every string of @p doc, in place. @return 0 or -ENOMEM. */
int ccb_redact_json(json_t *doc);

/**
 * @p argv as a JSON array of ccb_redact_text() strings, the word after
 * --key, --secret, --token or --password replaced whole (new reference),
 * or NULL on ENOMEM.
 */
json_t *ccb_redact_argv(int argc, char *const *argv);

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
