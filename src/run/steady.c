/*
 * Steady-state detection. The engine's supervisor feeds the run's
 * cumulative counters (bytes, ops, summed latency) every tick; once a
 * second has passed the detector turns their differences into one sample
 * of each metric, over the interval actually elapsed, so a late tick on a
 * busy host stretches a sample rather than inflating it. Samples count
 * only after the ramp (a time and a byte count, both), and a window holds
 * once its W samples meet the criterion. Nothing here allocates after
 * init, and nothing knows which path it watches.
 */
#include <ccbench/steady.h>
#include <ccbench/units.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint64_t ccb_steady_ramp_of(const char *const *what, const uint64_t *bytes, size_t n, char *basis,
                            size_t len)
{
	size_t best = n;
	char b[32];

	for (size_t i = 0; i < n; i++)
		if (bytes[i] && (best == n || bytes[i] > bytes[best]))
			best = i;
	if (best == n || bytes[best] > UINT64_MAX / CCB_STEADY_RAMP_WINDOWS) {
		if (len)
			basis[0] = '\0';
		return 0;
	}
	ccb_format_bytes(bytes[best], b, sizeof(b));
	snprintf(basis, len, "%d × %s %s", CCB_STEADY_RAMP_WINDOWS, what[best], b);
	return bytes[best] * CCB_STEADY_RAMP_WINDOWS;
}

int ccb_steady_init(struct ccb_steady *d, const struct ccb_steady_spec *spec, uint64_t ramp_nsec,
                    uint64_t ramp_bytes, bool ramp_auto, const char *basis)
{
	memset(d, 0, sizeof(*d));
	d->spec = *spec;
	d->ramp_nsec = ramp_nsec;
	d->ramp_bytes = ramp_bytes;
	d->ramp_auto = ramp_auto;
	snprintf(d->ramp_basis, sizeof(d->ramp_basis), "%s", basis ? basis : "");
	d->window_n = (size_t)(spec->window_usec / 1000000);
	if (d->window_n < 1)
		d->window_n = 1;
	d->next_nsec = CCB_STEADY_SAMPLE_NSEC;
	/* No ramp at all (--steady-ramp 0 on a path with nothing to fill):
	 * the first second counts. */
	d->ramp_over = !ramp_nsec && !ramp_bytes;
	d->ring = calloc(d->window_n, sizeof(*d->ring));
	d->scratch = calloc(d->window_n, sizeof(*d->scratch));
	d->held = calloc(d->window_n, sizeof(*d->held));
	if (!d->ring || !d->scratch || !d->held) {
		ccb_steady_free(d);
		return -ENOMEM;
	}
	return 0;
}

void ccb_steady_free(struct ccb_steady *d)
{
	free(d->ring);
	free(d->scratch);
	free(d->held);
	d->ring = d->scratch = NULL;
	d->held = NULL;
}

static double metric_of(const struct ccb_steady_sample *s, enum ccb_steady_metric m)
{
	return m == CCB_STEADY_IOPS ? s->iops : m == CCB_STEADY_LAT ? s->lat_us : s->bw_mib_s;
}

void ccb_steady_band_of(const struct ccb_steady_sample *s, size_t n, enum ccb_steady_metric m,
                        struct ccb_steady_band *b)
{
	double sum = 0, st = 0, sx = 0, sxx = 0, sxy = 0, secs = 0, bytes = 0, ops = 0, lat = 0;

	memset(b, 0, sizeof(*b));
	if (!n)
		return;
	b->samples = n;
	b->min = INFINITY;
	b->max = -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double x = metric_of(&s[i], m);
		/* The interval each sample covered: the gap since the one before
		 * (about a second), the first assumed a second. */
		double dt = i ? s[i].t_s - s[i - 1].t_s : 1.0;

