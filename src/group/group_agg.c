/*
 * The pure parts of a group: the parameters members must share, the
 * checks every record from the group pool passes before it is used, and
 * the report over the window in which all members ran. No cluster here:
 * tests/unit/test_group.c covers it all.
 */
#include <ccbench/explain.h>
#include "group_agg.h"
#include <ccbench/hist_json.h>
#include <ccbench/path.h>
#include <ccbench/release.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/stats.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MIB 1048576.0

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

json_t *ccb_group_params(const struct ccb_opts *o, const char *command,
                         const struct ccb_path_ops *ops)
{
	json_t *p = json_pack("{s:s, s:I}", "command", command, "members", (json_int_t)o->members);

	if (!p)
		return NULL;
	/* The same rule as point.c: --total, else --duration, else one pass
	 * for the paths that make one. */
	if (ccb_opt_given(o, "total")) {
		json_object_set_new(p, "stop", json_string("total"));
		json_object_set_new(p, "total", json_integer((json_int_t)o->total_bytes));
	} else if (ccb_opt_given(o, "duration") || !(ops->flags & CCB_PATH_ONE_PASS)) {
		json_object_set_new(p, "stop", json_string("duration"));
		json_object_set_new(p, "duration", json_integer((json_int_t)o->duration_usec));
	} else {
		json_object_set_new(p, "stop", json_string("pass"));
	}
	/* Under the path's own option name, as group records have always had it. */
	if (ops->op_size_name)
		json_object_set_new(p, ops->op_size_name,
		                    json_integer((json_int_t)o->op_size_bytes));
	return p;
}

/* A parameter value as the user would have typed it. */
static void param_text(const char *key, const json_t *v, char *buf, size_t len)
{
	if (!v) {
		snprintf(buf, len, "(none)");
	} else if (json_is_integer(v) && strcmp(key, "duration") == 0) {
		ccb_format_duration((uint64_t)json_integer_value(v), buf, len);
	} else if (json_is_integer(v) && strcmp(key, "members") != 0) {
		ccb_format_bytes((uint64_t)json_integer_value(v), buf, len);
	} else if (json_is_string(v)) {
		const char *s = json_string_value(v);
		snprintf(buf, len, "%s",
		         strcmp(key, "stop") == 0 && strcmp(s, "pass") == 0 ? "one pass"
		         : strcmp(key, "stop") == 0
		             ? (strcmp(s, "total") == 0 ? "--total" : "--duration")
		             : s);
	} else {
		char *s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
		snprintf(buf, len, "%s", s ? s : "?");
		free(s);
	}
}

int ccb_group_params_check(const json_t *group, const json_t *mine, char *why, size_t why_len)
{
	/* The order of the message: how the run stops before its value. */
	static const char *const order[] = {"command", "members", "stop",    "duration",
	                                    "total",   "op-size", "io-size", "block-size"};
	const char *key;
	json_t *v;

	for (size_t pass = 0; pass < 2; pass++) {
		const json_t *a = pass ? mine : group, *b = pass ? group : mine;
		for (size_t i = 0; i <= sizeof(order) / sizeof(order[0]); i++) {
			json_object_foreach((json_t *)a, key, v)
			{
				const json_t *w = json_object_get(b, key);
				char mv[64], gv[64];
				bool listed = false;

				for (size_t k = 0; k < sizeof(order) / sizeof(order[0]); k++)
					listed |= strcmp(order[k], key) == 0;
				/* First the known keys in order, then anything else. */
				if (i < sizeof(order) / sizeof(order[0])
				        ? strcmp(order[i], key) != 0
				        : listed)
					continue;
				if (w && json_equal(v, (json_t *)w))
					continue;
				param_text(key, json_object_get(mine, key), mv, sizeof(mv));
				param_text(key, json_object_get(group, key), gv, sizeof(gv));
				if (strcmp(key, "command") == 0)
					snprintf(why, why_len,
					         "this member runs '%s', the group '%s'", mv, gv);
				else if (strcmp(key, "stop") == 0)
					snprintf(why, why_len,
					         "this member stops after %s, the group after %s",
					         mv, gv);
				else
					snprintf(why, why_len,
					         "--%s: this member has %s, the group %s", key, mv,
					         gv);
				return -EINVAL;
			}
		}
	}
	return 0;
}

