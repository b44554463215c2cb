/*
 * Open-loop load: the schedule of intended start times, the bounded
 * backlog and the counters of one client (see openloop.h for the two
 * cursors), and the run's summary for the result.
 *
 * Why two latencies: a closed loop submits only when a slot frees, so a
 * slow cluster slows its own arrivals and the waits that users would see
 * are never measured (coordinated omission). Here an op's response time
 * starts at its intended time, whether or not a slot was free then; its
 * service time starts at its submission, as the closed loop's does.
 */
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include "openloop.h"
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The verdict's rule, in the result beside the verdict. */
#define HELD_ACHIEVED_SHARE 0.99
#define HELD_LATE_SHARE     0.01
#define HELD_RULE                                                                                  \
	"held when the ops completed are >= 99 % of arrivals_total (achieved_ops_s >= 99 % of "    \
	"offered_ops_s), none dropped, and late + left_at_end <= 1 % of arrivals_total (late: "    \
	"submitted more than one mean gap after its intended start)"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* The gap after the cursor's arrival; uniform gaps are recomputed from
 * the index, so that no rounding adds up over a long run. */
static void step(const struct ccb_openloop *ol, struct ccb_ol_cursor *c)
{
	c->idx++;
	if (ol->arrivals == CCB_ARRIVALS_UNIFORM) {
		c->t_nsec = ol->phase_nsec + (double)c->idx * ol->period_nsec;
	} else {
		/* U in (0, 1]: -log(U) is finite, exponential of mean 1. */
		double u = (double)((splitmix64(&c->rng) >> 11) + 1) * 0x1.0p-53;

		c->t_nsec += -log(u) * ol->period_nsec;
	}
}

static uint64_t abs_nsec(const struct ccb_openloop *ol, const struct ccb_ol_cursor *c)
{
	return ol->start_nsec + (uint64_t)llround(c->t_nsec);
}

void ccb_openloop_init(struct ccb_openloop *ol, enum ccb_arrivals arrivals, double rate_ops_s,
                       uint64_t seed, double phase, uint64_t start_nsec, uint64_t backlog_max,
                       uint64_t backlog_nsec)
{
	memset(ol, 0, sizeof(*ol));
	ol->arrivals = arrivals;
	ol->period_nsec = 1e9 / rate_ops_s;
	ol->seed = seed;
	ol->start_nsec = start_nsec;
	ol->backlog_max = backlog_max;
	ol->backlog_nsec = backlog_nsec;
	ol->free_since_nsec = 0;
	ol->arr.rng = seed;
	if (arrivals == CCB_ARRIVALS_UNIFORM) {
		ol->phase_nsec = phase * ol->period_nsec;
		ol->arr.t_nsec = ol->phase_nsec;
	} else {
		/* The first arrival is one gap in, as every later one is. */
		ol->arr.idx = (uint64_t)-1;
		ol->arr.t_nsec = 0;
		step(ol, &ol->arr);
	}
	ol->next = ol->arr;
	ccb_hist_init(&ol->response);
	ccb_hist_init(&ol->lag);
}

/* Count the arrivals whose time came by @p now (inclusive). */
static void advance(struct ccb_openloop *ol, uint64_t now, bool inclusive)
{
	while (inclusive ? abs_nsec(ol, &ol->arr) <= now : abs_nsec(ol, &ol->arr) < now) {
		step(ol, &ol->arr);
		ol->arrivals_total++;
	}
}

/* Past the bound, the oldest waiting arrival goes: what is left waits
 * least, and the wait of what is issued stays within the bound. */
static void drop_past_bound(struct ccb_openloop *ol, uint64_t now)
{
	while (ol->next.idx < ol->arr.idx &&
	       (ol->backlog_max ? ol->arr.idx - ol->next.idx > ol->backlog_max
	                        : now - abs_nsec(ol, &ol->next) > ol->backlog_nsec)) {
		step(ol, &ol->next);
		ol->dropped++;
	}
}

bool ccb_openloop_take(struct ccb_openloop *ol, uint64_t now, bool fills_last,
                       uint64_t *intended_nsec)
{
	uint64_t t;

	advance(ol, now, true);
	drop_past_bound(ol, now);
	if (ol->next.idx >= ol->arr.idx)
		return false;
	t = abs_nsec(ol, &ol->next);
	step(ol, &ol->next);
	ol->issued++;
	if ((double)(now - t) > ol->period_nsec)
		ol->late++;
	/* A slot was free at the intended time: the delay is the issuer's own. */
	if (t >= ol->free_since_nsec)
		ccb_hist_record(&ol->lag, now - t);
	if (fills_last)
		ol->free_since_nsec = UINT64_MAX;
	*intended_nsec = t;
	return true;
}

