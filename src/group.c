/*
 * Groups: clients on many hosts started together and added up, with the
 * measured cluster itself as the coordinator (see group.h for the objects).
 *
 * A member's life:
 *   1. before any work, read the group: refuse (exit 2) when it already
 *      ran, is full, or wants other parameters;
 *   2. prepare and open the clients as any run does (point.c), then, in
 *      the engine's before_start hook, register: one guarded write op
 *      that only lands while "params" still holds what was checked and
 *      "started" is absent;
 *   3. watch the group object and poll it (a notify can be missed: the
 *      watch may be re-established, the member may register after the
 *      notify went out). Whoever sees N registrations writes "started" --
 *      a start instant CCB_GROUP_LEAD ahead and the N member ids -- in an
 *      op that also asserts every one of those registrations unchanged,
 *      so a member withdrawing at that moment cannot be started without
 *      it. The winner notifies; the others learn it from the notify or
 *      the next poll, well within the lead;
 *   4. sleep until the instant (CLOCK_REALTIME: hosts are assumed to be
 *      NTP-synchronised, and the measured skew shows it when not), return
 *      from the hook so the engine starts its clock, publish the measured
 *      start asynchronously, run;
 *   5. store the full result as its own object, then mark the
 *      registration done.
 * A member that gives up (timeout, Ctrl-C before the start) removes its
 * registration with an op guarded by "started" being absent: if the start
 * was claimed meanwhile it cannot silently vanish from a started group.
 * The last one out removes the group object, so a group that never
 * started leaves nothing behind.
 */
#include <ccbench/cluster.h>
#include <ccbench/group.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/stats.h>
#include <ccbench/chart.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <rados/librados.h>

/* How far ahead of the claim the common start lies: a notify takes
 * milliseconds, a member that missed it polls every CCB_GROUP_POLL. */
#define CCB_GROUP_LEAD_NSEC 2000000000ll
#define CCB_GROUP_POLL_NSEC 1000000000ull
/* The waiter wakes at least this often to notice Ctrl-C. */
#define WAIT_TICK_NSEC 100000000ull
/* Optimistic updates retry when another member changed the group first. */
#define MAX_ATTEMPTS      200
#define OMAP_PAGE         256
#define RESULT_CHUNK      (8u << 20)
#define RESULT_MAX        (256u << 20)
#define NOTIFY_TIMEOUT_MS 3000
#define MEMBER_PREFIX     "member."
#define MIB               1048576.0

#ifndef CCB_VERSION
#define CCB_VERSION "dev"
#endif

/* ---- pure parts ---------------------------------------------------------- */

