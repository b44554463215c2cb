/*
 * Unit tests for src/cluster.c's parsing, the part that needs no cluster:
 * CEPH_ARGS folded into the options (the command line wins), -o KEY=VALUE
 * split, which conf file is read, osdmap flags.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/cluster.h"
#include "ccbench/options.h"

/* Options as the command line left them when it gave no connection option. */
static void blank(struct ccb_opts *o)
{
	memset(o, 0, sizeof(*o));
}

/* Apply CEPH_ARGS=@p args to @p o; must succeed. */
static void apply_ok(struct ccb_opts *o, const char *args)
{
	char err[256] = "";
	int r;

	setenv("CEPH_ARGS", args, 1);
	r = ccb_cluster_apply_ceph_args(o, err, sizeof(err));
	if (r != 0)
		fail_msg("CEPH_ARGS '%s': ret %d (%s)", args, r, err);
}

/* Apply CEPH_ARGS=@p args: -EINVAL with @p want in the message, @p o unchanged. */
static void apply_bad(const char *args, const char *want)
{
	struct ccb_opts o;
	char err[256] = "";

	blank(&o);
	setenv("CEPH_ARGS", args, 1);
	assert_int_equal(ccb_cluster_apply_ceph_args(&o, err, sizeof(err)), -EINVAL);
	if (!strstr(err, want))
		fail_msg("CEPH_ARGS '%s': message '%s' lacks '%s'", args, err, want);
	assert_null(o.conf);
	assert_null(o.name);
	assert_null(o.id);
	assert_null(o.keyring);
	assert_null(o.cluster);
}

static int teardown_env(void **state)
{
	(void)state;
	unsetenv("CEPH_ARGS");
	unsetenv("CEPH_CONF");
	return 0;
}

static void test_ceph_args_absent(void **state)
{
	struct ccb_opts o;
	char err[64] = "untouched";

	(void)state;
	blank(&o);
	unsetenv("CEPH_ARGS");
	assert_int_equal(ccb_cluster_apply_ceph_args(&o, err, sizeof(err)), 0);
	setenv("CEPH_ARGS", "", 1);
	assert_int_equal(ccb_cluster_apply_ceph_args(&o, err, sizeof(err)), 0);
	assert_null(o.conf);
	assert_null(o.name);
	assert_null(o.id);
	assert_null(o.keyring);
	assert_null(o.cluster);
	assert_string_equal(err, "untouched");
}

/* Long and short spellings, "--opt value" and "--opt=value", any blanks. */
static void test_ceph_args_spellings(void **state)
{
	struct ccb_opts o;

	(void)state;
	blank(&o);
	apply_ok(&o, "--conf /a.conf --name client.x --keyring /k --cluster c1");
	assert_string_equal(o.conf, "/a.conf");
	assert_string_equal(o.name, "client.x");
	assert_null(o.id);
	assert_string_equal(o.keyring, "/k");
	assert_string_equal(o.cluster, "c1");

	blank(&o);
	apply_ok(&o, "  --conf=/b.conf\t--id=bob\n--keyring=/kk --cluster=c2 ");
	assert_string_equal(o.conf, "/b.conf");
	assert_string_equal(o.id, "bob");
	assert_null(o.name);
	assert_string_equal(o.keyring, "/kk");
	assert_string_equal(o.cluster, "c2");

	blank(&o);
	apply_ok(&o, "-c /c.conf -i carol -k /k3");
	assert_string_equal(o.conf, "/c.conf");
	assert_string_equal(o.id, "carol");
	assert_string_equal(o.keyring, "/k3");

	blank(&o);
	apply_ok(&o, "-n client.dave");
	assert_string_equal(o.name, "client.dave");

	blank(&o);
	apply_ok(&o, "--user eve");
	assert_string_equal(o.id, "eve");
}

/* What ccbench does not know is left for librados, and no prefix matches. */
static void test_ceph_args_others_left(void **state)
{
	struct ccb_opts o;

	(void)state;
	blank(&o);
	apply_ok(&o, "--mon_host 127.0.0.1:1 --conf_x /no --names=no --keyringx /no "
	             "--debug-ms 1 --id admin --log-file /dev/null");
	assert_string_equal(o.id, "admin");
	assert_null(o.conf);
	assert_null(o.name);
	assert_null(o.keyring);
	assert_null(o.cluster);
}

/* The command line wins over CEPH_ARGS, field by field. */
static void test_ceph_args_command_line_wins(void **state)
{
	struct ccb_opts o;

	(void)state;
	blank(&o);
	o.conf = "cli.conf";
	o.keyring = "cli.keyring";
	apply_ok(&o, "--conf env.conf --keyring env.keyring --cluster envc");
	assert_string_equal(o.conf, "cli.conf");
	assert_string_equal(o.keyring, "cli.keyring");
	assert_string_equal(o.cluster, "envc");
}

/*
 * The entity name is one setting in two spellings (-n TYPE.ID, -i ID):
 * one given on the command line hides both in CEPH_ARGS, else the first
 * one in CEPH_ARGS is taken and hides the other.
 */
static void test_ceph_args_entity_name(void **state)
{
	struct ccb_opts o;

	(void)state;
	blank(&o);
	o.id = "cli";
	apply_ok(&o, "--name client.env --id env");
	assert_string_equal(o.id, "cli");
	assert_null(o.name);

	blank(&o);
	o.name = "client.cli";
	apply_ok(&o, "-i env");
	assert_string_equal(o.name, "client.cli");
	assert_null(o.id);

	blank(&o);
	apply_ok(&o, "--id first --name client.second");
	assert_string_equal(o.id, "first");
	assert_null(o.name);

	blank(&o);
	apply_ok(&o, "-n client.first -i second");
	assert_string_equal(o.name, "client.first");
	assert_null(o.id);
}