void ccb_openloop_done(struct ccb_openloop *ol, uint64_t intended_nsec, uint64_t end_nsec,
                       bool was_full)
{
	/* Issued before the end and still in flight at it: the run drains
	 * them, and a rate over the capacity leaves more of them (capacity). */
	if (ol->due_nsec && end_nsec > ol->due_nsec)
		ol->done_after_due++;
	ccb_hist_record(&ol->response, end_nsec - intended_nsec);
	if (was_full)
		ol->free_since_nsec = end_nsec;
}

uint64_t ccb_openloop_wake(const struct ccb_openloop *ol, uint64_t until_nsec)
{
	uint64_t t = abs_nsec(ol, &ol->arr);

	return t < until_nsec ? t : until_nsec;
}

void ccb_openloop_finish(struct ccb_openloop *ol, uint64_t end_nsec)
{
	advance(ol, end_nsec, false);
	ol->end_nsec = end_nsec;
	ol->left = ol->arr.idx - ol->next.idx;
}

int ccb_arrivals_parse(const char *word, enum ccb_arrivals *out)
{
	if (word && strcmp(word, "uniform") == 0)
		*out = CCB_ARRIVALS_UNIFORM;
	else if (word && strcmp(word, "poisson") == 0)
		*out = CCB_ARRIVALS_POISSON;
	else
		return -EINVAL;
	return 0;
}

int ccb_openloop_setup(struct ccb_run *run, char *err, size_t err_len)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_openloop_run *olr;
	double ops_s = 0, per_client;
	uint64_t bytes_s = 0, count = 0, usec = 0;

	if (!o->rate)
		return 0;
	if (ccb_parse_rate(o->rate, &ops_s, &bytes_s) < 0 ||
	    ccb_parse_count_or_duration(o->max_backlog, &count, &usec) < 0 || (!count && !usec)) {
		snprintf(err, err_len, "--rate '%s' --max-backlog '%s': not valid", o->rate,
		         o->max_backlog ? o->max_backlog : "");
		return -EINVAL;
	}
	if (bytes_s) {
		if (!run->op_bytes) {
			snprintf(err, err_len,
			         "--rate '%s': bytes per second, but %s has no op size", o->rate,
			         run->command);
			return -EINVAL;
		}
		ops_s = (double)bytes_s / (double)run->op_bytes;
	}
	olr = calloc(1, sizeof(*olr));
	if (!olr)
		return -ENOMEM;
	run->openloop = olr;
	olr->members = o->group && o->members ? (unsigned)o->members : 1;
	olr->target_ops_s = ops_s / olr->members;
	olr->target_bytes_s = bytes_s / olr->members;
	if (ccb_arrivals_parse(o->arrivals, &olr->arrivals) < 0)
		olr->arrivals = CCB_ARRIVALS_UNIFORM;
	olr->backlog_max = count;
	olr->backlog_usec = usec;
	if (ccb_opt_given(o, "rate-seed")) {
		olr->seed = o->rate_seed;
	} else {
		/* Unrepeatable unless asked, and recorded so that it can be repeated. */
		uint64_t x = ccb_now_nsec() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)time(NULL);

		olr->seed = splitmix64(&x) >> 1; /* fits the result's integers */
	}
	per_client = olr->target_ops_s / run->n_clients;
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];
		uint64_t s = olr->seed + i;

		cl->ol = malloc(sizeof(*cl->ol));
		if (!cl->ol)
			return -ENOMEM;
		cl->polling = run->opts->busy_poll;
		ccb_openloop_init(cl->ol, olr->arrivals, per_client, splitmix64(&s),
		                  (double)i / run->n_clients, 0, count, usec * 1000ull);
	}
	return 0;
}

void ccb_openloop_start(struct ccb_run *run)
{
	for (unsigned i = 0; run->openloop && i < run->n_clients; i++) {
		run->clients[i].ol->start_nsec = run->start_nsec;
		run->clients[i].ol->due_nsec =
		    run->duration_usec ? run->start_nsec + run->duration_usec * 1000ull : 0;
	}
}

