/**
 * @file chart_layout.h
 * The layout rules of ccbench's charts (chart.h), as pure functions the
 * renderer and the unit tests call alike:
 *   - text is measured with the wider of the two sans-serif fonts a
 *     browser on Debian picks (DejaVu Sans, Liberation Sans), so a label
 *     placed by it fits in either;
 *   - a legend names only the keys that differ between series, sits right
 *     of the plot when it fits there and below it, wrapped, when not;
 *   - a label (an SLO, a capacity, a knee) goes where it touches no other
 *     label and no line;
 *   - ticks stand where the data is, never at 0 on a log axis, and tick
 *     labels that would touch are thinned;
 *   - each series of a chart has its own colour, marker and dash (12
 *     styles); past that, small multiples.
 */
#ifndef CCBENCH_CHART_LAYOUT_H
#define CCBENCH_CHART_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "chart.h"

/** The charts' text size (px), and the height a line of it takes. */
#define CCB_CHART_FONT_PX 12.0
#define CCB_CHART_LINE_PX 16.0
/** Styles one chart tells apart: colour, marker and dash all differ. */
#define CCB_CHART_MAX_STYLES 12
/** At most this many lines of one wrapped label; the rest is cut ("…"). */
#define CCB_CHART_MAX_LINES 4
/** At most this many small multiples; further series are not drawn (and said so). */
#define CCB_CHART_MAX_PANELS 24

/**
 * Width in pixels of the first @p len bytes of @p s (UTF-8) at @p font_px:
 * at least what DejaVu Sans and Liberation Sans take, with 5 % to spare.
 */
double ccb_chart_text_px(const char *s, size_t len, double font_px);

/**
 * Wrap @p s into at most @p max_lines lines, each at most @p max_px wide
 * at @p font_px: at a blank where there is one, else between two
 * characters (a long matrix value without blanks); never inside a UTF-8
 * character. Line i is @p len[i] bytes from @p start[i] (leading blanks
 * skipped). When @p s does not fit, *@p cut is set and the caller ends
 * the last line with "…" (room for it is kept).
 *
 * @return the number of lines (1 for an empty string).
 */
size_t ccb_chart_wrap(const char *s, double max_px, double font_px, size_t max_lines, size_t *start,
                      size_t *len, bool *cut);

/** An axis-aligned box in pixels, y downwards. */
struct ccb_chart_box {
	double x0, y0, x1, y1;
};

/** Whether @p a and @p b share more than a touching edge. */
bool ccb_chart_boxes_overlap(const struct ccb_chart_box *a, const struct ccb_chart_box *b);

/** Whether the segment (@p x0, @p y0)-(@p x1, @p y1) passes through box @p b. */
bool ccb_chart_box_hits_segment(const struct ccb_chart_box *b, double x0, double y0, double x1,
                                double y1);

/** What a label must stay off: other labels (boxes) and drawn lines (segments x0 y0 x1 y1). */
struct ccb_chart_obstacles {
	const struct ccb_chart_box *boxes;
	size_t n_boxes;
	const double (*segs)[4];
	size_t n_segs;
};

/**
 * Choose where a label goes among @p n candidate boxes, in order of
 * preference: the first that touches no box and no segment of @p obs;
 * else the one that touches no box and the fewest segments, when
 * @p allow_on_lines.
 *
 * @return the candidate's index, or (size_t)-1 when none will do (the
 *         caller puts the label in the margin).
 */
size_t ccb_chart_place(const struct ccb_chart_box *cands, size_t n,
                       const struct ccb_chart_obstacles *obs, bool allow_on_lines);

/**
 * The legend's names of @p n series: when every series has key/value
 * pairs in @p k (NULL: none), only the values of the keys that differ between them (the key
 * @p skip_key excepted, which a small multiple's title names), with the
 * leading words every value of a key shares left out ("randwrite 4K",
 * not "command=rbd randwrite io-size=4K"); else each series' label.
 * @p names[i] is allocated (free each); @p header gets the keys named,
 * "command, io-size" (empty when the labels are the series' own).
 *
 * @return 0 or -ENOMEM (nothing allocated then).
 */
int ccb_chart_legend_names(const struct ccb_chart_series *s, const struct ccb_chart_keys *k,
                           size_t n, const char *skip_key, char **names, char *header,
                           size_t header_len);

/** One legend entry, relative to the legend's top left corner. */
struct ccb_chart_legend_entry {
	double x, y; /**< the sample's left end, the first line's baseline */
	size_t n_lines;
	size_t start[CCB_CHART_MAX_LINES], len[CCB_CHART_MAX_LINES];
	bool cut; /**< the last line ends in "…" */
};