		sum += x;
		b->min = fmin(b->min, x);
		b->max = fmax(b->max, x);
		/* Least squares of x on the sample's time. */
		st += s[i].t_s;
		sx += x;
		sxx += s[i].t_s * s[i].t_s;
		sxy += s[i].t_s * x;
		secs += dt;
		bytes += s[i].bw_mib_s * dt;
		ops += s[i].iops * dt;
		if (s[i].iops > 0)
			lat += s[i].lat_us * s[i].iops * dt;
	}
	b->mean = sum / (double)n;
	b->from_s = s[0].t_s - 1.0;
	b->to_s = s[n - 1].t_s;
	b->bw_mib_s = secs > 0 ? bytes / secs : 0;
	b->iops = secs > 0 ? ops / secs : 0;
	b->lat_us = ops > 0 ? lat / ops : 0;
	if (b->mean > 0) {
		double dev = fmax(b->max - b->mean, b->mean - b->min);
		double den = (double)n * sxx - st * st;
		double slope = den > 0 ? ((double)n * sxy - st * sx) / den : 0;

		b->max_deviation_pct = dev / b->mean * 100;
		/* The change the fitted line makes over the window's n seconds. */
		b->trend_pct = fabs(slope) * (double)n / b->mean * 100;
	} else {
		b->max_deviation_pct = b->trend_pct = INFINITY;
	}
}

bool ccb_steady_band_holds(const struct ccb_steady_spec *spec, const struct ccb_steady_band *b)
{
	double tol = (double)spec->tol_centipct / 100;

	if (!b->samples || !(b->mean > 0))
		return false;
	return (spec->slope ? b->trend_pct : b->max_deviation_pct) <= tol;
}

/* The ring's samples, oldest first, into @p out (window_n of them). */
static void ring_ordered(const struct ccb_steady *d, struct ccb_steady_sample *out)
{
	for (size_t i = 0; i < d->n; i++)
		out[i] = d->ring[(d->head + i) % d->window_n];
}

bool ccb_steady_feed(struct ccb_steady *d, uint64_t now_nsec, uint64_t bytes, uint64_t ops,
                     uint64_t lat_sum_nsec)
{
	struct ccb_steady_sample s, *win;
	uint64_t db, dops, dlat;
	double dt;

	if (d->attained)
		return true;
	if (now_nsec < d->next_nsec || now_nsec <= d->last_nsec)
		return false;
	/* Sums over client counters read one by one only grow; a torn read
	 * must not wrap around. */
	db = bytes > d->last_bytes ? bytes - d->last_bytes : 0;
	dops = ops > d->last_ops ? ops - d->last_ops : 0;
	dlat = lat_sum_nsec > d->last_lat_nsec ? lat_sum_nsec - d->last_lat_nsec : 0;
	dt = (double)(now_nsec - d->last_nsec) / 1e9;
	s.t_s = (double)now_nsec / 1e9;
	s.bw_mib_s = (double)db / 1048576.0 / dt;
	s.iops = (double)dops / dt;
	s.lat_us = dops ? (double)dlat / (double)dops / 1e3 : NAN;
	d->last_nsec = now_nsec;
	d->last_bytes = bytes > d->last_bytes ? bytes : d->last_bytes;
	d->last_ops = ops > d->last_ops ? ops : d->last_ops;
	d->last_lat_nsec = lat_sum_nsec > d->last_lat_nsec ? lat_sum_nsec : d->last_lat_nsec;
	d->bytes = d->last_bytes;
	while (d->next_nsec <= now_nsec)
		d->next_nsec += CCB_STEADY_SAMPLE_NSEC;

	/* The sample that ends the ramp still holds ramp time: not counted. */
	if (!d->ramp_over) {
		if (now_nsec >= d->ramp_nsec && d->last_bytes >= d->ramp_bytes) {
			d->ramp_over = true;
			d->ramp_over_s = s.t_s;
		}
		return false;
	}
	d->samples_after_ramp++;
	/* A second without a completed op has no mean latency: the window
	 * starts again after it (bandwidth and IOPS count it as a zero). */
	if (d->spec.metric == CCB_STEADY_LAT && isnan(s.lat_us)) {
		d->n = d->head = 0;
		return false;
	}
	if (isnan(s.lat_us))
		s.lat_us = 0;
	if (d->n < d->window_n) {
		d->ring[(d->head + d->n) % d->window_n] = s;
		d->n++;
	} else {
		d->ring[d->head] = s;
		d->head = (d->head + 1) % d->window_n;
	}
	if (d->n < d->window_n)
		return false;
	win = d->scratch;
	ring_ordered(d, win);
	ccb_steady_band_of(win, d->n, d->spec.metric, &d->band);
	d->have_band = true;
	if (ccb_steady_band_holds(&d->spec, &d->band)) {
		d->attained = true;
		d->attained_s = s.t_s;
		for (size_t i = 0; i < d->n; i++)
			d->held[i] = metric_of(&win[i], d->spec.metric);
	}
	return d->attained;
}

