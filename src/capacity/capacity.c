/*
 * `ccbench capacity WORKLOAD ... --slo p99<=10ms`: the probe, the steps of
 * the search (capacity_search.c) and the headroom steps, each one open-loop
 * point (point.c), and the document the views read (capacity_report.c).
 *
 * A step passes when it carried its rate (ccb_cap_carried: none dropped,
 * and the arrivals not completed when it ended at most 1 % of them or what
 * a carried rate leaves in service by Little's law)
 * and its response time met every term of the SLO. A carried rate ends
 * with about rate x service time in flight whatever the step's length,
 * which on a short step at a low rate is more than 1 % (4 slots of a 2 s
 * step at 37 ops/s: 5 %); a rate beyond what the step carries leaves a
 * backlog that grows with the step. It does not ask for open_loop's
 * "held": that also wants <= 1 % of arrivals late by a gap, which any
 * queueing near capacity breaks, and how much waiting is acceptable is
 * exactly what the SLO says.
 */
#include <ccbench/command.h>
#include <ccbench/capacity.h>
#include <ccbench/capacity_report.h>
#include <ccbench/clock.h>
#include <ccbench/cli.h>
#include <ccbench/engine.h>
#include <ccbench/explain.h>
#include <ccbench/html.h>
#include <ccbench/osd_inject.h>
#include <ccbench/path.h>
#include <ccbench/point.h>
#include <ccbench/report.h>
#include <ccbench/slo.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The closed-loop probe: a quarter of a step, 1 to 5 s. */
#define PROBE_MIN_USEC 1000000ull
#define PROBE_MAX_USEC 5000000ull
/* The knee: the last step whose response p99 is within this of the lowest. */
#define KNEE_FACTOR 2.0

struct search {
	const struct ccb_cli *wcli; /* the workload's command line */
	struct ccb_opts base;       /* its options, the steps' starting point */
	struct ccb_slo slo;
	int argc;
	char **argv;
	json_t *steps;
	int status;      /* of the last point run */
	char error[512]; /* where and why the point that failed did */
};

/* Keep the first failed point's place and error (its result's "error"),
 * for the document and explain: a search that ends on a fault says which. */
static void note_failure(struct search *s, int status, const json_t *res, const char *where)
{
	const char *e = json_string_value(json_object_get(res, "error"));

	if (status == 0 || status >= 128 || s->error[0])
		return;
	snprintf(s->error, sizeof(s->error), "%s: %s", where,
	         e     ? e
	         : res ? ccb_report_str(res, "status")
	               : "no result");
}

static void set_given(struct ccb_opts *o, const char *name, bool given)
{
	o->given[ccb_opt_find(name) - ccb_opt_table] = given;
}

/* One point of the workload: at @p rate_ops_s (0: closed loop, @p depth
 * in flight per client, 0: as given) for @p usec. */
static int run_point(struct search *s, double rate_ops_s, uint64_t depth, uint64_t usec,
                     json_t **res)
{
	struct ccb_opts o = s->base;
	char rate[48];
	struct ccb_point pt = {
	    .command = s->wcli->command,
	    .path = s->wcli->path,
	    .ops = s->wcli->ops,
	    .cmd_mask = s->wcli->cmd_mask & ~CCB_CMD_CAPACITY,
	    .mode = s->wcli->mode,
	    .opts = &o,
	    .argc = s->argc,
	    .argv = s->argv,
	    .no_space = true,
	};

	if (rate_ops_s > 0) {
		/* --rate takes at most three decimals and no exponent. */
		snprintf(rate, sizeof(rate), "%.3f", rate_ops_s);
		o.rate = rate;
		set_given(&o, "rate", true);
	}
	if (depth)
		o.queue_depth = depth;
	o.duration_usec = usec;
	set_given(&o, "duration", true);
	return ccb_point_run(&pt, res);
}

static json_t *pcts(const json_t *lat)
{
	json_t *j = json_object();
	static const char *const keys[] = {"n", "min", "mean", "p50", "p90", "p99", "p99_9", "max"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const json_t *v = json_object_get(lat, keys[i]);
		if (json_is_number(v))
			json_object_set_new(j, keys[i], json_real(json_number_value(v)));
	}
	return j;
}