/** Where a legend goes and how its entries wrap (ccb_chart_legend_fit()). */
struct ccb_chart_legend {
	bool below; /**< else right of the plot */
	size_t cols;
	double width, height;
	double header_y; /**< the header's baseline, when it has one */
	struct ccb_chart_legend_entry *e;
	size_t n;
};

/** The sample (line, marker) before each name, and the gap after it. */
#define CCB_CHART_SAMPLE_PX  30.0
#define CCB_CHART_SAMPLE_GAP 6.0

/**
 * Fit a legend of @p n @p names (with @p header, "" for none): right of
 * the plot when the widest name and the header fit in @p right_px and
 * every entry, one line each, in @p plot_h; else below, in as many
 * columns of the widest name as @p below_px holds (at least one), each
 * name wrapped to its column.
 *
 * @return 0 or -ENOMEM. Free with ccb_chart_legend_free().
 */
int ccb_chart_legend_fit(const char *const *names, size_t n, const char *header, double right_px,
                         double plot_h, double below_px, struct ccb_chart_legend *lg);

/** Free what ccb_chart_legend_fit() allocated. */
void ccb_chart_legend_free(struct ccb_chart_legend *lg);

/**
 * Round ticks (1, 2, 5 times a power of ten) over [@p lo, @p hi], about
 * @p want of them, into @p t (at most @p max). @return their number.
 */
size_t ccb_chart_ticks_linear(double lo, double hi, size_t want, double *t, size_t max);

/**
 * Ticks of a log10 axis over the decades [@p lo_dec, @p hi_dec] (10^lo to
 * 10^hi): 1, 2 and 5 per decade over up to 2 decades, one per decade over
 * more, every k-th past @p max. Never 0. @return their number.
 */
size_t ccb_chart_ticks_log10(double lo_dec, double hi_dec, double *t, size_t max);

/**
 * Ticks where the data is: the distinct finite values of @p xs, sorted,
 * when there are at most 12 of them and each is a value a person sets (a
 * whole number or at most 3 significant digits: a sweep's row values, a
 * run's seconds); else
 * none, and the caller takes round ones over the data's range (measured
 * rates, times). @return their number (at most @p max).
 */
size_t ccb_chart_ticks_at_data(const double *xs, size_t n, double *t, size_t max);

/**
 * Ticks of a log2 axis: the distinct positive values of @p xs when there
 * are at most 12 (ticks where the data is), else powers of two over their
 * range, every k-th past @p max. Never 0 nor a negative value.
 * @return their number, sorted.
 */
size_t ccb_chart_ticks_log2(const double *xs, size_t n, double *t, size_t max);

/**
 * Which of @p n tick labels to keep: centred at @p pos (ascending), each
 * @p width wide, a kept one at least @p gap px clear of the last kept.
 */
void ccb_chart_thin(const double *pos, const double *width, size_t n, double gap, bool *keep);

/** A series' look: colour, marker and dash ("" solid). */
struct ccb_chart_style {
	const char *color;
	const char *marker;   /**< its name: "circle", "square", ... */
	const char *marker_d; /**< the marker's SVG path around (0, 0) */
	bool marker_filled;
	const char *dash;
};

/** Style @p i (of CCB_CHART_MAX_STYLES; taken modulo). */
const struct ccb_chart_style *ccb_chart_style_at(size_t i);

/** How a chart's series fall into panels (ccb_chart_split()). */
struct ccb_chart_split {
	size_t n_panels;
	size_t *panel_of; /**< per series; SIZE_MAX: not drawn (past CCB_CHART_MAX_PANELS) */
	size_t *style_of; /**< per series: its style within its panel */
	char **names;     /**< per series: its legend name */
	char **titles;    /**< per panel: "command: rbd read", or NULL for one panel */
	bool shared;      /**< one legend for every panel (the same style, the same name) */
	char header[256]; /**< the legend's header (the keys it names) */
	size_t not_drawn; /**< series past the panels' limit */
};

/**
 * Put @p n series (with their names' pairs @p k, or NULL) in panels of at most @p per_panel each:
 * all in one when they fit; else split by the key whose values give the fewest panels (a small
 * chart per command), with a shared legend of the other keys; else in runs of @p per_panel, each
 * with its own legend.
 *
 * @return 0 or -ENOMEM. Free with ccb_chart_split_free().
 */
int ccb_chart_split(const struct ccb_chart_series *s, const struct ccb_chart_keys *k, size_t n,
                    size_t per_panel, struct ccb_chart_split *sp);

/** Free what ccb_chart_split() allocated. */
void ccb_chart_split_free(struct ccb_chart_split *sp, size_t n);

#endif
