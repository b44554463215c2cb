/*
 * Unit tests for src/result.c and src/report/report.c: the shape and consistency
 * of the result model built from a fabricated run, and its text, JSON and
 * CSV views.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <ccbench/sweep_report.h>
#include <ccbench/commands.h>
#include "ccbench/redact.h"
#include "ccbench/engine.h"
#include "ccbench/path.h"
#include "ccbench/release.h"
#include "ccbench/report.h"
#include "ccbench/result.h"
#include "ccbench/sweep.h"
#include "ccbench/compare_cmd.h"
#include <ccbench/cli.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define MIB       1048576ull
#define SEC       1000000000ull
#define CMD_RADOS (ccb_cli_command_find("rados write")->mask)

/* Only the name is read when building a result. */
static const struct ccb_path_ops fake_ops = {.name = "fake"};

static char *fake_argv[] = {"ccbench", "rados", "write", "-p", "rbd", "-t", "4"};

struct fixture {
	struct ccb_opts opts;
	struct ccb_run run;
	json_t *res;
	char tmpdir[64]; /* removed by the teardown, even after a failure */
};

/*
 * Client i (weight k = i + 1) completes 2k, 4k, 6k ops of 1 MiB in seconds
 * 0, 1, 2, latencies alternating 1 us and 3 us. With three clients the run
 * moves 12, 24, 36 MiB per second: every derived figure is a short decimal
 * (mean 24, sample stddev 12, latency mean 2 us, stddev 1 us), so the JSON
 * text round-trips exactly.
 */
static void fill_client(struct ccb_client *cl, unsigned idx, unsigned k)
{
	static const unsigned per_sec[] = {2, 4, 6};

	cl->idx = idx;
	ccb_hist_init(&cl->hist);
	ccb_series_init(&cl->series);
	atomic_init(&cl->bytes_done, 0);
	atomic_init(&cl->ops_done, 0);
	atomic_init(&cl->lat_sum_nsec, 0);
	atomic_init(&cl->in_flight_now, 0);
	for (size_t sec = 0; sec < ARRAY_SIZE(per_sec); sec++) {
		for (unsigned j = 0; j < per_sec[sec] * k; j++) {
			uint64_t lat = j % 2 ? 3000 : 1000;

			ccb_hist_record(&cl->hist, lat);
			assert_int_equal(ccb_series_add(&cl->series, sec, MIB, lat), 0);
			atomic_fetch_add(&cl->bytes_done, MIB);
			atomic_fetch_add(&cl->ops_done, 1);
			atomic_fetch_add(&cl->lat_sum_nsec, lat);
		}
	}
}

static void make_run(struct fixture *fx, unsigned n_clients)
{
	struct ccb_run *run = &fx->run;
	char err[256];

	memset(fx, 0, sizeof(*fx));
	ccb_opts_defaults(&fx->opts);
	assert_int_equal(ccb_opt_set(&fx->opts, ccb_opt_find("pool"), "rbd", err, sizeof(err)), 0);
	assert_int_equal(ccb_opt_set(&fx->opts, ccb_opt_find("queue-depth"), "4", err, sizeof(err)),
	                 0);
	run->opts = &fx->opts;
	run->ops = &fake_ops;
	run->command = "rados write";
	run->mode = CCB_MODE_WRITE;
	run->is_write = true;
	run->n_clients = n_clients;
	run->queue_depth = 4;
	run->buf_bytes = MIB;
	atomic_init(&run->stop, CCB_STOP_DONE);
	atomic_init(&run->issued_bytes, 0);
	snprintf(run->reason, sizeof(run->reason), "--duration reached");
	snprintf(run->fsid, sizeof(run->fsid), "0b5e7d7e-1c1a-4d8e-9f00-1234567890ab");
	run->start_nsec = 5 * SEC + 123; /* an arbitrary origin: only differences count */
	run->end_nsec = run->start_nsec + 3 * SEC;
	run->clients = calloc(n_clients, sizeof(*run->clients));
	assert_non_null(run->clients);
	for (unsigned i = 0; i < n_clients; i++) {
		run->clients[i].run = run;
		fill_client(&run->clients[i], i, i + 1);
	}
	run->layout = json_pack("{s:I, s:s}", "object_size", (json_int_t)(4 * MIB), "pool", "rbd");
	run->warnings = json_pack("[s]", "readahead inactive under writearound");
	assert_non_null(run->layout);
	assert_non_null(run->warnings);
}

static int setup3(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	if (!fx)
		return -1;
	make_run(fx, 3);
	fx->res = ccb_result_build(&fx->run, CMD_RADOS, (int)ARRAY_SIZE(fake_argv), fake_argv);
	*state = fx;
	return fx->res ? 0 : -1;
}

/* Remove @p dir and what it holds (files and empty directories). */
static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char path[512];

	while (d && (de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) < 0)
			rmdir(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	if (fx->tmpdir[0])
		remove_dir(fx->tmpdir);
	json_decref(fx->res);
	ccb_run_free(&fx->run);
	free(fx);
	return 0;
}

static const json_t *field(const json_t *o, const char *key, json_type type)
{
	const json_t *v = json_object_get(o, key);

	if (!v)
		fail_msg("field '%s' missing", key);
	if (json_typeof(v) != type)
		fail_msg("field '%s': type %d, want %d", key, (int)json_typeof(v), (int)type);
	return v;
}

static double real(const json_t *o, const char *key)
{
	return json_real_value(field(o, key, JSON_REAL));
}

static json_int_t integer(const json_t *o, const char *key)
{
	return json_integer_value(field(o, key, JSON_INTEGER));
}

static const char *string(const json_t *o, const char *key)
{
	return json_string_value(field(o, key, JSON_STRING));
}

static void assert_rel(double got, double want, const char *what)
{
	if (!(fabs(got - want) <= 1e-9 * fmax(1.0, fabs(want))))
		fail_msg("%s: %.15g, want %.15g", what, got, want);
}

static void check_latency_shape(const json_t *lat)
{
	static const char *const keys[] = {"min", "mean", "stddev", "p50",
	                                   "p90", "p99",  "p99_9",  "max"};

	assert_true(json_is_object(lat));
	field(lat, "n", JSON_INTEGER);
	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		field(lat, keys[i], JSON_REAL);
	/* Ordered as percentiles must be. */
	assert_true(real(lat, "min") <= real(lat, "p50"));
	assert_true(real(lat, "p50") <= real(lat, "p90"));
	assert_true(real(lat, "p90") <= real(lat, "p99"));
	assert_true(real(lat, "p99") <= real(lat, "p99_9"));
	assert_true(real(lat, "p99_9") <= real(lat, "max"));
}

