/*
 * Unit tests for src/explain.c: each kind on constructed result documents,
 * each threshold from both sides of its edge.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/cluster_sched.h"
#include "ccbench/cluster_state.h"
#include "ccbench/explain.h"
#include "ccbench/sweep.h"

static json_t *all_of(json_t *r, const char *kind);

/* A plain finished run: 1 x 1 in flight, 64K ops, 2 ms mean. */
static json_t *base(void)
{
	return json_pack("{s:s, s:s, s:i, s:i, s:I, s:I, s:f, s:f, s:{s:I}, s:{s:f}, s:{}, s:[]}",
	                 "command", "rbd read", "mode", "seq", "clients_n", 1, "queue_depth", 1,
	                 "ops", (json_int_t)1000, "bytes", (json_int_t)1000 * 65536, "seconds", 2.0,
	                 "bandwidth_mib_s", 0.0, "parameters", "io-size", (json_int_t)65536,
	                 "latency_us", "mean", 2000.0, "layout", "warnings");
}

/* The entry of @p kind in ccb_explain(@p r), or NULL; @p r is released. */
static json_t *kind_of(json_t *r, const char *kind, const struct ccb_explain_ctx *ctx)
{
	json_t *ex = ccb_explain(r, ctx), *e, *found = NULL;
	size_t i;

	assert_non_null(ex);
	json_array_foreach(ex, i,
	                   e) if (!found && strcmp(json_string_value(json_object_get(e, "kind")),
	                                           kind) == 0) found = json_incref(e);
	json_decref(ex);
	json_decref(r);
	return found;
}

static const char *sev(const json_t *e)
{
	return json_string_value(json_object_get(e, "severity"));
}

static const char *text(const json_t *e)
{
	return json_string_value(json_object_get(e, "text"));
}

/* 1 x 64K / 2 ms. */
#define BOUND (65536.0 / 0.002 / 1048576.0)

static json_t *little(double share)
{
	json_t *r = base();
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND * share));
	return kind_of(r, "littles-law", NULL);
}

static void test_littles_law(void **state)
{
	json_t *e;
	(void)state;

	e = little(0.851);
	assert_non_null(e);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "latency-bound: 1 in flight × 64K ÷ 2.000 ms = 31.2"));
	assert_non_null(strstr(text(e), "raise -t"));
	assert_true(
	    fabs(json_real_value(json_object_get(json_object_get(e, "figures"), "bound_mib_s")) -
	         BOUND) < 1e-6);
	json_decref(e);
	assert_null(little(0.849)); /* between: nothing said */
	e = little(1.149);
	assert_string_equal(sev(e), "info");
	json_decref(e);
	assert_null(little(1.151));
	assert_null(little(0.501));
	/* Below half the bound with every op in flight (1000 ops x 2 ms in
	 * 2 s) and ops of the size asked: both partly short, said as such. */
	e = little(0.499);
	assert_non_null(e);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "1.0 in flight on average (100 %) with ops of 64K"));
	json_decref(e);
	/* Clients and depth multiply; the asked size is rados's op-size too. */
	json_t *r = base();
	json_object_set_new(r, "clients_n", json_integer(2));
	json_object_set_new(r, "queue_depth", json_integer(8));
	json_object_set_new(r, "parameters", json_pack("{s:I}", "op-size", (json_int_t)4 << 20));
	json_object_set_new(r, "bandwidth_mib_s", json_real(16 * 4 / 0.002 * 0.9));
	e = kind_of(r, "littles-law", NULL);
	assert_non_null(strstr(text(e), "16 in flight × 4M"));
	json_decref(e);
	/* krbd's buffered reads: more streams, not -t. */
	r = base();
	json_object_set_new(r, "path", json_string("krbd"));
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND));
	e = kind_of(r, "littles-law", NULL);
	assert_non_null(strstr(text(e), "add --streams or raise --read-ahead-kb"));
	json_decref(e);
	/* ... and so is --direct's, in a result saved before the layout said it. */
	r = base();
	json_object_set_new(r, "path", json_string("krbd"));
	json_object_set_new(json_object_get(r, "layout"), "direct", json_true());
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND));
	e = kind_of(r, "littles-law", NULL);
	assert_non_null(strstr(text(e), "; raise -t or --streams to go faster"));
	json_decref(e);
	/* The path's own word in the layout wins over the path's name. */
	r = base();
	json_object_set_new(r, "path", json_string("krbd"));
	json_object_set_new(json_object_get(r, "layout"), "more_in_flight",
	                    json_string("open more lanes"));
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND));
	e = kind_of(r, "littles-law", NULL);
	assert_non_null(strstr(text(e), "; open more lanes to go faster"));
	json_decref(e);
	/* The common op_bytes wins over the option as given (a rados read
	 * reads with its write run's ops, whatever -b says). */
	r = base();
	json_object_set_new(r, "op_bytes", json_integer((json_int_t)4 << 20));
	json_object_set_new(r, "bytes", json_integer((json_int_t)1000 * (4 << 20)));
	json_object_set_new(r, "bandwidth_mib_s", json_real(4 / 0.002));
	e = kind_of(r, "littles-law", NULL);
	assert_non_null(e);
	assert_non_null(strstr(text(e), "latency-bound: 1 in flight × 4M ÷ 2.000 ms = 2000.0"));
	json_decref(e);
	/* Without a size parameter: bytes / ops. */
	r = base();
	json_object_set_new(r, "parameters", json_object());
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND));
	e = kind_of(r, "littles-law", NULL);
	assert_string_equal(sev(e), "info");
	json_decref(e);
	/* fs meta (phases) and a run without ops say nothing. */
	r = base();
	json_object_set_new(r, "phases", json_array());
	assert_null(kind_of(r, "littles-law", NULL));
	r = base();
	json_object_set_new(r, "ops", json_integer(0));
	assert_null(kind_of(r, "littles-law", NULL));
}

/* 1 in flight asked; @p ops of 64K at 2 ms mean (slowest @p max_ms) in
 * @p secs: the measured mean in flight is ops x 2 ms / secs. */
static json_t *occupancy(double ops, double secs, double max_ms)
{
	json_t *r = base();
	json_object_set_new(r, "ops", json_integer((json_int_t)ops));
	json_object_set_new(r, "bytes", json_integer((json_int_t)ops * 65536));
	json_object_set_new(r, "seconds", json_real(secs));
	json_object_set_new(r, "bandwidth_mib_s", json_real(ops * 65536 / secs / 1048576));
	json_object_set_new(json_object_get(r, "latency_us"), "max", json_real(max_ms * 1e3));
	return kind_of(r, "littles-law", NULL);
}

static void test_littles_law_in_flight(void **state)
{
	json_t *e;
	(void)state;

	/* A long run keeping a quarter in flight: stalled. */
	e = occupancy(1000, 8, 10);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "client stalled: 0.2 of 1 in flight on average (25 %"));
	assert_true(
	    fabs(json_real_value(json_object_get(json_object_get(e, "figures"), "mean_in_flight")) -
	         0.25) < 1e-9);
	json_decref(e);
	/* With the client threads' CPU: how busy the busiest was. */
	{
		json_t *r = base();
		json_object_set_new(r, "seconds", json_real(8));
		json_object_set_new(r, "bandwidth_mib_s", json_real(1000 * 65536 / 8.0 / 1048576));
		json_object_set_new(r, "thread_cpu",
		                    json_pack("{s:f, s:[f]}", "wall_s", 8.0, "clients", 0.24));
		e = kind_of(r, "littles-law", NULL);
		assert_non_null(strstr(text(e),
		                       "a throttle; the busiest client thread waited, using "
		                       "only 3 % of a CPU)"));
		json_decref(e);
		r = base();
		json_object_set_new(r, "seconds", json_real(8));
		json_object_set_new(r, "bandwidth_mib_s", json_real(1000 * 65536 / 8.0 / 1048576));
		json_object_set_new(
		    r, "thread_cpu",
		    json_pack("{s:f, s:[f, f]}", "wall_s", 8.0, "clients", 0.24, 4.0));
		e = kind_of(r, "littles-law", NULL);
		assert_non_null(
		    strstr(text(e), "the busiest client thread was busy 50 % of a CPU"));
		json_decref(e);
	}
	/* Half in flight is not far below: nothing (the ratio is 0.5 too). */
	assert_null(occupancy(1000, 4, 10));
	/* 8 ops in 40 ms: 0.4 in flight. The ramp-up (2 ms) and drain (the
	 * slowest op) allow a shortfall of (2 + max) / 40 ms: 0.6 at 22 ms. */
	e = occupancy(8, 0.04, 22);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "short run: 0.4 of 1 in flight on average (40 %)"));
	assert_non_null(strstr(text(e), "not a stall"));
	json_decref(e);
	e = occupancy(8, 0.04, 21.9);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "client stalled"));
	json_decref(e);
	/* Microsecond ops (a page-cache read): 0.4 in flight with 100 us idle
	 * per op is the client's own work; 101 us, a stall. 1000 ops of
	 * 66.67 us in 0.16657 s: 0.4 in flight, 99.9 us idle each. */
	{
		json_t *c = base();
		json_object_set_new(c, "seconds", json_real(1000 * 166.57e-6));
		json_object_set_new(json_object_get(c, "latency_us"), "mean", json_real(66.668));
		json_object_set_new(c, "bandwidth_mib_s",
		                    json_real(0.4 * 65536 / 66.668e-6 / 1048576));
		e = kind_of(c, "littles-law", NULL);
		assert_string_equal(sev(e), "warn");
		assert_non_null(strstr(text(e),
		                       "client-bound: 0.4 of 1 in flight on average (40 %), "
		                       "each slot idle 100 µs between ops against a 67 µs"));
		json_decref(e);
		c = base();
		json_object_set_new(c, "seconds", json_real(1000 * 167.68e-6));
		json_object_set_new(json_object_get(c, "latency_us"), "mean", json_real(66.668));
		json_object_set_new(c, "bandwidth_mib_s",
		                    json_real(0.4 * 65536 / 66.668e-6 / 1048576));
		e = kind_of(c, "littles-law", NULL);
		assert_non_null(strstr(text(e), "client stalled"));
		json_decref(e);
	}
	/* Every op in flight, but of a quarter of the size asked. */
	json_t *r = base();
	json_object_set_new(r, "bytes", json_integer((json_int_t)1000 * 16384));
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND / 4));
	e = kind_of(r, "littles-law", NULL);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "ops smaller than asked: 16K on average for 64K asked"));
	json_decref(e);
}

