/*
 * Unit tests for src/cluster/pool_info.c: a pool's description from the
 * mon's `osd dump` and EC profile replies (as Pacific 16.2.15 gave them on
 * the throwaway cluster: a replicated "rbd" pool and a 2+1 jerasure pool
 * with overwrites), bounds on a crafted reply, `df detail` figures, and
 * the space a write cost.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/pool_info.h"

static json_t *dump(void)
{
	return json_pack("{s:[{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:s, s:i, s:{s:{}}},"
	                 "{s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:s, s:i, s:{s:{}}}]}",
	                 "pools", "pool", 1, "pool_name", "rbd", "flags_names",
	                 "hashpspool,selfmanaged_snaps", "type", 1, "size", 3, "min_size", 2,
	                 "pg_num", 32, "erasure_code_profile", "", "stripe_width", 0,
	                 "application_metadata", "rbd", "pool", 3, "pool_name", "ec21",
	                 "flags_names", "hashpspool,ec_overwrites", "type", 3, "size", 3,
	                 "min_size", 2, "pg_num", 8, "erasure_code_profile", "ecp21",
	                 "stripe_width", 8192, "application_metadata", "rbd");
}

static json_t *profile(void)
{
	return json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "crush-failure-domain", "osd", "k", "2",
	                 "m", "1", "plugin", "jerasure", "technique", "reed_sol_van", "w", "8");
}

static void test_replicated(void **state)
{
	json_t *d = dump(), *p = ccb_pool_describe_parse(d, "rbd", NULL, -1);

	(void)state;
	assert_non_null(p);
	assert_string_equal(json_string_value(json_object_get(p, "type")), "replicated");
	assert_int_equal(json_integer_value(json_object_get(p, "size")), 3);
	assert_int_equal(json_integer_value(json_object_get(p, "min_size")), 2);
	assert_int_equal(json_integer_value(json_object_get(p, "pg_num")), 32);
	assert_string_equal(json_string_value(json_array_get(json_object_get(p, "application"), 0)),
	                    "rbd");
	assert_null(json_object_get(p, "erasure"));
	assert_null(ccb_pool_describe_parse(d, "nope", NULL, -1));
	json_decref(p);
	json_decref(d);
}

static void test_erasure(void **state)
{
	json_t *d = dump(), *pr = profile(), *p = ccb_pool_describe_parse(d, "ec21", pr, -1), *e;

	(void)state;
	assert_non_null(p);
	e = json_object_get(p, "erasure");
	assert_string_equal(json_string_value(json_object_get(p, "type")), "erasure");
	assert_int_equal(json_integer_value(json_object_get(e, "k")), 2);
	assert_int_equal(json_integer_value(json_object_get(e, "m")), 1);
	assert_string_equal(json_string_value(json_object_get(e, "plugin")), "jerasure");
	assert_string_equal(json_string_value(json_object_get(e, "technique")), "reed_sol_van");
	assert_string_equal(json_string_value(json_object_get(e, "crush_failure_domain")), "osd");
	assert_int_equal(json_integer_value(json_object_get(e, "stripe_unit")), 4096);
	assert_true(json_is_true(json_object_get(e, "allow_ec_overwrites")));
	/* Pacific: the variable does not exist. */
	assert_string_equal(json_string_value(json_object_get(e, "allow_ec_optimizations")),
	                    CCB_POOL_NO_FASTEC);
	json_decref(p);
	/* Tentacle, FastEC on. */
	p = ccb_pool_describe_parse(d, "ec21", pr, 1);
	assert_true(
	    json_is_true(json_object_get(json_object_get(p, "erasure"), "allow_ec_optimizations")));
	json_decref(p);
	json_decref(pr);
	json_decref(d);
}