/* An option that takes a value, last with none: refused, naming it. */
static void test_ceph_args_missing_value(void **state)
{
	(void)state;
	apply_bad("--id", "CEPH_ARGS: --id needs a value");
	apply_bad("--mon_host x -k", "CEPH_ARGS: --keyring needs a value");
	apply_bad("-c", "CEPH_ARGS: --conf needs a value");
	apply_bad("--user", "CEPH_ARGS: --user needs a value");
	apply_bad("--cluster", "CEPH_ARGS: --cluster needs a value");
}

/* The taken values outlive the environment they came from. */
static void test_ceph_args_values_kept(void **state)
{
	struct ccb_opts o;

	(void)state;
	blank(&o);
	apply_ok(&o, "--id kept --conf /kept.conf");
	setenv("CEPH_ARGS", "--id other --conf /other.conf", 1);
	unsetenv("CEPH_ARGS");
	assert_string_equal(o.id, "kept");
	assert_string_equal(o.conf, "/kept.conf");
}

/*
 * With the real defaults (--cluster defaults to "ceph"), CEPH_ARGS
 * --cluster must still apply when the command line did not give one.
 * (It did not: the field's default "ceph" looked like a command-line
 * value, and `CEPH_ARGS=--cluster foo` read /etc/ceph/ceph.conf.)
 */
static void test_ceph_args_cluster_over_default(void **state)
{
	struct ccb_opts o;

	(void)state;
	ccb_opts_defaults(&o);
	apply_ok(&o, "--cluster foo");
	assert_string_equal(o.cluster, "foo");
}

static void test_split_set(void **state)
{
	char key[8], err[128];
	const char *value = NULL;
	const char *s;

	(void)state;
	s = "a=b";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)), 0);
	assert_string_equal(key, "a");
	assert_ptr_equal(value, s + 2); /* into the setting, not a copy */

	s = "rbd_cache=";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)),
	                 -EINVAL); /* 9 characters: too long for key[8] */
	assert_non_null(strstr(err, "--set 'rbd_cache=': key too long"));

	s = "k=";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)), 0);
	assert_string_equal(key, "k");
	assert_string_equal(value, "");

	s = "k=v=w";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)), 0);
	assert_string_equal(key, "k");
	assert_string_equal(value, "v=w");

	/* The longest key that fits: 7 characters and the NUL. */
	s = "abcdefg=1";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)), 0);
	assert_string_equal(key, "abcdefg");
	assert_string_equal(value, "1");
	s = "abcdefgh=1";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "key too long"));

	s = "novalue";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "--set 'novalue': expected KEY=VALUE"));
	s = "=v";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "--set '=v': expected KEY=VALUE"));
	s = "";
	assert_int_equal(ccb_cluster_split_set(s, key, sizeof(key), &value, err, sizeof(err)),
	                 -EINVAL);
	assert_non_null(strstr(err, "expected KEY=VALUE"));
}

/* -c, then $CEPH_CONF (if not empty), then /etc/ceph/$cluster.conf. */
static void test_conf_path(void **state)
{
	struct ccb_opts o;
	char buf[64];

	(void)state;
	blank(&o);
	unsetenv("CEPH_CONF");
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/etc/ceph/ceph.conf");
	o.cluster = "east";
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/etc/ceph/east.conf");

	setenv("CEPH_CONF", "", 1);
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/etc/ceph/east.conf");
	setenv("CEPH_CONF", "/env/ceph.conf", 1);
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/env/ceph.conf");

	o.conf = "/cli/ceph.conf";
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/cli/ceph.conf");
	unsetenv("CEPH_CONF");
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/cli/ceph.conf");

	/* The defaults name cluster "ceph". */
	ccb_opts_defaults(&o);
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/etc/ceph/ceph.conf");
}

/* CEPH_ARGS' -c is the conf read when the command line gave none. */
static void test_conf_path_from_ceph_args(void **state)
{
	struct ccb_opts o;
	char buf[64];

	(void)state;
	blank(&o);
	setenv("CEPH_CONF", "/env/ceph.conf", 1);
	apply_ok(&o, "-c /args/ceph.conf");
	assert_string_equal(ccb_cluster_conf_path(&o, buf, sizeof(buf)), "/args/ceph.conf");
}

/* osdmap flags as whole words: a nearfull pool is not a full one. */
static void test_has_flag(void **state)
{
	(void)state;
	assert_true(ccb_cluster_has_flag("hashpspool,full", "full"));
	assert_true(ccb_cluster_has_flag("full", "full"));
	assert_true(ccb_cluster_has_flag("full,hashpspool", "full"));
	assert_false(ccb_cluster_has_flag("hashpspool,nearfull,selfmanaged_snaps", "full"));
	assert_true(ccb_cluster_has_flag("hashpspool,nearfull", "nearfull"));
	assert_false(ccb_cluster_has_flag("hashpspool,full_quota", "full"));
	assert_true(ccb_cluster_has_flag("hashpspool,full_quota", "full_quota"));
	assert_false(ccb_cluster_has_flag("backfillfull", "full"));
	assert_false(ccb_cluster_has_flag("", "full"));
	assert_false(ccb_cluster_has_flag(NULL, "full"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_teardown(test_ceph_args_absent, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_spellings, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_others_left, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_command_line_wins, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_entity_name, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_missing_value, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_values_kept, teardown_env),
	    cmocka_unit_test_teardown(test_ceph_args_cluster_over_default, teardown_env),
	    cmocka_unit_test_teardown(test_split_set, teardown_env),
	    cmocka_unit_test_teardown(test_conf_path, teardown_env),
	    cmocka_unit_test_teardown(test_conf_path_from_ceph_args, teardown_env),
	    cmocka_unit_test(test_has_flag),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
