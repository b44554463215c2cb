/*
 * The geometry of a chart's text (chart_layout.h): how wide a label is,
 * where it wraps, whether it touches another label or a line, where a
 * legend goes. Pure functions: the renderer and the unit tests call the
 * same ones, and the browser test (tests/integration/html_check.py)
 * checks what they decided in a real browser.
 */
#include "chart_layout.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Advance widths of ASCII 32..126 in thousandths of the font size: the
 * larger of DejaVu Sans's and Liberation Sans's (Arial's metrics), the two
 * faces "sans-serif" is on Debian (measured in Chromium). Another face
 * (a viewer elsewhere) is about as wide; 5 % is kept to spare.
 */
static const unsigned short ascii_w[95] = {
    318, 401, 460, 838, 636, 950, 780,  275, 390, 390, 500, 838, 318, 361, 318, 337, /* sp-/ */
    636, 636, 636, 636, 636, 636, 636,  636, 636, 636,                               /* 0-9 */
    337, 337, 838, 838, 838, 556, 1015,                                              /* :-@ */
    684, 686, 722, 770, 667, 611, 778,  752, 295, 500, 667, 557, 863,                /* A-M */
    748, 787, 667, 787, 722, 667, 611,  732, 684, 989, 685, 667, 685,                /* N-Z */
    390, 337, 390, 838, 556, 500,                                                    /* [-` */
    613, 635, 550, 635, 615, 352, 635,  634, 278, 278, 579, 278, 974,                /* a-m */
    634, 612, 635, 635, 411, 521, 392,  634, 592, 818, 592, 592, 525,                /* n-z */
    636, 337, 636, 838,                                                              /* {-~ */
};

/* Bytes of the UTF-8 character at @p s (1 for a stray byte), and its code point. */
static size_t utf8_char(const unsigned char *s, size_t left, uint32_t *cp)
{
	size_t n = s[0] < 0x80 ? 1 : s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 1;

	if (n > left)
		n = 1;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80) {
			n = 1;
			break;
		}
	*cp = n == 1 ? s[0] : n == 2 ? s[0] & 0x1fu : n == 3 ? s[0] & 0x0fu : s[0] & 0x07u;
	for (size_t i = 1; i < n; i++)
		*cp = *cp << 6 | (s[i] & 0x3fu);
	return n;
}

static double char_w(uint32_t cp)
{
	if (cp >= 32 && cp < 127)
		return ascii_w[cp - 32];
	/* Pictographs and emoji run wider than an em in most faces. */
	return cp >= 0x1f000 ? 1300 : 1000;
}

double ccb_chart_text_px(const char *s, size_t len, double font_px)
{
	const unsigned char *p = (const unsigned char *)s;
	double w = 0;
	uint32_t cp;

	for (size_t i = 0; s && i < len && p[i];)
		i += utf8_char(p + i, len - i, &cp), w += char_w(cp);
	return w / 1000.0 * font_px * 1.05;
}

/* The end of as many characters from @p at as fit in @p room px (at least
 * one), and in *@p brk the last blank among them (0: none). */
static size_t fit_end(const unsigned char *p, size_t at, size_t total, double room, double font_px,
                      size_t *brk)
{
	double w = 0;
	size_t i = at;
	uint32_t cp;

	*brk = 0;
	while (i < total) {
		size_t k = utf8_char(p + i, total - i, &cp);
		double cw = char_w(cp) / 1000.0 * font_px * 1.05;

		if (w + cw > room && i > at)
			break;
		if (p[i] == ' ')
			*brk = i;
		w += cw;
		i += k;
	}
	return i;
}

size_t ccb_chart_wrap(const char *s, double max_px, double font_px, size_t max_lines, size_t *start,
                      size_t *len, bool *cut)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t total = strlen((const char *)p), at = 0, n = 0, brk, end;
	/* The ellipsis a cut line ends in. */
	double ell = char_w(0x2026) / 1000.0 * font_px * 1.05;

	*cut = false;
	while (n < max_lines) {
		while (at < total && p[at] == ' ')
			at++;
		start[n] = at;
		end = fit_end(p, at, total, max_px, font_px, &brk);
		if (end >= total) {
			len[n++] = total - at;
			return n;
		}
		if (n + 1 == max_lines) {
			/* The last line: what fits beside the ellipsis. */
			end = fit_end(p, at, total, max_px - ell, font_px, &brk);
			len[n++] = end - at;
			*cut = true;
			return n;
		}
		end = brk > at ? brk : end;
		len[n++] = end - at;
		at = end;
	}
	return n;
}

bool ccb_chart_boxes_overlap(const struct ccb_chart_box *a, const struct ccb_chart_box *b)
{
	return a->x0 < b->x1 && b->x0 < a->x1 && a->y0 < b->y1 && b->y0 < a->y1;
}