static void test_shape(void **state)
{
	struct fixture *fx = *state;
	const json_t *r = fx->res, *bw, *series, *clients, *argv, *warnings, *layout, *params;
	size_t i;
	const json_t *v;

	assert_true(json_is_object(r));
	assert_string_equal(string(r, "ccbench_version"), CCB_VERSION);
	assert_int_equal(integer(r, "schema"), CCB_RESULT_SCHEMA);
	assert_string_equal(string(r, "command"), "rados write");
	assert_string_equal(string(r, "path"), "fake");
	assert_string_equal(string(r, "mode"), "write");
	assert_string_equal(string(r, "fsid"), "0b5e7d7e-1c1a-4d8e-9f00-1234567890ab");
	assert_string_equal(string(r, "status"), "ok");
	assert_string_equal(string(r, "reason"), "--duration reached");
	string(r, "finished_at");
	assert_null(json_object_get(r, "error")); /* no op failed */

	argv = field(r, "argv", JSON_ARRAY);
	assert_int_equal(json_array_size(argv), ARRAY_SIZE(fake_argv));
	json_array_foreach(argv, i, v)
	{
		assert_true(json_is_string(v));
		assert_string_equal(json_string_value(v), fake_argv[i]);
	}

	params = field(r, "parameters", JSON_OBJECT);
	json_t *want_params = ccb_opts_to_json(&fx->opts, CMD_RADOS);
	assert_true(json_equal((json_t *)params, want_params));
	json_decref(want_params);
	assert_int_equal(json_integer_value(json_object_get(params, "queue-depth")), 4);

	real(r, "seconds");
	integer(r, "bytes");
	integer(r, "ops");
	integer(r, "errors");
	real(r, "bandwidth_mib_s");
	real(r, "iops");
	integer(r, "clients_n");
	integer(r, "queue_depth");

	bw = field(r, "bandwidth_per_second_mib_s", JSON_OBJECT);
	integer(bw, "samples");
	real(bw, "mean");
	real(bw, "stddev");
	real(bw, "min");
	real(bw, "max");

	check_latency_shape(field(r, "latency_us", JSON_OBJECT));

	layout = field(r, "layout", JSON_OBJECT);
	assert_true(json_equal((json_t *)layout, fx->run.layout));

	series = field(r, "series", JSON_ARRAY);
	assert_true(json_array_size(series) > 0);
	json_array_foreach(series, i, v)
	{
		assert_true(json_is_object(v));
		assert_int_equal(integer(v, "t"), (json_int_t)i + 1);
		integer(v, "bytes");
		integer(v, "ops");
		real(v, "bandwidth_mib_s");
		real(v, "lat_mean_us");
	}

	clients = field(r, "clients", JSON_ARRAY);
	assert_int_equal(json_array_size(clients), 3);
	json_array_foreach(clients, i, v)
	{
		assert_true(json_is_object(v));
		assert_int_equal(integer(v, "client"), (json_int_t)i);
		integer(v, "bytes");
		integer(v, "ops");
		integer(v, "errors");
		real(v, "bandwidth_mib_s");
		real(v, "iops");
		check_latency_shape(field(v, "latency_us", JSON_OBJECT));
	}

	warnings = field(r, "warnings", JSON_ARRAY);
	assert_int_equal(json_array_size(warnings), 1);
	assert_string_equal(json_string_value(json_array_get(warnings, 0)),
	                    "readahead inactive under writearound");
}

static void test_values(void **state)
{
	struct fixture *fx = *state;
	const json_t *r = fx->res, *v, *lat;
	const json_t *series = json_object_get(r, "series"),
	             *clients = json_object_get(r, "clients");
	json_int_t bytes = integer(r, "bytes"), ops = integer(r, "ops");
	json_int_t sum_bytes = 0, sum_ops = 0, want_bytes = 0, want_ops = 0;
	double secs = real(r, "seconds");
	uint64_t hist_n = 0;
	size_t i;

	/* The totals are the clients' counters. */
	for (unsigned c = 0; c < fx->run.n_clients; c++) {
		want_bytes += (json_int_t)atomic_load(&fx->run.clients[c].bytes_done);
		want_ops += (json_int_t)atomic_load(&fx->run.clients[c].ops_done);
		hist_n += fx->run.clients[c].hist.count;
	}
	assert_true(bytes == want_bytes);
	assert_true(ops == want_ops);
	assert_true(bytes == (json_int_t)(72 * MIB));
	assert_int_equal(integer(r, "errors"), 0);

	assert_rel(secs, 3.0, "seconds");
	assert_rel(real(r, "bandwidth_mib_s"), (double)bytes / MIB / secs, "bandwidth");
	assert_rel(real(r, "iops"), (double)ops / secs, "iops");
	assert_int_equal(integer(r, "clients_n"), 3);
	assert_int_equal(integer(r, "queue_depth"), 4);

	/* Per second: 12, 24, 36 MiB. */
	assert_int_equal(json_array_size(series), 3);
	json_array_foreach(series, i, v)
	{
		assert_true(integer(v, "bytes") == (json_int_t)((i + 1) * 12 * MIB));
		assert_rel(real(v, "bandwidth_mib_s"), (double)integer(v, "bytes") / MIB,
		           "series bandwidth");
		assert_rel(real(v, "lat_mean_us"), 2.0, "series latency");
		sum_bytes += integer(v, "bytes");
		sum_ops += integer(v, "ops");
	}
	assert_true(sum_bytes == bytes);
	assert_true(sum_ops == ops);

	v = json_object_get(r, "bandwidth_per_second_mib_s");
	assert_int_equal(integer(v, "samples"), 3);
	assert_rel(real(v, "mean"), 24.0, "per-second mean");
	assert_rel(real(v, "stddev"), 12.0, "per-second sample stddev");
	assert_rel(real(v, "min"), 12.0, "per-second min");
	assert_rel(real(v, "max"), 36.0, "per-second max");

	lat = json_object_get(r, "latency_us");
	assert_true(integer(lat, "n") == (json_int_t)hist_n);
	assert_true(hist_n == (uint64_t)ops);
	assert_rel(real(lat, "min"), 1.0, "latency min");
	assert_rel(real(lat, "max"), 3.0, "latency max");
	assert_rel(real(lat, "mean"), 2.0, "latency mean");
	assert_rel(real(lat, "stddev"), 1.0, "latency stddev");
	/* Half the samples are 1 us, half 3 us: p50 is ~1 us, p90 ~3 us (within a bucket). */
	assert_true(fabs(real(lat, "p50") - 1.0) <= 0.01);
	assert_true(fabs(real(lat, "p90") - 3.0) <= 0.03);

	/* Per client: counters, and they add up to the total. */
	sum_bytes = sum_ops = 0;
	json_array_foreach(clients, i, v)
	{
		const struct ccb_client *cl = &fx->run.clients[i];

		assert_true(integer(v, "bytes") == (json_int_t)atomic_load(&cl->bytes_done));
		assert_true(integer(v, "ops") == (json_int_t)atomic_load(&cl->ops_done));
		assert_rel(real(v, "bandwidth_mib_s"), (double)integer(v, "bytes") / MIB / secs,
		           "client bandwidth");
		assert_rel(real(v, "iops"), (double)integer(v, "ops") / secs, "client iops");
		assert_true(integer(json_object_get(v, "latency_us"), "n") ==
		            (json_int_t)cl->hist.count);
		sum_bytes += integer(v, "bytes");
		sum_ops += integer(v, "ops");
	}
	assert_true(sum_bytes == bytes);
	assert_true(sum_ops == ops);
}

