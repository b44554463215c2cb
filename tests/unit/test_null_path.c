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

#include "ccbench/cli.h"
#include "ccbench/path.h"
#include "ccbench/point.h"

#include "../../src/paths/null/path_null.h"

/* Parse argv as ccbench would, then run the point it names. */
static int run_null(const char *word, json_t **res)
{
	char *argv[] = {"ccbench", "null", (char *)word, "-d", "1s", "-q", NULL};
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
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
	return ccb_point_run(&pt, res);
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
	assert_false(c->mask & (CCB_CMD_CONN | CCB_CMD_RADOS));
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++)
		if ((d->cmds & c->mask) && !(d->cmds & (CCB_CMD_ENGINE | CCB_CMD_OUTPUT)))
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

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_null_write),
	    cmocka_unit_test(test_null_read),
	    cmocka_unit_test(test_null_registry),
	    cmocka_unit_test(test_null_own_options),
	};
	if (ccb_paths_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
