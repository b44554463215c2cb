/*
 * SVG line charts written by hand: a chart is a few hundred lines of
 * markup, not worth a plotting dependency, and it must render offline.
 */
#include <ccbench/chart.h>

#include <errno.h>
#include <math.h>
#include <string.h>

#define W 900.0
#define H 520.0
#define L 80.0  /* left margin: y tick labels and title */
#define R 220.0 /* right margin: legend */
#define T 50.0
#define B 70.0

static const char *const colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                     "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};

static void esc(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '&':
			fputs("&amp;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		default:
			/* XML 1.0 has no control characters but tab, LF and CR. */
			if ((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' && *s != '\r')
				fputc('?', out);
			else
				fputc(*s, out);
		}
	}
}

/* On a log2 axis, 0 (readahead off) sits one step left of the smallest
 * positive value, labelled "0", instead of at minus infinity. */
static double zero_at;

static double axis_value(const struct ccb_chart *c, double x)
{
	return c->x_log2 ? (x > 0 ? log2(x) : zero_at) : x;
}

static double tx(const struct ccb_chart *c, double x, double lo, double hi)
{
	double v = axis_value(c, x);
	return L + (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (W - L - R);
}

/* On a log10 y axis, hi and y_lo are decades: y_lo the bottom one. */
static bool y_log;
static double y_lo;

static double ty(double y, double hi)
{
	if (y_log) {
		double v = y > 0 ? log10(y) : y_lo;
		return H - B - (hi > y_lo ? (v - y_lo) / (hi - y_lo) : 0.5) * (H - T - B);
	}
	return H - B - (hi > 0 ? y / hi : 0) * (H - T - B);
}

/* A round step for about 6 ticks on [0, hi]. */
static double nice_step(double hi)
{
	double raw = hi / 6, mag = pow(10, floor(log10(raw > 0 ? raw : 1)));
	double f = raw / mag;

	return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * mag;
}

/* A point is drawn only when x, y and its error bar are finite numbers. */
static bool drawable(const struct ccb_chart_series *se, size_t i)
{
	return isfinite(se->x[i]) && isfinite(se->y[i]) && (!se->err || isfinite(se->err[i])) &&
	       (!y_log || se->y[i] > 0);
}

/* The decades a log10 axis spans: every positive y and every hline. */
static void log_range(const struct ccb_chart *c, double *lo, double *hi)
{
	double mn = INFINITY, mx = -INFINITY;

	for (size_t s = 0; s < c->n_series; s++)
		for (size_t i = 0; i < c->series[s].n; i++)
			if (drawable(&c->series[s], i)) {
				mn = fmin(mn, c->series[s].y[i]);
				mx = fmax(mx, c->series[s].y[i]);
			}
	for (size_t k = 0; k < c->n_hlines; k++)
		if (isfinite(c->hlines[k].value) && c->hlines[k].value > 0) {
			mn = fmin(mn, c->hlines[k].value);
			mx = fmax(mx, c->hlines[k].value);
		}
	if (!isfinite(mn) || !isfinite(mx))
		mn = 1, mx = 10;
	*lo = floor(log10(mn));
	*hi = ceil(log10(mx));
	if (*hi <= *lo)
		*hi = *lo + 1;
	/* At most MAX_TICKS decades: a crafted 1e-300 must not draw 600 ticks. */
	if (*hi - *lo > 64)
		*lo = *hi - 64;
}

/*
 * Ticks from @p first by @p step up to @p hi, at most MAX_TICKS of them. A
 * counter, not x += step: with values far from zero (1e17) a step below
 * their precision never advances x, and an infinite step never ends.
 */
#define MAX_TICKS 64

static size_t n_ticks(double first, double step, double hi)
{
	double n;

	if (!isfinite(first) || !isfinite(step) || !isfinite(hi) || step <= 0 || first > hi + 1e-9)
		return 0;
	n = floor((hi + 1e-9 - first) / step) + 1;
	return n > MAX_TICKS ? MAX_TICKS : n < 0 ? 0 : (size_t)n;
}

int ccb_chart_svg(const struct ccb_chart *c, FILE *out)
{
	double xlo = INFINITY, xhi = -INFINITY, yhi = 0, minpos = INFINITY;
	bool has_zero = false;

	y_log = c->y_log10;

	for (size_t s = 0; s < c->n_series; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			if (!drawable(&c->series[s], i))
				continue;
			if (c->series[s].x[i] > 0)
				minpos = fmin(minpos, c->series[s].x[i]);
			else
				has_zero = true;
		}
	zero_at = isfinite(minpos) ? floor(log2(minpos)) - 1 : 0;
	for (size_t s = 0; s < c->n_series; s++) {
		const struct ccb_chart_series *se = &c->series[s];
		for (size_t i = 0; i < se->n; i++) {
			double x = axis_value(c, se->x[i]);
			if (!drawable(se, i))
				continue;
			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
			yhi = fmax(yhi, se->y[i] + (se->err ? se->err[i] : 0));
		}
	}
	if (!isfinite(xlo) || !isfinite(xhi))
		xlo = 0, xhi = 1;
	if (c->x_labels && c->n_x_labels)
		xlo = -0.5, xhi = (double)c->n_x_labels - 0.5;
	for (size_t k = 0; k < c->n_vlines; k++)
		if (isfinite(c->vlines[k].value) && !c->x_log2 && !c->x_labels) {
			xlo = fmin(xlo, c->vlines[k].value);
			xhi = fmax(xhi, c->vlines[k].value);
		}
	for (size_t k = 0; k < c->n_hlines; k++)
		if (isfinite(c->hlines[k].value))
			yhi = fmax(yhi, c->hlines[k].value);
	yhi = yhi > 0 && isfinite(yhi * 1.08) ? yhi * 1.08 : yhi > 0 ? yhi : 1;
	if (y_log)
		log_range(c, &y_lo, &yhi);
	fprintf(out,
	        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
	        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
	        "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" font-size=\"12\">\n",
	        W, H, W, H);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(out, "<text x=\"%.0f\" y=\"28\" font-size=\"16\" text-anchor=\"middle\">", W / 2);
	esc(out, c->title);
	fprintf(out, "</text>\n");
	/* Axes, grid and ticks. */
	fprintf(out, "<g stroke=\"#333\" fill=\"none\"><path d=\"M%.1f %.1f V%.1f H%.1f\"/></g>\n",
	        L, T, H - B, W - R);
	double step = y_log ? 1 : nice_step(yhi);
	for (size_t k = 0, nk = n_ticks(y_log ? y_lo : 0, step, yhi); k < nk; k++) {
		double y = y_log ? pow(10, y_lo + (double)k) : (double)k * step;
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
		        L, ty(y, yhi), W - R, ty(y, yhi), L - 6, ty(y, yhi) + 4, y);
	}
	if (c->x_log2 && has_zero)
		fprintf(out,
		        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>"
		        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">0</text>\n",
		        tx(c, 0, xlo, xhi), H - B, tx(c, 0, xlo, xhi), H - B + 5,
		        tx(c, 0, xlo, xhi), H - B + 20);
	if (c->x_log2) {
		double e0 = ceil(has_zero ? zero_at + 1 : xlo);
		/* One tick per power of two; on a span wider than MAX_TICKS, every k-th. */
		double es = fmax(1, ceil((floor(xhi) - e0) / MAX_TICKS));
		for (size_t k = 0, nk = n_ticks(e0, es, floor(xhi)); k < nk; k++) {
			double x = pow(2, e0 + (double)k * es);
			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#333\"/>"
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			        tx(c, x, xlo, xhi), H - B, tx(c, x, xlo, xhi), H - B + 5,
			        tx(c, x, xlo, xhi), H - B + 20, x);
		}
	} else if (c->x_labels) {
		/* Names, one tick each, half a step of room at either end. */
		for (size_t k = 0; k < c->n_x_labels; k++) {
			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#333\"/>"
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">",
			        tx(c, (double)k, xlo, xhi), H - B, tx(c, (double)k, xlo, xhi),
			        H - B + 5, tx(c, (double)k, xlo, xhi), H - B + 20);
			esc(out, c->x_labels[k]);
			fprintf(out, "</text>\n");
		}
	} else {
		double xs = nice_step(xhi - xlo > 0 ? xhi - xlo : 1), x0 = ceil(xlo / xs) * xs;
		for (size_t k = 0, nk = n_ticks(x0, xs, xhi); k < nk; k++) {
			double x = x0 + (double)k * xs;
			fprintf(out,
			        "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			        "stroke=\"#333\"/>"
			        "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			        tx(c, x, xlo, xhi), H - B, tx(c, x, xlo, xhi), H - B + 5,
			        tx(c, x, xlo, xhi), H - B + 20, x);
		}
	}
	fprintf(out, "<text x=\"%.0f\" y=\"%.0f\" text-anchor=\"middle\">", (L + W - R) / 2,
	        H - B + 45);
	esc(out, c->x_title);
	fprintf(out,
	        "</text>\n<text transform=\"translate(22 %.0f) rotate(-90)\" "
	        "text-anchor=\"middle\">",
	        (T + H - B) / 2);
	esc(out, c->y_title);
	fprintf(out, "</text>\n");
	/* Reference lines: a target across, a figure found upright. */
	for (size_t k = 0; k < c->n_hlines; k++) {
		double y = ty(c->hlines[k].value, yhi);
		if (!isfinite(c->hlines[k].value) || (y_log && c->hlines[k].value <= 0))
			continue;
		fprintf(out,
		        "<g class=\"hline\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#c00\" stroke-dasharray=\"6 4\"/><text x=\"%.1f\" y=\"%.1f\" "
		        "fill=\"#c00\" text-anchor=\"end\">",
		        L, y, W - R, y, W - R - 4, y - 4);
		esc(out, c->hlines[k].label);
		fprintf(out, "</text></g>\n");
	}
	for (size_t k = 0; k < c->n_vlines; k++) {
		double x = tx(c, c->vlines[k].value, xlo, xhi);
		if (!isfinite(c->vlines[k].value) || c->x_log2 || c->x_labels)
			continue;
		fprintf(out,
		        "<g class=\"vline\"><line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		        "stroke=\"#555\" stroke-dasharray=\"2 3\"/><text x=\"%.1f\" y=\"%.1f\" "
		        "fill=\"#555\">",
		        /* Each label one line lower than the one before: two lines
		         * close together (a capacity and its knee) stay legible. */
		        x, T, x, H - B, x + 4, T + 12 + 16.0 * (double)k);
		esc(out, c->vlines[k].label);
		fprintf(out, "</text></g>\n");
	}
	/* Series. */
	for (size_t s = 0; s < c->n_series; s++) {
		const struct ccb_chart_series *se = &c->series[s];
		const char *col = colors[s % (sizeof(colors) / sizeof(colors[0]))];

		fprintf(out, "<g class=\"series\" stroke=\"%s\" fill=\"%s\"><title>", col, col);
		esc(out, se->label);
		fprintf(out, "</title>\n<polyline fill=\"none\" stroke-width=\"2\" points=\"");
		for (size_t i = 0, first = 1; i < se->n; i++) {
			if (!drawable(se, i))
				continue;
			fprintf(out, "%s%.1f,%.1f", first ? "" : " ", tx(c, se->x[i], xlo, xhi),
			        ty(se->y[i], yhi));
			first = 0;
		}
		fprintf(out, "\"/>\n");
		for (size_t i = 0; i < se->n; i++) {
			double px = tx(c, se->x[i], xlo, xhi);
			if (!drawable(se, i))
				continue;
			fprintf(out, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\"/>", px,
			        ty(se->y[i], yhi));
			if (se->err && se->err[i] > 0)
				fprintf(out,
				        "<path fill=\"none\" d=\"M%.1f %.1f V%.1f M%.1f %.1f H%.1f "
				        "M%.1f "
				        "%.1f H%.1f\"/>",
				        px, ty(se->y[i] - se->err[i], yhi),
				        ty(se->y[i] + se->err[i], yhi), px - 4,
				        ty(se->y[i] - se->err[i], yhi), px + 4, px - 4,
				        ty(se->y[i] + se->err[i], yhi), px + 4);
		}
		fprintf(out, "\n</g>\n");
		fprintf(out,
		        "<g class=\"legend\"><rect x=\"%.0f\" y=\"%.0f\" width=\"14\" height=\"4\" "
		        "fill=\"%s\"/><text x=\"%.0f\" y=\"%.0f\">",
		        W - R + 15, T + 20.0 * (double)s + 4, col, W - R + 35,
		        T + 20.0 * (double)s + 9);
		esc(out, se->label);
		fprintf(out, "</text></g>\n");
	}
	fprintf(out, "</svg>\n");
	return ferror(out) ? -EIO : 0;
}

void ccb_chart_xml_text(FILE *out, const char *s)
{
	esc(out, s);
}
