/*
 * What a chart's legend says and how its series fall into panels
 * (chart_layout.h). A sweep's series are named by their matrix values:
 * the legend keeps only the keys that differ ("randwrite 4K", not
 * "command=rbd randwrite io-size=4K"), and past what one chart tells
 * apart the series split by one key into small multiples whose legend
 * (the other keys) is shared.
 */
#include "chart_layout.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KEYS 64

static bool keyed(const struct ccb_chart_keys *s, size_t n)
{
	for (size_t i = 0; s && i < n; i++)
		if (!s[i].n || !s[i].keys || !s[i].values)
			return false;
	return s && n > 0;
}

static const char *value_of(const struct ccb_chart_keys *se, const char *key)
{
	for (size_t k = 0; k < se->n; k++)
		if (se->keys[k] && strcmp(se->keys[k], key) == 0)
			return se->values[k] ? se->values[k] : "";
	return "";
}

/* The keys of the series in order of first appearance (at most MAX_KEYS). */
static size_t all_keys(const struct ccb_chart_keys *s, size_t n, const char **keys)
{
	size_t nk = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < s[i].n; k++) {
			size_t j = 0;

			if (!s[i].keys[k])
				continue;
			while (j < nk && strcmp(keys[j], s[i].keys[k]) != 0)
				j++;
			if (j == nk && nk < MAX_KEYS)
				keys[nk++] = s[i].keys[k];
		}
	return nk;
}

static bool differs(const struct ccb_chart_keys *s, size_t n, const char *key)
{
	for (size_t i = 1; i < n; i++)
		if (strcmp(value_of(&s[i], key), value_of(&s[0], key)) != 0)
			return true;
	return false;
}

/* Bytes of @p v after its first @p words blank-separated words. */
static size_t skip_words(const char *v, size_t words)
{
	size_t at = 0;

	for (size_t w = 0; w < words; w++) {
		while (v[at] && v[at] != ' ')
			at++;
		while (v[at] == ' ')
			at++;
	}
	return at;
}

static size_t count_words(const char *v)
{
	size_t w = 0;

	for (size_t at = 0; v[at];) {
		while (v[at] == ' ')
			at++;
		if (!v[at])
			break;
		w++;
		while (v[at] && v[at] != ' ')
			at++;
	}
	return w;
}

/* The leading words every value of @p key shares, leaving each at least one. */
static size_t common_words(const struct ccb_chart_keys *s, size_t n, const char *key)
{
	const char *v0 = value_of(&s[0], key);
	size_t common = count_words(v0);

	for (size_t i = 0; i < n && common; i++) {
		const char *v = value_of(&s[i], key);
		size_t w = 0, words = count_words(v);

		while (w < common && w < words) {
			size_t a = skip_words(v0, w), b = skip_words(v, w), la = 0, lb = 0;
			while (v0[a + la] && v0[a + la] != ' ')
				la++;
			while (v[b + lb] && v[b + lb] != ' ')
				lb++;
			if (la != lb || strncmp(v0 + a, v + b, la) != 0)
				break;
			w++;
		}
		common = w < words ? w : words ? words - 1 : 0;
	}
	return common;
}

static void append(char *buf, size_t len, const char *sep, const char *s)
{
	size_t l = strlen(buf);

	snprintf(buf + l, len - l, "%s%s", l ? sep : "", s);
}

int ccb_chart_legend_names(const struct ccb_chart_series *ser, const struct ccb_chart_keys *s,
                           size_t n, const char *skip_key, char **names, char *header,
                           size_t header_len)
{
	const char *keys[MAX_KEYS];
	size_t common[MAX_KEYS], nk = 0, nd = 0, i;
	bool diff[MAX_KEYS];

	header[0] = '\0';
	if (keyed(s, n))
		nk = all_keys(s, n, keys);
	for (size_t k = 0; k < nk; k++) {
		diff[k] = (!skip_key || strcmp(keys[k], skip_key) != 0) && differs(s, n, keys[k]);
		if (diff[k]) {
			common[k] = common_words(s, n, keys[k]);
			append(header, header_len, ", ", keys[k]);
			nd++;
		}
	}
	for (i = 0; i < n; i++) {
		size_t len = 1;
		char *name;

		for (size_t k = 0; k < nk; k++)
			len += diff[k] ? strlen(value_of(&s[i], keys[k])) + 1 : 0;
		if (!nd)
			len += strlen(ser[i].label ? ser[i].label : "");
		name = calloc(len, 1);
		if (!name)
			goto fail;
		if (!nd)
			strcpy(name, ser[i].label ? ser[i].label : "");
		for (size_t k = 0; k < nk; k++)
			if (diff[k]) {
				const char *v = value_of(&s[i], keys[k]);
				append(name, len, " ", v + skip_words(v, common[k]));
			}
		names[i] = name;
	}
	return 0;
fail:
	while (i-- > 0)
		free(names[i]), names[i] = NULL;
	return -ENOMEM;
}

/* The index of @p v among the @p *nv values seen (added when new). SIZE_MAX
 * past @p max values. */
static size_t index_in(const char **seen, size_t *nv, size_t max, const char *v)
{
	for (size_t j = 0; j < *nv; j++)
		if (strcmp(seen[j], v) == 0)
			return j;
	if (*nv >= max)
		return SIZE_MAX;
	seen[*nv] = v;
	return (*nv)++;
}

/*
 * The key that splits @p s into the fewest panels of at most @p per_panel
 * series each, whose other keys name at most CCB_CHART_MAX_STYLES series
 * (so every panel shares one legend); NULL when none does.
 */
