/*
 * Text, JSON and CSV views of one result object. Each reads only the
 * JSON model, so the three can never disagree.
 */
#include <ccbench/escape.h>
#include <ccbench/explain.h>
#include "fault_report.h"
#include <ccbench/release.h>
#include <ccbench/report.h>
#include "report_pools.h"
#include "report_osd.h"
#include <ccbench/units.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

double ccb_report_num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

const char *ccb_report_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void text_latency(FILE *out, const char *label, const json_t *lat)
{
	fprintf(out,
	        "%-18s min %.3f  mean %.3f  stddev %.3f  p50 %.3f  p90 %.3f  p99 %.3f  p99.9 %.3f  "
	        "max %.3f\n",
	        label, ccb_report_num(lat, "min") / 1e3, ccb_report_num(lat, "mean") / 1e3,
	        ccb_report_num(lat, "stddev") / 1e3, ccb_report_num(lat, "p50") / 1e3,
	        ccb_report_num(lat, "p90") / 1e3, ccb_report_num(lat, "p99") / 1e3,
	        ccb_report_num(lat, "p99_9") / 1e3, ccb_report_num(lat, "max") / 1e3);
}

/* One "key=value ..." line of an object's scalars; sizes in K/M/G. */
static void text_object(FILE *out, const char *label, const json_t *obj)
{
	const char *key;
	json_t *v;

	fprintf(out, "%-18s", label);
	json_object_foreach((json_t *)obj, key, v)
	{
		char kb[128];
		/* The document's key, for a terminal. */
		const char *ke = ccb_text_esc(key, kb, sizeof(kb));
		bool sized =
		    strstr(key, "size") || strstr(key, "bytes") || strstr(key, "stripe_unit");
		if (json_is_integer(v) && sized && json_integer_value(v) > 0) {
			char b[32];
			ccb_format_bytes((uint64_t)json_integer_value(v), b, sizeof(b));
			fprintf(out, " %s=%s", ke, b);
		} else if (json_is_integer(v)) {
			fprintf(out, " %s=%lld", ke, (long long)json_integer_value(v));
		} else if (json_is_real(v)) {
			fprintf(out, " %s=%g", ke, json_real_value(v));
		} else if (json_is_string(v)) {
			fprintf(out, " %s=", ke);
			ccb_text_put(out, json_string_value(v));
		} else if (json_is_boolean(v)) {
			fprintf(out, " %s=%s", ke, json_is_true(v) ? "true" : "false");
		} else if (json_is_array(v)) {
			size_t i;
			json_t *e;
			fprintf(out, " %s=", ke);
			json_array_foreach(v, i, e)
			{
				fputs(i ? "," : "", out);
				if (json_is_string(e))
					ccb_text_put(out, json_string_value(e));
				else if (json_is_number(e))
					fprintf(out, "%.3g", json_number_value(e));
				else
					fputc('?', out);
			}
		}
	}
	fputc('\n', out);
}

/* A latency as bonnie++ prints it: microseconds below 10 ms, else milliseconds. */
static void bonnie_latency(char *buf, size_t len, double usec)
{
	if (usec < 10000)
		snprintf(buf, len, "%.0fus", usec);
	else
		snprintf(buf, len, "%.0fms", usec / 1e3);
}

/*
 * fs meta: bonnie++'s file-creation table, Sequential Create and Random
 * Create, each Create / Read (stat+read) / Delete, as ops per second and
 * then the latency distribution bonnie++ reduces to one figure. A phase
 * that did not run (interrupted) shows "-"; "files" counts what each did.
 */
