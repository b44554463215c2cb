/*
 * Unit tests for src/explain/explain_ec.c: the lines an erasure-coded data
 * pool adds to explain (read-modify-write of a partial stripe, shards a
 * small read touches, degraded PGs, space), classic and FastEC, and none
 * for a replicated pool.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/explain.h"

/* A result of @p mode with @p op_bytes on a 2+1 pool (stripe_unit 4K), FastEC @p fast. */
static json_t *result(const char *mode, int op_bytes, int fast, int degraded)
{
	json_t *r =
	    json_pack("{s:s, s:s, s:i, s:{s:{s:s, s:s, s:i, s:i, s:{s:i, s:i, s:i, s:i, s:b}}},"
	              " s:{s:{s:i}, s:{s:i}}}",
	              "mode", mode, "path", "librbd", "op_bytes", op_bytes, "pools", "data", "name",
	              "ec21", "type", "erasure", "size", 3, "min_size", 2, "erasure", "k", 2, "m",
	              1, "stripe_unit", 4096, "stripe_width", 8192, "allow_ec_overwrites", 1,
	              "cluster_state", "start", "pgs_degraded", degraded, "end", "pgs_degraded", 0);

	if (fast >= 0)
		json_object_set_new(
		    json_object_get(json_object_get(json_object_get(r, "pools"), "data"),
		                    "erasure"),
		    "allow_ec_optimizations", json_boolean(fast));
	return r;
}

/* The texts of the "ec" (or @p kind) entries of ccb_explain(@p r), joined; @p r released. */
static char *texts(json_t *r, const char *kind)
{
	static char buf[4096];
	json_t *ex = ccb_explain(r, NULL), *e;
	size_t i;

	buf[0] = '\0';
	json_array_foreach(ex, i, e)
	{
		if (strcmp(json_string_value(json_object_get(e, "kind")), kind) != 0)
			continue;
		strncat(buf, json_string_value(json_object_get(e, "text")),
		        sizeof(buf) - strlen(buf) - 2);
		strcat(buf, "|");
	}
	json_decref(ex);
	json_decref(r);
	return buf;
}

static void test_partial_stripe_write(void **state)
{
	(void)state;
	assert_non_null(strstr(texts(result("randwrite", 4096, 0, 0), "ec"), "read-modify-write"));
	assert_non_null(strstr(texts(result("randwrite", 4096, 1, 0), "ec"), "parity-delta"));
	assert_null(strstr(texts(result("randwrite", 4096, 1, 0), "ec"), "read-modify-write"));
	/* A whole stripe: no read before the write. */
	assert_non_null(strstr(texts(result("write", 8192, 0, 0), "ec"), "no read before"));
	/* 12K: one stripe and a half, so a partial one each time. */
	assert_non_null(strstr(texts(result("write", 12288, 0, 0), "ec"), "read-modify-write"));
}

/* rados writes whole objects: one of a stripe's multiple costs (k+m)/k, a
 * smaller one is padded to the stripe (4K on 2+1 with 4K units: 3.00, as
 * measured on bluestore by t_ec_used). */
static void test_rados_object_padding(void **state)
{
	json_t *r = result("write", 4096, 0, 0);

	(void)state;
	json_object_set_new(r, "path", json_string("rados"));
	assert_non_null(strstr(texts(r, "ec"),
	                       "padded to whole stripes of 8K, so it stores 8K plus 1 "
	                       "parity chunks: 3.00 raw bytes per byte written"));
	r = result("write", 65536, 0, 0);
	json_object_set_new(r, "path", json_string("rados"));
	assert_non_null(strstr(texts(r, "ec"), "full stripes of 8K, no read before the write"));
	r = result("write", 12288, 0, 0);
	json_object_set_new(r, "path", json_string("rados"));
	assert_non_null(strstr(texts(r, "ec"), "16K plus 1 parity chunks: 2.00 raw bytes"));
}

static void test_small_read(void **state)
{
	(void)state;
	assert_non_null(strstr(texts(result("rand", 4096, 0, 0), "ec"), "2 data shards"));
	assert_non_null(strstr(texts(result("rand", 4096, 1, 0), "ec"), "one shard"));
	/* Larger than a chunk: nothing to say of shards. */
	assert_null(strstr(texts(result("rand", 65536, 0, 0), "ec"), "shard"));
}

static void test_degraded(void **state)
{
	char *t = texts(result("seq", 65536, 0, 8), "ec");

	(void)state;
	assert_non_null(strstr(t, "8 PGs degraded at the start"));
	assert_non_null(strstr(t, "degraded reads"));
	assert_null(strstr(texts(result("seq", 65536, 0, 0), "ec"), "degraded"));
}

static void test_replicated_says_nothing(void **state)
{
	json_t *r = result("randwrite", 4096, 0, 0);

	(void)state;
	json_object_del(json_object_get(json_object_get(r, "pools"), "data"), "erasure");
	assert_string_equal(texts(r, "ec"), "");
}

static void test_space(void **state)
{
	json_t *r = result("write", 8192, 0, 0);

	(void)state;
	json_object_set_new(r, "space",
	                    json_pack("{s:s, s:I, s:I, s:f, s:f, s:s, s:b}", "pool", "ec21",
	                              "bytes_written", (json_int_t)1 << 20, "stored_delta",
	                              (json_int_t)1 << 20, "amplification", 1.5, "raw_per_stored",
	                              1.5, "amplification_of", "used", "reliable", 1));
	assert_non_null(strstr(texts(r, "space"), "1.50 raw bytes per byte stored"));
	r = result("write", 8192, 0, 0);
	json_object_set_new(r, "space",
	                    json_pack("{s:s, s:b, s:s}", "pool", "ec21", "reliable", 0, "why",
	                              "another client wrote beside it"));
	assert_non_null(strstr(texts(r, "space"), "not reliable: another client"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_partial_stripe_write),
	    cmocka_unit_test(test_rados_object_padding),
	    cmocka_unit_test(test_small_read),
	    cmocka_unit_test(test_degraded),
	    cmocka_unit_test(test_replicated_says_nothing),
	    cmocka_unit_test(test_space),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