static void test_single_client(void **state)
{
	struct fixture fx;
	json_t *r;

	(void)state;
	make_run(&fx, 1);
	r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
	assert_non_null(r);
	/* One client: the breakdown would repeat the total. */
	assert_int_equal(json_array_size(field(r, "clients", JSON_ARRAY)), 0);
	assert_true(integer(r, "bytes") == (json_int_t)(12 * MIB));
	assert_int_equal(integer(r, "clients_n"), 1);
	assert_int_equal(json_array_size(field(r, "argv", JSON_ARRAY)), 0);
	json_decref(r);
	ccb_run_free(&fx.run);
}

static void test_errors_and_status(void **state)
{
	static const struct {
		enum ccb_stop stop;
		const char *status;
	} map[] = {
	    {CCB_STOP_NONE, "ok"},
	    {CCB_STOP_DONE, "ok"},
	    {CCB_STOP_SIGNAL, "interrupted"},
	    {CCB_STOP_TIMEOUT, "aborted"},
	    {CCB_STOP_ERROR, "aborted"},
	};
	struct fixture fx;
	json_t *r;

	(void)state;
	make_run(&fx, 2);
	for (size_t i = 0; i < ARRAY_SIZE(map); i++) {
		atomic_store(&fx.run.stop, (int)map[i].stop);
		assert_string_equal(ccb_result_status(&fx.run), map[i].status);
		r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
		assert_string_equal(string(r, "status"), map[i].status);
		json_decref(r);
	}

	/* A failed op: errors add up, the first message is the result's error. */
	atomic_store(&fx.run.stop, CCB_STOP_ERROR);
	snprintf(fx.run.reason, sizeof(fx.run.reason), "fake_write(obj 7): Input/output error");
	fx.run.clients[0].errors = 2;
	fx.run.clients[1].errors = 3;
	snprintf(fx.run.clients[1].first_error_msg, sizeof(fx.run.clients[1].first_error_msg),
	         "fake_write(obj 7) at offset 0, client 1: Input/output error");
	r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
	assert_string_equal(string(r, "status"), "aborted");
	assert_string_equal(string(r, "reason"), "fake_write(obj 7): Input/output error");
	assert_int_equal(integer(r, "errors"), 5);
	assert_string_equal(string(r, "error"), fx.run.clients[1].first_error_msg);
	assert_int_equal(integer(json_array_get(json_object_get(r, "clients"), 1), "errors"), 3);
	json_decref(r);

	/* No reason recorded: the run completed. */
	atomic_store(&fx.run.stop, CCB_STOP_NONE);
	fx.run.reason[0] = '\0';
	r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
	assert_string_equal(string(r, "reason"), "completed");
	json_decref(r);

	/* Modes. */
	fx.run.mode = CCB_MODE_SEQ;
	r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
	assert_string_equal(string(r, "mode"), "seq");
	json_decref(r);
	fx.run.mode = CCB_MODE_RAND;
	r = ccb_result_build(&fx.run, CMD_RADOS, 0, NULL);
	assert_string_equal(string(r, "mode"), "rand");
	json_decref(r);
	ccb_run_free(&fx.run);
}

/* A run with no op at all still has a complete, well-typed result. */
static void test_empty_run(void **state)
{
	struct ccb_opts opts;
	struct ccb_run run;
	json_t *r, *lat;

	(void)state;
	memset(&run, 0, sizeof(run));
	ccb_opts_defaults(&opts);
	run.opts = &opts;
	run.ops = &fake_ops;
	run.command = "rados seq";
	run.mode = CCB_MODE_SEQ;
	run.n_clients = 1;
	run.queue_depth = 1;
	atomic_init(&run.stop, CCB_STOP_SIGNAL);
	run.clients = calloc(1, sizeof(*run.clients));
	assert_non_null(run.clients);
	ccb_hist_init(&run.clients[0].hist);
	ccb_series_init(&run.clients[0].series);
	run.start_nsec = run.end_nsec = 7 * SEC;
	r = ccb_result_build(&run, CMD_RADOS, 0, NULL);
	assert_non_null(r);
	assert_string_equal(string(r, "status"), "interrupted");
	assert_int_equal(integer(r, "bytes"), 0);
	assert_true(real(r, "bandwidth_mib_s") == 0);
	assert_true(real(r, "iops") == 0);
	assert_int_equal(json_array_size(field(r, "series", JSON_ARRAY)), 0);
	assert_true(json_is_object(field(r, "layout", JSON_OBJECT)));
	assert_int_equal(json_array_size(field(r, "warnings", JSON_ARRAY)), 0);
	lat = json_object_get(r, "latency_us");
	check_latency_shape(lat);
	assert_int_equal(integer(lat, "n"), 0);
	assert_true(real(lat, "max") == 0 && real(lat, "min") == 0);
	json_decref(r);
	ccb_run_free(&run);
}

/* Render into memory; returns a malloc'd, NUL-terminated buffer. */
static char *render(const json_t *r, enum ccb_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ccb_report_write(r, fmt, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(buf);
	assert_int_equal(strlen(buf), len);
	return buf;
}

static void test_render_json(void **state)
{
	struct fixture *fx = *state;
	char *out = render(fx->res, CCB_FMT_JSON);
	json_error_t jerr;
	json_t *back = json_loads(out, 0, &jerr);

	if (!back)
		fail_msg("JSON output does not parse: %s (line %d)", jerr.text, jerr.line);
	assert_true(json_equal(back, fx->res));
	assert_true(out[strlen(out) - 1] == '\n');
	json_decref(back);
	free(out);
}

/* Split one CSV line (RFC 4180 quoting) into at most max fields; returns the count. */
static size_t csv_split(const char *line, char fields[][128], size_t max)
{
	size_t n = 0, len = 0;
	bool quoted = false;
	const char *p = line;

	for (;; p++) {
		char c = *p;

		if (quoted) {
			if (c == '"' && p[1] == '"') {
				c = '"';
				p++;
			} else if (c == '"') {
				quoted = false;
				continue;
			} else if (!c) {
				fail_msg("unterminated quote in \"%s\"", line);
			}
		} else if (c == '"' && len == 0) {
			quoted = true;
			continue;
		} else if (c == ',' || c == '\0') {
			assert_true(n < max);
			fields[n][len] = '\0';
			n++;
			len = 0;
			if (!c)
				return n;
			continue;
		}
		assert_true(n < max && len + 1 < 128);
		fields[n][len++] = c;
	}
}

static const char *csv_get(char hdr[][128], char row[][128], size_t n, const char *col)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(hdr[i], col) == 0)
			return row[i];
	fail_msg("CSV column '%s' missing", col);
	return NULL;
}