json_t *ccb_group_params(const struct ccb_opts *o, const char *command, unsigned cmd_mask)
{
	json_t *p = json_pack("{s:s, s:I}", "command", command, "members", (json_int_t)o->members);

	if (!p)
		return NULL;
	/* The same rule as point.c: --total, else --duration (always for
	 * rados), else rbd/krbd/fs make one pass. */
	if (ccb_opt_given(o, "total")) {
		json_object_set_new(p, "stop", json_string("total"));
		json_object_set_new(p, "total", json_integer((json_int_t)o->total_bytes));
	} else if (ccb_opt_given(o, "duration") ||
	           !(cmd_mask & (CCB_CMD_RBD | CCB_CMD_KRBD | CCB_CMD_FS))) {
		json_object_set_new(p, "stop", json_string("duration"));
		json_object_set_new(p, "duration", json_integer((json_int_t)o->duration_usec));
	} else {
		json_object_set_new(p, "stop", json_string("pass"));
	}
	if (cmd_mask & CCB_CMD_RADOS)
		json_object_set_new(p, "op-size", json_integer((json_int_t)o->op_size_bytes));
	else if (cmd_mask & (CCB_CMD_RBD | CCB_CMD_KRBD))
		json_object_set_new(p, "io-size", json_integer((json_int_t)o->io_size_bytes));
	else if (cmd_mask & CCB_CMD_FS)
		json_object_set_new(p, "block-size", json_integer((json_int_t)o->block_size_bytes));
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
/* Hosts are NTP-synchronised; a minute apart is already far out. */
#define MAX_CLOCK_SKEW_S 60.0

static bool valid_instant(const json_t *v)
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

	if (!valid_instant(json_object_get(doc, "start_realtime"))) {
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
	v = json_object_get(res, "latency_us");
	if (v && (!json_is_object(v) || json_number_value(json_object_get(v, "n")) < 0 ||
	          json_number_value(json_object_get(v, "mean")) < 0)) {
		snprintf(why, len, "result.latency_us is not a latency object");
		return -EINVAL;
	}
	if (json_object_get(res, "status") && !json_is_string(json_object_get(res, "status"))) {
		snprintf(why, len, "result.status is not a string");
		return -EINVAL;
	}
	return 0;
}

/* 0 when registration @p reg can be shown; else -EINVAL with the reason. */
static int check_registration(const json_t *reg, char *why, size_t len)
{
	static const char *const strings[] = {"state", "host", "reason"};
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
	if (v && !valid_instant(v)) {
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

/* Realtime instants leave as integer microseconds: a real would be cut
 * to whole seconds by a 10-digit precision. */
static json_t *json_us(double s)
{
	return json_integer((json_int_t)llround(s * 1e6));
}

static double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
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

static json_t *ids_in_order(const json_t *regs)
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
		v[i++].at = num(r, "registered_at");
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
static json_t *claim_ids(const json_t *started, const json_t *regs, json_t *malformed)
{
	const json_t *claim = json_object_get(started, "members"), *v;
	json_t *ids;
	size_t i;
	bool noted = false;

	if (!json_is_object(started)) {
		ids = ids_in_order(regs);
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

json_t *ccb_group_aggregate(const json_t *state, const json_t *results)
{
	const json_t *params = json_object_get(state, "params");
	const json_t *started = json_object_get(state, "started");
	const json_t *regs = json_object_get(state, "members");
	json_t *ids, *report = NULL, *members = json_array(), *missing = json_array(), *v;
	json_t *agg_series = json_array();
	struct agg_member *done = NULL;
	double *starts = NULL, *bw = NULL;
	json_t *malformed = json_array();
	size_t n_done = 0, n_starts = 0, n_ids, n_secs, i;
	double w0 = -INFINITY, w1 = INFINITY, planned = num(started, "start_realtime");
	double agg_bytes = 0, lat_weighted = 0, lat_ops = 0;
	bool have_window;

	/* A started group is exactly the members named in its claim; later
	 * registrations were refused. Before the start, whoever registered. */
	if (json_is_object(started) && !valid_instant(json_object_get(started, "start_realtime"))) {
		note_malformed(malformed, NULL,
		               "the start claim: start_realtime is not an instant "
		               "between 1970 and 2100");
		planned = 0;
	}
	ids = claim_ids(started, regs, malformed);
	n_ids = json_array_size(ids);
	done = calloc(n_ids ? n_ids : 1, sizeof(*done));
	starts = calloc(n_ids ? n_ids : 1, sizeof(*starts));
	bw = calloc(n_ids ? n_ids : 1, sizeof(*bw));
	if (!ids || !members || !missing || !malformed || !agg_series || !done || !starts || !bw)
		goto out;

	json_array_foreach(ids, i, v)
	{
		const char *id = json_string_value(v);
		const json_t *reg = json_object_get(regs, id);
		const json_t *doc = json_object_get(results, id);
		const json_t *res = json_object_get(doc, "result");
		const char *reg_state;
		double start;
		char why[160];
		json_t *e;

		e = json_pack("{s:s}", "member", id);
		if (!e)
			goto out;
		json_array_append_new(members, e);
		/* A record that does not hold what ccbench writes is named and left
		 * out, never half-used: one poisoned member cannot stall or blow up
		 * the report (or `group ls`) for everyone. */
		if (check_registration(reg, why, sizeof(why)) < 0 ||
		    (doc && check_result_doc(doc, why, sizeof(why)) < 0)) {
			json_object_set_new(e, "state", json_string("malformed"));
			json_object_set_new(e, "reason", json_string(why));
			note_malformed(malformed, id, why);
			continue;
		}
		reg_state = reg ? str(reg, "state") : "unregistered";
		start = doc ? num(doc, "start_realtime") : num(reg, "start_realtime");
		json_object_set_new(e, "host", json_string(reg ? str(reg, "host") : ""));
		json_object_set_new(e, "pid",
		                    json_integer(json_integer_value(json_object_get(reg, "pid"))));
		if (start > 0) {
			starts[n_starts++] = start;
			json_object_set_new(e, "start_realtime_us", json_us(start));
			if (planned > 0)
				json_object_set_new(e, "start_offset_ms",
				                    json_real((start - planned) * 1000.0));
		}
		if (strcmp(reg_state, "withdrawn") == 0) {
			json_object_set_new(e, "state", json_string("withdrawn"));
			if (json_object_get(reg, "reason"))
				json_object_set(e, "reason", json_object_get(reg, "reason"));
		} else if (json_is_object(res)) {
			json_object_set_new(e, "state", json_string("done"));
			done[n_done].entry = e;
			done[n_done].result = res;
			done[n_done].start = start;
			done[n_done].seconds = num(res, "seconds");
			if (load_series(&done[n_done]) < 0)
				goto out;
			w0 = fmax(w0, start);
			w1 = fmin(w1, start + done[n_done].seconds);
			n_done++;
		} else {
			/* Registered or running, never reported: it died, hangs, or
			 * has not finished yet. Never silently left out. */
			json_object_set_new(e, "state", json_string("missing"));
			json_object_set_new(e, "last_state", json_string(reg_state));
			json_array_append_new(missing, json_string(id));
		}
		if (json_is_object(res)) {
			json_object_set_new(e, "status", json_string(str(res, "status")));
			json_object_set_new(e, "seconds", json_real(num(res, "seconds")));
			json_object_set_new(
			    e, "bytes",
			    json_integer(json_integer_value(json_object_get(res, "bytes"))));
			json_object_set_new(e, "bandwidth_mib_s",
			                    json_real(num(res, "bandwidth_mib_s")));
			json_object_set_new(e, "iops", json_real(num(res, "iops")));
			json_object_set(e, "latency_us", json_object_get(res, "latency_us"));
			json_object_set(e, "result", (json_t *)res);
		}
	}

	have_window = n_done > 0 && w1 > w0;
	for (i = 0; i < n_done; i++) {
		struct agg_member *m = &done[i];
		double b = have_window ? ccb_group_bytes_between(m->bytes, m->n, m->start,
		                                                 m->seconds, w0, w1)
		                       : 0;
		const json_t *lat = json_object_get(m->result, "latency_us");

		bw[i] = have_window ? b / MIB / (w1 - w0) : 0;
		agg_bytes += b;
		lat_weighted += num(lat, "mean") * num(lat, "n");
		lat_ops += num(lat, "n");
		json_object_set_new(m->entry, "window_bytes", json_real(b));
		json_object_set_new(m->entry, "window_bandwidth_mib_s", json_real(bw[i]));
	}
	/* The aggregate per second, second j of the common window (whose
	 * length the checks above bound by the members' samples). A counter,
	 * not t += 1: that stops advancing at large t. */
	n_secs = have_window ? (size_t)ceil(w1 - w0 - 1e-9) : 0;
	for (size_t j = 0; j < n_secs; j++) {
		double t = w0 + (double)j, t1 = fmin(t + 1, w1), sum = 0;
		for (i = 0; i < n_done; i++)
			sum += ccb_group_bytes_between(done[i].bytes, done[i].n, done[i].start,
			                               done[i].seconds, t, t1);
		json_array_append_new(agg_series,
		                      json_pack("{s:I, s:f, s:f, s:f, s:f}", "t",
		                                (json_int_t)json_array_size(agg_series) + 1,
		                                "offset_s", t - w0, "seconds", t1 - t, "bytes", sum,
		                                "bandwidth_mib_s", sum / MIB / (t1 - t)));
	}

	report = json_pack("{s:s, s:i, s:s, s:s, s:O}", "ccbench_version", CCB_VERSION, "schema",
	                   CCB_RESULT_SCHEMA, "kind", "group_report", "group", str(state, "name"),
	                   "params", params ? (json_t *)params : json_null());
	if (!report)
		goto out;
	if (json_is_object(started))
		json_object_set_new(report, "started_by", json_string(str(started, "by")));
	json_object_set_new(report, "members_expected",
	                    json_integer(json_integer_value(json_object_get(params, "members"))));
	json_object_set_new(
	    report, "status",
	    json_string(!json_is_object(started) ? "waiting"
	                : (json_int_t)n_done ==
	                            json_integer_value(json_object_get(params, "members")) &&
	                        json_array_size(missing) == 0 && json_array_size(malformed) == 0
	                    ? "complete"
	                    : "incomplete"));
	if (planned > 0)
		json_object_set_new(report, "planned_start_realtime_us", json_us(planned));
	json_object_set_new(report, "start_skew_ms",
	                    n_starts ? json_real(ccb_group_skew_ms(starts, n_starts))
	                             : json_null());
	json_object_set_new(report, "window",
	                    have_window
	                        ? json_pack("{s:o, s:o, s:f}", "start_realtime_us", json_us(w0),
	                                    "end_realtime_us", json_us(w1), "seconds", w1 - w0)
	                        : json_null());
	json_object_set_new(
	    report, "aggregate",
	    json_pack("{s:I, s:f, s:f, s:f, s:f, s:O}", "members", (json_int_t)n_done, "bytes",
	              agg_bytes, "seconds", have_window ? w1 - w0 : 0.0, "bandwidth_mib_s",
	              have_window ? agg_bytes / MIB / (w1 - w0) : 0.0, "latency_mean_us",
	              lat_ops > 0 ? lat_weighted / lat_ops : 0.0, "series", agg_series));
	json_object_set_new(json_object_get(report, "aggregate"), "jain_index",
	                    n_done ? json_real(ccb_jain_index(bw, n_done)) : json_null());
	json_object_set(report, "members", members);
	json_object_set(report, "missing", missing);
	json_object_set(report, "malformed", malformed);
out:
	for (i = 0; done && i < n_done; i++)
		free(done[i].bytes);
	free(done);
	free(starts);
	free(bw);
	json_decref(ids);
	json_decref(members);
	json_decref(missing);
	json_decref(malformed);
	json_decref(agg_series);
	return report;
}

/* ---- clocks -------------------------------------------------------------- */

static int64_t realtime_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static double realtime_s(void)
{
	return (double)realtime_nsec() / 1e9;
}

static void format_realtime(double t, char *buf, size_t len)
{
	time_t sec = isfinite(t) && t >= 0 && t <= 1e11 ? (time_t)floor(t) : 0;
	struct tm tm;
	char base[32];

	if (!isfinite(t) || t < 0 || t > 1e11 || !gmtime_r(&sec, &tm)) {
		snprintf(buf, len, "?");
		return;
	}
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03dZ", base, (int)((t - floor(t)) * 1000));
}

/* ---- the group object ---------------------------------------------------- */

/* One consistent reading of the group object's omap. */
struct gstate {
	bool exists;
	uint64_t version;
	json_t *raw; /* omap key -> its value as a string, byte for byte (for omap_cmp) */
};

static void gstate_free(struct gstate *st)
{
	json_decref(st->raw);
	st->raw = NULL;
}

static int gstate_read(rados_ioctx_t io, const char *oid, struct gstate *st)
{
	char *after = NULL;
	int r = 0;

	st->exists = false;
	st->raw = json_object();
	if (!st->raw)
		return -ENOMEM;
	/* Pages must come from one version of the object, else start over. */
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		bool first = true, again = false;

		json_object_clear(st->raw);
		free(after);
		after = NULL;
		for (;;) {
			rados_read_op_t op = rados_create_read_op();
			rados_omap_iter_t it;
			unsigned char more = 0;
			int prval = 0;
			char *key, *val;
			size_t key_len, val_len;
			uint64_t ver;

			rados_read_op_omap_get_vals2(op, after ? after : "", "", OMAP_PAGE, &it,
			                             &more, &prval);
			r = rados_read_op_operate(op, io, oid, 0);
			if (r == 0)
				r = prval;
			ver = rados_get_last_version(io);
			while (r == 0 &&
			       rados_omap_get_next2(it, &key, &val, &key_len, &val_len) == 0 &&
			       key) {
				json_t *s = json_stringn(val, val_len);
				/* Values that are not text are not ours: leave them out. */
				if (s)
					json_object_set_new(st->raw, key, s);
				free(after);
				after = strndup(key, key_len);
				if (!after)
					r = -ENOMEM;
			}
			rados_omap_get_end(it);
			rados_release_read_op(op);
			if (r == -ENOENT) {
				free(after);
				json_object_clear(st->raw);
				return 0;
			}
			if (r < 0)
				goto out;
			if (!first && ver != st->version) {
				again = true;
				break;
			}
			st->exists = true;
			st->version = ver;
			first = false;
			if (!more)
				goto out;
		}
		if (!again)
			break;
	}
	r = -EAGAIN;
out:
	free(after);
	return r;
}

/* The parsed value of omap key @p key, or NULL. New reference. */
static json_t *gstate_get(const struct gstate *st, const char *key)
{
	const char *s = json_string_value(json_object_get(st->raw, key));

	return s ? json_loads(s, 0, NULL) : NULL;
}

/* The registrations, parsed: {ID: record}. New reference. */
static json_t *gstate_members(const struct gstate *st)
{
	json_t *m = json_object(), *v;
	const char *key;
	size_t pl = strlen(MEMBER_PREFIX);

	json_object_foreach(st->raw, key, v)
	{
		json_t *rec;
		if (strncmp(key, MEMBER_PREFIX, pl) != 0)
			continue;
		rec = json_loads(json_string_value(v), 0, NULL);
		if (json_is_object(rec))
			json_object_set_new(m, key + pl, rec);
		else
			json_decref(rec);
	}
	return m;
}

static void op_set1(rados_write_op_t op, const char *key, const char *val)
{
	size_t len = strlen(val);

	rados_write_op_omap_set(op, &key, &val, &len, 1);
}

/* Assert that omap key @p key holds exactly what @p st read ("" = absent). */
static void op_cmp_raw(rados_write_op_t op, const struct gstate *st, const char *key)
{
	const json_t *v = json_object_get(st->raw, key);

	rados_write_op_omap_cmp(op, key, LIBRADOS_CMPXATTR_OP_EQ, v ? json_string_value(v) : "",
	                        v ? json_string_length(v) : 0, NULL);
}

static int write_op(rados_ioctx_t io, const char *oid, rados_write_op_t op)
{
	int r = rados_write_op_operate(op, io, oid, NULL, 0);

	rados_release_write_op(op);
	return r;
}

/* Read a whole object (a stored result) into a NUL-terminated buffer. */
static int read_object(rados_ioctx_t io, const char *oid, char **out, size_t *out_len)
{
	uint64_t size;
	time_t mtime;
	char *buf;
	size_t got = 0;
	int r = rados_stat(io, oid, &size, &mtime);

	if (r < 0)
		return r;
	if (size > RESULT_MAX)
		return -EFBIG;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	while (got < size) {
		size_t want = size - got < RESULT_CHUNK ? size - got : RESULT_CHUNK;
		r = rados_read(io, oid, buf + got, want, got);
		if (r < 0) {
			free(buf);
			return r;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*out = buf;
	*out_len = got;
	return 0;
}

/* Write a whole object in chunks the OSDs accept (osd_max_write_size). */
static int write_object(rados_ioctx_t io, const char *oid, const char *buf, size_t len)
{
	size_t first = len < RESULT_CHUNK ? len : RESULT_CHUNK;
	int r = rados_write_full(io, oid, buf, first);

	for (size_t off = first; r == 0 && off < len; off += RESULT_CHUNK)
		r = rados_write(io, oid, buf + off,
		                len - off < RESULT_CHUNK ? len - off : RESULT_CHUNK, off);
	return r;
}

static const char *group_pool(const struct ccb_opts *o)
{
	return o->group_pool ? o->group_pool : o->pool ? o->pool : "rbd";
}

static int group_connect(const struct ccb_opts *o, rados_t *cluster, rados_ioctx_t *io,
                         bool *bad_input)
{
	char err[512];
	int r = ccb_cluster_connect(o, cluster, err, sizeof(err));

	*bad_input = false;
	if (r < 0) {
		fprintf(stderr, "ccbench: group: %s\n", err);
		*bad_input = r == -EINVAL;
		return r;
	}
	r = rados_ioctx_create(*cluster, group_pool(o), io);
	if (r < 0) {
		fprintf(stderr, "ccbench: group: --group-pool '%s': %s\n", group_pool(o),
		        r == -ENOENT ? "no such pool" : strerror(-r));
		*bad_input = r == -ENOENT;
		rados_shutdown(*cluster);
		return r;
	}
	rados_ioctx_set_namespace(*io, CCB_GROUP_NAMESPACE);
	return 0;
}

/* ---- a member ------------------------------------------------------------ */

struct group_ctx {
	const struct ccb_opts *o;
	const struct ccb_point *pt;
	const char *name; /* also the group object's name */
	char member[128];
	char key[160]; /* MEMBER_PREFIX + member */
	char host[64];
	json_t *params; /* this member's */
	json_t *record; /* this member's registration */
	rados_t cluster;
	rados_ioctx_t io;       /* main thread only: state ops */
	rados_ioctx_t watch_io; /* watch, notify and acks (librados threads) */
	uint64_t watch_cookie;
	bool watching;
	rados_completion_t notify_comp, publish_comp;

	/* Written by librados threads in the watch callbacks, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned notifies;
	int watch_err;

	bool registered, started, refused, timed_out;
	uint64_t launch_nsec;                 /* monotonic: --group-timeout counts from here */
	double planned_start, measured_start; /* realtime seconds */
	size_t members_seen;
};

static void gerr(const struct group_ctx *g, const char *call, const char *what, int r)
{
	fprintf(stderr, "ccbench: group %s: %s(%s, pool %s namespace %s): %s\n", g->name, call,
	        what, group_pool(g->o), CCB_GROUP_NAMESPACE, strerror(-r));
}

static void on_notify(void *arg, uint64_t notify_id, uint64_t handle, uint64_t notifier_id,
                      void *data, size_t data_len)
{
	struct group_ctx *g = arg;

	(void)notifier_id;
	(void)data;
	(void)data_len;
	/* librados thread: acknowledge (librados only queues the message), count
	 * and wake the waiter, which reads the group itself. */
	rados_notify_ack(g->watch_io, g->name, notify_id, handle, NULL, 0);
	pthread_mutex_lock(&g->lock);
	g->notifies++;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void on_watch_error(void *arg, uint64_t cookie, int err)
{
	struct group_ctx *g = arg;

	(void)cookie;
	/* Notifies may have been lost: wake the waiter to poll now. */
	pthread_mutex_lock(&g->lock);
	g->watch_err = err;
	g->notifies++;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static char *record_dump(struct group_ctx *g)
{
	return json_dumps(g->record, JSON_COMPACT | JSON_SORT_KEYS);
}

/* Overwrite this member's registration (after the start), never recreating
 * a group that `group rm` removed meanwhile. */
static int record_update(struct group_ctx *g)
{
	char *s = record_dump(g);
	rados_write_op_t op;

	if (!s)
		return -ENOMEM;
	op = rados_create_write_op();
	rados_write_op_assert_exists(op);
	op_set1(op, g->key, s);
	free(s);
	return write_op(g->io, g->name, op);
}

/*
 * Remove this member's registration unless the group started meanwhile.
 * The last member out removes the group object: a group that never started
 * leaves nothing behind.
 *
 * @return 0 withdrawn (or nothing to withdraw), 1 the group has started
 *         (nothing removed), -errno.
 */
static int withdraw_unstarted(struct group_ctx *g)
{
	rados_write_op_t op = rados_create_write_op();
	const char *keys[] = {g->key};
	struct gstate st;
	bool others = false;
	json_t *v;
	const char *k;
	int r;

	rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0, NULL);
	rados_write_op_omap_rm_keys(op, keys, 1);
	r = write_op(g->io, g->name, op);
	if (r == -ECANCELED)
		return 1;
	if (r == -ENOENT) {
		g->registered = false;
		return 0;
	}
	if (r < 0) {
		gerr(g, "rados_write_op_omap_rm_keys", g->key, r);
		return r;
	}
	g->registered = false;
	if (gstate_read(g->io, g->name, &st) < 0 || !st.exists)
		goto out;
	json_object_foreach(st.raw, k, v) others |= strcmp(k, "params") != 0;
	if (!others) {
		/* Only if nobody registered since: the version says so. */
		op = rados_create_write_op();
		rados_write_op_assert_version(op, st.version);
		rados_write_op_remove(op);
		r = write_op(g->io, g->name, op);
		if (r < 0 && r != -ERANGE && r != -EOVERFLOW && r != -ENOENT)
			gerr(g, "rados_write_op_remove", g->name, r);
	}
out:
	gstate_free(&st);
	return 0;
}

static int mark_withdrawn(struct group_ctx *g, const char *reason)
{
	int r;

	json_object_set_new(g->record, "state", json_string("withdrawn"));
	json_object_set_new(g->record, "reason", json_string(reason));
	r = record_update(g);
	if (r < 0 && r != -ENOENT)
		gerr(g, "rados_write_op_omap_set", g->key, r);
	return r;
}

/* Drop this member's registration whatever the group's state. */
static void remove_registration(struct group_ctx *g)
{
	const char *keys[] = {g->key};
	rados_write_op_t op = rados_create_write_op();
	int r;

	rados_write_op_assert_exists(op);
	rados_write_op_omap_rm_keys(op, keys, 1);
	r = write_op(g->io, g->name, op);
	if (r < 0 && r != -ENOENT)
		gerr(g, "rados_write_op_omap_rm_keys", g->key, r);
	g->registered = false;
}

/* @return 1 when the group's start claim names this member, 0 when not, -errno. */
static int started_with_me(struct group_ctx *g)
{
	struct gstate st;
	json_t *started, *v;
	size_t i;
	int r = gstate_read(g->io, g->name, &st);

	if (r < 0) {
		gstate_free(&st);
		return r;
	}
	started = gstate_get(&st, "started");
	r = 0;
	json_array_foreach(json_object_get(started, "members"), i, v) r |=
	    json_is_string(v) && strcmp(json_string_value(v), g->member) == 0;
	json_decref(started);
	gstate_free(&st);
	return r;
}

/* Withdraw however far the member got: before the start its registration
 * goes; once in a started group it stays, marked withdrawn, so the report
 * says why the member has no result. */
static void withdraw(struct group_ctx *g, const char *reason)
{
	if (!g->registered)
		return;
	if (!g->started) {
		if (withdraw_unstarted(g) != 1)
			return;
		/* Started meanwhile: with this member, or complete without it. */
		if (started_with_me(g) != 1) {
			remove_registration(g);
			return;
		}
	}
	mark_withdrawn(g, reason);
	g->registered = false;
}

/* The undo log's entry for the registration (a safety net: the waiting
 * code withdraws explicitly on each of its exits). */
static int undo_registration(void *arg)
{
	struct group_ctx *g = arg;

	if (g->registered && !g->started)
		withdraw(g, "gave up before the start");
	return 0;
}

/* Refusals common to the early check and the registration. */
static int check_joinable(struct group_ctx *g, const struct gstate *st)
{
	json_t *gp = gstate_get(st, "params"), *members;
	char why[256];
	int r = 0;

	if (json_object_get(st->raw, "started")) {
		fprintf(
		    stderr,
		    "ccbench: group %s: already started (a group runs once); choose another "
		    "--group name, or look at it with `ccbench group report %s --group-pool %s` "
		    "and remove it with `ccbench group rm %s --group-pool %s`\n",
		    g->name, g->name, group_pool(g->o), g->name, group_pool(g->o));
		r = -EEXIST;
	} else if (gp && ccb_group_params_check(gp, g->params, why, sizeof(why)) < 0) {
		fprintf(
		    stderr,
		    "ccbench: group %s: parameters conflict with the group's: %s (members must "
		    "agree on command, --members, --duration or --total, and op size); refused\n",
		    g->name, why);
		r = -EINVAL;
	} else if ((members = gstate_members(st)) != NULL) {
		size_t n = json_object_size(members);
		if (!json_object_get(members, g->member) && n >= g->o->members) {
			fprintf(stderr, "ccbench: group %s: already has its %zu members; refused\n",
			        g->name, n);
			r = -EUSERS;
		}
		json_decref(members);
	}
	json_decref(gp);
	return r;
}

/* Register: one guarded op, so the params checked are the group's and the
 * group has not started when the registration lands. */
static int do_register(struct group_ctx *g)
{
	int r = -EAGAIN;

	json_object_set_new(g->record, "registered_at", json_real(realtime_s()));
	for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
		struct gstate st;
		rados_write_op_t op;
		char *rec = record_dump(g), *params = NULL;

		if (!rec)
			return -ENOMEM;
		r = gstate_read(g->io, g->name, &st);
		if (r < 0) {
			gerr(g, "rados_read_op_omap_get_vals2", g->name, r);
			free(rec);
			gstate_free(&st);
			return r;
		}
		op = rados_create_write_op();
		if (!st.exists) {
			/* The first member creates the group with its parameters. */
			params = json_dumps(g->params, JSON_COMPACT | JSON_SORT_KEYS);
			rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE, NULL);
			op_set1(op, "params", params ? params : "{}");
		} else {
			r = check_joinable(g, &st);
			if (r < 0) {
				g->refused = true;
				rados_release_write_op(op);
				free(rec);
				gstate_free(&st);
				return r;
			}
			op_cmp_raw(op, &st, "params");
			rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0,
			                        NULL);
		}
		op_set1(op, g->key, rec);
		r = write_op(g->io, g->name, op);
		free(params);
		free(rec);
		gstate_free(&st);
		if (r == 0) {
			g->registered = true;
			return 0;
		}
		/* Created, changed or removed under us: read again. */
		if (r != -EEXIST && r != -ECANCELED && r != -ENOENT) {
			gerr(g, "rados_write_op_omap_set", g->key, r);
			return r;
		}
	}
	fprintf(stderr, "ccbench: group %s: the group kept changing; could not register\n",
	        g->name);
	return r;
}

/* The start claim is known: join it, or learn that it left this member out. */
static int adopt_start(struct group_ctx *g, const json_t *started)
{
	const json_t *members = json_object_get(started, "members"), *v;
	size_t i;

	json_array_foreach(members, i, v)
	{
		if (json_is_string(v) && strcmp(json_string_value(v), g->member) == 0) {
			double t = num(started, "start_realtime");
			/* A claim lies CCB_GROUP_LEAD ahead of its writer's clock;
			 * one far beyond (or no instant at all) would have this
			 * member sleep for ever: not a start, whoever wrote it. */
			if (!valid_instant(json_object_get(started, "start_realtime")) ||
			    t > realtime_s() + (double)CCB_GROUP_LEAD_NSEC / 1e9 +
			            MAX_CLOCK_SKEW_S) {
				fprintf(
				    stderr,
				    "ccbench: group %s: the start claim's start_realtime is not "
				    "an instant within %.0f s from now; refused\n",
				    g->name, (double)CCB_GROUP_LEAD_NSEC / 1e9 + MAX_CLOCK_SKEW_S);
				mark_withdrawn(g, "the start claim held no plausible instant");
				g->registered = false;
				g->refused = true;
				return 1;
			}
			g->started = true;
			g->planned_start = t;
			return 1;
		}
	}
	fprintf(stderr,
	        "ccbench: group %s: started with its %zu members before this one registered; "
	        "refused\n",
	        g->name, json_array_size(members));
	g->refused = true;
	remove_registration(g);
	return 1;
}

/*
 * Write the start claim when the N first registrations are all there. The
 * op asserts each of those registrations unchanged, so none can have been
 * withdrawn in between.
 *
 * @return 1 claimed (and adopted), 0 not (someone else did, or the group
 *         changed: read it again), -errno.
 */
static int claim_start(struct group_ctx *g, const struct gstate *st, const json_t *regs)
{
	json_t *ids = ids_in_order(regs), *chosen = json_array(), *started = NULL, *v;
	rados_write_op_t op;
	char *s = NULL;
	size_t i;
	int r = -ENOMEM;

	if (!ids || !chosen)
		goto out;
	json_array_foreach(ids, i, v)
	{
		if (i < g->o->members)
			json_array_append(chosen, v);
	}
	started = json_pack("{s:f, s:f, s:s, s:O}", "start_realtime",
	                    (double)(realtime_nsec() + CCB_GROUP_LEAD_NSEC) / 1e9, "claimed_at",
	                    realtime_s(), "by", g->member, "members", chosen);
	s = started ? json_dumps(started, JSON_COMPACT) : NULL;
	if (!s)
		goto out;
	op = rados_create_write_op();
	rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0, NULL);
	json_array_foreach(chosen, i, v)
	{
		char key[192];
		snprintf(key, sizeof(key), MEMBER_PREFIX "%s", json_string_value(v));
		op_cmp_raw(op, st, key);
	}
	op_set1(op, "started", s);
	r = write_op(g->io, g->name, op);
	if (r == -ECANCELED || r == -ENOENT) {
		r = 0;
		goto out;
	}
	if (r < 0) {
		gerr(g, "rados_write_op_omap_set", "started", r);
		goto out;
	}
	/* Wake the others now; a member that misses this polls within the lead. */
	if (rados_aio_create_completion2(NULL, NULL, &g->notify_comp) == 0 &&
	    rados_aio_notify(g->watch_io, g->name, g->notify_comp, s, (int)strlen(s),
	                     NOTIFY_TIMEOUT_MS, NULL, NULL) < 0) {
		rados_aio_release(g->notify_comp);
		g->notify_comp = NULL;
	}
	r = adopt_start(g, started);
out:
	free(s);
	json_decref(started);
	json_decref(chosen);
	json_decref(ids);
	return r;
}

/*
 * Look at the group: adopt a start, or claim it when complete.
 * @return 1 when the start is settled (g->started or g->refused), 0 to
 *         keep waiting, -errno.
 */
static int poll_group(struct group_ctx *g)
{
	struct gstate st;
	json_t *started, *regs;
	int r = gstate_read(g->io, g->name, &st);

	if (r < 0) {
		gerr(g, "rados_read_op_omap_get_vals2", g->name, r);
		gstate_free(&st);
		return r;
	}
	if (!st.exists || !json_object_get(st.raw, g->key)) {
		gstate_free(&st);
		fprintf(stderr,
		        "ccbench: group %s: this member's registration is gone (group rm?); "
		        "giving up\n",
		        g->name);
		g->registered = false;
		return -ENOENT;
	}
	started = gstate_get(&st, "started");
	regs = gstate_members(&st);
	if (started) {
		r = adopt_start(g, started);
	} else if (regs && json_object_size(regs) >= g->o->members) {
		r = claim_start(g, &st, regs);
	} else {
		size_t n = json_object_size(regs);
		if (n != g->members_seen && !g->o->quiet) {
			char t[32];
			ccb_format_duration(g->o->group_timeout_usec, t, sizeof(t));
			fprintf(stderr,
			        "ccbench: group %s: %zu of %llu members, waiting (--group-timeout "
			        "%s)\n",
			        g->name, n, (unsigned long long)g->o->members, t);
		}
		g->members_seen = n;
		r = 0;
	}
	json_decref(started);
	json_decref(regs);
	gstate_free(&st);
	return r;
}

static uint64_t mono_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * --group-timeout counts from the member's launch, its preparation
 * included: that is the wait the user sees, and it bounds the whole
 * command. The group is still looked at once after registering.
 *
 * @return 0 when this member is in the started group, -errno otherwise
 * (message printed, registration withdrawn).
 */
static int wait_for_start(struct group_ctx *g)
{
	uint64_t deadline = g->launch_nsec + g->o->group_timeout_usec * 1000ull, next_poll = 0;
	unsigned seen = 0;

	for (;;) {
		uint64_t now = mono_nsec(), wake;
		bool poke;
		int r;

		if (ccb_signal_pending) {
			withdraw(g, "interrupted before the start");
			fprintf(stderr, "ccbench: group %s: interrupted while waiting; withdrew\n",
			        g->name);
			return -EINTR;
		}
		pthread_mutex_lock(&g->lock);
		poke = g->notifies != seen;
		seen = g->notifies;
		pthread_mutex_unlock(&g->lock);
		if (poke || now >= next_poll) {
			r = poll_group(g);
			if (r == 1)
				return g->refused ? -EPERM : 0;
			if (r == -ENOENT)
				return r;
			next_poll = mono_nsec() + CCB_GROUP_POLL_NSEC;
		}
		if (now >= deadline) {
			char t[32];
			r = withdraw_unstarted(g);
			if (r == 1) {
				/* Claimed at the last moment: it may include us. */
				if (poll_group(g) == 1)
					return g->refused ? -EPERM : 0;
			}
			ccb_format_duration(g->o->group_timeout_usec, t, sizeof(t));
			fprintf(
			    stderr,
			    "ccbench: group %s: timed out: %zu of %llu members registered within "
			    "--group-timeout %s (pool %s namespace %s); gave up%s, no member "
			    "starts alone\n",
			    g->name, g->members_seen, (unsigned long long)g->o->members, t,
			    group_pool(g->o), CCB_GROUP_NAMESPACE,
			    r == 0 ? " and withdrew" : " (its registration could not be removed)");
			g->timed_out = true;
			return -ETIMEDOUT;
		}
		wake = now + WAIT_TICK_NSEC;
		if (next_poll < wake)
			wake = next_poll;
		if (deadline < wake)
			wake = deadline;
		pthread_mutex_lock(&g->lock);
		if (g->notifies == seen && wake > now) {
			struct timespec ts = {(time_t)(wake / 1000000000ull),
			                      (long)(wake % 1000000000ull)};
			pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		}
		pthread_mutex_unlock(&g->lock);
	}
}

static void publish_start(struct group_ctx *g)
{
	rados_write_op_t op;
	char *s;

	json_object_set_new(g->record, "state", json_string("running"));
	json_object_set_new(g->record, "planned_start_realtime", json_real(g->planned_start));
	json_object_set_new(g->record, "start_realtime", json_real(g->measured_start));
	s = record_dump(g);
	if (!s || rados_aio_create_completion2(NULL, NULL, &g->publish_comp) < 0) {
		g->publish_comp = NULL;
		free(s);
		return;
	}
	/* Asynchronous: the clock is running, this must not delay the clients. */
	op = rados_create_write_op();
	rados_write_op_assert_exists(op);
	op_set1(op, g->key, s);
	if (rados_aio_write_op_operate(op, g->io, g->publish_comp, g->name, NULL, 0) < 0) {
		rados_aio_release(g->publish_comp);
		g->publish_comp = NULL;
	}
	rados_release_write_op(op);
	free(s);
}

/* The engine's before_start hook: the common start. */
static int group_barrier(struct ccb_run *run, void *arg)
{
	struct group_ctx *g = arg;
	int r = ccb_undo_push("withdraw from the group", undo_registration, g, NULL);

	if (r < 0)
		return r;
	r = do_register(g);
	if (r < 0)
		return -ECANCELED;
	/* Failing to watch only costs latency: the poll still sees the start. */
	r = rados_watch3(g->watch_io, g->name, &g->watch_cookie, on_notify, on_watch_error,
	                 (uint32_t)((g->o->op_timeout_usec + 999999) / 1000000), g);
	if (r < 0)
		gerr(g, "rados_watch3", g->name, r);
	g->watching = r == 0;
	r = wait_for_start(g);
	if (r < 0)
		return -ECANCELED;

	/* Coarse sleeps while Ctrl-C must be noticed, then one absolute sleep. */
	for (;;) {
		int64_t left = (int64_t)(g->planned_start * 1e9) - realtime_nsec();
		struct timespec ts;

		if (ccb_signal_pending) {
			withdraw(g, "interrupted before the start");
			fprintf(stderr,
			        "ccbench: group %s: interrupted before the start; withdrew\n",
			        g->name);
			return -ECANCELED;
		}
		if (left <= 0)
			break;
		if (left > (int64_t)WAIT_TICK_NSEC) {
			ts.tv_sec = 0;
			ts.tv_nsec = (long)WAIT_TICK_NSEC / 2;
			nanosleep(&ts, NULL);
			continue;
		}
		ts.tv_sec = (time_t)floor(g->planned_start);
		ts.tv_nsec = (long)((g->planned_start - floor(g->planned_start)) * 1e9);
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
	}
	g->measured_start = realtime_s();
	if (g->measured_start - g->planned_start > 0.05)
		ccb_run_warn(run,
		             "group %s: started %.0f ms after the common instant (the start "
		             "reached this member late)",
		             g->name, (g->measured_start - g->planned_start) * 1000.0);
	publish_start(g);
	return 0;
}

/* After the run: store the result, mark the registration, learn the skew. */
static int finish_member(struct group_ctx *g, json_t *res)
{
	char oid[256], *s = NULL;
	json_t *info, *doc = NULL;
	struct gstate st;
	bool interrupted = res && strcmp(str(res, "status"), "interrupted") == 0;
	double end;
	int r;

	if (g->publish_comp) {
		rados_aio_wait_for_complete(g->publish_comp);
		rados_aio_release(g->publish_comp);
		g->publish_comp = NULL;
	}
	if (!res) {
		mark_withdrawn(g, "the run produced no result");
		return -EIO;
	}
	end = g->measured_start + num(res, "seconds");
	info = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "name", g->name, "member", g->member,
	                 "members", (json_int_t)g->o->members, "planned_start_realtime_us",
	                 json_us(g->planned_start), "start_realtime_us", json_us(g->measured_start),
	                 "end_realtime_us", json_us(end));
	json_object_set_new(res, "group", info);
	snprintf(oid, sizeof(oid), "%s.result.%s", g->name, g->member);
	doc = json_pack("{s:s, s:s, s:i, s:f, s:f, s:O}", "member", g->member, "host", g->host,
	                "pid", (int)getpid(), "start_realtime", g->measured_start, "end_realtime",
	                end, "result", res);
	s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	if (!s)
		return -ENOMEM;
	r = write_object(g->io, oid, s, strlen(s));
	free(s);
	if (r < 0) {
		gerr(g, "rados_write_full", oid, r);
		mark_withdrawn(g, "its result could not be stored");
		return r;
	}
	json_object_set_new(g->record, "state", json_string(interrupted ? "withdrawn" : "done"));
	if (interrupted)
		json_object_set_new(g->record, "reason", json_string("interrupted while running"));
	json_object_set_new(g->record, "end_realtime", json_real(end));
	json_object_set_new(g->record, "status", json_string(str(res, "status")));
	json_object_set_new(g->record, "result_object", json_string(oid));
	r = record_update(g);
	if (r == -ENOENT) {
		fprintf(stderr,
		        "ccbench: group %s: removed while this member ran; result not kept\n",
		        g->name);
		rados_remove(g->io, oid);
		return r;
	}
	if (r < 0) {
		gerr(g, "rados_write_op_omap_set", g->key, r);
		return r;
	}
	g->registered = false;

	/* The skew is known once every member has published its start. */
	if (gstate_read(g->io, g->name, &st) == 0 && st.exists) {
		json_t *started = gstate_get(&st, "started"), *regs = gstate_members(&st), *v;
		size_t n = json_array_size(json_object_get(started, "members")), k = 0, i;
		double *starts = calloc(n ? n : 1, sizeof(*starts));

		json_array_foreach(json_object_get(started, "members"), i, v)
		{
			double t = num(
			    json_object_get(regs, json_string_value(v) ? json_string_value(v) : ""),
			    "start_realtime");
			if (starts &&
			    valid_instant(json_object_get(
			        json_object_get(regs,
			                        json_string_value(v) ? json_string_value(v) : ""),
			        "start_realtime")))
				starts[k++] = t;
		}
		if (starts && n && k == n)
			json_object_set_new(info, "start_skew_ms",
			                    json_real(ccb_group_skew_ms(starts, n)));
		free(starts);
		json_decref(started);
		json_decref(regs);
	}
	gstate_free(&st);
	return 0;
}

static void member_id(struct group_ctx *g)
{
	unsigned char rnd[2] = {0, 0};
	char *p;

	gethostname(g->host, sizeof(g->host) - 1);
	if (!g->host[0])
		snprintf(g->host, sizeof(g->host), "host");
	/* The host name goes into object names: keep it to safe characters. */
	for (p = g->host; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", *p))
			*p = '-';
	g->host[40] = '\0';
	/* Containers on different hosts may share host name and pid. */
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		uint64_t x = (uint64_t)realtime_nsec();
		rnd[0] = (unsigned char)x;
		rnd[1] = (unsigned char)(x >> 8);
	}
	snprintf(g->member, sizeof(g->member), "%s.%d.%02x%02x", g->host, (int)getpid(), rnd[0],
	         rnd[1]);
	snprintf(g->key, sizeof(g->key), MEMBER_PREFIX "%s", g->member);
}

int ccb_group_run(const struct ccb_point *pt, json_t **result)
{
	struct group_ctx g;
	struct ccb_point mine = *pt;
	pthread_condattr_t ca;
	struct gstate st;
	json_t *args;
	bool bad_input;
	int r, status;

	*result = NULL;
	memset(&g, 0, sizeof(g));
	g.launch_nsec = mono_nsec();
	g.o = pt->opts;
	g.pt = pt;
	g.name = pt->opts->group;
	member_id(&g);
	g.params = ccb_group_params(g.o, pt->command, pt->cmd_mask);
	/* The registration is readable by every client of the cluster: no key material. */
	args = ccb_redact_argv(pt->argc, pt->argv);
	g.record = json_pack("{s:s, s:s, s:i, s:s, s:O, s:o, s:s}", "member", g.member, "host",
	                     g.host, "pid", (int)getpid(), "command", pt->command, "params",
	                     g.params, "argv", args ? args : json_array(), "state", "registered");
	if (!g.params || !g.record) {
		json_decref(g.params);
		json_decref(g.record);
		return 1;
	}
	pthread_mutex_init(&g.lock, NULL);
	/* The waiter's deadlines are monotonic; so is its condition variable. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g.cond, &ca);
	pthread_condattr_destroy(&ca);

	r = group_connect(g.o, &g.cluster, &g.io, &bad_input);
	if (r < 0) {
		status = bad_input ? 2 : 1;
		goto out_sync;
	}
	r = rados_ioctx_create(g.cluster, group_pool(g.o), &g.watch_io);
	if (r < 0) {
		gerr(&g, "rados_ioctx_create", group_pool(g.o), r);
		status = 1;
		goto out_io;
	}
	rados_ioctx_set_namespace(g.watch_io, CCB_GROUP_NAMESPACE);

	/* Refuse before any work (image prefill, objects) when joining cannot work. */
	r = gstate_read(g.io, g.name, &st);
	if (r < 0) {
		gerr(&g, "rados_read_op_omap_get_vals2", g.name, r);
		gstate_free(&st);
		status = 1;
		goto out_watch_io;
	}
	r = st.exists ? check_joinable(&g, &st) : 0;
	gstate_free(&st);
	if (r < 0) {
		status = 2;
		goto out_watch_io;
	}

	mine.before_start = group_barrier;
	mine.before_start_arg = &g;
	status = ccb_point_run(&mine, result);
	if (g.refused)
		status = 2;
	if (g.started) {
		r = finish_member(&g, *result);
		if (r < 0 && status == 0)
			status = 1;
	}

	if (g.watching) {
		r = rados_unwatch2(g.watch_io, g.watch_cookie);
		if (r < 0 && r != -ENOENT && r != -ENOTCONN)
			gerr(&g, "rados_unwatch2", g.name, r);
	}
	/* No callback may run once the context is gone. */
	rados_watch_flush(g.cluster);
	if (g.notify_comp) {
		rados_aio_wait_for_complete(g.notify_comp);
		rados_aio_release(g.notify_comp);
	}
out_watch_io:
	rados_ioctx_destroy(g.watch_io);
out_io:
	rados_ioctx_destroy(g.io);
	rados_shutdown(g.cluster);
out_sync:
	pthread_cond_destroy(&g.cond);
	pthread_mutex_destroy(&g.lock);
	json_decref(g.params);
	json_decref(g.record);
	return status;
}

/* ---- group report | rm | ls ---------------------------------------------- */

static bool valid_name(const char *s)
{
	size_t l = strlen(s);

	return l >= 1 && l <= 64 &&
	       strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-") == l;
}

/* The state and the results of group @p name, as ccb_group_aggregate() takes them. */
static int gather(rados_ioctx_t io, const char *name, json_t **state_out, json_t **results_out)
{
	struct gstate st;
	json_t *state = NULL, *results = json_object(), *regs, *ids, *params, *started, *v;
	json_t *ignored;
	size_t i;
	int r = gstate_read(io, name, &st);

	if (r < 0 || !st.exists) {
		gstate_free(&st);
		json_decref(results);
		return r < 0 ? r : -ENOENT;
	}
	regs = gstate_members(&st);
	params = gstate_get(&st, "params");
	started = gstate_get(&st, "started");
	state =
	    json_pack("{s:s, s:o, s:o, s:O}", "name", name, "params", params ? params : json_null(),
	              "started", started ? started : json_null(), "members", regs);
	/* The same ids the report takes, checked the same way: a poisoned
	 * claim cannot send us reading a million objects. */
	ignored = json_array();
	ids = claim_ids(started, regs, ignored);
	json_decref(ignored);
	json_array_foreach(ids, i, v)
	{
		char oid[256], *buf = NULL;
		size_t len;
		json_t *doc;

		snprintf(oid, sizeof(oid), "%s.result.%s", name, json_string_value(v));
		r = read_object(io, oid, &buf, &len);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			fprintf(stderr, "ccbench: group %s: rados_read(%s): %s\n", name, oid,
			        strerror(-r));
			continue;
		}
		doc = json_loadb(buf, len, 0, NULL);
		free(buf);
		if (json_is_object(doc))
			json_object_set_new(results, json_string_value(v), doc);
		else {
			fprintf(stderr, "ccbench: group %s: %s: not a ccbench result; ignored\n",
			        name, oid);
			json_decref(doc);
		}
	}
	json_decref(ids);
	json_decref(regs);
	gstate_free(&st);
	*state_out = state;
	*results_out = results;
	return state ? 0 : -ENOMEM;
}

static void text_report(const json_t *rep, FILE *out)
{
	const json_t *params = json_object_get(rep, "params");
	const json_t *agg = json_object_get(rep, "aggregate");
	const json_t *win = json_object_get(rep, "window");
	const json_t *m;
	char when[64], dur[32] = "";
	size_t i;

	if (json_object_get(params, "duration"))
		ccb_format_duration(
		    (uint64_t)json_integer_value(json_object_get(params, "duration")), dur,
		    sizeof(dur));
	fprintf(out, "group %s: %s, %lld members expected%s%s, %s\n", str(rep, "group"),
	        str(params, "command"),
	        (long long)json_integer_value(json_object_get(rep, "members_expected")),
	        dur[0] ? ", duration " : "", dur, str(rep, "status"));
	if (json_object_get(rep, "planned_start_realtime_us")) {
		format_realtime(num(rep, "planned_start_realtime_us") / 1e6, when, sizeof(when));
		fprintf(out, "%-10s %s planned, skew %.1f ms between measured starts\n", "start",
		        when, num(rep, "start_skew_ms"));
	}
	if (json_is_object(win))
		fprintf(out, "%-10s %.2f s in which all %lld reporting members ran\n", "window",
		        num(win, "seconds"),
		        (long long)json_integer_value(json_object_get(agg, "members")));
	else
		fprintf(out, "%-10s none (no member reported, or their runs did not overlap)\n",
		        "window");
	fprintf(out, "\n%-36s %-9s %-11s %10s %12s %9s %9s %9s %9s\n", "member", "state", "status",
	        "MiB/s", "window MiB/s", "iops", "p50 ms", "p99 ms", "start ms");
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *lat = json_object_get(m, "latency_us");
		char st[32];

		snprintf(st, sizeof(st), "%s", str(m, "state"));
		if (!json_object_get(m, "result")) {
			fprintf(out, "%-36s %-9s %-11s %10s %12s %9s %9s %9s", str(m, "member"), st,
			        json_object_get(m, "last_state") ? str(m, "last_state") : "-", "-",
			        "-", "-", "-", "-");
		} else {
			fprintf(out, "%-36s %-9s %-11s %10.2f ", str(m, "member"), st,
			        str(m, "status"), num(m, "bandwidth_mib_s"));
			if (json_object_get(m, "window_bandwidth_mib_s"))
				fprintf(out, "%12.2f", num(m, "window_bandwidth_mib_s"));
			else
				fprintf(out, "%12s", "-");
			fprintf(out, " %9.1f %9.3f %9.3f", num(m, "iops"), num(lat, "p50") / 1e3,
			        num(lat, "p99") / 1e3);
		}
		if (json_object_get(m, "start_offset_ms"))
			fprintf(out, " %+9.1f\n", num(m, "start_offset_ms"));
		else
			fprintf(out, " %9s\n", "-");
	}
	fprintf(out, "%-36s %-9s %-11s %10s %12.2f  (%.1f MiB in %.2f s)\n", "aggregate", "", "",
	        "", num(agg, "bandwidth_mib_s"), num(agg, "bytes") / MIB, num(agg, "seconds"));
	if (json_is_number(json_object_get(agg, "jain_index")))
		fprintf(out,
		        "%-10s Jain's index %.4f over the members' window bandwidth (1 = equal)\n",
		        "fairness", num(agg, "jain_index"));
	json_array_foreach(json_object_get(rep, "malformed"), i, m)
	    fprintf(out, "%-10s %s%s%s: %s; not in the aggregate\n", "MALFORMED",
	            json_object_get(m, "member") ? "member " : "", str(m, "member"),
	            json_object_get(m, "member") ? "" : "group record", str(m, "reason"));
	if (json_array_size(json_object_get(rep, "missing")))
		fprintf(out,
		        "%-10s %zu member(s) registered but never reported a result: not in the "
		        "aggregate\n",
		        "MISSING", json_array_size(json_object_get(rep, "missing")));
}

