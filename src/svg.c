/*
 * A self-contained SVG line chart. Everything is drawn with plain
 * elements and presentation attributes (no CSS, no fonts to fetch, no
 * script), so the file is a valid XML document that any viewer renders
 * alike and a test can parse.
 */
#include <ccbench/svg.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>

#define WIDTH 960
#define HEIGHT 540
#define MARGIN_LEFT 80
#define MARGIN_RIGHT 230 /* room for the legend */
#define MARGIN_TOP 50
#define MARGIN_BOTTOM 60

/* Distinguishable on white and for the common colour blindnesses (Okabe-Ito). */
static const char *const palette[] = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
				      "#56B4E9", "#D55E00", "#F0E442", "#999999"};

static void xml_text(FILE *out, const char *s)
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
			/* Control characters are not allowed in XML 1.0 text. */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, out);
		}
	}
}

/* A tick step of 1, 2 or 5 times a power of ten giving about @p ticks ticks. */
static double nice_step(double range, int ticks)
{
	double raw = range / ticks, mag, f;

	if (!(raw > 0) || !isfinite(raw))
		return 1;
	mag = pow(10, floor(log10(raw)));
	f = raw / mag;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

int ccb_svg_lines(FILE *out, const struct ccb_svg_chart *chart, const struct ccb_svg_line *lines,
		  size_t n_lines)
{
	const double pw = WIDTH - MARGIN_LEFT - MARGIN_RIGHT, ph = HEIGHT - MARGIN_TOP - MARGIN_BOTTOM;
	double x_min = INFINITY, x_max = -INFINITY, y_max = 0, x_step, y_step;
	bool any = false;

	for (size_t l = 0; l < n_lines; l++) {
		for (size_t i = 0; i < lines[l].n; i++) {
			double x = lines[l].x[i], y = lines[l].y[i];
			if (!isfinite(x) || !isfinite(y))
				continue;
			any = true;
			x_min = fmin(x_min, x);
			x_max = fmax(x_max, x);
			y_max = fmax(y_max, y);
		}
	}
	/* Bandwidth starts at zero, so the y axis always does. */
	if (!any) {
		x_min = 0;
		x_max = 1;
	}
	if (x_max - x_min <= 0)
		x_max = x_min + 1;
	if (y_max <= 0)
		y_max = 1;
	x_step = nice_step(x_max - x_min, 8);
	y_step = nice_step(y_max, 6);
	x_min = floor(x_min / x_step) * x_step;
	x_max = ceil(x_max / x_step) * x_step;
	y_max = ceil(y_max * 1.02 / y_step) * y_step;

#define PX(x) (MARGIN_LEFT + ((x) - x_min) / (x_max - x_min) * pw)
#define PY(y) (MARGIN_TOP + ph - (y) / y_max * ph)

	fprintf(out,
		"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n",
		WIDTH, HEIGHT, WIDTH, HEIGHT, WIDTH, HEIGHT);
	fprintf(out, "<text x=\"%d\" y=\"28\" font-size=\"16\" font-weight=\"bold\">", MARGIN_LEFT);
	xml_text(out, chart->title);
	fputs("</text>\n", out);

	/* Grid and ticks. */
	for (double y = 0; y <= y_max + y_step / 2; y += y_step) {
		fprintf(out,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dddddd\"/>\n"
			"<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			MARGIN_LEFT, PY(y), MARGIN_LEFT + pw, PY(y), MARGIN_LEFT - 6, PY(y) + 4, y);
	}
	for (double x = x_min; x <= x_max + x_step / 2; x += x_step) {
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#eeeeee\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%g</text>\n",
			PX(x), MARGIN_TOP, PX(x), MARGIN_TOP + ph, PX(x), MARGIN_TOP + ph + 18, x);
	}
	fprintf(out,
		"<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" fill=\"none\" "
		"stroke=\"#333333\"/>\n",
		MARGIN_LEFT, MARGIN_TOP, pw, ph);
	fprintf(out, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">", MARGIN_LEFT + pw / 2,
		HEIGHT - 15);
	xml_text(out, chart->x_title);
	fprintf(out,
		"</text>\n<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 18 %.1f)\">",
		MARGIN_TOP + ph / 2, MARGIN_TOP + ph / 2);
	xml_text(out, chart->y_title);
	fputs("</text>\n", out);

	/* Lines, then the legend, so the emphasised aggregate is drawn on top. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t l = 0, c = 0; l < n_lines; l++) {
			const struct ccb_svg_line *ln = &lines[l];
			const char *colour = ln->emphasis ? "#000000" : palette[c % 8];

			if (!ln->emphasis)
				c++;
			if (ln->emphasis != (pass == 1))
				continue;
			fprintf(out,
				"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
				"stroke-linejoin=\"round\" points=\"",
				colour, ln->emphasis ? "3" : "1.5");
			for (size_t i = 0; i < ln->n; i++)
				if (isfinite(ln->x[i]) && isfinite(ln->y[i]))
					fprintf(out, "%s%.1f,%.1f", i ? " " : "", PX(ln->x[i]),
						PY(ln->y[i]));
			fputs("\"/>\n", out);
		}
	}
	for (size_t l = 0, c = 0; l < n_lines; l++) {
		const struct ccb_svg_line *ln = &lines[l];
		double ly = MARGIN_TOP + 10 + (double)l * 20;
		const char *colour = ln->emphasis ? "#000000" : palette[c % 8];

		if (!ln->emphasis)
			c++;
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			"stroke-width=\"%s\"/>\n<text x=\"%.1f\" y=\"%.1f\">",
			MARGIN_LEFT + pw + 15, ly, MARGIN_LEFT + pw + 40, ly, colour,
			ln->emphasis ? "3" : "1.5", MARGIN_LEFT + pw + 46, ly + 4);
		xml_text(out, ln->label);
		fputs("</text>\n", out);
	}
	fputs("</svg>\n", out);
#undef PX
#undef PY
	return ferror(out) ? -EIO : 0;
}