static void test_render_csv(void **state)
{
	struct fixture *fx = *state;
	char *out, *nl, *line2;
	char hdr[64][128], row[64][128], want[64];
	size_t nh, nr;
	json_t *r;

	/* A fsid that needs quoting exercises the escaping. */
	snprintf(fx->run.fsid, sizeof(fx->run.fsid), "odd,\"fsid\"");
	r = ccb_result_build(&fx->run, CMD_RADOS, 0, NULL);
	assert_non_null(r);

	out = render(r, CCB_FMT_CSV);
	assert_true(strncmp(out, "command,", 8) == 0);
	nl = strchr(out, '\n');
	assert_non_null(nl);
	*nl = '\0';
	line2 = nl + 1;
	nl = strchr(line2, '\n');
	assert_non_null(nl);
	*nl = '\0';
	assert_string_equal(nl + 1, ""); /* exactly two lines */

	nh = csv_split(out, hdr, 64);
	nr = csv_split(line2, row, 64);
	assert_int_equal(nh, nr);
	assert_true(nh >= 10);
	for (size_t i = 0; i < nh; i++) {
		assert_true(hdr[i][0] != '\0');
		assert_null(strchr(hdr[i], '.')); /* nested keys flatten to a_b */
	}

	/* The row is the model, column by column. */
	assert_string_equal(csv_get(hdr, row, nh, "command"), "rados write");
	assert_string_equal(csv_get(hdr, row, nh, "path"), "fake");
	assert_string_equal(csv_get(hdr, row, nh, "mode"), "write");
	assert_string_equal(csv_get(hdr, row, nh, "status"), "ok");
	assert_string_equal(csv_get(hdr, row, nh, "fsid"), "odd,\"fsid\"");
	snprintf(want, sizeof(want), "%lld", (long long)integer(r, "bytes"));
	assert_string_equal(csv_get(hdr, row, nh, "bytes"), want);
	snprintf(want, sizeof(want), "%lld", (long long)integer(r, "ops"));
	assert_string_equal(csv_get(hdr, row, nh, "ops"), want);
	snprintf(want, sizeof(want), "%.3f", real(r, "bandwidth_mib_s"));
	assert_string_equal(csv_get(hdr, row, nh, "bandwidth_mib_s"), want);
	snprintf(want, sizeof(want), "%.3f", real(json_object_get(r, "latency_us"), "p99"));
	assert_string_equal(csv_get(hdr, row, nh, "latency_us_p99"), want);
	snprintf(want, sizeof(want), "%.3f",
	         real(json_object_get(r, "bandwidth_per_second_mib_s"), "stddev"));
	assert_string_equal(csv_get(hdr, row, nh, "bandwidth_per_second_mib_s_stddev"), want);
	assert_string_equal(csv_get(hdr, row, nh, "clients_n"), "3");
	free(out);
	json_decref(r);
}

static void test_render_text(void **state)
{
	struct fixture *fx = *state;
	char *out = render(fx->res, CCB_FMT_TEXT);
	char want[64];

	assert_non_null(strstr(out, "status"));
	assert_non_null(strstr(out, "ok (--duration reached)"));
	snprintf(want, sizeof(want), "%.2f MiB/s", real(fx->res, "bandwidth_mib_s"));
	assert_non_null(strstr(out, want));
	assert_non_null(strstr(out, "24.00 MiB/s"));
	assert_non_null(strstr(out, "rados write"));
	assert_non_null(strstr(out, "client 0"));
	assert_non_null(strstr(out, "client 2"));
	assert_non_null(strstr(out, "readahead inactive under writearound"));
	assert_non_null(strstr(out, "object_size=4M"));
	/* The client libraries this test runs with (no cluster in a fake run). */
	assert_non_null(strstr(out, "\nreleases           client "));
	assert_non_null(strstr(out, ": librados "));
	free(out);
}