static void csv_report(const json_t *rep, FILE *out)
{
	const json_t *agg = json_object_get(rep, "aggregate"), *m;
	size_t i;

	fprintf(out, "group,member,host,state,status,start_offset_ms,seconds,bytes,bandwidth_mib_s,"
	             "window_bytes,window_bandwidth_mib_s,iops,latency_us_p50,latency_us_p99,"
	             "latency_us_p99_9\n");
	json_array_foreach(json_object_get(rep, "members"), i, m)
	{
		const json_t *lat = json_object_get(m, "latency_us");
		bool res = json_object_get(m, "result") != NULL;

		fprintf(out, "%s,%s,%s,%s,%s,", str(rep, "group"), str(m, "member"), str(m, "host"),
		        str(m, "state"), str(m, "status"));
		if (json_object_get(m, "start_offset_ms"))
			fprintf(out, "%.3f", num(m, "start_offset_ms"));
		if (res)
			fprintf(out, ",%.3f,%lld,%.3f,%.0f,%.3f,%.3f,%.3f,%.3f,%.3f\n",
			        num(m, "seconds"),
			        (long long)json_integer_value(json_object_get(m, "bytes")),
			        num(m, "bandwidth_mib_s"), num(m, "window_bytes"),
			        num(m, "window_bandwidth_mib_s"), num(m, "iops"), num(lat, "p50"),
			        num(lat, "p99"), num(lat, "p99_9"));
		else
			fprintf(out, ",,,,,,,,,\n");
	}
	fprintf(out, "%s,aggregate,,%s,,,%.3f,,,%.0f,%.3f,,,,\n", str(rep, "group"),
	        str(rep, "status"), num(agg, "seconds"), num(agg, "bytes"),
	        num(agg, "bandwidth_mib_s"));
}

