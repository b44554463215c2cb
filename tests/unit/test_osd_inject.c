/* Unit tests for the pure parts of src/osd_inject.c: which clusters
 * --osd-latency may touch, and which crash records restore acts on. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/osd_inject.h"

#define FSID "851b3071-421f-462f-9581-928bca62601d"

static void test_loopback(void **state)
{
	(void)state;
	assert_true(ccb_host_is_loopback("127.0.0.1"));
	assert_true(ccb_host_is_loopback("127.1.2.3"));
	assert_true(ccb_host_is_loopback("::1"));
	assert_true(ccb_host_is_loopback("::ffff:127.0.0.1"));
	assert_false(ccb_host_is_loopback("10.0.2.15"));
	assert_false(ccb_host_is_loopback("128.0.0.1"));
	assert_false(ccb_host_is_loopback("::ffff:10.0.0.1"));
	assert_false(ccb_host_is_loopback("fe80::1"));
	assert_false(ccb_host_is_loopback("localhost")); /* maps hold addresses, not names */
	assert_false(ccb_host_is_loopback(""));
	assert_false(ccb_host_is_loopback(NULL));
}

static void test_policy(void **state)
{
	json_t *local = json_pack("[s, s]", "127.0.0.1", "::1");
	json_t *remote = json_pack("[s, s]", "127.0.0.1", "10.1.2.3");
	json_t *none = json_array();
	char why[512];

	(void)state;
	/* A throwaway cluster on this host: allowed as it is. */
	assert_int_equal(ccb_osd_inject_policy(local, FSID, NULL, why, sizeof(why)), 0);
	/* One daemon beyond this host: refused, and the message says how to allow it. */
	assert_int_equal(ccb_osd_inject_policy(remote, FSID, NULL, why, sizeof(why)), -EPERM);
	assert_non_null(strstr(why, "10.1.2.3"));
	assert_non_null(strstr(why, "--osd-latency-cluster " FSID));
	/* No address known: refused too (nothing says it is a throwaway one). */
	assert_int_equal(ccb_osd_inject_policy(none, FSID, NULL, why, sizeof(why)), -EPERM);
	/* Named by its fsid (any case): allowed anywhere. */
	assert_int_equal(ccb_osd_inject_policy(remote, FSID, FSID, why, sizeof(why)), 0);
	assert_int_equal(ccb_osd_inject_policy(remote, FSID, "851B3071-421F-462F-9581-928BCA62601D",
	                                       why, sizeof(why)),
	                 0);
	/* Another cluster's fsid: refused, even on a loopback cluster. */
	assert_int_equal(ccb_osd_inject_policy(local, FSID, "00000000-0000-0000-0000-000000000000",
	                                       why, sizeof(why)),
	                 -EPERM);
	assert_non_null(strstr(why, "this cluster is " FSID));
	json_decref(local);
	json_decref(remote);
	json_decref(none);
}

/* A record as ccb_osd_inject_start() writes it. */
static json_t *good_record(void)
{
	return json_pack(
	    "{s:s, s:s, s:{s:s, s:s, s:s}, s:[{s:i, s:i, s:{s:n, s:n, s:n}, s:{s:s, s:s, s:s}}], "
	    "s:s, s:n, s:s, s:i}",
	    "kind", "osd_inject", "fsid", FSID, "set", "ms_inject_delay_max", "0.100000",
	    "ms_inject_delay_type", "client", "ms_inject_delay_probability", "1", "osds", "id", 0,
	    "up_from", 9, "before", "ms_inject_delay_max", "ms_inject_delay_type",
	    "ms_inject_delay_probability", "was", "ms_inject_delay_max", "1.000000",
	    "ms_inject_delay_type", "", "ms_inject_delay_probability", "0.000000", "entity",
	    "client.admin", "keyring", "conf", "/tmp/c/ceph.conf", "osd_us", 50000);
}

static void expect_invalid(json_t *rec, const char *want)
{
	char why[512];

	assert_int_equal(ccb_osd_inject_check_record(rec, why, sizeof(why)), -EINVAL);
	if (!strstr(why, want))
		fail_msg("'%s' lacks '%s'", why, want);
	assert_non_null(strstr(why, "nothing touched"));
	json_decref(rec);
}

static void test_record(void **state)
{
	json_t *r = good_record(), *o;
	char why[512];

	(void)state;
	assert_int_equal(ccb_osd_inject_check_record(r, why, sizeof(why)), 0);
	json_decref(r);
	/* Earlier values that were overrides are strings. */
	r = good_record();
	o = json_array_get(json_object_get(r, "osds"), 0);
	json_object_set_new(json_object_get(o, "before"), "ms_inject_delay_type",
	                    json_string("osd"));
	assert_int_equal(ccb_osd_inject_check_record(r, why, sizeof(why)), 0);
	json_decref(r);

	r = good_record();
	json_object_set_new(r, "kind", json_string("loop"));
	expect_invalid(r, "kind");
	r = good_record();
	json_object_set_new(r, "fsid", json_string("../../etc"));
	expect_invalid(r, "fsid");
	/* Only what start() sets is ever undone: type client, a bounded delay, 1. */
	r = good_record();
	json_object_set_new(json_object_get(r, "set"), "ms_inject_delay_type", json_string("mon"));
	expect_invalid(r, "ms_inject_delay_type");
	r = good_record();
	json_object_set_new(json_object_get(r, "set"), "ms_inject_delay_max", json_string("1e9"));
	expect_invalid(r, "ms_inject_delay_max");
	r = good_record();
	json_object_set_new(json_object_get(r, "set"), "ms_inject_delay_max", json_string("0.1x"));
	expect_invalid(r, "ms_inject_delay_max");
	r = good_record();
	json_object_set_new(json_object_get(r, "set"), "ms_inject_delay_probability",
	                    json_string("0.5"));
	expect_invalid(r, "probability");
	r = good_record();
	json_object_set_new(r, "osds", json_array());
	expect_invalid(r, "osds");
	r = good_record();
	o = json_array_get(json_object_get(r, "osds"), 0);
	json_object_set_new(o, "id", json_integer(-1));
	expect_invalid(r, "id");
	r = good_record();
	o = json_array_get(json_object_get(r, "osds"), 0);
	json_object_del(json_object_get(o, "before"), "ms_inject_delay_max");
	expect_invalid(r, "earlier values");
	r = good_record();
	o = json_array_get(json_object_get(r, "osds"), 0);
	json_object_set_new(json_object_get(o, "was"), "ms_inject_delay_max", json_integer(1));
	expect_invalid(r, "earlier value");
	r = good_record();
	o = json_array_get(json_object_get(r, "osds"), 0);
	json_object_set_new(json_object_get(o, "before"), "ms_inject_delay_type",
	                    json_string("a\nb"));
	expect_invalid(r, "earlier value");
	r = good_record();
	json_object_set_new(r, "conf", json_string("relative/ceph.conf"));
	expect_invalid(r, "conf");
	r = good_record();
	json_object_set_new(r, "entity", json_string("admin"));
	expect_invalid(r, "entity");
	r = good_record();
	json_object_set_new(r, "entity", json_string("client.a;rm -rf"));
	expect_invalid(r, "entity");
	expect_invalid(json_string("x"), "kind");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loopback),
	    cmocka_unit_test(test_policy),
	    cmocka_unit_test(test_record),
	};
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
