/*
 * Unit tests for src/cluster/pg_map.c: object -> PG -> acting primary on
 * PG maps recorded from real clusters of each release
 * (tests/unit/data/attr/REL/, made by tests/unit/data/record_attr.sh):
 * for every object name `ceph osd map` was asked about (rados path names
 * in namespace "ccbench", rbd data object names, plain names; pools of 8,
 * 12 and 32 PGs), the hash must be the raw seed the cluster printed, the
 * PG its PG, and the primary read from `pg dump pgs_brief` its acting
 * primary. Then the mon's `pg map` reply, moved PGs, and bad replies.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ccbench/pg_map.h"
#include "attr_data.h"

/* Every pool the recorded answers name, from the recorded osd dump. */
static void map_of(const char *rel, struct ccb_pg_map *map, bool with_pgs)
{
	json_t *dump = load(rel, "osd_dump_pools.json"), *p;
	size_t i;

	json_array_foreach(json_object_get(dump, "pools"), i, p) assert_int_equal(
	    ccb_pg_map_add_pool(map, dump, json_integer_value(json_object_get(p, "pool"))), 0);
	json_decref(dump);
	if (with_pgs) {
		json_t *brief = load(rel, "pgs_brief.json");
		assert_int_equal(ccb_pg_map_parse_brief(map, brief), 0);
		assert_int_equal(map->missing, 0);
		json_decref(brief);
	}
}

static void test_hash_known(void **state)
{
	(void)state;
	/* `ceph osd map rbd foo` on Pacific: pg 1.7fc1f406; in namespace ns1: 1.f4569544. */
	assert_int_equal(ccb_object_hash(CCB_STR_HASH_RJENKINS, NULL, "foo"), 0x7fc1f406u);
	assert_int_equal(ccb_object_hash(CCB_STR_HASH_RJENKINS, "", "foo"), 0x7fc1f406u);
	assert_int_equal(ccb_object_hash(CCB_STR_HASH_RJENKINS, "ns1", "foo"), 0xf4569544u);
	assert_int_equal(
	    ccb_object_hash(CCB_STR_HASH_RJENKINS, NULL, "rbd_data.abc.0000000000000001"),
	    0x3601b467u);
}

static void test_stable_mod(void **state)
{
	(void)state;
	assert_int_equal(ccb_pg_num_mask(1), 0);
	assert_int_equal(ccb_pg_num_mask(8), 7);
	assert_int_equal(ccb_pg_num_mask(12), 15);
	assert_int_equal(ccb_pg_num_mask(32), 31);
	assert_int_equal(ccb_pg_num_mask(33), 63);
	/* 12 PGs: seeds 12..15 fold onto 4..7, the halves not yet split. */
	assert_int_equal(ccb_stable_mod(11, 12, 15), 11);
	assert_int_equal(ccb_stable_mod(13, 12, 15), 5);
	assert_int_equal(ccb_stable_mod(0xfffffffeu, 12, 15), 6);
	assert_int_equal(ccb_stable_mod(0x12345678u, 1, 0), 0);
}

/* Each release's answers of `ceph osd map`, re-derived. */
static void test_recorded(void **state)
{
	int releases_seen = 0;

	(void)state;
	for (size_t r = 0; r < N_RELEASES; r++) {
		char dir[512];
		struct ccb_pg_map map = {0};
		json_t *answers, *a;
		size_t i, checked = 0;
		FILE *f;

		snprintf(dir, sizeof(dir), "%s/tests/unit/data/attr/%s/osd_map.json",
		         CCB_TEST_SOURCE_DIR, releases[r]);
		f = fopen(dir, "r");
		if (!f)
			continue;
		fclose(f);
		releases_seen++;
		map_of(releases[r], &map, true);
		answers = load(releases[r], "osd_map.json");
		json_array_foreach(answers, i, a)
		{
			const char *obj = json_string_value(json_object_get(a, "objname"));
			const char *raw = json_string_value(json_object_get(a, "raw_pgid"));
			const char *pgid = json_string_value(json_object_get(a, "pgid"));
			int64_t pool_id = json_integer_value(json_object_get(a, "pool_id"));
			const struct ccb_pg_pool *p = ccb_pg_map_pool(&map, pool_id);
			char ns[64] = "", got[32];
			const char *name = obj, *slash = strchr(obj, '/');
			uint32_t pg;
			int32_t primary;

			assert_non_null(p);
			/* osd map prints an object in a namespace as NS/NAME. */
			if (slash && strncmp(obj, "ccbench/", 8) == 0) {
				snprintf(ns, sizeof(ns), "%.*s", (int)(slash - obj), obj);
				name = slash + 1;
			}
			snprintf(got, sizeof(got), "%" PRId64 ".%" PRIx32, pool_id,
			         ccb_object_hash(p->object_hash, ns, name));
			if (strcmp(got, raw) != 0)
				fail_msg("%s: %s: hash %s, the cluster said %s", releases[r], obj,
				         got, raw);
			primary = ccb_pg_map_locate(p, ns, name, &pg);
			snprintf(got, sizeof(got), "%" PRId64 ".%" PRIx32, pool_id, pg);
			if (strcmp(got, pgid) != 0)
				fail_msg("%s: %s: pg %s, the cluster said %s", releases[r], obj,
				         got, pgid);
			if (primary != json_integer_value(json_object_get(a, "acting_primary")))
				fail_msg(
				    "%s: %s: primary osd.%d, the cluster said osd.%d", releases[r],
				    obj, primary,
				    (int)json_integer_value(json_object_get(a, "acting_primary")));
			checked++;
		}
		assert_true(checked >= 100);
		json_decref(answers);
		ccb_pg_map_free(&map);
	}
	/* The host's release is always recorded. */
	assert_true(releases_seen >= 1);
}