static json_t *cpu(double busy_share, bool in_doc)
{
	json_t *r = base();
	struct ccb_explain_ctx ctx = {.have_cpu = true,
	                              .cpu_user_s = 20 * busy_share * 0.75,
	                              .cpu_sys_s = 20 * busy_share * 0.25,
	                              .wall_s = 10,
	                              .online_cpus = 2};

	if (in_doc) {
		json_object_set_new(r, "client_cpu", ccb_explain_cpu_json(&ctx));
		return kind_of(r, "client-cpu", NULL);
	}
	return kind_of(r, "client-cpu", &ctx);
}

static void test_client_cpu(void **state)
{
	json_t *e;
	(void)state;

	assert_null(cpu(0.849, true));
	e = cpu(0.851, true);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "measures this host, not the cluster"));
	json_decref(e);
	e = cpu(0.949, true);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	e = cpu(0.951, true);
	assert_string_equal(sev(e), "distrust");
	json_decref(e);
	/* From the context when the document has no client_cpu. */
	e = cpu(0.96, false);
	assert_string_equal(sev(e), "distrust");
	json_decref(e);
	assert_null(cpu(0.5, false));
	assert_null(kind_of(base(), "client-cpu", NULL));
}

static bool ra_asked;
static double ra_image;

static json_t *ra(const char *mode, bool active, const char *policy, double ra_bytes,
                  double cache_bytes)
{
	json_t *r = base();
	if (ra_image > 0)
		json_object_set_new(json_object_get(r, "layout"), "size",
		                    json_integer((json_int_t)ra_image));
	if (ra_asked)
		json_object_set_new(json_object_get(r, "parameters"), "readahead",
		                    json_integer((json_int_t)ra_bytes));
	json_object_set_new(r, "mode", json_string(mode));
	json_object_set_new(json_object_get(r, "layout"), "librbd",
	                    json_pack("{s:b, s:b, s:s, s:I, s:I}", "readahead_active", active,
	                              "rbd_cache", 1, "rbd_cache_policy", policy,
	                              "rbd_readahead_max_bytes", (json_int_t)ra_bytes,
	                              "rbd_cache_size", (json_int_t)cache_bytes));
	return kind_of(r, "readahead", NULL);
}

static void test_readahead(void **state)
{
	json_t *e;
	(void)state;

	e = ra("seq", false, "writearound", 1 << 20, 32 << 20);
	assert_string_equal(sev(e), "info"); /* librbd's default readahead */
	assert_non_null(strstr(text(e), "readahead inactive"));
	assert_non_null(strstr(text(e), "writearound"));
	json_decref(e);
	ra_asked = true; /* --readahead given, and lost */
	e = ra("seq", false, "writearound", 1 << 20, 32 << 20);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	ra_asked = false;
	assert_null(ra("write", false, "writearound", 1 << 20, 32 << 20));
	assert_null(ra("seq", false, "writearound", 0, 32 << 20));
	/* At the cache size: the cliff. One byte below: nothing. */
	e = ra("seq", true, "writeback", 32 << 20, 32 << 20);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "readahead of 32M at or above rbd_cache_size 32M"));
	json_decref(e);
	assert_null(ra("seq", true, "writeback", (32 << 20) - 1, 32 << 20));
	/* An image no larger than the readahead: read ahead once, no cliff. */
	ra_image = 32 << 20;
	assert_null(ra("seq", true, "writeback", 32 << 20, 32 << 20));
	ra_image = (32 << 20) + 4096;
	e = ra("seq", true, "writeback", 32 << 20, 32 << 20);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	ra_image = 0;
	assert_null(ra("seq", true, "writeback", 8 << 20, 32 << 20));
	/* Not librbd: nothing. */
	assert_null(kind_of(base(), "readahead", NULL));
}

/* librbd's readahead active, with @p extra settings merged into layout.librbd. */
static json_t *ra_more(const char *mode, json_t *extra, double bytes, int clients)
{
	json_t *r = base();
	json_t *lib = json_pack("{s:b, s:b, s:s, s:I, s:I, s:I, s:i}", "readahead_active", 1,
	                        "rbd_cache", 1, "rbd_cache_policy", "writeback",
	                        "rbd_readahead_max_bytes", (json_int_t)4 << 20, "rbd_cache_size",
	                        (json_int_t)32 << 20, "rbd_cache_max_dirty", (json_int_t)24 << 20,
	                        "rbd_readahead_trigger_requests", 10);
	json_object_update(lib, extra);
	json_decref(extra);
	json_object_set_new(r, "mode", json_string(mode));
	json_object_set_new(r, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(r, "clients_n", json_integer(clients));
	json_object_set_new(json_object_get(r, "layout"), "librbd", lib);
	return kind_of(r, "readahead", NULL);
}

static void test_readahead_librbd_more(void **state)
{
	json_t *e;
	(void)state;

	/* Random reads never trigger it. */
	e = ra_more("rand", json_object(), 1 << 20, 1);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "random reads never make the 10 sequential requests"));
	json_decref(e);
	/* Mixed under writeback: 32M - 24M dirty leaves 8M; 8M of readahead
	 * is at it, one byte less is not. */
	e = ra_more("rw", json_pack("{s:I}", "rbd_readahead_max_bytes", (json_int_t)8 << 20),
	            1 << 20, 1);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "readahead of 8M at or above the 8M that rbd_cache_size"));
	json_decref(e);
	assert_null(
	    ra_more("rw", json_pack("{s:I}", "rbd_readahead_max_bytes", ((json_int_t)8 << 20) - 1),
	            1 << 20, 1));
	/* Sequential reads: max_dirty does not matter. */
	assert_null(ra_more(
	    "seq", json_pack("{s:I}", "rbd_readahead_max_bytes", (json_int_t)8 << 20), 1 << 20, 1));
	/* Disable-after: per client, past it. */
	e = ra_more("seq",
	            json_pack("{s:I}", "rbd_readahead_disable_after_bytes", (json_int_t)50 << 20),
	            200.0 * 1048576, 2);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "readahead stopped after rbd_readahead_disable_after_bytes "
	                                "50M: each client read 100M, so 50 % of it"));
	json_decref(e);
	assert_null(ra_more(
	    "seq", json_pack("{s:I}", "rbd_readahead_disable_after_bytes", (json_int_t)50 << 20),
	    100.0 * 1048576, 2));
	assert_null(
	    ra_more("seq", json_pack("{s:I}", "rbd_readahead_disable_after_bytes", 0), 1e10, 1));
}

/* krbd buffered reads: read_ahead_kb @p ra, max_sectors_kb @p maxs, object
 * size @p obj, the device read @p dev_m MiB in @p reqs requests for @p served_m. */
static json_t *kra(const char *mode, double ra, double maxs, double obj, double dev_m, double reqs,
                   double served_m)
{
	json_t *r = base(), *l = json_object_get(r, "layout");
	json_object_set_new(r, "path", json_string("krbd"));
	json_object_set_new(r, "mode", json_string(mode));
	json_object_set_new(r, "bytes", json_integer((json_int_t)(served_m * 1048576)));
	json_object_set_new(l, "read_ahead_kb", json_pack("{s:f}", "during", ra));
	json_object_set_new(l, "queue", json_pack("{s:f}", "max_sectors_kb", maxs));
	if (obj > 0)
		json_object_set_new(l, "image", json_pack("{s:f}", "object_size", obj));
	json_object_set_new(l, "device_reads",
	                    json_pack("{s:f, s:f}", "requests", reqs, "bytes", dev_m * 1048576));
	return all_of(r, "readahead");
}