/* The curve's entry of one step: what the views and explain read. */
static json_t *step_json(struct search *s, unsigned index, const char *phase, double rate,
                         int status, const json_t *res, double secs, bool *pass)
{
	const json_t *ol = json_object_get(res, "open_loop");
	const json_t *resp = json_object_get(ol, "response_time_us");
	double arrivals = ccb_report_num(ol, "arrivals_total");
	double done = ccb_report_num(resp, "n");
	/* Not completed by the step's end: still waiting, or in flight then
	 * (the run drains those, and counts them in done). */
	double open = arrivals - done + ccb_report_num(ol, "in_flight_at_end");
	double slots =
	    ccb_report_num(ol, "max_in_flight") * (double)(s->base.clients ? s->base.clients : 1);
	bool carried =
	    ol &&
	    ccb_cap_carried(rate, arrivals, open, ccb_report_num(ol, "dropped"), slots,
	                    ccb_report_num(json_object_get(ol, "service_time_us"), "mean") / 1e6,
	                    s->base.arrivals && strcmp(s->base.arrivals, "poisson") == 0);
	char why[128] = "";
	bool met = ol && ccb_slo_met(&s->slo, resp, NULL, why, sizeof(why));
	/* A run that failed (an op timed out, an error) is no figure, whatever
	 * its open-loop counts say; one that was not held still returns 0. */
	const char *verdict = status >= 128        ? "interrupted"
	                      : status != 0 || !ol ? "failed"
	                      : !carried           ? "not carried"
	                      : !met               ? "over SLO"
	                                           : "meets SLO";
	json_t *j = json_pack(
	    "{s:I, s:s, s:f, s:f, s:f, s:f, s:f, s:I, s:I, s:I, s:I, s:b, s:s, s:b, s:s, s:o, s:o, "
	    "s:o, s:f, s:s, s:f}",
	    "step", (json_int_t)index, "phase", phase, "target_ops_s", rate, "achieved_ops_s",
	    ccb_report_num(ol, "achieved_ops_s"), "offered_ops_s",
	    ccb_report_num(ol, "offered_ops_s"), "arrivals_total", arrivals, "completed", done,
	    "late", (json_int_t)ccb_report_num(ol, "late"), "dropped",
	    (json_int_t)ccb_report_num(ol, "dropped"), "left_at_end",
	    (json_int_t)ccb_report_num(ol, "left_at_end"), "in_flight_at_end",
	    (json_int_t)ccb_report_num(ol, "in_flight_at_end"), "carried", carried,
	    "open_loop_verdict", ccb_report_str(ol, "verdict"), "slo_met", met, "verdict", verdict,
	    "response_time_us", pcts(resp), "service_time_us",
	    pcts(json_object_get(ol, "service_time_us")), "issuer_lag_us",
	    pcts(json_object_get(ol, "issuer_lag_us")), "seconds", secs, "status",
	    res ? ccb_report_str(res, "status") : "failed", "bandwidth_mib_s",
	    ccb_report_num(res, "bandwidth_mib_s"));

	if (!j)
		return NULL;
	if (!met && why[0] && ol)
		json_object_set_new(j, "slo_broken", json_string(why));
	/* What explain reads of a step: its own list, the client's CPU, the
	 * injected latency (each as the point's result has it). */
	static const char *const keep[] = {"explain", "client_cpu", "latency_injection",
	                                   "reason",  "error",      "attribution"};
	for (size_t i = 0; res && i < sizeof(keep) / sizeof(keep[0]); i++)
		if (json_object_get(res, keep[i]))
			json_object_set(j, keep[i], json_object_get(res, keep[i]));
	*pass = status == 0 && carried && met;
	return j;
}

/* Run one step and append it to the curve; returns the point's status. */
static int step(struct search *s, const char *phase, double rate, bool *pass)
{
	uint64_t t0 = ccb_now_nsec();
	json_t *res = NULL, *j;
	unsigned index = (unsigned)json_array_size(s->steps) + 1;
	char where[96];

	if (!s->base.quiet)
		fprintf(stderr, "ccbench: capacity: step %u (%s): %.6g ops/s\n", index, phase,
		        rate);
	s->status = run_point(s, rate, 0, s->base.step_time_usec, &res);
	snprintf(where, sizeof(where), "step %u (%s, %.6g ops/s)", index, phase, rate);
	note_failure(s, s->status, res, where);
	j = step_json(s, index, phase, rate, s->status, res, (double)(ccb_now_nsec() - t0) / 1e9,
	              pass);
	if (j) {
		json_array_append_new(s->steps, j);
		if (!s->base.quiet)
			fprintf(stderr,
			        "ccbench: capacity: step %u: %s (achieved %.6g ops/s, "
			        "response p99 %.3g ms)\n",
			        index, ccb_report_str(j, "verdict"),
			        ccb_report_num(j, "achieved_ops_s"),
			        ccb_report_num(json_object_get(j, "response_time_us"), "p99") /
			            1e3);
	}
	json_decref(res);
	return s->status;
}