/* Names in @p dir, sorted into one space-separated string. */
static void list_dir(const char *dir, char *buf, size_t len)
{
	char names[16][256];
	size_t n = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	assert_non_null(d);
	while ((de = readdir(d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		assert_true(n < 16);
		snprintf(names[n++], sizeof(names[0]), "%s", de->d_name);
	}
	closedir(d);
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (strcmp(names[j], names[i]) < 0) {
				char t[256];
				memcpy(t, names[i], sizeof(t));
				memcpy(names[i], names[j], sizeof(t));
				memcpy(names[j], t, sizeof(t));
			}
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		strncat(buf, names[i], len - strlen(buf) - 1);
		if (i + 1 < n)
			strncat(buf, " ", len - strlen(buf) - 1);
	}
}

static void test_emit_file(void **state)
{
	struct fixture *fx = *state;
	char *dir = fx->tmpdir;
	char path[256], sub[256], listing[512];
	struct ccb_opts o;
	json_error_t jerr;
	json_t *back;
	FILE *f;

	snprintf(dir, sizeof(fx->tmpdir), "/tmp/ccb_test_report_XXXXXX");
	assert_non_null(mkdtemp(dir));
	ccb_opts_defaults(&o);
	o.format = CCB_FMT_JSON;
	snprintf(path, sizeof(path), "%s/result.json", dir);

	/* An existing file is replaced whole. */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old contents that are not JSON\n", f);
	fclose(f);

	o.output = path;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	back = json_load_file(path, 0, &jerr);
	if (!back)
		fail_msg("%s: %s", path, jerr.text);
	assert_true(json_equal(back, fx->res));
	json_decref(back);
	list_dir(dir, listing, sizeof(listing));
	assert_string_equal(listing, "result.json");

	/* A directory that does not exist: -ENOENT, and nothing created. */
	snprintf(sub, sizeof(sub), "%s/missing/out.json", dir);
	o.output = sub;
	assert_int_equal(ccb_report_emit(fx->res, &o), -ENOENT);
	list_dir(dir, listing, sizeof(listing));
	assert_string_equal(listing, "result.json");

	/* The target is a directory: the rename fails and the temporary file goes. */
	snprintf(sub, sizeof(sub), "%s/adir", dir);
	assert_int_equal(mkdir(sub, 0700), 0);
	o.output = sub;
	assert_true(ccb_report_emit(fx->res, &o) < 0);
	list_dir(dir, listing, sizeof(listing));
	assert_string_equal(listing, "adir result.json");
	assert_int_equal(rmdir(sub), 0);

	/* CSV through the same path. */
	snprintf(sub, sizeof(sub), "%s/result.csv", dir);
	o.output = sub;
	o.format = CCB_FMT_CSV;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	f = fopen(sub, "r");
	assert_non_null(f);
	{
		char line[2048];
		int lines = 0;
		while (fgets(line, sizeof(line), f)) {
			if (lines == 0)
				assert_true(strncmp(line, "command,", 8) == 0);
			lines++;
		}
		assert_int_equal(lines, 2);
	}
	fclose(f);
	list_dir(dir, listing, sizeof(listing));
	assert_string_equal(listing, "result.csv result.json");

	unlink(sub);
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
	fx->tmpdir[0] = '\0';
}

/* The whole of file @p path, NUL-terminated (caller frees). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 20);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void assert_is_result(const char *text, const json_t *want, const char *what)
{
	json_error_t jerr;
	json_t *back = json_loads(text, 0, &jerr);

	if (!back)
		fail_msg("%s: not JSON: %s", what, jerr.text);
	if (!json_equal(back, (json_t *)want))
		fail_msg("%s: not the result", what);
	json_decref(back);
}

/*
 * What --output does to each kind of name: a regular file is replaced
 * whole with its mode kept; a symlink is written through (the link stays
 * a link); a FIFO and a character device are written in place and stay
 * what they are; /dev/fd/N writes the open descriptor (an append stays an
 * append); a symlink planted at the old predictable temporary name is
 * never followed; a block device is refused.
 */
static void test_emit_special_files(void **state)
{
	struct fixture *fx = *state;
	char *dir = fx->tmpdir;
	char path[256], target[256], link[256], fifo[256], dev[256], planted[256], victim[256];
	char listing[1024], *text;
	struct ccb_opts o;
	struct stat st;
	FILE *f;
	int rfd, pfd[2];

	snprintf(dir, sizeof(fx->tmpdir), "/tmp/ccb_test_report_XXXXXX");
	assert_non_null(mkdtemp(dir));
	ccb_opts_defaults(&o);
	o.format = CCB_FMT_JSON;

	/* A regular file with its own mode: replaced, mode kept. */
	snprintf(path, sizeof(path), "%s/plain.json", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("old\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0640), 0);
	o.output = path;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0640);
	text = slurp(path);
	assert_is_result(text, fx->res, "regular file");
	free(text);

	/* A symlink to a file (relative): the link stays, the target gets the result. */
	snprintf(target, sizeof(target), "%s/target.json", dir);
	snprintf(link, sizeof(link), "%s/link.json", dir);
	f = fopen(target, "w");
	assert_non_null(f);
	fputs("old target\n", f);
	fclose(f);
	assert_int_equal(symlink("target.json", link), 0);
	o.output = link;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	assert_int_equal(lstat(link, &st), 0);
	if (!S_ISLNK(st.st_mode))
		fail_msg("%s: the symlink was replaced", link);
	text = slurp(target);
	assert_is_result(text, fx->res, "symlink target");
	free(text);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(unlink(target), 0);

	/* A dangling symlink: the file it names is created, the link kept. */
	assert_int_equal(symlink("new.json", link), 0);
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	snprintf(target, sizeof(target), "%s/new.json", dir);
	text = slurp(target);
	assert_is_result(text, fx->res, "dangling symlink target");
	free(text);
	assert_int_equal(unlink(link), 0);
	assert_int_equal(unlink(target), 0);

	/* A FIFO, even with a reader: refused (a reader, or none, could hold the
	 * run), never opened, and it stays. */
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rfd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rfd >= 0);
	o.output = fifo;
	{
		char err[512];
		assert_int_equal(ccb_output_check(fifo, "--output", err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "a FIFO"));
	}
	assert_int_equal(ccb_report_emit(fx->res, &o), -EINVAL);
	assert_int_equal(lstat(fifo, &st), 0);
	if (!S_ISFIFO(st.st_mode))
		fail_msg("%s: the FIFO was replaced (mode %o)", fifo, (unsigned)st.st_mode);
	{
		char buf[16];
		assert_int_equal(read(rfd, buf, sizeof(buf)), 0);
	}
	close(rfd);
	assert_int_equal(unlink(fifo), 0);

	/* A character device (a /dev/null of our own): written, still a device. */
	snprintf(dev, sizeof(dev), "%s/null", dir);
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		int probe = open(dev, O_WRONLY);
		if (probe >= 0) { /* /tmp may be mounted nodev */
			close(probe);
			o.output = dev;
			assert_int_equal(ccb_report_emit(fx->res, &o), 0);
			assert_int_equal(lstat(dev, &st), 0);
			if (!S_ISCHR(st.st_mode))
				fail_msg("%s: the device node was replaced (mode %o)", dev,
				         (unsigned)st.st_mode);
		}
		assert_int_equal(unlink(dev), 0);
	} else {
		print_message("mknod: %s; device case skipped\n", strerror(errno));
	}

	/* Another character device (1:5, /dev/zero): refused, untouched. */
	if (mknod(dev, S_IFCHR | 0666, makedev(1, 5)) == 0) {
		o.output = dev;
		assert_int_equal(ccb_report_emit(fx->res, &o), -EINVAL);
		assert_int_equal(lstat(dev, &st), 0);
		assert_true(S_ISCHR(st.st_mode));
		assert_int_equal(unlink(dev), 0);
	}

	/* A block device node: refused, untouched. */
	if (mknod(dev, S_IFBLK | 0600, makedev(7, 200)) == 0) {
		o.output = dev;
		assert_true(ccb_report_emit(fx->res, &o) < 0);
		assert_int_equal(lstat(dev, &st), 0);
		assert_true(S_ISBLK(st.st_mode));
		assert_int_equal(unlink(dev), 0);
	}

	/* /dev/fd/N of a pipe: written into the descriptor. */
	assert_int_equal(pipe(pfd), 0);
	snprintf(path, sizeof(path), "/dev/fd/%d", pfd[1]);
	o.output = path;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	close(pfd[1]);
	{
		char buf[65536];
		ssize_t n = read(pfd[0], buf, sizeof(buf) - 1);
		assert_true(n > 0);
		buf[n] = '\0';
		assert_is_result(buf, fx->res, "/dev/fd/N of a pipe");
	}
	close(pfd[0]);

	/* /proc/self/fd/N of a file opened for append: appended, not replaced. */
	snprintf(target, sizeof(target), "%s/log", dir);
	rfd = open(target, O_WRONLY | O_CREAT | O_APPEND, 0600);
	assert_true(rfd >= 0);
	assert_int_equal(write(rfd, "earlier line\n", 13), 13);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", rfd);
	o.output = path;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	close(rfd);
	text = slurp(target);
	assert_true(strncmp(text, "earlier line\n", 13) == 0);
	assert_is_result(text + 13, fx->res, "appended to a log");
	free(text);
	assert_int_equal(unlink(target), 0);

	/* A symlink planted at the old predictable temporary name is not followed. */
	snprintf(path, sizeof(path), "%s/out.json", dir);
	snprintf(planted, sizeof(planted), "%s/out.json.tmp.%d", dir, (int)getpid());
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	assert_int_equal(symlink(victim, planted), 0);
	o.output = path;
	assert_int_equal(ccb_report_emit(fx->res, &o), 0);
	if (access(victim, F_OK) == 0)
		fail_msg("the planted symlink %s was followed", planted);
	assert_int_equal(unlink(planted), 0);
	text = slurp(path);
	assert_is_result(text, fx->res, "beside a planted symlink");
	free(text);

	/* No temporary file is left anywhere. */
	list_dir(dir, listing, sizeof(listing));
	assert_string_equal(listing, "out.json plain.json");
}

static void test_emit_unwritable(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts o;

	ccb_opts_defaults(&o);
	o.format = CCB_FMT_JSON;
	o.output = "/nonexistent-ccbench-dir/result.json";
	assert_int_equal(ccb_report_emit(fx->res, &o), -ENOENT);
	/* /proc refuses new files even to root. */
	o.output = "/proc/ccbench-result.json";
	assert_true(ccb_report_emit(fx->res, &o) < 0);
}

/* Write @p doc as JSON to DIR/NAME; the path goes into @p path. */
static void save(const char *dir, const char *name, const json_t *doc, char *path, size_t len)
{
	snprintf(path, len, "%s/%s", dir, name);
	assert_int_equal(json_dump_file(doc, path, 0), 0);
}