void ccb_openloop_free(struct ccb_run *run)
{
	for (unsigned i = 0; run->clients && i < run->n_clients; i++) {
		free(run->clients[i].ol);
		run->clients[i].ol = NULL;
	}
	free(run->openloop);
	run->openloop = NULL;
}

static json_t *lag_json(const struct ccb_hist *h)
{
	return json_pack("{s:I, s:f, s:f, s:f}", "n", (json_int_t)h->count, "p50",
	                 (double)ccb_hist_percentile(h, 50) / 1e3, "p99",
	                 (double)ccb_hist_percentile(h, 99) / 1e3, "max",
	                 (double)h->max_nsec / 1e3);
}

json_t *ccb_openloop_json(const struct ccb_run *run,
                          json_t *(*latency_json)(const struct ccb_hist *))
{
	const struct ccb_openloop_run *olr = run->openloop;
	struct ccb_openloop *sum;
	struct ccb_hist *service;
	double secs, achieved;
	uint64_t ops = 0, end = run->start_nsec;
	bool held;
	json_t *j = NULL;

	if (!olr || !run->clients)
		return NULL;
	sum = calloc(1, sizeof(*sum));
	service = calloc(1, sizeof(*service));
	if (!sum || !service)
		goto out;
	ccb_hist_init(&sum->response);
	ccb_hist_init(&sum->lag);
	ccb_hist_init(service);
	for (unsigned i = 0; i < run->n_clients; i++) {
		const struct ccb_client *cl = &run->clients[i];
		const struct ccb_openloop *ol = cl->ol;

		if (!ol)
			continue;
		sum->arrivals_total += ol->arrivals_total;
		sum->issued += ol->issued;
		sum->late += ol->late;
		sum->dropped += ol->dropped;
		sum->left += ol->left;
		sum->done_after_due += ol->done_after_due;
		ccb_hist_merge(&sum->response, &ol->response);
		ccb_hist_merge(&sum->lag, &ol->lag);
		ccb_hist_merge(service, &cl->hist);
		ops += cl->hist.count;
		if (ol->end_nsec > end)
			end = ol->end_nsec;
	}
	/* Over the time arrivals came in, not to the last completion: a held
	 * rate reads as the target, whatever the run's last op took. */
	secs = (double)(end - run->start_nsec) / 1e9;
	achieved = secs > 0 ? (double)ops / secs : 0;
	/* Against the arrivals that came, not the target: Poisson arrivals over
	 * a fixed time number rate x time +- its square root, the schedule's
	 * own spread and no fault of the cluster's (uniform: the same thing). */
	held = (double)ops >= HELD_ACHIEVED_SHARE * (double)sum->arrivals_total &&
	       sum->dropped == 0 &&
	       (double)(sum->late + sum->left) <= HELD_LATE_SHARE * (double)sum->arrivals_total;
	j = json_pack("{s:f, s:f, s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:s, "
	              "s:s}",
	              "target_ops_s", olr->target_ops_s, "achieved_ops_s", achieved, "arrivals",
	              olr->arrivals == CCB_ARRIVALS_POISSON ? "poisson" : "uniform", "seed",
	              (json_int_t)olr->seed, "max_in_flight", (json_int_t)run->queue_depth,
	              "arrivals_total", (json_int_t)sum->arrivals_total, "issued",
	              (json_int_t)sum->issued, "late", (json_int_t)sum->late, "dropped",
	              (json_int_t)sum->dropped, "left_at_end", (json_int_t)sum->left, "members",
	              (json_int_t)olr->members, "issuer_lag_us", lag_json(&sum->lag),
	              "response_time_us", latency_json(&sum->response), "service_time_us",
	              latency_json(service), "verdict", held ? "held" : "not held", "verdict_rule",
	              HELD_RULE);
	if (!j)
		goto out;
	json_object_set_new(j, "in_flight_at_end", json_integer((json_int_t)sum->done_after_due));
	json_object_set_new(j, "offered_ops_s",
	                    json_real(secs > 0 ? (double)sum->arrivals_total / secs : 0));
	if (olr->target_bytes_s)
		json_object_set_new(j, "target_bytes_s",
		                    json_integer((json_int_t)olr->target_bytes_s));
	json_object_set_new(j, "max_backlog",
	                    olr->backlog_max
	                        ? json_pack("{s:I}", "arrivals", (json_int_t)olr->backlog_max)
	                        : json_pack("{s:f}", "wait_us", (double)olr->backlog_usec));
out:
	free(sum);
	free(service);
	return j;
}