/* Liang-Barsky: whether the segment enters the box. */
bool ccb_chart_box_hits_segment(const struct ccb_chart_box *b, double x0, double y0, double x1,
                                double y1)
{
	double t0 = 0, t1 = 1, dx = x1 - x0, dy = y1 - y0;
	double p[4] = {-dx, dx, -dy, dy}, q[4] = {x0 - b->x0, b->x1 - x0, y0 - b->y0, b->y1 - y0};

	if (!isfinite(x0) || !isfinite(y0) || !isfinite(x1) || !isfinite(y1))
		return false;
	for (int k = 0; k < 4; k++) {
		if (p[k] == 0) {
			if (q[k] < 0)
				return false;
			continue;
		}
		double r = q[k] / p[k];
		if (p[k] < 0)
			t0 = fmax(t0, r);
		else
			t1 = fmin(t1, r);
		if (t0 > t1)
			return false;
	}
	return true;
}

size_t ccb_chart_place(const struct ccb_chart_box *cands, size_t n,
                       const struct ccb_chart_obstacles *obs, bool allow_on_lines)
{
	size_t best = SIZE_MAX, best_hits = SIZE_MAX;

	for (size_t c = 0; c < n; c++) {
		size_t hits = 0;
		bool on_label = false;

		for (size_t b = 0; b < obs->n_boxes && !on_label; b++)
			on_label = ccb_chart_boxes_overlap(&cands[c], &obs->boxes[b]);
		if (on_label)
			continue;
		for (size_t s = 0; s < obs->n_segs; s++)
			hits +=
			    ccb_chart_box_hits_segment(&cands[c], obs->segs[s][0], obs->segs[s][1],
			                               obs->segs[s][2], obs->segs[s][3]);
		if (hits == 0)
			return c;
		if (allow_on_lines && hits < best_hits)
			best = c, best_hits = hits;
	}
	return best;
}

/* The legend's rows: an entry's lines, and the space between entries. */
#define ENTRY_GAP 4.0

int ccb_chart_legend_fit(const char *const *names, size_t n, const char *header, double right_px,
                         double plot_h, double below_px, struct ccb_chart_legend *lg)
{
	double widest = 0, head_w = header && header[0] ? ccb_chart_text_px(header, strlen(header),
	                                                                    CCB_CHART_FONT_PX)
	                                                : 0;
	double head_h = head_w > 0 ? CCB_CHART_LINE_PX : 0, text_room, col_w;
	double pre = CCB_CHART_SAMPLE_PX + CCB_CHART_SAMPLE_GAP;
	double rows_h = 0;

	memset(lg, 0, sizeof(*lg));
	lg->e = calloc(n + 1, sizeof(*lg->e));
	if (!lg->e)
		return -ENOMEM;
	lg->n = n;
	for (size_t i = 0; i < n; i++)
		widest =
		    fmax(widest, ccb_chart_text_px(names[i], strlen(names[i]), CCB_CHART_FONT_PX));
	lg->header_y = CCB_CHART_FONT_PX;
	if (pre + widest <= right_px && head_w <= right_px &&
	    head_h + (double)n * (CCB_CHART_LINE_PX + ENTRY_GAP) <= plot_h) {
		lg->below = false;
		lg->cols = 1;
		lg->width = fmax(pre + widest, head_w);
		for (size_t i = 0; i < n; i++) {
			lg->e[i] = (struct ccb_chart_legend_entry){
			    .x = 0,
			    .y = head_h + (double)i * (CCB_CHART_LINE_PX + ENTRY_GAP) +
			         CCB_CHART_FONT_PX,
			    .n_lines = 1,
			    .len = {strlen(names[i])}};
		}
		lg->height = head_h + (double)n * (CCB_CHART_LINE_PX + ENTRY_GAP);
		return 0;
	}
	/* Below: columns of the widest name (plus a gap), as many as fit. */
	lg->below = true;
	col_w = fmin(pre + widest + 18, below_px);
	lg->cols = (size_t)fmax(1, floor(below_px / col_w));
	if (lg->cols > n)
		lg->cols = n ? n : 1;
	if (lg->cols > 64)
		lg->cols = 64;
	col_w = below_px / (double)lg->cols;
	text_room = fmax(col_w - pre - 12, 4 * CCB_CHART_FONT_PX);
	lg->width = below_px;
	/* Row by row, so that the entries read left to right as the series go. */
	for (size_t i = 0; i < n; i += lg->cols) {
		double row_h = 0;

		for (size_t c = 0; c < lg->cols && i + c < n; c++) {
			struct ccb_chart_legend_entry *e = &lg->e[i + c];

			e->n_lines = ccb_chart_wrap(names[i + c], text_room, CCB_CHART_FONT_PX,
			                            CCB_CHART_MAX_LINES, e->start, e->len, &e->cut);
			e->x = (double)c * col_w;
			e->y = head_h + rows_h + CCB_CHART_FONT_PX;
			row_h = fmax(row_h, (double)e->n_lines * CCB_CHART_LINE_PX + ENTRY_GAP);
		}
		rows_h += row_h;
	}
	lg->height = head_h + rows_h;
	return 0;
}

void ccb_chart_legend_free(struct ccb_chart_legend *lg)
{
	free(lg->e);
	lg->e = NULL;
}