static int compare(const char *base, const char *cur, const char *tolerance)
{
	struct ccb_cli cli;

	memset(&cli, 0, sizeof(cli));
	ccb_opts_defaults(&cli.opts);
	cli.command = "compare";
	cli.args[0] = base;
	cli.args[1] = cur;
	cli.n_args = 2;
	cli.opts.tolerance = tolerance;
	return ccb_compare_command(&cli);
}

/* --tolerance: NaN and infinities are bad input, not a gate that always passes. */
static void test_compare_tolerance(void **state)
{
	static const char *const bad[] = {"nan",   "NaN%", "-nan", "inf",  "infinity%", "-inf",
	                                  "1e999", "lots", "",     "10%%", "-1",        "1001"};
	struct fixture *fx = *state;
	char base[256], cur[256];
	json_t *dropped = json_deep_copy(fx->res);
	double pct;

	assert_int_equal(ccb_compare_parse_tolerance("10%", &pct), 0);
	assert_true(pct == 10);
	assert_int_equal(ccb_compare_parse_tolerance("0", &pct), 0);
	assert_int_equal(ccb_compare_parse_tolerance("1000%", &pct), 0);
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (ccb_compare_parse_tolerance(bad[i], &pct) != -EINVAL)
			fail_msg("--tolerance '%s' accepted", bad[i]);

	snprintf(fx->tmpdir, sizeof(fx->tmpdir), "/tmp/ccb_test_report_XXXXXX");
	assert_non_null(mkdtemp(fx->tmpdir));
	/* A 99 % drop: with a NaN tolerance it read "ok" and exited 0. */
	json_object_set_new(
	    dropped, "bandwidth_mib_s",
	    json_real(json_real_value(json_object_get(fx->res, "bandwidth_mib_s")) / 100));
	save(fx->tmpdir, "base.json", fx->res, base, sizeof(base));
	save(fx->tmpdir, "cur.json", dropped, cur, sizeof(cur));
	assert_int_equal(compare(base, cur, "nan"), 2);
	assert_int_equal(compare(base, cur, "inf"), 2);
	assert_int_equal(compare(base, cur, "10%"), 1);
	assert_int_equal(compare(base, base, "10%"), 0);
	json_decref(dropped);
}

/* A run whose status is not ok is a failed point, in either file. */
static void test_compare_status(void **state)
{
	struct fixture *fx = *state;
	char base[256], cur[256], sbase[256], scur[256];
	json_t *aborted = json_deep_copy(fx->res), *sweep, *sweep_failed;

	snprintf(fx->tmpdir, sizeof(fx->tmpdir), "/tmp/ccb_test_report_XXXXXX");
	assert_non_null(mkdtemp(fx->tmpdir));
	/* The same figures, but the run aborted. */
	json_object_set_new(aborted, "status", json_string("aborted"));
	save(fx->tmpdir, "base.json", fx->res, base, sizeof(base));
	save(fx->tmpdir, "aborted.json", aborted, cur, sizeof(cur));
	assert_int_equal(compare(base, cur, "10%"), 1);
	assert_int_equal(compare(cur, base, "10%"), 1);
	json_object_del(aborted, "status");
	save(fx->tmpdir, "nostatus.json", aborted, cur, sizeof(cur));
	assert_int_equal(compare(base, cur, "10%"), 1);

	/* A sweep point with a failed repeat, same mean. */
	sweep = json_pack("{s:s, s:[{s:s, s:{s:i}, s:{s:i, s:i, s:{s:f, s:f}}}]}", "kind", "sweep",
	                  "points", "command", "rados write", "matrix", "clients", 1, "aggregate",
	                  "runs", 2, "runs_ok", 2, "bandwidth_mib_s", "mean", 100.0, "stddev", 1.0);
	assert_non_null(sweep);
	sweep_failed = json_deep_copy(sweep);
	json_object_set_new(
	    json_object_get(json_array_get(json_object_get(sweep_failed, "points"), 0),
	                    "aggregate"),
	    "runs_ok", json_integer(1));
	save(fx->tmpdir, "sweep.json", sweep, sbase, sizeof(sbase));
	save(fx->tmpdir, "sweep_failed.json", sweep_failed, scur, sizeof(scur));
	assert_int_equal(compare(sbase, sbase, "10%"), 0);
	assert_int_equal(compare(sbase, scur, "10%"), 1);
	json_decref(sweep);
	json_decref(sweep_failed);
	json_decref(aborted);
}

/* @p res with releases: a client and a cluster of these versions. */
static json_t *with_releases(const json_t *res, const char *client, const char *cluster)
{
	json_t *r = json_deep_copy(res);
	char v[64], n[32], line[160];

	ccb_release_parse(client, v, sizeof(v), n, sizeof(n));
	snprintf(line, sizeof(line), "ceph version %s (0123) x (stable)", cluster);
	json_t *vs = json_pack("{s:{s:i}}", "osd", line, 3);
	json_object_set_new(r, "releases",
	                    json_pack("{s:{s:s, s:s}, s:o}", "client", "ceph_version", v, "release",
	                              n, "cluster", ccb_release_cluster_parse(vs)));
	json_decref(vs);
	return r;
}

/* A cluster or client of another release: refused (exit 2) unless
 * --allow-release-change; a point release, or a baseline that names no
 * release (saved before), is gated as before. */
static void test_compare_releases(void **state)
{
	struct fixture *fx = *state;
	char pac[256], reef[256], reef_client[256], point[256], old[256];
	json_t *a = with_releases(fx->res, "16.2.15", "16.2.15");
	json_t *b = with_releases(fx->res, "16.2.15", "18.2.7");
	json_t *c = with_releases(fx->res, "18.2.7", "16.2.15");
	json_t *d = with_releases(fx->res, "16.2.14", "16.2.15");
	struct ccb_cli cli;

	snprintf(fx->tmpdir, sizeof(fx->tmpdir), "/tmp/ccb_test_report_XXXXXX");
	assert_non_null(mkdtemp(fx->tmpdir));
	save(fx->tmpdir, "pac.json", a, pac, sizeof(pac));
	save(fx->tmpdir, "reef.json", b, reef, sizeof(reef));
	save(fx->tmpdir, "reef_client.json", c, reef_client, sizeof(reef_client));
	save(fx->tmpdir, "point.json", d, point, sizeof(point));
	/* Saved before results named releases. */
	json_t *e = json_deep_copy(fx->res);
	json_object_del(e, "releases");
	save(fx->tmpdir, "old.json", e, old, sizeof(old));
	json_decref(e);
	assert_int_equal(compare(pac, pac, "10%"), 0);
	assert_int_equal(compare(pac, reef, "10%"), 2);
	assert_int_equal(compare(reef, pac, "10%"), 2);
	assert_int_equal(compare(pac, reef_client, "10%"), 2);
	assert_int_equal(compare(pac, point, "10%"), 0);
	assert_int_equal(compare(old, reef, "10%"), 0);
	assert_int_equal(compare(reef, old, "10%"), 0);
	/* --allow-release-change: the gate runs, and still fails a drop. */
	memset(&cli, 0, sizeof(cli));
	ccb_opts_defaults(&cli.opts);
	cli.command = "compare";
	cli.args[0] = pac;
	cli.args[1] = reef;
	cli.n_args = 2;
	cli.opts.tolerance = "10%";
	cli.opts.allow_release_change = true;
	assert_int_equal(ccb_compare_command(&cli), 0);
	json_object_set_new(b, "bandwidth_mib_s", json_real(1));
	save(fx->tmpdir, "reef.json", b, reef, sizeof(reef));
	assert_int_equal(ccb_compare_command(&cli), 1);
	json_decref(a);
	json_decref(b);
	json_decref(c);
	json_decref(d);
}

