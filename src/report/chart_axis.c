/*
 * A chart's axes: their ranges from the data, the ticks (where the data
 * is, never 0 on a log axis), and the grid, tick labels and titles of a
 * panel. A log2 axis with values at 0 (readahead off) draws them apart,
 * left of a break in the axis, and says so in its title.
 */
#include "chart_layout.h"

#include "chart_int.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TICKS 64

/* The round step for about @p want ticks over @p span. */
static double nice_step(double span, size_t want)
{
	double raw = span / (double)(want ? want : 1), mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

size_t ccb_chart_ticks_linear(double lo, double hi, size_t want, double *t, size_t max)
{
	double step = nice_step(hi - lo, want), first, n;

	if (!isfinite(lo) || !isfinite(hi) || hi < lo || !isfinite(step) || step <= 0)
		return 0;
	first = ceil(lo / step - 1e-9) * step;
	/* A counter, not v += step: far from zero (1e17) a step below the
	 * values' precision would never advance. */
	n = floor((hi - first) / step + 1e-9) + 1;
	if (!(n > 0))
		return 0;
	if (n > (double)max)
		n = (double)max;
	for (size_t k = 0; k < (size_t)n; k++) {
		t[k] = first + (double)k * step;
		if (fabs(t[k]) < step * 1e-9)
			t[k] = 0; /* not -0 */
	}
	return (size_t)n;
}

size_t ccb_chart_ticks_log10(double lo_dec, double hi_dec, double *t, size_t max)
{
	static const double few[] = {1, 2, 5}, one[] = {1};
	double span = hi_dec - lo_dec, k;
	const double *m = span <= 2.5 ? few : one;
	size_t nm = span <= 2.5 ? 3 : 1, n = 0;

	if (!isfinite(lo_dec) || !isfinite(hi_dec) || span < 0 || max == 0)
		return 0;
	/* Past max decades, every k-th. */
	k = fmax(1, ceil((ceil(hi_dec) - floor(lo_dec) + 1) / (double)max));
	for (double d = floor(lo_dec); d <= ceil(hi_dec) && n < max; d += k)
		for (size_t j = 0; j < nm && n < max; j++) {
			double v = m[j] * pow(10, d);
			if (v > 0 && log10(v) >= lo_dec - 1e-9 && log10(v) <= hi_dec + 1e-9)
				t[n++] = v;
		}
	return n;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A value a person would set (1, 16, 4096, 0.5): a whole number, or at
 * most 3 significant digits; a measured one (1542.3 ops/s, 2.00014 s) is not. */
static bool round_value(double v)
{
	double mag, r;

	if (v == floor(v) && fabs(v) < 1e15)
		return true;
	mag = pow(10, floor(log10(fabs(v))) - 2);
	r = round(v / mag) * mag;
	return fabs(v - r) <= 1e-9 * fabs(v);
}

size_t ccb_chart_ticks_at_data(const double *xs, size_t n, double *t, size_t max)
{
	double d[12];
	size_t nd = 0;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		if (!isfinite(xs[i]))
			continue;
		if (!round_value(xs[i]))
			return 0;
		while (j < nd && d[j] != xs[i])
			j++;
		if (j < nd)
			continue;
		if (nd == 12)
			return 0;
		d[nd++] = xs[i];
	}
	qsort(d, nd, sizeof(d[0]), by_value);
	if (nd > max)
		nd = max;
	memcpy(t, d, nd * sizeof(d[0]));
	return nd;
}

size_t ccb_chart_ticks_log2(const double *xs, size_t n, double *t, size_t max)
{
	double d[13], mn = INFINITY, mx = -INFINITY;
	size_t nd = 0, out = 0;
	bool many = false;

	for (size_t i = 0; i < n; i++) {
		size_t j = 0;

		if (!isfinite(xs[i]) || xs[i] <= 0)
			continue;
		mn = fmin(mn, xs[i]);
		mx = fmax(mx, xs[i]);
		while (j < nd && d[j] != xs[i])
			j++;
		if (j == nd && !many) {
			if (nd == 12)
				many = true;
			else
				d[nd++] = xs[i];
		}
	}
	if (!isfinite(mn) || max == 0)
		return 0;
	if (!many) {
		qsort(d, nd, sizeof(d[0]), by_value);
		for (size_t i = 0; i < nd && out < max; i++)
			t[out++] = d[i];
		return out;
	}
	double e0 = ceil(log2(mn)), e1 = floor(log2(mx));
	double k = fmax(1, ceil((e1 - e0 + 1) / (double)max));
	for (double e = e0; e <= e1 && out < max; e += k)
		t[out++] = pow(2, e);
	return out;
}

void ccb_chart_thin(const double *pos, const double *width, size_t n, double gap, bool *keep)
{
	double right = -INFINITY;

	for (size_t i = 0; i < n; i++) {
		keep[i] = isfinite(pos[i]) && pos[i] - width[i] / 2 >= right + gap;
		if (keep[i])
			right = pos[i] + width[i] / 2;
	}
}

double ccb_scale_px(const struct ccb_scale *s, double v)
{
	double a;

	if (!isfinite(v))
		return NAN;
	switch (s->kind) {
	case SCALE_LOG2:
		if (v <= 0)
			return v == 0 && s->has_zero ? s->zero_px : NAN;
		a = log2(v);
		break;
	case SCALE_LOG10:
		if (v <= 0)
			return NAN;
		a = log10(v);
		break;
	default:
		a = v;
	}
	return s->p0 + (s->hi > s->lo ? (a - s->lo) / (s->hi - s->lo) : 0.5) * (s->p1 - s->p0);
}

bool ccb_chart_drawable(const struct ccb_frame *f, const struct ccb_chart_series *se, size_t i)
{
	return isfinite(se->x[i]) && isfinite(se->y[i]) && (!se->err || isfinite(se->err[i])) &&
	       (!f->c->y_log10 || se->y[i] > 0) && (!f->c->x_log2 || se->x[i] >= 0) &&
	       (!f->bars || (se->x[i] >= 0 && se->x[i] < (double)f->c->n_x_labels));
}

/* The x range over the drawn points and the vertical lines. */
static void x_range(struct ccb_frame *f)
{
	const struct ccb_chart *c = f->c;
	double lo = INFINITY, hi = -INFINITY;

	for (size_t s = 0; s < c->n_series; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i];
			if (!ccb_chart_drawable(f, &c->series[s], i))
				continue;
			if (c->x_log2 && x == 0) {
				f->x.has_zero = true;
				continue;
			}
			lo = fmin(lo, c->x_log2 ? log2(x) : x);
			hi = fmax(hi, c->x_log2 ? log2(x) : x);
		}
	for (size_t k = 0; !c->x_log2 && !f->bars && k < c->n_vlines; k++)
		if (isfinite(c->vlines[k].value))
			lo = fmin(lo, c->vlines[k].value), hi = fmax(hi, c->vlines[k].value);
	if (!isfinite(lo) || !isfinite(hi))
		lo = 0, hi = 1;
	if (f->bars)
		lo = -0.5, hi = (double)c->n_x_labels - 0.5;
	else if (c->x_log2)
		lo -= 0.3, hi += 0.3;
	else {
		double pad = hi > lo ? (hi - lo) * 0.03 : fmax(fabs(lo) * 0.1, 1);
		lo -= pad, hi += pad;
	}
	f->x.kind = f->bars ? SCALE_CAT : c->x_log2 ? SCALE_LOG2 : SCALE_LIN;
	f->x.lo = lo, f->x.hi = hi;
}

