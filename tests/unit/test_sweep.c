/* Unit tests for the sweep config loader (src/sweep_config.c and
 * sweep_point.c): config errors, path_params, the --param / --repeat
 * overrides, the layout keys and the dry-run estimate. Nothing here
 * connects: ccb_sweep_load() checks every point offline. */
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
#include <unistd.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/hist_json.h"
#include "ccbench/path.h"
#include "ccbench/options.h"
#include "ccbench/sweep.h"
#include "../../src/sweep/sweep_aggregate.h"
#include "../../src/sweep/sweep_point.h"
#include "../../src/sweep/sweep_runner.h"

static char cfg_path[64];

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(cfg_path, sizeof(cfg_path), "/tmp/ccb-test-sweep.XXXXXX");
	fd = mkstemp(cfg_path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(cfg_path);
	return 0;
}

static void write_cfg(const char *text)
{
	FILE *f = fopen(cfg_path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* Sweep options as the command line would give them: "--param K=V", "--repeat N". */
static void sweep_opts(struct ccb_opts *o, const char *const *args)
{
	char err[256];

	ccb_opts_defaults(o);
	for (; args && args[0]; args += 2) {
		const struct ccb_opt_desc *d = ccb_opt_find(args[0]);
		assert_non_null(d);
		if (ccb_opt_set(o, d, args[1], err, sizeof(err)) < 0)
			fail_msg("--%s %s: %s", args[0], args[1], err);
	}
}

/* Load TEXT with ARGS; it must load. Returns the points; *cfg gets the config. */
static json_t *load_ok(const char *text, const char *const *args, json_t **cfg)
{
	struct ccb_opts o;
	json_t *c = NULL, *points = NULL;
	char err[1024] = "";

	write_cfg(text);
	sweep_opts(&o, args);
	if (ccb_sweep_load(cfg_path, &o, &c, &points, err, sizeof(err)) != 0)
		fail_msg("load failed: %s", err);
	if (cfg)
		*cfg = c;
	else
		json_decref(c);
	return points;
}

/* Load TEXT with ARGS; it must fail with -EINVAL and a message holding WANT. */
static void load_bad(const char *text, const char *const *args, const char *want)
{
	struct ccb_opts o;
	json_t *c = NULL, *points = NULL;
	char err[1024] = "";
	int r;

	write_cfg(text);
	sweep_opts(&o, args);
	r = ccb_sweep_load(cfg_path, &o, &c, &points, err, sizeof(err));
	if (r != -EINVAL)
		fail_msg("expected -EINVAL for %s, got %d", text, r);
	if (!strstr(err, want))
		fail_msg("message '%s' lacks '%s'", err, want);
	assert_null(c);
	assert_null(points);
}

static const char *pstr(const json_t *points, size_t i, const char *key)
{
	return json_string_value(
	    json_object_get(json_object_get(json_array_get(points, i), "params"), key));
}

/* Seed 002's shape, small: readahead x path, sim latency scoped to librbd. */
#define SEED_CFG                                                                                   \
	"{\"name\": \"s\", \"command\": \"rbd read\",\n"                                           \
	" \"params\": {\"size\": \"64M\", \"io-size\": \"64K\"},\n"                                \
	" \"path_params\": {\"librbd\": {\"sim-osd-latency\": \"2ms\"}},\n"                        \
	" \"matrix\": {\"readahead\": [\"128K\", \"1M\", \"4M\"], \"order\": [20, 22],\n"          \
	"            \"path\": [\"librbd\", \"krbd\"]}, \"repeat\": 3, \"tradeoff\": true}"

static void test_config_errors(void **state)
{
	(void)state;
	load_bad("{\"command\": \"rados write\",\n \"matrix\": {\"clients\": [1,]}}", NULL, ":2:");
	load_bad("[1]", NULL, "expected a JSON object");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"order\": [20]}, \"bogus\": 1}", NULL,
	         "unknown key 'bogus'");
	load_bad("{\"matrix\": {\"order\": [20]}}", NULL, "'command' must be a string");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {}}", NULL, "'matrix' must be");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"order\": []}}", NULL,
	         "matrix.order must be a non-empty list");
	load_bad("{\"command\": \"rbd read\", \"params\": {\"order\": 20}, \"matrix\": {\"order\": "
	         "[22]}}",
	         NULL, "'order' is both in params and in matrix");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"order\": [20, 40]}}", NULL,
	         "point {order=40}: --order '40': out of range");
	load_bad("{\"command\": \"rbd read\", \"repeat\": 0, \"matrix\": {\"order\": [20]}}", NULL,
	         "'repeat' must be an integer from 1 to 1000");
	load_bad("{\"command\": \"cleanup\", \"matrix\": {\"clients\": [1]}}", NULL,
	         "not a workload");
	/* The shipped seed-002 config's old defect: a librbd-only option given
	 * to every point fails at the kernel point. */
	load_bad("{\"command\": \"rbd read\", \"params\": {\"sim-osd-latency\": \"2ms\"}, "
	         "\"matrix\": {\"path\": [\"librbd\", \"krbd\"]}}",
	         NULL, "point {path=krbd}: --sim-osd-latency: not an option of this command");
}