static void test_pg_map_reply(void **state)
{
	struct ccb_pg_map map = {0};
	json_t *one = load("pacific", "pg_map_one.json");
	json_t *bad = json_pack("{s:s, s:[i]}", "pgid", "3.zz", "acting", 1);
	json_t *big = json_pack("{s:s, s:[i]}", "pgid", "3.0", "acting", 99999999);
	const struct ccb_pg_pool *p;

	(void)state;
	map_of("pacific", &map, false);
	p = ccb_pg_map_pool(&map, 3);
	assert_non_null(p);
	assert_int_equal(p->primary[0], -1);
	/* Pacific's pg map has no acting_primary: the first of acting. */
	assert_int_equal(ccb_pg_map_parse_pg_map(&map, one), 0);
	assert_int_equal(p->primary[0],
	                 json_integer_value(json_array_get(json_object_get(one, "acting"), 0)));
	{
		size_t total = 0;
		for (size_t i = 0; i < map.n_pools; i++)
			total += map.pools[i].pg_num;
		assert_int_equal(map.missing, total - 1);
	}
	assert_int_equal(ccb_pg_map_parse_pg_map(&map, bad), -EBADMSG);
	assert_int_equal(ccb_pg_map_parse_pg_map(&map, big), -EBADMSG);
	json_decref(one);
	json_decref(bad);
	json_decref(big);
	ccb_pg_map_free(&map);
}

static void test_moved(void **state)
{
	struct ccb_pg_map a = {0}, b = {0};
	json_t *brief = load("pacific", "pgs_brief.json"), *moved;
	struct ccb_pg_pool *p;
	size_t n;

	(void)state;
	map_of("pacific", &a, true);
	assert_int_equal(ccb_pg_map_clone_pools(&a, &b), 0);
	assert_int_equal(ccb_pg_map_parse_brief(&b, brief), 0);
	moved = ccb_pg_map_moved(&a, &b, 10, &n);
	assert_int_equal(n, 0);
	assert_int_equal(json_array_size(moved), 0);
	json_decref(moved);
	/* One PG's primary changes, another's acting set grows. */
	p = &b.pools[0];
	p->primary[1] = p->primary[1] + 1;
	p->acting[2 * CCB_PG_ACTING_MAX + 3] = 7;
	moved = ccb_pg_map_moved(&a, &b, 1, &n);
	assert_int_equal(n, 2);
	assert_int_equal(json_array_size(moved), 1);
	assert_non_null(json_object_get(json_array_get(moved, 0), "before"));
	json_decref(moved);
	json_decref(brief);
	ccb_pg_map_free(&a);
	ccb_pg_map_free(&b);
}

static void test_bad_replies(void **state)
{
	struct ccb_pg_map map = {0};
	json_t *d = json_pack("{s:[{s:i, s:s, s:i, s:i, s:i}]}", "pools", "pool", 7, "pool_name",
	                      "x", "pg_num", 0, "object_hash", 2, "size", 3);
	json_t *h = json_pack("{s:[{s:i, s:s, s:i, s:i, s:i}]}", "pools", "pool", 7, "pool_name",
	                      "x", "pg_num", 8, "object_hash", 9, "size", 3);
	json_t *list = json_pack("{s:[{s:s, s:[i,i], s:i}, {s:s, s:s}, {s:i}]}", "pg_stats", "pgid",
	                         "7.3", "acting", 1, 2, "acting_primary", 2, "pgid", "7.x",
	                         "acting", "no", "pgid", 5);
	json_t *ok = json_pack("{s:[{s:i, s:s, s:i, s:i, s:i}]}", "pools", "pool", 7, "pool_name",
	                       "x", "pg_num", 8, "object_hash", 2, "size", 3);

	(void)state;
	assert_int_equal(ccb_pg_map_add_pool(&map, d, 7), -EBADMSG);
	assert_int_equal(ccb_pg_map_add_pool(&map, h, 7), -EBADMSG);
	assert_int_equal(ccb_pg_map_add_pool(&map, ok, 8), -ENOENT);
	assert_int_equal(ccb_pg_map_add_pool(&map, ok, 7), 0);
	assert_int_equal(ccb_pg_map_add_pool(&map, ok, 7), 0);
	assert_int_equal(map.n_pools, 1);
	assert_int_equal(ccb_pg_map_parse_brief(&map, ok), -EBADMSG);
	assert_int_equal(ccb_pg_map_parse_brief(&map, list), 0);
	assert_int_equal(map.pools[0].primary[3], 2);
	assert_int_equal(map.missing, 7);
	json_decref(d);
	json_decref(h);
	json_decref(list);
	json_decref(ok);
	ccb_pg_map_free(&map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_hash_known), cmocka_unit_test(test_stable_mod),
	    cmocka_unit_test(test_recorded),   cmocka_unit_test(test_pg_map_reply),
	    cmocka_unit_test(test_moved),      cmocka_unit_test(test_bad_replies),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