static void test_readahead_krbd(void **state)
{
	json_t *l;
	(void)state;

	/* 1024 KiB of readahead in requests of 1024 KiB: nothing. */
	l = kra("seq", 1024, 4096, 4 << 20, 64, 64, 64);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* Requests of half the readahead: still nothing; below: warn. */
	l = kra("seq", 1024, 4096, 4 << 20, 64, 128, 64);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	l = kra("seq", 1024, 4096, 4 << 20, 64, 129, 64);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)), "readahead 1024 KiB but requests averaged 508 KiB"));
	json_decref(l);
	/* Above max_sectors_kb: info, and the requests are measured against it. */
	l = kra("seq", 8192, 4096, 0, 64, 16, 64);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "read_ahead_kb 8192 above max_sectors_kb 4096: each readahead goes "
	                       "out as 2 requests of at most 4096 KiB"));
	json_decref(l);
	/* Above the object size: info. */
	l = kra("seq", 8192, 16384, 4 << 20, 64, 8, 64);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(
	    strstr(text(json_array_get(l, 0)), "read_ahead_kb 8192 spans 2 objects of 4096"));
	json_decref(l);
	/* Random reads: the device reading 1.5 times what was served is the edge. */
	l = kra("rand", 1024, 4096, 0, 96, 96, 64);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	l = kra("rand", 1024, 4096, 0, 97, 97, 64);
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "random reads with read_ahead_kb 1024: the device read 1.5 times"));
	json_decref(l);
	/* The layout says it is the kernel's readahead, not the path's name. */
	json_t *r0 = base(), *l0 = json_object_get(r0, "layout");
	json_object_set_new(l0, "read_ahead_kb", json_pack("{s:f}", "during", 8192.0));
	json_object_set_new(l0, "queue", json_pack("{s:f}", "max_sectors_kb", 4096.0));
	l = all_of(r0, "readahead");
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(
	    strstr(text(json_array_get(l, 0)), "read_ahead_kb 8192 above max_sectors_kb"));
	json_decref(l);
	/* --direct: no readahead to speak of. */
	json_t *r = base();
	json_object_set_new(r, "path", json_string("krbd"));
	json_object_set_new(json_object_get(r, "layout"), "direct", json_true());
	json_object_set_new(json_object_get(r, "layout"), "read_ahead_kb",
	                    json_pack("{s:f}", "during", 8192.0));
	l = all_of(r, "readahead");
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
}

static json_t *stall_run(const int *ops, size_t n, double seconds)
{
	json_t *r = base(), *s = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(
		    s, json_pack("{s:I, s:I}", "t", (json_int_t)i + 1, "ops", (json_int_t)ops[i]));
	json_object_set_new(r, "series", s);
	json_object_set_new(r, "seconds", json_real(seconds));
	return kind_of(r, "stall", NULL);
}

static void test_stall(void **state)
{
	static const int mid[] = {10, 0, 0, 10}, none[] = {10, 10, 10}, last[] = {10, 10, 0};
	json_t *e;
	(void)state;

	e = stall_run(mid, 4, 4.0);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "2 seconds of 4 with no completion (t=2,3)"));
	assert_int_equal(json_array_size(json_object_get(json_object_get(e, "figures"), "seconds")),
	                 2);
	json_decref(e);
	assert_null(stall_run(none, 3, 3.0));
	/* A last second the run ended early in is not a stall; half of it is. */
	assert_null(stall_run(last, 3, 2.49));
	e = stall_run(last, 3, 2.51);
	assert_non_null(strstr(text(e), "1 second of 3 with no completion (t=3)"));
	json_decref(e);
}

static json_t *var(double stddev, int samples)
{
	json_t *r = base();
	json_object_set_new(
	    r, "bandwidth_per_second_mib_s",
	    json_pack("{s:i, s:f, s:f}", "samples", samples, "mean", 100.0, "stddev", stddev));
	return kind_of(r, "variance", NULL);
}

static void test_variance(void **state)
{
	json_t *e;
	(void)state;

	assert_null(var(24.9, 10));
	e = var(25.1, 10);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "varies by 25 %"));
	json_decref(e);
	e = var(49.9, 10);
	assert_string_equal(sev(e), "info");
	json_decref(e);
	e = var(50.1, 10);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	assert_null(var(50.1, 2)); /* too few seconds to say */
}

static void test_simulated(void **state)
{
	json_t *r = base(), *e;
	(void)state;

	json_object_set_new(json_object_get(r, "layout"), "simulated_osd_latency_us",
	                    json_integer(2000));
	e = kind_of(r, "simulated", NULL);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "simulated 2ms OSD latency"));
	assert_non_null(strstr(text(e), "real OSD latency differs"));
	json_decref(e);
	assert_null(kind_of(base(), "simulated", NULL));
}

/* The side of the latency, from "latency_injection"; an OSD that lost it distrusts. */
static void test_latency_sides(void **state)
{
	json_t *r, *e;
	(void)state;

	r = base();
	json_object_set_new(r, "latency_injection",
	                    json_pack("{s:s, s:i, s:i, s:{s:f}}", "side", "osd", "osd_us", 20000,
	                              "client_us", 0, "probe", "mean_us", 23456.0));
	e = kind_of(r, "simulated", NULL);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "injected latency on the OSDs: about 20ms"));
	assert_non_null(strstr(text(e), "the same for librbd and the kernel client"));
	assert_non_null(strstr(text(e), "23.46 ms on average"));
	json_decref(e);

	r = base();
	json_object_set_new(
	    r, "latency_injection",
	    json_pack("{s:s, s:i, s:i}", "side", "client", "osd_us", 0, "client_us", 2000));
	e = kind_of(r, "simulated", NULL);
	assert_non_null(strstr(text(e), "on this client only: a kernel client cannot get it"));
	json_decref(e);

	r = base();
	json_object_set_new(
	    r, "latency_injection",
	    json_pack("{s:s, s:i, s:i}", "side", "both", "osd_us", 20000, "client_us", 2000));
	e = kind_of(r, "simulated", NULL);
	assert_non_null(strstr(text(e), "on both sides"));
	json_decref(e);

	r = base();
	json_object_set_new(r, "latency_injection",
	                    json_pack("{s:s, s:i, s:i, s:[s]}", "side", "osd", "osd_us", 20000,
	                              "client_us", 0, "lost", "osd.1 restarted (up_from 9 -> 31)"));
	e = kind_of(r, "simulated", NULL);
	assert_string_equal(sev(e), "distrust");
	assert_non_null(strstr(text(e), "osd.1 restarted"));
	json_decref(e);

	/* None injected: nothing to say. */
	r = base();
	json_object_set_new(
	    r, "latency_injection",
	    json_pack("{s:s, s:i, s:i}", "side", "none", "osd_us", 0, "client_us", 0));
	assert_null(kind_of(r, "simulated", NULL));
}

/* An emulated client (qemu TCG): busy at or over 60 % is the emulation's figure. */
static json_t *emulated_run(double busy, const char *what)
{
	json_t *r = base();

	json_object_set_new(r, "client_cpu",
	                    json_pack("{s:f, s:f, s:f, s:i, s:s?}", "user_s", 0.1, "sys_s", 0.5,
	                              "wall_s", 10.0, "online_cpus", 1, "emulated", what));
	json_object_set_new(r, "thread_cpu",
	                    json_pack("{s:f, s:[], s:[], s:f}", "wall_s", 10.0, "clients",
	                              "busiest", "host_busy_share", busy));
	return r;
}

static bool has_emulated(json_t *r, const char *severity)
{
	json_t *ex = ccb_explain(r, NULL), *e;
	bool found = false;
	size_t i;

	json_array_foreach(ex, i, e) found |=
	    strcmp(json_string_value(json_object_get(e, "kind")), "client-cpu") == 0 &&
	    strstr(json_string_value(json_object_get(e, "text")), "emulated CPU") &&
	    strcmp(json_string_value(json_object_get(e, "severity")), severity) == 0;
	json_decref(ex);
	json_decref(r);
	return found;
}

static void test_emulated(void **state)
{
	(void)state;
	assert_true(has_emulated(emulated_run(0.94, "qemu-tcg"), "warn"));
	assert_true(has_emulated(emulated_run(0.60, "qemu-tcg"), "warn"));
	assert_true(has_emulated(emulated_run(0.59, "qemu-tcg"), "info"));
	assert_false(has_emulated(emulated_run(0.59, "qemu-tcg"), "warn"));
	/* Real hardware (or KVM): not this line. */
	assert_false(has_emulated(emulated_run(0.99, NULL), "warn"));
	assert_false(has_emulated(emulated_run(0.99, NULL), "info"));

	/* Its loopback is a relay to its host, not OSDs beside it. */
	json_t *r = emulated_run(0.5, "qemu-tcg"), *e;
	json_object_set_new(r, "network", json_pack("[{s:s, s:b}]", "role", "osd", "loopback", 1));
	e = kind_of(r, "network", NULL);
	assert_non_null(strstr(text(e), "loopback relays of this emulated machine"));
	json_decref(e);
}

static json_t *cache_run(double served_m, double dev_m, double backing_m)
{
	json_t *r = base();
	json_object_set_new(r, "bytes", json_integer((json_int_t)(served_m * 1048576)));
	if (dev_m >= 0)
		json_object_set_new(json_object_get(r, "layout"), "device_reads",
		                    json_pack("{s:I, s:I}", "requests", (json_int_t)10, "bytes",
		                              (json_int_t)(dev_m * 1048576)));
	if (backing_m >= 0)
		json_object_set_new(json_object_get(r, "layout"), "backing_reads",
		                    json_pack("{s:s, s:I}", "device", "sda", "bytes",
		                              (json_int_t)(backing_m * 1048576)));
	return kind_of(r, "cache", NULL);
}