static void test_path_params_errors(void **state)
{
	(void)state;
	load_bad("{\"command\": \"rbd read\", \"path_params\": [1], \"matrix\": {\"order\": [20]}}",
	         NULL, "'path_params' must be an object");
	load_bad("{\"command\": \"rbd read\", \"path_params\": {\"nfs\": {}}, \"matrix\": "
	         "{\"order\": [20]}}",
	         NULL, "path_params.nfs: not a path");
	load_bad("{\"command\": \"rbd read\", \"path_params\": {\"krbd\": 3}, \"matrix\": "
	         "{\"order\": [20]}}",
	         NULL, "path_params.krbd must be an object");
	load_bad("{\"command\": \"rbd read\", \"params\": {\"io-size\": \"4K\"}, \"path_params\": "
	         "{\"librbd\": {\"io-size\": \"8K\"}}, \"matrix\": {\"order\": [20]}}",
	         NULL, "path_params.librbd.io-size: 'io-size' is also in params");
	load_bad("{\"command\": \"rbd read\", \"path_params\": {\"librbd\": {\"order\": 20}}, "
	         "\"matrix\": {\"order\": [20]}}",
	         NULL, "'order' is also in matrix");
	/* A scoped value is still checked through the option table. */
	load_bad("{\"command\": \"rbd read\", \"path_params\": {\"librbd\": {\"sim-osd-latency\": "
	         "\"1h\"}}, \"matrix\": {\"path\": [\"librbd\", \"krbd\"]}}",
	         NULL, "point {path=librbd}: --sim-osd-latency '1h': out of range");
}

static void test_path_params_scope(void **state)
{
	json_t *cfg, *points = load_ok(SEED_CFG, NULL, &cfg);
	size_t i, n_lib = 0;
	json_t *p;

	(void)state;
	assert_int_equal(json_array_size(points), 12);
	json_array_foreach(points, i, p)
	{
		const char *path =
		    json_string_value(json_object_get(json_object_get(p, "matrix"), "path"));
		const char *cmd = json_string_value(json_object_get(p, "command"));
		if (strcmp(path, "librbd") == 0) {
			n_lib++;
			assert_string_equal(cmd, "rbd read");
			assert_string_equal(pstr(points, i, "sim-osd-latency"), "2ms");
		} else {
			assert_string_equal(cmd, "krbd read");
			assert_null(pstr(points, i, "sim-osd-latency"));
		}
	}
	assert_int_equal(n_lib, 6);
	json_decref(points);
	json_decref(cfg);
}

static void test_param_overrides(void **state)
{
	static const char *const args[] = {
	    "param",  "readahead=4M",        /* axis: one value */
	    "param",  "order=[22, 21]",      /* axis: a list */
	    "param",  "size=16M",            /* params: replaced */
	    "param",  "sim-osd-latency=5ms", /* scoped: stays scoped */
	    "param",  "no-cache=false",      /* new key, a flag */
	    "repeat", "1",
	    NULL};
	json_t *cfg, *points = load_ok(SEED_CFG, args, &cfg), *m = json_object_get(cfg, "matrix");
	size_t i;
	json_t *p;

	(void)state;
	/* 1 readahead x 2 orders x 2 paths. */
	assert_int_equal(json_array_size(points), 4);
	assert_int_equal(json_array_size(json_object_get(m, "readahead")), 1);
	assert_string_equal(json_string_value(json_array_get(json_object_get(m, "readahead"), 0)),
	                    "4M");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(m, "order"), 0)), 22);
	assert_int_equal(json_integer_value(json_object_get(cfg, "repeat")), 1);
	assert_true(json_is_false(json_object_get(json_object_get(cfg, "params"), "no-cache")));
	json_array_foreach(points, i, p)
	{
		bool lib =
		    strcmp(json_string_value(json_object_get(p, "command")), "rbd read") == 0;
		assert_string_equal(pstr(points, i, "size"), "16M");
		if (lib)
			assert_string_equal(pstr(points, i, "sim-osd-latency"), "5ms");
		else
			assert_null(pstr(points, i, "sim-osd-latency"));
	}
	json_decref(points);
	json_decref(cfg);
}

static void test_param_removal_and_integers(void **state)
{
	static const char *const args[] = {
	    "param", "sim-osd-latency=", "param", "io-size=", "param", "queue-depth=1", NULL};
	json_t *cfg, *points = load_ok(SEED_CFG, args, &cfg);
	size_t i;
	json_t *p;

	(void)state;
	assert_null(json_object_get(json_object_get(cfg, "params"), "io-size"));
	/* An integer option's value reads as the config's would: a number. */
	assert_true(
	    json_is_integer(json_object_get(json_object_get(cfg, "params"), "queue-depth")));
	json_array_foreach(points, i, p) assert_null(pstr(points, i, "sim-osd-latency"));
	json_decref(points);
	json_decref(cfg);
}

