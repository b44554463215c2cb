/**
 * @file sweep.h
 * Parameter grids from a JSON config, run point by point through the one
 * point runner, aggregated across repeats; and the views of a saved sweep
 * (table, CSV, SVG) and the baseline comparison that CI gates on.
 *
 * Config (documented in README):
 *   { "name": "...", "description": "...",
 *     "command": "rbd read",               any workload command
 *     "params": { "io-size": "64K", ... }, fixed options, as on the CLI
 *     "matrix": { "readahead": ["128K", "1M"], "path": ["librbd", "krbd"] },
 *     "path_params": { "librbd": { "sim-osd-latency": "2ms" } },
 *     "repeat": 3, "tradeoff": false }
 * "path" switches rbd <-> krbd for the same image; "readahead" means
 * --readahead for librbd and --read-ahead-kb for krbd; path_params apply
 * only to the points that run through that path. The command line's
 * --param KEY=VALUE and --repeat N override the config (see apply_overrides
 * in sweep_config.c). A point is built by sweep_point.h; sweep.c runs them.
 */
#ifndef CCBENCH_SWEEP_H
#define CCBENCH_SWEEP_H

#include <stdio.h>

#include <jansson.h>

#include <ccbench/cli.h>

/**
 * `ccbench sweep CONFIG`: load and check the config (exit 2 on any
 * error, with line and column or the key), run every point, write the
 * outputs.
 *
 * @return the exit status: 0, 1 (a point failed), 2 (bad config), 128+N.
 */
int ccb_sweep_command(const struct ccb_cli *cli, int argc, char **argv);

/**
 * Load and check a sweep config without running it.
 *
 * @param sweep_opts options from the command line that apply to every point,
 *        and its --param / --repeat overrides
 * @param out_config receives the config with the overrides applied
 * @param out_points receives the array of points ({command, params, matrix,
 *        estimate}); estimate: per run {bytes, seconds, bound, ...}, null
 *        where the options cannot say
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_sweep_load(const char *path, const struct ccb_opts *sweep_opts, json_t **out_config,
                   json_t **out_points, char *err, size_t err_len);

/**
 * `ccbench sweep CONFIG --dry-run`: print the grid of a loaded config (one
 * line per point), the number of runs and the estimated bytes and time
 * (text, or JSON with -f json) on @p out. Contacts nothing.
 *
 * @param points as ccb_sweep_load() returns them, each with its "estimate"
 * @return 0, or 1 when @p out cannot be written.
 */
int ccb_sweep_dry_run(const char *path, const json_t *config, const json_t *points,
                      const struct ccb_opts *o, FILE *out);

/** `ccbench report RESULTS.json`: re-render a saved sweep or run result. */
int ccb_report_command(const struct ccb_cli *cli);

/**
 * `ccbench explain RESULT.json`: the explain list of a saved run, or of
 * each run of each point of a sweep, re-derived from the figures (text:
 * why lines; -f json: the lists). 0, or 2 when the file is not a result.
 */
int ccb_explain_command(const struct ccb_cli *cli);

/**
 * `ccbench compare BASELINE CURRENT`: 0 no regression, 1 a regression or
 * a failed point (a run whose status is not "ok"), 2 mismatch or bad input
 * (a --tolerance that is not a finite percentage from 0 to 1000).
 */
int ccb_compare_command(const struct ccb_cli *cli);

/**
 * Parse --tolerance: "10%" or "10", finite, 0 to 1000 (NaN and inf are
 * refused). @return 0 with the percentage in @p pct, or -EINVAL.
 */
int ccb_compare_parse_tolerance(const char *text, double *pct);

/** Text table of a sweep document, shaped like seed 002's. */
void ccb_sweep_render_text(const json_t *doc, FILE *out);

/**
 * The aggregate figure @p what / @p stat ("bandwidth_mib_s", "mean") of
 * sweep point @p pt; 0 when missing.
 */
double ccb_sweep_agg(const json_t *pt, const char *what, const char *stat);

/** One CSV row per point. @return 0 or -EIO. */
int ccb_sweep_render_csv(const json_t *doc, FILE *out);

/** Self-contained SVG chart of a sweep document. @return 0 or -EIO. */
int ccb_sweep_render_svg(const json_t *doc, FILE *out);

#endif
