/*
 * What set a capacity, and why an open-loop rate was not held: the
 * limiting step (the lowest one above the capacity that failed) read
 * against the curve's lowest step. In order, the first that applies
 * names the limit:
 *   - too few samples for the SLO's percentile (the figure is a guess);
 *   - the client's CPU (explain's client-cpu), so the figure is not the
 *     cluster's capacity (its issuer lag is said beside the limit);
 *   - the OSD scheduler: a mClock limit that binds (explain_sched.c);
 *   - simulated latency (--osd-latency, --sim-osd-latency, or client-side
 *     -o ms_inject_delay_max): M slots of about D each carry M / D;
 *   - the cluster: the service time rose with the rate;
 *   - else the slots: the response time grew from waiting for a slot
 *     while the service time stayed.
 */
#include <ccbench/explain.h>
#include <ccbench/slo.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

/* Issuer lag above this share of the SLO's tightest limit (and 1 ms) is
 * the client's own delay, large enough to set the figure. */
#define LAG_SHARE    0.1
#define LAG_FLOOR_US 1000.0
/* The cluster's service time "rose" by at least this factor. */
#define SERVICE_ROSE 1.5
/* Injected latency (M in flight of D each: at most M / D) sets a limit
 * only near it: the capacity search finds 0.7 to 1.1 of it. A
 * step failing far under it (2 ms x 16: 8000 ops/s, failing at 2622) was
 * held by something else. */
#define SIM_NEAR 0.7

static double p(const json_t *st, const char *which, const char *key)
{
	return num(json_object_get(st, which), key);
}

/* The mean injected latency per op in microseconds, and its source. */
static double injected_us(const json_t *li, const json_t *params, const char **src)
{
	const json_t *v;
	size_t i;

	if (num(li, "osd_us") > 0) {
		*src = "--osd-latency on every OSD";
		return num(li, "osd_us") + num(li, "client_us");
	}
	if (num(li, "client_us") > 0) {
		*src = "--sim-osd-latency on this client";
		return num(li, "client_us");
	}
	/* -o ms_inject_delay_max=S: each message waits a uniform 0 to S. */
	json_array_foreach(json_object_get(params, "set"), i, v)
	{
		const char *s = json_string_value(v);
		if (s && strncmp(s, "ms_inject_delay_max=", 20) == 0) {
			*src = "client-side -o ms_inject_delay_max (a uniform 0 to max: half on "
			       "average)";
			return strtod(s + 20, NULL) * 1e6 / 2;
		}
	}
	return 0;
}

/* An entry of @p list of @p kind at severity warn or distrust, or NULL. */
static const json_t *has_warn(const json_t *list, const char *kind)
{
	const json_t *e;
	size_t i;

	json_array_foreach(list, i, e)
	{
		const char *sev = str_or(e, "severity", "");
		if (strcmp(str_or(e, "kind", ""), kind) == 0 &&
		    (strcmp(sev, "warn") == 0 || strcmp(sev, "distrust") == 0))
			return e;
	}
	return NULL;
}

/*
 * Why step (or run) @p lim fell short; @p low the lowest-rate step for the
 * service time to compare with (may be NULL). @p lat_key names the object
 * holding response/service/lag, @p slots the ops in flight in all.
 */