static int svg_report(const json_t *rep, FILE *out)
{
	const json_t *members = json_object_get(rep, "members"), *m;
	const json_t *agg_series = json_object_get(json_object_get(rep, "aggregate"), "series");
	size_t n_lines = 0, i;
	struct ccb_chart_series *lines = calloc(json_array_size(members) + 1, sizeof(*lines));
	char title[160];
	double t0 = INFINITY;
	int r = -ENOMEM;

	if (!lines)
		return r;
	json_array_foreach(members, i, m) if (json_object_get(m, "result") &&
	                                      json_object_get(m, "start_realtime_us")) t0 =
	    fmin(t0, num(m, "start_realtime_us") / 1e6);
	/* Each member's own seconds, placed at its measured start. */
	json_array_foreach(members, i, m)
	{
		const json_t *res = json_object_get(m, "result"), *s;
		const json_t *series = json_object_get(res, "series");
		double start = num(m, "start_realtime_us") / 1e6, secs = num(res, "seconds");
		struct ccb_chart_series *ln = &lines[n_lines];
		size_t j;

		if (!res || !json_object_get(m, "start_realtime_us"))
			continue;
		ln->label = str(m, "member");
		ln->x = calloc(json_array_size(series) + 1, sizeof(double));
		ln->y = calloc(json_array_size(series) + 1, sizeof(double));
		if (!ln->x || !ln->y)
			goto out;
		n_lines++;
		json_array_foreach(series, j, s)
		{
			double b0 = (double)j, b1 = fmin(b0 + 1, secs);
			if (b1 <= b0)
				continue;
			((double *)ln->x)[ln->n] = start - t0 + (b0 + b1) / 2;
			((double *)ln->y)[ln->n++] = num(s, "bytes") / MIB / (b1 - b0);
		}
	}
	if (json_array_size(agg_series)) {
		struct ccb_chart_series *ln = &lines[n_lines];
		double w0 = num(json_object_get(rep, "window"), "start_realtime_us") / 1e6;
		const json_t *s;

		ln->label = "aggregate (all members running)";
		ln->x = calloc(json_array_size(agg_series), sizeof(double));
		ln->y = calloc(json_array_size(agg_series), sizeof(double));
		if (!ln->x || !ln->y)
			goto out;
		n_lines++;
		json_array_foreach(agg_series, i, s)
		{
			((double *)ln->x)[ln->n] =
			    w0 - t0 + num(s, "offset_s") + num(s, "seconds") / 2;
			((double *)ln->y)[ln->n++] = num(s, "bandwidth_mib_s");
		}
	}
	snprintf(title, sizeof(title), "ccbench group %s: %s, bandwidth per second",
	         str(rep, "group"), str(json_object_get(rep, "params"), "command"));
	r = ccb_chart_svg(&(struct ccb_chart){.title = title,
	                                      .x_title = "time since the first member started (s)",
	                                      .y_title = "bandwidth (MiB/s)",
	                                      .series = lines,
	                                      .n_series = n_lines},
	                  out);
out:
	for (i = 0; i <= n_lines && i < json_array_size(members) + 1; i++) {
		free((void *)lines[i].x);
		free((void *)lines[i].y);
	}
	free(lines);
	return r;
}

