/*
 * Unit tests for src/release.c: version strings as each release's daemons
 * and libraries print them, the cluster side from a mon's "versions"
 * reply, summaries over many results, and how two documents' releases
 * compare (compare's gate).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/release.h"

/* The daemons' strings, as `ceph versions` printed them on each release. */
#define PACIFIC "ceph version 16.2.15 (618f440892089921c3e944a991122ddc44e60516) pacific (stable)"
#define REEF    "ceph version 18.2.7 (6b0e988052ec84cf2d4a54ff9bbbc5e720b621ad) reef (stable)"
#define TENTACLE                                                                                   \
	"ceph version 20.2.4 (7f793731f1b39eb4f465e960113d2363c311b964) tentacle "                 \
	"(stable - RelWithDebInfo)"

static void expect_parse(const char *text, int major, const char *version, const char *name)
{
	char v[64], n[32];
	int r = ccb_release_parse(text, v, sizeof(v), n, sizeof(n));

	if (r != major || strcmp(v, version) != 0 || strcmp(n, name) != 0)
		fail_msg("parse '%s': %d '%s' '%s', want %d '%s' '%s'", text, r, v, n, major,
		         version, name);
}

static void test_parse(void **state)
{
	(void)state;
	expect_parse(PACIFIC, 16, "16.2.15", "pacific");
	expect_parse(REEF, 18, "18.2.7", "reef");
	expect_parse(TENTACLE, 20, "20.2.4", "tentacle");
	/* libcephfs' ceph_version(): the bare number. */
	expect_parse("17.2.8", 17, "17.2.8", "quincy");
	expect_parse("19.2.1", 19, "19.2.1", "squid");
	expect_parse("21.0.0", 21, "21.0.0", "umbrella");
	/* A development build: its tag, and the name the text gives. */
	expect_parse("ceph version 20.3.0-1234-gabcdef01 (abcdef01) tentacle (dev)", 20,
	             "20.3.0-1234-gabcdef01", "tentacle");
	expect_parse("ceph version Development (no_version) squid (dev)", -EINVAL, "Development",
	             "squid");
	/* A release past the table names itself. */
	expect_parse("ceph version 22.1.0 (0123) vnext (dev)", 22, "22.1.0", "vnext");
	expect_parse("", -EINVAL, "", "unknown");
	expect_parse(NULL, -EINVAL, "", "unknown");
	expect_parse("garbage", -EINVAL, "", "unknown");
	assert_string_equal(ccb_release_name(16), "pacific");
	assert_null(ccb_release_name(99));
	assert_null(ccb_release_name(-1));
}

/* The libraries this test runs with: their runtime versions. */
static void test_client(void **state)
{
	json_t *c = ccb_release_client();
	const char *v;
	char ver[64], name[32];

	(void)state;
	assert_non_null(c);
	v = json_string_value(json_object_get(c, "ceph_version"));
	assert_non_null(v);
	/* Whatever the release, a number the table names. */
	assert_true(ccb_release_parse(v, ver, sizeof(ver), name, sizeof(name)) >= 16);
	assert_string_equal(json_string_value(json_object_get(c, "release")), name);
	assert_string_equal(json_string_value(json_object_get(c, "libcephfs")), v);
	assert_non_null(strchr(json_string_value(json_object_get(c, "librados")), '.'));
	assert_non_null(strchr(json_string_value(json_object_get(c, "librbd")), '.'));
	assert_non_null(json_string_value(json_object_get(c, "kernel")));
	json_decref(c);
}

static json_t *versions(const char *mon, const char *osd, int osds)
{
	return json_pack("{s:{s:i}, s:{s:i}, s:{}, s:{s:i}}", "mon", mon, 1, "osd", osd, osds,
	                 "mds", "overall", osd, osds + 1);
}

static void test_cluster(void **state)
{
	json_t *v, *c;

	(void)state;
	v = versions(REEF, REEF, 3);
	c = ccb_release_cluster_parse(v);
	assert_string_equal(json_string_value(json_object_get(c, "release")), "reef");
	assert_int_equal(json_array_size(json_object_get(c, "ceph_versions")), 1);
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(c, "ceph_versions"), 0)), "18.2.7");
	/* The reply is kept, as `ceph versions` prints it. */
	assert_true(json_equal(json_object_get(c, "versions"), v));
	json_decref(c);
	json_decref(v);
	/* An upgrade half done: both named, oldest first, whatever the order. */
	v = versions(TENTACLE, PACIFIC, 2);
	c = ccb_release_cluster_parse(v);
	assert_string_equal(json_string_value(json_object_get(c, "release")), "pacific+tentacle");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(c, "ceph_versions"), 0)), "16.2.15");
	json_decref(c);
	json_decref(v);
	/* 16.2.9 before 16.2.15. */
	v = versions("ceph version 16.2.15 (x) pacific (stable)",
	             "ceph version 16.2.9 (y) pacific "
	             "(stable)",
	             1);
	c = ccb_release_cluster_parse(v);
	assert_string_equal(json_string_value(json_object_get(c, "release")), "pacific");
	assert_string_equal(
	    json_string_value(json_array_get(json_object_get(c, "ceph_versions"), 0)), "16.2.9");
	json_decref(c);
	json_decref(v);
	/* No daemon: an error, not a release. */
	v = json_pack("{s:{}, s:{}}", "mon", "overall");
	c = ccb_release_cluster_parse(v);
	assert_non_null(json_object_get(c, "error"));
	assert_null(json_object_get(c, "release"));
	json_decref(c);
	json_decref(v);
}

