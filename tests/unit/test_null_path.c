/* Unit tests for src/paths/null/: `null write -d 1s` through the CLI, the
 * point and the engine, with no cluster and no conf file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

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
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