static void why_limit(json_t *list, const char *kind, const json_t *lim, const json_t *low,
                      const json_t *params, double slots, double slo_us, const char *what)
{
	const json_t *lex = json_object_get(lim, "explain"), *sched, *cpu;
	double lag = p(lim, "issuer_lag_us", "p99");
	double resp = p(lim, "response_time_us", "p99"), svc = p(lim, "service_time_us", "p99");
	double svc_lo = low ? p(low, "service_time_us", "p99") : 0;
	double target = num(lim, "target_ops_s"), ach = num(lim, "achieved_ops_s");
	const char *src = NULL;
	double d_us = injected_us(json_object_get(lim, "latency_injection"), params, &src);
	double lag_max = fmax(LAG_FLOOR_US, slo_us > 0 ? LAG_SHARE * slo_us : 0);

	/* The client's own delay is said first, and the limit after it: a
	 * loaded client host lags while the cluster still sets the figure. */
	if (lag > lag_max)
		ccb_explain_add(
		    list, kind, "distrust",
		    json_pack("{s:f, s:f}", "issuer_lag_p99_us", lag, "target_ops_s", target),
		    "the client lagged at %.4g ops/s: its issuer lag p99 was %.3g ms (ops "
		    "submitted late with a slot free), so %s may be the client's, not the "
		    "cluster's",
		    target, lag / 1e3, what);
	/* A busy client CPU is said as the lag is; it sets the figure itself
	 * unless the step also saw a limit the cluster enforces (a scheduler
	 * limit, an injected delay), which is then said after it: a loaded
	 * client host does not lift that limit. */
	sched = has_warn(lex, "scheduler");
	if ((cpu = has_warn(lex, "client-cpu"))) {
		bool enforced = sched || (d_us > 0 && slots > 0);

		if (enforced)
			ccb_explain_add(list, kind, "distrust",
			                json_pack("{s:f}", "target_ops_s", target),
			                "the client's CPU was busy at %.4g ops/s (%s): %s may be "
			                "lower than the cluster's",
			                target, str_or(cpu, "text", "busy"), what);
		else
			ccb_explain_add(list, kind, "distrust",
			                json_pack("{s:f}", "target_ops_s", target),
			                "the client set %s: its CPU at %.4g ops/s (%s); not the "
			                "cluster's capacity",
			                what, target, str_or(cpu, "text", "busy"));
		if (!enforced)
			return;
	}
	if (sched) {
		ccb_explain_add(
		    list, kind, "warn",
		    json_pack("{s:f, s:f, s:O}", "target_ops_s", target, "achieved_ops_s", ach,
		              "scheduler", json_object_get(sched, "figures")),
		    "the OSD scheduler set %s: %s", what, str_or(sched, "text", "a limit"));
		return;
	}
	if (d_us > 0 && slots > 0 && target < SIM_NEAR * slots / (d_us / 1e6)) {
		/* Far under what the injected delay allows: something else set
		 * it (the cluster's own service time, the slots), said below. */
		double top = slots / (d_us / 1e6);
		ccb_explain_add(list, kind, "info",
		                json_pack("{s:f, s:f, s:f}", "injected_mean_us", d_us, "slots",
		                          slots, "limit_ops_s", top),
		                "simulated latency did not set %s: about %.3g ms per op (%s) with "
		                "%.0f ops in flight allows %.4g ops/s, and %.4g ops/s is under "
		                "%.0f %% of it",
		                what, d_us / 1e3, src, slots, top, target, SIM_NEAR * 100);
	} else if (d_us > 0 && slots > 0) {
		double top = slots / (d_us / 1e6);
		ccb_explain_add(
		    list, kind, "info",
		    json_pack("{s:f, s:f, s:f, s:f}", "injected_mean_us", d_us, "slots", slots,
		              "limit_ops_s", top, "achieved_ops_s", ach),
		    "simulated latency set %s: about %.3g ms per op (%s) with %.0f ops in "
		    "flight carries at most %.0f / %.3g ms = %.4g ops/s; at %.4g ops/s it "
		    "achieved %.4g, response p99 %.3g ms against service p99 %.3g ms",
		    what, d_us / 1e3, src, slots, slots, d_us / 1e3, top, target, ach, resp / 1e3,
		    svc / 1e3);
		return;
	}
	if (svc_lo > 0 && svc >= SERVICE_ROSE * svc_lo) {
		ccb_explain_add(
		    list, kind, "info",
		    json_pack("{s:f, s:f, s:f}", "service_p99_low_us", svc_lo, "service_p99_us",
		              svc, "target_ops_s", target),
		    "the cluster set %s: its service time p99 rose from %.3g ms at %.4g "
		    "ops/s to %.3g ms at %.4g ops/s",
		    what, svc_lo / 1e3, num(low, "achieved_ops_s"), svc / 1e3, target);
		return;
	}
	ccb_explain_add(list, kind, "info",
	                json_pack("{s:f, s:f, s:f}", "response_p99_us", resp, "service_p99_us", svc,
	                          "slots", slots),
	                "the slots set %s: ops waited for one of the %.0f in flight (response p99 "
	                "%.3g ms, service p99 %.3g ms, which did not rise); more in flight "
	                "(--max-in-flight, --clients) may carry more",
	                what, slots, resp / 1e3, svc / 1e3);
}

