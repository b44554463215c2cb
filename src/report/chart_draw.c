/*
 * What a chart's panel holds: its series (lines with markers and error
 * bars, or grouped bars on a categorical axis, never lines across
 * categories), its reference lines (an SLO across, a capacity or knee
 * upright) with their labels where they touch no other label and no
 * line, and its legend. The labels' places come from ccb_chart_place()
 * over the segments drawn here.
 */
#include "chart_layout.h"

#include "chart_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What is drawn, as segments a label must stay off. */
struct segs {
	double (*s)[4];
	size_t n, cap;
};

static void seg(struct segs *g, double x0, double y0, double x1, double y1)
{
	if (g->n < g->cap && isfinite(x0) && isfinite(y0) && isfinite(x1) && isfinite(y1)) {
		g->s[g->n][0] = x0, g->s[g->n][1] = y0, g->s[g->n][2] = x1, g->s[g->n][3] = y1;
		g->n++;
	}
}

/* A marker, as the two diagonals of its box. */
static void mark(struct segs *g, double x, double y)
{
	seg(g, x - 5, y - 5, x + 5, y + 5);
	seg(g, x - 5, y + 5, x + 5, y - 5);
}

static void err_bar(FILE *out, struct segs *g, const struct ccb_panel *p, double x, double y,
                    double e)
{
	double lo = ccb_scale_px(&p->ys, y - e), hi = ccb_scale_px(&p->ys, y + e);

	if (!isfinite(lo)) /* below a log axis' reach: to its bottom */
		lo = p->y1;
	if (!isfinite(hi))
		return;
	fprintf(out,
	        "<path class=\"err\" fill=\"none\" stroke-dasharray=\"none\" stroke-width=\"1.2\" "
	        "d=\"M%.1f %.1f V%.1f M%.1f %.1f H%.1f M%.1f %.1f H%.1f\"/>",
	        x, lo, hi, x - 4, lo, x + 4, x - 4, hi, x + 4);
	seg(g, x, lo, x, hi);
}

/* What a series looks like, said in data- attributes (the browser test
 * compares them with what is drawn). */
static void style_attrs(const struct ccb_frame *f, const struct ccb_chart_style *st, FILE *out)
{
	fprintf(out, " data-color=\"%s\" data-marker=\"%s\" data-dash=\"%s\"", st->color,
	        st->marker,
	        f->bars       ? "bar"
	        : st->dash[0] ? st->dash
	                      : "solid");
}

static void series_open(const struct ccb_frame *f, size_t s, FILE *out)
{
	const struct ccb_chart_style *st = ccb_chart_style_at(f->sp.style_of[s]);

	fputs("<g class=\"series\"", out);
	style_attrs(f, st, out);
	fprintf(out, " stroke=\"%s\" fill=\"%s\"><title>", st->color, st->color);
	ccb_chart_xml(out, f->labels[s], strlen(f->labels[s]));
	fputs("</title>\n", out);
}

/* A series as a line: the points on the scale joined, those drawn apart
 * (0 on a log2 axis) only marked. */
static void draw_line(const struct ccb_frame *f, const struct ccb_panel *p, size_t s,
                      struct segs *g, FILE *out)
{
	const struct ccb_chart_series *se = &f->c->series[s];
	const struct ccb_chart_style *st = ccb_chart_style_at(f->sp.style_of[s]);
	double lx = NAN, ly = NAN;
	bool first = true;