static int render_csv(const json_t *rep, FILE *f)
{
	csv_report(rep, f);
	return ferror(f) ? -EIO : 0;
}

/* Remove every object of group @p name; @return the count, or -errno. */
static int remove_group(rados_ioctx_t io, const char *name)
{
	rados_list_ctx_t ctx;
	const char *entry;
	json_t *names = json_array(), *v;
	size_t l = strlen(name), i;
	int r, removed = 0, first_err = 0;

	if (!names)
		return -ENOMEM;
	r = rados_nobjects_list_open(io, &ctx);
	if (r < 0) {
		json_decref(names);
		return r;
	}
	/* Results first (NAME.result.*), the group object last: while it is
	 * there the group still shows in `group ls` and can be removed again. */
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0)
		if (strncmp(entry, name, l) == 0 && strncmp(entry + l, ".result.", 8) == 0)
			json_array_append_new(names, json_string(entry));
	rados_nobjects_list_close(ctx);
	if (r != -ENOENT) {
		json_decref(names);
		return r;
	}
	json_array_append_new(names, json_string(name));
	json_array_foreach(names, i, v)
	{
		r = rados_remove(io, json_string_value(v));
		if (r == 0)
			removed++;
		else if (r != -ENOENT) {
			fprintf(stderr, "ccbench: group %s: rados_remove(%s): %s\n", name,
			        json_string_value(v), strerror(-r));
			if (!first_err)
				first_err = r;
		}
	}
	json_decref(names);
	return first_err ? first_err : removed;
}