static void test_param_errors(void **state)
{
	static const char *const bad_key[] = {"param", "bogus=1", NULL};
	static const char *const bad_value[] = {"param", "size=lots", NULL};
	static const char *const bad_flag[] = {"param", "no-cache=maybe", NULL};
	static const char *const bad_list[] = {"param", "order=[]", NULL};
	static const char *const bad_json[] = {"param", "order=[20,", NULL};
	static const char *const axis_removed[] = {"param", "order=", NULL};
	static const char *const wrong_path[] = {"param", "map-via=fuse-loop", NULL};
	struct ccb_opts o;
	char err[256] = "";

	(void)state;
	load_bad(SEED_CFG, bad_key, "--param 'bogus=1': no such option 'bogus'");
	load_bad(SEED_CFG, bad_value, "--size 'lots': not a size");
	load_bad(SEED_CFG, bad_flag, "--no-cache is a flag: true or false");
	load_bad(SEED_CFG, bad_list, "expected a non-empty JSON list");
	load_bad(SEED_CFG, bad_json, "expected a non-empty JSON list");
	load_bad(SEED_CFG, axis_removed, "'order' is a matrix axis");
	load_bad(SEED_CFG, wrong_path, "path=librbd}: --map-via: not an option of this command");
	/* The option parser refuses the malformed ones before any load. */
	ccb_opts_defaults(&o);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("param"), "size", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "expected KEY=VALUE"));
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("param"), "=1", err, sizeof(err)), -EINVAL);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("repeat"), "0", err, sizeof(err)), -EINVAL);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("repeat"), "1001", err, sizeof(err)),
	                 -EINVAL);
	assert_int_equal(ccb_opt_set(&o, ccb_opt_find("repeat"), "x", err, sizeof(err)), -EINVAL);
	assert_int_equal(o.n_params, 0);
}

/* The pool is part of the layout: points in two pools get two images;
 * -p replaces a pool the config names. */
static void test_pool_is_layout(void **state)
{
	static const char *const dash_p[] = {"pool", "other", NULL};
	const char *text = "{\"command\": \"rbd read\", \"params\": {\"size\": \"16M\"},"
	                   " \"matrix\": {\"pool\": [\"rbd\", \"fast\"], \"readahead\": [\"0\", "
	                   "\"1M\"]}}";
	json_t *points = load_ok(text, NULL, NULL), *l[4];

	(void)state;
	assert_int_equal(json_array_size(points), 4);
	for (size_t i = 0; i < 4; i++)
		l[i] = json_object_get(
		    json_object_get(json_object_get(json_array_get(points, i), "estimate"),
		                    "prefill"),
		    "layout");
	/* pool slowest: [rbd,0] [rbd,1M] [fast,0] [fast,1M] */
	assert_string_equal(json_string_value(l[0]), json_string_value(l[1]));
	assert_string_equal(json_string_value(l[2]), json_string_value(l[3]));
	assert_string_not_equal(json_string_value(l[0]), json_string_value(l[2]));
	assert_non_null(strstr(json_string_value(l[2]), "pool=fast;"));
	json_decref(points);

	points = load_ok(text, dash_p, NULL);
	assert_int_equal(json_array_size(points), 2);
	assert_string_equal(pstr(points, 0, "pool"), "other");
	json_decref(points);
}

static void test_estimate(void **state)
{
	json_t *points = load_ok(SEED_CFG, NULL, NULL), *e;
	json_t *p2;

	(void)state;
	/* One pass over a 64M image, no duration: bytes known, time not. */
	e = json_object_get(json_array_get(points, 0), "estimate");
	assert_int_equal(json_integer_value(json_object_get(e, "bytes")), 64 << 20);
	assert_true(json_is_null(json_object_get(e, "seconds")));
	assert_string_equal(json_string_value(json_object_get(e, "bound")), "one pass");
	assert_true(json_number_value(json_object_get(e, "tradeoff_seconds")) == 2.0);
	json_decref(points);

	/* Bound by a duration: seconds known, bytes unbounded. */
	p2 = load_ok("{\"command\": \"rados write\", \"params\": {\"pool\": \"rbd\", "
	             "\"duration\": \"30s\"}, \"matrix\": {\"clients\": [1, 2]}}",
	             NULL, NULL);
	e = json_object_get(json_array_get(p2, 1), "estimate");
	assert_true(json_number_value(json_object_get(e, "seconds")) == 30.0);
	assert_true(json_is_null(json_object_get(e, "bytes")));
	assert_string_equal(json_string_value(json_object_get(e, "bytes_if_null")), "unbounded");
	assert_null(json_object_get(e, "prefill"));
	json_decref(p2);
}

/* The dry run's text: one line per point, the run count, and totals that
 * say "unknown" where the options cannot know (one pass: no time). */