	series_open(f, s, out);
	fprintf(out, "<polyline fill=\"none\" stroke-width=\"2\"%s%s%s points=\"",
	        st->dash[0] ? " stroke-dasharray=\"" : "", st->dash, st->dash[0] ? "\"" : "");
	for (size_t i = 0; i < se->n; i++) {
		double x = ccb_scale_px(&p->xs, se->x[i]), y = ccb_scale_px(&p->ys, se->y[i]);

		if (!ccb_chart_drawable(f, se, i) || (f->c->x_log2 && se->x[i] <= 0) ||
		    !isfinite(x) || !isfinite(y))
			continue;
		fprintf(out, "%s%.1f,%.1f", first ? "" : " ", x, y);
		if (!first)
			seg(g, lx, ly, x, y);
		lx = x, ly = y, first = false;
	}
	fputs("\"/>\n", out);
	for (size_t i = 0; i < se->n; i++) {
		double x = ccb_scale_px(&p->xs, se->x[i]), y = ccb_scale_px(&p->ys, se->y[i]);

		if (!ccb_chart_drawable(f, se, i) || !isfinite(x) || !isfinite(y))
			continue;
		if (se->err && se->err[i] > 0)
			err_bar(out, g, p, x, se->y[i], se->err[i]);
		ccb_chart_marker(out, st, x, y);
		mark(g, x, y);
	}
	fputs("\n</g>\n", out);
}

/* A series as bars, the @p j-th of @p n in each category's group (markers
 * alone on a log y, where a bar has no base). */
static void draw_bars(const struct ccb_frame *f, const struct ccb_panel *p, size_t s, size_t j,
                      size_t n, struct segs *g, FILE *out)
{
	const struct ccb_chart_series *se = &f->c->series[s];
	const struct ccb_chart_style *st = ccb_chart_style_at(f->sp.style_of[s]);
	double slot = (p->x1 - p->x0) / (double)f->c->n_x_labels, group = slot * 0.8;
	double bw = group / (double)n, base = ccb_scale_px(&p->ys, 0);

	series_open(f, s, out);
	for (size_t i = 0; i < se->n; i++) {
		double cx, y;

		if (!ccb_chart_drawable(f, se, i))
			continue;
		cx = ccb_scale_px(&p->xs, floor(se->x[i])) - group / 2 + ((double)j + 0.5) * bw;
		y = ccb_scale_px(&p->ys, se->y[i]);
		if (!isfinite(y))
			continue;
		if (!f->c->y_log10 && isfinite(base)) {
			fprintf(out,
			        "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
			        "fill-opacity=\"0.55\" stroke-width=\"1\"/>",
			        cx - bw / 2 + 1, fmin(y, base), fmax(bw - 2, 1), fabs(base - y));
			seg(g, cx - bw / 2, y, cx + bw / 2, y);
		}
		if (se->err && se->err[i] > 0)
			err_bar(out, g, p, cx, se->y[i], se->err[i]);
		ccb_chart_marker(out, st, cx, y);
		mark(g, cx, y);
	}
	fputs("\n</g>\n", out);
}

/* A reference line's label: its text (display) and its box's size. */
struct ref {
	bool horiz;
	double at; /* pixel of the line */
	char *text;
	double w;
	const char *color, *dash;
};

/* The box of a label whose baseline starts at (x, y). */
static struct ccb_chart_box text_box(double x, double y, double w)
{
	return (struct ccb_chart_box){x, y - 12, x + w, y + 4};
}

/* Candidates beside the line, in order of preference: an SLO at the
 * plot's right end above the line, then below, then along it; a found
 * figure at the plot's top right of its line, then left, row by row. */
static size_t candidates(const struct ccb_panel *p, const struct ref *r, struct ccb_chart_box *c)
{
	static const double along[] = {1, 0, 0.5, 0.25, 0.75};
	size_t n = 0;

	if (r->horiz) {
		for (size_t a = 0; a < 5; a++)
			for (int below = 0; below < 2; below++) {
				double x = p->x0 + 4 + along[a] * (p->x1 - p->x0 - 8 - r->w);
				c[n++] = text_box(x, below ? r->at + 17 : r->at - 5, r->w);
			}
		return n;
	}
	for (double y = p->y0 + 16; y + 4 <= p->y1 && n < 24; y += CCB_CHART_LINE_PX)
		for (int left = 0; left < 2; left++)
			c[n++] = text_box(left ? r->at - 5 - r->w : r->at + 5, y, r->w);
	return n;
}

static bool inside(const struct ccb_panel *p, const struct ccb_chart_box *b)
{
	return b->x0 >= p->x0 + 1 && b->x1 <= p->x1 - 1 && b->y0 >= p->y0 && b->y1 <= p->y1;
}

