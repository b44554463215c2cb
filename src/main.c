/*
 * ccbench: parse, validate (exit 2 before the cluster is touched), run one
 * point through its path, report, undo. Exit status: 0 ok, 1 failed or
 * aborted, 2 bad input, 128+N after signal N (SIGINT, SIGTERM, SIGHUP,
 * and SIGPIPE: 141 when stdout or stderr is a pipe whose reader is gone).
 */
#include <ccbench/cli.h>
#include <ccbench/cluster.h>
#include <ccbench/commands.h>
#include <ccbench/engine.h>
#include <ccbench/help.h>
#include <ccbench/html.h>
#include <ccbench/path.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * A reader that went away (`ccbench ... | head`): SIGPIPE is caught, so the
 * run stopped and unwound, or only the result could not be written (the
 * objects were already gone). Either way the status says so, as a shell
 * says of a writer SIGPIPE killed: 141, not a plain 0 or 1. Bad input (2)
 * and another signal's status stay.
 */
static int exit_status(int status)
{
	if (ccb_signal_pending == SIGPIPE && (status == 0 || status == 1))
		return 128 + SIGPIPE;
	return status;
}

static int dispatch(const struct ccb_cli *cli, int argc, char **argv)
{
	const struct ccb_command *cmd = ccb_cli_command_find(cli->command);

	if (!cmd || !cmd->run) {
		fprintf(stderr, "ccbench: %s: no run function for this command\n", cli->command);
		return 1;
	}
	/* Settings a killed run left (read_ahead_kb, mappings, mounts) are reported
	 * before this run starts; `ccbench restore` puts them back (and reports
	 * what it cannot itself). */
	if (!(cmd->flags & CCB_CMDF_OWN_STATE))
		ccb_undo_state_report();
	return cmd->run(cli, argc, argv);
}

/*
 * Every output path, checked before anything runs: a link another user
 * planted, a FIFO or a device is refused with exit 2 now, not found once
 * the run has changed the cluster. ccb_report_to_file() checks again.
 */
static int check_outputs(const struct ccb_opts *o, char *err, size_t len)
{
	const struct {
		const char *opt, *path;
	} outs[] = {{"--output", o->output},
	            {"--json", o->json_file},
	            {"--csv", o->csv_file},
	            {"--svg", o->svg_file},
	            {"--html", o->html_file}};

	for (size_t i = 0; i < sizeof(outs) / sizeof(outs[0]); i++)
		if (outs[i].path && ccb_output_check(outs[i].path, outs[i].opt, err, len) < 0)
			return -EINVAL;
	return 0;
}

/* ccbench's version and the client libraries' it runs with: their
 * runtime versions, which a result also records, not the headers'. */
static int print_version(void)
{
	json_t *c = ccb_release_client();
	const char *k;

	printf("ccbench %s\n", CCB_VERSION);
	if (c) {
		printf(
		    "ceph client libraries: librados %s, librbd %s, libcephfs %s (ceph %s, %s)\n",
		    json_string_value(json_object_get(c, "librados")),
		    json_string_value(json_object_get(c, "librbd")),
		    json_string_value(json_object_get(c, "libcephfs")),
		    json_string_value(json_object_get(c, "ceph_version")),
		    json_string_value(json_object_get(c, "release")));
		k = json_string_value(json_object_get(c, "kernel"));
		if (k)
			printf("kernel (the krbd client): %s\n", k);
	}
	json_decref(c);
	return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	struct ccb_cli cli;
	char err[1024];
	rados_t probe;
	int r;

	r = ccb_commands_init();
	if (r < 0) {
		fprintf(stderr, "ccbench: internal error: the option or command table: %s\n",
		        strerror(-r));
		return 1;
	}
	if (ccb_cli_parse(argc, argv, &cli, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		ccb_help_hint(stderr, cli.command ? cli.command : cli.help_group);
		return 2;
	}
	if (cli.version)
		return print_version();
	if (cli.help) {
		if (cli.command)
			ccb_help_command(stdout, ccb_cli_command_find(cli.command));
		else
			ccb_help_overview(stdout, cli.help_group);
		return 0;
	}
	if (ccb_cluster_apply_ceph_args(&cli.opts, err, sizeof(err)) < 0 ||
	    ccb_cli_validate(&cli, err, sizeof(err)) < 0 ||
	    check_outputs(&cli.opts, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		ccb_help_hint(stderr, cli.command);
		return 2;
	}
	/* Every command reads the state directory (a killed run's records are
	 * reported, restored): one another user could write is refused before
	 * anything else happens. */
	if (ccb_undo_state_dir_check(err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return 2;
	}
	/* Every -o key, the conf file and CEPH_ARGS are checked on a handle that
	 * never connects, so a typo costs nothing on the cluster. Workloads ask
	 * their path, whatever options they take (a plain krbd --device run
	 * needs no cluster, nor does the null path); krbd
	 * restore, report and compare need none; nor does a sweep's dry run
	 * (it contacts nothing) on a host with no conf file to check. */
	const struct ccb_path_ops *ops = ccb_path_for(cli.ops, &cli.opts);
	const struct ccb_command *cmd = ccb_cli_command_find(cli.command);
	if ((ops ? !ops->needs_cluster || ops->needs_cluster(&cli.opts)
	     : cmd->needs_cluster
	         ? cmd->needs_cluster(&cli)
	         : (cli.cmd_mask & (CCB_CMD_CONN | CCB_CMD_SWEEP | CCB_CMD_GROUP)) != 0 &&
	               !(cli.cmd_mask & CCB_CMD_K8S)) &&
	    !(cli.opts.dry_run &&
	      access(ccb_cluster_conf_path(&cli.opts, err, sizeof(err)), F_OK) < 0)) {
		r = ccb_cluster_configure(&cli.opts, &probe, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: %s\n", err);
			return r == -EINVAL ? 2 : 1;
		}
		rados_shutdown(probe);
	}

	ccb_signals_install();
	return exit_status(dispatch(&cli, argc, argv));
}
