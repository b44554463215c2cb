/*
 * Where the time went, per OSD (kind "osd"): from the result's
 * "attribution" alone (attribution.h, docs/attribution.md), so a saved
 * result says the same. An OSD is named only when its figures stand apart
 * from the other OSDs' by the thresholds in explain.h, each from enough
 * ops; on a healthy, even cluster nothing is named, and a figure from too
 * few ops says so instead.
 */
#include <ccbench/attr_json.h>
#include <ccbench/explain.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

#define KIND "osd"

/* "12.3 ms", "640 µs" */
static void fmt_us(double us, char *buf, size_t len)
{
	if (us >= 1000)
		snprintf(buf, len, "%.1f ms", us / 1000);
	else
		snprintf(buf, len, "%.0f µs", us);
}

static const json_t *counter(const json_t *osd, const char *name)
{
	return json_object_get(json_object_get(json_object_get(osd, "perf"), "counters"), name);
}

/* The OSD's own op latency over its reads, writes and read-modify-writes:
 * mean in µs, ops in *@p n (0: none counted). */
static double own_latency(const json_t *osd, double *n)
{
	static const char *const names[] = {"op_r_latency", "op_w_latency", "op_rw_latency"};
	double sum = 0;

	*n = 0;
	for (size_t i = 0; i < 3; i++) {
		const json_t *c = counter(osd, names[i]);
		double k = num(c, "n");

		sum += num(c, "mean_us") * k;
		*n += k;
	}
	return *n > 0 ? sum / *n : 0;
}

static const json_t *osd_entry(const json_t *att, int id)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(att, "osds"), i,
	                   e) if (json_is_integer(json_object_get(e, "osd")) &&
	                          json_integer_value(json_object_get(e, "osd")) == id) return e;
	return NULL;
}

/* " (its own op latency ...: the time is inside osd.N)", or "" when the
 * OSD's counters were not read. */
static double where_time(const json_t *att, int osd, double mean_us, char *where, size_t len)
{
	char own[32], cm[32];
	double n = 0, own_us = own_latency(osd_entry(att, osd), &n);

	where[0] = '\0';
	if (n <= 0)
		return own_us;
	fmt_us(own_us, own, sizeof(own));
	fmt_us(mean_us, cm, sizeof(cm));
	snprintf(where, len,
	         own_us >= CCB_EXPLAIN_OSD_INSIDE * mean_us
	             ? " (its own op latency %s of the client's %s there: the time is inside "
	               "osd.%d)"
	             : " (its own op latency %s of the client's %s there: the time was spent "
	               "outside osd.%d: network, messengers, this client)",
	         own, cm, osd);
	return own_us;
}

/* One OSD sets the tail: its p99 and mean stand apart from the others'. */
static bool tail(const json_t *att, const struct ccb_attr_sum *s, json_t *list)
{
	char w[32], o[32], where[160];
	double own_us;

	if (s->worst < 0 || s->n_enough < 2 ||
	    s->worst_p99_us < CCB_EXPLAIN_OSD_P99_RATIO * s->others_p99_us ||
	    s->worst_p99_us - s->others_p99_us < CCB_EXPLAIN_OSD_P99_MIN_US ||
	    s->worst_mean_us < CCB_EXPLAIN_OSD_MEAN_RATIO * s->others_mean_us)
		return false;
	own_us = where_time(att, s->worst, s->worst_mean_us, where, sizeof(where));
	fmt_us(s->worst_p99_us, w, sizeof(w));
	fmt_us(s->others_p99_us, o, sizeof(o));
	ccb_explain_add(
	    list, KIND, "warn",
	    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:I, s:f}", "osd", s->worst, "share",
	              s->worst_share, "p99_us", s->worst_p99_us, "others_p99_us", s->others_p99_us,
	              "mean_us", s->worst_mean_us, "others_mean_us", s->others_mean_us, "ops",
	              (json_int_t)s->worst_ops, "own_latency_us", own_us),
	    "osd.%d was the primary for %.0f %% of the ops, and their p99 was %s against "
	    "%s on the others: one OSD sets this run's tail%s",
	    s->worst, s->worst_share * 100, w, o, where);
	return true;
}

