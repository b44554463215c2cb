/* Unit tests for src/cli/cli.c: argv to command, mode, mask and options. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include <ccbench/capacity.h>
#include <ccbench/restore_cmd.h>
#include <ccbench/sweep.h>
#include "ccbench/path.h"
#include "ccbench/cli.h"
#include "../../src/paths/rados/path_rados.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CMD_RADOS   (ccb_cli_command_find("rados write")->mask)
#define CMD_CLEANUP (ccb_cli_command_find("cleanup")->mask)

#define MAX_ARGS 32

/*
 * getopt_long permutes argv and the options keep pointers into it, so
 * every case gets a fresh, writable copy that outlives the checks.
 */
struct args {
	int argc;
	char *argv[MAX_ARGS + 1];
	struct ccb_cli cli;
	char err[256];
	int ret;
};

static struct args *parse_v(const char *first, va_list ap)
{
	struct args *a = calloc(1, sizeof(*a));
	const char *s;

	assert_non_null(a);
	a->argv[a->argc++] = strdup("ccbench");
	for (s = first; s; s = va_arg(ap, const char *)) {
		assert_true(a->argc < MAX_ARGS);
		a->argv[a->argc++] = strdup(s);
	}
	a->argv[a->argc] = NULL;
	/* Poison the output so a success that fills nothing is caught. */
	memset(&a->cli, 0xa5, sizeof(a->cli));
	a->ret = ccb_cli_parse(a->argc, a->argv, &a->cli, a->err, sizeof(a->err));
	return a;
}

/* parse("rados", "write", NULL): argv[0] is added. */
static struct args *parse(const char *first, ...)
{
	struct args *a;
	va_list ap;

	va_start(ap, first);
	a = parse_v(first, ap);
	va_end(ap);
	return a;
}

static void args_free(struct args *a)
{
	for (int i = 0; i < a->argc; i++)
		free(a->argv[i]);
	free(a);
}

static void expect_ok(struct args *a)
{
	if (a->ret != 0)
		fail_msg("ret %d: %s", a->ret, a->err);
}

static void expect_err(struct args *a, const char *needle)
{
	if (a->ret != -EINVAL)
		fail_msg("ret %d, want -EINVAL (expected \"%s\")", a->ret, needle);
	if (!strstr(a->err, needle))
		fail_msg("message \"%s\" lacks \"%s\"", a->err, needle);
}

static void test_rados_write(void **state)
{
	struct args *a = parse("rados", "write", "-p", "rbd", "-t", "32", "-b", "64K", NULL);
	char err[256];

	(void)state;
	expect_ok(a);
	assert_string_equal(a->cli.command, "rados write");
	assert_string_equal(a->cli.path, "rados");
	assert_int_equal(a->cli.cmd_mask, CMD_RADOS);
	assert_int_equal(a->cli.mode, CCB_MODE_WRITE);
	assert_false(a->cli.help);
	assert_false(a->cli.version);
	assert_string_equal(a->cli.opts.pool, "rbd");
	assert_int_equal(a->cli.opts.queue_depth, 32);
	assert_true(a->cli.opts.op_size_bytes == 65536);
	assert_true(ccb_opt_given(&a->cli.opts, "pool"));
	assert_true(ccb_opt_given(&a->cli.opts, "queue-depth"));
	assert_true(ccb_opt_given(&a->cli.opts, "op-size"));
	/* What was not given keeps its default and is not marked. */
	assert_false(ccb_opt_given(&a->cli.opts, "duration"));
	assert_true(a->cli.opts.duration_usec == 10000000ull);
	assert_string_equal(a->cli.opts.cluster, "ceph");
	assert_int_equal(a->cli.opts.clients, 1);
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), 0);
	args_free(a);
}

static void test_modes(void **state)
{
	static const struct {
		const char *word;
		enum ccb_mode mode;
		const char *command;
	} cases[] = {
	    {"write", CCB_MODE_WRITE, "rados write"},
	    {"seq", CCB_MODE_SEQ, "rados seq"},
	    {"rand", CCB_MODE_RAND, "rados rand"},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct args *a = parse("rados", cases[i].word, "-p", "x", NULL);

		expect_ok(a);
		assert_string_equal(a->cli.command, cases[i].command);
		assert_int_equal(a->cli.mode, cases[i].mode);
		assert_int_equal(a->cli.cmd_mask, CMD_RADOS);
		args_free(a);
	}
}