/* JSON has no infinity (a window whose mean is 0 deviates without bound). */
static json_t *finite_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The window that held, or else the last whole one the run had. */
static json_t *band_json(const struct ccb_steady *d)
{
	json_t *vals = json_array();

	for (size_t i = 0; i < d->band.samples; i++)
		json_array_append_new(
		    vals, json_real(d->attained ? d->held[i]
		                                : metric_of(&d->scratch[i], d->spec.metric)));
	return json_pack("{s:f, s:f, s:I, s:f, s:f, s:f, s:o, s:o, s:f, s:f, s:f, s:o}", "from_s",
	                 d->band.from_s, "to_s", d->band.to_s, "samples",
	                 (json_int_t)d->band.samples, "mean", d->band.mean, "min", d->band.min,
	                 "max", d->band.max, "max_deviation_pct",
	                 finite_or_null(d->band.max_deviation_pct), "trend_pct",
	                 finite_or_null(d->band.trend_pct), "bandwidth_mib_s", d->band.bw_mib_s,
	                 "iops", d->band.iops, "lat_mean_us", d->band.lat_us, "values", vals);
}

json_t *ccb_steady_json(const struct ccb_steady *d, const char *end_reason, uint64_t run_bytes)
{
	uint64_t moved = run_bytes > d->bytes ? run_bytes : d->bytes;
	char why[256] = "", a[32], b[32];
	double tol = (double)d->spec.tol_centipct / 100;
	json_t *j, *ramp;

	ramp = json_pack("{s:f, s:I, s:b, s:o, s:o}", "min_s", (double)d->ramp_nsec / 1e9, "bytes",
	                 (json_int_t)d->ramp_bytes, "auto", d->ramp_auto, "basis",
	                 d->ramp_basis[0] ? json_string(d->ramp_basis) : json_null(), "over_at_s",
	                 d->ramp_over ? json_real(d->ramp_over_s) : json_null());
	if (!end_reason || !*end_reason)
		end_reason = "completed";
	if (d->attained) {
		/* nothing to explain */
	} else if (!d->ramp_over) {
		/* Bytes moved are never round: MiB with a decimal, not "8832K". */
		snprintf(a, sizeof(a), "%.1f MiB", (double)moved / 1048576.0);
		snprintf(b, sizeof(b), "%.1f MiB", (double)d->ramp_bytes / 1048576.0);
		if (d->ramp_bytes > moved)
			snprintf(why, sizeof(why),
			         "the run ended (%s) during the ramp: %s of its %s moved",
			         end_reason, a, b);
		else
			snprintf(why, sizeof(why),
			         "the run ended (%s) during the ramp, before %.1f s had passed",
			         end_reason, (double)d->ramp_nsec / 1e9);
	} else if (!d->have_band) {
		snprintf(why, sizeof(why),
		         "the run ended (%s) %zu s after the ramp, before a whole %zu s window",
		         end_reason, d->samples_after_ramp, d->window_n);
	} else if (d->spec.slope) {
		snprintf(why, sizeof(why),
		         "the run ended (%s); its last %zu s trended %.1f %% (%.1f %% allowed)",
		         end_reason, d->window_n, d->band.trend_pct, tol);
	} else {
		snprintf(why, sizeof(why),
		         "the run ended (%s); its last %zu s strayed %.1f %% from their mean (%.1f "
		         "%% allowed)",
		         end_reason, d->window_n, d->band.max_deviation_pct, tol);
	}
	j = json_pack("{s:s, s:s, s:s, s:f, s:I, s:o, s:b, s:o, s:I, s:o}", "spec", d->spec.text,
	              "metric", ccb_steady_metric_name(d->spec.metric), "criterion",
	              d->spec.slope ? "slope" : "deviation", "tolerance_pct", tol, "window_s",
	              (json_int_t)d->window_n, "ramp", ramp, "attained", d->attained, "at_s",
	              d->attained ? json_real(d->attained_s) : json_null(), "samples_after_ramp",
	              (json_int_t)d->samples_after_ramp, "window",
	              d->have_band ? band_json(d) : json_null());
	if (j && why[0])
		json_object_set_new(j, "why", json_string(why));
	/* Reached with the run's end under a window away: it read on, and its
	 * whole figure is its level (ccb_result_level()). */
	if (j)
		json_object_set_new(j, "read_to_end", json_boolean(d->read_to_end));
	if (j && d->read_to_end)
		json_object_set_new(j, "end_was_s", json_real(d->read_to_end_left_s));
	return j;
}
