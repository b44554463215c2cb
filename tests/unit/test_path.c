/*
 * Unit tests for the path tables (include/ccbench/path.h, src/path.c) and
 * what the rest of ccbench reads from them: each workload command names a
 * table, each table its option rules, flags and op size option; the option
 * table flags the image layout once.
 */
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
#include <ccbench/registry.h>
#include "ccbench/cli.h"
#include "ccbench/path.h"
#include "../../src/paths/rados/path_rados.h"
#include <ccbench/path_rbd.h>
#include "../../src/paths/krbd/path_krbd.h"
#include "../../src/paths/fs/path_cephfs.h"
#include "../../src/paths/rbd/rbd_opts.h"
#include "../../src/paths/krbd/krbd_opts.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const char *const workloads[] = {
    "rados write", "rados seq",     "rados rand", "rbd read",  "rbd randread",
    "rbd write",   "rbd randwrite", "rbd rw",     "krbd read", "krbd randread",
    "fs write",    "fs read",       "fs meta",
};

static void select_ok(struct ccb_cli *c, const char *command)
{
	char err[256];

	memset(c, 0, sizeof(*c));
	ccb_opts_defaults(&c->opts);
	if (ccb_cli_select(c, command, err, sizeof(err)) < 0)
		fail_msg("%s: %s", command, err);
}

static void set_ok(struct ccb_opts *o, const char *name, const char *value)
{
	char err[256];

	if (ccb_opt_set(o, ccb_opt_find(name), value, err, sizeof(err)) < 0)
		fail_msg("--%s %s: %s", name, value ? value : "", err);
}

/* Every workload runs through a table found again by its name and mode,
 * whose op size option is a size its commands take, with rules of its own. */
static void test_commands_name_their_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(workloads); i++) {
		struct ccb_cli c;
		const struct ccb_opt_desc *d;

		select_ok(&c, workloads[i]);
		assert_non_null(c.ops);
		assert_string_equal(c.path, c.ops->name);
		assert_ptr_equal(ccb_path_find(c.path, c.mode), c.ops);
		assert_non_null(c.ops->validate);
		assert_true(c.ops->caps && (c.cmd_mask & c.ops->caps) == c.ops->caps);
		d = ccb_opt_find(c.ops->op_size_name);
		assert_non_null(d);
		assert_int_equal(d->type, CCB_OPT_BYTES);
		assert_true(d->cmds & c.cmd_mask);
	}
}

/* Commands that run no workload have no table. */
static void test_other_commands_have_none(void **state)
{
	static const char *const others[] = {"cleanup", "sweep",       "report",   "explain",
	                                     "compare", "group ls",    "group rm", "group report",
	                                     "restore", "krbd restore"};
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(others); i++) {
		struct ccb_cli c;

		select_ok(&c, others[i]);
		assert_null(c.ops);
		assert_null(c.path);
	}
}

/* The op size, whatever the path calls it, is one value: each of its
 * names sets it, and each path shows it under the name it gives it. */
static void test_op_bytes(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	set_ok(&o, "op-size", "8K");
	assert_int_equal(o.op_size_bytes, 8192);
	set_ok(&o, "io-size", "16K");
	assert_int_equal(o.op_size_bytes, 16384);
	set_ok(&o, "block-size", "32K");
	assert_int_equal(o.op_size_bytes, 32768);
	assert_string_equal(ccb_path_rados.op_size_name, "op-size");
	assert_string_equal(ccb_path_rbd.op_size_name, "io-size");
	assert_string_equal(ccb_path_krbd.op_size_name, "io-size");
	assert_string_equal(ccb_path_cephfs.op_size_name, "block-size");
	assert_string_equal(ccb_path_cephfs_meta.op_size_name, "block-size");
}

/* fs calls block: depth 1 whatever -t says; krbd's buffered reads are one
 * per stream, --direct goes to depth; the others take -t. */
static void test_queue_depth(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	set_ok(&o, "queue-depth", "8");
	assert_int_equal(ccb_path_queue_depth(&ccb_path_rados, &o), 8);
	assert_int_equal(ccb_path_queue_depth(&ccb_path_rbd, &o), 8);
	assert_int_equal(ccb_path_queue_depth(&ccb_path_cephfs, &o), 1);
	assert_int_equal(ccb_path_queue_depth(&ccb_path_cephfs_meta, &o), 1);
	assert_int_equal(ccb_path_queue_depth(&ccb_path_krbd, &o), 1);
	set_ok(&o, "direct", NULL);
	assert_int_equal(ccb_path_queue_depth(&ccb_path_krbd, &o), 8);
}

