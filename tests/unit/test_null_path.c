/* Unit tests for src/paths/null/: `null write -d 1s` through the CLI, the
 * point and the engine, with no cluster and no conf file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include <ccbench/registry.h>
#include "ccbench/cli.h"
#include "ccbench/path.h"
#include "ccbench/point.h"
#include "ccbench/undo.h"

#include "../../src/paths/null/path_null.h"

/* Parse argv as ccbench would, then run the point it names (with
 * @p hooks' before_start, on_tick and after_run when given). */
static int run_null_argv(int argc, char **argv, const struct ccb_point *hooks, json_t **res)
{
	struct ccb_cli cli;
	char err[256];

	assert_int_equal(ccb_cli_parse(argc, argv, &cli, err, sizeof(err)), 0);
	assert_int_equal(ccb_cli_validate(&cli, err, sizeof(err)), 0);
	assert_ptr_equal(cli.ops, &ccb_path_null);
	/* No cluster: the CLI checks no conf and the point connects nowhere. */
	assert_false(cli.ops->needs_cluster(&cli.opts));

	struct ccb_point pt = {
	    .command = cli.command,
	    .path = cli.path,
	    .ops = cli.ops,
	    .cmd_mask = cli.cmd_mask,
	    .mode = cli.mode,
	    .opts = &cli.opts,
	    .argc = argc,
	    .argv = argv,
	};
	if (hooks) {
		pt.before_start = hooks->before_start;
		pt.before_start_arg = hooks->before_start_arg;
		pt.on_tick = hooks->on_tick;
		pt.on_tick_arg = hooks->on_tick_arg;
		pt.after_run = hooks->after_run;
		pt.after_run_arg = hooks->after_run_arg;
	}
	return ccb_point_run(&pt, res);
}

static int run_null_hooked(const char *word, const struct ccb_point *hooks, json_t **res)
{
	char *argv[] = {"ccbench", "null", (char *)word, "-d", "1s", "-q", NULL};

	return run_null_argv((int)(sizeof(argv) / sizeof(argv[0])) - 1, argv, hooks, res);
}

static int run_null(const char *word, json_t **res)
{
	return run_null_hooked(word, NULL, res);
}

static double lat_ms(const json_t *res, const char *key)
{
	return json_number_value(json_object_get(json_object_get(res, "latency_us"), key)) / 1000;
}

/* --complete-after: each op takes its time, so 4 in flight at 10 ms carry
 * at most 400 ops/s (Little's law), and no op is faster than 10 ms. A
 * loaded host only adds to each op's time: fewer ops, never more. */
static void test_null_complete_after(void **state)
{
	char *argv[] = {"ccbench", "null", "write", "--complete-after", "10ms", "-t", "4", "-d",
	                "2s",      "-q",   NULL};
	json_t *res = NULL;
	double iops;

	(void)state;
	setenv("CEPH_CONF", "/nonexistent/ceph.conf", 1);
	assert_int_equal(run_null_argv(10, argv, NULL, &res), 0);
	iops = json_number_value(json_object_get(res, "iops"));
	if (iops > 400 * 1.01 || iops < 400 * 0.5)
		fail_msg("4 in flight at 10 ms: %.1f ops/s, want at most 400 (at least 200)", iops);
	if (lat_ms(res, "min") < 10.0 || lat_ms(res, "p50") < 10.0)
		fail_msg("ops faster than --complete-after 10ms: min %.3f ms, p50 %.3f ms",
		         lat_ms(res, "min"), lat_ms(res, "p50"));
	json_decref(res);
	/* Without it, at once: far more than 400 ops/s, well under 10 ms each. */
	argv[3] = "--complete-after";
	argv[4] = "0";
	assert_int_equal(run_null_argv(10, argv, NULL, &res), 0);
	assert_true(json_number_value(json_object_get(res, "iops")) > 4000);
	assert_true(lat_ms(res, "p50") < 1.0);
	json_decref(res);
}

/* Its range, and only its own commands take it. */
static void test_null_complete_after_refused(void **state)
{
	static const char *const bad[][5] = {
	    {"null", "write", "--complete-after", "61s", "out of range"},
	    {"null", "write", "--complete-after", "soon", "not a duration"},
	    {"rados", "write", "--complete-after", "10ms", "not an option of this command"},
	    {"rbd", "read", "--complete-after", "10ms", "not an option of this command"},
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *argv[] = {"ccbench",         (char *)bad[i][0], (char *)bad[i][1],
		                (char *)bad[i][2], (char *)bad[i][3], NULL};
		struct ccb_cli cli;
		int r = ccb_cli_parse(5, argv, &cli, err, sizeof(err));

		if (r == 0)
			r = ccb_cli_validate(&cli, err, sizeof(err));
		if (r != -EINVAL || !strstr(err, bad[i][4]))
			fail_msg("%s %s %s %s: %d \"%s\"", bad[i][0], bad[i][1], bad[i][2],
			         bad[i][3], r, err);
	}
}

static void test_null_write(void **state)
{
	json_t *res = NULL;

	(void)state;
	setenv("CEPH_CONF", "/nonexistent/ceph.conf", 1);
	assert_int_equal(run_null("write", &res), 0);
	assert_non_null(res);
	assert_string_equal(json_string_value(json_object_get(res, "status")), "ok");
	assert_string_equal(json_string_value(json_object_get(res, "path")), "null");
	assert_true(json_integer_value(json_object_get(res, "ops")) > 0);
	assert_true(json_integer_value(json_object_get(res, "bytes")) > 0);
	json_decref(res);
}