/* One OSD slow throughout: its median and mean stand apart from the
 * others', while brief stalls of a shared host raised every OSD's p99. */
static bool throughout(const json_t *att, const struct ccb_attr_sum *s, json_t *list)
{
	char w[32], o[32], wp[32], op[32], where[160];
	double own_us;

	if (s->slow < 0 || s->n_enough < 2 ||
	    s->slow_p50_us < CCB_EXPLAIN_OSD_P50_RATIO * s->slow_others_p50_us ||
	    s->slow_p50_us - s->slow_others_p50_us < CCB_EXPLAIN_OSD_P50_MIN_US ||
	    s->slow_mean_us < CCB_EXPLAIN_OSD_MEAN_RATIO * s->slow_others_mean_us)
		return false;
	own_us = where_time(att, s->slow, s->slow_mean_us, where, sizeof(where));
	fmt_us(s->slow_p50_us, w, sizeof(w));
	fmt_us(s->slow_others_p50_us, o, sizeof(o));
	fmt_us(s->slow_p99_us, wp, sizeof(wp));
	fmt_us(s->slow_others_p99_us, op, sizeof(op));
	ccb_explain_add(
	    list, KIND, "warn",
	    json_pack("{s:i, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:I, s:f}", "osd", s->slow, "share",
	              s->slow_share, "p50_us", s->slow_p50_us, "others_p50_us",
	              s->slow_others_p50_us, "p99_us", s->slow_p99_us, "others_p99_us",
	              s->slow_others_p99_us, "mean_us", s->slow_mean_us, "others_mean_us",
	              s->slow_others_mean_us, "ops", (json_int_t)s->slow_ops, "own_latency_us",
	              own_us),
	    "osd.%d was the primary for %.0f %% of the ops, and their median was %s against "
	    "%s on the others: one OSD is slow throughout%s; the p99s are closer (%s "
	    "against %s): what set the tail met every OSD's ops (this host's stalls, say)",
	    s->slow, s->slow_share * 100, w, o, where, wp, op);
	return true;
}

/* Too few ops to compare: say so rather than name an OSD. */
static void too_few(const struct ccb_attr_sum *s, json_t *list)
{
	char w[32], m[32];

	if (s->high_few >= 0 &&
	    s->high_few_p99_us >= CCB_EXPLAIN_OSD_P99_RATIO * s->median_p99_us &&
	    s->high_few_p99_us - s->median_p99_us >= CCB_EXPLAIN_OSD_P99_MIN_US) {
		fmt_us(s->high_few_p99_us, w, sizeof(w));
		fmt_us(s->median_p99_us, m, sizeof(m));
		ccb_explain_add(
		    list, KIND, "info",
		    json_pack("{s:i, s:I, s:i}", "osd", s->high_few, "ops",
		              (json_int_t)s->high_few_ops, "min_ops", CCB_ATTR_MIN_OPS),
		    "osd.%d's p99 (%s) stands above the median OSD's (%s), but from %llu "
		    "ops: too few to say (at least %d per OSD)",
		    s->high_few, w, m, (unsigned long long)s->high_few_ops, CCB_ATTR_MIN_OPS);
	} else if (s->n_osds >= 2 && s->n_enough < 2) {
		ccb_explain_add(
		    list, KIND, "info",
		    json_pack("{s:I, s:i}", "osds", (json_int_t)s->n_osds, "min_ops",
		              CCB_ATTR_MIN_OPS),
		    "too few ops per OSD to compare their latency (%zu OSDs, %zu with at "
		    "least %d ops)",
		    s->n_osds, s->n_enough, CCB_ATTR_MIN_OPS);
	}
}