/* Which runs end by themselves after one pass, and which make an image. */
static void test_flags(void **state)
{
	struct ccb_opts o;

	(void)state;
	assert_false(ccb_path_rados.flags & CCB_PATH_ONE_PASS);
	assert_true(ccb_path_rbd.flags & CCB_PATH_ONE_PASS);
	assert_true(ccb_path_krbd.flags & CCB_PATH_ONE_PASS);
	assert_true(ccb_path_cephfs.flags & CCB_PATH_ONE_PASS);
	assert_true(ccb_path_cephfs_meta.flags & CCB_PATH_ONE_PASS);

	ccb_opts_defaults(&o);
	assert_false(ccb_path_temp_image(&ccb_path_rados, &o));
	assert_false(ccb_path_temp_image(&ccb_path_cephfs, &o));
	assert_true(ccb_path_temp_image(&ccb_path_rbd, &o));
	assert_true(ccb_path_temp_image(&ccb_path_krbd, &o));
	set_ok(&o, "image", "rbd/img");
	assert_false(ccb_path_temp_image(&ccb_path_rbd, &o));
	/* An rbd image is no target of krbd's (its options are krbd's own block). */
	ccb_opts_block_select(&o, ccb_opt_group_bit(ccb_krbd_options));
	assert_true(ccb_path_temp_image(&ccb_path_krbd, &o));
	set_ok(&o, "device", "/dev/null");
	assert_false(ccb_path_temp_image(&ccb_path_krbd, &o));

	/* A shared image goes to each path through its own option. */
	ccb_opts_defaults(&o);
	ccb_path_set_target(&ccb_path_krbd, &o, "p/shared");
	assert_string_equal(CCB_KRBD_OPTS(&o)->map, "p/shared");
	assert_true(o.path_block_of == ccb_opt_group_bit(ccb_krbd_options));
	ccb_path_set_target(&ccb_path_rbd, &o, "p/shared");
	assert_string_equal(CCB_RBD_OPTS(&o)->image, "p/shared");
	assert_true(o.path_block_of == ccb_opt_group_bit(ccb_rbd_options));
	/* The rest of rbd's own options are its defaults, not krbd's values. */
	assert_string_equal(CCB_RBD_OPTS(&o)->pattern, "seq");
}

/* The layout list the rbd and krbd rules and sweeps used to write out three
 * times, now the option table's flags: the same options. */
static void test_layout_flags(void **state)
{
	static const char *const temp[] = {"size",        "order",        "object-size",
	                                   "stripe-unit", "stripe-count", "image-features",
	                                   "data-pool",   "keep"};
	static const char *const target[] = {"image", "device", "map"};
	size_t n_temp = 0, n_layout = 0, n_target = 0;

	(void)state;
	for (const struct ccb_opt_desc *d = ccb_opt_table; d->name; d++) {
		bool in_temp = false, in_target = false;

		for (size_t i = 0; i < ARRAY_SIZE(temp); i++)
			in_temp |= strcmp(d->name, temp[i]) == 0;
		for (size_t i = 0; i < ARRAY_SIZE(target); i++)
			in_target |= strcmp(d->name, target[i]) == 0;
		if (!!(d->flags & CCB_OPTF_TEMP) != in_temp)
			fail_msg("--%s: CCB_OPTF_TEMP %s", d->name, in_temp ? "missing" : "extra");
		if (!!(d->flags & CCB_OPTF_LAYOUT) != (in_temp && strcmp(d->name, "keep") != 0))
			fail_msg("--%s: CCB_OPTF_LAYOUT wrong", d->name);
		if (!!(d->flags & CCB_OPTF_TARGET) != in_target)
			fail_msg("--%s: CCB_OPTF_TARGET wrong", d->name);
		n_temp += !!(d->flags & CCB_OPTF_TEMP);
		n_layout += !!(d->flags & CCB_OPTF_LAYOUT);
		n_target += !!(d->flags & CCB_OPTF_TARGET);
	}
	assert_int_equal(n_temp, ARRAY_SIZE(temp));
	assert_int_equal(n_layout, ARRAY_SIZE(temp) - 1);
	assert_int_equal(n_target, ARRAY_SIZE(target));
}