static const char *split_key(const struct ccb_chart_keys *s, size_t n, size_t per_panel)
{
	const char *keys[MAX_KEYS], *best = NULL, *seen[CCB_CHART_MAX_PANELS];
	size_t nk = keyed(s, n) ? all_keys(s, n, keys) : 0, best_panels = SIZE_MAX;
	size_t count[CCB_CHART_MAX_PANELS];

	for (size_t k = 0; k < nk; k++) {
		size_t nv = 0, i, most = 0;

		if (!differs(s, n, keys[k]))
			continue;
		memset(count, 0, sizeof(count));
		for (i = 0; i < n; i++) {
			size_t j =
			    index_in(seen, &nv, CCB_CHART_MAX_PANELS, value_of(&s[i], keys[k]));
			if (j == SIZE_MAX)
				break;
			if (++count[j] > most)
				most = count[j];
		}
		if (i < n || most > per_panel || most > CCB_CHART_MAX_STYLES || nv >= best_panels)
			continue;
		best = keys[k];
		best_panels = nv;
	}
	return best;
}

static int alloc_split(struct ccb_chart_split *sp, size_t n, size_t panels)
{
	sp->panel_of = calloc(n + 1, sizeof(*sp->panel_of));
	sp->style_of = calloc(n + 1, sizeof(*sp->style_of));
	sp->names = calloc(n + 1, sizeof(*sp->names));
	sp->titles = calloc(panels + 1, sizeof(*sp->titles));
	return sp->panel_of && sp->style_of && sp->names && sp->titles ? 0 : -ENOMEM;
}

/* Split by @p key: a panel per value, the same style for the same name. */
static int split_by(const struct ccb_chart_series *ser, const struct ccb_chart_keys *s, size_t n,
                    const char *key, struct ccb_chart_split *sp)
{
	const char *vals[CCB_CHART_MAX_PANELS], *ids[CCB_CHART_MAX_STYLES];
	size_t nv = 0, nid = 0;

	if (alloc_split(sp, n, CCB_CHART_MAX_PANELS) < 0 ||
	    ccb_chart_legend_names(ser, s, n, key, sp->names, sp->header, sizeof(sp->header)) < 0)
		return -ENOMEM;
	sp->shared = true;
	for (size_t i = 0; i < n; i++) {
		const char *v = value_of(&s[i], key);
		size_t p = index_in(vals, &nv, CCB_CHART_MAX_PANELS, v);

		sp->panel_of[i] = p;
		sp->style_of[i] = index_in(ids, &nid, CCB_CHART_MAX_STYLES, sp->names[i]);
		sp->n_panels = nv;
		/* More names than styles: no shared legend this way. */
		if (p == SIZE_MAX || sp->style_of[i] == SIZE_MAX)
			return 1;
		if (!sp->titles[p]) {
			size_t l = strlen(key) + strlen(v) + 3;

			sp->titles[p] = malloc(l);
			if (!sp->titles[p])
				return -ENOMEM;
			snprintf(sp->titles[p], l, "%s: %s", key, v);
		}
	}
	return 0;
}

int ccb_chart_split(const struct ccb_chart_series *s, const struct ccb_chart_keys *k, size_t n,
                    size_t per_panel, struct ccb_chart_split *sp)
{
	const char *key;
	int r;

	memset(sp, 0, sizeof(*sp));
	if (per_panel == 0 || per_panel > CCB_CHART_MAX_STYLES)
		per_panel = CCB_CHART_MAX_STYLES;
	key = n > per_panel ? split_key(k, n, per_panel) : NULL;
	if (key) {
		r = split_by(s, k, n, key, sp);
		if (r <= 0) {
			if (r < 0)
				ccb_chart_split_free(sp, n);
			return r;
		}
		ccb_chart_split_free(sp, n);
	}
	/* One panel, or runs of per_panel series, each with its own legend. */
	sp->n_panels = n ? (n + per_panel - 1) / per_panel : 1;
	if (sp->n_panels > CCB_CHART_MAX_PANELS)
		sp->n_panels = CCB_CHART_MAX_PANELS;
	if (alloc_split(sp, n, sp->n_panels) < 0 ||
	    ccb_chart_legend_names(s, k, n, NULL, sp->names, sp->header, sizeof(sp->header)) < 0) {
		ccb_chart_split_free(sp, n);
		return -ENOMEM;
	}
	sp->shared = sp->n_panels == 1;
	for (size_t i = 0; i < n; i++) {
		sp->panel_of[i] = i / per_panel < sp->n_panels ? i / per_panel : SIZE_MAX;
		sp->style_of[i] = i % per_panel;
		sp->not_drawn += sp->panel_of[i] == SIZE_MAX;
	}
	for (size_t p = 0; sp->n_panels > 1 && p < sp->n_panels; p++) {
		sp->titles[p] = malloc(64);
		if (!sp->titles[p]) {
			ccb_chart_split_free(sp, n);
			return -ENOMEM;
		}
		snprintf(sp->titles[p], 64, "series %zu to %zu of %zu", p * per_panel + 1,
		         (p + 1) * per_panel < n ? (p + 1) * per_panel : n, n);
	}
	return 0;
}

void ccb_chart_split_free(struct ccb_chart_split *sp, size_t n)
{
	for (size_t i = 0; sp->names && i < n; i++)
		free(sp->names[i]);
	for (size_t p = 0; sp->titles && p < sp->n_panels; p++)
		free(sp->titles[p]);
	free(sp->panel_of);
	free(sp->style_of);
	free(sp->names);
	free(sp->titles);
	memset(sp, 0, sizeof(*sp));
}
