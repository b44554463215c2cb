/* Unit tests for src/undo.c: reverse unwinding, drop, failing undos, ownership of args. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccbench/undo.h"

#define MAX_EVENTS 512

/*
 * Each entry's argument is a struct item: what its undo returns and an id.
 * The callbacks write an event log ("undo 3", "free 3") so the tests can
 * check order, and that every argument is freed exactly once.
 */
struct item {
	int id;
	int ret;
};

static struct {
	int kind[MAX_EVENTS]; /* 'u' undo, 'f' free */
	int id[MAX_EVENTS];
	int n;
} ev;

static void record(int kind, int id)
{
	assert_true(ev.n < MAX_EVENTS);
	ev.kind[ev.n] = kind;
	ev.id[ev.n] = id;
	ev.n++;
}

static int undo_fn(void *arg)
{
	struct item *it = arg;

	record('u', it->id);
	return it->ret;
}

static void free_fn(void *arg)
{
	struct item *it = arg;

	record('f', it->id);
	free(it);
}

static int push(int id, int ret)
{
	struct item *it = malloc(sizeof(*it));
	char what[32];
	int h;

	assert_non_null(it);
	it->id = id;
	it->ret = ret;
	snprintf(what, sizeof(what), "item %d", id);
	h = ccb_undo_push(what, undo_fn, it, free_fn);
	assert_true(h > 0);
	return h;
}

static int count(int kind, int id)
{
	int c = 0;

	for (int i = 0; i < ev.n; i++)
		c += ev.kind[i] == kind && ev.id[i] == id;
	return c;
}

static int setup(void **state)
{
	(void)state;
	memset(&ev, 0, sizeof(ev));
	return ccb_undo_pending() == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	/* Leave nothing behind for the next test, even after a failure. */
	ccb_undo_unwind();
	return 0;
}

static void test_empty(void **state)
{
	(void)state;
	assert_int_equal(ccb_undo_pending(), 0);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ccb_undo_pending(), 0);
	assert_int_equal(ev.n, 0);
	ccb_undo_drop(1234); /* unknown handle: nothing happens */
	assert_int_equal(ccb_undo_pending(), 0);
}

static void test_reverse_order(void **state)
{
	int h[3];

	(void)state;
	for (int i = 0; i < 3; i++) {
		h[i] = push(i + 1, 0);
		assert_int_equal(ccb_undo_pending(), i + 1);
	}
	assert_true(h[0] != h[1] && h[1] != h[2] && h[0] != h[2]);
	assert_int_equal(ev.n, 0); /* pushing runs nothing */

	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ccb_undo_pending(), 0);
	/* Newest first, each argument freed right after its undo. */
	static const int want_kind[] = {'u', 'f', 'u', 'f', 'u', 'f'};
	static const int want_id[] = {3, 3, 2, 2, 1, 1};
	assert_int_equal(ev.n, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(ev.kind[i], want_kind[i]);
		assert_int_equal(ev.id[i], want_id[i]);
	}

	/* A second unwind has nothing to do. */
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ev.n, 6);
}

/* Enough entries to outgrow the log's first allocations. */
static void test_many(void **state)
{
	const int n = 100;

	(void)state;
	for (int i = 0; i < n; i++)
		push(i, 0);
	assert_int_equal(ccb_undo_pending(), n);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(ev.n, 2 * n);
	for (int i = 0; i < n; i++) {
		assert_int_equal(ev.kind[2 * i], 'u');
		assert_int_equal(ev.id[2 * i], n - 1 - i);
		assert_int_equal(ev.kind[2 * i + 1], 'f');
		assert_int_equal(ev.id[2 * i + 1], n - 1 - i);
	}
}