void ccb_chart_ranges(struct ccb_frame *f)
{
	const struct ccb_chart *c = f->c;
	double lo = INFINITY, hi = -INFINITY;

	x_range(f);
	for (size_t s = 0; s < c->n_series; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			const struct ccb_chart_series *se = &c->series[s];
			double e = se->err && se->err[i] > 0 ? se->err[i] : 0;
			if (!ccb_chart_drawable(f, se, i))
				continue;
			f->err_drawn |= e > 0;
			hi = fmax(hi, se->y[i] + e);
			lo = fmin(lo, c->y_log10 || se->y[i] - e <= 0 ? se->y[i] : se->y[i] - e);
		}
	for (size_t k = 0; k < c->n_hlines; k++)
		if (isfinite(c->hlines[k].value) && (!c->y_log10 || c->hlines[k].value > 0))
			lo = fmin(lo, c->hlines[k].value), hi = fmax(hi, c->hlines[k].value);
	f->y.kind = c->y_log10 ? SCALE_LOG10 : SCALE_LIN;
	if (c->y_log10) {
		if (!isfinite(lo) || !isfinite(hi))
			lo = 1, hi = 10;
		/* The data, a little room either side; at least a decade shown. */
		f->y.lo = log10(lo) - 0.1, f->y.hi = log10(hi) + 0.1;
		if (f->y.hi - f->y.lo < 1)
			f->y.lo = (f->y.lo + f->y.hi - 1) / 2, f->y.hi = f->y.lo + 1;
		/* A crafted 1e-300 must not draw 600 decades of ticks. */
		if (f->y.hi - f->y.lo > 64)
			f->y.lo = f->y.hi - 64;
		return;
	}
	/* A linear y starts at 0: a bar's length, a line's height read from it. */
	f->y.lo = isfinite(lo) && lo < 0 ? lo * 1.08 : 0;
	f->y.hi = isfinite(hi) && hi > 0 && isfinite(hi * 1.08) ? hi * 1.08 : 1;
	if (!(f->y.hi > f->y.lo))
		f->y.hi = f->y.lo + 1;
}

