/*
 * A fault schedule's part of the result (docs/results.md, "fault"): the
 * schedule as it went, the events, the cluster's samples, the phases and
 * the figures (fault_phases.c), the settings explain names, what an
 * exec: left and what the unwind did; and each second of the series gets
 * its p50, p99, slowest op, errors and phase.
 */
#include <ccbench/engine.h>

#include "fault_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_name(enum ccb_fault_kind k)
{
	static const char *const names[] = {
	    [CCB_FAULT_OSD_DOWN] = "osd-down", [CCB_FAULT_OSD_OUT] = "osd-out",
	    [CCB_FAULT_OSD_IN] = "osd-in",     [CCB_FAULT_SET] = "set",
	    [CCB_FAULT_UNSET] = "unset",       [CCB_FAULT_CONFIG] = "config",
	    [CCB_FAULT_EXEC] = "exec",         [CCB_FAULT_UNDO] = "undo",
	    [CCB_FAULT_END] = "end",
	};
	return names[k];
}

static json_t *schedule_json(const struct ccb_fault_point *fp)
{
	json_t *a = json_array();

	for (size_t i = 0; i < fp->sched.n; i++) {
		const struct ccb_fault *f = &fp->sched.f[i];
		const struct ccb_fault_state *st = &fp->st[i];
		char what[CCB_FAULT_TEXT_MAX + 128];
		json_t *e;

		ccb_fault_describe(f, what, sizeof(what));
		e = json_pack("{s:s, s:s, s:s, s:s, s:b}", "fault", f->text, "action",
		              kind_name(f->kind), "when",
		              f->when == CCB_FAULT_AT      ? "time"
		              : f->when == CCB_FAULT_CLEAN ? "clean"
		                                           : "unwind",
		              "description", what, "fired", st->fired);
		if (!e)
			continue;
		json_object_set_new(e, "at_s", json_real((double)f->at_usec / 1e6));
		if (st->fired) {
			json_object_set_new(e, "fired_s", json_real(st->fired_s));
			json_object_set_new(e, "result", json_string(st->result));
			json_object_set_new(e, "failed", json_boolean(st->failed));
		}
		if (f->kind == CCB_FAULT_OSD_DOWN || f->kind == CCB_FAULT_OSD_OUT ||
		    f->kind == CCB_FAULT_OSD_IN)
			json_object_set_new(e, "osd", json_integer(f->osd));
		json_array_append_new(a, e);
	}
	return a;
}

static json_t *events_json(const struct ccb_fault_point *fp)
{
	json_t *a = json_array();

	for (size_t i = 0; i < fp->n_events; i++) {
		const struct ccb_fault_event *e = &fp->events[i];
		json_t *j =
		    json_pack("{s:f, s:s, s:s}", "t_s", e->t_s, "kind", e->kind, "text", e->text);

		if (j && e->fault >= 0)
			json_object_set_new(j, "fault", json_string(fp->sched.f[e->fault].text));
		json_array_append_new(a, j);
	}
	return a;
}

static json_t *samples_json(const struct ccb_fault_point *fp)
{
	json_t *a = json_array();

	for (size_t i = 0; i < fp->n_samples; i++) {
		const struct ccb_fault_sample *s = &fp->samples[i];

		if (!s->ok) {
			json_array_append_new(a, json_pack("{s:f, s:b}", "t_s", s->t_s, "ok", 0));
			continue;
		}
		json_array_append_new(
		    a, json_pack(
		           "{s:f, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, "
		           "s:f, s:f, s:I, s:I, s:s}",
		           "t_s", s->t_s, "ok", 1, "epoch", (json_int_t)s->epoch, "osds",
		           (json_int_t)s->osds, "osds_up", (json_int_t)s->up, "osds_in",
		           (json_int_t)s->in, "pgs", (json_int_t)s->pgs, "pgs_clean",
		           (json_int_t)s->clean, "pgs_peering", (json_int_t)s->peering,
		           "pgs_degraded", (json_int_t)s->degraded, "pgs_recovering",
		           (json_int_t)s->recovering, "pgs_backfilling", (json_int_t)s->backfilling,
		           "pgs_inactive", (json_int_t)s->inactive, "pgs_stale",
		           (json_int_t)s->stale, "recovering_objects_s", s->recovering_objects_s,
		           "recovering_bytes_s", s->recovering_bytes_s, "degraded_objects",
		           (json_int_t)s->degraded_objects, "misplaced_objects",
		           (json_int_t)s->misplaced_objects, "states", s->states));
	}
	return a;
}

/* From the first fault that changes the cluster to the first event that
 * says an OSD was marked down (to the sample's second). */