static void text_meta_table(FILE *out, const json_t *r)
{
	const json_t *phases = json_object_get(r, "phases");
	const json_t *files = json_object_get(r, "files");
	static const struct {
		const char *label, *key;
	} rows[] = {{"latency p50", "p50"}, {"latency p99", "p99"}, {"latency max", "max"}};
	size_t n = json_array_size(phases);
	char sp[128];

	fprintf(out, "%-18s %s (%lld files, %lld to %lld bytes, %lld dirs)\n", "files",
	        ccb_text_esc(ccb_report_str(files, "spec"), sp, sizeof(sp)),
	        (long long)json_integer_value(json_object_get(files, "count")),
	        (long long)json_integer_value(json_object_get(files, "min_bytes")),
	        (long long)json_integer_value(json_object_get(files, "max_bytes")),
	        (long long)json_integer_value(json_object_get(files, "dirs")));
	fprintf(out, "%-18s  ------Sequential Create------ --------Random Create--------\n", "");
	fprintf(out, "%-18s  -Create-- --Read--- -Delete-- -Create-- --Read--- -Delete--\n", "");
	fprintf(out, "%-18s", "/sec");
	for (size_t i = 0; i < n; i++) {
		const json_t *ph = json_array_get(phases, i);
		if (json_integer_value(json_object_get(ph, "ops")))
			fprintf(out, " %9.0f", ccb_report_num(ph, "ops_per_s"));
		else
			fprintf(out, " %9s", "-");
	}
	fputc('\n', out);
	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++) {
		fprintf(out, "%-18s", rows[k].label);
		for (size_t i = 0; i < n; i++) {
			const json_t *ph = json_array_get(phases, i);
			char b[32] = "-";
			if (json_integer_value(json_object_get(ph, "ops")))
				bonnie_latency(
				    b, sizeof(b),
				    ccb_report_num(json_object_get(ph, "latency_us"), rows[k].key));
			fprintf(out, " %9s", b);
		}
		fputc('\n', out);
	}
	fprintf(out, "%-18s", "files");
	for (size_t i = 0; i < n; i++)
		fprintf(out, " %9lld",
		        (long long)json_integer_value(
		            json_object_get(json_array_get(phases, i), "ops")));
	fputc('\n', out);
	fprintf(out, "%-18s %.2f s, %lld ops, %lld errors\n", "total", ccb_report_num(r, "seconds"),
	        (long long)json_integer_value(json_object_get(r, "ops")),
	        (long long)json_integer_value(json_object_get(r, "errors")));
}

/* --until-steady: the level the window held, beside the whole run's. */
static void text_steady(FILE *out, const json_t *ss)
{
	const json_t *w = json_object_get(ss, "window");
	char sp[128];

	if (!ss)
		return;
	if (json_is_true(json_object_get(ss, "attained")))
		fprintf(out,
		        "%-18s %.2f MiB/s, %.1f iops over %.1f to %.1f s (%s held: ±%.1f %%, trend "
		        "%.1f %%); the figures above are the whole run's, ramp included\n",
		        "steady", ccb_report_num(w, "bandwidth_mib_s"), ccb_report_num(w, "iops"),
		        ccb_report_num(w, "from_s"), ccb_report_num(w, "to_s"),
		        ccb_text_esc(ccb_report_str(ss, "spec"), sp, sizeof(sp)),
		        ccb_report_num(w, "max_deviation_pct"), ccb_report_num(w, "trend_pct"));
	if (json_is_true(json_object_get(ss, "read_to_end")))
		fprintf(out,
		        "%-18s reached with the run's end %.1f s away (under its %.0f s window): "
		        "read on to it, so the whole run's figures are its level\n",
		        "", ccb_report_num(ss, "end_was_s"), ccb_report_num(ss, "window_s"));
	else if (!json_is_true(json_object_get(ss, "attained"))) {
		fprintf(out, "%-18s not reached (", "steady");
		ccb_text_put(out, ccb_report_str(ss, "spec"));
		fputs("): ", out);
		ccb_text_put(out, ccb_report_str(ss, "why"));
		fputc('\n', out);
	}
}

/*
 * An open-loop run (--rate): what was asked and what came, the verdict and
 * its rule, and both latencies -- response from each op's intended start
 * (the wait in the backlog counts), service from its submission -- with
 * the issuer's own lag, the client's error rather than the cluster's.
 */
static void text_open_loop(FILE *out, const json_t *ol)
{
	const json_t *lag = json_object_get(ol, "issuer_lag_us");

	if (!json_is_object(ol))
		return;
	fprintf(out, "%-18s target %.1f ops/s (", "open loop", ccb_report_num(ol, "target_ops_s"));
	ccb_text_put(out, ccb_report_str(ol, "arrivals"));
	fprintf(out, ", seed %lld, %lld in flight at most), achieved %.1f ops/s: ",
	        (long long)json_integer_value(json_object_get(ol, "seed")),
	        (long long)json_integer_value(json_object_get(ol, "max_in_flight")),
	        ccb_report_num(ol, "achieved_ops_s"));
	ccb_text_put(out, ccb_report_str(ol, "verdict"));
	fputs(" (", out);
	ccb_text_put(out, ccb_report_str(ol, "verdict_rule"));
	fputs(")\n", out);
	fprintf(out, "%-18s %lld: %lld issued, %lld late, %lld dropped, %lld left at the end\n",
	        "  arrivals", (long long)json_integer_value(json_object_get(ol, "arrivals_total")),
	        (long long)json_integer_value(json_object_get(ol, "issued")),
	        (long long)json_integer_value(json_object_get(ol, "late")),
	        (long long)json_integer_value(json_object_get(ol, "dropped")),
	        (long long)json_integer_value(json_object_get(ol, "left_at_end")));
	text_latency(out, "  response ms", json_object_get(ol, "response_time_us"));
	text_latency(out, "  service ms", json_object_get(ol, "service_time_us"));
	fprintf(out, "%-18s p50 %.3f  p99 %.3f  max %.3f (submission minus intended start)\n",
	        "  issuer lag ms", ccb_report_num(lag, "p50") / 1e3,
	        ccb_report_num(lag, "p99") / 1e3, ccb_report_num(lag, "max") / 1e3);
}

