/* Unit tests for src/run/steady.c: the --until-steady spec and the detector. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ccbench/commands.h>
#include "ccbench/path.h"
#include "ccbench/steady.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define SEC           1000000000ull
#define MIB           1048576ull
#define WMIN          2000000ull
#define WMAX          3600000000ull

static void test_parse_good(void **state)
{
	static const struct {
		const char *in, *text;
		enum ccb_steady_metric metric;
		bool slope;
		uint64_t tol, window_s;
	} cases[] = {
	    {"5%", "bw:5%/5s", CCB_STEADY_BW, false, 500, 5},
	    {"5", "bw:5%/5s", CCB_STEADY_BW, false, 500, 5},
	    {"bw:2.5%", "bw:2.5%/5s", CCB_STEADY_BW, false, 250, 5},
	    {"iops:10%/3s", "iops:10%/3s", CCB_STEADY_IOPS, false, 1000, 3},
	    {"lat:0.1%/2s", "lat:0.1%/2s", CCB_STEADY_LAT, false, 10, 2},
	    {"bw_slope:3%/10s", "bw_slope:3%/10s", CCB_STEADY_BW, true, 300, 10},
	    {"iops_slope:100%/1h", "iops_slope:100%/3600s", CCB_STEADY_IOPS, true, 10000, 3600},
	    {"lat_slope:7.25/2000ms", "lat_slope:7.25%/2s", CCB_STEADY_LAT, true, 725, 2},
	    {"10%/1m", "bw:10%/60s", CCB_STEADY_BW, false, 1000, 60},
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ccb_steady_spec sp;

		memset(&sp, 0xa5, sizeof(sp));
		if (ccb_steady_parse(cases[i].in, WMIN, WMAX, &sp, err, sizeof(err)) != 0)
			fail_msg("'%s' refused: %s", cases[i].in, err);
		assert_true(sp.on);
		assert_string_equal(sp.text, cases[i].text);
		assert_int_equal(sp.metric, cases[i].metric);
		assert_int_equal(sp.slope, cases[i].slope);
		assert_true(sp.tol_centipct == cases[i].tol);
		assert_true(sp.window_usec == cases[i].window_s * 1000000ull);
		/* The normalised text parses to the same spec. */
		struct ccb_steady_spec again;
		assert_int_equal(ccb_steady_parse(sp.text, WMIN, WMAX, &again, err, sizeof(err)),
		                 0);
		assert_memory_equal(&again, &sp, sizeof(sp));
	}
}

static void test_parse_bad(void **state)
{
	static const struct {
		const char *in, *msg;
	} cases[] = {
	    {"", "empty"},
	    {"bw", "TOL 'bw'"},
	    {"bw:", "TOL ''"},
	    {":5%", "METRIC ''"},
	    {"bandwidth:5%", "METRIC 'bandwidth'"},
	    {"BW:5%", "METRIC 'BW'"},
	    {"bw:iops:5%", "TOL 'iops:5%'"},
	    {"bw:5%/", "WINDOW ''"},
	    {"bw:5%/5", "WINDOW '5'"}, /* a bare 5 is 5 s: fine ... */
	    {"bw:0%", "out of range"},
	    {"bw:0.09%", "out of range"},
	    {"bw:100.01%", "out of range"},
	    {"bw:1000%", "out of range"},
	    {"bw:99999999999999999999%", "out of range"},
	    {"bw:5%/1s", "out of range"},
	    {"bw:5%/2h", "out of range"},
	    {"bw:5%/1500ms", "out of range"},
	    {"bw:5%/2500ms", "whole seconds"},
	    {"bw:-5%", "TOL '-5%'"},
	    {"bw:5%%", "TOL '5%%'"},
	    {"bw:nan", "TOL 'nan'"},
	    {"bw:inf%", "TOL 'inf%'"},
	    {"bw:5e1", "TOL '5e1'"},
	    {"bw: 5%", "TOL ' 5%'"},
	    {"bw:5%/5s/5s", "WINDOW '5s/5s'"},
	    {"bw:5%/5 s", "WINDOW '5 s'"},
	    {"bw:5%/5M", "WINDOW '5M'"},
	    {"bw:5%/-5s", "WINDOW '-5s'"},
	    {"bw:5%/99999999999999999999s", "out of range"},
	};
	char err[256];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ccb_steady_spec sp = {0};
		int r;

		/* "bw:5%/5" is a good spec (5 s): the only case here that passes. */
		r = ccb_steady_parse(cases[i].in, WMIN, WMAX, &sp, err, sizeof(err));
		if (strcmp(cases[i].in, "bw:5%/5") == 0) {
			assert_int_equal(r, 0);
			continue;
		}
		if (r != -EINVAL)
			fail_msg("'%s' accepted", cases[i].in);
		if (!strstr(err, cases[i].msg))
			fail_msg("'%s': message '%s' lacks '%s'", cases[i].in, err, cases[i].msg);
		assert_false(sp.on); /* nothing written on failure */
	}
}