static void expect_redacted(const char *in, const char *want)
{
	char *got = ccb_redact_text(in);

	assert_non_null(got);
	if (strcmp(got, want) != 0)
		fail_msg("redact '%s': got '%s', want '%s'", in, got, want);
	free(got);
}

static void test_redact_text(void **state)
{
	(void)state;
	expect_redacted("key=AQBsecret==", "key=<redacted>");
	expect_redacted("KEY=x", "KEY=<redacted>");
	expect_redacted("secret=AQB,ms_mode=crc,key=client.admin",
	                "secret=<redacted>,ms_mode=crc,key=<redacted>");
	expect_redacted("keyring=/etc/ceph/k", "keyring=<redacted>");
	expect_redacted("rgw_crypt_default_encryption_key=abc",
	                "rgw_crypt_default_encryption_key=<redacted>");
	expect_redacted("--set=key=AQB", "--set=key=<redacted>");
	expect_redacted("--map-options=secret=AQB,noshare",
	                "--map-options=secret=<redacted>,noshare");
	expect_redacted("-okey=AQB", "-okey=<redacted>");
	expect_redacted("-qokey=AQB", "-qokey=<redacted>");
	/* Not key material: unchanged. */
	expect_redacted("--keyring=/etc/ceph/ceph.client.admin.keyring",
	                "--keyring=/etc/ceph/ceph.client.admin.keyring");
	expect_redacted("/etc/ceph/ceph.client.admin.keyring",
	                "/etc/ceph/ceph.client.admin.keyring");
	expect_redacted("ms_mode=crc,monkey=1,keys=2", "ms_mode=crc,monkey=1,keys=2");
	expect_redacted("rbd_cache=false", "rbd_cache=false");
	expect_redacted("", "");
	expect_redacted("a,,b=", "a,,b=");
	/* An argv item keeps its whole value, blanks and all. */
	expect_redacted("password=two words", "password=<redacted>");
	expect_redacted("token=abc", "token=<redacted>");
	expect_redacted("auth_token=abc,x=1", "auth_token=<redacted>,x=1");
}

/* Free text (messages, commands shown in them): a secret anywhere, its
 * value ending at a comma, blank or quote. */
static void test_redact_free_text(void **state)
{
	(void)state;
	expect_redacted("rbd device map: -o secret=AQBxyz,noudev failed",
	                "rbd device map: -o secret=<redacted>,noudev failed");
	expect_redacted("mount -t ceph -o name=admin,secret=AQBxyz /mnt",
	                "mount -t ceph -o name=admin,secret=<redacted> /mnt");
	expect_redacted("CEPH_ARGS='--key=AQB1 --id admin'",
	                "CEPH_ARGS='--key=<redacted> --id admin'");
	expect_redacted("got \"token=abc\" from", "got \"token=<redacted>\" from");
	expect_redacted("options: key=\"a b\", x=1", "options: key=\"<redacted>\", x=1");
	expect_redacted("ran -okey=AQB1 -p rbd", "ran -okey=<redacted> -p rbd");
	expect_redacted("x password=p1\ty", "x password=<redacted>\ty");
	expect_redacted("rbd --key AQB1 map img", "rbd --key <redacted> map img");
	expect_redacted("--password  hunter2", "--password  <redacted>");
	expect_redacted("--token=t1,--secret s2", "--token=<redacted>,--secret <redacted>");
	/* A ceph key in keyring form, or bare anywhere. */
	expect_redacted("[client.admin]\n\tkey = AQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw==\n",
	                "[client.admin]\n\tkey = <redacted>\n");
	expect_redacted("auth: AQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw==.", "auth: <redacted>.");
	/* Not key material: unchanged. */
	static const char *const keep[] = {
	    "the key is lost",
	    "monkey=1 keys=2 tokens=3 hotkey=F1",
	    "--keyring /etc/ceph/ceph.client.admin.keyring",
	    "ccbench -k /etc/ceph/k --keyring=/etc/ceph/k rados write",
	    "key= , secret=",
	    "--key",
	    "AQshort==",
	    "xAQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw==",
	    "AQAA8VNlAAAAABAAAAECAwQFBgcICQoLDA0ODw==AA",
	    "pool=rbd, image=img1 (size 4M)",
	};
	for (size_t i = 0; i < ARRAY_SIZE(keep); i++)
		expect_redacted(keep[i], keep[i]);
}

/* argv: "--key VALUE" as two words loses the second; paths stay. */
static void test_redact_argv(void **state)
{
	static char *argv[] = {
	    "rbd", "--key", "AQB1", "--keyring", "/etc/ceph/k", "-o", "secret=s,ms_mode=crc"};
	json_t *a = ccb_redact_argv((int)ARRAY_SIZE(argv), argv);
	char *text;

	(void)state;
	assert_non_null(a);
	text = json_dumps(a, JSON_COMPACT);
	assert_non_null(text);
	assert_string_equal(text, "[\"rbd\",\"--key\",\"<redacted>\",\"--keyring\",\"/etc/ceph/"
	                          "k\",\"-o\",\"secret=<redacted>,ms_mode=crc\"]");
	free(text);
	json_decref(a);
}

static void add_secret_layout(const struct ccb_run *run, json_t *res)
{
	(void)run;
	json_object_set_new(json_object_get(res, "layout"), "map_options",
	                    json_string("secret=SECRETVALUE6,ms_mode=crc"));
}

/* No view of a result holds key material given on the command line, in -o
 * or in what the path adds; the keyring path and other settings stay. */