/* "not carried: achieved 96 of 200 ops/s (52 % short)" or the SLO term broken. */
static void shortfall(const json_t *st, char *buf, size_t len)
{
	double t = num(st, "target_ops_s"), a = num(st, "achieved_ops_s");

	if (json_is_true(json_object_get(st, "carried")))
		snprintf(buf, len, "over the SLO (%s)", str_or(st, "slo_broken", "?"));
	else
		snprintf(buf, len,
		         "not carried: achieved %.4g of %.4g ops/s (%.0f %% short), %.0f "
		         "dropped",
		         a, t, t > 0 ? (1 - a / t) * 100 : 0, num(st, "dropped"));
}

json_t *ccb_explain_capacity(const json_t *doc)
{
	json_t *list = json_array();
	const json_t *steps = json_object_get(doc, "steps"), *st, *cap_st = NULL, *lim = NULL;
	const json_t *low = NULL, *terms = json_object_get(json_object_get(doc, "slo"), "terms");
	double cap = num(doc, "capacity_ops_s"),
	       slots = num(doc, "max_in_flight") * fmax(1, num(doc, "clients"));
	double slo_us = INFINITY;
	const json_t *t;
	size_t i;
	char sf[256];

	if (!list)
		return NULL;
	/* A search that ended on a fault claims nothing past it: say where. */
	if (json_is_string(json_object_get(doc, "error")))
		ccb_explain_add(list, "capacity-failed", "warn", NULL,
		                "the search ended on a failed run, %s; the curve holds the "
		                "steps before it, and no step after it counts",
		                str_or(doc, "error", "?"));
	json_array_foreach(terms, i, t) slo_us = fmin(slo_us, num(t, "limit_us"));
	json_array_foreach(steps, i, st)
	{
		const char *v = str_or(st, "verdict", "");
		double tr = num(st, "target_ops_s");

		if (num(st, "completed") > 0 && (!low || tr < num(low, "target_ops_s")))
			low = st;
		if (strcmp(str_or(st, "phase", ""), "headroom") == 0 ||
		    strcmp(v, "interrupted") == 0)
			continue;
		if (cap > 0 && tr == cap && strcmp(v, "meets SLO") == 0)
			cap_st = st;
		if (strcmp(v, "meets SLO") != 0 && tr > cap &&
		    (!lim || tr < num(lim, "target_ops_s")))
			lim = st;
	}
	if (cap > 0 && lim) {
		shortfall(lim, sf, sizeof(sf));
		ccb_explain_add(
		    list, "capacity", "info",
		    json_pack("{s:f, s:f}", "capacity_ops_s", cap, "next_ops_s",
		              num(lim, "target_ops_s")),
		    "capacity %.4g ops/s: the next step up, %.4g ops/s (+%.1f %%), was %s", cap,
		    num(lim, "target_ops_s"), (num(lim, "target_ops_s") / cap - 1) * 100, sf);
	} else if (cap > 0) {
		ccb_explain_add(
		    list, "capacity", "warn", json_pack("{s:f}", "capacity_ops_s", cap),
		    "capacity %.4g ops/s is the highest rate tried, and it met the SLO: "
		    "the search ended before a rate failed (--max-steps, or interrupted)",
		    cap);
	} else if (lim) {
		shortfall(lim, sf, sizeof(sf));
		ccb_explain_add(list, "capacity", "warn",
		                json_pack("{s:f}", "lowest_ops_s", num(lim, "target_ops_s")),
		                "no rate met the SLO: the lowest tried, %.4g ops/s, was %s",
		                num(lim, "target_ops_s"), sf);
	}
	/* The SLO's percentile against the samples of the step that set it. */
	const json_t *basis = cap_st ? cap_st : lim;
	json_array_foreach(terms, i, t)
	{
		uint64_t need = ccb_slo_samples_needed(num(t, "q"));
		double n = num(basis, "completed");
		if (basis && n < (double)need)
			ccb_explain_add(
			    list, "capacity-samples", "warn",
			    json_pack("{s:f, s:I}", "samples", n, "needed", (json_int_t)need),
			    "too few samples for the SLO's %s: step %.0f completed %.0f ops, "
			    "%llu would put two beyond it; a longer --step-time makes the "
			    "figure firmer",
			    str_or(t, "percentile", "?"), num(basis, "step"), n,
			    (unsigned long long)need);
	}
	if (lim)
		why_limit(list, "capacity-limit", lim, low, json_object_get(doc, "parameters"),
		          slots, slo_us, "the capacity");
	/* The headroom steps run below the capacity: one that failed there
	 * says the curve does not repeat at this step time. */
	json_array_foreach(steps, i, st)
	{
		if (strcmp(str_or(st, "phase", ""), "headroom") != 0 ||
		    strcmp(str_or(st, "verdict", ""), "meets SLO") == 0 ||
		    strcmp(str_or(st, "verdict", ""), "interrupted") == 0)
			continue;
		shortfall(st, sf, sizeof(sf));
		ccb_explain_add(list, "capacity-noise", "warn",
		                json_pack("{s:f}", "target_ops_s", num(st, "target_ops_s")),
		                "at %.0f %% of the capacity (%.4g ops/s) the headroom step was %s: "
		                "the curve does not repeat at this step time, so the capacity is "
		                "not a figure to rely on (a longer --step-time, a quieter client)",
		                cap > 0 ? num(st, "target_ops_s") / cap * 100 : 0,
		                num(st, "target_ops_s"), sf);
		break;
	}
	if (json_is_true(json_object_get(json_object_get(doc, "search"), "out_of_order")))
		ccb_explain_add(
		    list, "capacity-noise", "warn", NULL,
		    "a step failed below one that passed: the curve is noisy at this step "
		    "time (a longer --step-time or --until-steady steadies it)");
	ccb_explain_capacity_osd(steps, list);
	return list;
}