static int write_text(const json_t *r, FILE *out)
{
	const json_t *bw = json_object_get(r, "bandwidth_per_second_mib_s");
	const json_t *layout = json_object_get(r, "layout");
	const json_t *clients = json_object_get(r, "clients");
	const json_t *warnings = json_object_get(r, "warnings");
	const json_t *v;
	const char *key;
	size_t i;

	/* A saved result is anyone's file: its strings are escaped for the terminal. */
	fputs("ccbench ", out);
	ccb_text_put(out, ccb_report_str(r, "command"));
	fputs(" (path ", out);
	ccb_text_put(out, ccb_report_str(r, "path"));
	/* A path with no cluster (null) has no fsid to name. */
	if (*ccb_report_str(r, "fsid")) {
		fputs(", fsid ", out);
		ccb_text_put(out, ccb_report_str(r, "fsid"));
	}
	fputs(")\n", out);
	{
		char rel[320];

		ccb_release_text(json_object_get(r, "releases"), rel, sizeof(rel));
		if (rel[0]) {
			fprintf(out, "%-18s ", "releases");
			ccb_text_put(out, rel);
			fputc('\n', out);
		}
	}
	fprintf(out, "%-18s ", "status");
	ccb_text_put(out, ccb_report_str(r, "status"));
	fputs(" (", out);
	ccb_text_put(out, ccb_report_str(r, "reason"));
	fputs(")\n", out);
	if (json_object_get(r, "error")) {
		fprintf(out, "%-18s ", "error");
		ccb_text_put(out, ccb_report_str(r, "error"));
		fputc('\n', out);
	}
	fprintf(out, "%-18s %lld clients x %lld in flight\n", "load",
	        (long long)json_integer_value(json_object_get(r, "clients_n")),
	        (long long)json_integer_value(json_object_get(r, "queue_depth")));
	text_object(out, "layout", layout);
	json_object_foreach((json_t *)layout, key, v)
	{
		if (json_is_object(v))
			text_object(out, key, v);
	}
	ccb_report_pools_text(r, out);
	if (json_is_array(json_object_get(r, "phases"))) {
		text_meta_table(out, r);
		goto warnings;
	}
	fprintf(out, "%-18s %.2f s, %.1f MiB, %lld ops, %lld errors\n", "total",
	        ccb_report_num(r, "seconds"), ccb_report_num(r, "bytes") / 1048576.0,
	        (long long)json_integer_value(json_object_get(r, "ops")),
	        (long long)json_integer_value(json_object_get(r, "errors")));
	fprintf(out, "%-18s %.2f MiB/s\n", "bandwidth", ccb_report_num(r, "bandwidth_mib_s"));
	fprintf(out, "%-18s stddev %.2f  min %.2f  max %.2f  (%lld samples)\n", "  per second",
	        ccb_report_num(bw, "stddev"), ccb_report_num(bw, "min"), ccb_report_num(bw, "max"),
	        (long long)json_integer_value(json_object_get(bw, "samples")));
	fprintf(out, "%-18s %.1f\n", "iops", ccb_report_num(r, "iops"));
	text_steady(out, json_object_get(r, "steady_state"));
	text_latency(out, "latency ms", json_object_get(r, "latency_us"));
	text_open_loop(out, json_object_get(r, "open_loop"));
	ccb_fault_report_text(r, out);
	json_array_foreach((json_t *)clients, i, v)
	{
		char label[32];
		snprintf(label, sizeof(label), "client %lld",
		         (long long)json_integer_value(json_object_get(v, "client")));
		fprintf(out, "%-18s %.2f MiB/s, %.1f iops, %lld errors, p50 %.3f ms, p99 %.3f ms\n",
		        label, ccb_report_num(v, "bandwidth_mib_s"), ccb_report_num(v, "iops"),
		        (long long)json_integer_value(json_object_get(v, "errors")),
		        ccb_report_num(json_object_get(v, "latency_us"), "p50") / 1e3,
		        ccb_report_num(json_object_get(v, "latency_us"), "p99") / 1e3);
	}
	ccb_report_osd_text(r, out, false);
warnings:
	json_array_foreach((json_t *)warnings, i, v)
	{
		fprintf(out, "%-18s ", "warning");
		ccb_text_put(out, json_string_value(v));
		fputc('\n', out);
	}
	ccb_explain_write_text(json_object_get(r, "explain"), out);
	return ferror(out) ? -EIO : 0;
}