static void test_options_anywhere(void **state)
{
	struct args *a;

	(void)state;
	a = parse("-p", "rbd", "--queue-depth=8", "rados", "seq", NULL);
	expect_ok(a);
	assert_string_equal(a->cli.command, "rados seq");
	assert_string_equal(a->cli.opts.pool, "rbd");
	assert_int_equal(a->cli.opts.queue_depth, 8);
	args_free(a);

	/* Between the command words, with long options in both spellings. */
	a = parse("--pool", "p1", "rados", "-t", "4", "rand", "--op-size", "1M", "--duration=2m",
	          "-q", NULL);
	expect_ok(a);
	assert_string_equal(a->cli.command, "rados rand");
	assert_int_equal(a->cli.mode, CCB_MODE_RAND);
	assert_string_equal(a->cli.opts.pool, "p1");
	assert_int_equal(a->cli.opts.queue_depth, 4);
	assert_true(a->cli.opts.op_size_bytes == 1ull << 20);
	assert_true(a->cli.opts.duration_usec == 120000000ull);
	assert_true(a->cli.opts.quiet);
	args_free(a);

	/* Short options glued to their value and grouped flags. */
	a = parse("rados", "write", "-prbd", "-t7", "-qf", "json", "--clients", "3", "-o", "a=b",
	          "--set", "c=d", NULL);
	expect_ok(a);
	assert_string_equal(a->cli.opts.pool, "rbd");
	assert_int_equal(a->cli.opts.queue_depth, 7);
	assert_true(a->cli.opts.quiet);
	assert_int_equal(a->cli.opts.format, CCB_FMT_JSON);
	assert_int_equal(a->cli.opts.clients, 3);
	assert_int_equal(a->cli.opts.n_sets, 2);
	assert_string_equal(a->cli.opts.sets[0], "a=b");
	assert_string_equal(a->cli.opts.sets[1], "c=d");
	args_free(a);

	/* The last of a repeated option wins. */
	a = parse("rados", "write", "-t", "2", "-t", "9", NULL);
	expect_ok(a);
	assert_int_equal(a->cli.opts.queue_depth, 9);
	args_free(a);
}

static void test_cleanup(void **state)
{
	struct args *a = parse("cleanup", "--all-runs", "-p", "x", NULL);
	char err[256];

	(void)state;
	expect_ok(a);
	assert_string_equal(a->cli.command, "cleanup");
	assert_null(a->cli.path);
	assert_int_equal(a->cli.cmd_mask, CMD_CLEANUP);
	assert_true(a->cli.opts.all_runs);
	assert_string_equal(a->cli.opts.pool, "x");
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), 0);
	args_free(a);

	/* Parsing accepts any table option; validation refuses those cleanup does not take. */
	a = parse("cleanup", "--run-name", "r1", "-p", "x", "-t", "4", NULL);
	expect_ok(a);
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--queue-depth"));
	args_free(a);
}

/* --max-in-flight is -t's setting: a command's default depth (rbd's 1)
 * does not override it; fs meta refuses --rate. */
static void test_open_loop_cli(void **state)
{
	struct args *a = parse("rbd", "write", "--rate", "100", "--max-in-flight", "4", NULL);
	char err[256];

	(void)state;
	expect_ok(a);
	assert_int_equal(a->cli.opts.queue_depth, 4);
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), 0);
	args_free(a);
	a = parse("rbd", "write", "--rate", "100", NULL);
	expect_ok(a);
	assert_int_equal(a->cli.opts.queue_depth, 1);
	args_free(a);
	a = parse("fs", "meta", "--rate", "100", NULL);
	expect_ok(a);
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--rate: not for fs meta"));
	args_free(a);
	a = parse("fs", "write", "--rate", "10MiB/s", NULL);
	expect_ok(a);
	assert_int_equal(ccb_cli_validate(&a->cli, err, sizeof(err)), 0);
	args_free(a);
}