/* The knee: the highest achieved rate whose response p99 is still within
 * KNEE_FACTOR of the curve's lowest; past it the wait grows faster than
 * the rate. */
static json_t *knee(const json_t *steps)
{
	const json_t *st, *best = NULL;
	double low = INFINITY;
	size_t i;

	json_array_foreach(steps, i, st)
	{
		double p99 = ccb_report_num(json_object_get(st, "response_time_us"), "p99");
		if (ccb_report_num(st, "completed") > 0 && p99 > 0 && p99 < low)
			low = p99;
	}
	json_array_foreach(steps, i, st)
	{
		double p99 = ccb_report_num(json_object_get(st, "response_time_us"), "p99");
		if (!json_is_true(json_object_get(st, "carried")) || p99 > KNEE_FACTOR * low)
			continue;
		if (!best ||
		    ccb_report_num(st, "achieved_ops_s") > ccb_report_num(best, "achieved_ops_s"))
			best = st;
	}
	if (!best)
		return json_null();
	return json_pack("{s:I, s:f, s:f, s:f, s:s}", "step",
	                 (json_int_t)ccb_report_num(best, "step"), "achieved_ops_s",
	                 ccb_report_num(best, "achieved_ops_s"), "response_p99_us",
	                 ccb_report_num(json_object_get(best, "response_time_us"), "p99"),
	                 "lowest_response_p99_us", low, "rule",
	                 "the highest rate carried whose response p99 is within 2 x the curve's "
	                 "lowest");
}

static json_t *headroom_entry(const json_t *st, double share)
{
	return json_pack("{s:f, s:I, s:f, s:f, s:o, s:o, s:s}", "share_pct", share * 100, "step",
	                 (json_int_t)ccb_report_num(st, "step"), "target_ops_s",
	                 ccb_report_num(st, "target_ops_s"), "achieved_ops_s",
	                 ccb_report_num(st, "achieved_ops_s"), "response_time_us",
	                 json_deep_copy(json_object_get(st, "response_time_us")), "service_time_us",
	                 json_deep_copy(json_object_get(st, "service_time_us")), "verdict",
	                 ccb_report_str(st, "verdict"));
}

/* The OSD-side latency of the whole search, set once before the probe;
 * in a sweep of searches the sweep has set it, once for them all. */
static int inject_once(const struct ccb_opts *o)
{
	char err[1024];
	int r;

	if (!o->osd_latency_usec || ccb_osd_inject_active())
		return 0;
	r = ccb_osd_inject_start(o, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: capacity: %s\n", err);
		return r == -EPERM || r == -EACCES ? 2
		       : ccb_signal_pending        ? 128 + ccb_signal_pending
		                                   : 1;
	}
	return 0;
}

/*
 * The closed loop's curve, short runs at 1, 4, 16, ... in flight per
 * client up to the depth given, the last of which (the probe) starts the
 * search: the closed-loop points the chart draws beside the open-loop
 * steps. Returns the last run's status.
 */