/* The OSDs' own op latency against the client's: inside or outside. */
static void inside_outside(const json_t *r, const json_t *att, json_t *list)
{
	const json_t *e;
	size_t i;
	double own = 0, own_n = 0, client = 0, client_n = 0;
	char a[32], b[32];

	json_array_foreach(json_object_get(att, "osds"), i, e)
	{
		double n = 0, l = own_latency(e, &n);
		double ops = num(e, "ops");

		/* Per-op runs weigh each OSD by the client's ops on it. */
		if (json_object_get(att, "client")) {
			if (ops <= 0 || n <= 0)
				continue;
			own += l * ops;
			own_n += ops;
			client += num(json_object_get(e, "latency_us"), "mean") * ops;
			client_n += ops;
		} else if (n > 0) {
			own += l * n;
			own_n += n;
		}
	}
	if (!json_object_get(att, "client")) {
		client = num(json_object_get(r, "latency_us"), "mean");
		client_n = client > 0;
	}
	if (own_n <= 0 || client_n <= 0 || client <= 0)
		return;
	own /= own_n;
	client /= client_n;
	fmt_us(own, a, sizeof(a));
	fmt_us(client, b, sizeof(b));
	if (own < CCB_EXPLAIN_OSD_OUTSIDE * client)
		ccb_explain_add(
		    list, KIND, "info",
		    json_pack("{s:f, s:f}", "own_latency_us", own, "client_mean_us", client),
		    "the OSDs' own op latency was %s of the client's %s mean: the time was "
		    "spent outside the OSDs (network, messengers, this client)",
		    a, b);
	else if (own >= CCB_EXPLAIN_OSD_INSIDE * client)
		ccb_explain_add(
		    list, KIND, "info",
		    json_pack("{s:f, s:f}", "own_latency_us", own, "client_mean_us", client),
		    "the OSDs' own op latency was %s of the client's %s mean: the time is "
		    "inside the OSDs",
		    a, b);
}

/* The op queue's share of the OSDs' time, from their counters. */
static void queue_share(const json_t *r, const json_t *att, json_t *list)
{
	const json_t *e,
	    *sched = json_object_get(json_object_get(json_object_get(r, "cluster_state"), "start"),
	                             "osd_scheduler");
	size_t i;
	double queued = 0, total = 0, n_all = 0;
	char q[32], t[32], held[160] = "";

	json_array_foreach(json_object_get(att, "osds"), i, e)
	{
		double n = 0, l = own_latency(e, &n);
		const json_t *bq = counter(e, "op_before_queue_op_lat");
		const json_t *bd = counter(e, "op_before_dequeue_op_lat");

		if (n <= 0 || !bq || !bd)
			continue;
		queued += (num(bd, "mean_us") - num(bq, "mean_us")) * n;
		total += l * n;
		n_all += n;
	}
	if (n_all <= 0 || total <= 0 || queued < CCB_EXPLAIN_OSD_STAGE_SHARE * total ||
	    queued / n_all < CCB_EXPLAIN_OSD_QUEUE_MIN_US)
		return;
	fmt_us(queued / n_all, q, sizeof(q));
	fmt_us(total / n_all, t, sizeof(t));
	if (str(sched, "osd_op_queue"))
		snprintf(held, sizeof(held), ": the scheduler (%s%s%s) held them",
		         str(sched, "osd_op_queue"),
		         str(json_object_get(sched, "mclock"), "profile") ? ", profile " : "",
		         str_or(json_object_get(sched, "mclock"), "profile", ""));
	ccb_explain_add(
	    list, KIND, "info",
	    json_pack("{s:f, s:f}", "queued_us", queued / n_all, "op_latency_us", total / n_all),
	    "ops waited in the OSDs' queue for %.0f %% of their time (%s of %s)%s",
	    queued / total * 100, q, t, held);
}