static void test_dry_run_text(void **state)
{
	static const char *const args[] = {"param", "readahead=[\"128K\", \"4M\"]", "repeat", "2",
	                                   NULL};
	struct ccb_opts o;
	json_t *cfg, *points = load_ok(SEED_CFG, args, &cfg);
	char *buf = NULL, *line;
	size_t len = 0, grid = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	sweep_opts(&o, args);
	assert_int_equal(ccb_sweep_dry_run(cfg_path, cfg, points, &o, f), 0);
	fclose(f);
	for (line = strtok(buf, "\n"); line; line = strtok(NULL, "\n"))
		if (strspn(line, " ") == 4 && line[4] >= '1' && line[4] <= '9')
			grid++;
	assert_int_equal(grid, 8); /* 2 readahead x 2 orders x 2 paths */
	free(buf);

	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ccb_sweep_dry_run(cfg_path, cfg, points, &o, f), 0);
	fclose(f);
	if (!strstr(buf, "runs: 16 (8 points x 2 repeats)") ||
	    !strstr(buf, "estimated bytes: 1.1 GiB (1.0 GiB by the runs, 128.0 MiB to prefill 2 "
	                 "shared images)") ||
	    !strstr(buf, "estimated time: unknown: 16 of 16 runs") ||
	    !strstr(buf, "krbd read readahead=128K order=20 path=krbd | size=64M io-size=64K  ->"))
		fail_msg("plan text:\n%s", buf);
	free(buf);
	json_decref(points);
	json_decref(cfg);
}

/* repeat_until and tradeoff_runs: their checks, the overrides, and
 * what the dry run makes of them with --until-steady. */
static void test_repeat_until_config(void **state)
{
	static const char *const until_args[] = {"repeat-until", "2.5%", NULL};
	static const char *const off_args[] = {"repeat-until", "0", NULL};
	static const char *const one_args[] = {"repeat", "1", NULL};
	json_t *cfg, *points;

	(void)state;
#define RU_CFG(ru)                                                                                 \
	"{\"command\": \"rados write\", \"params\": {\"pool\": \"rbd\"}, \"repeat\": 3, "          \
	"\"repeat_until\": " ru ", \"matrix\": {\"clients\": [1]}}"
	load_bad(RU_CFG("\"lots\""), NULL, "'repeat_until' must be a percentage");
	load_bad(RU_CFG("\"101%\""), NULL, "'repeat_until' must be a percentage");
	load_bad(RU_CFG("-1"), NULL, "'repeat_until' must be a percentage");
	load_bad(RU_CFG("true"), NULL, "'repeat_until' must be a percentage");
	load_bad(RU_CFG("\"5%%\""), NULL, "'repeat_until' must be a percentage");
	points = load_ok(RU_CFG("\"5%\""), NULL, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 500);
	json_decref(points), json_decref(cfg);
	points = load_ok(RU_CFG("7"), NULL, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 700);
	json_decref(points), json_decref(cfg);
	points = load_ok(RU_CFG("2.5"), NULL, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 250);
	json_decref(points), json_decref(cfg);
	/* The command line's overrides; with one repeat it cannot apply. */
	points = load_ok(RU_CFG("\"5%\""), until_args, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 250);
	json_decref(points), json_decref(cfg);
	points = load_ok(RU_CFG("\"5%\""), off_args, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 0);
	json_decref(points), json_decref(cfg);
	points = load_ok(RU_CFG("\"5%\""), one_args, &cfg);
	assert_true(ccb_sweep_repeat_until(cfg) == 0);
	json_decref(points), json_decref(cfg);
#undef RU_CFG
	load_bad("{\"command\": \"rbd read\", \"tradeoff\": true, \"tradeoff_runs\": 0, "
	         "\"matrix\": {\"readahead\": [\"1M\"]}}",
	         NULL, "'tradeoff_runs' must be an integer from 1 to 1000");
	load_bad("{\"command\": \"rbd read\", \"tradeoff\": true, \"tradeoff_runs\": \"once\", "
	         "\"matrix\": {\"readahead\": [\"1M\"]}}",
	         NULL, "'tradeoff_runs' must be an integer from 1 to 1000");
	load_bad("{\"command\": \"rbd read\", \"params\": {\"until-steady\": \"bw:5%/1s\"}, "
	         "\"matrix\": {\"readahead\": [\"1M\"]}}",
	         NULL, "until-steady 'bw:5%/1s'");
	load_bad("{\"command\": \"fs meta\", \"params\": {\"until-steady\": \"5%\"}, "
	         "\"matrix\": {\"clients\": [1]}}",
	         NULL, "not for fs meta");
}

