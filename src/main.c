/*
 * ccbench: parse, validate (exit 2 before the cluster is touched), run one
 * point through its path, report, undo. Exit status: 0 ok, 1 failed or
 * aborted, 2 bad input, 128+N after signal N.
 */
#include <ccbench/cli.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/path.h>
#include <ccbench/path_rados.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run_point(struct ccb_cli *cli, int argc, char **argv)
{
	struct ccb_run run = {0};
	json_t *result;
	int r, status = 1;

	run.opts = &cli->opts;
	run.ops = ccb_path_find(cli->path);
	run.command = cli->command;
	run.mode = cli->mode;
	run.is_write = cli->mode == CCB_MODE_WRITE || cli->mode == CCB_MODE_RANDWRITE;
	run.n_clients = (unsigned)cli->opts.clients;
	run.queue_depth = cli->opts.queue_depth;
	if (ccb_opt_given(&cli->opts, "total"))
		run.total_bytes = cli->opts.total_bytes;
	else if (ccb_opt_given(&cli->opts, "duration") ||
		 !(cli->cmd_mask & (CCB_CMD_RBD | CCB_CMD_KRBD)))
		run.duration_usec = cli->opts.duration_usec;
	/* else: rbd and krbd make one pass over the image or device, like dd;
	 * the path ends it with CCB_SUBMIT_END. */
	atomic_init(&run.stop, CCB_STOP_NONE);

	r = run.ops->prepare(&run);
	if (r < 0) {
		status = run.bad_input ? 2 : ccb_signal_pending ? 128 + ccb_signal_pending : 1;
		goto out;
	}
	r = ccb_run_execute(&run);
	if (r < 0) {
		fprintf(stderr, "ccbench: %s: could not open the clients: %s\n", run.command,
			strerror(-r));
		status = ccb_signal_pending ? 128 + ccb_signal_pending : 1;
		goto out;
	}
	if (run.ops->finish)
		run.ops->finish(&run);
	result = ccb_result_build(&run, cli->cmd_mask, argc, argv);
	if (!result || ccb_report_emit(result, &cli->opts) < 0)
		status = 1;
	else if (atomic_load(&run.stop) == CCB_STOP_SIGNAL)
		status = 128 + run.signal;
	else
		status = strcmp(ccb_result_status(&run), "ok") == 0 ? 0 : 1;
	if (status == 1 && run.reason[0])
		fprintf(stderr, "ccbench: %s: %s\n", run.command, run.reason);
	json_decref(result);
out:
	/* The undo log runs whatever happened: objects, connections, settings. */
	ccb_undo_unwind();
	ccb_run_free(&run);
	return status;
}

int main(int argc, char **argv)
{
	struct ccb_cli cli;
	char err[1024];
	rados_t probe;
	int r;

	if (ccb_cli_parse(argc, argv, &cli, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\nTry 'ccbench --help'.\n", err);
		return 2;
	}
	if (cli.version) {
		printf("ccbench %s\n", CCB_VERSION);
		return 0;
	}
	if (cli.help) {
		ccb_cli_usage(stdout, cli.cmd_mask);
		return 0;
	}
	if (ccb_cluster_apply_ceph_args(&cli.opts, err, sizeof(err)) < 0 ||
	    ccb_opts_validate(&cli.opts, cli.cmd_mask, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return 2;
	}
	/* Every -o key, the conf file and CEPH_ARGS are checked on a handle that
	 * never connects, so a typo costs nothing on the cluster. */
	r = ccb_cluster_configure(&cli.opts, &probe, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return r == -EINVAL ? 2 : 1;
	}
	rados_shutdown(probe);

	ccb_signals_install();
	if (cli.cmd_mask & CCB_CMD_CLEANUP) {
		r = ccb_rados_cleanup(&cli.opts);
		return r == 0 ? 0 : (r == -EINVAL || r == -ENOENT) ? 2 : 1;
	}
	return run_point(&cli, argc, argv);
}
