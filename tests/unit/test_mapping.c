/* Unit tests for src/mapping.c: the kernel map options ccbench adds. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include "ccbench/mapping.h"

static void test_v2_only_mons_get_prefer_crc(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options(NULL, 0, true, &m), 0);
	assert_string_equal(m.options, "ms_mode=prefer-crc");
	assert_string_equal(m.ms_mode, "prefer-crc");
	assert_non_null(strstr(m.ms_mode_why, "v2 only"));
	assert_false(m.noudev);
}

static void test_v1_mons_keep_the_default(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options("queue_depth=64", 1, true, &m), 0);
	assert_string_equal(m.options, "queue_depth=64");
	assert_string_equal(m.ms_mode, "");
	assert_non_null(strstr(m.ms_mode_why, "legacy"));
	/* Unknown mon map: the default, said so. */
	assert_int_equal(ccb_map_kernel_options(NULL, -EIO, true, &m), 0);
	assert_string_equal(m.options, "");
	assert_non_null(strstr(m.ms_mode_why, "could not be read"));
}

static void test_given_ms_mode_wins(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options("alloc_size=65536,ms_mode=secure", 0, true, &m), 0);
	assert_string_equal(m.options, "alloc_size=65536,ms_mode=secure");
	assert_string_equal(m.ms_mode, "secure");
	assert_non_null(strstr(m.ms_mode_why, "given"));
	/* A prefix of the key is another option. */
	assert_int_equal(ccb_map_kernel_options("ms_modex=1", 0, true, &m), 0);
	assert_string_equal(m.options, "ms_modex=1,ms_mode=prefer-crc");
}

static void test_noudev_without_udev(void **state)
{
	struct ccb_mapping m;

	(void)state;
	assert_int_equal(ccb_map_kernel_options(NULL, 1, false, &m), 0);
	assert_string_equal(m.options, "noudev");
	assert_true(m.noudev);
	assert_int_equal(ccb_map_kernel_options("lock_on_read", 0, false, &m), 0);
	assert_string_equal(m.options, "lock_on_read,noudev,ms_mode=prefer-crc");
	/* The user's own udev choice stands. */
	assert_int_equal(ccb_map_kernel_options("udev", 1, false, &m), 0);
	assert_string_equal(m.options, "udev");
	assert_false(m.noudev);
	assert_int_equal(ccb_map_kernel_options("noudev", 1, false, &m), 0);
	assert_string_equal(m.options, "noudev");
	assert_false(m.noudev);
}

static void test_too_long(void **state)
{
	struct ccb_mapping m;
	char big[sizeof(m.options) + 8];

	(void)state;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	assert_int_equal(ccb_map_kernel_options(big, 0, false, &m), -ENAMETOOLONG);
	memset(big, 'a', sizeof(m.options) - 5);
	big[sizeof(m.options) - 5] = '\0';
	assert_int_equal(ccb_map_kernel_options(big, 0, false, &m), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_v2_only_mons_get_prefer_crc),
	    cmocka_unit_test(test_v1_mons_keep_the_default),
	    cmocka_unit_test(test_given_ms_mode_wins),
	    cmocka_unit_test(test_noudev_without_udev),
	    cmocka_unit_test(test_too_long),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