double ccb_group_skew_ms(const double *starts_s, size_t n)
{
	double lo = INFINITY, hi = -INFINITY;

	if (n < 2)
		return 0;
	for (size_t i = 0; i < n; i++) {
		lo = fmin(lo, starts_s[i]);
		hi = fmax(hi, starts_s[i]);
	}
	return (hi - lo) * 1000.0;
}

double ccb_group_bytes_between(const uint64_t *bytes, size_t n, double start_s, double seconds,
                               double t0, double t1)
{
	double end = start_s + seconds, sum = 0, first, last;
	size_t i0 = 0, i1 = n;

	if (!isfinite(start_s) || !isfinite(seconds) || !(t1 > t0))
		return 0;
	/* Only the buckets that can overlap [t0, t1) (one spare each side):
	 * a second of the window costs the same for a run of a minute or a day. */
	first = floor(t0 - start_s) - 1;
	last = ceil(t1 - start_s) + 1;
	if (first > 0)
		i0 = first >= (double)n ? n : (size_t)first;
	if (last < (double)n)
		i1 = last <= 0 ? 0 : (size_t)last;
	for (size_t i = i0; i < i1; i++) {
		double b0 = start_s + (double)i, b1 = fmin(b0 + 1, end), lo, hi;

		/* Ops that ended exactly at the end of the run fall in an empty
		 * last bucket; give it a nanosecond so they count once. */
		if (b1 <= b0)
			b1 = b0 + 1e-9;
		lo = fmax(b0, t0);
		hi = fmin(b1, t1);
		if (hi > lo)
			sum += (double)bytes[i] * (hi - lo) / (b1 - b0);
	}
	return sum;
}

struct agg_member {
	json_t *entry; /* borrowed from the report's members[] */
	const json_t *result;
	double start, seconds;
	uint64_t *bytes; /* the result's series, per second */
	size_t n;
};

static int load_series(struct agg_member *m)
{
	const json_t *series = json_object_get(m->result, "series"), *s;
	size_t i;

	m->n = json_array_size(series);
	m->bytes = calloc(m->n ? m->n : 1, sizeof(*m->bytes));
	if (!m->bytes)
		return -ENOMEM;
	json_array_foreach(series, i, s)
	{
		/* "t" is 1-based: entry t covers second t-1 of the run. */
		json_int_t t = json_integer_value(json_object_get(s, "t"));
		size_t idx = t >= 1 && (size_t)t <= m->n ? (size_t)t - 1 : i;
		m->bytes[idx] = (uint64_t)json_integer_value(json_object_get(s, "bytes"));
	}
	return 0;
}

/*
 * Records in the group pool are written by other hosts, other versions, or
 * anyone with access to the pool: nothing in them is trusted. An instant
 * must be a real-time second between 1970 and 2100; a run's seconds must be
 * within the longest --duration and within an hour of its last per-second
 * sample (a run may stall at its end, but not for days of no samples), so
 * the aggregate's work is bounded by the samples the records hold.
 */
#define EPOCH_MAX_S   4102444800.0 /* 2100-01-01 */
#define STALL_SLACK_S 3600.0
#define MAX_RUN_S     (31.0 * 86400.0 + STALL_SLACK_S)
#define MAX_SAMPLES   ((size_t)MAX_RUN_S + 1)
bool ccb_group_valid_instant(const json_t *v)
{
	double t = json_number_value(v);

	return json_is_number(v) && isfinite(t) && t > 0 && t <= EPOCH_MAX_S;
}

/* 0 when @p doc (a stored result: start_realtime, result{seconds, series...})
 * can be aggregated; else -EINVAL with the reason in @p why. */