static int cmp_d(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

/* One replica's own writes (subop_w_latency) far above the others'. */
static bool replica_counters(const json_t *att, json_t *list)
{
	const json_t *e;
	size_t i, n = 0, k = 0;
	double worst = -1, *others;
	int worst_osd = -1;
	char w[32], o[32];

	others = calloc(json_array_size(json_object_get(att, "osds")) + 1, sizeof(*others));
	if (!others)
		return false;
	json_array_foreach(json_object_get(att, "osds"), i, e)
	{
		const json_t *c = counter(e, "subop_w_latency");

		if (num(c, "n") < CCB_EXPLAIN_OSD_MIN_SUBOPS)
			continue;
		n++;
		if (num(c, "mean_us") > worst) {
			if (worst >= 0)
				others[k++] = worst;
			worst = num(c, "mean_us");
			worst_osd = (int)json_integer_value(json_object_get(e, "osd"));
		} else {
			others[k++] = num(c, "mean_us");
		}
	}
	qsort(others, k, sizeof(*others), cmp_d);
	if (n < 2 || worst < CCB_EXPLAIN_OSD_REPLICA_MIN_US ||
	    worst < CCB_EXPLAIN_OSD_REPLICA_RATIO * others[k / 2]) {
		free(others);
		return false;
	}
	fmt_us(worst, w, sizeof(w));
	fmt_us(others[k / 2], o, sizeof(o));
	ccb_explain_add(list, KIND, "warn",
	                json_pack("{s:i, s:f, s:f}", "osd", worst_osd, "subop_w_us", worst,
	                          "others_subop_w_us", others[k / 2]),
	                "writes waited for a replica: osd.%d's own replica writes took %s on "
	                "average against %s on the other replicas (subop_w_latency)",
	                worst_osd, w, o);
	free(others);
	return true;
}

/* The run's slowest ops, as the OSDs kept them: the stage that held them. */
static void slow_ops(const json_t *att, bool named_replica, json_t *list)
{
	static const char *const stages[] = {"received", "queued", "in_pg",
	                                     "replicas", "commit", "reply"};
	static const char *const words[] = {
	    "being received and throttled", "queued for their PG", "in their PG",
	    "waiting for replicas",         "committing",          "being replied to"};
	const json_t *so = json_object_get(att, "slow_ops"),
	             *share = json_object_get(so, "stage_share");
	const json_t *last = json_object_get(so, "last_replica"), *v;
	double prim = num(so, "primary_ops"), best = 0, named = 0, top = 0;
	const char *key, *top_osd = NULL;
	size_t b = 0;

	if (!so)
		return;
	if (prim < CCB_EXPLAIN_OSD_MIN_SLOW_OPS) {
		ccb_explain_add(
		    list, KIND, "info", json_pack("{s:f}", "found", num(so, "found")),
		    "%s of this run's ops among the OSDs' slowest kept (an OSD keeps its "
		    "osd_op_history_size, 20, slowest of the last 10 minutes): too few for "
		    "their stages; the OSDs' counters above stand",
		    prim > 0 ? "only a few" : "none");
		return;
	}
	for (size_t i = 0; i < 6; i++)
		if (num(share, stages[i]) > best)
			best = num(share, stages[i]), b = i;
	if (best < CCB_EXPLAIN_OSD_STAGE_SHARE)
		return;
	json_object_foreach((json_t *)last, key, v)
	{
		named += json_number_value(v);
		if (json_number_value(v) > top)
			top = json_number_value(v), top_osd = key;
	}
	if (b == 3 && top_osd && named >= CCB_EXPLAIN_OSD_MIN_SLOW_OPS &&
	    top >= CCB_EXPLAIN_OSD_LAST_SHARE * named)
		ccb_explain_add(
		    list, KIND, named_replica ? "info" : "warn",
		    json_pack("{s:f, s:s, s:f, s:f}", "replicas_share", best, "last_replica",
		              top_osd, "last", top, "named", named),
		    "the slowest ops waited %.0f %% of their time for a replica on %s (the "
		    "last to answer in %.0f of %.0f)",
		    best * 100, top_osd, top, named);
	else
		ccb_explain_add(
		    list, KIND, "info",
		    json_pack("{s:s, s:f, s:f}", "stage", stages[b], "share", best, "primary_ops",
		              prim),
		    "the slowest ops of this run on the OSDs (%.0f) spent %.0f %% of their "
		    "time %s",
		    prim, best * 100, words[b]);
}

/* Reads from replicas: attribution by primary does not see them. */
static void replica_reads(const json_t *r, const json_t *att, json_t *list)
{
	const char *policy = str(json_object_get(json_object_get(r, "layout"), "librbd"),
	                         "rbd_read_from_replica_policy");
	const json_t *e;
	size_t i;
	double served = 0, as_replica = 0;

	if (!policy || strcmp(policy, "default") == 0 || !json_object_get(att, "client"))
		return;
	json_array_foreach(json_object_get(att, "osds"), i, e)
	{
		double op_r = num(json_object_get(e, "perf"), "op_r"), ops = num(e, "ops");

		served += op_r;
		if (op_r > ops)
			as_replica += op_r - ops;
	}
	ccb_explain_add(list, KIND, "info",
	                json_pack("{s:s, s:f, s:f}", "policy", policy, "reads_served", served,
	                          "served_as_replica", as_replica),
	                "rbd_read_from_replica_policy=%s: reads go to replicas too; the per-OSD "
	                "figures count each op on its PG's primary, while the OSDs' own counters "
	                "show %.0f of %.0f reads served beyond their primary ops",
	                policy, as_replica, served);
}

/* librbd's cache acknowledged writes before the OSDs had them. */
static void cached_writes(const json_t *r, const json_t *att, json_t *list)
{
	const json_t *lib = json_object_get(json_object_get(r, "layout"), "librbd");
	const char *policy = str(lib, "rbd_cache_policy"), *mode = str_or(r, "mode", "");

	if (!json_object_get(att, "client") || !json_is_true(json_object_get(lib, "rbd_cache")) ||
	    !policy || strcmp(policy, "writethrough") == 0 ||
	    (strcmp(mode, "write") != 0 && strcmp(mode, "randwrite") != 0 &&
	     strcmp(mode, "rw") != 0))
		return;
	ccb_explain_add(list, KIND, "info", json_pack("{s:s}", "rbd_cache_policy", policy),
	                "librbd's cache (rbd_cache_policy=%s) acknowledged writes before the OSDs "
	                "had them: the per-OSD latency of writes is partly the cache's; the OSDs' "
	                "own counters stand (--no-cache measures the OSDs)",
	                policy);
}

/* What could not be read, the OSDs that did not answer, PGs that moved. */
static void gaps(const json_t *att, json_t *list)
{
	const json_t *u, *pm = json_object_get(att, "pg_map");
	size_t i;

	json_array_foreach(json_object_get(att, "not_answering"), i, u) ccb_explain_add(
	    list, KIND, "warn", json_deep_copy(u),
	    "%s did not answer (%s, %s the run, after %.1f s): left out", str_or(u, "osd", "?"),
	    str_or(u, "error", "?"), str_or(u, "when", "?"), num(u, "seconds"));
	json_array_foreach(json_object_get(att, "unavailable"), i, u)
	{
		char cap[160] = "", instead[160] = "";

		if (str(u, "cap"))
			snprintf(cap, sizeof(cap), "; the cap %s gives it", str(u, "cap"));
		if (str(u, "instead"))
			snprintf(instead, sizeof(instead), "; read instead from %s",
			         str(u, "instead"));
		ccb_explain_add(list, KIND, "info", json_deep_copy(u), "not available: %s (%s)%s%s",
		                str_or(u, "what", "?"), str_or(u, "why", "?"), cap, instead);
	}
	if (num(pm, "moved") > 0)
		ccb_explain_add(
		    list, KIND, "warn", json_pack("{s:f}", "moved", num(pm, "moved")),
		    "%.0f PGs moved during the run (acting set or primary changed): their "
		    "ops count on the primary they had at the start",
		    num(pm, "moved"));
	json_array_foreach(json_object_get(att, "notes"), i, u)
	    ccb_explain_add(list, KIND, "info", NULL, "per OSD: %s", string_or(u, "?"));
}

void ccb_explain_osd(const json_t *r, json_t *list)
{
	const json_t *att = json_object_get(r, "attribution"), *cl;
	struct ccb_attr_sum s;
	bool named;

	if (!json_is_object(att))
		return;
	gaps(att, list);
	cl = json_object_get(att, "client");
	if (ccb_attr_summarize(att, &s) && !tail(att, &s, list) && !throughout(att, &s, list))
		too_few(&s, list);
	if (num(cl, "ops") > 0 && num(cl, "spanning_ops") >= 0.5 * num(cl, "ops"))
		ccb_explain_add(
		    list, KIND, "info", NULL,
		    "%.0f %% of the ops spanned several objects (striping): each counts on "
		    "its first object's primary",
		    num(cl, "spanning_ops") / num(cl, "ops") * 100);
	inside_outside(r, att, list);
	queue_share(r, att, list);
	named = replica_counters(att, list);
	slow_ops(att, named, list);
	replica_reads(r, att, list);
	cached_writes(r, att, list);
}

/* The mean latency (µs) of the ops of each OSD in a step, with enough ops. */
struct osd_mean {
	int osd;
	double mean_us;
};

static size_t step_means(const json_t *st, struct osd_mean *m, size_t max)
{
	const json_t *e;
	size_t i, n = 0;

	json_array_foreach(json_object_get(json_object_get(st, "attribution"), "osds"), i, e)
	{
		if (n == max || !json_is_integer(json_object_get(e, "osd")) ||
		    num(e, "ops") < CCB_EXPLAIN_OSD_MIN_STEP_OPS)
			continue;
		m[n].osd = (int)json_integer_value(json_object_get(e, "osd"));
		m[n++].mean_us = num(json_object_get(e, "latency_us"), "mean");
	}
	return n;
}

static double median_mean(const struct osd_mean *m, size_t n, double *scratch)
{
	for (size_t i = 0; i < n; i++)
		scratch[i] = m[i].mean_us;
	qsort(scratch, n, sizeof(*scratch), cmp_d);
	return n ? (n % 2 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2) : 0;
}

#define STEP_OSDS 1024

void ccb_explain_capacity_osd(const json_t *steps, json_t *list)
{
	const json_t *st, *low = NULL;
	struct osd_mean *m = calloc(STEP_OSDS, sizeof(*m));
	double *scratch = calloc(STEP_OSDS, sizeof(*scratch)), base, best_rate = INFINITY;
	double best_mean = 0, best_med = 0;
	int best = -1;
	size_t i, n;
	char a[32], b[32], c[32];

	if (!m || !scratch)
		goto out;
	/* The lowest rate that has per-OSD figures: where every OSD started. */
	json_array_foreach(steps, i, st) if (step_means(st, m, STEP_OSDS) >= 2 &&
	                                     (!low || num(st, "target_ops_s") <
	                                                  num(low, "target_ops_s"))) low = st;
	if (!low)
		goto out;
	n = step_means(low, m, STEP_OSDS);
	base = median_mean(m, n, scratch);
	json_array_foreach(steps, i, st)
	{
		double rate = num(st, "target_ops_s"), med;

		n = step_means(st, m, STEP_OSDS);
		if (n < 2 || rate > best_rate)
			continue;
		med = median_mean(m, n, scratch);
		for (size_t k = 0; k < n; k++) {
			double v = m[k].mean_us;

			if (v < CCB_EXPLAIN_OSD_RISE * base || v < CCB_EXPLAIN_OSD_RISE * med ||
			    v - base < CCB_EXPLAIN_OSD_P99_MIN_US)
				continue;
			if (rate < best_rate || v > best_mean) {
				best_rate = rate;
				best = m[k].osd;
				best_mean = v;
				best_med = med;
			}
		}
	}
	if (best < 0)
		goto out;
	fmt_us(best_mean, a, sizeof(a));
	fmt_us(best_med, b, sizeof(b));
	fmt_us(base, c, sizeof(c));
	ccb_explain_add(list, KIND, "warn",
	                json_pack("{s:i, s:f, s:f, s:f, s:f}", "osd", best, "target_ops_s",
	                          best_rate, "mean_us", best_mean, "median_osd_mean_us", best_med,
	                          "lowest_rate_median_us", base),
	                "as the rate went up, osd.%d's latency rose first: at %.4g ops/s its ops' "
	                "mean was %s against %s on the median OSD (%s at the lowest rate)",
	                best, best_rate, a, b, c);
out:
	free(m);
	free(scratch);
}
