/* Unit tests for the record a libcephfs run's removal works from: the set
 * of inodes the run made and their type (src/paths/cephfs_remove.c). */
#define _FILE_OFFSET_BITS 64

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdbool.h>

#include "../../src/paths/fs/path_cephfs_int.h"

#include <ccbench/commands.h>
#include "ccbench/path.h"

static void test_made_find(void **state)
{
	struct ccb_fs_made *s = ccb_fs_made_new();

	(void)state;
	assert_non_null(s);
	assert_int_equal(ccb_fs_made_find(s, 42), -ENOENT);
	assert_int_equal(ccb_fs_made_add(s, 42, false), 0);
	assert_int_equal(ccb_fs_made_add(s, 43, true), 0);
	assert_int_equal(ccb_fs_made_find(s, 42), 0);
	assert_int_equal(ccb_fs_made_find(s, 43), 1);
	assert_int_equal(ccb_fs_made_find(s, 44), -ENOENT);
	/* Again: the type is the latest one, and the inode is there once. */
	assert_int_equal(ccb_fs_made_add(s, 42, true), 0);
	assert_int_equal(ccb_fs_made_find(s, 42), 1);
	/* 0 is no inode, and the top bit is the type's. */
	assert_int_equal(ccb_fs_made_add(s, 0, false), -EINVAL);
	assert_int_equal(ccb_fs_made_add(s, 1ull << 63, false), -EINVAL);
	assert_int_equal(ccb_fs_made_find(s, 0), -ENOENT);
	assert_int_equal(ccb_fs_made_find(s, 43 | 1ull << 63), -ENOENT);
	ccb_fs_made_free(s);
}

/* Growing keeps every entry and its type; inodes a CephFS hands out in a
 * row (0x10000000000 + n) and ones that collide in the low bits. */
static void test_made_grows(void **state)
{
	struct ccb_fs_made *s = ccb_fs_made_new();
	const uint64_t base = 0x10000000000ull;

	(void)state;
	assert_non_null(s);
	for (uint64_t i = 0; i < 20000; i++) {
		assert_int_equal(ccb_fs_made_add(s, base + i, i % 7 == 0), 0);
		assert_int_equal(ccb_fs_made_add(s, (i + 1) << 44, i % 2 == 0), 0);
	}
	for (uint64_t i = 0; i < 20000; i++) {
		assert_int_equal(ccb_fs_made_find(s, base + i), i % 7 == 0);
		assert_int_equal(ccb_fs_made_find(s, (i + 1) << 44), i % 2 == 0);
	}
	assert_int_equal(ccb_fs_made_find(s, base + 20000), -ENOENT);
	assert_int_equal(ccb_fs_made_find(s, base - 1), -ENOENT);
	ccb_fs_made_free(s);
}

/* No record (a mount's run): adding is a no-op, nothing is found. */
static void test_made_none(void **state)
{
	(void)state;
	assert_int_equal(ccb_fs_made_add(NULL, 5, false), 0);
	assert_int_equal(ccb_fs_made_find(NULL, 5), -ENOENT);
	ccb_fs_made_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_made_find),
	    cmocka_unit_test(test_made_grows),
	    cmocka_unit_test(test_made_none),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