/* A crafted reply: k out of range, a huge size, a non-integer pg_num. */
static void test_bounds(void **state)
{
	json_t *d = dump(), *pr = profile(), *p,
	       *pool = json_array_get(json_object_get(d, "pools"), 1);

	(void)state;
	json_object_set_new(pr, "k", json_string("99999"));
	json_object_set_new(pr, "m", json_string("1x"));
	json_object_set_new(pool, "size", json_integer(1000));
	json_object_set_new(pool, "pg_num", json_string("32"));
	p = ccb_pool_describe_parse(d, "ec21", pr, 0);
	assert_non_null(p);
	assert_null(json_object_get(json_object_get(p, "erasure"), "k"));
	assert_null(json_object_get(json_object_get(p, "erasure"), "m"));
	assert_null(json_object_get(json_object_get(p, "erasure"), "stripe_unit"));
	assert_int_equal(json_integer_value(json_object_get(p, "size")), -1);
	assert_int_equal(json_integer_value(json_object_get(p, "pg_num")), -1);
	json_decref(p);
	json_decref(pr);
	json_decref(d);
}

static json_t *df(json_int_t stored, json_int_t used, double raw, json_int_t objects)
{
	return json_pack("{s:[{s:s, s:{s:I, s:I, s:f, s:I}}]}", "pools", "name", "ec21", "stats",
	                 "stored", stored, "bytes_used", used, "stored_raw", raw, "objects",
	                 objects);
}

static void test_df(void **state)
{
	json_t *a = df(100, 150, 150, 2), *f = ccb_pool_df_parse(a, "ec21");

	(void)state;
	assert_non_null(f);
	assert_int_equal(json_integer_value(json_object_get(f, "used")), 150);
	assert_null(ccb_pool_df_parse(a, "rbd"));
	json_decref(f);
	json_decref(a);
	a = df(-1, 150, 150, 2);
	assert_null(ccb_pool_df_parse(a, "ec21"));
	json_decref(a);
}

static json_t *figs(json_int_t stored, json_int_t used, json_int_t raw, json_int_t objects)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "stored", stored, "used", used, "stored_raw", raw,
	                 "objects", objects);
}

static void test_space(void **state)
{
	const uint64_t M = 1 << 20;
	json_t *b = figs(0, 0, 0, 0), *a = figs(64 * M, 96 * M, 96 * M, 16), *s;

	(void)state;
	/* Per-pool usage (bluestore): USED is measured. */
	s = ccb_pool_space("ec21", b, a, 64 * M, 64 * M + 65536, 20);
	assert_float_equal(json_real_value(json_object_get(s, "amplification")), 1.5, 1e-9);
	assert_string_equal(json_string_value(json_object_get(s, "amplification_of")), "used");
	assert_true(json_is_true(json_object_get(s, "reliable")));
	json_decref(s);
	json_decref(a);
	/* Memstore: USED is STORED, the raw figure is the mon's arithmetic. */
	a = figs(64 * M, 64 * M, 192 * M, 16);
	s = ccb_pool_space("r3", b, a, 64 * M, 64 * M + 65536, 20);
	assert_float_equal(json_real_value(json_object_get(s, "amplification")), 3.0, 1e-9);
	assert_string_equal(json_string_value(json_object_get(s, "amplification_of")),
	                    "stored_raw");
	json_decref(s);
	/* Another client's objects: more than the run could have made. */
	s = ccb_pool_space("r3", b, a, 64 * M, 64 * M + 65536, 10);
	assert_true(json_is_false(json_object_get(s, "reliable")));
	assert_non_null(strstr(json_string_value(json_object_get(s, "why")), "16 objects"));
	json_decref(s);
	/* Another client's bytes. */
	s = ccb_pool_space("r3", b, a, 32 * M, 32 * M + 65536, 20);
	assert_true(json_is_false(json_object_get(s, "reliable")));
	json_decref(s);
	json_decref(a);
	/* Someone removed objects during the run. */
	a = figs(0, 0, 0, 0);
	json_decref(b);
	b = figs(M, M, M, 3);
	s = ccb_pool_space("r3", b, a, M, 2 * M, 20);
	assert_true(json_is_false(json_object_get(s, "reliable")));
	json_decref(s);
	assert_null(ccb_pool_space("r3", NULL, a, M, M, 1));
	json_decref(a);
	json_decref(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_replicated), cmocka_unit_test(test_erasure),
	    cmocka_unit_test(test_bounds),     cmocka_unit_test(test_df),
	    cmocka_unit_test(test_space),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
