/*
 * Every command, bound to its run function by symbol, as git.c lists its
 * builtins: the paths' rows come from the registry (each path's folder
 * holds its own), and the rows of the commands above the paths come from
 * their wings, listed here in the order help shows them. A new command is
 * its row beside its code and one line below; a new path is one row in
 * src/paths/registry.c and none here.
 */
#include <ccbench/capacity.h>
#include <ccbench/cli.h>
#include <ccbench/commands.h>
#include <ccbench/compare_cmd.h>
#include <ccbench/explain_cmd.h>
#include <ccbench/group_cmd.h>
#include <ccbench/group_manifest.h>
#include <ccbench/group_member.h>
#include <ccbench/help.h>
#include <ccbench/html.h>
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/point.h>
#include <ccbench/report.h>
#include <ccbench/report_cmd.h>
#include <ccbench/restore_cmd.h>
#include <ccbench/sweep.h>

/* Every workload's run: one point through its path (or a group member's
 * share of one), then its report. */
static int run_workload(const struct ccb_cli *cli, int argc, char **argv)
{
	struct ccb_point pt = {
	    .command = cli->command,
	    .path = cli->path,
	    .ops = cli->ops,
	    .cmd_mask = cli->cmd_mask,
	    .mode = cli->mode,
	    .opts = &cli->opts,
	    .argc = argc,
	    .argv = argv,
	};
	json_t *result = NULL;
	int status = cli->opts.group ? ccb_group_run(&pt, &result) : ccb_point_run(&pt, &result);

	if (result && ccb_report_emit(result, &cli->opts) < 0 && status == 0)
		status = 1;
	if (result && cli->opts.html_file &&
	    ccb_report_to_file(cli->opts.html_file, "--html", result, ccb_html_render) < 0 &&
	    status == 0)
		status = 1;
	json_decref(result);
	return status;
}

/* The commands above the paths, in the order help lists them (after the paths'). */
static const struct ccb_command *const commands[] = {
    ccb_restore_commands, ccb_sweep_commands,          ccb_capacity_commands,
    ccb_report_commands,  ccb_explain_commands,        ccb_compare_commands,
    ccb_group_commands,   ccb_group_manifest_commands, ccb_help_commands,
};

int ccb_commands_init(void)
{
	int r = ccb_paths_init();

	if (r < 0)
		return r;
	return ccb_cli_commands_init(commands, sizeof(commands) / sizeof(commands[0]),
	                             run_workload);
}