static void test_result_redacted(void **state)
{
	static const struct ccb_path_ops secret_ops = {.name = "fake", .result = add_secret_layout};
	static char *argv[] = {"ccbench",
	                       "rados",
	                       "write",
	                       "-o",
	                       "key=SECRETVALUE1",
	                       "-okey=SECRETVALUE2",
	                       "--set=secret=SECRETVALUE3",
	                       "--map-options",
	                       "secret=SECRETVALUE4,ms_mode=crc",
	                       "-k",
	                       "/etc/ceph/my.keyring",
	                       "-o",
	                       "rbd_cache=false"};
	struct fixture fx;
	char err[256], *text = NULL;
	size_t len = 0;
	json_t *res;
	FILE *f;

	(void)state;
	make_run(&fx, 1);
	fx.run.ops = &secret_ops;
	assert_int_equal(
	    ccb_opt_set(&fx.opts, ccb_opt_find("set"), "key=SECRETVALUE5", err, sizeof(err)), 0);
	assert_int_equal(ccb_opt_set(&fx.opts, ccb_opt_find("keyring"), "/etc/ceph/my.keyring", err,
	                             sizeof(err)),
	                 0);
	json_object_set_new(fx.run.layout, "note", json_string("--set=keyring=SECRETVALUE7"));
	res = ccb_result_build(&fx.run, CMD_RADOS, (int)ARRAY_SIZE(argv), argv);
	assert_non_null(res);
	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(ccb_report_write(res, CCB_FMT_JSON, f), 0);
	assert_int_equal(ccb_report_write(res, CCB_FMT_TEXT, f), 0);
	assert_int_equal(ccb_report_write(res, CCB_FMT_CSV, f), 0);
	fclose(f);
	if (strstr(text, "SECRETVALUE"))
		fail_msg("key material in the result: ...%.80s", strstr(text, "SECRETVALUE") - 40);
	assert_non_null(strstr(text, "\"key=<redacted>\""));
	assert_non_null(strstr(text, "/etc/ceph/my.keyring"));
	assert_non_null(strstr(text, "rbd_cache=false"));
	assert_non_null(strstr(text, "ms_mode=crc"));
	free(text);
	json_decref(res);
	ccb_run_free(&fx.run);
}

/* A sweep document of readahead x path with one run per point, each run made by @p run_of. */
static json_t *sweep_doc(json_t *(*run_of)(const char *path, const char *ra))
{
	static const char *const ras[] = {"128K", "4M"}, *const paths[] = {"librbd", "krbd"};
	json_t *points = json_array();

	for (size_t i = 0; i < 2; i++)
		for (size_t j = 0; j < 2; j++)
			json_array_append_new(points,
			                      json_pack("{s:s, s:{s:s, s:s}, s:[o]}", "command",
			                                j ? "krbd read" : "rbd read", "matrix",
			                                "readahead", ras[i], "path", paths[j],
			                                "runs", run_of(paths[j], ras[i])));
	return json_pack("{s:s, s:s, s:o}", "kind", "sweep", "row_key", "readahead", "points",
	                 points);
}

/* The first year's seed-002 chart: librbd under client-side latency, krbd
 * under none through fuse-loop. */
static json_t *run_one_side(const char *path, const char *ra)
{
	(void)ra;
	if (strcmp(path, "librbd") == 0)
		return json_pack("{s:s, s:s, s:{s:s, s:i, s:i}, s:{}}", "path", path, "status",
		                 "ok", "latency_injection", "side", "client", "osd_us", 0,
		                 "client_us", 2000, "layout");
	return json_pack("{s:s, s:s, s:{s:s, s:i, s:i}, s:{s:s}}", "path", path, "status", "ok",
	                 "latency_injection", "side", "none", "osd_us", 0, "client_us", 0, "layout",
	                 "map_via", "fuse-loop");
}

/* Both on the OSDs, the kernel through the driver; one run lost it. */
static json_t *run_same_side(const char *path, const char *ra)
{
	json_t *r =
	    json_pack("{s:s, s:s, s:{s:s, s:i, s:i}, s:{s:s?}}", "path", path, "status", "ok",
	              "latency_injection", "side", "osd", "osd_us", 100000, "client_us", 0,
	              "layout", "map_via", strcmp(path, "krbd") == 0 ? "kernel" : NULL);
	if (strcmp(path, "krbd") == 0 && strcmp(ra, "4M") == 0)
		json_object_set_new(json_object_get(r, "latency_injection"), "lost",
		                    json_pack("[s]", "osd.1 restarted (up_from 9 -> 31)"));
	return r;
}

/* Results from before "latency_injection": librbd's layout said it. */
static json_t *run_old(const char *path, const char *ra)
{
	(void)ra;
	return json_pack("{s:s, s:s, s:{s:i}}", "path", path, "status", "ok", "layout",
	                 "simulated_osd_latency_us", strcmp(path, "librbd") == 0 ? 2000 : 0);
}

static const json_t *caveat(const json_t *list, const char *kind)
{
	const json_t *c;
	size_t i;

	json_array_foreach(list, i, c) if (strcmp(json_string_value(json_object_get(c, "kind")),
	                                          kind) == 0) return c;
	return NULL;
}

static void test_sweep_caveats(void **state)
{
	json_t *doc, *cav;
	const json_t *c;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	doc = sweep_doc(run_one_side);
	cav = ccb_sweep_caveats(doc);
	c = caveat(cav, "latency-sides");
	assert_non_null(c);
	assert_string_equal(json_string_value(json_object_get(c, "severity")), "distrust");
	assert_non_null(strstr(json_string_value(json_object_get(c, "text")),
	                       "librbd points: 2ms on the client only"));
	assert_non_null(
	    strstr(json_string_value(json_object_get(c, "text")), "krbd points: none injected"));
	c = caveat(cav, "fuse-loop");
	assert_non_null(c);
	assert_string_equal(json_string_value(json_object_get(c, "series")), "path=krbd");
	assert_null(caveat(cav, "osd-latency-lost"));
	json_decref(cav);
	/* The table says both, and recommends nothing for the fuse-loop series. */
	json_object_set_new(doc, "knees",
	                    json_pack("[{s:{s:s}, s:s, s:f, s:f}]", "series", "path", "krbd",
	                              "value", "128K", "bandwidth_mib_s", 300.0, "best_mib_s",
	                              310.0));
	f = open_memstream(&text, &len);
	ccb_sweep_render_text(doc, f);
	fclose(f);
	assert_non_null(strstr(text, "DISTRUST: not comparable"));
	assert_non_null(strstr(text, "cannot show readahead"));
	assert_null(strstr(text, "recommendation (path=krbd)"));
	free(text);
	json_decref(doc);

	/* The same side for both: comparable; the lost run is named. */
	doc = sweep_doc(run_same_side);
	cav = ccb_sweep_caveats(doc);
	assert_null(caveat(cav, "latency-sides"));
	assert_null(caveat(cav, "fuse-loop"));
	c = caveat(cav, "osd-latency-lost");
	assert_non_null(c);
	assert_non_null(strstr(json_string_value(json_object_get(c, "text")), "1 run ran after"));
	json_decref(cav);
	json_decref(doc);

	/* A sweep saved before the field: librbd's layout still tells. */
	doc = sweep_doc(run_old);
	cav = ccb_sweep_caveats(doc);
	assert_non_null(caveat(cav, "latency-sides"));
	json_decref(cav);
	json_decref(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_shape, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_values, setup3, teardown),
	    cmocka_unit_test(test_single_client),
	    cmocka_unit_test(test_errors_and_status),
	    cmocka_unit_test(test_empty_run),
	    cmocka_unit_test_setup_teardown(test_render_json, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_render_csv, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_render_text, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_emit_file, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_emit_unwritable, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_emit_special_files, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_compare_tolerance, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_compare_status, setup3, teardown),
	    cmocka_unit_test_setup_teardown(test_compare_releases, setup3, teardown),
	    cmocka_unit_test(test_redact_text),
	    cmocka_unit_test(test_redact_free_text),
	    cmocka_unit_test(test_redact_argv),
	    cmocka_unit_test(test_result_redacted),
	    cmocka_unit_test(test_sweep_caveats),
	};

	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
