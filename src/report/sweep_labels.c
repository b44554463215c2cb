/*
 * The names and figures every view of a saved sweep prints: a matrix
 * value as a label (escaped once, here, for the terminal, a CSV cell and
 * an SVG label alike), a series' label, a point's aggregate figure, the
 * distinct rows and columns of a table. Below the views that use them.
 */
#include <ccbench/sweep_report.h>
#include <ccbench/escape.h>

#include "sweep_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

const char *ccb_sweep_str_or(const json_t *v, const char *dflt)
{
	const char *s = json_string_value(v);
	return s ? s : dflt;
}

/* Only printable ASCII: a label that needs no escaping (and no bound). */
static bool plain(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p > 0x7e)
			return false;
	return true;
}

const char *ccb_sweep_label_of(const json_t *v, char *buf, size_t len)
{
	/* A saved sweep's matrix value reaches a terminal, a CSV cell, an
	 * SVG label: escaped here, once for every view. */
	if (json_is_string(v))
		return plain(json_string_value(v)) ? json_string_value(v)
		                                   : ccb_text_esc(json_string_value(v), buf, len);
	if (json_is_integer(v))
		snprintf(buf, len, "%lld", (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, len, "%g", json_real_value(v));
	else if (json_is_boolean(v))
		snprintf(buf, len, "%s", json_is_true(v) ? "true" : "false");
	else
		snprintf(buf, len, "-");
	return buf;
}

/* "order=20 path=librbd": a point's matrix values other than the row key. */
void ccb_sweep_series_label(const json_t *matrix, const char *row_key, char *buf, size_t len)
{
	const char *key;
	json_t *v;
	char vb[64], kb[64];

	buf[0] = '\0';
	json_object_foreach((json_t *)matrix, key, v)
	{
		size_t l = strlen(buf);
		if (strcmp(key, row_key) == 0)
			continue;
		snprintf(buf + l, len - l, "%s%s=%s", l ? " " : "",
		         ccb_text_esc(key, kb, sizeof(kb)), ccb_sweep_label_of(v, vb, sizeof(vb)));
	}
	if (!buf[0])
		snprintf(buf, len, "MiB/s");
}

double ccb_sweep_agg(const json_t *pt, const char *what, const char *stat)
{
	return json_number_value(
	    json_object_get(json_object_get(json_object_get(pt, "aggregate"), what), stat));
}

/* Distinct labels in order of first appearance (a set beside the list:
 * linear in the points, whatever a crafted document holds). */
json_t *ccb_sweep_distinct(const json_t *points, const char *row_key, bool rows)
{
	json_t *out = json_array(), *seen = json_object(), *p;
	size_t i;
	char buf[256], vb[64];

	json_array_foreach((json_t *)points, i, p)
	{
		const json_t *m = json_object_get(p, "matrix");
		const char *l =
		    rows ? ccb_sweep_label_of(json_object_get(m, row_key), vb, sizeof(vb)) : buf;

		if (!rows)
			ccb_sweep_series_label(m, row_key, buf, sizeof(buf));
		if (json_object_get(seen, l))
			continue;
		json_object_set_new(seen, l, json_true());
		json_array_append_new(out, json_string(l));
	}
	json_decref(seen);
	return out;
}