/* Malformed records on stderr, so a script reading stdout sees them too. */
static void warn_malformed(const char *name, const json_t *rep)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(rep, "malformed"), i, m)
	{
		if (json_object_get(m, "member"))
			fprintf(stderr,
			        "ccbench: group %s: member %s: malformed record (%s); skipped\n",
			        name, str(m, "member"), str(m, "reason"));
		else
			fprintf(stderr, "ccbench: group %s: malformed record: %s\n", name,
			        str(m, "reason"));
	}
}

static int cmd_report(const struct ccb_cli *cli, rados_ioctx_t io, const char *name)
{
	const struct ccb_opts *o = &cli->opts;
	json_t *state = NULL, *results = NULL, *rep;
	int r = gather(io, name, &state, &results), status;

	if (r == -ENOENT) {
		fprintf(stderr, "ccbench: group %s: no such group in pool %s namespace %s\n", name,
		        group_pool(o), CCB_GROUP_NAMESPACE);
		return 2;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: group %s: rados_read_op_omap_get_vals2(%s): %s\n", name,
		        name, strerror(-r));
		return 1;
	}
	rep = ccb_group_aggregate(state, results);
	json_decref(state);
	json_decref(results);
	if (!rep)
		return 1;
	warn_malformed(name, rep);
	status = strcmp(str(rep, "status"), "complete") == 0 ? 0 : 1;
	switch (o->format) {
	case CCB_FMT_JSON:
		r = json_dumpf(rep, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) < 0 ? -EIO
		                                                                          : 0;
		fputc('\n', stdout);
		break;
	case CCB_FMT_CSV:
		csv_report(rep, stdout);
		break;
	default:
		text_report(rep, stdout);
	}
	if (fflush(stdout) != 0 || r < 0) {
		fprintf(stderr, "ccbench: writing the report to stdout: %s\n", strerror(errno));
		status = 1;
	}
	if (o->csv_file && ccb_report_to_file(o->csv_file, "--csv", rep, render_csv) < 0)
		status = 1;
	if (o->svg_file && ccb_report_to_file(o->svg_file, "--svg", rep, svg_report) < 0)
		status = 1;
	if (status == 1 && !strcmp(str(rep, "status"), "incomplete"))
		fprintf(stderr,
		        "ccbench: group %s: incomplete: %lld of %lld members in the aggregate "
		        "(%zu missing, the others withdrawn)\n",
		        name,
		        (long long)json_integer_value(
		            json_object_get(json_object_get(rep, "aggregate"), "members")),
		        (long long)json_integer_value(json_object_get(rep, "members_expected")),
		        json_array_size(json_object_get(rep, "missing")));
	else if (status == 1 && !strcmp(str(rep, "status"), "waiting"))
		fprintf(stderr, "ccbench: group %s: has not started yet\n", name);
	if (o->group_cleanup) {
		r = remove_group(io, name);
		if (r < 0)
			status = 1;
		else if (!o->quiet)
			fprintf(stderr, "ccbench: group %s: removed %d objects (--group-cleanup)\n",
			        name, r);
	}
	json_decref(rep);
	return status;
}

