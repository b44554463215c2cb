/*
 * The phases of a run with faults and its figures, computed after the run
 * from what it recorded (never on the hot path), pure so that they are
 * tested on synthetic timelines:
 *
 *   before      until the first fault that changes the cluster;
 *   stalled     no completion at all, to 10 ms (the timeline's ticks), for
 *               at least CCB_FAULT_STALL_MIN_S and twice the longest
 *               stretch before the first fault (a loaded client's own
 *               hiccups are not a stall);
 *   degraded    the cluster says some PG is not active+clean (peering,
 *               degraded, undersized, stale...) and none moves data;
 *   recovering  some PG recovers or backfills (or waits to);
 *   clean       every PG active+clean again.
 *
 * The cluster's state comes from its samples (about one a second), each
 * holding until the next. A clean sample after a fault, before the
 * cluster showed any effect of it, continues the phase before: the mon
 * had not noticed yet (a killed OSD is up in the map until it is marked
 * down), or the fault changed nothing PGs show (a flag).
 *
 * The I/O pause is the longest stretch with no completion after the first
 * fault, from the completion ticks, whether or not it is long enough to
 * be a phase.
 */
#include "fault_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names, compared by address within this file (each segment points at one). */
static const char ph_before[] = CCB_PHASE_BEFORE, ph_stalled[] = CCB_PHASE_STALLED,
                  ph_degraded[] = CCB_PHASE_DEGRADED, ph_recovering[] = CCB_PHASE_RECOVERING,
                  ph_clean[] = CCB_PHASE_CLEAN, ph_gap[] = "gap";

/* ---- the cluster's samples ------------------------------------------------- */

bool ccb_fault_sample_clean(const struct ccb_fault_sample *s)
{
	return s->ok && s->pgs > 0 && s->clean == s->pgs;
}

bool ccb_fault_sample_moving(const struct ccb_fault_sample *s)
{
	return s->ok && s->recovering + s->backfilling > 0;
}

static bool has_part(const char *state, const char *part)
{
	size_t l = strlen(part);

	for (const char *p = state; (p = strstr(p, part)); p += l)
		if ((p == state || p[-1] == '+') && (p[l] == '\0' || p[l] == '+'))
			return true;
	return false;
}

/* Settled as the test harness counts it: active and clean, scrubbing or
 * trimming snapshots at most. */
static bool state_clean(const char *st)
{
	static const char *const ok[] = {"active", "clean",    "scrubbing",
	                                 "deep",   "snaptrim", "snaptrim_wait"};
	char buf[256], *save = NULL, *w;
	bool active = false, clean = false;

	snprintf(buf, sizeof(buf), "%s", st);
	for (w = strtok_r(buf, "+", &save); w; w = strtok_r(NULL, "+", &save)) {
		bool known = false;

		for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]) && !known; i++)
			known = strcmp(w, ok[i]) == 0;
		if (!known)
			return false;
		active |= strcmp(w, "active") == 0;
		clean |= strcmp(w, "clean") == 0;
	}
	return active && clean;
}

static uint32_t u32(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v < 0 ? 0 : v > (json_int_t)UINT32_MAX ? UINT32_MAX : (uint32_t)v;
}