static void test_cache(void **state)
{
	json_t *e, *r;
	(void)state;

	e = cache_run(100, 50, -1);
	assert_string_equal(sev(e), "distrust");
	assert_non_null(strstr(text(e), "50 % of this read came from a cache"));
	json_decref(e);
	e = cache_run(100, 50.1, -1);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	e = cache_run(100, 79.9, -1);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	assert_null(cache_run(100, 80.1, -1));
	assert_null(cache_run(100, 120, -1)); /* readahead read more than served */
	/* A loop device's backing disk read less than the loop: the lower counts. */
	e = cache_run(100, 100, 5);
	assert_string_equal(sev(e), "distrust");
	assert_non_null(strstr(text(e), "95 % of this read came from a cache: the backing disk"));
	json_decref(e);
	/* Too little served to say: 4M is the least. */
	assert_null(cache_run(3.9, 0, -1));
	e = cache_run(4, 0, -1);
	assert_non_null(e);
	json_decref(e);
	/* A pass found cached during the run (a warning, no end figure). */
	r = base();
	json_array_append_new(json_object_get(r, "warnings"),
	                      json_string("served from the page cache: 1 of the 3 passes checked"));
	e = kind_of(r, "cache", NULL);
	assert_string_equal(sev(e), "distrust");
	json_decref(e);
	assert_null(kind_of(base(), "cache", NULL));
}

/* An fs run through a mount: @p mode, the mount (fstype, one per client),
 * its kernel or ceph-fuse figures, the page cache check. */
static json_t *fs_run(const char *mode, const char *fstype, bool per_client, json_t *limits,
                      double resident_m, double files_m)
{
	json_t *r = base(), *mnt;

	json_object_set_new(r, "mode", json_string(mode));
	json_object_set_new(r, "op_bytes", json_integer(4 << 20));
	mnt = json_pack("{s:s, s:b}", "fstype", fstype, "one_per_client", per_client);
	if (limits)
		json_object_set_new(mnt, strcmp(fstype, "ceph") == 0 ? "kernel" : "ceph_fuse",
		                    limits);
	json_object_set_new(json_object_get(r, "layout"), "mount", mnt);
	if (files_m > 0)
		json_object_set_new(json_object_get(r, "layout"), "page_cache",
		                    json_pack("{s:b, s:I, s:I}", "dropped_at_open", true,
		                              "resident_at_start_bytes",
		                              (json_int_t)(resident_m * 1048576), "file_bytes",
		                              (json_int_t)(files_m * 1048576)));
	return r;
}

static void test_fs_mount(void **state)
{
	json_t *e;

	(void)state;
	/* The kernel client: readahead for reads, the page cache for writes. */
	e = kind_of(fs_run("seq", "ceph", true,
	                   json_pack("{s:I, s:I, s:I}", "rasize", (json_int_t)4 << 20, "rsize",
	                             (json_int_t)64 << 20, "wsize", (json_int_t)64 << 20),
	                   0, 256),
	            "mount", NULL);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "read ahead up to rasize 4M, in requests of at most "
	                                "rsize 64M"));
	json_decref(e);
	e = kind_of(fs_run("write", "ceph", true,
	                   json_pack("{s:I, s:I, s:I}", "rasize", (json_int_t)8 << 20, "rsize",
	                             (json_int_t)64 << 20, "wsize", (json_int_t)16 << 20),
	                   0, 0),
	            "mount", NULL);
	assert_non_null(strstr(text(e), "writes gather in the page cache"));
	assert_non_null(strstr(text(e), "wsize 16M"));
	json_decref(e);
	/* ceph-fuse: 128K requests while fuse_max_write is 0; a 4M block is 32. */
	e = kind_of(
	    fs_run("write", "fuse.ceph-fuse", true,
	           json_pack("{s:i, s:b, s:b, s:I}", "fuse_max_write", 0, "fuse_multithreaded",
	                     true, "client_oc", true, "client_oc_size", (json_int_t)200 << 20),
	           0, 0),
	    "mount", NULL);
	assert_non_null(strstr(text(e), "requests of at most 128K"));
	assert_non_null(strstr(text(e), "each 4M block is 32 requests"));
	assert_non_null(strstr(text(e), "client_oc, 200M"));
	json_decref(e);
	/* The page cache: what stayed after the drop was read from memory. */
	e = kind_of(fs_run("seq", "tmpfs", false, NULL, 256, 256), "cache", NULL);
	assert_string_equal(sev(e), "distrust");
	assert_non_null(strstr(text(e), "100 % of this read came from the page cache"));
	assert_non_null(strstr(text(e), "tmpfs keeps every page"));
	json_decref(e);
	e = kind_of(fs_run("seq", "xfs", false, NULL, 64, 256), "cache", NULL);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	assert_null(kind_of(fs_run("seq", "xfs", false, NULL, 1, 256), "cache", NULL));
	/* A shared ceph-fuse mount: its own cache is out of the drop's reach. */
	e = kind_of(fs_run("seq", "fuse.ceph-fuse", false, NULL, 0, 256), "cache", NULL);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "client_oc"));
	json_decref(e);
	assert_null(kind_of(fs_run("seq", "fuse.ceph-fuse", true, NULL, 0, 256), "cache", NULL));
	/* No mount (libcephfs), no line. */
	assert_null(kind_of(base(), "mount", NULL));
}

/* A librbd read of @p served_m MiB; the cluster delivered @p cluster_m. */
static json_t *rbd_cache_run(double served_m, double cluster_m)
{
	json_t *r = base(), *layout = json_object_get(r, "layout");
	json_t *lib = json_object_get(layout, "librbd");

	if (!lib) {
		lib = json_object();
		json_object_set_new(layout, "librbd", lib);
	}
	json_object_set_new(r, "bytes", json_integer((json_int_t)(served_m * 1048576)));
	json_object_set_new(lib, "cache",
	                    json_pack("{s:f, s:f, s:f, s:f}", "cluster_bytes", cluster_m * 1048576,
	                              "cache_bytes_hit", 4e9, "cache_bytes_miss", 2 * served_m,
	                              "data_read", 2 * served_m));
	return kind_of(r, "cache", NULL);
}

static void test_cache_librbd(void **state)
{
	json_t *e;
	(void)state;

	/* At CCB_EXPLAIN_CACHE_DISTRUST (0.50) and just below it. */
	e = rbd_cache_run(64, 32);
	assert_string_equal(sev(e), "distrust");
	assert_non_null(strstr(text(e),
	                       "50 % of this read came from a cache: the cluster delivered "
	                       "32M for 64M served (librbd's cache)"));
	assert_true(json_number_value(json_object_get(json_object_get(e, "figures"),
	                                              "cluster_bytes")) == 32.0 * 1048576);
	json_decref(e);
	e = rbd_cache_run(64, 32.1);
	assert_string_equal(sev(e), "warn");
	json_decref(e);
	/* Just over CCB_EXPLAIN_CACHE_WARN (0.20), and just under it. */
	e = rbd_cache_run(100, 79.9);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "librbd's cache"));
	json_decref(e);
	assert_null(rbd_cache_run(100, 80.1));
	/* Readahead and headers: the cluster sent more than was served. */
	assert_null(rbd_cache_run(64, 64.3));
	/* The ObjectCacher's hit count alone says nothing (it counts retries). */
	assert_null(rbd_cache_run(64, 64));
}

/* All entries of @p kind in ccb_explain(@p r) (new array); @p r is released. */
static json_t *all_of(json_t *r, const char *kind)
{
	json_t *ex = ccb_explain(r, NULL), *e, *out = json_array();
	size_t i;

	json_array_foreach(ex, i, e) if (strcmp(json_string_value(json_object_get(e, "kind")),
	                                        kind) == 0) json_array_append(out, e);
	json_decref(ex);
	json_decref(r);
	return out;
}

/* A digest of `status` / `osd dump` replies: @p down OSDs of 3 down, @p pgs
 * states and counts ("active+clean", 30, ...), health checks. */
static json_t *state(const char *health, json_t *checks, const char *down, const char *pg_state,
                     int pg_n)
{
	json_t *status = json_pack("{s:{s:s, s:o}, s:{s:[{s:s, s:i}, {s:s, s:i}], s:i}}", "health",
	                           "status", health, "checks", checks, "pgmap", "pgs_by_state",
	                           "state_name", "active+clean", "count", 32, "state_name",
	                           pg_state, "count", pg_n, "num_pgs", 32 + pg_n);
	json_t *osds = json_array();
	for (int i = 0; i < 3; i++) {
		char name[16];
		snprintf(name, sizeof(name), "osd.%d", i);
		json_array_append_new(osds, json_pack("{s:i, s:i, s:{s:[{s:s, s:s}]}}", "osd", i,
		                                      "up", down && strcmp(down, name) == 0 ? 0 : 1,
		                                      "public_addrs", "addrvec", "type", "v2",
		                                      "addr", "127.0.0.1:6800"));
	}
	json_t *dump = json_pack("{s:s, s:o}", "flags", "sortbitwise", "osds", osds);
	json_t *mons = json_pack("{s:[{s:{s:[{s:s}]}}]}", "mons", "public_addrs", "addrvec", "addr",
	                         "[::1]:3300");
	json_t *st = ccb_cluster_state_parse(status, dump, mons);
	json_decref(status);
	json_decref(dump);
	json_decref(mons);
	return st;
}

