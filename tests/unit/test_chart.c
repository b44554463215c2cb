/*
 * The charts' layout rules (chart_layout.h) and what ccb_chart_svg()
 * makes of them, with hostile names: very long matrix values, 40 series,
 * markup and escape sequences, which stay escaped in the SVG as in text.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include "../../src/report/chart.h"
#include "../../src/report/chart_layout.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The chart @p c as SVG text (free()). */
static char *svg_of(const struct ccb_chart *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(ccb_chart_svg(c, f), 0);
	fclose(f);
	return text;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_text_px(void **state)
{
	(void)state;
	assert_true(ccb_chart_text_px("", 0, 12) == 0);
	assert_true(ccb_chart_text_px("mmmm", 4, 12) > ccb_chart_text_px("iiii", 4, 12));
	/* Wide enough for DejaVu Sans: "m" is 0.974 em there. */
	assert_true(ccb_chart_text_px("m", 1, 12) >= 0.974 * 12);
	/* A character is a character, whatever its bytes; an emoji is wider. */
	assert_true(ccb_chart_text_px("\xc3\xa9", 2, 12) >= 12 &&
	            ccb_chart_text_px("\xc3\xa9", 2, 12) < 2 * 12);
	assert_true(ccb_chart_text_px("\xf0\x9f\x98\x80", 4, 12) > 12);
	/* Only len bytes count. */
	assert_true(ccb_chart_text_px("abcdef", 3, 12) == ccb_chart_text_px("abc", 3, 12));
}

/* Every line of @p s wrapped at @p px fits in it (the last beside "…"). */
static void wrap_fits(const char *s, double px, size_t max_lines)
{
	size_t start[CCB_CHART_MAX_LINES], len[CCB_CHART_MAX_LINES], n;
	bool cut;

	n = ccb_chart_wrap(s, px, 12, max_lines, start, len, &cut);
	assert_true(n >= 1 && n <= max_lines);
	for (size_t i = 0; i < n; i++) {
		double w = ccb_chart_text_px(s + start[i], len[i], 12) +
		           (cut && i + 1 == n ? ccb_chart_text_px("\xe2\x80\xa6", 3, 12) : 0);
		assert_true(w <= px + 1e-9);
		/* Never inside a UTF-8 character: no line starts on a continuation byte. */
		assert_true(((unsigned char)s[start[i]] & 0xc0) != 0x80);
		if (len[i] && start[i] + len[i] < strlen(s))
			assert_true(((unsigned char)s[start[i] + len[i]] & 0xc0) != 0x80);
	}
}

static void test_wrap(void **state)
{
	char longv[400];
	size_t start[4], len[4];
	bool cut;

	(void)state;
	/* At a blank where there is one. */
	assert_int_equal(ccb_chart_wrap("randwrite 4K data-pool", 90, 12, 4, start, len, &cut), 2);
	assert_false(cut);
	assert_memory_equal("randwrite 4K", "randwrite 4K data-pool" + start[0], len[0]);
	/* A long matrix value without blanks: between characters, cut past 4 lines. */
	memset(longv, 'w', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(ccb_chart_wrap(longv, 200, 12, 4, start, len, &cut), 4);
	assert_true(cut);
	wrap_fits(longv, 200, 4);
	/* Multibyte characters, hostile and not. */
	wrap_fits(
	    "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 40,
	    4);
	wrap_fits("ns\\x1b[31m <script>alert(1)</script> &amp; \xf0\x9f\x98\x80\xf0\x9f\x98\x80",
	          60, 3);
	/* Short: one line, as it is. */
	assert_int_equal(ccb_chart_wrap("4K", 100, 12, 4, start, len, &cut), 1);
	assert_int_equal(len[0], 2);
}

static void test_boxes(void **state)
{
	struct ccb_chart_box a = {0, 0, 10, 10}, b = {10, 0, 20, 10}, c = {5, 5, 15, 15};

	(void)state;
	assert_false(ccb_chart_boxes_overlap(&a, &b)); /* touching edges */
	assert_true(ccb_chart_boxes_overlap(&a, &c));
	assert_true(ccb_chart_box_hits_segment(&a, -5, 5, 15, 5));    /* through */
	assert_true(ccb_chart_box_hits_segment(&a, 2, 2, 3, 3));      /* inside */
	assert_false(ccb_chart_box_hits_segment(&a, -5, 12, 15, 12)); /* below */
	assert_false(ccb_chart_box_hits_segment(&a, 11, -5, 30, 20)); /* beside, diagonal */
	assert_false(ccb_chart_box_hits_segment(&a, NAN, 0, 5, 5));
}

/* A label goes where it touches no other label and no line; when every
 * candidate is on a label, nowhere (the margin), never on top of it. */
static void test_place(void **state)
{
	struct ccb_chart_box cands[3] = {{0, 0, 50, 14}, {0, 20, 50, 34}, {0, 40, 50, 54}};
	struct ccb_chart_box taken[1] = {{0, 0, 60, 14}};
	double segs[1][4] = {{-10, 27, 100, 27}};
	struct ccb_chart_obstacles obs = {taken, 1, (const double(*)[4])segs, 1};
	struct ccb_chart_box all_taken[1] = {{-100, -100, 100, 100}};

	(void)state;
	assert_int_equal(ccb_chart_place(cands, 3, &obs, false), 2);
	obs.n_boxes = 0;
	assert_int_equal(ccb_chart_place(cands, 3, &obs, false), 0);
	obs.boxes = all_taken;
	obs.n_boxes = 1;
	assert_int_equal(ccb_chart_place(cands, 3, &obs, true), SIZE_MAX);
	/* On lines only when allowed, and then on the fewest. */
	obs.n_boxes = 0;
	segs[0][1] = segs[0][3] = 7;
	double more[3][4] = {{-10, 7, 100, 7}, {-10, 27, 100, 27}, {-10, 47, 100, 47}};
	obs.segs = (const double(*)[4])more;
	obs.n_segs = 3;
	assert_int_equal(ccb_chart_place(cands, 3, &obs, false), SIZE_MAX);
	assert_int_not_equal(ccb_chart_place(cands, 3, &obs, true), SIZE_MAX);
}

static void test_ticks(void **state)
{
	double t[64], xs[] = {0, 256, 1024, 4096, 0, 1024}, many[40];
	size_t n;

	(void)state;
	/* log10 over under 2.5 decades: 1, 2, 5; never 0 nor a negative. */
	n = ccb_chart_ticks_log10(log10(4), log10(300), t, 64);
	assert_true(n >= 5);
	for (size_t k = 0; k < n; k++) {
		assert_true(t[k] >= 4 - 1e-9 && t[k] <= 300 + 1e-9);
		assert_true(t[k] > 0);
	}
	assert_true(t[0] == 5 && t[1] == 10 && t[2] == 20);
	/* Over many decades one per decade, at most max. */
	n = ccb_chart_ticks_log10(-300, 300, t, 10);
	assert_true(n <= 10 && n > 0);
	/* log2: where the data is, never 0. */
	n = ccb_chart_ticks_log2(xs, 6, t, 64);
	assert_int_equal(n, 3);
	assert_true(t[0] == 256 && t[1] == 1024 && t[2] == 4096);
	/* More than 12 values: powers of two over their range. */
	for (size_t i = 0; i < 40; i++)
		many[i] = (double)(i + 1) * 3;
	n = ccb_chart_ticks_log2(many, 40, t, 64);
	for (size_t k = 0; k < n; k++)
		assert_true(t[k] == pow(2, round(log2(t[k]))));
	/* Linear: round steps over the range; at the data when it is few values. */
	n = ccb_chart_ticks_linear(0, 97, 6, t, 64);
	assert_true(n >= 5 && t[0] == 0 && t[1] == 20);
	n = ccb_chart_ticks_at_data(xs + 1, 3, t, 64);
	assert_int_equal(n, 3);
	assert_int_equal(ccb_chart_ticks_at_data(many, 40, t, 64), 0);
	/* Measured values (a capacity search's rates) get round ticks instead. */
	double rates[3] = {223.2, 1542.31, 2570};
	assert_int_equal(ccb_chart_ticks_at_data(rates, 3, t, 64), 0);
	/* Far from zero a step below the values' precision still ends. */
	assert_true(ccb_chart_ticks_linear(1e17, 1e17 + 10, 6, t, 64) <= 64);
}

static void test_thin(void **state)
{
	double pos[] = {10, 20, 30, 100}, w[] = {30, 30, 30, 30};
	bool keep[4];

	(void)state;
	ccb_chart_thin(pos, w, 4, 4, keep);
	assert_true(keep[0] && !keep[1] && keep[3]);
}

/* Up to 12 series, each differs from every other in colour, marker AND dash. */
static void test_styles_distinct(void **state)
{
	(void)state;
	for (size_t i = 0; i < CCB_CHART_MAX_STYLES; i++)
		for (size_t j = i + 1; j < CCB_CHART_MAX_STYLES; j++) {
			const struct ccb_chart_style *a = ccb_chart_style_at(i),
			                             *b = ccb_chart_style_at(j);

			assert_string_not_equal(a->color, b->color);
			assert_true(strcmp(a->marker_d, b->marker_d) != 0 ||
			            a->marker_filled != b->marker_filled);
			assert_string_not_equal(a->marker, b->marker);
			assert_string_not_equal(a->dash, b->dash);
		}
}

/* 3 commands x 5 sizes, the data pool the same for all (ec-vs-replicated). */
static const char *const cmds[] = {"rbd randwrite", "rbd randread", "rbd write"};
static const char *const sizes[] = {"4K", "8K", "16K", "64K", "1M"};
static const char *const keys3[] = {"command", "io-size", "data-pool"};
static const char *vals[15][3];
static struct ccb_chart_keys kv[15];
static struct ccb_chart_series ser15[15];
static double xs15[3] = {0, 1, 2}, ys15[15][3];
static char labels15[15][64];

static void make15(void)
{
	for (size_t i = 0; i < 15; i++) {
		vals[i][0] = cmds[i / 5];
		vals[i][1] = sizes[i % 5];
		vals[i][2] = "ccb-r3";
		kv[i] = (struct ccb_chart_keys){keys3, vals[i], 3};
		snprintf(labels15[i], sizeof(labels15[i]), "command=%s io-size=%s", cmds[i / 5],
		         sizes[i % 5]);
		for (size_t k = 0; k < 3; k++)
			ys15[i][k] = 10 + (double)(i * 3 + k);
		ser15[i] = (struct ccb_chart_series){
		    .label = labels15[i], .x = xs15, .y = ys15[i], .n = 3};
	}
}

/* The legend names only what differs, without the words all values share. */
static void test_legend_names(void **state)
{
	char *names[15], header[128];

	(void)state;
	make15();
	assert_int_equal(ccb_chart_legend_names(ser15, kv, 15, NULL, names, header, sizeof(header)),
	                 0);
	assert_string_equal(header, "command, io-size");
	assert_string_equal(names[0], "randwrite 4K");
	assert_string_equal(names[14], "write 1M");
	for (size_t i = 0; i < 15; i++)
		free(names[i]);
	/* A small multiple's key is its title's, not the legend's. */
	assert_int_equal(
	    ccb_chart_legend_names(ser15, kv, 15, "command", names, header, sizeof(header)), 0);
	assert_string_equal(header, "io-size");
	assert_string_equal(names[6], "8K");
	for (size_t i = 0; i < 15; i++)
		free(names[i]);
	/* No pairs: the series' own labels. */
	assert_int_equal(
	    ccb_chart_legend_names(ser15, NULL, 2, NULL, names, header, sizeof(header)), 0);
	assert_string_equal(header, "");
	assert_string_equal(names[1], labels15[1]);
	free(names[0]);
	free(names[1]);
}

static void test_legend_fit(void **state)
{
	const char *short_names[] = {"20", "22"};
	char longv[300];
	const char *long_names[3] = {longv, "b", "c"};
	struct ccb_chart_legend lg;

	(void)state;
	/* Short names fit right of the plot. */
	assert_int_equal(ccb_chart_legend_fit(short_names, 2, "order", 260, 340, 900, &lg), 0);
	assert_false(lg.below);
	assert_true(lg.width <= 260);
	ccb_chart_legend_free(&lg);
	/* A very long matrix value: below, wrapped to its column, rows apart. */
	memset(longv, 'x', sizeof(longv) - 1);
	longv[sizeof(longv) - 1] = '\0';
	assert_int_equal(ccb_chart_legend_fit(long_names, 3, "", 260, 340, 900, &lg), 0);
	assert_true(lg.below);
	for (size_t i = 0; i < lg.n; i++) {
		const struct ccb_chart_legend_entry *e = &lg.e[i];

		assert_true(e->x >= 0);
		for (size_t l = 0; l < e->n_lines; l++)
			assert_true(e->x + CCB_CHART_SAMPLE_PX + CCB_CHART_SAMPLE_GAP +
			                ccb_chart_text_px(long_names[i] + e->start[l], e->len[l],
			                                  CCB_CHART_FONT_PX) <=
			            900);
		/* The next row starts below this entry's last line. */
		if (i + lg.cols < lg.n)
			assert_true(lg.e[i + lg.cols].y >=
			            e->y + (double)e->n_lines * CCB_CHART_LINE_PX);
	}
	assert_true(lg.height > 0);
	ccb_chart_legend_free(&lg);
	/* Too many for the plot's height: below too. */
	const char *many[40];
	for (size_t i = 0; i < 40; i++)
		many[i] = "s";
	assert_int_equal(ccb_chart_legend_fit(many, 40, "", 260, 340, 900, &lg), 0);
	assert_true(lg.below);
	ccb_chart_legend_free(&lg);
}

/* Past 12, small multiples: by a key when one splits them (a shared
 * legend), else in runs of 12; styles distinct within each panel. */
static void test_split(void **state)
{
	struct ccb_chart_split sp;
	struct ccb_chart_series forty[40];
	double x[1] = {1}, y[1] = {1};

	(void)state;
	make15();
	assert_int_equal(ccb_chart_split(ser15, kv, 15, 6, &sp), 0);
	assert_int_equal(sp.n_panels, 3);
	assert_true(sp.shared);
	assert_string_equal(sp.titles[0], "command: rbd randwrite");
	assert_string_equal(sp.header, "io-size");
	for (size_t i = 0; i < 15; i++) {
		assert_int_equal(sp.panel_of[i], i / 5);
		assert_int_equal(sp.style_of[i], i % 5);
	}
	ccb_chart_split_free(&sp, 15);
	/* 12 or fewer: one panel, one style each. */
	assert_int_equal(ccb_chart_split(ser15, kv, 12, 12, &sp), 0);
	assert_int_equal(sp.n_panels, 1);
	ccb_chart_split_free(&sp, 12);
	for (size_t i = 0; i < 40; i++)
		forty[i] = (struct ccb_chart_series){.label = "s", .x = x, .y = y, .n = 1};
	assert_int_equal(ccb_chart_split(forty, NULL, 40, 12, &sp), 0);
	assert_int_equal(sp.n_panels, 4);
	assert_false(sp.shared);
	for (size_t i = 0; i < 40; i++)
		for (size_t j = i + 1; j < 40; j++)
			if (sp.panel_of[i] == sp.panel_of[j])
				assert_int_not_equal(sp.style_of[i], sp.style_of[j]);
	ccb_chart_split_free(&sp, 40);
}

/* Every <text x="..." y="..."> of @p svg lies within width x height. */
static void texts_inside(const char *svg)
{
	double w, h, x, y;
	const char *p = strstr(svg, "<svg");

	assert_non_null(p);
	assert_int_equal(sscanf(strstr(p, "width=\"") + 7, "%lf", &w), 1);
	assert_int_equal(sscanf(strstr(p, "height=\"") + 8, "%lf", &h), 1);
	for (p = svg; (p = strstr(p, "<text x=\"")); p++) {
		assert_int_equal(sscanf(p, "<text x=\"%lf\" y=\"%lf\"", &x, &y), 2);
		assert_true(x >= 0 && x <= w && y >= 0 && y <= h);
	}
}

/* 40 series named by hostile matrix values: markup, an ampersand, an escape
 * sequence (kept \x1b, as text shows it), a very long value. */
static void test_svg_hostile(void **state)
{
	static const char *const k1[] = {"name"};
	const char *v1[40];
	char names[40][400];
	struct ccb_chart_keys kk[40];
	struct ccb_chart_series se[40];
	double x[3] = {1, 2, 4}, y[40][3];
	char *svg;

	(void)state;
	for (size_t i = 0; i < 40; i++) {
		if (i == 0)
			memset(names[i], 'v', 399), names[i][399] = '\0';
		else
			snprintf(names[i], sizeof(names[i]), "<script>x%zu</script> & \x1b[31m", i);
		v1[i] = names[i];
		kk[i] = (struct ccb_chart_keys){k1, &v1[i], 1};
		for (size_t k = 0; k < 3; k++)
			y[i][k] = (double)(i + k);
		se[i] = (struct ccb_chart_series){.label = names[i], .x = x, .y = y[i], .n = 3};
	}
	struct ccb_chart c = {.title = "hostile \x1b]0;title\x07 <b>",
	                      .x_title = "x (s)",
	                      .y_title = "y (MiB/s)",
	                      .series = se,
	                      .n_series = 40,
	                      .series_keys = kk};
	svg = svg_of(&c);
	assert_null(strchr(svg, '\x1b'));
	assert_null(strchr(svg, '\x07'));
	assert_null(strstr(svg, "<script"));
	assert_null(strstr(svg, "<b>"));
	assert_non_null(strstr(svg, "&lt;script&gt;x7&lt;/script&gt; &amp; \\x1b[31m"));
	assert_non_null(strstr(svg, "\\x1b]0;title\\x07 &lt;b&gt;"));
	/* 40 series: small multiples of at most 12, every series drawn once. */
	assert_int_equal(count(svg, "<g class=\"panel\">"), 4);
	assert_int_equal(count(svg, "<g class=\"series\""), 40);
	texts_inside(svg);
	free(svg);
	/* The same, keyless: each series' label. */
	c.series_keys = NULL;
	svg = svg_of(&c);
	assert_null(strchr(svg, '\x1b'));
	texts_inside(svg);
	free(svg);
}

/* "± stddev" only where an error bar is drawn. */
static void test_error_bars_claim(void **state)
{
	double x[2] = {1, 2}, y[2] = {10, 20}, zero[2] = {0, 0}, err[2] = {1, 2};
	struct ccb_chart_series se = {.label = "a", .x = x, .y = y, .err = zero, .n = 2};
	struct ccb_chart c = {.title = "t",
	                      .x_title = "x (s)",
	                      .y_title = "bandwidth (MiB/s)",
	                      .err_note = "mean ± stddev of the repeats",
	                      .series = &se,
	                      .n_series = 1};
	char *svg;

	(void)state;
	svg = svg_of(&c);
	assert_null(strstr(svg, "±"));
	assert_null(strstr(svg, "class=\"err\""));
	free(svg);
	se.err = err;
	svg = svg_of(&c);
	assert_non_null(strstr(svg, "mean ± stddev of the repeats"));
	assert_int_equal(count(svg, "class=\"err\""), 2);
	free(svg);
}

/* A log2 axis with 0: no "0" among its ticks on the scale, the point apart
 * past a break, and the title says so. */
static void test_log2_zero_apart(void **state)
{
	double x[4] = {0, 256, 1024, 4096}, y[4] = {10, 50, 130, 200};
	struct ccb_chart_series se = {.label = "a", .x = x, .y = y, .n = 4};
	struct ccb_chart c = {.title = "t",
	                      .x_title = "readahead (bytes, log2 scale)",
	                      .y_title = "MiB/s",
	                      .x_log2 = true,
	                      .x_format = CCB_CHART_X_KIB,
	                      .series = &se,
	                      .n_series = 1};
	char *svg = svg_of(&c);
	const char *pl, *zero, *at, *q, *last = NULL;
	double px0, first_tick;

	(void)state;
	assert_non_null(strstr(svg, "axis break"));
	assert_non_null(strstr(svg, ">256K</text>"));
	assert_non_null(strstr(svg, ">4M</text>"));
	/* The line joins only the points on the scale: 3 of them. */
	pl = strstr(svg, "points=\"");
	assert_non_null(pl);
	assert_int_equal(sscanf(pl, "points=\"%lf", &px0), 1);
	/* The tick labelled 0: the last <text before its ">0</text>". */
	zero = strstr(svg, ">0</text>");
	assert_non_null(zero);
	for (at = svg; (q = strstr(at, "<text x=\"")) && q < zero; at = q + 1)
		last = q;
	assert_non_null(last);
	assert_int_equal(sscanf(last, "<text x=\"%lf", &first_tick), 1);
	assert_true(first_tick < px0);
	free(svg);
}

/* A categorical axis: bars, never a line across the categories. */
static void test_categories_bars(void **state)
{
	char *svg;

	(void)state;
	make15();
	const char *pools[3] = {"ccb-r3", "ccb-ec21", "ccb-ec21-fast"};
	struct ccb_chart c = {.title = "ec-vs-replicated",
	                      .x_title = "data-pool",
	                      .y_title = "bandwidth (MiB/s)",
	                      .x_labels = pools,
	                      .n_x_labels = 3,
	                      .series = ser15,
	                      .n_series = 15,
	                      .series_keys = kv};
	svg = svg_of(&c);
	assert_null(strstr(svg, "<polyline"));
	assert_int_equal(count(svg, "<rect x="), 45 + 5 /* legend swatches */);
	assert_int_equal(count(svg, "<g class=\"panel\">"), 3);
	assert_non_null(strstr(svg, "command: rbd randwrite"));
	texts_inside(svg);
	free(svg);
}

/* The SLO's and the capacity's labels touch no line of a series: a series
 * whose end is where an SLO label would go first. */
static void test_labels_off_lines(void **state)
{
	double x[4] = {10, 50, 90, 100}, y[4] = {5, 8, 19, 21};
	struct ccb_chart_series se = {.label = "p99", .x = x, .y = y, .n = 4};
	struct ccb_chart_line hl = {"SLO p99 <= 20 ms", 20},
	                      vl[2] = {{"capacity 95/s", 95}, {"knee 93/s", 93}};
	struct ccb_chart c = {.title = "t",
	                      .x_title = "achieved rate (ops/s)",
	                      .y_title = "latency (ms, log)",
	                      .y_log10 = true,
	                      .series = &se,
	                      .n_series = 1,
	                      .hlines = &hl,
	                      .n_hlines = 1,
	                      .vlines = vl,
	                      .n_vlines = 2};
	char *svg = svg_of(&c);
	const char *p;
	double pts[4][2], lx, ly;
	size_t np = 0, labels = 0;

	(void)state;
	p = strstr(strstr(svg, "<polyline"), "points=\"") + 8;
	while (np < 4 && sscanf(p, "%lf,%lf", &pts[np][0], &pts[np][1]) == 2) {
		np++;
		p = strchr(p, ' ');
		if (!p)
			break;
		p++;
	}
	assert_int_equal(np, 4);
	for (p = svg; (p = strstr(p, "class=\"ref-label\" x=\"")); p++, labels++) {
		const char *t = strchr(p, '>') + 1;
		size_t len = strcspn(t, "<");
		struct ccb_chart_box b;

		assert_int_equal(sscanf(p, "class=\"ref-label\" x=\"%lf\" y=\"%lf\"", &lx, &ly), 2);
		/* Its text's length in the SVG ("&lt;" for "<") is at least its own. */
		b = (struct ccb_chart_box){lx, ly - 12, lx + ccb_chart_text_px(t, len, 12), ly + 4};
		for (size_t k = 0; k + 1 < np; k++)
			assert_false(ccb_chart_box_hits_segment(&b, pts[k][0], pts[k][1],
			                                        pts[k + 1][0], pts[k + 1][1]));
	}
	assert_int_equal(labels, 3);
	texts_inside(svg);
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_text_px),
	    cmocka_unit_test(test_wrap),
	    cmocka_unit_test(test_boxes),
	    cmocka_unit_test(test_place),
	    cmocka_unit_test(test_ticks),
	    cmocka_unit_test(test_thin),
	    cmocka_unit_test(test_styles_distinct),
	    cmocka_unit_test(test_legend_names),
	    cmocka_unit_test(test_legend_fit),
	    cmocka_unit_test(test_split),
	    cmocka_unit_test(test_svg_hostile),
	    cmocka_unit_test(test_error_bars_claim),
	    cmocka_unit_test(test_log2_zero_apart),
	    cmocka_unit_test(test_categories_bars),
	    cmocka_unit_test(test_labels_off_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