bool ccb_fault_parse_status(const json_t *status, struct ccb_fault_sample *s)
{
	const json_t *osdmap = json_object_get(status, "osdmap");
	const json_t *pgmap = json_object_get(status, "pgmap"), *pg;
	size_t i, used = 0;
	double t = s->t_s;

	memset(s, 0, sizeof(*s));
	s->t_s = t;
	/* Octopus and earlier nest the counts one level deeper. */
	if (json_is_object(json_object_get(osdmap, "osdmap")))
		osdmap = json_object_get(osdmap, "osdmap");
	if (!json_is_object(osdmap) || !json_is_object(pgmap))
		return false;
	s->epoch = u32(osdmap, "epoch");
	s->osds = u32(osdmap, "num_osds");
	s->up = u32(osdmap, "num_up_osds");
	s->in = u32(osdmap, "num_in_osds");
	s->pgs = u32(pgmap, "num_pgs");
	s->recovering_objects_s =
	    json_number_value(json_object_get(pgmap, "recovering_objects_per_sec"));
	s->recovering_bytes_s =
	    json_number_value(json_object_get(pgmap, "recovering_bytes_per_sec"));
	s->degraded_objects =
	    (uint64_t)json_integer_value(json_object_get(pgmap, "degraded_objects"));
	s->misplaced_objects =
	    (uint64_t)json_integer_value(json_object_get(pgmap, "misplaced_objects"));
	json_array_foreach(json_object_get(pgmap, "pgs_by_state"), i, pg)
	{
		const char *st = json_string_value(json_object_get(pg, "state_name"));
		uint32_t n = u32(pg, "count");

		if (!st)
			continue;
		if (state_clean(st))
			s->clean += n;
		if (has_part(st, "peering") || has_part(st, "activating") ||
		    has_part(st, "creating") || has_part(st, "unknown"))
			s->peering += n;
		if (has_part(st, "degraded") || has_part(st, "undersized"))
			s->degraded += n;
		if (has_part(st, "recovering") || has_part(st, "recovery_wait") ||
		    has_part(st, "forced_recovery") || has_part(st, "recovery_toofull"))
			s->recovering += n;
		if (has_part(st, "backfilling") || has_part(st, "backfill_wait") ||
		    has_part(st, "forced_backfill") || has_part(st, "backfill_toofull"))
			s->backfilling += n;
		if (!has_part(st, "active"))
			s->inactive += n;
		if (has_part(st, "stale"))
			s->stale += n;
		if (!state_clean(st) && used < sizeof(s->states) - 1)
			used += (size_t)snprintf(s->states + used, sizeof(s->states) - used,
			                         "%s%u %s", used ? ", " : "", n, st);
	}
	if (used >= sizeof(s->states))
		snprintf(s->states + sizeof(s->states) - 4, 4, "...");
	s->ok = true;
	return true;
}

/* ---- segments -------------------------------------------------------------------- */

struct seg {
	double a, b;
	const char *phase;
};

struct segs {
	struct seg *v;
	size_t n, cap;
};

static int push_seg(struct segs *l, double a, double b, const char *phase)
{
	if (b <= a)
		return 0;
	if (l->n && l->v[l->n - 1].phase == phase && fabs(l->v[l->n - 1].b - a) < 1e-9) {
		l->v[l->n - 1].b = b;
		return 0;
	}
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		struct seg *n = realloc(l->v, cap * sizeof(*n));
		if (!n)
			return -1;
		l->v = n;
		l->cap = cap;
	}
	l->v[l->n++] = (struct seg){a, b, phase};
	return 0;
}

static bool tick_done(const struct ccb_fault_phase_in *in, size_t t)
{
	size_t w = t / 64;

	return w < in->done_words && (in->done[w] >> (t % 64) & 1);
}

/* The stretches with no completion, [a, b) in seconds, ticks aligned; the
 * one before the first completion of the run is not one (the start). */
static struct segs gaps_of(const struct ccb_fault_phase_in *in)
{
	struct segs g = {0};
	size_t n_ticks = (size_t)ceil(in->run_s / in->tick_s), t = 0;

	while (t < n_ticks && !tick_done(in, t))
		t++;
	while (t < n_ticks) {
		size_t from;

		while (t < n_ticks && tick_done(in, t))
			t++;
		if (t >= n_ticks)
			break;
		from = t;
		while (t < n_ticks && !tick_done(in, t))
			t++;
		/* A completion lies between two gaps: they never merge. */
		push_seg(&g, (double)from * in->tick_s,
		         t >= n_ticks ? in->run_s : fmin(in->run_s, (double)t * in->tick_s),
		         ph_gap);
	}
	return g;
}