/* The panel's reference lines (NULL text: not drawn on this scale). */
static size_t refs_of(const struct ccb_frame *f, const struct ccb_panel *p, struct ref *r)
{
	const struct ccb_chart *c = f->c;
	size_t n = 0;

	for (size_t k = 0; k < c->n_hlines + c->n_vlines; k++) {
		bool h = k < c->n_hlines;
		const struct ccb_chart_line *l = h ? &c->hlines[k] : &c->vlines[k - c->n_hlines];
		double at = ccb_scale_px(h ? &p->ys : &p->xs, l->value);

		if (!isfinite(at) || (!h && (c->x_log2 || f->bars)))
			continue;
		r[n] = (struct ref){
		    h, at, ccb_chart_display(l->label), 0, h ? "#c00" : "#555", h ? "6 4" : "2 3"};
		if (r[n].text)
			r[n].w = ccb_chart_text_px(r[n].text, strlen(r[n].text), CCB_CHART_FONT_PX);
		n++;
	}
	return n;
}

/* Where each label goes: @p pos[k] a baseline beside its line, or in_band. */
static int place_refs(const struct ccb_panel *p, const struct ref *r, size_t n,
                      const struct segs *g, struct ccb_ref_label *pos)
{
	struct ccb_chart_box *taken = calloc(n + 1, sizeof(*taken)), c[48], ok[48];
	double(*all)[4] = calloc(g->n + n + 1, sizeof(*all));
	size_t nt = 0;

	if (!taken || !all) {
		free(taken);
		free(all);
		return -ENOMEM;
	}
	memcpy(all, g->s, g->n * sizeof(*all));
	for (size_t k = 0; k < n; k++) {
		size_t nc = candidates(p, &r[k], c), m = 0, na = g->n, at;

		/* Off the series and off the other reference lines. */
		for (size_t o = 0; o < n; o++)
			if (o != k) {
				all[na][0] = r[o].horiz ? p->x0 : r[o].at;
				all[na][1] = r[o].horiz ? r[o].at : p->y0;
				all[na][2] = r[o].horiz ? p->x1 : r[o].at;
				all[na][3] = r[o].horiz ? r[o].at : p->y1;
				na++;
			}
		for (size_t i = 0; i < nc; i++)
			if (inside(p, &c[i]))
				ok[m++] = c[i];
		at = ccb_chart_place(
		    ok, m, &(struct ccb_chart_obstacles){taken, nt, (const double(*)[4])all, na},
		    false);
		pos[k].in_band = at == SIZE_MAX;
		if (!pos[k].in_band) {
			pos[k].x = ok[at].x0, pos[k].y = ok[at].y0 + 12;
			taken[nt++] = ok[at];
		}
	}
	free(taken);
	free(all);
	return 0;
}

/* Draw (when @p out) the panel's series, collecting their segments in @p g. */
static void draw_series(const struct ccb_frame *f, const struct ccb_panel *p, struct segs *g,
                        FILE *out)
{
	for (size_t j = 0; j < p->n; j++) {
		if (f->bars)
			draw_bars(f, p, p->idx[j], j, p->n, g, out);
		else
			draw_line(f, p, p->idx[j], g, out);
	}
}