static void test_steady_estimate(void **state)
{
	static const char *const args[] = {"param", "until-steady=bw:10%/3s", "repeat-until", "5%",
	                                   NULL};
	struct ccb_opts o;
	json_t *cfg, *points, *e, *st;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	/* SEED_CFG with the tradeoff after each point's first run only. */
	char text[1024];
	snprintf(text, sizeof(text), "%s", SEED_CFG);
	char *t = strstr(text, "\"tradeoff\": true");
	assert_non_null(t);
	strcpy(t, "\"tradeoff\": true, \"tradeoff_runs\": 1}");
	points = load_ok(text, args, &cfg);
	/* librbd, order 20, readahead 128K: 10 x 64K before readahead, then
	 * twice the 1M object. */
	e = json_object_get(json_array_get(points, 0), "estimate");
	st = json_object_get(e, "steady");
	assert_non_null(st);
	assert_int_equal(json_integer_value(json_object_get(e, "tradeoff_runs")), 1);
	assert_int_equal(json_integer_value(json_object_get(st, "ramp_bytes")),
	                 10 * 65536 + (2 << 20));
	assert_string_equal(json_string_value(json_object_get(st, "ramp_basis")),
	                    "10 × 64K reads before readahead starts + 2 × object size 1M");
	assert_true(json_number_value(json_object_get(st, "expected_seconds")) == 4.0);
	/* krbd, order 22, readahead 4M: twice the 4M window. */
	e = json_object_get(json_array_get(points, 11), "estimate");
	st = json_object_get(e, "steady");
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 11), "command")), "krbd read");
	assert_int_equal(json_integer_value(json_object_get(st, "ramp_bytes")), 8 << 20);

	sweep_opts(&o, args);
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	assert_int_equal(ccb_sweep_dry_run(cfg_path, cfg, points, &o, f), 0);
	fclose(f);
	/* 12 points x 3 repeats x (1 s ramp + 3 s window) + 12 x 2 s tradeoff
	 * (first runs only) = 168 s; settled after 2 runs: 12 x 2 x 4 + 24 = 120 s. */
	if (!strstr(buf, "expected with --until-steady: 168 s (2.8 min), if every run is steady") ||
	    !strstr(buf, "with repeat_until 5 %: 120 s (2.0 min) if every point settles after 2 "
	                 "runs; 3 repeats at most") ||
	    !strstr(buf, "overrides: --param until-steady=bw:10%/3s --repeat-until 5%") ||
	    !strstr(buf,
	            "+ 2 s tradeoff (first runs); until steady: ramp 2.6 MiB and 1 s, window 3 "
	            "s"))
		fail_msg("plan text:\n%s", buf);
	free(buf);
	json_decref(points);
	json_decref(cfg);
}

/* --osd-latency (and its confirmation) is the whole sweep's: only in params,
 * checked like the command line's, and no point carries it. */
static void test_sweep_wide(void **state)
{
	json_t *cfg = NULL, *points, *strings = json_array();
	struct ccb_opts o, wide;
	char err[512];
	size_t i;

	(void)state;
	points = load_ok("{\"command\": \"rbd read\", \"params\": {\"osd-latency\": \"50ms\"}, "
	                 "\"matrix\": {\"path\": [\"librbd\", \"krbd\"]}}",
	                 NULL, &cfg);
	for (i = 0; i < json_array_size(points); i++)
		assert_null(pstr(points, i, "osd-latency"));
	sweep_opts(&o, NULL);
	assert_int_equal(ccb_sweep_wide_opts(cfg, &o, &wide, strings, err, sizeof(err)), 0);
	assert_int_equal(wide.osd_latency_usec, 50000);
	/* The command line's value wins; the sweep's output options are its own. */
	sweep_opts(&o, (const char *const[]){"osd-latency", "5ms", "format", "json", "json",
	                                     "x.json", NULL});
	assert_int_equal(ccb_sweep_wide_opts(cfg, &o, &wide, strings, err, sizeof(err)), 0);
	assert_int_equal(wide.osd_latency_usec, 5000);
	json_decref(points);
	json_decref(cfg);
	json_decref(strings);
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"osd-latency\": [\"1ms\", "
	         "\"2ms\"]}}",
	         NULL, "'osd-latency' in matrix: it applies to the whole sweep");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"path\": [\"librbd\"]}, "
	         "\"path_params\": {\"librbd\": {\"osd-latency\": \"1ms\"}}}",
	         NULL, "'osd-latency' in path_params");
	load_bad("{\"command\": \"rbd read\", \"params\": {\"osd-latency\": \"20s\"}, "
	         "\"matrix\": {\"io-size\": [\"64K\"]}}",
	         NULL, "--osd-latency '20s': out of range");
	load_bad("{\"command\": \"rbd read\", \"params\": {\"osd-latency-cluster\": "
	         "\"x\"}, \"matrix\": {\"io-size\": [\"64K\"]}}",
	         NULL, "--osd-latency-cluster: only with --osd-latency");
	/* --param lands it in params, where it belongs. */
	points = load_ok("{\"command\": \"rbd read\", \"matrix\": {\"io-size\": [\"64K\"]}}",
	                 (const char *const[]){"param", "osd-latency=2ms", NULL}, &cfg);
	assert_string_equal(
	    json_string_value(json_object_get(json_object_get(cfg, "params"), "osd-latency")),
	    "2ms");
	assert_null(pstr(points, 0, "osd-latency"));
	json_decref(points);
	json_decref(cfg);
}

/* A run as a sweep stores it: its status, whole-run figure and, when its
 * --until-steady held, the window's level. */
static json_t *run_of(double whole, double level, bool steady)
{
	json_t *r = json_pack("{s:s, s:f}", "status", "ok", "bandwidth_mib_s", whole);

	if (level > 0)
		json_object_set_new(r, "steady_state",
		                    json_pack("{s:b, s:{s:f}}", "attained", steady, "window",
		                              "bandwidth_mib_s", level));
	return r;
}