/* The class the cluster's samples give at each moment from @p t0 on. */
static const char *sample_class(const struct ccb_fault_sample *s)
{
	if (ccb_fault_sample_clean(s))
		return ph_clean;
	if (ccb_fault_sample_moving(s))
		return ph_recovering;
	return ph_degraded;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The cluster's phases from the first fault @p t0 on, before the stalls.
 * The run is cut at every sample and every fault; each piece takes the
 * class of the last sample before it. After a fault, pieces whose sample
 * still says clean wait for the fault's effect: the class of the first
 * sample that shows one is theirs too (a killed OSD's PGs were degraded
 * before the mon said so); a fault that shows none by the next fault or
 * the end leaves the phase before going on.
 */
static int cluster_segs(const struct ccb_fault_phase_in *in, double t0, struct segs *out)
{
	size_t n = 0, si = 0;
	double *cut = calloc(in->n_samples + in->n_faults + 2, sizeof(double));
	double pending = t0;
	const char *cur = ph_before;
	int r = -1;

	if (!cut || push_seg(out, 0, t0, ph_before) < 0)
		goto out;
	cut[n++] = t0;
	for (size_t k = 0; k < in->n_samples; k++)
		if (in->samples[k].t_s > t0 && in->samples[k].t_s < in->run_s)
			cut[n++] = in->samples[k].t_s;
	for (size_t k = 1; k < in->n_faults; k++)
		if (in->fault_s[k] > t0 && in->fault_s[k] < in->run_s)
			cut[n++] = in->fault_s[k];
	qsort(cut, n, sizeof(*cut), cmp_double);
	cut[n] = in->run_s;
	for (size_t k = 0; k < n; k++) {
		double a = cut[k], b = cut[k + 1];
		const struct ccb_fault_sample *s = NULL;
		bool fault = k == 0;

		for (size_t f = 1; f < in->n_faults; f++)
			fault |= in->fault_s[f] == a;
		while (si < in->n_samples && in->samples[si].t_s <= a)
			si++;
		if (si)
			s = &in->samples[si - 1];
		if (fault) {
			/* What waited for the fault before shows no effect: it goes on. */
			if (pending >= 0 && push_seg(out, pending, a, cur) < 0)
				goto out;
			pending = a;
		}
		if (!s || !s->ok || (sample_class(s) == ph_clean && pending >= 0)) {
			if (pending < 0 && push_seg(out, a, b, cur) < 0)
				goto out;
			continue;
		}
		cur = sample_class(s);
		if (pending >= 0 && push_seg(out, pending, a, cur) < 0)
			goto out;
		pending = -1;
		if (push_seg(out, a, b, cur) < 0)
			goto out;
	}
	if (pending >= 0 && push_seg(out, pending, in->run_s, cur) < 0)
		goto out;
	r = 0;
out:
	free(cut);
	return r;
}

/* @p base with every stall cut in. */
static int overlay(const struct segs *base, const struct segs *stalls, struct segs *out)
{
	for (size_t i = 0; i < base->n; i++) {
		double a = base->v[i].a, b = base->v[i].b;

		for (size_t k = 0; k < stalls->n && a < b; k++) {
			const struct seg *st = &stalls->v[k];

			if (st->b <= a || st->a >= b)
				continue;
			if (push_seg(out, a, st->a, base->v[i].phase) < 0 ||
			    push_seg(out, fmax(a, st->a), fmin(b, st->b), ph_stalled) < 0)
				return -1;
			a = fmin(b, st->b);
		}
		if (push_seg(out, a, b, base->v[i].phase) < 0)
			return -1;
	}
	return 0;
}

/* ---- figures ------------------------------------------------------------------- */

static double overlap(double a, double b, double c, double d)
{
	return fmax(0, fmin(b, d) - fmax(a, c));
}

/* Stall time within [a, b). */
static double stalled_in(const struct segs *stalls, double a, double b)
{
	double t = 0;

	for (size_t k = 0; k < stalls->n; k++)
		t += overlap(a, b, stalls->v[k].a, stalls->v[k].b);
	return t;
}

static json_t *us_or_null(const struct ccb_sech *h, double pct)
{
	return h->count ? json_real((double)ccb_sech_percentile(h, pct) / 1e3) : json_null();
}

/* One phase's figures; @p h (merged by the caller) its latencies. */
static json_t *phase_json(const struct ccb_fault_phase_in *in, const struct seg *p,
                          const struct segs *stalls, const struct ccb_sech *h)
{
	double ops = 0, bytes = 0, secs = p->b - p->a;

	if (p->phase != ph_stalled)
		for (size_t s = 0; s < in->n_secs; s++) {
			double end = fmin((double)s + 1, in->run_s);
			double busy = (end - (double)s) - stalled_in(stalls, (double)s, end);
			double mine = overlap(p->a, p->b, (double)s, end) -
			              stalled_in(stalls, fmax(p->a, (double)s), fmin(p->b, end));

			if (busy <= 1e-9 || mine <= 0)
				continue;
			ops += in->ops[s] * mine / busy;
			bytes += in->bytes[s] * mine / busy;
		}
	return json_pack(
	    "{s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:o, s:o, s:o, s:I}", "phase", p->phase,
	    "from_s", p->a, "to_s", p->b, "seconds", secs, "ops", ops, "bytes", bytes,
	    "bandwidth_mib_s", secs > 0 ? bytes / 1048576.0 / secs : 0.0, "iops",
	    secs > 0 ? ops / secs : 0.0, "p50_us", us_or_null(h, 50), "p99_us", us_or_null(h, 99),
	    "max_us", h->count ? json_real((double)h->max_nsec / 1e3) : json_null(), "errors",
	    (json_int_t)h->errors);
}

/* The phase holding most of second @p s: @p busy_only counts only time
 * with completions (for the latencies, which stalls have none of). */
static size_t phase_of_second(const struct segs *ph, const struct segs *stalls, size_t s,
                              double run_s, bool busy_only)
{
	double best = -1, end = fmin((double)s + 1, run_s);
	size_t who = 0;

	for (size_t i = 0; i < ph->n; i++) {
		double o = overlap(ph->v[i].a, ph->v[i].b, (double)s, end);

		if (busy_only)
			o -= stalled_in(stalls, fmax(ph->v[i].a, (double)s), fmin(ph->v[i].b, end));
		if (o > best + 1e-9) {
			best = o;
			who = i;
		}
	}
	return who;
}

/* Merge the latencies of every phase named @p name into @p h. */
static void merge_named(const struct segs *ph, struct ccb_sech *by_phase, const char *name,
                        struct ccb_sech *h)
{
	memset(h, 0, sizeof(*h));
	for (size_t i = 0; i < ph->n; i++)
		if (ph->v[i].phase == name)
			ccb_sech_merge(h, &by_phase[i]);
}

static double seconds_in(const struct segs *ph, const char *name)
{
	double t = 0;

	for (size_t i = 0; i < ph->n; i++)
		if (ph->v[i].phase == name)
			t += ph->v[i].b - ph->v[i].a;
	return t;
}

/* The I/O pause and each fault's first completion after it. */
static void pause_figures(const struct ccb_fault_phase_in *in, const struct segs *gaps, double t0,
                          json_t *fig)
{
	double best = 0, from = 0, to = 0;
	json_t *firsts = json_array();

	for (size_t k = 0; k < gaps->n; k++) {
		double a = fmax(gaps->v[k].a, t0), b = gaps->v[k].b;

		if (b - a > best) {
			best = b - a;
			from = a;
			to = b;
		}
	}
	json_object_set_new(fig, "pause_s", json_real(best));
	json_object_set_new(fig, "pause_from_s", best > 0 ? json_real(from) : json_null());
	json_object_set_new(fig, "pause_to_s", best > 0 ? json_real(to) : json_null());
	json_object_set_new(fig, "pause_open", json_boolean(best > 0 && to >= in->run_s - 1e-9));
	for (size_t i = 0; i < in->n_faults; i++) {
		size_t n_ticks = (size_t)ceil(in->run_s / in->tick_s);
		size_t t = (size_t)floor(in->fault_s[i] / in->tick_s);

		while (t < n_ticks && !tick_done(in, t))
			t++;
		json_array_append_new(
		    firsts, t < n_ticks
		                ? json_real(fmax(0, (double)t * in->tick_s - in->fault_s[i]))
		                : json_null());
	}
	json_object_set(fig, "first_completion_after_s",
	                json_array_get(firsts, 0) ? json_array_get(firsts, 0) : json_null());
	json_object_set_new(fig, "first_completion_after_each_s", firsts);
}

static void latency_figures(const struct segs *ph, struct ccb_sech *by_phase, json_t *fig)
{
	struct ccb_sech h;
	double before99, rec99, deg99;

	merge_named(ph, by_phase, ph_before, &h);
	before99 = h.count ? (double)ccb_sech_percentile(&h, 99) / 1e3 : 0;
	json_object_set_new(fig, "before_p50_us", us_or_null(&h, 50));
	json_object_set_new(fig, "before_p99_us", us_or_null(&h, 99));
	merge_named(ph, by_phase, ph_degraded, &h);
	deg99 = h.count ? (double)ccb_sech_percentile(&h, 99) / 1e3 : 0;
	json_object_set_new(fig, "degraded_p99_us", us_or_null(&h, 99));
	json_object_set_new(fig, "degraded_slowdown",
	                    before99 > 0 && deg99 > 0 ? json_real(deg99 / before99) : json_null());
	merge_named(ph, by_phase, ph_recovering, &h);
	rec99 = h.count ? (double)ccb_sech_percentile(&h, 99) / 1e3 : 0;
	json_object_set_new(fig, "recovery_p50_us", us_or_null(&h, 50));
	json_object_set_new(fig, "recovery_p99_us", us_or_null(&h, 99));
	json_object_set_new(fig, "recovery_slowdown",
	                    before99 > 0 && rec99 > 0 ? json_real(rec99 / before99) : json_null());
}

static void duration_figures(const struct ccb_fault_phase_in *in, const struct segs *ph, double t0,
                             json_t *fig)
{
	bool disturbed = false;
	double slowest = 0, at = 0;
	uint64_t errors = 0;

	json_object_set_new(fig, "stalled_s", json_real(seconds_in(ph, ph_stalled)));
	json_object_set_new(fig, "degraded_s", json_real(seconds_in(ph, ph_degraded)));
	json_object_set_new(fig, "recovering_s", json_real(seconds_in(ph, ph_recovering)));
	/* Clean again: the run ends in a clean phase after one that was not. */
	for (size_t i = 0; i < ph->n; i++)
		disturbed |= ph->v[i].phase == ph_degraded || ph->v[i].phase == ph_recovering;
	json_object_set_new(fig, "time_to_clean_s",
	                    disturbed && ph->n && ph->v[ph->n - 1].phase == ph_clean
	                        ? json_real(ph->v[ph->n - 1].a - t0)
	                        : json_null());
	for (size_t s = 0; in->secs && s < in->n_secs; s++) {
		errors += in->secs[s].errors;
		if ((double)in->secs[s].max_nsec / 1e3 > slowest) {
			slowest = (double)in->secs[s].max_nsec / 1e3;
			at = (double)s;
		}
	}
	json_object_set_new(fig, "slowest_op_us", json_real(slowest));
	json_object_set_new(fig, "slowest_op_second", json_real(at));
	json_object_set_new(fig, "errors", json_integer((json_int_t)errors));
}

json_t *ccb_fault_phases(const struct ccb_fault_phase_in *in)
{
	struct segs gaps = {0}, stalls = {0}, base = {0}, ph = {0};
	struct ccb_sech *by_phase = NULL;
	json_t *out = NULL, *phases = NULL, *fig = NULL, *per_sec = NULL;
	double t0 = in->n_faults ? in->fault_s[0] : in->run_s, pre_max = 0, thr;

	gaps = gaps_of(in);
	for (size_t k = 0; k < gaps.n; k++)
		if (gaps.v[k].b <= t0)
			pre_max = fmax(pre_max, gaps.v[k].b - gaps.v[k].a);
	thr = fmax(CCB_FAULT_STALL_MIN_S, 2 * pre_max);
	for (size_t k = 0; in->n_faults && k < gaps.n; k++) {
		double a = fmax(gaps.v[k].a, t0), b = gaps.v[k].b;

		if (b - a >= thr && push_seg(&stalls, a, b, ph_stalled) < 0)
			goto out;
	}
	if (cluster_segs(in, t0, &base) < 0 || overlay(&base, &stalls, &ph) < 0)
		goto out;
	by_phase = calloc(ph.n + 1, sizeof(*by_phase));
	phases = json_array();
	per_sec = json_array();
	fig = json_object();
	if (!by_phase || !phases || !per_sec || !fig)
		goto out;
	for (size_t s = 0; in->secs && s < in->n_secs; s++)
		ccb_sech_merge(&by_phase[phase_of_second(&ph, &stalls, s, in->run_s, true)],
		               &in->secs[s]);
	for (size_t s = 0; s < in->n_secs; s++)
		json_array_append_new(
		    per_sec,
		    json_string(ph.v[phase_of_second(&ph, &stalls, s, in->run_s, false)].phase));
	for (size_t i = 0; i < ph.n; i++) {
		if (ph.v[i].phase == ph_stalled)
			memset(&by_phase[i], 0, sizeof(by_phase[i]));
		json_array_append_new(phases, phase_json(in, &ph.v[i], &stalls, &by_phase[i]));
	}
	json_object_set_new(fig, "stall_threshold_s", json_real(thr));
	json_object_set_new(fig, "longest_gap_before_s", json_real(pre_max));
	if (in->n_faults)
		pause_figures(in, &gaps, t0, fig);
	latency_figures(&ph, by_phase, fig);
	duration_figures(in, &ph, t0, fig);
	out =
	    json_pack("{s:O, s:O, s:O}", "phases", phases, "figures", fig, "second_phase", per_sec);
out:
	json_decref(phases);
	json_decref(fig);
	json_decref(per_sec);
	free(by_phase);
	free(gaps.v);
	free(stalls.v);
	free(base.v);
	free(ph.v);
	return out;
}