static int check_result_doc(const json_t *doc, char *why, size_t len)
{
	const json_t *res = json_object_get(doc, "result"), *series, *s, *v;
	double secs;
	size_t i, n;

	if (!ccb_group_valid_instant(json_object_get(doc, "start_realtime"))) {
		snprintf(why, len,
		         "start_realtime missing or not an instant between 1970 and 2100");
		return -EINVAL;
	}
	if (!json_is_object(res)) {
		snprintf(why, len, "\"result\" is not an object");
		return -EINVAL;
	}
	v = json_object_get(res, "seconds");
	secs = json_number_value(v);
	series = json_object_get(res, "series");
	n = json_array_size(series);
	if (!json_is_array(series) || n > MAX_SAMPLES) {
		snprintf(why, len, "result.series missing, not an array or over %zu samples",
		         MAX_SAMPLES);
		return -EINVAL;
	}
	if (!json_is_number(v) || !isfinite(secs) || secs < 0 || secs > MAX_RUN_S ||
	    secs > (double)n + STALL_SLACK_S) {
		snprintf(why, len,
		         "result.seconds missing, negative, or beyond its %zu per-second samples",
		         n);
		return -EINVAL;
	}
	json_array_foreach(series, i, s)
	{
		const json_t *t = json_object_get(s, "t"), *b = json_object_get(s, "bytes");
		if (!json_is_object(s) || !json_is_integer(b) || json_integer_value(b) < 0 ||
		    (t && (!json_is_integer(t) || json_integer_value(t) < 1 ||
		           json_integer_value(t) > (json_int_t)n))) {
			snprintf(why, len, "result.series[%zu] is not {t, bytes >= 0}", i);
			return -EINVAL;
		}
	}
	v = json_object_get(json_object_get(res, "group"), "partial");
	if (v && (!json_is_object(v) || !json_is_number(json_object_get(v, "silent_s")) ||
	          !(json_number_value(json_object_get(v, "silent_s")) >= 0) ||
	          json_number_value(json_object_get(v, "silent_s")) > MAX_RUN_S)) {
		snprintf(why, len, "result.group.partial is not {silent_s: 0 to %g}",
		         (double)MAX_RUN_S);
		return -EINVAL;
	}
	v = json_object_get(res, "latency_us");
	if (v && (!json_is_object(v) || json_number_value(json_object_get(v, "n")) < 0 ||
	          json_number_value(json_object_get(v, "mean")) < 0)) {
		snprintf(why, len, "result.latency_us is not a latency object");
		return -EINVAL;
	}
	v = json_object_get(res, "latency_hist");
	if (v) {
		struct ccb_hist *h = malloc(sizeof(*h));
		int r = h ? ccb_hist_from_json(v, h, why, len) : -ENOMEM;

		free(h);
		if (r == -ENOMEM)
			snprintf(why, len, "result.latency_hist: out of memory");
		if (r < 0)
			return -EINVAL;
	}
	if (json_object_get(res, "status") && !json_is_string(json_object_get(res, "status"))) {
		snprintf(why, len, "result.status is not a string");
		return -EINVAL;
	}
	return 0;
}

/* 0 when heartbeat @p hb {at, bytes, ops, seconds} can be shown; else
 * -EINVAL with the reason. */
static int check_heartbeat(const json_t *hb, char *why, size_t len)
{
	static const char *const counts[] = {"bytes", "ops"};
	const json_t *s = json_object_get(hb, "seconds");

	if (!json_is_object(hb) || !ccb_group_valid_instant(json_object_get(hb, "at"))) {
		snprintf(why, len, "heartbeat: \"at\" is not an instant between 1970 and 2100");
		return -EINVAL;
	}
	for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
		const json_t *v = json_object_get(hb, counts[k]);
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			snprintf(why, len, "heartbeat: \"%s\" is not an integer >= 0", counts[k]);
			return -EINVAL;
		}
	}
	if (!json_is_number(s) || !isfinite(json_number_value(s)) || json_number_value(s) < 0 ||
	    json_number_value(s) > MAX_RUN_S) {
		snprintf(why, len, "heartbeat: \"seconds\" is not a run's length");
		return -EINVAL;
	}
	return 0;
}