void ccb_explain_open_loop(const json_t *r, json_t *list)
{
	const json_t *ol = json_object_get(r, "open_loop");
	const json_t *params = json_object_get(r, "parameters");
	json_t *st;
	double clients = fmax(1, num(params, "clients"));

	if (!ol || strcmp(str_or(ol, "verdict", ""), "not held") != 0)
		return;
	/* The run read as a step of a curve, with nothing below it. */
	st = json_pack(
	    "{s:f, s:f, s:O, s:O, s:O, s:O, s:O}", "target_ops_s", num(ol, "target_ops_s"),
	    "achieved_ops_s", num(ol, "achieved_ops_s"), "response_time_us",
	    json_object_get(ol, "response_time_us"), "service_time_us",
	    json_object_get(ol, "service_time_us"), "issuer_lag_us",
	    json_object_get(ol, "issuer_lag_us"), "explain",
	    json_is_array(json_object_get(r, "explain")) ? json_object_get(r, "explain") : list,
	    "latency_injection",
	    json_object_get(r, "latency_injection") ? json_object_get(r, "latency_injection")
	                                            : json_null());
	if (!st)
		return;
	ccb_explain_add(
	    list, "open-loop", "warn",
	    json_pack("{s:f, s:f, s:f, s:f, s:f}", "target_ops_s", num(ol, "target_ops_s"),
	              "achieved_ops_s", num(ol, "achieved_ops_s"), "dropped", num(ol, "dropped"),
	              "late", num(ol, "late"), "short_pct",
	              num(ol, "target_ops_s") > 0
	                  ? (1 - num(ol, "achieved_ops_s") / num(ol, "target_ops_s")) * 100
	                  : 0),
	    "rate not held: achieved %.4g of %.4g ops/s (%.0f %% short), %.0f late (%.1f %% of "
	    "%.0f arrivals), %.0f dropped; response p99 %.3g ms against service p99 %.3g ms",
	    num(ol, "achieved_ops_s"), num(ol, "target_ops_s"),
	    /* Poisson arrivals can outrun the target: nothing short then,
	     * the late ones broke the rule. */
	    num(ol, "target_ops_s") > 0
	        ? fmax(0, 1 - num(ol, "achieved_ops_s") / num(ol, "target_ops_s")) * 100
	        : 0,
	    num(ol, "late"),
	    num(ol, "arrivals_total") > 0 ? num(ol, "late") / num(ol, "arrivals_total") * 100 : 0,
	    num(ol, "arrivals_total"), num(ol, "dropped"), p(st, "response_time_us", "p99") / 1e3,
	    p(st, "service_time_us", "p99") / 1e3);
	why_limit(list, "open-loop-limit", st, NULL, params, num(ol, "max_in_flight") * clients, 0,
	          "the rate");
	json_decref(st);
}