static void marked_down(const struct ccb_fault_point *fp, double t0, json_t *fig)
{
	for (size_t i = 0; i < fp->n_events; i++)
		if (fp->events[i].t_s >= t0 && strcmp(fp->events[i].kind, "osd-down") == 0) {
			json_object_set_new(fig, "marked_down_after_s",
			                    json_real(fp->events[i].t_s - t0));
			json_object_set_new(fig, "marked_down", json_string(fp->events[i].text));
			return;
		}
	json_object_set_new(fig, "marked_down_after_s", json_null());
}

/* The faults that change the cluster, by when they fired (not end). */
static size_t fired_times(const struct ccb_fault_point *fp, double *t)
{
	size_t n = 0;

	for (size_t i = 0; i < fp->sched.n; i++)
		if (fp->st[i].fired && fp->sched.f[i].kind != CCB_FAULT_END)
			t[n++] = fp->st[i].fired_s;
	return n;
}

/* The phases from the result's series and the timeline, into @p fault;
 * each second of the series gets its figures and phase. */
static void add_phases(struct ccb_fault_point *fp, json_t *result, json_t *fault)
{
	json_t *series = json_object_get(result, "series"), *s, *ph;
	size_t n = json_array_size(series), i;
	double *bytes = calloc(n + 1, sizeof(double)), *ops = calloc(n + 1, sizeof(double));
	struct ccb_sech *secs = calloc(n + 1, sizeof(*secs));
	double fired[CCB_FAULT_MAX];
	struct ccb_fault_phase_in in = {0};

	if (!bytes || !ops || !secs)
		goto out;
	json_array_foreach(series, i, s)
	{
		bytes[i] = json_number_value(json_object_get(s, "bytes"));
		ops[i] = json_number_value(json_object_get(s, "ops"));
		if (i < fp->timeline.n_secs)
			secs[i] = fp->timeline.secs[i];
	}
	in.run_s = json_number_value(json_object_get(result, "seconds"));
	in.bytes = bytes;
	in.ops = ops;
	in.secs = secs;
	in.n_secs = n;
	in.samples = fp->samples;
	in.n_samples = fp->n_samples;
	in.fault_s = fired;
	in.n_faults = fired_times(fp, fired);
	in.done = fp->timeline.done;
	in.done_words = fp->timeline.done_words;
	in.tick_s = (double)CCB_TIMELINE_TICK_NSEC / 1e9;
	ph = ccb_fault_phases(&in);
	if (!ph)
		goto out;
	json_array_foreach(series, i, s)
	{
		const struct ccb_sech *h = &secs[i];

		json_object_set_new(s, "p50_us",
		                    h->count ? json_real((double)ccb_sech_percentile(h, 50) / 1e3)
		                             : json_null());
		json_object_set_new(s, "p99_us",
		                    h->count ? json_real((double)ccb_sech_percentile(h, 99) / 1e3)
		                             : json_null());
		json_object_set_new(s, "max_us",
		                    h->count ? json_real((double)h->max_nsec / 1e3) : json_null());
		json_object_set_new(s, "errors", json_integer(h->errors));
		json_object_set(s, "phase", json_array_get(json_object_get(ph, "second_phase"), i));
	}
	json_object_set(fault, "phases", json_object_get(ph, "phases"));
	json_object_set(fault, "figures", json_object_get(ph, "figures"));
	if (in.n_faults)
		marked_down(fp, fired[0], json_object_get(fault, "figures"));
	json_decref(ph);
out:
	free(bytes);
	free(ops);
	free(secs);
}

void ccb_fault_point_result(struct ccb_fault_point *fp, const struct ccb_run *run, json_t *result)
{
	json_t *fault;

	(void)run;
	if (!fp || !result)
		return;
	fault = json_pack("{s:o, s:o, s:o, s:O, s:O, s:f, s:b}", "schedule", schedule_json(fp),
	                  "events", events_json(fp), "cluster", samples_json(fp), "settings",
	                  fp->settings ? fp->settings : json_null(), "left", fp->left,
	                  "resolution_s", (double)CCB_TIMELINE_TICK_NSEC / 1e9, "truncated",
	                  fp->timeline.truncated || fp->n_samples >= 86400);
	if (!fault)
		return;
	add_phases(fp, result, fault);
	json_object_set_new(result, "fault", fault);
}

void ccb_fault_point_end(struct ccb_fault_point *fp, json_t *result)
{
	if (!fp)
		return;
	if (result && json_is_object(json_object_get(result, "fault")))
		json_object_set(json_object_get(result, "fault"), "undone", fp->undone);
	ccb_fault_unref(fp);
}