/* Fuzz-style: random bytes and mutations of good specs never crash,
 * and whatever is accepted is within the ranges and round-trips. */
static void test_parse_garbage(void **state)
{
	static const char alphabet[] = "bwiopslat_:%/.0123456789smh -+eEnNx\x01\xff";
	static const char *const seeds[] = {"bw:5%/5s", "iops_slope:2.5%/10s", "lat:100%/1h"};
	uint64_t x = 0x9e3779b97f4a7c15ull;
	char in[64], err[256];

	(void)state;
	for (int round = 0; round < 200000; round++) {
		struct ccb_steady_spec sp = {0};
		size_t n;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (round % 2) {
			n = x % (sizeof(in) - 1);
			for (size_t i = 0; i < n; i++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				in[i] = alphabet[x % (sizeof(alphabet) - 1)];
			}
			in[n] = '\0';
		} else {
			snprintf(in, sizeof(in), "%s", seeds[x % ARRAY_SIZE(seeds)]);
			n = strlen(in);
			for (int m = 0; m < 3; m++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				in[x % n] = alphabet[(x >> 20) % (sizeof(alphabet) - 1)];
			}
		}
		if (ccb_steady_parse(in, WMIN, WMAX, &sp, err, sizeof(err)) != 0) {
			assert_true(err[0] != '\0');
			continue;
		}
		assert_true(sp.tol_centipct >= CCB_STEADY_TOL_MIN &&
		            sp.tol_centipct <= CCB_STEADY_TOL_MAX);
		assert_true(sp.window_usec >= WMIN && sp.window_usec <= WMAX &&
		            sp.window_usec % 1000000 == 0);
		struct ccb_steady_spec again;
		assert_int_equal(ccb_steady_parse(sp.text, WMIN, WMAX, &again, err, sizeof(err)),
		                 0);
		assert_memory_equal(&again, &sp, sizeof(sp));
	}
}

/* A run moving @p mib_s[i] MiB in second i, fed every 100 ms as the
 * supervisor would (with @p ops_per_mib ops a MiB, each @p lat_us long).
 * Returns the tick (in 100 ms) at which the detector first said steady, or -1. */
static int feed(struct ccb_steady *d, const double *mib_s, size_t secs, double lat_us)
{
	double bytes = 0, ops = 0, lat = 0;

	for (size_t tick = 1; tick <= secs * 10; tick++) {
		double r = mib_s[(tick - 1) / 10];

		bytes += r * MIB / 10;
		ops += r * 16 / 10; /* 64K ops */
		lat += r * 16 / 10 * lat_us * 1000;
		if (ccb_steady_feed(d, tick * SEC / 10, (uint64_t)bytes, (uint64_t)ops,
		                    (uint64_t)lat))
			return (int)tick;
	}
	return -1;
}

static struct ccb_steady_spec spec_of(const char *text)
{
	struct ccb_steady_spec sp;
	char err[256];

