/* Unit tests for the CephFS path's pure parts: the bonnie++ -n spec and
 * the fs rules checked before mounting (src/paths/path_cephfs_common.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/cli.h"
#include "ccbench/options.h"
#include "../../src/paths/fs/path_cephfs.h"
#include "../../src/paths/fs/fs_opts.h"
#include "../../src/paths/fs/fs_spec.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

struct spec_case {
	const char *in;
	int ret;
	uint64_t files, max_bytes, min_bytes, dirs; /* checked when ret == 0 */
};

static void test_spec_valid(void **state)
{
	static const struct spec_case cases[] = {
	    {"1", 0, 1024, 0, 0, 0},
	    {"16", 0, 16384, 0, 0, 0},
	    {"1:4k", 0, 1024, 4096, 0, 0},
	    {"1:4k:0:1", 0, 1024, 4096, 0, 1},
	    {"98:800k:500k:1000", 0, 98 * 1024, 800 * 1024, 500 * 1024, 1000},
	    {"2:1M:1M", 0, 2048, 1 << 20, 1 << 20, 0},
	    {"4096:0:0:100000", 0, 4096ull * 1024, 0, 0, 100000},
	    {"1:1G", 0, 1024, 1ull << 30, 0, 0},
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ccb_fs_spec s;
		int r = ccb_fs_spec_parse(cases[i].in, &s, err, sizeof(err));

		if (r != 0)
			fail_msg("'%s': %s", cases[i].in, err);
		assert_int_equal(s.files, cases[i].files);
		assert_int_equal(s.max_bytes, cases[i].max_bytes);
		assert_int_equal(s.min_bytes, cases[i].min_bytes);
		assert_int_equal(s.dirs, cases[i].dirs);
	}
}

static void test_spec_invalid(void **state)
{
	static const char *const bad[] = {
	    "",       "0",        "4097",       "-1",      "x",
	    "1:",     ":4k",      "1::0",       "1:4k:8k", "1:x",
	    "1:4k:y", "1:4k:0:z", "1:4k:0:1:2", "1:2G",    "1:4k:0:100001",
	    "1 ",     "1.5",      "1:4k:0:-1",  "1:4k:",
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct ccb_fs_spec s;

		err[0] = '\0';
		if (ccb_fs_spec_parse(bad[i], &s, err, sizeof(err)) != -EINVAL)
			fail_msg("'%s' parsed", bad[i]);
		/* Every refusal names the option and the value. */
		assert_non_null(strstr(err, "--files"));
	}
	assert_int_equal(ccb_fs_spec_parse(NULL, &(struct ccb_fs_spec){0}, err, sizeof(err)),
	                 -EINVAL);
}

/* Parse argv as the CLI does, then the cross-option rules. */
static int parse_validate(const char *const *args, int n, char *err, size_t err_len)
{
	char *argv[32];
	struct ccb_cli cli;
	int r;

	/* getopt_long permutes argv: hand it a writable copy. */
	for (int i = 0; i < n; i++)
		argv[i] = (char *)args[i];
	argv[n] = NULL;
	r = ccb_cli_parse(n, argv, &cli, err, err_len);
	if (r < 0)
		return r;
	return ccb_cli_validate(&cli, err, err_len);
}

static void test_cli_n_is_spec(void **state)
{
	static const char *const a[] = {"ccbench", "fs", "meta", "-n", "2:8k:1k:4"};
	static const char *const b[] = {"ccbench", "fs", "meta", "-n", "client.admin"};
	static const char *const c[] = {"ccbench", "fs", "meta", "-n", "1:8k:16k"};
	char err[256], *argv[6];
	struct ccb_cli cli;

	(void)state;
	memcpy(argv, a, sizeof(a));
	argv[5] = NULL;
	assert_int_equal(ccb_cli_parse(5, argv, &cli, err, sizeof(err)), 0);
	assert_string_equal(CCB_FS_OPTS(&cli.opts)->files_spec, "2:8k:1k:4");
	assert_null(cli.opts.name);
	memcpy(argv, b, sizeof(b));
	assert_int_equal(ccb_cli_parse(5, argv, &cli, err, sizeof(err)), 0);
	assert_string_equal(cli.opts.name, "client.admin");
	assert_string_equal(CCB_FS_OPTS(&cli.opts)->files_spec, "1:4k:0:1");
	assert_int_equal(parse_validate(c, 5, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "MIN larger than MAX"));
}

