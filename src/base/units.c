/*
 * Size and duration parsing/formatting for command-line options.
 *
 * strtoull() is deliberately avoided: it skips leading whitespace, accepts
 * a sign (and silently negates "-1" into UINT64_MAX) and needs errno
 * juggling to detect overflow. A hand-rolled digit loop is shorter than
 * the checks needed to make strtoull() strict.
 */
#include "ccbench/units.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

struct unit {
	const char *name;
	uint64_t mult;
};

/*
 * Ceph means binary multiples whatever the spelling ("4MB" is 4 MiB in
 * rados bench -b), so the SI-looking forms are aliases, not powers of ten.
 */
static const struct unit byte_units[] = {
    {"", 1},
    {"B", 1},
    {"K", 1ull << 10},
    {"KB", 1ull << 10},
    {"KiB", 1ull << 10},
    {"M", 1ull << 20},
    {"MB", 1ull << 20},
    {"MiB", 1ull << 20},
    {"G", 1ull << 30},
    {"GB", 1ull << 30},
    {"GiB", 1ull << 30},
    {"T", 1ull << 40},
    {"TB", 1ull << 40},
    {"TiB", 1ull << 40},
    {"P", 1ull << 50},
    {"PB", 1ull << 50},
    {"PiB", 1ull << 50},
};

/*
 * Duration suffixes are matched case-sensitively: "M" would otherwise be
 * minutes here but mega in a size, and rejecting it beats guessing.
 */
static const struct unit duration_units[] = {
    {"", 1000000},
    {"us", 1},
    {"ms", 1000},
    {"s", 1000000},
    {"sec", 1000000},
    {"m", 60ull * 1000000},
    {"min", 60ull * 1000000},
    {"h", 3600ull * 1000000},
};

/*
 * Parse the leading run of decimal digits of @s. On success *end points
 * just past the digits. Overflow is reported only after the caller has
 * had the chance to reject the suffix, so "99999999999999999999x" is a
 * syntax error rather than a range error: the syntax error is what the
 * user needs to fix first.
 */
static int parse_digits(const char *s, uint64_t *out, const char **end)
{
	uint64_t v = 0;
	int overflow = 0;
	const char *p = s;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	*end = p;
	if (p == s)
		return -EINVAL;
	*out = v;
	return overflow ? -ERANGE : 0;
}

static int parse_with_units(const char *s, uint64_t *out, const struct unit *units, size_t n_units,
                            int (*cmp)(const char *, const char *))
{
	const char *suffix;
	uint64_t v = 0;
	size_t i;
	int ret;

	if (!s || !out)
		return -EINVAL;
	ret = parse_digits(s, &v, &suffix);
	if (ret == -EINVAL)
		return ret;
	for (i = 0; i < n_units; i++) {
		if (cmp(suffix, units[i].name) == 0)
			break;
	}
	if (i == n_units)
		return -EINVAL;
	if (ret < 0)
		return ret;
	if (v > UINT64_MAX / units[i].mult)
		return -ERANGE;
	*out = v * units[i].mult;
	return 0;
}

int ccb_parse_bytes(const char *s, uint64_t *out_bytes)
{
	return parse_with_units(s, out_bytes, byte_units,
	                        sizeof(byte_units) / sizeof(byte_units[0]), strcasecmp);
}

int ccb_parse_duration_usec(const char *s, uint64_t *out_usec)
{
	return parse_with_units(s, out_usec, duration_units,
	                        sizeof(duration_units) / sizeof(duration_units[0]), strcmp);
}

int ccb_parse_u64(const char *s, uint64_t *out)
{
	static const struct unit none[] = {{"", 1}};

	return parse_with_units(s, out, none, 1, strcmp);
}

int ccb_parse_pct_centi(const char *s, uint64_t *out_centipct)
{
	const char *p;
	uint64_t whole = 0, frac = 0;
	int ret, digits = 0;

	if (!s || !out_centipct)
		return -EINVAL;
	ret = parse_digits(s, &whole, &p);
	if (ret == -EINVAL)
		return ret;
	if (*p == '.') {
		/* "5." and ".5" are refused: one spelling per number. */
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 2)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
		}
		if (!digits)
			return -EINVAL;
		if (digits == 1)
			frac *= 10;
	}
	if (*p == '%')
		p++;
	if (*p)
		return -EINVAL;
	if (ret < 0 || whole > (UINT64_MAX - frac) / 100)
		return -ERANGE;
	*out_centipct = whole * 100 + frac;
	return 0;
}