/* 0 when registration @p reg can be shown; else -EINVAL with the reason. */
static int check_registration(const json_t *reg, char *why, size_t len)
{
	static const char *const strings[] = {"state", "host", "reason", "addr"};
	const json_t *v;

	if (!json_is_object(reg))
		return 0; /* absent: "unregistered", which is not malformed */
	for (size_t k = 0; k < sizeof(strings) / sizeof(strings[0]); k++) {
		v = json_object_get(reg, strings[k]);
		if (v && !json_is_string(v)) {
			snprintf(why, len, "registration: \"%s\" is not a string", strings[k]);
			return -EINVAL;
		}
	}
	v = json_object_get(reg, "start_realtime");
	if (v && !ccb_group_valid_instant(v)) {
		snprintf(why, len,
		         "registration: start_realtime is not an instant between 1970 and 2100");
		return -EINVAL;
	}
	v = json_object_get(reg, "pid");
	if (v && !json_is_integer(v)) {
		snprintf(why, len, "registration: pid is not an integer");
		return -EINVAL;
	}
	return 0;
}

json_t *ccb_group_json_us(double s)
{
	return json_integer((json_int_t)llround(s * 1e6));
}

/* Registration ids in registration order (registered_at, then id). */
struct reg_order {
	const char *id;
	double at;
};

static int reg_cmp(const void *a, const void *b)
{
	const struct reg_order *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return strcmp(x->id, y->id);
}

json_t *ccb_group_ids_in_order(const json_t *regs)
{
	size_t n = json_object_size(regs), i = 0;
	struct reg_order *v = calloc(n ? n : 1, sizeof(*v));
	json_t *out = json_array(), *r;
	const char *id;

	if (!v || !out) {
		free(v);
		json_decref(out);
		return NULL;
	}
	json_object_foreach((json_t *)regs, id, r)
	{
		v[i].id = id;
		v[i++].at = ccb_report_num(r, "registered_at");
	}
	qsort(v, n, sizeof(*v), reg_cmp);
	for (i = 0; i < n; i++)
		json_array_append_new(out, json_string(v[i].id));
	free(v);
	return out;
}

/* A member id as member_id() makes them: "HOST.PID.RAND", safe in an object name. */
static bool valid_member_id(const char *s)
{
	size_t l = strlen(s);

	return l >= 1 && l < 128 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-.") == l;
}

static void note_malformed(json_t *malformed, const char *id, const char *why)
{
	json_array_append_new(malformed, id ? json_pack("{s:s, s:s}", "member", id, "reason", why)
	                                    : json_pack("{s:s}", "reason", why));
}

/*
 * The member ids to report: a started group's claim, else the
 * registrations in order. A claim is checked like any record: ids are
 * strings, none twice, at most CCB_GROUP_MAX_MEMBERS (each costs a read).
 */
json_t *ccb_group_claim_ids(const json_t *started, const json_t *regs, json_t *malformed)
{
	const json_t *claim = json_object_get(started, "members"), *v;
	json_t *ids;
	size_t i;
	bool noted = false;

	if (!json_is_object(started)) {
		ids = ccb_group_ids_in_order(regs);
		if (json_array_size(ids) > CCB_GROUP_MAX_MEMBERS) {
			note_malformed(malformed, NULL,
			               "more registrations than a group can have; "
			               "those after the first left out");
			while (json_array_size(ids) > CCB_GROUP_MAX_MEMBERS)
				json_array_remove(ids, CCB_GROUP_MAX_MEMBERS);
		}
		return ids;
	}
	ids = json_array();
	if (!ids)
		return NULL;
	if (!json_is_array(claim)) {
		note_malformed(malformed, NULL, "the start claim: \"members\" is not a list");
		return ids;
	}
	json_array_foreach(claim, i, v)
	{
		const char *id = json_string_value(v);
		bool seen = false;
		size_t j;
		json_t *w;

		json_array_foreach(ids, j, w) seen |= id && strcmp(json_string_value(w), id) == 0;
		if (!id || !valid_member_id(id) || seen || i >= CCB_GROUP_MAX_MEMBERS) {
			if (!noted)
				note_malformed(
				    malformed, NULL,
				    "the start claim: \"members\" holds something not a "
				    "member id, an id twice, or too many ids; those left out");
			noted = true;
			continue;
		}
		json_array_append_new(ids, json_string(id));
	}
	return ids;
}