/* The path's rules run through ccb_cli_validate(), not the generic ones. */
static void test_validate_through_the_table(void **state)
{
	struct ccb_cli c;
	char err[256] = "";

	(void)state;
	select_ok(&c, "rbd read");
	set_ok(&c.opts, "image", "rbd/img");
	set_ok(&c.opts, "order", "20");
	assert_int_equal(ccb_opts_validate(&c.opts, c.cmd_mask, err, sizeof(err)), 0);
	assert_int_equal(ccb_cli_validate(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--order: applies to the temporary image, not to --image"));

	select_ok(&c, "krbd read");
	set_ok(&c.opts, "device", "/dev/null");
	set_ok(&c.opts, "keep", NULL);
	assert_int_equal(ccb_cli_validate(&c, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "--keep: applies to the temporary image, not to --device"));

	select_ok(&c, "rados write");
	assert_int_equal(ccb_cli_validate(&c, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--pool: required (-p POOL)");
}

/* A command's siblings on its path: the sweep's tradeoff reads and "path". */
static void test_siblings(void **state)
{
	struct ccb_cli c;

	(void)state;
	select_ok(&c, "krbd read");
	assert_string_equal(ccb_cli_sibling(&c, "randread"), "krbd randread");
	select_ok(&c, "rbd read");
	assert_string_equal(ccb_cli_sibling(&c, "randread"), "rbd randread");
	assert_null(ccb_cli_sibling(&c, "restore"));
	assert_string_equal(ccb_cli_command_of(&ccb_path_krbd, "read"), "krbd read");
	assert_null(ccb_cli_command_of(&ccb_path_krbd, "write"));
	/* fs meta's table is the cephfs path's too. */
	assert_string_equal(ccb_cli_command_of(&ccb_path_cephfs_meta, "write"), "fs write");
}

/* fs commands go through the posix path when the options name a mount:
 * each workload to its own table, found again under the path's name. */
static void test_fs_variant(void **state)
{
	static const struct {
		const char *command, *opt, *val;
		const struct ccb_path_ops *want;
	} cases[] = {
	    {"fs write", NULL, NULL, &ccb_path_cephfs},
	    {"fs write", "mount-via", "libcephfs", &ccb_path_cephfs},
	    {"fs write", "mount-via", "fuse", &ccb_path_posix},
	    {"fs read", "mount-via", "kernel", &ccb_path_posix},
	    {"fs read", "mount", "/mnt/x", &ccb_path_posix},
	    {"fs meta", NULL, NULL, &ccb_path_cephfs_meta},
	    {"fs meta", "mount-via", "fuse", &ccb_path_posix_meta},
	    {"fs meta", "mount", "/mnt/x", &ccb_path_posix_meta},
	    {"rbd read", "mount", "/mnt/x", &ccb_path_rbd}, /* no variant: itself */
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ccb_cli c;
		const struct ccb_path_ops *ops;

		select_ok(&c, cases[i].command);
		if (cases[i].opt)
			set_ok(&c.opts, cases[i].opt, cases[i].val);
		ops = ccb_path_for(c.ops, &c.opts);
		if (ops != cases[i].want)
			fail_msg("%s --%s %s: table %s", cases[i].command,
			         cases[i].opt ? cases[i].opt : "", cases[i].val ? cases[i].val : "",
			         ops ? ops->name : "(none)");
		assert_ptr_equal(ccb_path_find(ops->name, c.mode), ops);
		assert_true(ops->caps == c.ops->caps);
		assert_string_equal(ops->op_size_name, c.ops->op_size_name);
		assert_int_equal(ops->flags, c.ops->flags);
	}
	assert_null(ccb_path_for(NULL, NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fs_variant),
	    cmocka_unit_test(test_commands_name_their_table),
	    cmocka_unit_test(test_other_commands_have_none),
	    cmocka_unit_test(test_op_bytes),
	    cmocka_unit_test(test_queue_depth),
	    cmocka_unit_test(test_flags),
	    cmocka_unit_test(test_layout_flags),
	    cmocka_unit_test(test_validate_through_the_table),
	    cmocka_unit_test(test_siblings),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