static void test_point_settles(void **state)
{
	json_t *pt = json_pack("{s:[]}", "runs"), *runs = json_object_get(pt, "runs"), *ru;

	(void)state;
	/* One run: no interval. */
	json_array_append_new(runs, run_of(500, 100, true));
	assert_false(ccb_sweep_point_settles(pt, 10000));
	ru = json_object_get(pt, "repeat_until");
	assert_true(json_is_null(json_object_get(ru, "ci95_pct")));
	/* Levels 100 and 101 (the whole runs' 500 and 50 do not count):
	 * 12.706 x 0.5 = 6.35, 6.3 % of 100.5. */
	json_array_append_new(runs, run_of(50, 101, true));
	assert_false(ccb_sweep_point_settles(pt, 600));
	assert_true(ccb_sweep_point_settles(pt, 700));
	ru = json_object_get(pt, "repeat_until");
	assert_true(json_is_true(json_object_get(ru, "settled")));
	assert_int_equal(json_integer_value(json_object_get(ru, "runs_ok")), 2);
	assert_true(fabs(json_number_value(json_object_get(ru, "ci95_pct")) - 6.3209) < 0.001);
	/* A run that did not reach steady state counts its whole run; a failed
	 * run does not count. */
	json_array_append_new(runs, run_of(150, 100, false));
	json_array_append_new(
	    runs, json_pack("{s:s, s:f}", "status", "aborted", "bandwidth_mib_s", 100.0));
	assert_false(ccb_sweep_point_settles(pt, 5000));
	assert_int_equal(
	    json_integer_value(json_object_get(json_object_get(pt, "repeat_until"), "runs_ok")), 3);
	json_decref(pt);
	/* Zero bandwidth never settles (no share of 0). */
	pt = json_pack("{s:[]}", "runs");
	json_array_append_new(json_object_get(pt, "runs"), run_of(0, 0, false));
	json_array_append_new(json_object_get(pt, "runs"), run_of(0, 0, false));
	assert_false(ccb_sweep_point_settles(pt, 10000));
	json_decref(pt);
}

/* "tradeoff": true is 4K; a list names each read size, checked. */
static void test_tradeoff_sizes(void **state)
{
	uint64_t sizes[CCB_SWEEP_TRADEOFF_MAX];
	size_t n = 9;
	char err[256];
	json_t *v;

	(void)state;
	assert_int_equal(ccb_sweep_tradeoff_sizes(NULL, sizes, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	v = json_true();
	assert_int_equal(ccb_sweep_tradeoff_sizes(v, sizes, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(sizes[0], 4096);
	json_decref(v);
	v = json_loads("[\"4K\", \"64K\"]", 0, NULL);
	assert_int_equal(ccb_sweep_tradeoff_sizes(v, sizes, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 2);
	assert_int_equal(sizes[1], 65536);
	json_decref(v);
	v = json_loads("[\"4K\", \"4096\"]", 0, NULL);
	assert_int_equal(ccb_sweep_tradeoff_sizes(v, sizes, &n, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "twice"));
	json_decref(v);
	v = json_loads("[\"100\"]", 0, NULL);
	assert_int_equal(ccb_sweep_tradeoff_sizes(v, sizes, &n, err, sizeof(err)), -EINVAL);
	json_decref(v);
	v = json_string("yes");
	assert_int_equal(ccb_sweep_tradeoff_sizes(v, sizes, &n, err, sizeof(err)), -EINVAL);
	json_decref(v);
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"readahead\": [\"1M\"]}, "
	         "\"tradeoff\": [\"4K\", \"1T\"]}",
	         NULL, "tradeoff[1]: expected a read size");
}

/* Runners: a path each, a command each; --runner PATH=CMD over the config. */
static void test_runners(void **state)
{
	json_t *r = json_loads("{\"krbd\": \"ssh h ccbench\"}", 0, NULL), *points;
	char err[256];

	(void)state;
	assert_int_equal(ccb_sweep_runners_check(r, NULL, err, sizeof(err)), 0);
	assert_string_equal(ccb_sweep_runner_of("krbd", NULL, r), "ssh h ccbench");
	assert_string_equal(ccb_sweep_runner_of("krbd", "krbd=other", r), "other");
	assert_null(ccb_sweep_runner_of("librbd", "krbd=other", r));
	assert_null(ccb_sweep_runner_of("kr", "krbd=other", NULL));
	assert_int_equal(ccb_sweep_runners_check(r, "krbd", err, sizeof(err)), -EINVAL);
	assert_int_equal(ccb_sweep_runners_check(r, "disk=x", err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a path"));
	json_decref(r);
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"io-size\": [\"64K\"]}, "
	         "\"runners\": {\"krbd\": \"\"}}",
	         NULL, "runners.krbd: expected a command");
	load_bad("{\"command\": \"rbd read\", \"matrix\": {\"io-size\": [\"64K\"]}, "
	         "\"runners\": [\"x\"]}",
	         NULL, "'runners' must be an object");
	points = load_ok("{\"command\": \"rbd read\", \"matrix\": {\"io-size\": [\"64K\"]}, "
	                 "\"runners\": {\"krbd\": \"x\"}}",
	                 NULL, NULL);
	json_decref(points);
}

/* A point's arguments for a runner: its command, what it was given (not the
 * sweep-wide options), the shared image as its target, -f json -q. */
static void test_point_args(void **state)
{
	struct ccb_sweep_point b;
	struct ccb_opts o;
	json_t *params = json_loads("{\"readahead\": \"4M\", \"io-size\": \"64K\", "
	                            "\"map-via\": \"kernel\", \"duration\": \"8s\"}",
	                            0, NULL),
	       *args;
	char err[256], *s;

	(void)state;
	sweep_opts(&o, (const char *const[]){"conf", "/dev/null", "osd-latency", "5ms", NULL});
	assert_int_equal(ccb_sweep_build_point(&o, "krbd read", params, &b, err, sizeof(err)), 0);
	args = ccb_sweep_point_args(&b, "rbd/img");
	s = json_dumps(args, JSON_COMPACT);
	assert_string_equal(s, "[\"krbd\",\"read\",\"--conf\",\"/dev/null\",\"--duration\","
	                       "\"8000000us\",\"--io-size\",\"65536\",\"--map-via\","
	                       "\"kernel\",\"--read-ahead-kb\",\"4096\",\"--map\","
	                       "\"rbd/img\",\"-f\",\"json\",\"-q\"]");
	free(s);
	json_decref(args);
	ccb_sweep_point_free(&b);
	json_decref(params);
}

/* A "command" axis: each point runs its own command; --param command=
 * moves the config's command when the matrix does not vary it. */
static void test_command_axis(void **state)
{
	static const char cfg[] =
	    "{\"command\": \"fs write\", \"params\": {\"file-size\": \"16M\"},\n"
	    " \"matrix\": {\"command\": [\"fs write\", \"fs read\"],\n"
	    "            \"mount-via\": [\"libcephfs\", \"fuse\"]}}";
	static const char *const one[] = {"param", "command=fs read", NULL};
	static const char *const list[] = {"param", "command=[\"fs meta\"]", NULL};
	json_t *points, *c;

	(void)state;
	points = load_ok(cfg, NULL, NULL);
	assert_int_equal(json_array_size(points), 4);
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 0), "command")), "fs write");
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 3), "command")), "fs read");
	/* The command is the point's, not one of its options. */
	assert_null(
	    json_object_get(json_object_get(json_array_get(points, 3), "params"), "command"));
	assert_string_equal(pstr(points, 3, "mount-via"), "fuse");
	json_decref(points);
	points = load_ok(cfg, one, NULL);
	assert_int_equal(json_array_size(points), 2);
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 1), "command")), "fs read");
	json_decref(points);
	points = load_ok("{\"command\": \"fs write\", \"matrix\": {\"clients\": [1]}}", one, &c);
	assert_string_equal(json_string_value(json_object_get(c, "command")), "fs read");
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 0), "command")), "fs read");
	json_decref(points);
	json_decref(c);
	points = load_ok("{\"command\": \"fs write\", \"matrix\": {\"clients\": [1]}}", list, NULL);
	assert_string_equal(
	    json_string_value(json_object_get(json_array_get(points, 0), "command")), "fs meta");
	json_decref(points);
	load_bad("{\"command\": \"fs write\", \"matrix\": {\"command\": [\"fs write\", 3]}}", NULL,
	         "matrix.command: expected strings");
	load_bad("{\"command\": \"fs write\", \"matrix\": {\"command\": [\"fs nope\"]}}", NULL,
	         "unknown command 'fs nope'");
	/* A point whose client is not there: refused at load (and dry run). */
	load_bad("{\"command\": \"fs write\", \"matrix\": {\"mount-via\": [\"fuse\", \"nfs\"]}}",
	         NULL, "point {mount-via=nfs}: --mount-via 'nfs'");
}