static json_t *healthy(void)
{
	return state("HEALTH_OK", json_object(), NULL, "active+clean", 0);
}

static json_t *cluster_run(json_t *start, json_t *end)
{
	json_t *r = base();
	json_object_set_new(r, "cluster_state",
	                    json_pack("{s:o, s:o}", "start", start, "end", end));
	return all_of(r, "cluster");
}

static void test_cluster_state_parse(void **state_)
{
	json_t *st =
	    state("HEALTH_WARN",
	          json_pack("{s:{s:{s:s}}}", "OSD_DOWN", "summary", "message", "1 osds down"),
	          "osd.1", "active+undersized+degraded+recovering", 5);
	(void)state_;

	assert_string_equal(json_string_value(json_object_get(st, "health")), "HEALTH_WARN");
	assert_int_equal(json_integer_value(json_object_get(st, "osds_up")), 2);
	assert_string_equal(json_string_value(json_array_get(json_object_get(st, "osds_down"), 0)),
	                    "osd.1");
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_degraded")), 5);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_recovering")), 5);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_backfilling")), 0);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_inactive")), 0);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs")), 37);
	/* Each address once, without its port; IPv6 without the brackets. */
	assert_int_equal(json_array_size(json_object_get(st, "osd_addrs")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(st, "osd_addrs"), 0)),
	                    "127.0.0.1");
	assert_string_equal(json_string_value(json_array_get(json_object_get(st, "mon_addrs"), 0)),
	                    "::1");
	assert_false(json_is_true(json_object_get(st, "full")));
	json_decref(st);
	/* Full and nearfull are health checks since Luminous. */
	st = state("HEALTH_ERR", json_pack("{s:{}, s:{}}", "OSD_NEARFULL", "POOL_FULL"), NULL,
	           "active+clean+scrubbing", 2);
	assert_true(json_is_true(json_object_get(st, "full")));
	assert_true(json_is_true(json_object_get(st, "nearfull")));
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_scrubbing")), 2);
	json_decref(st);
	/* POOL_NEAR_FULL (a pool near its quota) is near, not full; an
	 * unknown check with FULL in its name is neither. */
	st = state("HEALTH_WARN",
	           json_pack("{s:{}, s:{}, s:{}}", "POOL_NEAR_FULL", "POOL_NEARFULL",
	                     "SOME_FULLNESS_NOTE"),
	           NULL, "active+clean", 0);
	assert_false(json_is_true(json_object_get(st, "full")));
	assert_true(json_is_true(json_object_get(st, "nearfull")));
	json_decref(st);
	assert_true(ccb_cluster_state_check_is("OSD_FULL", "full"));
	assert_true(ccb_cluster_state_check_is("POOL_BACKFILLFULL", "nearfull"));
	assert_false(ccb_cluster_state_check_is("POOL_NEAR_FULL", "full"));
	assert_false(ccb_cluster_state_check_is("POOL_APP_NOT_ENABLED", "nearfull"));
	st = state("HEALTH_OK", json_object(), NULL, "peering", 3);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_inactive")), 3);
	json_decref(st);
	/* A PG the mgr has no stats for yet (a new pool) is not inactive. */
	st = state("HEALTH_OK", json_object(), NULL, "unknown", 32);
	assert_int_equal(json_integer_value(json_object_get(st, "pgs_inactive")), 0);
	json_decref(st);
}

static void test_cluster(void **state_)
{
	json_t *l;
	(void)state_;

	/* Healthy at both ends: nothing. */
	l = cluster_run(healthy(), healthy());
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* An OSD down during the run: distrust, named; its health check, info. */
	l = cluster_run(healthy(), state("HEALTH_WARN",
	                                 json_pack("{s:{s:{s:s}}}", "OSD_DOWN", "summary",
	                                           "message", "1 osds down"),
	                                 "osd.1", "active+clean", 0));
	assert_string_equal(sev(json_array_get(l, 0)), "distrust");
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "osd.1 went down during the run (2 of 3 OSDs up at the end)"));
	assert_string_equal(sev(json_array_get(l, 1)), "info");
	assert_non_null(strstr(text(json_array_get(l, 1)), "OSD_DOWN (1 osds down)"));
	json_decref(l);
	/* Down at the start and back by the end: warn twice, no distrust. */
	l = cluster_run(state("HEALTH_WARN", json_object(), "osd.2", "active+clean", 0), healthy());
	assert_int_equal(json_array_size(l), 2);
	assert_non_null(strstr(text(json_array_get(l, 0)), "osd.2 came back up during the run"));
	assert_non_null(strstr(text(json_array_get(l, 1)), "osd.2 down at the start (2 of 3"));
	assert_string_equal(sev(json_array_get(l, 1)), "warn");
	json_decref(l);
	/* Recovery at the start: a capacity check during recovery; one PG is enough. */
	l = cluster_run(state("HEALTH_OK", json_object(), NULL, "active+recovering", 1), healthy());
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "PGs at the start: 1 recovering of 33: a capacity check during "
	                       "recovery"));
	json_decref(l);
	/* The same PG trouble at the end is said once; backfill new at the end, again. */
	l = cluster_run(state("HEALTH_OK", json_object(), NULL, "active+recovering", 1),
	                state("HEALTH_OK", json_object(), NULL, "active+recovering", 1));
	assert_int_equal(json_array_size(l), 1);
	json_decref(l);
	l = cluster_run(healthy(),
	                state("HEALTH_OK", json_object(), NULL, "active+backfilling", 4));
	assert_non_null(strstr(text(json_array_get(l, 0)), "PGs at the end: 4 backfilling"));
	json_decref(l);
	/* Scrubbing: info. Nearfull: warn. A health check only: info. */
	l = cluster_run(state("HEALTH_OK", json_object(), NULL, "active+clean+scrubbing", 2),
	                healthy());
	assert_string_equal(sev(json_array_get(l, 0)), "info");
	assert_non_null(strstr(text(json_array_get(l, 0)), "2 PGs scrubbing at the start"));
	json_decref(l);
	l = cluster_run(
	    state("HEALTH_WARN", json_pack("{s:{}}", "OSD_NEARFULL"), NULL, "active+clean", 0),
	    healthy());
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)), "the cluster was nearfull at the start"));
	assert_string_equal(sev(json_array_get(l, 1)), "info");
	json_decref(l);
	l = cluster_run(state("HEALTH_WARN",
	                      json_pack("{s:{s:{s:s}}}", "POOL_NO_REDUNDANCY", "summary", "message",
	                                "1 pool(s) have no replicas configured"),
	                      NULL, "active+clean", 0),
	                healthy());
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "info");
	json_decref(l);
	/* A mon that did not answer: said, nothing guessed. */
	l = cluster_run(json_pack("{s:s}", "error", "Connection timed out"),
	                json_pack("{s:s}", "error", "Connection timed out"));
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)), "could not be read at the start"));
	json_decref(l);
	/* No cluster_state (krbd --device, fs): nothing. */
	l = all_of(base(), "cluster");
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* Daemons of two releases (an upgrade half done): warn, named; one: nothing. */
	json_t *r = base();
	json_object_set_new(r, "releases",
	                    json_pack("{s:{s:s, s:[s, s]}}", "cluster", "release", "pacific+reef",
	                              "ceph_versions", "16.2.15", "18.2.7"));
	l = all_of(r, "cluster");
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "daemons run different releases (pacific+reef): an upgrade"));
	json_decref(l);
	r = base();
	json_object_set_new(r, "releases", json_pack("{s:{s:s}}", "cluster", "release", "reef"));
	l = all_of(r, "cluster");
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
}

/* A run with @p sched as its start's osd_scheduler, @p start_pgs PGs in
 * @p pg_state at the start, @p iops over 3 OSDs up; its "scheduler" lines. */
static json_t *sched_run(json_t *sched, const char *pg_state, int start_pgs, double iops)
{
	json_t *r = base(), *st = state("HEALTH_OK", json_object(), NULL, pg_state, start_pgs);

	json_object_set_new(st, "osd_scheduler", sched);
	json_object_set_new(r, "cluster_state",
	                    json_pack("{s:o, s:o}", "start", st, "end", healthy()));
	json_object_set_new(r, "iops", json_real(iops));
	return all_of(r, "scheduler");
}

/* An OSD's config as ccb_cluster_sched_parse() reads it. */
static json_t *sched_of(const char *queue, const char *profile, const char *res, const char *lim,
                        const char *version)
{
	json_t *cfg = json_pack(
	    "{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "osd_op_queue", queue, "osd_mclock_profile",
	    profile, "osd_mclock_scheduler_client_res", res, "osd_mclock_scheduler_client_wgt", "1",
	    "osd_mclock_scheduler_client_lim", lim, "osd_mclock_max_capacity_iops_ssd",
	    "21500.000000", "osd_op_num_shards_ssd", "8");
	json_t *meta = json_pack("{s:s, s:s}", "ceph_version_short", version, "rotational", "0");
	json_t *s = ccb_cluster_sched_parse(0, cfg, meta);

	json_decref(cfg);
	json_decref(meta);
	return s;
}

