/*
 * SVG charts written by hand: a chart is a few hundred lines of markup,
 * not worth a plotting dependency, and it must render offline. This file
 * lays a chart out (its title, panels, legends) and writes the document;
 * the rules it follows are chart_layout.h's, the axes chart_axis.c's, the
 * series and labels chart_draw.c's, the styles chart_style.c's.
 */
#include "chart.h"
#include "chart_layout.h"

#include "chart_int.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define W        960.0
#define TITLE_PX 15.0

/* A legend's entries: a name per style, in the order the series come. */
struct legend_set {
	struct ccb_chart_legend lg;
	const char **names;
	size_t *styles, n;
	double x, y;
};

/* The entries of panel @p panel's legend (SIZE_MAX: of every panel). */
static int entries(const struct ccb_frame *f, size_t panel, struct legend_set *ls)
{
	size_t n = f->c->n_series;

	ls->names = calloc(n + 1, sizeof(*ls->names));
	ls->styles = calloc(n + 1, sizeof(*ls->styles));
	if (!ls->names || !ls->styles)
		return -ENOMEM;
	for (size_t s = 0; s < n; s++) {
		size_t j = 0, st = f->sp.style_of[s];

		if (f->sp.panel_of[s] == SIZE_MAX ||
		    (panel != SIZE_MAX && f->sp.panel_of[s] != panel))
			continue;
		while (j < ls->n && ls->styles[j] != st)
			j++;
		if (j < ls->n)
			continue;
		ls->names[ls->n] = f->sp.names[s];
		ls->styles[ls->n++] = st;
	}
	return 0;
}

/* The widest y tick label, for the left margin. */
static double y_ticks_w(const struct ccb_frame *f)
{
	double t[64], w = 0;
	size_t n = ccb_chart_y_ticks(f, t, 64);
	char lab[32];

	for (size_t k = 0; k < n; k++) {
		ccb_chart_tick_label(f, false, t[k], lab, sizeof(lab));
		w = fmax(w, ccb_chart_text_px(lab, strlen(lab), CCB_CHART_FONT_PX));
	}
	return w;
}

/* The panels' boxes and scales, in a column (one) or two. */
static void place_panels(struct ccb_frame *f, double title_h, double left_m, double right_m,
                         double plot_h, double bottom, double legend_h)
{
	bool one = f->n_panels == 1;
	double pw = one ? W : W / 2, head = one ? 0 : 22;
	double panel_h = head + f->band_h + 8 + plot_h + bottom + legend_h;

	for (size_t i = 0; i < f->n_panels; i++) {
		struct ccb_panel *p = &f->panels[i];
		double left = (double)(i % 2) * pw * !one,
		       top = title_h + (double)(i / (one ? 1 : 2)) * panel_h;

		p->left = left;
		p->top = top;
		p->x0 = left + left_m;
		p->x1 = left + pw - right_m;
		p->y0 = top + head + f->band_h + 8;
		p->y1 = p->y0 + plot_h;
		p->band_y = p->y0 - f->band_h + 8;
		p->legend_x = left + 20;
		p->legend_y = p->y1 + bottom;
		p->xs = f->x;
		p->xs.p0 = p->x0 + (f->x.has_zero ? 44 : 0);
		p->xs.p1 = p->x1;
		p->xs.zero_px = p->x0 + 14;
		p->ys = f->y;
		p->ys.p0 = p->y1;
		p->ys.p1 = p->y0;
	}
	f->H = title_h + ceil((double)f->n_panels / (one ? 1 : 2)) * panel_h;
}

