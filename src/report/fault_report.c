/*
 * The text and CSV views of a run with faults (fault_report.h): what the
 * schedule did, the phases with their figures, the I/O pause; and a CSV
 * row per second with its phase and events. Saved results are anyone's
 * files: their strings are escaped for the terminal and the CSV cell.
 */
#include <ccbench/escape.h>
#include "fault_report.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* report.c's own readers are its: this file is below it (report.c calls in). */
static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

bool ccb_fault_report_is(const json_t *r)
{
	return json_is_object(json_object_get(r, "fault")) &&
	       json_is_array(json_object_get(json_object_get(r, "fault"), "phases"));
}

/* A latency in ms, or "-" when the phase had no op. */
static const char *ms(const json_t *o, const char *key, char *buf, size_t len)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return "-";
	snprintf(buf, len, "%.2f", json_number_value(v) / 1e3);
	return buf;
}

static void text_schedule(const json_t *f, FILE *out)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(f, "schedule"), i, e)
	{
		fprintf(out, "%-18s ", i ? "" : "faults");
		ccb_text_put(out, str(e, "fault"));
		if (json_is_true(json_object_get(e, "fired"))) {
			fprintf(out, " at %.2f s: %s", num(e, "fired_s"),
			        json_is_true(json_object_get(e, "failed")) ? "FAILED, " : "");
			ccb_text_put(out, str(e, "result"));
		} else {
			fputs(": not reached", out);
		}
		fputc('\n', out);
	}
}

void ccb_fault_report_text(const json_t *r, FILE *out)
{
	const json_t *f = json_object_get(r, "fault"), *fig = json_object_get(f, "figures"), *p, *e;
	char a[32], b[32], c[32];
	size_t i;

	if (!ccb_fault_report_is(r))
		return;
	text_schedule(f, out);
	fprintf(out, "%-18s %8s %8s %8s %9s %9s %9s %9s %9s %6s\n", "phase", "from s", "to s",
	        "seconds", "MiB/s", "iops", "p50 ms", "p99 ms", "max ms", "errors");
	json_array_foreach(json_object_get(f, "phases"), i, p)
	{
		char name[32];

		fprintf(out, "  %-16s %8.2f %8.2f %8.2f %9.2f %9.1f %9s %9s %9s %6lld\n",
		        ccb_text_esc(str(p, "phase"), name, sizeof(name)), num(p, "from_s"),
		        num(p, "to_s"), num(p, "seconds"), num(p, "bandwidth_mib_s"),
		        num(p, "iops"), ms(p, "p50_us", a, sizeof(a)),
		        ms(p, "p99_us", b, sizeof(b)), ms(p, "max_us", c, sizeof(c)),
		        (long long)json_integer_value(json_object_get(p, "errors")));
	}
	if (json_is_number(json_object_get(fig, "pause_s")))
		fprintf(out,
		        "%-18s %.2f s from %.2f s%s (the longest stretch with no completion after "
		        "the first fault; the first completion after that fault came %.2f s after "
		        "it)\n",
		        "pause", num(fig, "pause_s"), num(fig, "pause_from_s"),
		        json_is_true(json_object_get(fig, "pause_open")) ? ", to the end" : "",
		        num(fig, "first_completion_after_s"));
	if (json_is_number(json_object_get(fig, "time_to_clean_s")))
		fprintf(out, "%-18s %.1f s after the first fault\n", "clean again",
		        num(fig, "time_to_clean_s"));
	else
		fprintf(out, "%-18s not by the end of the run\n", "clean again");
	fprintf(out, "%-18s %.1f ms (at %.0f s)\n", "slowest op", num(fig, "slowest_op_us") / 1e3,
	        num(fig, "slowest_op_second"));
	json_array_foreach(json_object_get(f, "undone"), i, e)
	{
		fprintf(out, "%-18s ", "undone");
		ccb_text_put(out, str(e, "text"));
		fprintf(out, " (%s)\n",
		        strcmp(str(e, "when"), "run") == 0 ? "during the run" : "at the end");
	}
}

/* The cluster's last sample at or before @p t. */
static const json_t *sample_at(const json_t *cluster, double t)
{
	const json_t *s, *best = NULL;
	size_t i;

	json_array_foreach(cluster, i, s)
	{
		if (num(s, "t_s") > t)
			break;
		if (json_is_true(json_object_get(s, "ok")))
			best = s;
	}
	return best;
}

static void csv_num(FILE *out, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(out, "%lld", (long long)json_integer_value(v));
	else if (json_is_number(v))
		fprintf(out, "%.3f", json_number_value(v));
}

int ccb_fault_report_csv(const json_t *r, FILE *out)
{
	static const char *const cols[] = {"osds_up",         "osds_in",      "pgs",
	                                   "pgs_clean",       "pgs_degraded", "pgs_recovering",
	                                   "pgs_backfilling", "pgs_peering"};
	const json_t *f = json_object_get(r, "fault"), *s, *e;
	size_t i, j, k;

	fputs("t,bandwidth_mib_s,ops,p50_us,p99_us,max_us,errors,phase", out);
	for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
		fprintf(out, ",%s", cols[k]);
	fputs(",events\n", out);
	json_array_foreach(json_object_get(r, "series"), i, s)
	{
		double t = num(s, "t"); /* the second [t - 1, t) */
		const json_t *cs = sample_at(json_object_get(f, "cluster"), t);
		char ev[2048];
		size_t used = 0;

		fprintf(out, "%.0f,%.3f,%lld,", t, num(s, "bandwidth_mib_s"),
		        (long long)json_integer_value(json_object_get(s, "ops")));
		csv_num(out, json_object_get(s, "p50_us"));
		fputc(',', out);
		csv_num(out, json_object_get(s, "p99_us"));
		fputc(',', out);
		csv_num(out, json_object_get(s, "max_us"));
		fputc(',', out);
		csv_num(out, json_object_get(s, "errors"));
		fputc(',', out);
		ccb_csv_cell(out, str(s, "phase"));
		for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			fputc(',', out);
			if (cs)
				csv_num(out, json_object_get(cs, cols[k]));
		}
		ev[0] = '\0';
		json_array_foreach(json_object_get(f, "events"), j, e)
		{
			double et = num(e, "t_s");

			if (et < t - 1 || et >= t || used >= sizeof(ev) - 2)
				continue;
			used += (size_t)snprintf(ev + used, sizeof(ev) - used, "%s%.2f %s",
			                         used ? "; " : "", et, str(e, "text"));
		}
		fputc(',', out);
		ccb_csv_cell(out, ev);
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}
