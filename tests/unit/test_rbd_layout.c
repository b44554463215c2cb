/*
 * Unit tests for src/paths/rbd/rbd_layout.c's offset -> data object
 * mapping (ccb_rbd_object_of), after Ceph's Striper::file_to_extents: the
 * object an image offset lives in, without and with striping, and how
 * many objects an op spans.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccbench/rbd_layout.h"

#define K (1ull << 10)
#define M (1ull << 20)

static void test_plain(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_int_equal(ccb_rbd_object_of(0, 4 * K, 4 * M, 4 * M, 1, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ccb_rbd_object_of(4 * M - 1, 1, 4 * M, 0, 0, &n), 0);
	assert_int_equal(ccb_rbd_object_of(4 * M, 4 * K, 4 * M, 0, 0, &n), 1);
	assert_int_equal(ccb_rbd_object_of(10 * M, 4 * K, 4 * M, 4 * M, 1, &n), 2);
	/* 8K across an object boundary: two objects, the first named. */
	assert_int_equal(ccb_rbd_object_of(4 * M - 4 * K, 8 * K, 4 * M, 4 * M, 1, &n), 0);
	assert_int_equal(n, 2);
	/* A whole 4M op from an aligned offset stays in one object. */
	assert_int_equal(ccb_rbd_object_of(8 * M, 4 * M, 4 * M, 4 * M, 1, &n), 2);
	assert_int_equal(n, 1);
	/* order 12: 4K objects. */
	assert_int_equal(ccb_rbd_object_of(5 * 4 * K, 4 * K, 4 * K, 4 * K, 1, &n), 5);
	assert_int_equal(n, 1);
}

/* Stripe unit 64K over 4 objects of 4M: units dealt round the set, the
 * next set of 4 objects once each holds 4M (16M later). */
static void test_striped(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_int_equal(ccb_rbd_object_of(0, 4 * K, 4 * M, 64 * K, 4, &n), 0);
	assert_int_equal(ccb_rbd_object_of(64 * K, 4 * K, 4 * M, 64 * K, 4, &n), 1);
	assert_int_equal(ccb_rbd_object_of(192 * K, 4 * K, 4 * M, 64 * K, 4, &n), 3);
	assert_int_equal(ccb_rbd_object_of(256 * K, 4 * K, 4 * M, 64 * K, 4, &n), 0);
	assert_int_equal(ccb_rbd_object_of(16 * M - 4 * K, 4 * K, 4 * M, 64 * K, 4, &n), 3);
	assert_int_equal(ccb_rbd_object_of(16 * M, 4 * K, 4 * M, 64 * K, 4, &n), 4);
	assert_int_equal(ccb_rbd_object_of(16 * M + 64 * K, 4 * K, 4 * M, 64 * K, 4, &n), 5);
	assert_int_equal(n, 1);
	/* 256K from 0 covers a unit of each of the 4 objects; 512K the same 4. */
	assert_int_equal(ccb_rbd_object_of(0, 256 * K, 4 * M, 64 * K, 4, &n), 0);
	assert_int_equal(n, 4);
	assert_int_equal(ccb_rbd_object_of(0, 512 * K, 4 * M, 64 * K, 4, &n), 0);
	assert_int_equal(n, 4);
	/* 8K across a unit boundary: two objects. */
	assert_int_equal(ccb_rbd_object_of(60 * K, 8 * K, 4 * M, 64 * K, 4, &n), 0);
	assert_int_equal(n, 2);
	/* Across the end of a set: objects 3 and 4. */
	assert_int_equal(ccb_rbd_object_of(16 * M - 4 * K, 8 * K, 4 * M, 64 * K, 4, &n), 3);
	assert_int_equal(n, 2);
	/* 1M stripe units over 16 objects of 4M, an op of 64M: all 16, capped at the count. */
	assert_int_equal(ccb_rbd_object_of(0, 64 * M, 4 * M, 1 * M, 16, &n), 0);
	assert_int_equal(n, 16);
}

/* A stripe unit that does not divide the object: as if not striped. */
static void test_bad_layout(void **state)
{
	unsigned n = 0;

	(void)state;
	assert_int_equal(ccb_rbd_object_of(5 * M, 4 * K, 4 * M, 3 * M, 4, &n), 1);
	assert_int_equal(ccb_rbd_object_of(5 * M, 4 * K, 4 * M, 8 * M, 4, &n), 1);
	assert_int_equal(ccb_rbd_object_of(5 * M, 0, 0, 0, 0, NULL), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_plain),
	    cmocka_unit_test(test_striped),
	    cmocka_unit_test(test_bad_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