size_t ccb_chart_y_ticks(const struct ccb_frame *f, double *t, size_t max)
{
	return f->y.kind == SCALE_LOG10 ? ccb_chart_ticks_log10(f->y.lo, f->y.hi, t, max)
	                                : ccb_chart_ticks_linear(f->y.lo, f->y.hi, 6, t, max);
}

size_t ccb_chart_x_ticks(const struct ccb_frame *f, double *t, size_t max)
{
	const struct ccb_chart *c = f->c;
	size_t n = 0;

	/* Where the data is: the few values a sweep has, else round ones. */
	for (size_t s = 0; s < c->n_series; s++)
		n += c->series[s].n;
	double *xs = calloc(n + 1, sizeof(double));
	size_t m = 0, r;

	if (!xs)
		return 0;
	for (size_t s = 0; s < c->n_series; s++)
		for (size_t i = 0; i < c->series[s].n; i++)
			if (ccb_chart_drawable(f, &c->series[s], i))
				xs[m++] = c->series[s].x[i];
	if (f->x.kind == SCALE_LOG2)
		r = ccb_chart_ticks_log2(xs, m, t, max);
	else if ((r = ccb_chart_ticks_at_data(xs, m, t, max)) == 0)
		r = ccb_chart_ticks_linear(f->x.lo, f->x.hi, 8, t, max);
	free(xs);
	return r;
}

void ccb_chart_tick_label(const struct ccb_frame *f, bool x_axis, double v, char *buf, size_t len)
{
	static const char *const unit[] = {"K", "M", "G", "T", "P"};

	if (x_axis && f->c->x_format == CCB_CHART_X_KIB && v > 0) {
		size_t u = 0;
		while (v >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0]))
			v /= 1024, u++;
		snprintf(buf, len, "%g%s", v, unit[u]);
		return;
	}
	/* A tick where the data is can be 2.00014 s: four digits say it. */
	snprintf(buf, len, x_axis ? "%.4g" : "%g", v);
}

/* The x ticks and their labels, thinned where they would touch. */
static void x_axis(const struct ccb_frame *f, const struct ccb_panel *p, FILE *out)
{
	double t[MAX_TICKS] = {0}, pos[MAX_TICKS + 1] = {0}, w[MAX_TICKS + 1] = {0};
	bool keep[MAX_TICKS + 1];
	char lab[MAX_TICKS + 1][32];
	size_t n = 0;

	if (f->x.has_zero) {
		t[n] = 0;
		n++;
	}
	n += ccb_chart_x_ticks(f, t + n, MAX_TICKS - n);
	for (size_t k = 0; k < n; k++) {
		ccb_chart_tick_label(f, true, t[k], lab[k], sizeof(lab[k]));
		pos[k] = ccb_scale_px(&p->xs, t[k]);
		w[k] = ccb_chart_text_px(lab[k], strlen(lab[k]), CCB_CHART_FONT_PX);
	}
	ccb_chart_thin(pos, w, n, 6, keep);
	for (size_t k = 0; k < n; k++) {
		if (!isfinite(pos[k]))
			continue;
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>",
		        pos[k], p->y1, pos[k], p->y1 + 5);
		if (keep[k])
			fprintf(out,
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%s</text>\n",
			        pos[k], p->y1 + 20, lab[k]);
	}
}

size_t ccb_chart_cat_lines(const struct ccb_frame *f, double slot_px)
{
	size_t most = 1, start[3], len[3];
	bool cut;

	for (size_t k = 0; f->bars && k < f->c->n_x_labels; k++) {
		char *d = ccb_chart_display(f->c->x_labels[k]);
		size_t n =
		    d ? ccb_chart_wrap(d, slot_px - 6, CCB_CHART_FONT_PX, 3, start, len, &cut) : 1;
		most = n > most ? n : most;
		free(d);
	}
	return most;
}

/* The category names under their groups, each wrapped to its slot. */
static void cat_axis(const struct ccb_frame *f, const struct ccb_panel *p, FILE *out)
{
	double slot = (p->x1 - p->x0) / (double)f->c->n_x_labels;

	for (size_t k = 0; k < f->c->n_x_labels; k++) {
		char *d = ccb_chart_display(f->c->x_labels[k]);
		size_t start[3], len[3], n;
		bool cut;
		double x = ccb_scale_px(&p->xs, (double)k);

		if (!d)
			continue;
		n = ccb_chart_wrap(d, slot - 6, CCB_CHART_FONT_PX, 3, start, len, &cut);
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>",
		        x, p->y1, x, p->y1 + 5);
		ccb_chart_text(out, x, p->y1 + 20, "middle", "class=\"cat\"", d, start, len, n,
		               cut);
		free(d);
	}
}

