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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ccbench/options.h"
#include "ccbench/sweep.h"

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
	assert_true(json_number_value(json_object_get(e, "tradeoff_seconds")) == 3.0);
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
