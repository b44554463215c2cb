/* Unit tests for src/paths/mountinfo.c: mountinfo lines with and without
 * optional fields, octal escapes in paths, malformed lines, the mount a
 * path is on, and options in a comma-separated list. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "../../src/paths/mountinfo.h"

#include <ccbench/commands.h>
#include "ccbench/path.h"

static void test_parse_ceph_fuse(void **state)
{
	struct ccb_mountinfo mi;

	(void)state;
	assert_int_equal(
	    ccb_mountinfo_parse("1234 29 0:88 / /run/ccbench/mnt-Ab3dEf rw,nosuid,nodev,relatime "
	                        "shared:612 - fuse.ceph-fuse ceph-fuse "
	                        "rw,user_id=0,group_id=0,allow_other\n",
	                        &mi),
	    0);
	assert_int_equal(mi.id, 1234);
	assert_int_equal(mi.parent, 29);
	assert_int_equal(mi.major, 0);
	assert_int_equal(mi.minor, 88);
	assert_string_equal(mi.root, "/");
	assert_string_equal(mi.mountpoint, "/run/ccbench/mnt-Ab3dEf");
	assert_string_equal(mi.mount_options, "rw,nosuid,nodev,relatime");
	assert_string_equal(mi.fstype, "fuse.ceph-fuse");
	assert_string_equal(mi.source, "ceph-fuse");
	assert_string_equal(mi.super_options, "rw,user_id=0,group_id=0,allow_other");
}

static void test_parse_kernel_no_optional_fields(void **state)
{
	struct ccb_mountinfo mi;
	char v[64];

	(void)state;
	assert_int_equal(ccb_mountinfo_parse("77 1 0:52 /sub /mnt/with\\040space rw - ceph "
	                                     "10.0.0.1:6789:/sub "
	                                     "rw,name=admin,secret=<hidden>,acl,rasize=4194304",
	                                     &mi),
	                 0);
	assert_string_equal(mi.root, "/sub");
	assert_string_equal(mi.mountpoint, "/mnt/with space");
	assert_string_equal(mi.fstype, "ceph");
	assert_non_null(ccb_mountinfo_option(mi.super_options, "rasize", v, sizeof(v)));
	assert_string_equal(v, "4194304");
	assert_non_null(ccb_mountinfo_option(mi.super_options, "acl", v, sizeof(v)));
	assert_string_equal(v, "");
	assert_null(ccb_mountinfo_option(mi.super_options, "wsize", v, sizeof(v)));
	/* A prefix of another option's name is not that option. */
	assert_null(ccb_mountinfo_option(mi.super_options, "ras", v, sizeof(v)));
	/* The last occurrence wins, as in the kernel. */
	assert_non_null(ccb_mountinfo_option("rasize=1,rasize=2", "rasize", v, sizeof(v)));
	assert_string_equal(v, "2");
}

static void test_parse_malformed(void **state)
{
	static const char *const bad[] = {
	    "",
	    "12 1 0:5 / /mnt rw",                 /* no separator */
	    "12 1 0:5 / /mnt rw shared:1",        /* no separator after optionals */
	    "x 1 0:5 / /mnt rw - tmpfs tmpfs rw", /* id not a number */
	    "12 1 05 / /mnt rw - tmpfs tmpfs rw", /* no maj:min */
	    "12 1 0:5 / /mnt rw - tmpfs",         /* no source */
	};
	struct ccb_mountinfo mi;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (ccb_mountinfo_parse(bad[i], &mi) != -EINVAL)
			fail_msg("accepted: '%s'", bad[i]);
}

/* A path longer than the field it goes into is refused, not cut. */
static void test_parse_too_long(void **state)
{
	static char line[3 * PATH_MAX];
	struct ccb_mountinfo mi;
	size_t l;

	(void)state;
	l = (size_t)snprintf(line, sizeof(line), "12 1 0:5 / /");
	memset(line + l, 'a', PATH_MAX + 10);
	snprintf(line + l + PATH_MAX + 10, sizeof(line) - l - PATH_MAX - 10,
	         " rw - tmpfs tmpfs rw");
	assert_int_equal(ccb_mountinfo_parse(line, &mi), -EINVAL);
}

/* The mount a path is on: "/" at least, for any existing path. */
static void test_of_and_at(void **state)
{
	struct ccb_mountinfo mi;

	(void)state;
	assert_int_equal(ccb_mountinfo_of("/proc/self", &mi), 0);
	assert_string_equal(mi.mountpoint, "/proc");
	assert_string_equal(mi.fstype, "proc");
	assert_int_equal(ccb_mountinfo_at("/proc", &mi), 0);
	assert_string_equal(mi.fstype, "proc");
	assert_int_equal(ccb_mountinfo_at("/proc/self", &mi), -ENOENT);
	assert_int_equal(ccb_mountinfo_of("/nonexistent/path/x", &mi), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_ceph_fuse),
	    cmocka_unit_test(test_parse_kernel_no_optional_fields),
	    cmocka_unit_test(test_parse_malformed),
	    cmocka_unit_test(test_parse_too_long),
	    cmocka_unit_test(test_of_and_at),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