static void test_validate_rules(void **state)
{
	static const struct {
		const char *args[10];
		int n;
		const char *msg; /* NULL: accepted */
	} cases[] = {
	    {{"ccbench", "fs", "write"}, 3, NULL},
	    {{"ccbench", "fs", "write", "--block-size", "8M", "--file-size", "4M"},
	     7,
	     "larger than --file-size"},
	    {{"ccbench", "fs", "write", "--block-size", "4M", "--file-size", "4M"}, 7, NULL},
	    {{"ccbench", "fs", "write", "--object-size", "4M", "--stripe-unit", "3M"},
	     7,
	     "does not divide"},
	    {{"ccbench", "fs", "write", "--stripe-unit", "1M"}, 5, NULL},
	    {{"ccbench", "fs", "write", "--stripe-unit", "32K"}, 5, "multiple of 64K"},
	    {{"ccbench", "fs", "write", "--object-size", "1M", "--stripe-unit", "4M"},
	     7,
	     "does not divide"},
	    {{"ccbench", "fs", "write", "--object-size", "100K"}, 5, "multiple of 64K"},
	    {{"ccbench", "fs", "write", "--object-size", "1M", "--stripe-unit", "256K",
	      "--stripe-count", "4"},
	     9,
	     NULL},
	    {{"ccbench", "fs", "write", "--dir", "rel"}, 5, "absolute"},
	    {{"ccbench", "fs", "write", "--dir", "/"}, 5, "absolute"},
	    {{"ccbench", "fs", "write", "--dir", "/a/"}, 5, "absolute"},
	    {{"ccbench", "fs", "write", "--dir", "/a/.."}, 5, "absolute"},
	    {{"ccbench", "fs", "write", "--dir", "/bench/run1"}, 5, NULL},
	    {{"ccbench", "fs", "meta", "--files", "1:4k:0:1:1"}, 5, "at most 4 fields"},
	    /* The mount options (ccb_fs_mount_rules). */
	    {{"ccbench", "fs", "write", "--mount", "/tmp", "--mount-via", "fuse"},
	     7,
	     "give one of them"},
	    {{"ccbench", "fs", "write", "--mount", "/tmp", "--mount-via", "libcephfs"},
	     7,
	     "give one of them"},
	    {{"ccbench", "fs", "write", "--mount-options", "ro"}, 5, "only with --mount-via"},
	    {{"ccbench", "fs", "write", "--mount-via", "libcephfs", "--mount-options", "ro"},
	     7,
	     "only with --mount-via"},
	    {{"ccbench", "fs", "write", "--mount-via", "kernel", "--mount-options",
	      "name=a,secret=AQB"},
	     7,
	     "secret would show the key"},
	    {{"ccbench", "fs", "write", "--mount-via", "fuse", "--mount-options", "key=AQB,ro"},
	     7,
	     "key would show the key"},
	    {{"ccbench", "fs", "write", "--mount-via", "fuse", "--mount-options", "a b"},
	     7,
	     "expected OPT"},
	    {{"ccbench", "fs", "write", "--mount-via", "fuse", "--mount-options", ",ro"},
	     7,
	     "expected OPT"},
	    {{"ccbench", "fs", "write", "--direct"}, 4, "only on a mount"},
	    {{"ccbench", "fs", "meta", "--mount-via", "libcephfs", "--direct"},
	     6,
	     "only on a mount"},
	    {{"ccbench", "fs", "write", "--mount", "/tmp", "--direct", "--block-size", "6K",
	      "--file-size", "12K"},
	     10,
	     "multiple of 4096"},
	    {{"ccbench", "fs", "write", "--mount", "rel"}, 5, "absolute path"},
	    {{"ccbench", "fs", "write", "--mount", "/nonexistent-ccbt"}, 5, "No such file"},
	    {{"ccbench", "fs", "write", "--mount", "/tmp", "--object-size", "8M"},
	     7,
	     "not on a CephFS mount"},
	    {{"ccbench", "fs", "write", "--mount-via", "libcephfs"}, 5, NULL},
	    {{"ccbench", "fs", "write", "--mount", "/tmp", "--direct", "--block-size", "8K",
	      "--file-size", "16K"},
	     10,
	     NULL},
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		int r;

		err[0] = '\0';
		r = parse_validate(cases[i].args, cases[i].n, err, sizeof(err));
		if (!cases[i].msg) {
			if (r != 0)
				fail_msg("case %zu refused: %s", i, err);
		} else {
			if (r != -EINVAL)
				fail_msg("case %zu accepted", i);
			if (!strstr(err, cases[i].msg))
				fail_msg("case %zu: '%s' lacks '%s'", i, err, cases[i].msg);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_valid),
	    cmocka_unit_test(test_spec_invalid),
	    cmocka_unit_test(test_cli_n_is_spec),
	    cmocka_unit_test(test_validate_rules),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