static int probe(struct search *s, json_t *doc, double *ops_s)
{
	uint64_t usec = s->base.step_time_usec / 4;
	uint64_t top = ccb_path_queue_depth(ccb_path_for(s->wcli->ops, &s->base), &s->base);
	json_t *curve = json_array(), *res = NULL, *point;
	char where[64];
	int st = 0;

	usec = usec < PROBE_MIN_USEC   ? PROBE_MIN_USEC
	       : usec > PROBE_MAX_USEC ? PROBE_MAX_USEC
	                               : usec;
	json_object_set_new(doc, "closed_loop", curve);
	for (uint64_t depth = 1;; depth = depth * 4 < top ? depth * 4 : top) {
		bool last = depth >= top;

		if (!s->base.quiet)
			fprintf(
			    stderr, "ccbench: capacity: closed loop, %llu in flight, %.1f s%s\n",
			    (unsigned long long)depth, (double)(last ? usec : PROBE_MIN_USEC) / 1e6,
			    last ? " (the probe)" : "");
		json_decref(res);
		res = NULL;
		st = run_point(s, 0, depth, last ? usec : PROBE_MIN_USEC, &res);
		snprintf(where, sizeof(where), "the closed loop at %llu in flight",
		         (unsigned long long)(depth * s->base.clients));
		note_failure(s, st, res, where);
		point = json_pack("{s:I, s:f, s:o, s:s}", "in_flight",
		                  (json_int_t)(depth * s->base.clients), "ops_s",
		                  ccb_report_num(res, "iops"), "latency_us",
		                  pcts(json_object_get(res, "latency_us")), "status",
		                  res ? ccb_report_str(res, "status") : "failed");
		if (point && json_object_get(res, "error"))
			json_object_set(point, "error", json_object_get(res, "error"));
		json_array_append_new(curve, point);
		if (last || st != 0 || ccb_signal_pending)
			break;
	}
	*ops_s = ccb_report_num(res, "iops");
	json_object_set_new(doc, "probe",
	                    json_pack("{s:f, s:f, s:f, s:I, s:o, s:s}", "ops_s", *ops_s,
	                              "bandwidth_mib_s", ccb_report_num(res, "bandwidth_mib_s"),
	                              "seconds", ccb_report_num(res, "seconds"), "queue_depth",
	                              (json_int_t)top, "latency_us",
	                              pcts(json_object_get(res, "latency_us")), "status",
	                              res ? ccb_report_str(res, "status") : "failed"));
	/* The releases, so that compare refuses a gate across them. */
	if (json_object_get(res, "releases"))
		json_object_set(doc, "releases", json_object_get(res, "releases"));
	if (json_object_get(res, "op_bytes"))
		json_object_set(doc, "op_bytes", json_object_get(res, "op_bytes"));
	json_decref(res);
	return st;
}

/* The steps of the search, then the headroom steps. */
static void search(struct search *s, json_t *doc, double probe_ops_s)
{
	struct ccb_cap_search cs;
	double rate, cap = 0;
	bool pass;
	const json_t *st;
	const char *ended = "";
	size_t i;

	uint64_t min_samples = 0;

	for (unsigned k = 0; k < s->slo.n; k++)
		if (ccb_slo_samples_needed(s->slo.terms[k].q) > min_samples)
			min_samples = ccb_slo_samples_needed(s->slo.terms[k].q);
	ccb_cap_search_init(&cs, probe_ops_s * CCB_CAP_START_SHARE,
	                    (double)s->base.precision_centipct / 1e4, (unsigned)s->base.max_steps);
	while ((rate = ccb_cap_search_next(&cs)) > 0) {
		const char *phase = ccb_cap_phase_name(ccb_cap_search_phase(&cs));

		rate = round(rate * 1000) / 1000; /* as --rate takes it */
		/* Below the rate whose step holds enough samples for the SLO's
		 * percentile, a step's p99 is its slowest op or two: no figure
		 * to search by. */
		if (ccb_cap_search_phase(&cs) == CCB_CAP_DOWN &&
		    rate * (double)s->base.step_time_usec / 1e6 < (double)min_samples) {
			ended =
			    "the next rate down is too low for the SLO's percentile in one step";
			break;
		}

		if (step(s, phase, rate, &pass) != 0) {
			/* A failed step (an error, an abort) is no figure for the
			 * search: it ends, and the curve so far is the result. */
			ended = s->status >= 128 ? "interrupted" : "a step failed";
			break;
		}
		ccb_cap_search_record(&cs, rate, pass);
	}
	if (rate <= 0 && !ended[0])
		ended = cs.lo == 0                                   ? "no rate met the SLO"
		        : cs.hi && cs.hi / cs.lo - 1 <= cs.precision ? "precision reached"
		        : cs.steps >= cs.max_steps                   ? "--max-steps reached"
		                                   : "the highest rate tried passed";
	/* The capacity is the highest step that passed. */
	json_array_foreach(s->steps, i, st)
	{
		if (strcmp(ccb_report_str(st, "verdict"), "meets SLO") == 0 &&
		    ccb_report_num(st, "target_ops_s") > cap)
			cap = ccb_report_num(st, "target_ops_s");
	}
	json_object_set_new(
	    doc, "search",
	    json_pack("{s:I, s:s, s:f, s:f, s:b, s:f, s:f}", "steps", (json_int_t)cs.steps, "ended",
	              ended, "bracket_lo_ops_s", cs.lo, "bracket_hi_ops_s", cs.hi, "out_of_order",
	              cs.out_of_order, "start_ops_s", cs.start, "step_up", CCB_CAP_STEP_UP));
	json_object_set_new(doc, "capacity_ops_s", cap > 0 ? json_real(cap) : json_null());
	if (cap > 0 && s->status == 0) {
		json_t *hr = json_array();
		static const double shares[] = {0.5, 0.7};

		json_object_set_new(doc, "headroom", hr);
		for (size_t k = 0; k < 2 && !ccb_signal_pending; k++) {
			if (step(s, "headroom", round(cap * shares[k] * 1000) / 1000, &pass) >=
			        128 ||
			    s->status == 2)
				break;
			json_array_append_new(
			    hr,
			    headroom_entry(json_array_get(s->steps, json_array_size(s->steps) - 1),
			                   shares[k]));
		}
	}
	json_object_set_new(doc, "knee", knee(s->steps));
}

