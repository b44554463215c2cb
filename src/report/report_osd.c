/*
 * The per-OSD views of a result (report_osd.h), from its "attribution".
 * A saved result is anyone's file: its strings are escaped, and an entry
 * that is not an object with an integer OSD id is not shown.
 */
#include <ccbench/attr_json.h>
#include "chart.h"
#include <ccbench/escape.h>
#include <ccbench/report.h>
#include "report_osd.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static const json_t *counter(const json_t *e, const char *name)
{
	return json_object_get(json_object_get(json_object_get(e, "perf"), "counters"), name);
}

/* The OSD's own op latency (µs) over its reads and writes; -1: none. */
static double own_us(const json_t *e)
{
	static const char *const names[] = {"op_r_latency", "op_w_latency", "op_rw_latency"};
	double sum = 0, n = 0;

	for (size_t i = 0; i < 3; i++) {
		sum += num(counter(e, names[i]), "mean_us") * num(counter(e, names[i]), "n");
		n += num(counter(e, names[i]), "n");
	}
	return n > 0 ? sum / n : -1;
}

static bool valid(const json_t *e)
{
	return json_is_object(e) && json_is_integer(json_object_get(e, "osd"));
}

static double p99_of(const json_t *e)
{
	const json_t *v = json_object_get(json_object_get(e, "latency_us"), "p99");
	return json_is_number(v) ? json_number_value(v) : -1;
}

/* One OSD's line: its client figures (per-op runs) and its own. */
static void row(FILE *out, const json_t *e)
{
	const json_t *lat = json_object_get(e, "latency_us");
	double own = own_us(e), sub = num(counter(e, "subop_w_latency"), "mean_us");
	char label[32];

	snprintf(label, sizeof(label), "  osd.%lld",
	         (long long)json_integer_value(json_object_get(e, "osd")));
	fprintf(out, "%-18s", label);
	if (json_object_get(e, "ops")) {
		fprintf(out, " %lld ops %.0f %%  mean %.3f",
		        (long long)json_integer_value(json_object_get(e, "ops")),
		        num(e, "share") * 100, num(lat, "mean") / 1e3);
		if (p99_of(e) >= 0)
			fprintf(out, "  p50 %.3f  p99 %.3f", num(lat, "p50") / 1e3,
			        p99_of(e) / 1e3);
		fprintf(out, "  max %.3f ms", num(lat, "max") / 1e3);
	}
	if (own >= 0)
		fprintf(out, "%s own op %.3f ms", json_object_get(e, "ops") ? ";" : "", own / 1e3);
	if (sub > 0)
		fprintf(out, ", replica writes %.3f ms", sub / 1e3);
	if (json_is_false(json_object_get(e, "answered")))
		fputs(" did not answer", out);
	else if (!json_object_get(e, "ops") && own < 0 && sub <= 0)
		fputs(" no op of its own over the run", out);
	fputc('\n', out);
}

static int by_p99_desc(const void *x, const void *y)
{
	double a = p99_of(*(const json_t *const *)x), b = p99_of(*(const json_t *const *)y);
	return a > b ? -1 : a < b;
}

void ccb_report_osd_text(const json_t *r, FILE *out, bool all)
{
	const json_t *att = json_object_get(r, "attribution"), *osds, *e;
	const json_t *cl, *pm;
	struct ccb_attr_sum s;
	size_t n, i, shown = 0;
	const json_t **order;

	if (!json_is_object(att))
		return;
	osds = json_object_get(att, "osds");
	cl = json_object_get(att, "client");
	pm = json_object_get(att, "pg_map");
	n = json_array_size(osds);
	ccb_attr_summarize(att, &s);
	fprintf(out, "%-18s ", "per OSD");
	if (cl)
		fprintf(out, "%zu OSDs, %lld ops by their PG's primary", n,
		        (long long)json_integer_value(json_object_get(cl, "ops")));
	else
		fprintf(out, "%zu OSDs, their own counters only", n);
	if (pm) {
		fputs(" (PG map: ", out);
		ccb_text_put(out, str(pm, "source"));
		if (num(pm, "moved") > 0)
			fprintf(out, ", %.0f PGs moved", num(pm, "moved"));
		fputc(')', out);
	}
	fputc('\n', out);
	order = calloc(n ? n : 1, sizeof(*order));
	if (!order)
		return;
	json_array_foreach(osds, i, e) if (valid(e)) order[shown++] = e;
	n = shown;
	if (all || n <= CCB_REPORT_OSD_ROWS) {
		for (i = 0; i < n; i++)
			row(out, order[i]);
		free(order);
		return;
	}
	/* Many OSDs: the highest p99 first, the median OSD, one summary line. */
	qsort(order, n, sizeof(*order), by_p99_desc);
	for (i = 0; i < CCB_REPORT_OSD_OUTLIERS && i < n; i++)
		row(out, order[i]);
	fputs("  ...\n", out);
	if (n > CCB_REPORT_OSD_OUTLIERS)
		row(out, order[n / 2]);
	fprintf(out,
	        "%-18s p99 of the median OSD %.3f ms, of the highest %.3f ms (osd.%d); "
	        "report --per-osd lists all %zu\n",
	        "  summary", s.median_p99_us / 1e3, s.worst_p99_us / 1e3, s.worst, n);
	free(order);
}