static int with_refs(const struct ccb_frame *f, struct ccb_panel *p, FILE *out, int *n_band)
{
	const struct ccb_chart *c = f->c;
	size_t cap = 16, nr, band = 0;
	struct ref *r = calloc(c->n_hlines + c->n_vlines + 1, sizeof(*r));
	struct ccb_ref_label *pos = calloc(c->n_hlines + c->n_vlines + 1, sizeof(*pos));
	struct segs g = {0};
	FILE *sink = out ? out : ccb_chart_null_stream();
	int rc = -ENOMEM;

	for (size_t j = 0; j < p->n; j++)
		cap += c->series[p->idx[j]].n * 6;
	g.s = calloc(cap, sizeof(*g.s));
	g.cap = cap;
	if (!r || !pos || !g.s || !sink)
		goto out;
	nr = refs_of(f, p, r);
	/* The lines under the series, their labels over them. */
	for (size_t k = 0; out && k < nr; k++)
		fprintf(out,
		        "<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"%s\" stroke-dasharray=\"%s\"/>\n",
		        r[k].horiz ? p->x0 : r[k].at, r[k].horiz ? r[k].at : p->y0,
		        r[k].horiz ? p->x1 : r[k].at, r[k].horiz ? r[k].at : p->y1, r[k].color,
		        r[k].dash);
	draw_series(f, p, &g, sink);
	if ((rc = place_refs(p, r, nr, &g, pos)) < 0)
		goto out;
	for (size_t k = 0; k < nr; k++) {
		double x = pos[k].x, y = pos[k].y;

		if (!r[k].text)
			continue;
		if (pos[k].in_band) {
			/* In the margin above the plot, after a sample of its line. */
			y = p->band_y + CCB_CHART_LINE_PX * (double)band++;
			x = p->x0 + 28;
			if (out)
				fprintf(out,
				        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				        "stroke=\"%s\" stroke-dasharray=\"%s\"/>",
				        p->x0 + 2, y - 4, p->x0 + 24, y - 4, r[k].color, r[k].dash);
		}
		if (out) {
			fprintf(out,
			        "<text class=\"ref-label\" x=\"%.1f\" y=\"%.1f\" fill=\"%s\" "
			        "stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\">",
			        x, y, r[k].color);
			ccb_chart_xml(out, r[k].text, strlen(r[k].text));
			fputs("</text>\n", out);
		}
	}
	*n_band = (int)band;
	rc = 0;
out:
	for (size_t k = 0; r && k < c->n_hlines + c->n_vlines; k++)
		free(r[k].text);
	free(r);
	free(pos);
	free(g.s);
	if (sink && sink != out)
		fclose(sink);
	return rc;
}

int ccb_chart_draw_panel(const struct ccb_frame *f, struct ccb_panel *p, FILE *out)
{
	int band;

	return with_refs(f, p, out, &band);
}

int ccb_chart_band_count(const struct ccb_frame *f, const struct ccb_panel *p)
{
	int band = 0, r = with_refs(f, (struct ccb_panel *)p, NULL, &band);

	return r < 0 ? r : band;
}

void ccb_chart_draw_legend(const struct ccb_frame *f, const struct ccb_chart_legend *lg,
                           const char *const *names, const size_t *styles, const char *header,
                           double x, double y, FILE *out)
{
	fprintf(out, "<g class=\"legend\" transform=\"translate(%.1f %.1f)\">\n", x, y);
	if (header && header[0]) {
		fprintf(out, "<text class=\"legend-header\" x=\"0\" y=\"%.1f\" fill=\"#444\">",
		        lg->header_y);
		ccb_chart_xml(out, header, strlen(header));
		fputs("</text>\n", out);
	}
	for (size_t i = 0; i < lg->n; i++) {
		const struct ccb_chart_legend_entry *e = &lg->e[i];
		const struct ccb_chart_style *st = ccb_chart_style_at(styles[i]);
		double my = e->y - 4;

		fputs("<g class=\"legend-entry\"", out);
		style_attrs(f, st, out);
		fputc('>', out);
		if (f->bars)
			fprintf(
			    out,
			    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"10\" fill=\"%s\" "
			    "fill-opacity=\"0.55\" stroke=\"%s\"/>",
			    e->x + 2, my - 5, CCB_CHART_SAMPLE_PX - 4, st->color, st->color);
		else
			fprintf(
			    out,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2\"%s%s%s/>",
			    e->x, my, e->x + CCB_CHART_SAMPLE_PX, my, st->color,
			    st->dash[0] ? " stroke-dasharray=\"" : "", st->dash,
			    st->dash[0] ? "\"" : "");
		ccb_chart_marker(out, st, e->x + CCB_CHART_SAMPLE_PX / 2, my);
		ccb_chart_text(out, e->x + CCB_CHART_SAMPLE_PX + CCB_CHART_SAMPLE_GAP, e->y,
		               "start", NULL, names[i], e->start, e->len, e->n_lines, e->cut);
		fputs("</g>\n", out);
	}
	fputs("</g>\n", out);
}