/* A result's releases: a client of @p client ("18.2.7"), a cluster of @p cluster. */
static json_t *result(const char *client, const char *cluster)
{
	json_t *r = json_object(), *rel = json_object();
	char v[64], n[32];

	if (client) {
		ccb_release_parse(client, v, sizeof(v), n, sizeof(n));
		json_object_set_new(rel, "client",
		                    json_pack("{s:s, s:s, s:s, s:s}", "ceph_version", v, "release",
		                              n, "librados", "3.0.0", "librbd", "1.18.0"));
	}
	if (cluster) {
		json_t *vs = versions(cluster, cluster, 3);
		json_object_set_new(rel, "cluster", ccb_release_cluster_parse(vs));
		json_decref(vs);
	}
	json_object_set_new(r, "releases", rel);
	json_object_set_new(r, "bandwidth_mib_s", json_real(100));
	return r;
}

static enum ccb_release_diff diff(json_t *base, json_t *cur, char *why, size_t len)
{
	json_t *b = ccb_release_of_doc(base), *c = ccb_release_of_doc(cur);
	enum ccb_release_diff d = ccb_release_compare(b, c, why, len);

	json_decref(b);
	json_decref(c);
	json_decref(base);
	json_decref(cur);
	return d;
}

static void test_compare(void **state)
{
	char why[512];

	(void)state;
	assert_int_equal(
	    diff(result("16.2.15", PACIFIC), result("16.2.15", PACIFIC), why, sizeof(why)),
	    CCB_RELEASE_SAME);
	assert_string_equal(why, "");
	/* The cluster upgraded: refused by compare, and said which side. */
	assert_int_equal(
	    diff(result("16.2.15", PACIFIC), result("16.2.15", REEF), why, sizeof(why)),
	    CCB_RELEASE_CHANGED);
	assert_string_equal(why, "cluster: pacific (16.2.15) -> reef (18.2.7)");
	/* The client only. */
	assert_int_equal(diff(result("16.2.15", REEF), result("20.2.4", REEF), why, sizeof(why)),
	                 CCB_RELEASE_CHANGED);
	assert_string_equal(why, "client: pacific (16.2.15) -> tentacle (20.2.4)");
	/* A point release: said, not a change of release. */
	assert_int_equal(diff(result("18.2.4", REEF), result("18.2.7", REEF), why, sizeof(why)),
	                 CCB_RELEASE_VERSIONS);
	assert_string_equal(why, "client: reef (18.2.4) -> reef (18.2.7)");
	/* A change beats a point release. */
	assert_int_equal(diff(result("18.2.4", PACIFIC), result("18.2.7", REEF), why, sizeof(why)),
	                 CCB_RELEASE_CHANGED);
	/* A baseline saved before results named releases: unknown, not different. */
	json_t *old = result(NULL, NULL);
	json_object_del(old, "releases");
	assert_int_equal(diff(old, result("18.2.7", REEF), why, sizeof(why)), CCB_RELEASE_UNKNOWN);
	assert_non_null(strstr(why, "cluster: named in the current only"));
	/* One side known in both (the mon did not answer "versions" once): checked. */
	assert_int_equal(diff(result("18.2.7", NULL), result("18.2.7", REEF), why, sizeof(why)),
	                 CCB_RELEASE_SAME);
	assert_string_equal(why, "cluster: named in the current only");
}

/* A sweep: its runs' releases, together; a group report: its members'. */
static void test_of_doc(void **state)
{
	json_t *sweep, *s, *group, *g;
	char text[256];

	(void)state;
	sweep = json_pack("{s:[{s:[o, o]}, {s:[o, {s:s}]}]}", "points", "runs",
	                  result("18.2.7", PACIFIC), result("18.2.7", PACIFIC), "runs",
	                  result("18.2.7", REEF), "status", "aborted");
	s = ccb_release_of_doc(sweep);
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(s, "cluster"), "release")),
	    "pacific+reef");
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(s, "client"), "release")), "reef");
	ccb_release_text(s, text, sizeof(text));
	assert_string_equal(text, "cluster pacific+reef (16.2.15, 18.2.7), client reef (18.2.7)");
	group = json_pack("{s:[{s:o}, {s:o}, {s:s}]}", "members", "result", result("16.2.15", REEF),
	                  "result", result("20.2.4", REEF), "member", "missing-one");
	g = ccb_release_of_doc(group);
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(g, "client"), "release")),
	    "pacific+tentacle");
	/* A result's own, with the libraries. */
	json_t *r = result("18.2.7", REEF);
	ccb_release_text(json_object_get(r, "releases"), text, sizeof(text));
	assert_string_equal(
	    text, "cluster reef (18.2.7), client reef (18.2.7: librados 3.0.0, librbd 1.18.0)");
	/* Nothing named: nothing said. */
	json_object_del(r, "releases");
	json_decref(s);
	s = ccb_release_of_doc(r);
	assert_int_equal(json_object_size(s), 0);
	ccb_release_text(s, text, sizeof(text));
	assert_string_equal(text, "");
	json_decref(r);
	json_decref(s);
	json_decref(g);
	json_decref(sweep);
	json_decref(group);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse),   cmocka_unit_test(test_client),
	    cmocka_unit_test(test_cluster), cmocka_unit_test(test_compare),
	    cmocka_unit_test(test_of_doc),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