/* A group report as it is put together: what the group's records hold,
 * each member's state, and the window in which all ran. */
struct agg {
	const json_t *state, *results, *params, *started, *regs, *beats;
	double now, planned, w0, w1, agg_bytes, lat_weighted, lat_ops;
	json_t *members, *missing, *lost, *running, *malformed, *agg_series;
	struct agg_member *done;
	double *starts, *bw;
	size_t n_done, n_starts, lat_members;
	/* Every reporting member's ops in one histogram: the aggregate's
	 * percentiles are those of the union, never an average of the members'. */
	struct ccb_hist *lat_all, *lat_one;
	bool have_window;
};

/* Member @p id: its record checked, its state (done, withdrawn, running,
 * lost, missing, malformed) and figures in its entry. @return 0, -ENOMEM. */
static int add_member(struct agg *g, const char *id)
{
	const json_t *reg = json_object_get(g->regs, id);
	const json_t *doc = json_object_get(g->results, id);
	const json_t *res = json_object_get(doc, "result");
	const json_t *returned = json_object_get(json_object_get(res, "group"), "partial");
	const json_t *hb = doc ? NULL : json_object_get(g->beats, id);
	const char *reg_state;
	double start;
	char why[160];
	json_t *e;

	e = json_pack("{s:s}", "member", id);
	if (!e)
		return -ENOMEM;
	json_array_append_new(g->members, e);
	/* A record that does not hold what ccbench writes is named and left
	 * out, never half-used: one poisoned member cannot stall or blow up
	 * the report (or `group ls`) for everyone. */
	if (check_registration(reg, why, sizeof(why)) < 0 ||
	    (doc && check_result_doc(doc, why, sizeof(why)) < 0) ||
	    (hb && check_heartbeat(hb, why, sizeof(why)) < 0)) {
		json_object_set_new(e, "state", json_string("malformed"));
		json_object_set_new(e, "reason", json_string(why));
		note_malformed(g->malformed, id, why);
		return 0;
	}
	reg_state = reg ? ccb_report_str(reg, "state") : "unregistered";
	start = doc ? ccb_report_num(doc, "start_realtime") : ccb_report_num(reg, "start_realtime");
	json_object_set_new(e, "host", json_string(reg ? ccb_report_str(reg, "host") : ""));
	if (json_object_get(reg, "addr") && json_string_length(json_object_get(reg, "addr")) <= 256)
		json_object_set(e, "addr", json_object_get(reg, "addr"));
	json_object_set_new(e, "pid",
	                    json_integer(json_integer_value(json_object_get(reg, "pid"))));
	if (start > 0) {
		g->starts[g->n_starts++] = start;
		json_object_set_new(e, "start_realtime_us", ccb_group_json_us(start));
		if (g->planned > 0)
			json_object_set_new(e, "start_offset_ms",
			                    json_real((start - g->planned) * 1000.0));
	}
	if (strcmp(reg_state, "withdrawn") == 0) {
		json_object_set_new(e, "state", json_string("withdrawn"));
		if (json_object_get(reg, "reason"))
			json_object_set(e, "reason", json_object_get(reg, "reason"));
	} else if (json_is_object(res) && json_is_object(returned)) {
		/* Cut off past CCB_GROUP_LOST_AFTER_S and back in time to
		 * store its result, marked: lost still, out of the
		 * aggregate, with what it stored beside it. */
		json_object_set_new(e, "state", json_string("lost"));
		json_object_set_new(e, "returned", json_true());
		json_object_set(e, "partial", (json_t *)returned);
		json_object_set_new(e, "last_heard_realtime_us",
		                    ccb_group_json_us(ccb_report_num(doc, "end_realtime")));
		json_array_append_new(g->lost, json_string(id));
	} else if (json_is_object(res)) {
		json_object_set_new(e, "state", json_string("done"));
		g->done[g->n_done].entry = e;
		g->done[g->n_done].result = res;
		g->done[g->n_done].start = start;
		g->done[g->n_done].seconds = ccb_report_num(res, "seconds");
		if (load_series(&g->done[g->n_done]) < 0)
			return -ENOMEM;
		g->w0 = fmax(g->w0, start);
		g->w1 = fmin(g->w1, start + g->done[g->n_done].seconds);
		g->n_done++;
	} else if (hb) {
		/* No result, but heard from while it ran: running while its
		 * beats (once a second) keep coming, lost once they stopped
		 * CCB_GROUP_LOST_AFTER_S ago (killed, hung, cut off). Either
		 * way out of the aggregate, and said so with how far it got. */
		double at = ccb_report_num(hb, "at");
		bool gone = g->now > 0 && g->now - at > CCB_GROUP_LOST_AFTER_S;

		json_object_set_new(e, "state", json_string(gone ? "lost" : "running"));
		json_object_set_new(e, "last_state", json_string(reg_state));
		json_object_set_new(e, "last_heard_realtime_us", ccb_group_json_us(at));
		json_object_set_new(e, "heard",
		                    json_pack("{s:I, s:I, s:f}", "bytes",
		                              json_integer_value(json_object_get(hb, "bytes")),
		                              "ops", json_integer_value(json_object_get(hb, "ops")),
		                              "seconds", ccb_report_num(hb, "seconds")));
		json_array_append_new(gone ? g->lost : g->running, json_string(id));
	} else {
		/* Registered or running, never reported nor heard from: it
		 * died before its first beat, hangs, or is an older ccbench.
		 * Never silently left out. */
		json_object_set_new(e, "state", json_string("missing"));
		json_object_set_new(e, "last_state", json_string(reg_state));
		json_array_append_new(g->missing, json_string(id));
	}
	if (json_is_object(res)) {
		json_object_set_new(e, "status", json_string(ccb_report_str(res, "status")));
		json_object_set_new(e, "seconds", json_real(ccb_report_num(res, "seconds")));
		json_object_set_new(
		    e, "bytes", json_integer(json_integer_value(json_object_get(res, "bytes"))));
		json_object_set_new(e, "bandwidth_mib_s",
		                    json_real(ccb_report_num(res, "bandwidth_mib_s")));
		json_object_set_new(e, "iops", json_real(ccb_report_num(res, "iops")));
		json_object_set(e, "latency_us", json_object_get(res, "latency_us"));
		json_object_set(e, "result", (json_t *)res);
	}
	return 0;
}