static int cmd_ls(const struct ccb_cli *cli, rados_ioctx_t io)
{
	const struct ccb_opts *o = &cli->opts;
	rados_list_ctx_t ctx;
	const char *entry;
	json_t *names = json_array(), *out = json_array(), *v;
	size_t i;
	int r = rados_nobjects_list_open(io, &ctx);

	if (r < 0 || !names || !out) {
		fprintf(stderr, "ccbench: group ls: rados_nobjects_list_open(pool %s): %s\n",
		        group_pool(o), strerror(r < 0 ? -r : ENOMEM));
		json_decref(names);
		json_decref(out);
		return 1;
	}
	/* Group objects are the names without a dot (group names have none). */
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0)
		if (!strchr(entry, '.'))
			json_array_append_new(names, json_string(entry));
	rados_nobjects_list_close(ctx);
	json_array_foreach(names, i, v)
	{
		json_t *state, *results, *rep;
		if (gather(io, json_string_value(v), &state, &results) < 0)
			continue;
		rep = ccb_group_aggregate(state, results);
		if (rep)
			warn_malformed(json_string_value(v), rep);
		if (rep)
			json_array_append_new(
			    out,
			    json_pack(
			        "{s:s, s:s, s:I, s:I, s:I, s:O}", "name", json_string_value(v),
			        "status", str(rep, "status"), "members_expected",
			        json_integer_value(json_object_get(rep, "members_expected")),
			        "registered",
			        (json_int_t)json_object_size(json_object_get(state, "members")),
			        "reported",
			        json_integer_value(
			            json_object_get(json_object_get(rep, "aggregate"), "members")),
			        "planned_start_realtime_us",
			        json_object_get(rep, "planned_start_realtime_us")
			            ? json_object_get(rep, "planned_start_realtime_us")
			            : json_null()));
		json_decref(rep);
		json_decref(state);
		json_decref(results);
	}
	if (o->format == CCB_FMT_JSON) {
		json_dumpf(out, stdout, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
		fputc('\n', stdout);
	} else {
		if (o->format == CCB_FMT_CSV)
			printf("name,status,members_expected,registered,reported,planned_start\n");
		else if (json_array_size(out))
			printf("%-24s %-11s %8s %10s %8s  %s\n", "group", "status", "members",
			       "registered", "reported", "start");
		else
			printf("no groups in pool %s namespace %s\n", group_pool(o),
			       CCB_GROUP_NAMESPACE);
		json_array_foreach(out, i, v)
		{
			char when[64] = "-";
			if (json_is_number(json_object_get(v, "planned_start_realtime_us")))
				format_realtime(num(v, "planned_start_realtime_us") / 1e6, when,
				                sizeof(when));
			printf(
			    o->format == CCB_FMT_CSV ? "%s,%s,%lld,%lld,%lld,%s\n"
			                             : "%-24s %-11s %8lld %10lld %8lld  %s\n",
			    str(v, "name"), str(v, "status"),
			    (long long)json_integer_value(json_object_get(v, "members_expected")),
			    (long long)json_integer_value(json_object_get(v, "registered")),
			    (long long)json_integer_value(json_object_get(v, "reported")), when);
		}
	}
	json_decref(names);
	json_decref(out);
	return fflush(stdout) == 0 ? 0 : 1;
}