	if (ccb_steady_parse(text, WMIN, WMAX, &sp, err, sizeof(err)) != 0)
		fail_msg("'%s': %s", text, err);
	return sp;
}

static void test_steady_after_ramp(void **state)
{
	/* A fast start (a cache filling), then a level with 5 % of noise. */
	static const double s[] = {200, 120, 50, 52, 49, 51, 50, 48, 52, 50, 51, 49};
	struct ccb_steady_spec sp = spec_of("bw:10%/3s");
	struct ccb_steady d;
	json_t *j;

	(void)state;
	/* Ramp of 1 s alone: samples 2..4 = 120, 50, 52 do not hold; 3..5 do. */
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_int_equal(feed(&d, s, ARRAY_SIZE(s), 1000), 50);
	assert_true(d.attained);
	assert_true(fabs(d.band.mean - 50.333) < 0.01);
	assert_true(fabs(d.band.bw_mib_s - 50.333) < 0.01);
	assert_true(fabs(d.band.lat_us - 1000) < 2); /* ops are whole */
	assert_true(fabs(d.attained_s - 5.0) < 1e-9);
	j = ccb_steady_json(&d, "ignored", 0);
	assert_non_null(j);
	assert_true(json_is_true(json_object_get(j, "attained")));
	assert_null(json_object_get(j, "why"));
	assert_int_equal(json_array_size(json_object_get(json_object_get(j, "window"), "values")),
	                 3);
	json_decref(j);
	ccb_steady_free(&d);

	/* A ramp in bytes: the 200 + 120 + 50 MiB of the first three seconds
	 * (370 MiB, reached at the end of second 3) before samples count. */
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 360 * MIB, true, "2 × readahead 180M"), 0);
	assert_int_equal(feed(&d, s, ARRAY_SIZE(s), 1000), 60);
	assert_true(d.ramp_over && fabs(d.ramp_over_s - 3.0) < 1e-9);
	ccb_steady_free(&d);

	/* The broken rule (the integration test's): 100 %, no ramp, 2 s. The
	 * first two seconds hold (200 and 120 are within 100 % of 160): the
	 * run would stop at the ramp-up, at three times the level. */
	sp = spec_of("bw:100%/2s");
	assert_int_equal(ccb_steady_init(&d, &sp, 0, 0, false, "--steady-ramp"), 0);
	assert_int_equal(feed(&d, s, ARRAY_SIZE(s), 1000), 20);
	assert_true(d.band.mean > 150);
	ccb_steady_free(&d);
}

static void test_not_steady(void **state)
{
	static const double trend[] = {10, 20, 30, 40, 50, 60, 70, 80};
	/* ±20 % around 50, symmetric in each window of 4: no trend. */
	static const double noisy[] = {50, 40, 60, 60, 40, 40, 60, 60, 40, 50};
	struct ccb_steady_spec sp = spec_of("bw:10%/3s");
	struct ccb_steady d;
	json_t *j;

	(void)state;
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_int_equal(feed(&d, trend, ARRAY_SIZE(trend), 500), -1);
	j = ccb_steady_json(&d, "--duration reached", 0);
	assert_false(json_is_true(json_object_get(j, "attained")));
	assert_true(json_is_null(json_object_get(j, "at_s")));
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")), "--duration reached"));
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")), "strayed"));
	/* The last window: 60, 70, 80. */
	assert_true(fabs(json_number_value(json_object_get(json_object_get(j, "window"), "mean")) -
	                 70) < 1e-9);
	json_decref(j);
	ccb_steady_free(&d);

	/* The slope criterion: noise around a level holds, a trend does not. */
	sp = spec_of("bw_slope:10%/4s");
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_true(feed(&d, noisy, ARRAY_SIZE(noisy), 500) > 0);
	assert_true(d.band.max_deviation_pct > 15); /* the deviation rule would not */
	ccb_steady_free(&d);
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_int_equal(feed(&d, trend, ARRAY_SIZE(trend), 500), -1);
	ccb_steady_free(&d);

	/* Ended during the ramp: the bytes never came. */
	sp = spec_of("bw:10%/3s");
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 1000 * MIB, true, "2 × readahead 500M"), 0);
	assert_int_equal(feed(&d, noisy, 3, 500), -1);
	j = ccb_steady_json(&d, NULL, 0);
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")), "during the ramp"));
	json_decref(j);
	/* What the run moved in all, past the last sample, is what it says. */
	j = ccb_steady_json(&d, NULL, 300 * MIB);
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")),
	                       "during the ramp: 300.0 MiB of its 1000.0 MiB moved"));
	assert_true(json_is_null(json_object_get(json_object_get(j, "ramp"), "over_at_s")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(j, "ramp"), "basis")),
	                    "2 × readahead 500M");
	json_decref(j);
	ccb_steady_free(&d);

	/* Ramp over, but the run ended before a whole window. */
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_int_equal(feed(&d, noisy, 3, 500), -1);
	j = ccb_steady_json(&d, NULL, 0);
	assert_non_null(strstr(json_string_value(json_object_get(j, "why")), "before a whole"));
	json_decref(j);
	ccb_steady_free(&d);
}