/* The figures over the window in which every reporting member ran: each
 * member's bytes in it, the merged latency, the aggregate per second. */
static void window_figures(struct agg *g)
{
	size_t n_secs, i;

	g->have_window = g->n_done > 0 && g->w1 > g->w0;
	for (i = 0; i < g->n_done; i++) {
		struct agg_member *m = &g->done[i];
		double b = g->have_window ? ccb_group_bytes_between(m->bytes, m->n, m->start,
		                                                    m->seconds, g->w0, g->w1)
		                          : 0;
		const json_t *lat = json_object_get(m->result, "latency_us");
		char why[160];

		g->bw[i] = g->have_window ? b / MIB / (g->w1 - g->w0) : 0;
		g->agg_bytes += b;
		g->lat_weighted += ccb_report_num(lat, "mean") * ccb_report_num(lat, "n");
		g->lat_ops += ccb_report_num(lat, "n");
		/* Checked with the result (check_result_doc). */
		if (json_object_get(m->result, "latency_hist") &&
		    ccb_hist_from_json(json_object_get(m->result, "latency_hist"), g->lat_one, why,
		                       sizeof(why)) == 0) {
			ccb_hist_merge(g->lat_all, g->lat_one);
			g->lat_members++;
		}
		json_object_set_new(m->entry, "window_bytes", json_real(b));
		json_object_set_new(m->entry, "window_bandwidth_mib_s", json_real(g->bw[i]));
	}
	/* The aggregate per second, second j of the common window (whose
	 * length the checks above bound by the members' samples). A counter,
	 * not t += 1: that stops advancing at large t. */
	n_secs = g->have_window ? (size_t)ceil(g->w1 - g->w0 - 1e-9) : 0;
	for (size_t j = 0; j < n_secs; j++) {
		double t = g->w0 + (double)j, t1 = fmin(t + 1, g->w1), sum = 0;
		for (i = 0; i < g->n_done; i++)
			sum += ccb_group_bytes_between(g->done[i].bytes, g->done[i].n,
			                               g->done[i].start, g->done[i].seconds, t, t1);
		json_array_append_new(g->agg_series,
		                      json_pack("{s:I, s:f, s:f, s:f, s:f}", "t",
		                                (json_int_t)json_array_size(g->agg_series) + 1,
		                                "offset_s", t - g->w0, "seconds", t1 - t, "bytes",
		                                sum, "bandwidth_mib_s", sum / MIB / (t1 - t)));
	}
}