static void test_drop(void **state)
{
	int h1, h2, h3, h4;

	(void)state;
	h1 = push(1, 0);
	h2 = push(2, 0);
	h3 = push(3, 0);
	h4 = push(4, 0);

	ccb_undo_drop(h2);
	assert_int_equal(ccb_undo_pending(), 3);
	/* Dropping frees the argument and runs nothing. */
	assert_int_equal(ev.n, 1);
	assert_int_equal(ev.kind[0], 'f');
	assert_int_equal(ev.id[0], 2);

	/* Dropping again, or an unknown handle, changes nothing. */
	ccb_undo_drop(h2);
	ccb_undo_drop(h4 + 100);
	ccb_undo_drop(0);
	ccb_undo_drop(-1);
	assert_int_equal(ccb_undo_pending(), 3);
	assert_int_equal(ev.n, 1);

	/* Drop the newest too; the rest unwind in order. */
	ccb_undo_drop(h4);
	assert_int_equal(ccb_undo_pending(), 2);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 1), 1);
	assert_int_equal(count('u', 3), 1);
	assert_int_equal(count('u', 2), 0);
	assert_int_equal(count('u', 4), 0);
	for (int id = 1; id <= 4; id++)
		assert_int_equal(count('f', id), 1);
	/* 3 is undone before 1. */
	int pos1 = -1, pos3 = -1;
	for (int i = 0; i < ev.n; i++) {
		if (ev.kind[i] == 'u' && ev.id[i] == 1)
			pos1 = i;
		if (ev.kind[i] == 'u' && ev.id[i] == 3)
			pos3 = i;
	}
	assert_true(pos3 >= 0 && pos1 > pos3);
	(void)h1;
	(void)h3;
}

/* Handles stay valid after other entries are dropped or the log is unwound. */
static void test_handles_unique(void **state)
{
	int h1, h2, h3;

	(void)state;
	h1 = push(1, 0);
	h2 = push(2, 0);
	ccb_undo_drop(h1);
	h3 = push(3, 0);
	assert_true(h3 != h1 && h3 != h2);
	/* h1 is gone: dropping it must not remove another entry. */
	ccb_undo_drop(h1);
	assert_int_equal(ccb_undo_pending(), 2);
	ccb_undo_drop(h3);
	assert_int_equal(ccb_undo_pending(), 1);
	assert_int_equal(count('f', 3), 1);
	assert_int_equal(count('f', 2), 0);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 2), 1);

	/* The log is usable after an unwind, with fresh handles. */
	int h4 = push(4, 0);
	assert_true(h4 != h1 && h4 != h2 && h4 != h3);
	assert_int_equal(ccb_undo_pending(), 1);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(count('u', 4), 1);
}

static void test_failure_continues(void **state)
{
	(void)state;
	push(1, 0);
	push(2, -EIO);
	push(3, 0);
	assert_int_equal(ccb_undo_unwind(), -EIO);
	for (int id = 1; id <= 3; id++) {
		assert_int_equal(count('u', id), 1);
		assert_int_equal(count('f', id), 1);
	}
	assert_int_equal(ccb_undo_pending(), 0);

	/* Two failures: the first one met (the newest) is returned, and all run. */
	memset(&ev, 0, sizeof(ev));
	push(1, -ENOENT);
	push(2, 0);
	push(3, -EBUSY);
	push(4, 0);
	assert_int_equal(ccb_undo_unwind(), -EBUSY);
	for (int id = 1; id <= 4; id++)
		assert_int_equal(count('u', id), 1);
	assert_int_equal(ccb_undo_pending(), 0);
}

static int plain_undo(void *arg)
{
	(*(int *)arg)++;
	return 0;
}

/* free_arg may be NULL: the argument stays the caller's. */
static void test_null_free(void **state)
{
	int counter = 0;

	(void)state;
	assert_true(ccb_undo_push("counter", plain_undo, &counter, NULL) > 0);
	assert_true(ccb_undo_push("counter", plain_undo, &counter, NULL) > 0);
	int h = ccb_undo_push("counter", plain_undo, &counter, NULL);
	ccb_undo_drop(h);
	assert_int_equal(ccb_undo_unwind(), 0);
	assert_int_equal(counter, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_empty, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_reverse_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_many, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_drop, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_handles_unique, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_failure_continues, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_null_free, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