size_t ccb_chart_y_title(const struct ccb_frame *f, double room, char *buf, size_t buf_len,
                         size_t *start, size_t *len, bool *cut)
{
	char *d;

	snprintf(buf, buf_len, "%s%s%s", f->c->y_title ? f->c->y_title : "",
	         f->err_drawn && f->c->err_note ? ", " : "",
	         f->err_drawn && f->c->err_note ? f->c->err_note : "");
	d = ccb_chart_display(buf);
	if (d) {
		snprintf(buf, buf_len, "%s", d);
		free(d);
	}
	return ccb_chart_wrap(buf, room, CCB_CHART_FONT_PX, 2, start, len, cut);
}

/* The y grid, ticks and labels; the y title, turned, left of them. */
static void y_axis(const struct ccb_frame *f, const struct ccb_panel *p, FILE *out)
{
	double t[MAX_TICKS] = {0}, pos[MAX_TICKS] = {0}, h[MAX_TICKS] = {0}, last = INFINITY;
	size_t n = ccb_chart_y_ticks(f, t, MAX_TICKS), start[2], len[2], nl;
	char lab[32], title[512];
	bool cut;

	for (size_t k = 0; k < n; k++) {
		pos[k] = ccb_scale_px(&p->ys, t[k]);
		h[k] = CCB_CHART_LINE_PX;
		if (!isfinite(pos[k]))
			continue;
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>",
		        p->x0, pos[k], p->x1, pos[k]);
		/* Upwards, a label at least a line above the last one. */
		if (last - pos[k] < h[k] + 2)
			continue;
		last = pos[k];
		ccb_chart_tick_label(f, false, t[k], lab, sizeof(lab));
		fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
		        p->x0 - 6, pos[k] + 4, lab);
	}
	nl = ccb_chart_y_title(f, p->y1 - p->y0, title, sizeof(title), start, len, &cut);
	fprintf(out, "<g transform=\"translate(%.1f %.1f) rotate(-90)\">", p->left + 20,
	        (p->y0 + p->y1) / 2);
	ccb_chart_text(out, 0, 0, "middle", "class=\"axis-title\"", title, start, len, nl, cut);
	fputs("</g>\n", out);
}

const char *ccb_chart_x_title(const struct ccb_frame *f, char *buf, size_t len)
{
	char *d = ccb_chart_display(f->c->x_title);

	snprintf(buf, len, "%s%s", d ? d : "",
	         f->x.has_zero ? " (0: left of the axis break, apart from the log scale)" : "");
	free(d);
	return buf;
}

void ccb_chart_draw_axes(const struct ccb_frame *f, const struct ccb_panel *p, FILE *out)
{
	char xt[512];
	size_t start[2], len[2], n;
	bool cut;
	double below =
	    20 +
	    (double)(f->bars
	                 ? ccb_chart_cat_lines(f, (p->x1 - p->x0) / (double)f->c->n_x_labels) - 1
	                 : 0) *
	        CCB_CHART_LINE_PX;

	y_axis(f, p, out);
	if (f->x.has_zero) {
		/* The axis broken between 0 and the log scale: two slashes. */
		double b = p->x0 + 28;
		fprintf(
		    out,
		    "<path d=\"M%.1f %.1f V%.1f H%.1f M%.1f %.1f H%.1f\" stroke=\"#333\" "
		    "fill=\"none\"/><path d=\"M%.1f %.1f l4 -8 M%.1f %.1f l4 -8\" stroke=\"#333\" "
		    "fill=\"none\"/>\n",
		    p->x0, p->y0, p->y1, b - 3, b + 3, p->y1, p->x1, b - 7, p->y1 + 4, b - 1,
		    p->y1 + 4);
	} else {
		fprintf(out, "<path d=\"M%.1f %.1f V%.1f H%.1f\" stroke=\"#333\" fill=\"none\"/>\n",
		        p->x0, p->y0, p->y1, p->x1);
	}
	if (f->bars)
		cat_axis(f, p, out);
	else
		x_axis(f, p, out);
	ccb_chart_x_title(f, xt, sizeof(xt));
	n = ccb_chart_wrap(xt, p->x1 - p->x0, CCB_CHART_FONT_PX, 2, start, len, &cut);
	ccb_chart_text(out, (p->x0 + p->x1) / 2, p->y1 + below + 22, "middle",
	               "class=\"axis-title\"", xt, start, len, n, cut);
}
