/**
 * @file sweep_runner.h
 * "Run this point elsewhere": a sweep's points of one path may run through
 * a runner command (config "runners": {"krbd": "CMD"}, or --runner
 * PATH=CMD) instead of in this process. The runner gets the point's
 * ccbench arguments ("krbd read --map rbd/img --read-ahead-kb 128 ... -f
 * json -q") after CMD, runs them where the path is (a qemu guest with the
 * kernel rbd driver: tests/krbd-vm/runner.sh; another host: ssh HOST
 * ccbench), prints the run's -f json result on stdout and exits with its
 * status (0, 1, 2, 128+N). The sweep makes what the point shares (the
 * prefilled image, the OSD-side latency) as for a local point, and records
 * the result as the point's own.
 */
#ifndef CCBENCH_SWEEP_RUNNER_H
#define CCBENCH_SWEEP_RUNNER_H

#include <stdint.h>

#include <jansson.h>

#include "sweep_point.h"

/** A runner may take this long for one run, whatever it says (then TERM, KILL). */
#define CCB_RUNNER_MAX_USEC (3600ull * 1000000)
/** After ccbench is signalled, the runner has this long to end its run. */
#define CCB_RUNNER_GRACE_USEC (90ull * 1000000)
/** The most of a result ccbench reads from a runner. */
#define CCB_RUNNER_MAX_BYTES (64u << 20)

/**
 * The ccbench arguments of point @p b (its command words, then each option
 * it was given that its command takes, in table order, then the target of
 * a shared image @p target when not NULL, then -f json -q). Options that
 * apply to the whole sweep (CCB_OPTF_SWEEP_WIDE) are not the point's.
 *
 * @return a new array of strings, or NULL on ENOMEM.
 */
json_t *ccb_sweep_point_args(const struct ccb_sweep_point *b, const char *target);

/**
 * Run @p args through `sh -c 'CMD "$@"'` in a session of its own, stderr
 * passed through, stdout read as the result. Options whose values carry
 * key material are never on that command line: they go on the runner's
 * stdin, with --secrets-stdin added to the arguments (secret_opts.h); a
 * runner must give its stdin to the ccbench it runs (ssh does). Without
 * such options stdin is /dev/null. A signal to ccbench is passed
 * on as SIGTERM to the runner's process group, which then has
 * CCB_RUNNER_GRACE_USEC to finish (its result is still read), then
 * SIGKILL; so is a run over CCB_RUNNER_MAX_USEC.
 *
 * @param result receives the parsed result object (new reference) when
 *        stdout held one, else NULL (the reason in @p err)
 * @return the runner's exit status (128+N when a signal ended it), or
 *         -errno when it could not be started: -EINVAL when key material
 *         is in @p cmd or in no option's value, -E2BIG when the options
 *         with key material exceed CCB_SECRET_OPTS_SEND_MAX.
 */
int ccb_sweep_runner_exec(const char *cmd, const json_t *args, json_t **result, char *err,
                          size_t err_len);

/**
 * The runner of @p path: --runner PATH=CMD (@p cli_runner, may be NULL)
 * over the config's "runners" (@p runners, may be NULL). NULL: local.
 */
const char *ccb_sweep_runner_of(const char *path, const char *cli_runner, const json_t *runners);

/**
 * Check a config's "runners" and a --runner PATH=CMD: paths by name, a
 * command each, with no key material in it (its command line is anyone's
 * to read). Pure. @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_sweep_runners_check(const json_t *runners, const char *cli_runner, char *err,
                            size_t err_len);

#endif