/* A point of a sweep document: its matrix and aggregate bandwidth. */
static json_t *agg_point(const char *via, const char *command, double mean, double sd, int ok)
{
	return json_pack("{s:s, s:{s:s, s:s}, s:{s:i, s:i, s:{s:f, s:f}}}", "command", command,
	                 "matrix", "command", command, "mount-via", via, "aggregate", "runs", 3,
	                 "runs_ok", ok, "bandwidth_mib_s", "mean", mean, "stddev", sd);
}

/* A client axis (names, not amounts): the best per column, what each
 * other loses, in the text and on the chart's named ticks. */
static void test_categorical_recommendation(void **state)
{
	json_t *points = json_array(), *knees, *k, *doc;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	json_array_append_new(points, agg_point("libcephfs", "fs write", 300, 10, 3));
	json_array_append_new(points, agg_point("fuse", "fs write", 60, 5, 3));
	json_array_append_new(points, agg_point("kernel", "fs write", 330, 12, 3));
	json_array_append_new(points, agg_point("libcephfs", "fs read", 400, 20, 3));
	json_array_append_new(points, agg_point("fuse", "fs read", 100, 5, 3));
	json_array_append_new(points, agg_point("kernel", "fs read", 0, 0, 0)); /* failed */
	doc =
	    json_pack("{s:{s:s, s:s, s:{s:[s,s], s:[s,s,s]}}, s:O, s:s, s:i, s:s, s:s}", "config",
	              "name", "fs-clients", "command", "fs write", "matrix", "command", "fs write",
	              "fs read", "mount-via", "libcephfs", "fuse", "kernel", "points", points,
	              "row_key", "mount-via", "repeat", 3, "order", "interleaved", "status", "ok");
	assert_string_equal(
	    ccb_sweep_row_key(json_object_get(json_object_get(doc, "config"), "matrix")),
	    "mount-via");
	knees = ccb_sweep_knees(points, "mount-via");
	assert_int_equal(json_array_size(knees), 2);
	k = json_array_get(knees, 0);
	assert_string_equal(json_string_value(json_object_get(k, "kind")), "best");
	assert_string_equal(json_string_value(json_object_get(k, "value")), "kernel");
	assert_int_equal(json_array_size(json_object_get(k, "others")), 2);
	assert_true(fabs(json_real_value(json_object_get(
	                     json_array_get(json_object_get(k, "others"), 1), "vs_best_pct")) -
	                 (60.0 / 330 - 1) * 100) < 1e-6);
	k = json_array_get(knees, 1);
	assert_string_equal(json_string_value(json_object_get(k, "value")), "libcephfs");
	/* The failed point is no candidate, and said so. */
	assert_true(json_is_null(
	    json_object_get(json_array_get(json_object_get(k, "others"), 1), "vs_best_pct")));
	json_object_set_new(doc, "knees", knees);
	f = open_memstream(&text, &len);
	ccb_sweep_render_text(doc, f);
	fclose(f);
	assert_non_null(strstr(text, "sweep fs-clients: fs write, fs read,"));
	assert_non_null(strstr(text, "(* = the best of its column)"));
	assert_non_null(strstr(text, "recommendation (command=fs write): mount-via kernel, 330.0 "
	                             "MiB/s, the best; libcephfs 300.0 (-9 %), fuse 60.0 (-82 %)"));
	assert_non_null(strstr(text, "mount-via libcephfs, 400.0 MiB/s, the best; fuse 100.0 "
	                             "(-75 %), kernel failed"));
	assert_non_null(strstr(text, "vs mount-via libcephfs: 300.0"));
	free(text);
	f = open_memstream(&text, &len);
	assert_int_equal(ccb_sweep_render_svg(doc, f), 0);
	fclose(f);
	assert_non_null(strstr(text, ">kernel</text>"));
	assert_non_null(strstr(text, ">fuse</text>"));
	free(text);
	/* One command column, not a second one from the axis. */
	f = open_memstream(&text, &len);
	assert_int_equal(ccb_sweep_render_csv(doc, f), 0);
	fclose(f);
	assert_non_null(strstr(text, "point,command,mount-via,runs,"));
	assert_non_null(strstr(text, "\n3,fs write,kernel,3,3,330.000,"));
	free(text);
	json_decref(points);
	json_decref(doc);
}

