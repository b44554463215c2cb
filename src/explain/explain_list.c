/*
 * What every explain kind writes with: appending an entry to the list and
 * the small formatters their texts share. It sits below explain.c and each
 * explain_*.c that holds kinds, so the kinds call down into it and explain.c
 * (which runs them) is the only file above them.
 */
#include <ccbench/units.h>

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

#include "explain_int.h"

/* Appends {kind, severity, text, figures}; @p figures is stolen. */
void ccb_explain_add(json_t *list, const char *kind, const char *severity, json_t *figures,
                     const char *fmt, ...)
{
	char text[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o}", "kind", kind, "severity",
	                                      severity, "text", text, "figures",
	                                      figures ? figures : json_object()));
}

void ccb_explain_fmt_bytes(double b, char *buf, size_t len)
{
	ccb_format_bytes(b > 0 ? (uint64_t)b : 0, buf, len);
}

/* "osd.1, osd.2" of @p names (a JSON array), at most a few. */
void ccb_explain_names(const json_t *a, char *buf, size_t len)
{
	const json_t *v;
	size_t i, o = 0;

	buf[0] = '\0';
	json_array_foreach(a, i, v)
	{
		if (i == 4) {
			snprintf(buf + o, len - o, " and %zu more", json_array_size(a) - 4);
			break;
		}
		int n = snprintf(buf + o, len - o, "%s%s", i ? ", " : "", string_or(v, "?"));
		if (n < 0 || (size_t)n >= len - o)
			break;
		o += (size_t)n;
	}
}