/* The report document, from the members' states and the window's figures. */
static json_t *report_doc(struct agg *g)
{
	json_t *report;

	report = json_pack("{s:s, s:i, s:s, s:s, s:O}", "ccbench_version", CCB_VERSION, "schema",
	                   CCB_RESULT_SCHEMA, "kind", "group_report", "group",
	                   ccb_report_str(g->state, "name"), "params",
	                   g->params ? (json_t *)g->params : json_null());
	if (!report)
		return NULL;
	if (json_is_object(g->started))
		json_object_set_new(report, "started_by",
		                    json_string(ccb_report_str(g->started, "by")));
	json_object_set_new(
	    report, "members_expected",
	    json_integer(json_integer_value(json_object_get(g->params, "members"))));
	json_object_set_new(
	    report, "status",
	    json_string(!json_is_object(g->started)   ? "waiting"
	                : json_array_size(g->running) ? "running"
	                : (json_int_t)g->n_done ==
	                            json_integer_value(json_object_get(g->params, "members")) &&
	                        json_array_size(g->missing) == 0 &&
	                        json_array_size(g->malformed) == 0 && json_array_size(g->lost) == 0
	                    ? "complete"
	                    : "incomplete"));
	if (g->planned > 0)
		json_object_set_new(report, "planned_start_realtime_us",
		                    ccb_group_json_us(g->planned));
	json_object_set_new(report, "start_skew_ms",
	                    g->n_starts ? json_real(ccb_group_skew_ms(g->starts, g->n_starts))
	                                : json_null());
	json_object_set_new(report, "window",
	                    g->have_window
	                        ? json_pack("{s:o, s:o, s:f}", "start_realtime_us",
	                                    ccb_group_json_us(g->w0), "end_realtime_us",
	                                    ccb_group_json_us(g->w1), "seconds", g->w1 - g->w0)
	                        : json_null());
	json_object_set_new(
	    report, "aggregate",
	    json_pack(
	        "{s:I, s:f, s:f, s:f, s:f, s:O}", "members", (json_int_t)g->n_done, "bytes",
	        g->agg_bytes, "seconds", g->have_window ? g->w1 - g->w0 : 0.0, "bandwidth_mib_s",
	        g->have_window ? g->agg_bytes / MIB / (g->w1 - g->w0) : 0.0, "latency_mean_us",
	        g->lat_ops > 0 ? g->lat_weighted / g->lat_ops : 0.0, "series", g->agg_series));
	/* Over each reporting member's whole run (the histograms are not per
	 * second); null when no member stored one (an older ccbench). */
	json_object_set_new(json_object_get(report, "aggregate"), "latency_us",
	                    g->lat_members ? ccb_result_latency(g->lat_all) : json_null());
	json_object_set_new(json_object_get(report, "aggregate"), "latency_members",
	                    json_integer((json_int_t)g->lat_members));
	json_object_set_new(json_object_get(report, "aggregate"), "jain_index",
	                    g->n_done ? json_real(ccb_jain_index(g->bw, g->n_done)) : json_null());
	json_object_set(report, "members", g->members);
	json_object_set(report, "missing", g->missing);
	json_object_set(report, "lost", g->lost);
	json_object_set(report, "running", g->running);
	json_object_set(report, "malformed", g->malformed);
	/* Over the members' results: hosts of a group may run other client
	 * releases. */
	json_object_set_new(report, "releases", ccb_release_of_doc(report));
	ccb_group_osd_aggregate(report);
	json_object_set_new(report, "explain", ccb_explain_group(report));
	return report;
}