static int layout(struct ccb_frame *f, struct legend_set *ls, double title_h)
{
	bool one = f->n_panels == 1, per_panel = !f->sp.shared;
	double pw = one ? W : W / 2, plot_h = one ? 340 : 220, legend_h = 0, right_m = 20;
	size_t start[2], len[2], nyl, nxl, ncl;
	char buf[512];
	bool cut;
	double left_m, plot_w, bottom;

	nyl = ccb_chart_y_title(f, plot_h, buf, sizeof(buf), start, len, &cut);
	left_m = 8 + (double)nyl * CCB_CHART_LINE_PX + f->yt_w + 12;
	if (one) {
		if (ccb_chart_legend_fit(ls[0].names, ls[0].n, f->sp.header, 260, plot_h, W - 40,
		                         &ls[0].lg) < 0)
			return -ENOMEM;
		if (!ls[0].lg.below)
			right_m = ls[0].lg.width + 44;
	}
	for (size_t i = 0; i < f->n_legends && !one; i++) {
		if (ccb_chart_legend_fit(ls[i].names, ls[i].n, f->sp.header, 0, 0,
		                         per_panel ? pw - 40 : W - 40, &ls[i].lg) < 0)
			return -ENOMEM;
		if (per_panel)
			legend_h = fmax(legend_h, ls[i].lg.height + 8);
	}
	plot_w = pw - left_m - right_m;
	ncl = f->bars ? ccb_chart_cat_lines(f, plot_w / (double)f->c->n_x_labels) : 1;
	nxl = ccb_chart_wrap(ccb_chart_x_title(f, buf, sizeof(buf)), plot_w, CCB_CHART_FONT_PX, 2,
	                     start, len, &cut);
	bottom = 20 + (double)(ncl - 1) * CCB_CHART_LINE_PX + 22 +
	         (double)(nxl - 1) * CCB_CHART_LINE_PX + 16;
	place_panels(f, title_h, left_m, right_m, plot_h, bottom, legend_h);
	for (size_t i = 0; i < f->n_legends; i++) {
		struct ccb_panel *p = &f->panels[per_panel ? i : 0];

		ls[i].x = one && !ls[i].lg.below ? p->x1 + 30 : per_panel ? p->legend_x : 20;
		ls[i].y = one && !ls[i].lg.below ? p->y0
		          : per_panel || one     ? p->legend_y
		                                 : f->H + 4;
		if (!per_panel && ls[i].lg.below)
			f->H = ls[i].y + ls[i].lg.height + 12;
	}
	return 0;
}

/* The panels' series, each panel's indices into the chart's. */
static int make_panels(struct ccb_frame *f)
{
	f->n_panels = f->sp.n_panels ? f->sp.n_panels : 1;
	f->panels = calloc(f->n_panels, sizeof(*f->panels));
	if (!f->panels)
		return -ENOMEM;
	for (size_t i = 0; i < f->n_panels; i++) {
		struct ccb_panel *p = &f->panels[i];

		p->idx = calloc(f->c->n_series + 1, sizeof(*p->idx));
		if (!p->idx)
			return -ENOMEM;
		p->title = f->sp.titles ? f->sp.titles[i] : NULL;
		for (size_t s = 0; s < f->c->n_series; s++)
			if (f->sp.panel_of[s] == i)
				p->idx[p->n++] = s;
	}
	return 0;
}

static void frame_free(struct ccb_frame *f, struct legend_set *ls)
{
	for (size_t i = 0; ls && i < f->n_legends; i++) {
		ccb_chart_legend_free(&ls[i].lg);
		free(ls[i].names);
		free(ls[i].styles);
	}
	free(ls);
	for (size_t i = 0; f->panels && i < f->n_panels; i++)
		free(f->panels[i].idx);
	free(f->panels);
	for (size_t s = 0; f->labels && s < f->c->n_series; s++)
		free(f->labels[s]);
	free(f->labels);
	ccb_chart_split_free(&f->sp, f->c->n_series);
}

/* Everything but the drawing: the split, ranges, legends, layout. */
static int build(struct ccb_frame *f, struct legend_set **lsp, double title_h)
{
	const struct ccb_chart *c = f->c;
	struct legend_set *ls;
	int band = 0;

	f->bars = c->x_labels && c->n_x_labels;
	f->labels = calloc(c->n_series + 1, sizeof(*f->labels));
	if (!f->labels)
		return -ENOMEM;
	for (size_t s = 0; s < c->n_series; s++)
		if (!(f->labels[s] = ccb_chart_display(c->series[s].label)))
			return -ENOMEM;
	/* A group of bars holds fewer series than a plot holds lines. */
	if (ccb_chart_split(c->series, c->series_keys, c->n_series,
	                    f->bars ? 6 : CCB_CHART_MAX_STYLES, &f->sp) < 0 ||
	    make_panels(f) < 0)
		return -ENOMEM;
	/* The legend's names and header are the documents' strings: escaped. */
	for (size_t s = 0; s < c->n_series; s++) {
		char *d = ccb_chart_display(f->sp.names[s]);
		if (!d)
			return -ENOMEM;
		free(f->sp.names[s]);
		f->sp.names[s] = d;
	}
	{
		char *d = ccb_chart_display(f->sp.header);
		if (!d)
			return -ENOMEM;
		snprintf(f->sp.header, sizeof(f->sp.header), "%s", d);
		free(d);
	}
	ccb_chart_ranges(f);
	f->yt_w = y_ticks_w(f);
	f->n_legends = f->sp.shared ? 1 : f->n_panels;
	ls = *lsp = calloc(f->n_legends + 1, sizeof(*ls));
	if (!ls)
		return -ENOMEM;
	for (size_t i = 0; i < f->n_legends; i++)
		if (entries(f, f->sp.shared ? SIZE_MAX : i, &ls[i]) < 0)
			return -ENOMEM;
	if (layout(f, ls, title_h) < 0)
		return -ENOMEM;
	/* Labels with no place beside their lines: a band above the plots. The
	 * band moves the plots down, not their insides, so the count holds. */
	for (size_t i = 0; i < f->n_panels; i++) {
		int b = ccb_chart_band_count(f, &f->panels[i]);
		if (b < 0)
			return b;
		band = b > band ? b : band;
	}
	if (band == 0)
		return 0;
	f->band_h = (double)band * CCB_CHART_LINE_PX + 4;
	for (size_t i = 0; i < f->n_legends; i++)
		ccb_chart_legend_free(&ls[i].lg);
	return layout(f, ls, title_h);
}