static void test_scheduler(void **state_)
{
	json_t *l;
	(void)state_;

	/* Pacific's default: wpq, said, nothing more. */
	l = sched_run(sched_of("wpq", "high_client_ops", "1", "999999", "16.2.15"), "active+clean",
	              0, 1000);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "info");
	assert_non_null(strstr(text(json_array_get(l, 0)), "OSD op queue wpq (osd.0, 16.2.15)"));
	json_decref(l);
	/* Reef's default: balanced, the client's share, no limit: info. */
	l = sched_run(sched_of("mclock_scheduler", "balanced", "0.500000", "0.000000", "18.2.7"),
	              "active+clean", 0, 1000);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "info");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)),
	           "profile balanced (osd.0, 18.2.7): clients reserved 50 % of the OSD's "
	           "capacity (10750 of 21500 IOPS, osd_mclock_max_capacity_iops_ssd), "
	           "weight 1, no limit"));
	json_decref(l);
	/* custom with a client limit: warn, the limit per OSD, what lifts it. */
	l = sched_run(sched_of("mclock_scheduler", "custom", "0.500000", "0.010000", "20.2.4"),
	              "active+clean", 0, 600);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)),
	           "mClock profile custom (osd.0, 20.2.4) limits client I/O to 215 IOPS "
	           "per OSD (osd_mclock_scheduler_client_lim=0.01 of "
	           "osd_mclock_max_capacity_iops_ssd 21500); this run did 600 IOPS over "
	           "3 OSDs: osd_mclock_profile=high_client_ops lifts the limit (or a "
	           "higher osd_mclock_scheduler_client_lim)"));
	assert_string_equal(json_string_value(json_object_get(
	                        json_object_get(json_array_get(l, 0), "figures"), "lifted_by")),
	                    "osd_mclock_profile=high_client_ops");
	json_decref(l);
	/* Pacific's IOPS per shard; a limit at the capacity binds no
	 * device slower than that figure: info. */
	l = sched_run(sched_of("mclock_scheduler", "custom", "1", "50", "16.2.15"), "active+clean",
	              0, 250);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)),
	           "to 400 IOPS per OSD (osd_mclock_scheduler_client_lim=50 per op shard "
	           "x 8 shards)"));
	json_decref(l);
	l = sched_run(sched_of("mclock_scheduler", "balanced", "1075", "2688", "16.2.15"),
	              "active+clean", 0, 250);
	assert_string_equal(sev(json_array_get(l, 0)), "info");
	assert_non_null(strstr(text(json_array_get(l, 0)), "limits client I/O to 21504 IOPS"));
	json_decref(l);
	/* Recovery beside the run under balanced: warn; under high_client_ops: no more. */
	l = sched_run(sched_of("mclock_scheduler", "balanced", "0.500000", "0.000000", "18.2.7"),
	              "active+recovering", 4, 1000);
	assert_int_equal(json_array_size(l), 2);
	assert_string_equal(sev(json_array_get(l, 1)), "warn");
	assert_non_null(strstr(text(json_array_get(l, 1)),
	                       "background work beside the run (4 PGs recovering at the start) "
	                       "under mClock profile balanced"));
	json_decref(l);
	l = sched_run(
	    sched_of("mclock_scheduler", "high_client_ops", "0.600000", "0.000000", "18.2.7"),
	    "active+recovering", 4, 1000);
	assert_int_equal(json_array_size(l), 1);
	json_decref(l);
	/* Not read: said; no record (an older result): nothing. */
	l = sched_run(json_pack("{s:s}", "error", "tell osd.0 config show: Permission denied"),
	              "active+clean", 0, 1000);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)), "could not be read: tell osd.0"));
	json_decref(l);
	l = all_of(base(), "scheduler");
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
}

static json_t *net_run(json_t *peers, double bw)
{
	json_t *r = base();
	json_object_set_new(r, "network", peers);
	json_object_set_new(r, "bandwidth_mib_s", json_real(bw));
	return kind_of(r, "network", NULL);
}

static void test_network(void **state_)
{
	json_t *e;
	/* 10000 Mb/s = 1192.1 MiB/s. */
	double link = 10000e6 / 8 / 1048576;
	(void)state_;

	e = net_run(json_pack("[{s:s, s:b}, {s:s, s:b}]", "role", "mon", "loopback", 1, "role",
	                      "osd", "loopback", 1),
	            100);
	assert_string_equal(sev(e), "info");
	assert_non_null(strstr(text(e), "no link limits the run"));
	assert_non_null(strstr(text(e), "shares this host's CPU"));
	json_decref(e);
	e = net_run(json_pack("[{s:s, s:b, s:s, s:i}]", "role", "osd", "loopback", 0, "interface",
	                      "eth0", "speed_mbps", 10000),
	            link * 0.801);
	assert_string_equal(sev(e), "warn");
	assert_non_null(
	    strstr(text(e), "link eth0 10000 Mb/s = 1192 MiB/s; this run used 80 % of it"));
	json_decref(e);
	e = net_run(json_pack("[{s:s, s:b, s:s, s:i}]", "role", "osd", "loopback", 0, "interface",
	                      "eth0", "speed_mbps", 10000),
	            link * 0.799);
	assert_string_equal(sev(e), "info");
	json_decref(e);
	/* The slowest link of several is the limit; one without a speed says nothing. */
	e = net_run(json_pack("[{s:b, s:s, s:i}, {s:b, s:s, s:i}]", "loopback", 0, "interface",
	                      "eth0", "speed_mbps", 10000, "loopback", 0, "interface", "eth1",
	                      "speed_mbps", 1000),
	            100);
	assert_non_null(strstr(text(e), "link eth1 1000 Mb/s"));
	json_decref(e);
	assert_null(net_run(json_pack("[{s:b, s:s}]", "loopback", 0, "interface", "veth0"), 100));
	assert_null(kind_of(base(), "network", NULL));
}

/* Threads' CPU over a 10 s run: client threads, the busiest library thread,
 * the host's busy share; the process's own CPU as @p own of 2 CPUs. */
static double threads_secs = 8;

static json_t *threads_run(double client_s, double lib_s, double host, double own, bool local)
{
	json_t *r = base();
	json_object_set_new(r, "thread_cpu",
	                    json_pack("{s:f, s:[f, f], s:[{s:s, s:f}], s:f}", "wall_s", 10.0,
	                              "clients", 1.0, client_s, "busiest", "name", "msgr-worker-1",
	                              "cpu_s", lib_s, "host_busy_share", host));
	json_object_set_new(r, "client_cpu",
	                    json_pack("{s:f, s:f, s:f, s:i}", "user_s", own * 20, "sys_s", 0.0,
	                              "wall_s", 10.0, "online_cpus", 2));
	if (local)
		json_object_set_new(r, "network",
		                    json_pack("[{s:s, s:b}]", "role", "osd", "loopback", 1));
	/* 1000 ops x 2 ms in 8 s: 0.25 of 1 in flight on average. */
	json_object_set_new(r, "seconds", json_real(threads_secs));
	return all_of(r, "client-cpu");
}

static void test_client_threads(void **state_)
{
	json_t *l;
	(void)state_;

	/* A client thread at 90 % of one CPU: warn, named. 89.9 %: nothing. */
	l = threads_run(9.0, 1, 0.5, 0.5, false);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(strstr(text(json_array_get(l, 0)), "client thread 1 used 90 % of one CPU"));
	json_decref(l);
	l = threads_run(8.99, 1, 0.5, 0.5, false);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* A library thread. */
	l = threads_run(1, 9.5, 0.5, 0.5, false);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "thread msgr-worker-1 of the client library used 95 %"));
	json_decref(l);
	/* The host saturated (90 %) with ccbench at 25 % of it: warn; the OSDs on this host said.
	 */
	l = threads_run(1, 1, 0.90, 0.25, true);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "this host's 2 CPUs were 90 % busy, ccbench 25 % of them (the OSDs "
	                       "run on this host too), and it kept only 0.2 of 1 in flight"));
	json_decref(l);
	/* ... but not when it kept its ops in flight: 1000 x 2 ms in 2.35 s
	 * is 0.851 in flight, 2.36 s 0.847. */
	threads_secs = 2.35;
	l = threads_run(1, 1, 0.90, 0.25, false);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* ... where, with the OSDs on this host, it is a note: they ran on
	 * what the client left them. */
	l = threads_run(1, 1, 0.90, 0.25, true);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(l, 0), "severity")),
	                    "info");
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "this host's 2 CPUs were 90 % busy, ccbench 25 % of them, and the "
	                       "OSDs run on this host: they had the CPU the client left them"));
	json_decref(l);
	/* ... and below HOST_BUSY, nothing. */
	l = threads_run(1, 1, 0.899, 0.25, true);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	threads_secs = 2.36;
	l = threads_run(1, 1, 0.90, 0.25, true);
	assert_int_equal(json_array_size(l), 1);
	json_decref(l);
	/* ... nor when a short run's ramp-up and drain explain it: 1000 x
	 * 2 ms in 8 s with the slowest op at 6 s allows 75 %. */
	{
		json_t *r = base();
		json_object_set_new(r, "seconds", json_real(8));
		json_object_set_new(json_object_get(r, "latency_us"), "max", json_real(6e6));
		json_object_set_new(r, "thread_cpu",
		                    json_pack("{s:f, s:[], s:f}", "wall_s", 8.0, "clients",
		                              "host_busy_share", 0.99));
		json_object_set_new(r, "client_cpu",
		                    json_pack("{s:f, s:f, s:f, s:i}", "user_s", 4.0, "sys_s", 0.0,
		                              "wall_s", 8.0, "online_cpus", 2));
		l = all_of(r, "client-cpu");
		assert_int_equal(json_array_size(l), 0);
		json_decref(l);
	}
	threads_secs = 8;
	l = threads_run(1, 1, 0.899, 0.25, true);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	/* Whatever ccbench's own share: the host had no CPU to spare. */
	l = threads_run(1, 1, 0.95, 0.10, false);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)),
	                       "this host's 2 CPUs were 95 % busy, ccbench 10 % of them, and it "
	                       "kept only 0.2 of 1 in flight: a client with no CPU to spare"));
	json_decref(l);
	/* ccbench itself at 85 %: the process check says it, once. */
	l = threads_run(1, 1, 0.99, 0.86, false);
	assert_int_equal(json_array_size(l), 1);
	assert_non_null(strstr(text(json_array_get(l, 0)), "ccbench kept 1.72 of 2 CPUs busy"));
	json_decref(l);
}