static void test_bad_commands(void **state)
{
	struct args *a;

	(void)state;
	a = parse("bogus", NULL);
	expect_err(a, "unknown command 'bogus'");
	args_free(a);

	a = parse("rados", "bogus", "-p", "x", NULL);
	expect_err(a, "bogus");
	assert_non_null(strstr(a->err, "write"));
	args_free(a);

	a = parse("rados", NULL);
	expect_err(a, "rados");
	args_free(a);

	/* A command word is not a prefix. */
	a = parse("rad", "write", NULL);
	expect_err(a, "unknown command 'rad'");
	args_free(a);
	a = parse("rados", "wri", NULL);
	expect_err(a, "wri");
	args_free(a);
	a = parse("write", NULL);
	expect_err(a, "unknown command 'write'");
	args_free(a);
	a = parse("clean", "--all-runs", "-p", "x", NULL);
	expect_err(a, "unknown command 'clean'");
	args_free(a);
	a = parse("cleanupx", "--all-runs", "-p", "x", NULL);
	expect_err(a, "unknown command 'cleanupx'");
	args_free(a);

	a = parse("-p", "x", NULL);
	expect_err(a, "no command");
	args_free(a);

	/* Two command words in one argument (found by tests/fuzz/fuzz_cli): the
	 * match used to read past the end of the command's name under ASan. */
	a = parse("group ls", "x", NULL);
	expect_err(a, "unknown command 'group ls'");
	args_free(a);
	a = parse("rados write", "-p", "x", NULL);
	expect_err(a, "unknown command 'rados write'");
	args_free(a);
}

static void test_extra_args(void **state)
{
	struct args *a;

	(void)state;
	a = parse("rados", "write", "extra", "-p", "x", NULL);
	expect_err(a, "unexpected argument 'extra'");
	args_free(a);

	a = parse("cleanup", "r1", "--all-runs", NULL);
	expect_err(a, "unexpected argument 'r1'");
	args_free(a);

	a = parse("rados", "write", "a", "b", NULL);
	expect_err(a, "unexpected argument");
	args_free(a);
}

/*
 * The op size is one value under three names (rados bench's -b, rbd
 * bench's --io-size, dd's bs as --block-size): every workload takes each
 * name, counts it under the one it shows, keeps that one's range, and
 * without any takes that one's default.
 */
static void test_op_size_names(void **state)
{
	static const struct {
		const char *words[2], *opt, *val, *shown;
		uint64_t bytes;
	} ok[] = {
	    {{"rbd", "read"}, "-b", "4K", "io-size", 4096},
	    {{"rbd", "read"}, "--block-size", "8K", "io-size", 8192},
	    {{"krbd", "read"}, "--op-size", "16K", "io-size", 16384},
	    {{"fs", "write"}, "-b", "1M", "block-size", 1 << 20},
	    {{"fs", "meta"}, "--io-size", "8K", "block-size", 8192},
	    {{"rados", "write"}, "--io-size", "4K", "op-size", 4096},
	    {{"rados", "write"}, "--block-size", "2M", "op-size", 2 << 20},
	};
	static const struct {
		const char *words[2];
		uint64_t bytes;
	} defaults[] = {
	    {{"rados", "write"}, 4 << 20}, {{"rbd", "read"}, 65536},
	    {{"krbd", "randread"}, 65536}, {{"fs", "write"}, 4 << 20},
	    {{"null", "write"}, 4 << 20},
	};
	struct args *a;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(ok); i++) {
		a = parse(ok[i].words[0], ok[i].words[1], ok[i].opt, ok[i].val, NULL);
		expect_ok(a);
		if (a->cli.opts.op_size_bytes != ok[i].bytes)
			fail_msg("%s %s %s %s: %llu bytes", ok[i].words[0], ok[i].words[1],
			         ok[i].opt, ok[i].val,
			         (unsigned long long)a->cli.opts.op_size_bytes);
		assert_true(ccb_opt_given(&a->cli.opts, ok[i].shown));
		for (const char *const *n =
		         (const char *const[]){"op-size", "io-size", "block-size", NULL};
		     *n; n++)
			if (strcmp(*n, ok[i].shown) != 0)
				assert_false(ccb_opt_given(&a->cli.opts, *n));
		args_free(a);
	}
	for (size_t i = 0; i < ARRAY_SIZE(defaults); i++) {
		a = parse(defaults[i].words[0], defaults[i].words[1], NULL);
		expect_ok(a);
		assert_true(a->cli.opts.op_size_bytes == defaults[i].bytes);
		args_free(a);
	}
	/* The shown name's range, named as the user spelled it. */
	a = parse("rbd", "read", "-b", "256", NULL);
	expect_err(a, "--op-size '256': out of range (512 to 1G)");
	args_free(a);
	a = parse("fs", "write", "--io-size", "1K", NULL);
	expect_err(a, "--io-size '1K': out of range (4K to 1G)");
	args_free(a);
	a = parse("fs", "write", "--block-size", "1K", NULL);
	expect_err(a, "--block-size '1K'");
	args_free(a);
}

