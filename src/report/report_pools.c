/*
 * A result's pools and the space a write cost, as text. The result is
 * anyone's file: strings are escaped, figures are read as they are and a
 * missing one says nothing.
 */
#include <ccbench/escape.h>
#include "report_pools.h"
#include <ccbench/units.h>

#include <string.h>

/* As report.c's: "" and 0 for what a document lacks (below it, no circle). */
static const char *rstr(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static double rnum(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

const char *ccb_report_pool_kind(const json_t *d, char *buf, size_t len)
{
	const json_t *e = json_object_get(d, "erasure");
	const char *t = rstr(d, "type");

	buf[0] = '\0';
	if (!json_is_string(json_object_get(d, "type")))
		return buf;
	if (strcmp(t, "erasure") == 0)
		snprintf(buf, len, "EC %lld+%lld%s",
		         (long long)json_integer_value(json_object_get(e, "k")),
		         (long long)json_integer_value(json_object_get(e, "m")),
		         json_is_true(json_object_get(e, "allow_ec_optimizations")) ? " FastEC"
		                                                                    : "");
	else if (strcmp(t, "replicated") == 0)
		snprintf(buf, len, "replicated x%lld",
		         (long long)json_integer_value(json_object_get(d, "size")));
	else
		snprintf(buf, len, "%s", t);
	return buf;
}

static void pool_line(FILE *out, const char *role, const json_t *d)
{
	const json_t *e = json_object_get(d, "erasure"), *a, *opt;
	char kind[64], b[32];
	size_t i;

	if (!json_is_object(d))
		return;
	fprintf(out, "pool %-13s ", role);
	ccb_text_put(out, rstr(d, "name"));
	fprintf(out, ": %s", ccb_report_pool_kind(d, kind, sizeof(kind)));
	if (e) {
		fputs(" (", out);
		ccb_text_put(out, rstr(e, "plugin"));
		fputc(' ', out);
		ccb_text_put(out, rstr(e, "technique"));
		fputs(", failure domain ", out);
		ccb_text_put(out, rstr(e, "crush_failure_domain"));
		ccb_format_bytes((uint64_t)json_integer_value(json_object_get(e, "stripe_unit")), b,
		                 sizeof(b));
		opt = json_object_get(e, "allow_ec_optimizations");
		fprintf(out, "), stripe_unit %s, overwrites %s, FastEC ", b,
		        json_is_true(json_object_get(e, "allow_ec_overwrites")) ? "on" : "off");
		if (json_is_string(opt))
			ccb_text_put(out, json_string_value(opt));
		else
			fputs(json_is_true(opt) ? "on" : "off", out);
		fputc(';', out);
	}
	fprintf(out, " size %lld, min_size %lld, %lld PGs",
	        (long long)json_integer_value(json_object_get(d, "size")),
	        (long long)json_integer_value(json_object_get(d, "min_size")),
	        (long long)json_integer_value(json_object_get(d, "pg_num")));
	json_array_foreach(json_object_get(d, "application"), i, a)
	{
		fputs(i ? "," : ", application ", out);
		ccb_text_put(out, json_string_value(a));
	}
	fputc('\n', out);
}

static void space_line(FILE *out, const json_t *s)
{
	char st[32], us[32], wr[32];
	bool raw = strcmp(rstr(s, "amplification_of") ? rstr(s, "amplification_of") : "",
	                  "stored_raw") == 0;
	double stored = rnum(s, "stored_delta");

	if (!json_is_object(s))
		return;
	fprintf(out, "%-18s ", "space");
	ccb_text_put(out, rstr(s, "pool"));
	if (json_is_string(json_object_get(s, "error"))) {
		fputs(": not read (", out);
		ccb_text_put(out, rstr(s, "error"));
		fputs(")\n", out);
		return;
	}
	/* MiB with a decimal: the deltas are seldom whole units. */
	snprintf(st, sizeof(st), "%+.1f MiB", stored / 1048576.0);
	snprintf(us, sizeof(us), "%+.1f MiB",
	         rnum(s, raw ? "stored_raw_delta" : "used_delta") / 1048576.0);
	snprintf(wr, sizeof(wr), "%.1f MiB", rnum(s, "bytes_written") / 1048576.0);
	fprintf(out,
	        ": STORED %s, %s %s, %+lld objects, for %s written: amplification %.2f (%.2f "
	        "per byte stored)%s\n",
	        st, raw ? "raw (STORED x rate)" : "USED", us, (long long)rnum(s, "objects_delta"),
	        wr, rnum(s, "amplification"), rnum(s, "raw_per_stored"),
	        raw ? "; the OSDs keep no per-pool usage, so USED is STORED here" : "");
	if (json_is_false(json_object_get(s, "reliable"))) {
		fprintf(out, "%-18s not reliable: ", "");
		ccb_text_put(out, rstr(s, "why"));
		fputc('\n', out);
	}
}

void ccb_report_pools_text(const json_t *r, FILE *out)
{
	const json_t *p = json_object_get(r, "pools");

	pool_line(out, "metadata", json_object_get(p, "metadata"));
	pool_line(out, "data", json_object_get(p, "data"));
	space_line(out, json_object_get(r, "space"));
}