/*
 * An open loop keeps in flight what its arrivals bring, not its slots: a
 * rate-limited run at 0.2 of 4 in flight is no stall and no Little's-law
 * shortfall, and on a busy host it is the client's CPU only when the rate
 * did not hold.
 */
static json_t *open_loop_run(const char *verdict)
{
	json_t *r = base();

	json_object_set_new(r, "queue_depth", json_integer(4));
	json_object_set_new(r, "bandwidth_mib_s", json_real(BOUND * 0.2));
	json_object_set_new(r, "open_loop", json_pack("{s:s}", "verdict", verdict));
	json_object_set_new(
	    r, "thread_cpu",
	    json_pack("{s:f, s:[], s:f}", "wall_s", 2.0, "clients", "host_busy_share", 0.99));
	json_object_set_new(r, "client_cpu",
	                    json_pack("{s:f, s:f, s:f, s:i}", "user_s", 0.2, "sys_s", 0.0, "wall_s",
	                              2.0, "online_cpus", 2));
	return r;
}

static void test_open_loop_in_flight(void **state)
{
	json_t *l, *e;

	(void)state;
	assert_null(kind_of(open_loop_run("held"), "littles-law", NULL));
	l = all_of(open_loop_run("held"), "client-cpu");
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	l = all_of(open_loop_run("not held"), "client-cpu");
	assert_int_equal(json_array_size(l), 1);
	e = json_array_get(l, 0);
	assert_string_equal(sev(e), "warn");
	assert_non_null(strstr(text(e), "the open-loop rate was not held"));
	json_decref(l);
	/* The same run closed-loop: 0.2 of 4 in flight is a shortfall. */
	{
		json_t *r = open_loop_run("held");
		json_object_del(r, "open_loop");
		e = kind_of(r, "littles-law", NULL);
		assert_non_null(e);
		assert_string_equal(sev(e), "warn");
		json_decref(e);
	}
}

static void test_stall_diagnosis(void **state_)
{
	static const int mid[] = {10, 0, 0, 10};
	json_t *r = base(), *e, *s = json_array();
	(void)state_;

	for (size_t i = 0; i < 4; i++)
		json_array_append_new(
		    s, json_pack("{s:I, s:I}", "t", (json_int_t)i + 1, "ops", (json_int_t)mid[i]));
	json_object_set_new(r, "series", s);
	json_object_set_new(r, "seconds", json_real(4.0));
	json_object_set_new(r, "stall_diagnosis",
	                    json_pack("[{s:s, s:f}]", "why", "osd.1 down", "since_s", 1.2));
	e = kind_of(r, "stall", NULL);
	assert_non_null(strstr(text(e), "2 seconds of 4 with no completion (t=2,3): osd.1 down (no "
	                                "completion from 1.2 s into the run)"));
	json_decref(e);
	/* A run that ended in the stall: its series stops at the last
	 * completion, so only the diagnosis says so. */
	r = base();
	json_object_set_new(r, "stall_diagnosis",
	                    json_pack("[{s:s, s:f}]", "why", "osd.1 down", "since_s", 3.1));
	e = kind_of(r, "stall", NULL);
	assert_string_equal(sev(e), "warn");
	assert_string_equal(text(e),
	                    "the I/O stopped: osd.1 down (no completion from 3.1 s into the run)");
	json_decref(e);
}

static json_t *kpoint(int qd, double mean, double sd, int runs)
{
	return json_pack("{s:{s:i}, s:{s:i, s:i, s:{s:f, s:f}, s:{s:f}, s:{s:f}}, s:[]}", "matrix",
	                 "qd", qd, "aggregate", "runs", runs, "runs_ok", runs, "bandwidth_mib_s",
	                 "mean", mean, "stddev", sd, "latency_p50_us", "mean", 1.0,
	                 "latency_p99_us", "mean", 2.0, "runs");
}

/* The sweep text of a 3-point series, knee at qd 4; what it says of the knee. */
static char *knee_text(double next_mean, double next_sd, int runs)
{
	json_t *doc =
	    json_pack("{s:{s:s, s:s}, s:s, s:i, s:s, s:s, s:[o, o, o], s:[{s:{}, s:i, s:f, s:f}]}",
	              "config", "name", "k", "command", "rados write", "row_key", "qd", "repeat",
	              runs, "order", "matrix", "status", "ok", "points", kpoint(1, 100, 5, runs),
	              kpoint(4, 200, 5, runs), kpoint(16, next_mean, next_sd, runs), "knees",
	              "series", "value", 4, "bandwidth_mib_s", 200.0, "best_mib_s", 205.0);
	char *mem = NULL, *k;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);

	ccb_sweep_render_text(doc, f);
	fclose(f);
	json_decref(doc);
	k = strstr(mem, "knee confidence");
	k = strdup(k ? k : "");
	free(mem);
	return k;
}

static void test_knee_confidence(void **state)
{
	char *t;
	(void)state;

	/* 200 ± 5 against 100 ± 5, 3 runs each: 100 apart, 2 SE = 8.2. Against
	 * 205 ± 10: 5 apart, 2 SE = 12.9; 4 x (25 + 100) / 25 = 20, so 21 repeats. */
	t = knee_text(205, 10, 3);
	assert_non_null(strstr(t, "knee confidence (MiB/s): qd 4, 200.0 ± 5.0 (3 runs)\n"));
	assert_non_null(strstr(t, "  vs qd 1: 100.0 ± 5.0 (3 runs), difference 100.0, 2 × its "
	                          "standard error 8.2: distinguishable\n"));
	assert_non_null(strstr(t, "  vs qd 16: 205.0 ± 10.0 (3 runs), difference 5.0, 2 × its "
	                          "standard error 12.9: not distinguishable; about 21 repeats "
	                          "would tell them apart\n"));
	free(t);
	/* Just above 2 SE: distinguishable (sqrt(125/3) x 2 = 12.91). */
	t = knee_text(212.92, 10, 3);
	assert_non_null(strstr(t, "vs qd 16: 212.9 ± 10.0 (3 runs), difference 12.9, 2 × its "
	                          "standard error 12.9: distinguishable"));
	free(t);
	t = knee_text(212.90, 10, 3);
	assert_non_null(strstr(t, "vs qd 16: 212.9 ± 10.0 (3 runs), difference 12.9, 2 × its "
	                          "standard error 12.9: not distinguishable; about 4 repeats"));
	free(t);
	/* One run per point: nothing to judge by. */
	t = knee_text(205, 0, 1);
	assert_non_null(strstr(t, "(1 run): one run per point, no spread to judge the knee by"));
	free(t);
}

static json_t *gmember(const char *name, const char *host, double bw, const char *sev)
{
	json_t *ex = json_array();
	if (sev)
		json_array_append_new(ex,
		                      json_pack("{s:s, s:s, s:s}", "kind", "cache", "severity", sev,
		                                "text", "93 % of this read came from a cache"));
	return json_pack("{s:s, s:s, s:s, s:f, s:{s:o}}", "member", name, "host", host, "state",
	                 "done", "window_bandwidth_mib_s", bw, "result", "explain", ex);
}

static json_t *group_doc(json_t *members, double jain, double skew_ms, double window_s, int missing)
{
	json_t *miss = json_array();
	for (int i = 0; i < missing; i++)
		json_array_append_new(miss, json_string("gone"));
	return json_pack("{s:o, s:{s:f}, s:f, s:{s:f}, s:o, s:i}", "members", members, "aggregate",
	                 "jain_index", jain, "start_skew_ms", skew_ms, "window", "seconds",
	                 window_s, "missing", miss, "members_expected",
	                 (int)json_array_size(members) + missing);
}