/* The chart's title, wrapped to the page: its lines. */
static size_t title_lines(const char *t, size_t *start, size_t *len, bool *cut)
{
	return ccb_chart_wrap(t, W - 40, TITLE_PX, 3, start, len, cut);
}

static void write_title(FILE *out, const char *t, const size_t *start, const size_t *len, size_t n,
                        bool cut)
{
	fprintf(out,
	        "<text class=\"chart-title\" x=\"%.0f\" y=\"24\" font-size=\"15\" "
	        "text-anchor=\"middle\">",
	        W / 2);
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "<tspan x=\"%.0f\" dy=\"%s\">", W / 2, i ? "20" : "0");
		ccb_chart_xml(out, t + start[i], len[i]);
		fputs(cut && i + 1 == n ? "\xe2\x80\xa6</tspan>" : "</tspan>", out);
	}
	fputs("</text>\n", out);
}

static int draw(struct ccb_frame *f, struct legend_set *ls, const char *title, size_t *ts,
                size_t *tl, size_t nt, bool tcut, bool inline_svg, FILE *out)
{
	if (!inline_svg)
		fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out,
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"ccb-chart\" width=\"%.0f\" "
	        "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" "
	        "font-size=\"12\"%s>\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
	        W, f->H, W, f->H, inline_svg ? " style=\"max-width:100%;height:auto\"" : "");
	write_title(out, title, ts, tl, nt, tcut);
	for (size_t i = 0; i < f->n_panels; i++) {
		struct ccb_panel *p = &f->panels[i];
		size_t start[1], len[1];
		bool cut;

		fprintf(out, "<g class=\"panel\">\n");
		if (p->title) {
			char *d = ccb_chart_display(p->title);
			size_t n = d ? ccb_chart_wrap(d, p->x1 - p->x0, CCB_CHART_FONT_PX, 1, start,
			                              len, &cut)
			             : 0;
			if (d)
				ccb_chart_text(out, (p->x0 + p->x1) / 2, p->top + 16, "middle",
				               "class=\"panel-title\" font-weight=\"bold\"", d,
				               start, len, n, cut);
			free(d);
		}
		ccb_chart_draw_axes(f, p, out);
		if (ccb_chart_draw_panel(f, p, out) < 0)
			return -ENOMEM;
		fputs("</g>\n", out);
	}
	for (size_t i = 0; i < f->n_legends; i++)
		ccb_chart_draw_legend(f, &ls[i].lg, ls[i].names, ls[i].styles, f->sp.header,
		                      ls[i].x, ls[i].y, out);
	if (f->sp.not_drawn)
		fprintf(out,
		        "<text class=\"note\" x=\"20\" y=\"%.0f\">%zu more series not drawn (past "
		        "%d small charts): the tables have them</text>\n",
		        f->H - 8, f->sp.not_drawn, CCB_CHART_MAX_PANELS);
	fputs("</svg>\n", out);
	return 0;
}

static int render(const struct ccb_chart *c, FILE *out, bool inline_svg)
{
	struct ccb_frame f = {.c = c};
	struct legend_set *ls = NULL;
	char *title = ccb_chart_display(c->title);
	size_t ts[3], tl[3], nt;
	bool tcut;
	int r = -ENOMEM;

	if (!title)
		return -ENOMEM;
	nt = title_lines(title, ts, tl, &tcut);
	if (build(&f, &ls, 24 + (double)(nt - 1) * 20 + 12) == 0) {
		if (f.sp.not_drawn)
			f.H += 20;
		r = draw(&f, ls, title, ts, tl, nt, tcut, inline_svg, out);
	}
	frame_free(&f, ls);
	free(title);
	if (r == 0 && ferror(out))
		r = -EIO;
	return r;
}

int ccb_chart_svg(const struct ccb_chart *c, FILE *out)
{
	return render(c, out, false);
}

int ccb_chart_svg_inline(const struct ccb_chart *c, FILE *out)
{
	return render(c, out, true);
}

void ccb_chart_xml_text(FILE *out, const char *s)
{
	char *d = ccb_chart_display(s);

	ccb_chart_xml(out, d ? d : "", d ? strlen(d) : 0);
	free(d);
}
