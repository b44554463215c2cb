/*
 * The result model. Built once per run from the clients' merged
 * histograms and series; every report format reads this object.
 */
#include <ccbench/hist_json.h>
#include <ccbench/redact.h>
#include <ccbench/result.h>
#include "openloop.h"
#include <ccbench/path.h>
#include <ccbench/release.h>
#include <ccbench/stats.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

json_t *ccb_result_latency(const struct ccb_hist *h)
{
	return json_pack(
	    "{s:I, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}", "n", (json_int_t)h->count, "min",
	    h->count ? (double)h->min_nsec / 1e3 : 0.0, "mean", ccb_hist_mean(h) / 1e3, "stddev",
	    ccb_hist_stddev(h) / 1e3, "p50", (double)ccb_hist_percentile(h, 50) / 1e3, "p90",
	    (double)ccb_hist_percentile(h, 90) / 1e3, "p99",
	    (double)ccb_hist_percentile(h, 99) / 1e3, "p99_9",
	    (double)ccb_hist_percentile(h, 99.9) / 1e3, "max", (double)h->max_nsec / 1e3);
}

const char *ccb_mode_name(enum ccb_mode mode)
{
	static const char *const names[] = {
	    [CCB_MODE_WRITE] = "write",         [CCB_MODE_SEQ] = "seq", [CCB_MODE_RAND] = "rand",
	    [CCB_MODE_RANDWRITE] = "randwrite", [CCB_MODE_RW] = "rw",
	};
	return (unsigned)mode < sizeof(names) / sizeof(names[0]) ? names[mode] : "?";
}

const char *ccb_result_status(const struct ccb_run *run)
{
	switch (atomic_load(&((struct ccb_run *)run)->stop)) {
	case CCB_STOP_SIGNAL:
		return "interrupted";
	case CCB_STOP_TIMEOUT:
	case CCB_STOP_ERROR:
		return "aborted";
	default:
		return "ok";
	}
}

static json_t *series_json(const struct ccb_series *s)
{
	json_t *a = json_array();

	for (size_t i = 0; i < s->n_secs; i++)
		json_array_append_new(
		    a, json_pack("{s:I, s:I, s:I, s:f, s:f}", "t", (json_int_t)i + 1, "bytes",
		                 (json_int_t)s->bytes[i], "ops", (json_int_t)s->ops[i],
		                 "bandwidth_mib_s", (double)s->bytes[i] / 1048576.0, "lat_mean_us",
		                 s->ops[i] ? (double)s->lat_sum_nsec[i] / 1e3 / (double)s->ops[i]
		                           : 0.0));
	return a;
}

bool ccb_result_stopped_steady(const json_t *run)
{
	const json_t *ss = json_object_get(run, "steady_state");

	return json_is_true(json_object_get(ss, "attained")) &&
	       !json_is_true(json_object_get(ss, "read_to_end"));
}

double ccb_result_level(const json_t *run, const char *what)
{
	const json_t *w = json_object_get(json_object_get(run, "steady_state"), "window");

	if (ccb_result_stopped_steady(run) && json_is_number(json_object_get(w, what)))
		return json_number_value(json_object_get(w, what));
	return json_number_value(json_object_get(run, what));
}

static double mib_s(uint64_t bytes, double secs)
{
	return secs > 0 ? (double)bytes / 1048576.0 / secs : 0;
}