static void test_group(void **state)
{
	json_t *doc, *l;
	(void)state;

	/* Equal members on their own hosts, started together: nothing. */
	doc = group_doc(
	    json_pack("[o, o]", gmember("a", "h1", 100, NULL), gmember("b", "h2", 100, NULL)), 0.95,
	    100, 10, 0);
	l = ccb_explain_group(doc);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	json_decref(doc);
	/* A distrusted member, a warned one, unequal (0.899), skew 10.1 % of
	 * the window, one missing, two on one host. */
	doc = group_doc(json_pack("[o, o, o]", gmember("a", "h1", 100, "distrust"),
	                          gmember("b", "h1", 50, "warn"), gmember("c", "h2", 100, NULL)),
	                0.899, 1010, 10, 1);
	l = ccb_explain_group(doc);
	assert_int_equal(json_array_size(l), 6);
	assert_string_equal(sev(json_array_get(l, 0)), "distrust");
	assert_string_equal(
	    text(json_array_get(l, 0)),
	    "member a: 93 % of this read came from a cache; the aggregate includes it");
	assert_non_null(strstr(text(json_array_get(l, 1)), "1 of 3 members warned (cache)"));
	assert_non_null(strstr(text(json_array_get(l, 2)),
	                       "members unequal: Jain's index 0.90; b 50.0 MiB/s against a 100.0"));
	assert_non_null(strstr(text(json_array_get(l, 3)),
	                       "members started 1010 ms apart, 10 % of the 10.00 s"));
	assert_non_null(strstr(text(json_array_get(l, 4)),
	                       "1 member never reported: the aggregate is of 3 of 4"));
	assert_string_equal(sev(json_array_get(l, 5)), "info");
	assert_non_null(strstr(text(json_array_get(l, 5)), "members a, b ran on one host (h1)"));
	json_decref(l);
	json_decref(doc);
	/* Members whose client libraries are of two releases: said. */
	doc = group_doc(
	    json_pack("[o, o]", gmember("a", "h1", 100, NULL), gmember("b", "h2", 100, NULL)), 0.95,
	    100, 10, 0);
	json_object_set_new(
	    json_object_get(json_array_get(json_object_get(doc, "members"), 0), "result"),
	    "releases",
	    json_pack("{s:{s:s, s:s}}", "client", "ceph_version", "16.2.15", "release", "pacific"));
	json_object_set_new(
	    json_object_get(json_array_get(json_object_get(doc, "members"), 1), "result"),
	    "releases",
	    json_pack("{s:{s:s, s:s}}", "client", "ceph_version", "18.2.7", "release", "reef"));
	l = ccb_explain_group(doc);
	assert_int_equal(json_array_size(l), 1);
	assert_string_equal(sev(json_array_get(l, 0)), "warn");
	assert_non_null(
	    strstr(text(json_array_get(l, 0)),
	           "members ran client libraries of different releases (pacific+reef)"));
	json_decref(l);
	json_decref(doc);
	/* The edges: Jain 0.90 and skew of exactly 10 % say nothing. */
	doc = group_doc(
	    json_pack("[o, o]", gmember("a", "h1", 100, NULL), gmember("b", "h2", 50, NULL)), 0.90,
	    1000, 10, 0);
	l = ccb_explain_group(doc);
	assert_int_equal(json_array_size(l), 0);
	json_decref(l);
	json_decref(doc);
}

/* A saved group report re-derives its members' lists from their figures,
 * and the aggregate's from those, whatever lists it stored. */
static void test_group_rederive(void **state)
{
	json_t *doc, *out, *r, *p;
	(void)state;

	/* Member a: a cached read its stored list does not mention; b: no result. */
	r = base();
	json_object_set_new(r, "bytes", json_integer((json_int_t)100 << 20));
	json_object_set_new(json_object_get(r, "layout"), "device_reads",
	                    json_pack("{s:f, s:f}", "requests", 10.0, "bytes", 5.0 * 1048576));
	doc = group_doc(json_pack("[{s:s, s:s, s:s, s:f, s:o}, {s:s, s:s}]", "member", "a", "host",
	                          "h1", "state", "done", "window_bandwidth_mib_s", 100.0, "result",
	                          r, "member", "b", "state", "registered"),
	                1.0, 0, 10, 0);
	json_object_set_new(r, "explain", json_array());
	out = ccb_explain_group_rederive(doc);
	assert_non_null(out);
	assert_int_equal(json_array_size(out), 2);
	p = json_array_get(out, 0);
	assert_string_equal(json_string_value(json_object_get(p, "point")), "member a");
	assert_non_null(ccb_explain_has(json_object_get(p, "explain"), "distrust", NULL) ? p
	                                                                                 : NULL);
	p = json_array_get(out, 1);
	assert_string_equal(json_string_value(json_object_get(p, "point")), "aggregate");
	const char *t = NULL;
	assert_true(ccb_explain_has(json_object_get(p, "explain"), "distrust", &t));
	assert_non_null(strstr(t, "member a: 95 % of this read came from a cache"));
	/* The report itself is left as it was. */
	assert_int_equal(json_array_size(json_object_get(r, "explain")), 0);
	json_decref(out);
	json_decref(doc);
}

static void test_summary_and_text(void **state)
{
	json_t *ex =
	    json_pack("[{s:s, s:s, s:s}, {s:s, s:s, s:s}]", "kind", "simulated", "severity", "info",
	              "text", "a", "kind", "cache", "severity", "distrust", "text", "b");
	char buf[128], *mem = NULL;
	const char *t = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	ccb_explain_summary(ex, buf, sizeof(buf));
	assert_string_equal(buf, "simulated:info;cache:distrust");
	ccb_explain_summary(NULL, buf, sizeof(buf));
	assert_string_equal(buf, "");
	assert_true(ccb_explain_has(ex, "distrust", &t));
	assert_string_equal(t, "b");
	assert_false(ccb_explain_has(ex, "warn", NULL));
	f = open_memstream(&mem, &len);
	ccb_explain_write_text(ex, f);
	fclose(f);
	assert_string_equal(mem, "why                a\nwhy                DISTRUST: b\n");
	free(mem);
	json_decref(ex);
	/* Not an object: an empty list. */
	ex = ccb_explain(NULL, NULL);
	assert_int_equal(json_array_size(ex), 0);
	json_decref(ex);
}

/*
 * A saved result can be crafted: a list of OSD names that holds other
 * than strings derives lines without a NULL dereference, and the why lines
 * and the summary escape what the document's strings carry.
 */
static void test_crafted_strings(void **state)
{
	json_t *r = base(), *ex;
	char buf[128], *mem = NULL;
	size_t len = 0;
	FILE *f;
	(void)state;

	json_object_set_new(r, "cluster_state",
	                    json_pack("{s:{s:[i, s], s:i, s:i}, s:{s:[{}], s:i, s:i}}", "start",
	                              "osds_down", 1, "osd.\x1b[2J", "osds_up", 2, "osds", 3, "end",
	                              "osds_down", "osds_up", 3, "osds", 3));
	json_object_set_new(r, "latency_injection", json_pack("{s:[i]}", "lost", 7));
	ex = ccb_explain(r, NULL);
	assert_non_null(ex);
	f = open_memstream(&mem, &len);
	ccb_explain_write_text(ex, f);
	fclose(f);
	assert_null(strchr(mem, '\x1b'));
	assert_non_null(strstr(mem, "osd.\\x1b[2J"));
	free(mem);
	json_decref(ex);
	json_decref(r);

	ex = json_pack("[{s:s, s:s, s:s}]", "kind", "=k\x1b", "severity", "warn", "text",
	               "t\x1b]0;x\x07");
	ccb_explain_summary(ex, buf, sizeof(buf));
	assert_string_equal(buf, "=k\\x1b:warn");
	mem = NULL;
	f = open_memstream(&mem, &len);
	ccb_explain_write_text(ex, f);
	fclose(f);
	assert_string_equal(mem, "why                warning: t\\x1b]0;x\\x07\n");
	free(mem);
	json_decref(ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_littles_law),
	    cmocka_unit_test(test_fs_mount),
	    cmocka_unit_test(test_littles_law_in_flight),
	    cmocka_unit_test(test_client_cpu),
	    cmocka_unit_test(test_open_loop_in_flight),
	    cmocka_unit_test(test_readahead),
	    cmocka_unit_test(test_stall),
	    cmocka_unit_test(test_variance),
	    cmocka_unit_test(test_simulated),
	    cmocka_unit_test(test_latency_sides),
	    cmocka_unit_test(test_emulated),
	    cmocka_unit_test(test_cache),
	    cmocka_unit_test(test_cache_librbd),
	    cmocka_unit_test(test_summary_and_text),
	    cmocka_unit_test(test_cluster_state_parse),
	    cmocka_unit_test(test_cluster),
	    cmocka_unit_test(test_scheduler),
	    cmocka_unit_test(test_network),
	    cmocka_unit_test(test_client_threads),
	    cmocka_unit_test(test_stall_diagnosis),
	    cmocka_unit_test(test_readahead_librbd_more),
	    cmocka_unit_test(test_readahead_krbd),
	    cmocka_unit_test(test_knee_confidence),
	    cmocka_unit_test(test_group),
	    cmocka_unit_test(test_group_rederive),
	    cmocka_unit_test(test_crafted_strings),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
