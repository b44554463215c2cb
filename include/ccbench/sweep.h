/**
 * @file sweep.h
 * Parameter grids from a JSON config, run point by point through the one
 * point runner (aggregated in sweep_aggregate.h). The views of a saved
 * sweep (table, CSV, SVG) are the report wing's (sweep_report.h); report,
 * explain and compare, which read it back, have headers of their own
 * (report_cmd.h, explain_cmd.h, compare_cmd.h).
 *
 * Config (documented in docs/sweeps.md):
 *   { "name": "...", "description": "...",
 *     "command": "rbd read",               any workload command
 *     "params": { "io-size": "64K", ... }, fixed options, as on the CLI
 *     "matrix": { "readahead": ["128K", "1M"], "path": ["librbd", "krbd"] },
 *     "path_params": { "librbd": { "sim-osd-latency": "2ms" } },
 *     "repeat": 3, "repeat_until": "5%", "tradeoff": false, "tradeoff_runs": 1 }
 * "tradeoff": true measures the 4K random-read cost of each readahead
 * point after each run; "tradeoff_runs": N after its first N runs only.
 * "path" switches rbd <-> krbd for the same image; "readahead" means
 * --readahead for librbd and --read-ahead-kb for krbd; path_params apply
 * only to the points that run through that path. "repeat_until" stops
 * repeating a point once the 95 % confidence interval of its mean
 * bandwidth is within that share of it (at least 2 runs, at most
 * "repeat"). The command line's --param KEY=VALUE, --repeat N and
 * --repeat-until PCT override the config (see apply_overrides in
 * sweep_config.c). A point is built by sweep_point.h; sweep.c runs them.
 */
#ifndef CCBENCH_SWEEP_H
#define CCBENCH_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include <ccbench/cli.h>
#include <ccbench/command.h>
#include <ccbench/sweep_report.h>

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
 * A loaded config's "repeat_until" in hundredths of a percent (0: off,
 * every point "repeat" times; also when "repeat" is at most
 * CCB_SWEEP_MIN_RUNS, where nothing could stop early). The config must
 * have passed ccb_sweep_load(), which checked the value.
 */
uint64_t ccb_sweep_repeat_until(const json_t *config);

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

/**
 * The options of the whole sweep: @p sweep_opts (the command line) plus
 * the options flagged CCB_OPTF_SWEEP_WIDE (--osd-latency) that the
 * config's "params" give and the command line does not, checked as the
 * command line's are. Strings made for them go into @p strings.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_sweep_wide_opts(const json_t *cfg, const struct ccb_opts *sweep_opts, struct ccb_opts *wide,
                        json_t *strings, char *err, size_t err_len);

/** The sweep command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_sweep_commands[];

#endif