int ccb_group_command(const struct ccb_cli *cli)
{
	const char *name = cli->n_args ? cli->args[0] : NULL;
	rados_t cluster;
	rados_ioctx_t io;
	bool bad_input;
	int r, status;

	if (name && !valid_name(name)) {
		fprintf(stderr, "ccbench: %s '%s': a group name is 1 to 64 of A-Z a-z 0-9 _ -\n",
		        cli->command, name);
		return 2;
	}
	r = group_connect(&cli->opts, &cluster, &io, &bad_input);
	if (r < 0)
		return bad_input ? 2 : 1;
	if (strcmp(cli->command, "group report") == 0) {
		status = cmd_report(cli, io, name);
	} else if (strcmp(cli->command, "group rm") == 0) {
		r = remove_group(io, name);
		if (r == 0) {
			fprintf(stderr,
			        "ccbench: group %s: no such group in pool %s namespace %s\n", name,
			        group_pool(&cli->opts), CCB_GROUP_NAMESPACE);
			status = 2;
		} else if (r < 0) {
			status = 1;
		} else {
			printf("group %s: removed %d objects from pool %s namespace %s\n", name, r,
			       group_pool(&cli->opts), CCB_GROUP_NAMESPACE);
			status = 0;
		}
	} else {
		status = cmd_ls(cli, io);
	}
	rados_ioctx_destroy(io);
	rados_shutdown(cluster);
	return status;
}