static void test_null_read(void **state)
{
	json_t *res = NULL;

	(void)state;
	assert_int_equal(run_null("read", &res), 0);
	assert_non_null(res);
	assert_string_equal(json_string_value(json_object_get(res, "mode")), "seq");
	assert_true(json_integer_value(json_object_get(res, "ops")) > 0);
	json_decref(res);
}

/*
 * It takes the engine's options and the output's, nothing of a cluster:
 * a conf, a pool, a group or an OSD delay is bad input (main: exit 2),
 * refused by the checks before anything would connect or be read.
 */
static void test_null_own_options(void **state)
{
	static const char *const refused[][4] = {
	    {"--osd-latency", "5ms", "--osd-latency"}, {"--group", "g", "--group"},
	    {"-c", "/etc/ceph/ceph.conf", "--conf"},   {"-p", "rbd", "--pool"},
	    {"--run-name", "r1", "--run-name"},        {"--object-size", "4M", "--object-size"},
	};
	static const char *const taken[] = {"-t",        "--clients",    "-b",
	                                    "--io-size", "--block-size", "-d",
	                                    "--total",   "--rate",       "--until-steady"};
	static const char *const taken_val[] = {"4",  "2",  "4K",  "8K",   "16K",
	                                        "1s", "1M", "100", "bw:5%"};
	const struct ccb_command *c = ccb_cli_command_find("null write");
	char err[256];

	(void)state;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		char *argv[] = {
		    "ccbench", "null", "write", (char *)refused[i][0], (char *)refused[i][1], NULL};
		struct ccb_cli cli;

		assert_int_equal(ccb_cli_parse(5, argv, &cli, err, sizeof(err)), 0);
		assert_int_equal(ccb_cli_validate(&cli, err, sizeof(err)), -EINVAL);
		if (!strstr(err, refused[i][2]) || !strstr(err, "not an option of this command"))
			fail_msg("null write %s %s: \"%s\"", refused[i][0], refused[i][1], err);
	}
	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++) {
		char *argv[] = {"ccbench", "null", "write", (char *)taken[i], (char *)taken_val[i],
		                NULL};
		struct ccb_cli cli;

		assert_int_equal(ccb_cli_parse(5, argv, &cli, err, sizeof(err)), 0);
		if (ccb_cli_validate(&cli, err, sizeof(err)) != 0)
			fail_msg("null write %s %s: %s", taken[i], taken_val[i], err);
	}
	/* Its help offers the engine's options, not the cluster's. */
	assert_non_null(c);
	assert_true(c->mask & CCB_CMD_ENGINE);
	assert_false(c->mask & (CCB_CMD_CONN | CCB_CMD_WORKLOAD | CCB_CAP_POOL));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if ((d->cmds & c->mask) &&
		    !(d->cmds & (CCB_CMD_ENGINE | CCB_CMD_OUTPUT | CCB_CAP_QUEUE | CCB_CAP_CLIENTS |
		                 CCB_CAP_OP_SIZE | CCB_CMD_PATHS)))
			fail_msg("null write takes --%s", d->name);
}

/* The registry finds it by name, whatever the mode. */
static void test_null_registry(void **state)
{
	(void)state;
	assert_ptr_equal(ccb_path_find("null", CCB_MODE_WRITE), &ccb_path_null);
	assert_ptr_equal(ccb_path_find("null", CCB_MODE_SEQ), &ccb_path_null);
	assert_string_equal(ccb_cli_command_of(&ccb_path_null, "read"), "null read");
}

/* The order a group member relies on: before_start, ticks while the
 * clients run, after_run once they stopped, then the cleanup (the undo
 * log). A member's last heartbeat is waited for in after_run: waited for
 * after the cleanup, its seconds counted as silence (CI of 2026-12-04). */
struct hook_log {
	char seq[64];
	size_t n;
	bool stopped_at_after_run;
};

static void hook_note(struct hook_log *l, char c)
{
	/* Ticks are many: one 't' for them all. */
	if (c == 't' && l->n && l->seq[l->n - 1] == 't')
		return;
	if (l->n + 1 < sizeof(l->seq))
		l->seq[l->n++] = c;
}

static int hook_undo(void *arg)
{
	hook_note(arg, 'u');
	return 0;
}

static int hook_before_start(struct ccb_run *run, void *arg)
{
	(void)run;
	hook_note(arg, 'b');
	return ccb_undo_push("the hooks' test", hook_undo, arg, NULL) > 0 ? 0 : -ENOMEM;
}

static void hook_tick(struct ccb_run *run, void *arg)
{
	(void)run;
	hook_note(arg, 't');
}

static void hook_after_run(struct ccb_run *run, void *arg)
{
	struct hook_log *l = arg;

	l->stopped_at_after_run = atomic_load(&run->stop) != CCB_STOP_NONE;
	hook_note(l, 'a');
}

static void test_point_hooks_order(void **state)
{
	struct hook_log log = {.n = 0};
	struct ccb_point hooks = {
	    .before_start = hook_before_start,
	    .before_start_arg = &log,
	    .on_tick = hook_tick,
	    .on_tick_arg = &log,
	    .after_run = hook_after_run,
	    .after_run_arg = &log,
	};
	json_t *res = NULL;

	(void)state;
	assert_int_equal(run_null_hooked("write", &hooks, &res), 0);
	json_decref(res);
	assert_string_equal(log.seq, "btau");
	assert_true(log.stopped_at_after_run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_null_write),
	    cmocka_unit_test(test_null_read),
	    cmocka_unit_test(test_null_registry),
	    cmocka_unit_test(test_null_own_options),
	    cmocka_unit_test(test_point_hooks_order),
	    cmocka_unit_test(test_null_complete_after),
	    cmocka_unit_test(test_null_complete_after_refused),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