json_t *ccb_group_aggregate(const json_t *state, const json_t *results)
{
	struct agg g = {
	    .state = state,
	    .results = results,
	    .params = json_object_get(state, "params"),
	    .started = json_object_get(state, "started"),
	    .regs = json_object_get(state, "members"),
	    .beats = json_object_get(state, "heartbeats"),
	    .now = ccb_report_num(state, "now"),
	    .members = json_array(),
	    .missing = json_array(),
	    .lost = json_array(),
	    .running = json_array(),
	    .malformed = json_array(),
	    .agg_series = json_array(),
	    .w0 = -INFINITY,
	    .w1 = INFINITY,
	    .planned = ccb_report_num(json_object_get(state, "started"), "start_realtime"),
	    .lat_all = malloc(sizeof(struct ccb_hist)),
	    .lat_one = malloc(sizeof(struct ccb_hist)),
	};
	json_t *ids, *report = NULL, *v;
	size_t n_ids, i;

	/* A started group is exactly the members named in its claim; later
	 * registrations were refused. Before the start, whoever registered. */
	if (json_is_object(g.started) &&
	    !ccb_group_valid_instant(json_object_get(g.started, "start_realtime"))) {
		note_malformed(g.malformed, NULL,
		               "the start claim: start_realtime is not an instant "
		               "between 1970 and 2100");
		g.planned = 0;
	}
	ids = ccb_group_claim_ids(g.started, g.regs, g.malformed);
	n_ids = json_array_size(ids);
	g.done = calloc(n_ids ? n_ids : 1, sizeof(*g.done));
	g.starts = calloc(n_ids ? n_ids : 1, sizeof(*g.starts));
	g.bw = calloc(n_ids ? n_ids : 1, sizeof(*g.bw));
	if (!ids || !g.members || !g.missing || !g.lost || !g.running || !g.malformed ||
	    !g.agg_series || !g.done || !g.starts || !g.bw || !g.lat_all || !g.lat_one)
		goto out;
	ccb_hist_init(g.lat_all);
	json_array_foreach(ids, i, v)
	{
		if (add_member(&g, json_string_value(v)) < 0)
			goto out;
	}
	window_figures(&g);
	report = report_doc(&g);
out:
	for (i = 0; g.done && i < g.n_done; i++)
		free(g.done[i].bytes);
	free(g.done);
	free(g.lat_all);
	free(g.lat_one);
	free(g.starts);
	free(g.bw);
	json_decref(ids);
	json_decref(g.members);
	json_decref(g.missing);
	json_decref(g.lost);
	json_decref(g.running);
	json_decref(g.malformed);
	json_decref(g.agg_series);
	return report;
}