int ccb_parse_rate(const char *s, double *out_ops_s, uint64_t *out_bytes_s)
{
	size_t len = s ? strlen(s) : 0;
	uint64_t whole = 0, frac = 0, scale = 1, bytes = 0;
	const char *p;
	char num[64];
	int ret, digits = 0;

	if (!s || !out_ops_s || !out_bytes_s)
		return -EINVAL;
	*out_ops_s = 0;
	*out_bytes_s = 0;
	/* "/s" may follow either form; without it, only the ops form. */
	if (len > 2 && strcmp(s + len - 2, "/s") == 0)
		len -= 2;
	if (len == 0 || len >= sizeof(num))
		return -EINVAL;
	memcpy(num, s, len);
	num[len] = '\0';
	ret = parse_digits(num, &whole, &p);
	if (ret == -EINVAL)
		return ret;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++digits > 3)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
		if (!digits)
			return -EINVAL;
	}
	if (*p) {
		/* A size: its unit makes it bytes (a bare "4096/s" is ops). */
		if (digits || len == strlen(s))
			return -EINVAL;
		ret = ccb_parse_bytes(num, &bytes);
		if (ret < 0)
			return ret;
		if (!bytes)
			return -EINVAL;
		*out_bytes_s = bytes;
		return 0;
	}
	if (ret < 0)
		return ret;
	if (!whole && !frac)
		return -EINVAL;
	*out_ops_s = (double)whole + (double)frac / (double)scale;
	return 0;
}

int ccb_parse_count_or_duration(const char *s, uint64_t *out_count, uint64_t *out_usec)
{
	const char *end;
	uint64_t v;
	int r;

	if (!s || !out_count || !out_usec)
		return -EINVAL;
	*out_count = 0;
	*out_usec = 0;
	r = parse_digits(s, &v, &end);
	if (r == -EINVAL)
		return r;
	if (!*end) {
		if (r == 0)
			*out_count = v;
		return r;
	}
	return ccb_parse_duration_usec(s, out_usec);
}

void ccb_format_pct_centi(uint64_t centipct, char *buf, size_t buf_len)
{
	uint64_t w = centipct / 100, f = centipct % 100;

	if (!buf || buf_len == 0)
		return;
	if (!f)
		snprintf(buf, buf_len, "%llu%%", (unsigned long long)w);
	else if (f % 10 == 0)
		snprintf(buf, buf_len, "%llu.%llu%%", (unsigned long long)w,
		         (unsigned long long)(f / 10));
	else
		snprintf(buf, buf_len, "%llu.%02llu%%", (unsigned long long)w,
		         (unsigned long long)f);
}

/*
 * Print @v with the largest suffix whose multiplier divides it exactly, so
 * that the text parses back to the same value. @units is ordered largest
 * first and ends with the multiplier-1 unit.
 */
static void format_exact(uint64_t v, const struct unit *units, size_t n_units, char *buf,
                         size_t buf_len)
{
	size_t i;

	if (!buf || buf_len == 0)
		return;
	for (i = 0; i + 1 < n_units; i++) {
		if (v % units[i].mult == 0)
			break;
	}
	snprintf(buf, buf_len, "%llu%s", (unsigned long long)(v / units[i].mult), units[i].name);
}

void ccb_format_bytes(uint64_t bytes, char *buf, size_t buf_len)
{
	static const struct unit units[] = {
	    {"P", 1ull << 50}, {"T", 1ull << 40}, {"G", 1ull << 30},
	    {"M", 1ull << 20}, {"K", 1ull << 10}, {"", 1},
	};

	/* 0 divides by everything; "0" reads better than "0P". */
	if (bytes == 0) {
		format_exact(0, units + 5, 1, buf, buf_len);
		return;
	}
	format_exact(bytes, units, sizeof(units) / sizeof(units[0]), buf, buf_len);
}

void ccb_format_duration(uint64_t usec, char *buf, size_t buf_len)
{
	static const struct unit units[] = {
	    {"h", 3600ull * 1000000},
	    {"m", 60ull * 1000000},
	    {"s", 1000000},
	    {"ms", 1000},
	    {"us", 1},
	};

	/* A zero duration is most naturally read as "0s", matching a bare "0" on input. */
	if (usec == 0) {
		format_exact(0, units + 2, 1, buf, buf_len);
		return;
	}
	format_exact(usec, units, sizeof(units) / sizeof(units[0]), buf, buf_len);
}

/* Here, below options.c and osd_inject.c, which both check an fsid's
 * spelling (--osd-latency-cluster, a crash record). */
bool ccb_is_printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

bool ccb_is_fsid(const char *s)
{
	static const int groups[] = {8, 4, 4, 4, 12};

	if (!s)
		return false;
	for (size_t g = 0; g < 5; g++) {
		for (int i = 0; i < groups[g]; i++, s++)
			if (!isxdigit((unsigned char)*s))
				return false;
		if (g < 4 && *s++ != '-')
			return false;
	}
	return *s == '\0';
}