/* A run of one OSD's @p ops ops at @p ms each, with its histogram. */
static json_t *osd_run(const char *status, int osd, int ops, double ms)
{
	struct ccb_hist *h = calloc(1, sizeof(*h));
	json_t *r;

	ccb_hist_init(h);
	for (int i = 0; i < ops; i++)
		ccb_hist_record(h, (uint64_t)(ms * 1e6));
	r = json_pack("{s:s, s:{s:{s:I}, s:[{s:i, s:i, s:i, s:{s:i, s:f, s:f}, s:o}]}}", "status",
	              status, "attribution", "client", "ops", (json_int_t)ops, "osds", "osd", osd,
	              "ops", ops, "bytes", ops * 4096, "latency_us", "n", ops, "mean", ms * 1e3,
	              "max", ms * 1e3, "hist", ccb_hist_to_json(h));
	free(h);
	return r;
}

/* A point's ok runs merged per OSD (ops and histograms added), an
 * aborted run left out: what its CSV row and compare --metric osd-p99 read. */
static void test_point_osd_merge(void **state)
{
	json_t *pt = json_pack("{s:[o, o, o]}", "runs", osd_run("ok", 1, 150, 2.0),
	                       osd_run("ok", 1, 50, 20.0), osd_run("aborted", 1, 999, 1.0));
	const json_t *e;

	(void)state;
	ccb_sweep_aggregate(pt, false);
	e = json_array_get(
	    json_object_get(json_object_get(json_object_get(pt, "aggregate"), "attribution"),
	                    "osds"),
	    0);
	assert_int_equal(json_integer_value(json_object_get(e, "osd")), 1);
	assert_int_equal(json_integer_value(json_object_get(e, "ops")), 200);
	/* 200 ops, 50 of them at 20 ms: the p99 is theirs, not an average. */
	assert_true(
	    fabs(json_number_value(json_object_get(json_object_get(e, "latency_us"), "p99")) -
	         20000) < 200);
	json_decref(pt);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_config_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_path_params_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_path_params_scope, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_param_overrides, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_param_removal_and_integers, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_param_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pool_is_layout, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_estimate, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_dry_run_text, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_repeat_until_config, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_steady_estimate, setup, teardown),
	    cmocka_unit_test(test_point_settles),
	    cmocka_unit_test_setup_teardown(test_sweep_wide, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tradeoff_sizes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_runners, setup, teardown),
	    cmocka_unit_test(test_point_args),
	    cmocka_unit_test_setup_teardown(test_command_axis, setup, teardown),
	    cmocka_unit_test(test_categorical_recommendation),
	    cmocka_unit_test(test_point_osd_merge),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