int ccb_report_osd_csv(const json_t *r, FILE *out)
{
	const json_t *osds = json_object_get(json_object_get(r, "attribution"), "osds"), *e;
	size_t i;

	fputs("osd,ops,bytes,share,mean_us,p50_us,p90_us,p99_us,max_us,primary_pgs,"
	      "own_op_latency_us,op_r,op_w,subop_w_latency_us,queue_us,answered\n",
	      out);
	json_array_foreach(osds, i, e)
	{
		const json_t *lat = json_object_get(e, "latency_us"),
		             *perf = json_object_get(e, "perf");
		double own = own_us(e), q = -1;

		if (!valid(e))
			continue;
		if (counter(e, "op_before_dequeue_op_lat") && counter(e, "op_before_queue_op_lat"))
			q = num(counter(e, "op_before_dequeue_op_lat"), "mean_us") -
			    num(counter(e, "op_before_queue_op_lat"), "mean_us");
		fprintf(out, "%lld,", (long long)json_integer_value(json_object_get(e, "osd")));
		if (json_object_get(e, "ops"))
			fprintf(out, "%lld,%lld,%.4f,%.3f,",
			        (long long)json_integer_value(json_object_get(e, "ops")),
			        (long long)json_integer_value(json_object_get(e, "bytes")),
			        num(e, "share"), num(lat, "mean"));
		else
			fputs(",,,,", out);
		if (p99_of(e) >= 0)
			fprintf(out, "%.3f,%.3f,%.3f,", num(lat, "p50"), num(lat, "p90"),
			        p99_of(e));
		else
			fputs(",,,", out);
		if (json_object_get(e, "ops"))
			fprintf(out, "%.3f,", num(lat, "max"));
		else
			fputc(',', out);
		if (json_object_get(e, "primary_pgs"))
			fprintf(out, "%lld",
			        (long long)json_integer_value(json_object_get(e, "primary_pgs")));
		fputc(',', out);
		if (own >= 0)
			fprintf(out, "%.3f", own);
		fputc(',', out);
		if (json_object_get(perf, "op_r"))
			fprintf(out, "%lld",
			        (long long)json_integer_value(json_object_get(perf, "op_r")));
		fputc(',', out);
		if (json_object_get(perf, "op_w"))
			fprintf(out, "%lld",
			        (long long)json_integer_value(json_object_get(perf, "op_w")));
		fputc(',', out);
		if (counter(e, "subop_w_latency"))
			fprintf(out, "%.3f", num(counter(e, "subop_w_latency"), "mean_us"));
		fputc(',', out);
		if (q >= 0)
			fprintf(out, "%.3f", q);
		fprintf(out, ",%s\n",
		        json_is_false(json_object_get(e, "answered")) ? "false" : "true");
	}
	return ferror(out) ? -EIO : 0;
}

int ccb_report_osd_svg(const json_t *r, FILE *out)
{
	const json_t *att = json_object_get(r, "attribution"), *e;
	size_t n = json_array_size(json_object_get(att, "osds")), i, k = 0;
	double *x = calloc(n ? n : 1, sizeof(*x)), *p99 = calloc(n ? n : 1, sizeof(*p99));
	double *p50 = calloc(n ? n : 1, sizeof(*p50));
	char **labels = calloc(n ? n : 1, sizeof(*labels)), med[64];
	struct ccb_attr_sum s;
	int ret = -ENOMEM;

	if (!x || !p99 || !p50 || !labels)
		goto out;
	ret = -ENODATA;
	if (!ccb_attr_summarize(att, &s))
		goto out;
	json_array_foreach(json_object_get(att, "osds"), i, e)
	{
		if (!valid(e) || p99_of(e) < 0)
			continue;
		labels[k] = malloc(24);
		if (!labels[k]) {
			ret = -ENOMEM;
			goto out;
		}
		snprintf(labels[k], 24, "osd.%lld",
		         (long long)json_integer_value(json_object_get(e, "osd")));
		x[k] = (double)k;
		p99[k] = p99_of(e) / 1e3;
		p50[k] = num(json_object_get(e, "latency_us"), "p50") / 1e3;
		k++;
	}
	if (!k)
		goto out;
	snprintf(med, sizeof(med), "median OSD p99 %.3f ms", s.median_p99_us / 1e3);
	{
		struct ccb_chart_series se[2] = {
		    {.label = "p99 of its ops", .x = x, .y = p99, .n = k},
		    {.label = "p50 of its ops", .x = x, .y = p50, .n = k},
		};
		struct ccb_chart_line hl = {.label = med, .value = s.median_p99_us / 1e3};
		struct ccb_chart c = {
		    .title = "latency by the OSD each op went to (its PG's primary)",
		    .x_title = "OSD",
		    .y_title = "ms",
		    .x_labels = (const char *const *)labels,
		    .n_x_labels = k,
		    .series = se,
		    .n_series = 2,
		    .hlines = &hl,
		    .n_hlines = 1,
		};
		ret = ccb_chart_svg(&c, out);
	}
out:
	for (i = 0; labels && i < k; i++)
		free(labels[i]);
	free(labels);
	free(x);
	free(p99);
	free(p50);
	return ret;
}