/* CSV: one header and one row per result; nested objects flatten to a_b. */
static const char *const csv_cols[] = {
    "command",
    "path",
    "mode",
    "status",
    "clients_n",
    "queue_depth",
    "seconds",
    "bytes",
    "ops",
    "errors",
    "bandwidth_mib_s",
    "iops",
    "bandwidth_per_second_mib_s.stddev",
    "bandwidth_per_second_mib_s.min",
    "bandwidth_per_second_mib_s.max",
    "latency_us.min",
    "latency_us.mean",
    "latency_us.stddev",
    "latency_us.p50",
    "latency_us.p90",
    "latency_us.p99",
    "latency_us.p99_9",
    "latency_us.max",
    "fsid",
};

static const json_t *lookup(const json_t *r, const char *path)
{
	char key[64];
	const char *dot = strchr(path, '.');

	if (!dot)
		return json_object_get(r, path);
	snprintf(key, sizeof(key), "%.*s", (int)(dot - path), path);
	return json_object_get(json_object_get(r, key), dot + 1);
}

static void csv_field(FILE *out, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		fprintf(out, "%.3f", json_real_value(v));
	else if (json_is_string(v))
		ccb_csv_cell(out, json_string_value(v));
}

/* The last column, "explain": kind:severity;... (empty for none). A run
 * with faults: its timeline, a row per second (fault_report.c). */
static int write_csv(const json_t *r, FILE *out)
{
	size_t n = sizeof(csv_cols) / sizeof(csv_cols[0]);
	char ex[1024];
	json_t *exs;

	if (ccb_fault_report_is(r))
		return ccb_fault_report_csv(r, out);

	for (size_t i = 0; i < n; i++) {
		char col[64];
		snprintf(col, sizeof(col), "%s", csv_cols[i]);
		for (char *p = col; *p; p++)
			if (*p == '.')
				*p = '_';
		fprintf(out, "%s,", col);
	}
	fputs("explain\n", out);
	for (size_t i = 0; i < n; i++) {
		csv_field(out, lookup(r, csv_cols[i]));
		fputc(',', out);
	}
	ccb_explain_summary(json_object_get(r, "explain"), ex, sizeof(ex));
	exs = json_string(ex);
	csv_field(out, exs);
	json_decref(exs);
	fputc('\n', out);
	return ferror(out) ? -EIO : 0;
}

static int write_any(const json_t *result, enum ccb_format fmt, FILE *out)
{
	switch (fmt) {
	case CCB_FMT_JSON:
		if (json_dumpf(result, out, JSON_INDENT(2) | JSON_REAL_PRECISION(10)) < 0)
			return -EIO;
		fputc('\n', out);
		return ferror(out) ? -EIO : 0;
	case CCB_FMT_CSV:
		return write_csv(result, out);
	case CCB_FMT_TEXT:
	default:
		return write_text(result, out);
	}
}

/*
 * A result bigger than stdio's buffer meets a closed pipe inside the
 * write, not at the final fflush: the stream only says "error", and the
 * caller must still tell EPIPE (a reader gone: exit 141) from a real I/O
 * error. errno from the failed write(2) says which.
 */
int ccb_report_write(const json_t *result, enum ccb_format fmt, FILE *out)
{
	int r;

	errno = 0;
	r = write_any(result, fmt, out);
	if (r == -EIO && errno > 0)
		r = -errno;
	return r;
}

static int render_text(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_TEXT, f);
}

static int render_json(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_JSON, f);
}

static int render_csv(const json_t *doc, FILE *f)
{
	return ccb_report_write(doc, CCB_FMT_CSV, f);
}

int ccb_report_emit(const json_t *result, const struct ccb_opts *o)
{
	int r;

	if (o->output)
		return ccb_report_to_file(o->output, "--output", result,
		                          o->format == CCB_FMT_JSON  ? render_json
		                          : o->format == CCB_FMT_CSV ? render_csv
		                                                     : render_text);
	r = ccb_report_write(result, o->format, stdout);
	if (fflush(stdout) != 0)
		r = -errno;
	if (r < 0)
		fprintf(stderr, "ccbench: writing the result to stdout: %s\n", strerror(-r));
	return r;
}