/* A stall: zero bandwidth is never steady, and a second without ops has
 * no latency (the lat window starts again). */
static void test_zero_and_lat(void **state)
{
	static const double stall[] = {50, 0, 0, 0, 0, 0, 0};
	static const double level[] = {50, 50, 50, 0, 50, 50, 50, 50};
	struct ccb_steady_spec sp = spec_of("bw:10%/3s");
	struct ccb_steady d;
	json_t *j;

	(void)state;
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	assert_int_equal(feed(&d, stall, ARRAY_SIZE(stall), 500), -1);
	j = ccb_steady_json(&d, NULL, 0);
	assert_non_null(j); /* an infinite deviation is null in JSON, not a failed pack */
	assert_true(
	    json_is_null(json_object_get(json_object_get(j, "window"), "max_deviation_pct")));
	json_decref(j);
	ccb_steady_free(&d);

	sp = spec_of("lat:10%/3s");
	assert_int_equal(ccb_steady_init(&d, &sp, SEC, 0, true, NULL), 0);
	/* Seconds 2, 3 hold; 4 has no op; 5..7 hold again: steady at 7 s. */
	assert_int_equal(feed(&d, level, ARRAY_SIZE(level), 800), 70);
	assert_true(fabs(d.band.mean - 800) < 1e-6);
	ccb_steady_free(&d);
}

static void test_ramp_of(void **state)
{
	static const char *const what[] = {"readahead", "object size"};
	uint64_t sizes[2] = {128 * MIB, 4 * MIB};
	char basis[64];

	(void)state;
	assert_true(ccb_steady_ramp_of(what, sizes, 2, basis, sizeof(basis)) == 256 * MIB);
	assert_string_equal(basis, "2 × readahead 128M");
	sizes[0] = 128 * 1024;
	assert_true(ccb_steady_ramp_of(what, sizes, 2, basis, sizeof(basis)) == 8 * MIB);
	assert_string_equal(basis, "2 × object size 4M");
	sizes[0] = sizes[1] = 0;
	assert_true(ccb_steady_ramp_of(what, sizes, 2, basis, sizeof(basis)) == 0);
	assert_string_equal(basis, "");
	sizes[0] = UINT64_MAX; /* no overflow: no ramp rather than a wrapped one */
	assert_true(ccb_steady_ramp_of(what, sizes, 2, basis, sizeof(basis)) == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_parse_good),    cmocka_unit_test(test_parse_bad),
	    cmocka_unit_test(test_parse_garbage), cmocka_unit_test(test_steady_after_ramp),
	    cmocka_unit_test(test_not_steady),    cmocka_unit_test(test_zero_and_lat),
	    cmocka_unit_test(test_ramp_of),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