static void test_bad_options(void **state)
{
	struct args *a;

	(void)state;
	a = parse("rados", "write", "--bogus", "-p", "x", NULL);
	expect_err(a, "--bogus");
	args_free(a);

	a = parse("rados", "write", "-Z", NULL);
	expect_err(a, "-Z");
	args_free(a);

	/* A flag takes no value. */
	a = parse("rados", "write", "--quiet=yes", NULL);
	assert_int_equal(a->ret, -EINVAL);
	expect_err(a, "option '--quiet' takes no value");
	args_free(a);
	a = parse("cleanup", "-p", "x", "--run-name", "r", "--force=1", NULL);
	expect_err(a, "option '--force' takes no value");
	args_free(a);

	a = parse("rados", "write", "-p", NULL);
	expect_err(a, "needs a value");
	assert_non_null(strstr(a->err, "-p"));
	args_free(a);

	a = parse("rados", "write", "-p", "x", "--op-size", NULL);
	expect_err(a, "needs a value");
	assert_non_null(strstr(a->err, "--op-size"));
	args_free(a);

	/* The table's range check reaches the command line. */
	a = parse("rados", "write", "-p", "x", "-t", "0", NULL);
	expect_err(a, "--queue-depth '0'");
	args_free(a);
	a = parse("rados", "write", "-p", "x", "-b", "4Mx", NULL);
	expect_err(a, "--op-size '4Mx'");
	args_free(a);
	a = parse("rados", "write", "-o", "noequals", NULL);
	expect_err(a, "--set 'noequals'");
	args_free(a);
	a = parse("rados", "write", "-f", "xml", NULL);
	expect_err(a, "--format 'xml'");
	args_free(a);
}