json_t *ccb_result_build(const struct ccb_run *run, uint64_t cmd_mask, int argc, char **argv)
{
	struct ccb_hist *all = calloc(1, sizeof(*all));
	struct ccb_series series;
	struct ccb_bw_summary bw;
	uint64_t bytes = 0, ops = 0, errors = 0, run_nsec = run->end_nsec - run->start_nsec;
	double secs = (double)run_nsec / 1e9;
	json_t *res, *clients = json_array(), *args = ccb_redact_argv(argc, argv);
	const char *error_msg = NULL;
	char started[64];
	time_t now = time(NULL);
	struct tm tm;

	if (!all)
		return NULL;
	ccb_hist_init(all);
	ccb_series_init(&series);
	for (unsigned i = 0; run->clients && i < run->n_clients; i++) {
		const struct ccb_client *cl = &run->clients[i];
		uint64_t cb = atomic_load(&((struct ccb_client *)cl)->bytes_done);
		uint64_t co = atomic_load(&((struct ccb_client *)cl)->ops_done);

		ccb_hist_merge(all, &cl->hist);
		ccb_series_merge(&series, &cl->series);
		bytes += cb;
		ops += co;
		errors += cl->errors;
		if (!error_msg && cl->first_error_msg[0])
			error_msg = cl->first_error_msg;
		if (run->n_clients > 1)
			json_array_append_new(
			    clients, json_pack("{s:i, s:I, s:I, s:f, s:f, s:I, s:o}", "client",
			                       (int)i, "bytes", (json_int_t)cb, "ops",
			                       (json_int_t)co, "bandwidth_mib_s", mib_s(cb, secs),
			                       "iops", secs > 0 ? (double)co / secs : 0.0, "errors",
			                       (json_int_t)cl->errors, "latency_us",
			                       ccb_result_latency(&cl->hist)));
	}
	ccb_series_bw_summary(&series, run_nsec, &bw);
	gmtime_r(&now, &tm);
	strftime(started, sizeof(started), "%Y-%m-%dT%H:%M:%SZ", &tm);

	res = json_pack("{s:s, s:i, s:s, s:s, s:s, s:o, s:o, s:s, s:s}", "ccbench_version",
	                CCB_VERSION, "schema", CCB_RESULT_SCHEMA, "command", run->command, "path",
	                run->ops->name, "mode", ccb_mode_name(run->mode), "argv", args,
	                "parameters", ccb_opts_to_json(run->opts, cmd_mask), "fsid", run->fsid,
	                "finished_at", started);
	if (!res)
		goto out;
	json_object_set_new(res, "status", json_string(ccb_result_status(run)));
	json_object_set_new(res, "reason", json_string(run->reason[0] ? run->reason : "completed"));
	if (error_msg)
		json_object_set_new(res, "error", json_string(error_msg));
	json_object_set_new(res, "seconds", json_real(secs));
	json_object_set_new(res, "bytes", json_integer((json_int_t)bytes));
	json_object_set_new(res, "ops", json_integer((json_int_t)ops));
	json_object_set_new(res, "errors", json_integer((json_int_t)errors));
	json_object_set_new(res, "bandwidth_mib_s", json_real(mib_s(bytes, secs)));
	json_object_set_new(res, "iops", json_real(secs > 0 ? (double)ops / secs : 0));
	json_object_set_new(res, "bandwidth_per_second_mib_s",
	                    json_pack("{s:I, s:f, s:f, s:f, s:f}", "samples",
	                              (json_int_t)bw.samples, "mean", bw.mean_mib_s, "stddev",
	                              bw.stddev_mib_s, "min", bw.min_mib_s, "max", bw.max_mib_s));
	json_object_set_new(res, "latency_us", ccb_result_latency(all));
	/* A group member's histogram, sparse: the group report merges the
	 * members' into the exact percentiles of all their ops. */
	if (run->opts->group)
		json_object_set_new(res, "latency_hist", ccb_hist_to_json(all));
	json_object_set_new(res, "clients_n", json_integer(run->n_clients));
	json_object_set_new(res, "queue_depth", json_integer((json_int_t)run->queue_depth));
	/* One name for every path's op size (-b, --io-size, --block-size). */
	json_object_set_new(res, "op_bytes", json_integer((json_int_t)run->op_bytes));
	json_object_set_new(res, "layout", run->layout ? json_incref(run->layout) : json_object());
	json_object_set_new(res, "series", series_json(&series));
	json_object_set_new(res, "clients", clients);
	clients = NULL;
	json_object_set_new(res, "warnings",
	                    run->warnings ? json_incref(run->warnings) : json_array());
	/* A pass that ran out of work sets no reason. */
	if (run->steady)
		json_object_set_new(
		    res, "steady_state",
		    ccb_steady_json(run->steady, run->reason[0] ? run->reason : "its pass was over",
		                    bytes));
	if (run->extra)
		json_object_update(res, run->extra);
	/* The client side of "releases" (the engine read the cluster's). */
	{
		json_t *rel = json_object_get(res, "releases");

		if (!json_is_object(rel)) {
			rel = json_object();
			json_object_set_new(res, "releases", rel);
		}
		json_object_set_new(rel, "client", ccb_release_client());
	}
	/* --rate: latency_us stays the service time, beside the response time. */
	if (run->openloop)
		json_object_set_new(res, "open_loop", ccb_openloop_json(run, ccb_result_latency));
	if (run->ops->result)
		run->ops->result(run, res);
	/* Last, over everything, the path's own additions too (krbd's
	 * map_options): whatever names key material loses its value. */
	if (ccb_redact_json(res) < 0) {
		json_decref(res);
		res = NULL;
	}
out:
	json_decref(clients);
	ccb_series_free(&series);
	free(all);
	return res;
}