int ccb_capacity_search_doc(const struct ccb_cli *w, int argc, char **argv, json_t **out)
{
	struct search s = {.argc = argc, .argv = argv, .wcli = w};
	char err[1024];
	uint64_t t0 = ccb_now_nsec();
	int mark = ccb_undo_mark(), st;
	double probe_ops_s = 0;
	json_t *doc;

	*out = NULL;
	s.base = w->opts;
	if (ccb_slo_parse(s.base.slo, &s.slo, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return 2;
	}
	s.steps = json_array();
	snprintf(err, sizeof(err), "capacity %s", w->command);
	doc = json_pack("{s:s, s:s, s:i, s:s, s:s, s:o, s:o, s:f, s:f, s:I, s:I, s:o}",
	                "ccbench_version", CCB_VERSION, "kind", "capacity", "schema", 1, "command",
	                err, "workload", w->command, "parameters",
	                ccb_opts_to_json(&s.base, w->cmd_mask), "slo",
	                ccb_slo_json(&s.slo, s.base.slo), "precision_pct",
	                (double)s.base.precision_centipct / 100, "step_time_s",
	                (double)s.base.step_time_usec / 1e6, "max_in_flight",
	                (json_int_t)ccb_path_queue_depth(ccb_path_for(w->ops, &s.base), &s.base),
	                "clients", (json_int_t)s.base.clients, "steps", json_incref(s.steps));
	if (!doc) {
		json_decref(s.steps);
		return 1;
	}
	/* null until a step meets the SLO: a search interrupted in its probe
	 * says so too. */
	json_object_set_new(doc, "capacity_ops_s", json_null());
	st = inject_once(&s.base);
	if (st == 0) {
		st = probe(&s, doc, &probe_ops_s);
		s.status = st;
		if (st == 0 && !(probe_ops_s > 0)) {
			fprintf(stderr,
			        "ccbench: capacity: the closed-loop probe completed no op\n");
			snprintf(s.error, sizeof(s.error), "the closed-loop probe completed no op");
			st = 1;
		}
	}
	if (st == 0) {
		search(&s, doc, probe_ops_s);
		st = s.status;
	}
	if (ccb_signal_pending && st < 128)
		st = 128 + ccb_signal_pending;
	ccb_undo_unwind_to(mark);
	json_object_set_new(doc, "seconds", json_real((double)(ccb_now_nsec() - t0) / 1e9));
	json_object_set_new(doc, "status",
	                    json_string(st >= 128 ? "interrupted"
	                                : st != 0 ? "failed"
	                                : json_is_number(json_object_get(doc, "capacity_ops_s"))
	                                    ? "ok"
	                                    : "none"));
	if (st >= 128)
		json_object_set_new(
		    doc, "partial",
		    json_string("interrupted: the curve holds the steps run so far"));
	else if (st != 0) {
		json_object_set_new(doc, "partial",
		                    json_string("failed: the curve holds the steps run before"));
		if (s.error[0])
			json_object_set_new(doc, "error", json_string(s.error));
	}
	json_object_set_new(doc, "explain", ccb_explain_capacity(doc));
	json_decref(s.steps);
	*out = doc;
	return st;
}

int ccb_capacity_select(const struct ccb_cli *cli, const char *workload, struct ccb_cli *w,
                        char *err, size_t len)
{
	const struct ccb_command *cmd = ccb_cli_command_find(workload);

	if (!cmd || !cmd->ops || (cmd->ops->flags & CCB_PATH_PHASED)) {
		snprintf(err, len,
		         "capacity: '%s' is not a workload with a stream of ops to pace (rados "
		         "write, rbd randwrite, krbd read, fs write, ...)",
		         workload);
		return -EINVAL;
	}
	*w = *cli;
	if (ccb_cli_select(w, cmd->name, err, len) < 0)
		return -EINVAL;
	w->cmd_mask |= CCB_CMD_CAPACITY;
	w->outer = ccb_capacity_commands;
	w->n_args = 0;
	return 0;
}

int ccb_capacity_command(const struct ccb_cli *cli, int argc, char **argv)
{
	struct ccb_cli w;
	char err[1024], name[64];
	int st, r;
	bool found;
	json_t *doc = NULL;

	/* `capacity rados write` names the workload in two words. */
	snprintf(name, sizeof(name), "%s %s", cli->args[0], cli->args[1]);
	if (ccb_capacity_select(cli, name, &w, err, sizeof(err)) < 0 ||
	    ccb_cli_validate(&w, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return 2;
	}
	st = ccb_capacity_search_doc(&w, argc, argv, &doc);
	if (!doc)
		return st ? st : 1;
	r = ccb_capacity_emit(doc, &cli->opts);
	if (cli->opts.html_file &&
	    ccb_report_to_file(cli->opts.html_file, "--html", doc, ccb_html_render) < 0)
		r = -EIO;
	if (st >= 128 && !cli->opts.quiet)
		fprintf(stderr,
		        "ccbench: capacity interrupted after %zu steps; partial curve saved\n",
		        json_array_size(json_object_get(doc, "steps")));
	found = json_is_number(json_object_get(doc, "capacity_ops_s"));
	json_decref(doc);
	if (st != 0)
		return st;
	return r < 0 || !found ? 1 : 0;
}

/* The capacity search sets each step's rate itself: the open loop's
 * companions are checked as if a rate were given, and the target must
 * parse, before anything connects. */
static int capacity_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	struct ccb_opts with_rate = *o;
	struct ccb_slo slo;

	if (o->rate) {
		snprintf(err, err_len, "--rate: not with capacity, which sets each step's rate");
		return -EINVAL;
	}
	if (o->group) {
		snprintf(err, err_len, "--group: not with capacity (one host searches)");
		return -EINVAL;
	}
	if (!o->slo) {
		snprintf(err, err_len, "--slo: required (e.g. --slo p99<=10ms)");
		return -EINVAL;
	}
	if (ccb_slo_parse(o->slo, &slo, err, err_len) < 0)
		return -EINVAL;
	with_rate.rate = "1";
	return ccb_opts_validate_open_loop(&with_rate, err, err_len);
}

/* A search of a workload that needs no cluster (null) needs none either. */
static bool capacity_needs_cluster(const struct ccb_cli *cli)
{
	const struct ccb_path_ops *ops;
	struct ccb_cli w;
	char name[64], err[256];

	snprintf(name, sizeof(name), "%s %s", cli->args[0], cli->args[1]);
	if (ccb_capacity_select(cli, name, &w, err, sizeof(err)) < 0)
		return true; /* refused later, with the reason */
	ops = ccb_path_for(w.ops, &w.opts);
	return !ops->needs_cluster || ops->needs_cluster(&w.opts);
}

/* The capacity command's row: its words, its run and its own rules. */
const struct ccb_command ccb_capacity_commands[] = {
    {
        .name = "capacity",
        .mask = CCB_CMD_CAPACITY | CCB_CMD_CONN | CCB_CMD_OUTPUT | CCB_CMD_ANY_PATH,
        .mode = CCB_MODE_SEQ,
        .n_args = 2,
        .args_help = "WORKLOAD",
        .args_kind = CCB_ARG_COMMAND,
        .summary = "find the highest open-loop rate a workload carries within a latency SLO",
        .description =
            "Runs WORKLOAD (rados write, rbd randwrite, krbd read, fs write, ... with its own "
            "options) open-loop at a series of rates: a short closed-loop probe gives a start, "
            "the rate steps up geometrically until a step fails, then bisects to --precision; "
            "each step runs until steady or --step-time. A step passes when it carried its "
            "rate (>= 99 % of arrivals completed, none dropped) and its response time (from "
            "each op's intended start) met --slo. Reports the capacity, the curve, the knee "
            "and the latency at 50 % and 70 % of the capacity; --json, --csv and --svg write "
            "the curve and its chart. Ctrl-C keeps the partial curve.",
        .example = "ccbench capacity rados write -p bench -b 4K --slo p99<=10ms --step-time 5s",
        .run = ccb_capacity_command,
        .validate = capacity_validate,
        .needs_cluster = capacity_needs_cluster,
    },
    {0},
};