static void test_help_version(void **state)
{
	struct args *a;

	(void)state;
	a = parse("--help", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	assert_false(a->cli.version);
	assert_null(a->cli.command);
	args_free(a);

	a = parse("-h", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	args_free(a);

	a = parse("--version", NULL);
	expect_ok(a);
	assert_true(a->cli.version);
	assert_false(a->cli.help);
	assert_null(a->cli.command);
	args_free(a);

	/* Help for a command knows the command, for per-command usage. */
	a = parse("rados", "write", "--help", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	assert_string_equal(a->cli.command, "rados write");
	assert_int_equal(a->cli.cmd_mask, CMD_RADOS);
	args_free(a);

	/* Defaults are filled even when only --help is given. */
	a = parse("-h", NULL);
	assert_int_equal(a->cli.opts.queue_depth, 16);
	assert_false(a->cli.opts.given[0]);
	args_free(a);
}

/* Each parse starts from scratch, whatever an earlier, failed one left behind. */
static void test_reparse(void **state)
{
	struct args *a;

	(void)state;
	/* Fails inside a group of short options: -q is never reached. */
	a = parse("-Zq", "rados", "write", NULL);
	assert_int_equal(a->ret, -EINVAL);
	args_free(a);

	a = parse("rados", "write", "-p", "x", NULL);
	expect_ok(a);
	assert_false(a->cli.opts.quiet);
	assert_string_equal(a->cli.command, "rados write");
	assert_string_equal(a->cli.opts.pool, "x");
	args_free(a);

	a = parse("rados", "seq", "-p", "y", "-t", NULL);
	assert_int_equal(a->ret, -EINVAL);
	args_free(a);
	a = parse("rados", "rand", "-p", "z", NULL);
	expect_ok(a);
	assert_int_equal(a->cli.opts.queue_depth, 16);
	assert_int_equal(a->cli.mode, CCB_MODE_RAND);
	args_free(a);
}

/* `help [COMMAND]`, `CMD --help` and `FAMILY --help` select what help shows. */
static void test_help_forms(void **state)
{
	struct args *a;

	(void)state;
	a = parse("help", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	assert_null(a->cli.command);
	assert_null(a->cli.help_group);
	args_free(a);

	a = parse("help", "rbd", "read", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	assert_string_equal(a->cli.command, "rbd read");
	args_free(a);

	a = parse("help", "sweep", NULL);
	expect_ok(a);
	assert_string_equal(a->cli.command, "sweep");
	args_free(a);

	a = parse("help", "krbd", NULL);
	expect_ok(a);
	assert_null(a->cli.command);
	assert_string_equal(a->cli.help_group, "krbd");
	args_free(a);

	a = parse("fs", "--help", NULL);
	expect_ok(a);
	assert_true(a->cli.help);
	assert_null(a->cli.command);
	assert_string_equal(a->cli.help_group, "fs");
	args_free(a);

	/* A command that needs an argument shows its help without one. */
	a = parse("compare", "-h", NULL);
	expect_ok(a);
	assert_string_equal(a->cli.command, "compare");
	args_free(a);

	a = parse("help", "bogus", NULL);
	expect_err(a, "help: unknown command 'bogus'");
	args_free(a);
	a = parse("help", "rbd", "read", "x", NULL);
	expect_err(a, "help: unexpected argument 'x'");
	args_free(a);
	a = parse("help", "rbd", "reed", NULL);
	expect_err(a, "rbd: expected read, randread, write, randwrite or rw, not 'reed'");
	args_free(a);
	a = parse("help", "cleanup", "now", NULL);
	expect_err(a, "help: unexpected argument 'now'");
	args_free(a);
}

/* The second words a family expects come from the table. */
static void test_family_words(void **state)
{
	struct args *a;

	(void)state;
	a = parse("krbd", "bogus", NULL);
	expect_err(a, "krbd: expected read, randread or restore, not 'bogus'");
	assert_string_equal(a->cli.help_group, "krbd");
	args_free(a);
	a = parse("group", NULL);
	expect_err(a, "group: expected report, rm, ls or manifest");
	assert_null(strstr(a->err, "not"));
	args_free(a);
	a = parse("fs", "--help", "x", NULL);
	expect_err(a, "fs: expected write, read or meta, not 'x'");
	args_free(a);
}

/*
 * After a bad option, cli.command still names the command argv selects
 * (for the hint "Try 'ccbench CMD --help'"), found past options that take
 * a value, whichever way it is attached.
 */
static void test_command_after_bad_option(void **state)
{
	static const struct {
		const char *argv[8];
		const char *command;
	} cases[] = {
	    {{"rbd", "read", "--bogus"}, "rbd read"},
	    {{"--bogus", "rbd", "read"}, "rbd read"},
	    {{"-p", "x", "--bogus", "krbd", "read"}, "krbd read"},
	    {{"--pool", "x", "-t", "0", "rados", "seq"}, "rados seq"},
	    {{"-prbd", "-Z", "fs", "write"}, "fs write"},
	    {{"--pool=x", "--bogus=1", "cleanup"}, "cleanup"},
	    {{"-qt", "0", "rbd", "rw"}, "rbd rw"},
	    {{"-q", "--", "--bogus"}, NULL},
	    {{"--bogus", "rbd"}, NULL},
	    {{"--bogus"}, NULL},
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *const *v = cases[i].argv;
		struct args *a = parse(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);

		if (a->ret != -EINVAL)
			fail_msg("case %zu: ret %d, want -EINVAL", i, a->ret);
		if (!cases[i].command && a->cli.command)
			fail_msg("case %zu: command '%s', want none", i, a->cli.command);
		if (cases[i].command &&
		    (!a->cli.command || strcmp(a->cli.command, cases[i].command) != 0))
			fail_msg("case %zu: command '%s', want '%s' (%s)", i,
			         a->cli.command ? a->cli.command : "(none)", cases[i].command,
			         a->err);
		args_free(a);
	}
}

/* Every command's example parses and passes validation: the words a user
 * copies from the help run (up to the cluster). */
static void test_examples_parse(void **state)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);

	(void)state;
	assert_true(n > 0);
	for (size_t i = 0; i < n; i++) {
		char *copy, *argv[MAX_ARGS + 1], *save = NULL, err[256];
		struct ccb_cli cli;
		int argc = 0, r;

		assert_non_null(cmds[i].summary);
		assert_non_null(cmds[i].description);
		assert_non_null(cmds[i].example);
		if (strncmp(cmds[i].example, "ccbench ", 8) != 0)
			fail_msg("%s: example does not start with 'ccbench ': %s", cmds[i].name,
			         cmds[i].example);
		copy = strdup(cmds[i].example);
		assert_non_null(copy);
		for (char *w = strtok_r(copy, " ", &save); w && argc < MAX_ARGS;
		     w = strtok_r(NULL, " ", &save))
			argv[argc++] = w;
		argv[argc] = NULL;
		r = ccb_cli_parse(argc, argv, &cli, err, sizeof(err));
		if (r < 0)
			fail_msg("%s: example '%s': %s", cmds[i].name, cmds[i].example, err);
		if (strcmp(cmds[i].name, "help") == 0) {
			assert_true(cli.help);
		} else {
			if (!cli.command || strcmp(cli.command, cmds[i].name) != 0)
				fail_msg("%s: example '%s' runs '%s'", cmds[i].name,
				         cmds[i].example, cli.command ? cli.command : "(none)");
			if (ccb_cli_validate(&cli, err, sizeof(err)) < 0)
				fail_msg("%s: example '%s' refused: %s", cmds[i].name,
				         cmds[i].example, err);
		}
		free(copy);
	}
}

/* A row carries its run function, by symbol: cleanup's names the rados
 * path's, restore's and sweep's their own; every workload (a row with a
 * path) runs the front's one workload run; only help runs nothing. */
static void test_command_bind(void **state)
{
	size_t n;
	const struct ccb_command *cmds = ccb_cli_commands(&n);
	ccb_command_run workload = NULL;

	(void)state;
	assert_ptr_equal(ccb_cli_command_find("cleanup")->run, ccb_rados_cleanup_run);
	assert_ptr_equal(ccb_cli_command_find("restore")->run, ccb_restore_run);
	assert_ptr_equal(ccb_cli_command_find("krbd restore")->run, ccb_restore_run);
	assert_ptr_equal(ccb_cli_command_find("sweep")->run, ccb_sweep_command);
	assert_ptr_equal(ccb_cli_command_find("capacity")->run, ccb_capacity_command);
	assert_null(ccb_cli_command_find("help")->run);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(cmds[i].name, "help") != 0 && !cmds[i].run)
			fail_msg("%s: no run function", cmds[i].name);
		if (!cmds[i].ops)
			continue;
		if (!workload)
			workload = cmds[i].run;
		if (cmds[i].run != workload)
			fail_msg("%s: not the workloads' run", cmds[i].name);
	}
	assert_non_null(workload);
	assert_true(workload != ccb_rados_cleanup_run && workload != ccb_restore_run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rados_write),    cmocka_unit_test(test_command_bind),
	    cmocka_unit_test(test_modes),          cmocka_unit_test(test_options_anywhere),
	    cmocka_unit_test(test_cleanup),        cmocka_unit_test(test_bad_commands),
	    cmocka_unit_test(test_extra_args),     cmocka_unit_test(test_bad_options),
	    cmocka_unit_test(test_help_version),   cmocka_unit_test(test_reparse),
	    cmocka_unit_test(test_help_forms),     cmocka_unit_test(test_family_words),
	    cmocka_unit_test(test_open_loop_cli),  cmocka_unit_test(test_command_after_bad_option),
	    cmocka_unit_test(test_examples_parse), cmocka_unit_test(test_op_size_names),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
