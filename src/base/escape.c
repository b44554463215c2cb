/*
 * Escaping for every view (report, explain, group report): strings that come from elsewhere (a
 * group member's record in RADOS, written by any client of the cluster;
 * a saved result) reach a terminal or a spreadsheet. In text, control
 * characters become visible escapes; in CSV, a cell is also kept from
 * being read as a formula (the OWASP rule: a leading single quote).
 */
#include <ccbench/escape.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The next piece of @p s into @p piece: the escape of a control character
 * or an invalid byte, else the bytes of one UTF-8 character as they are.
 * @return how many bytes of @p s it stands for.
 */
static size_t next_piece(const unsigned char *s, char piece[8])
{
	unsigned c = s[0], cp, n, i;

	if (c < 0x20 || c == 0x7f) {
		snprintf(piece, 8, "\\x%02x", c);
		return 1;
	}
	if (c < 0x80) {
		piece[0] = (char)c;
		piece[1] = '\0';
		return 1;
	}
	n = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
	if (c >= 0xf5)
		n = 0;
	cp = n == 2 ? c & 0x1f : n == 3 ? c & 0x0f : c & 0x07;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			break;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (n == 0 || i < n) {
		/* Not UTF-8: a lone byte such as 0x9b is CSI to some terminals. */
		snprintf(piece, 8, "\\x%02x", c);
		return 1;
	}
	if (cp >= 0x80 && cp <= 0x9f) { /* the C1 controls */
		snprintf(piece, 8, "\\u%04x", cp);
		return n;
	}
	memcpy(piece, s, n);
	piece[n] = '\0';
	return n;
}

const char *ccb_text_esc(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	size_t o = 0;

	if (!len)
		return buf;
	buf[0] = '\0';
	while (*p) {
		char piece[8];
		size_t used = next_piece(p, piece), pl = strlen(piece);

		if (o + pl >= len)
			break;
		memcpy(buf + o, piece, pl + 1);
		o += pl;
		p += used;
	}
	return buf;
}

void ccb_text_put(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	while (*p) {
		char piece[8];

		p += next_piece(p, piece);
		fputs(piece, out);
	}
}

void ccb_csv_cell(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");
	bool formula = s && strchr("=+-@\t\r", s[0]) && s[0];
	size_t n = strlen((const char *)p);
	bool quote =
	    formula || strpbrk((const char *)p, ",\"\n") || (n && (p[0] == ' ' || p[n - 1] == ' '));

	if (quote)
		fputc('"', out);
	if (formula)
		fputc('\'', out);
	while (*p) {
		char piece[8];

		if (*p == '"') {
			fputs("\"\"", out);
			p++;
			continue;
		}
		p += next_piece(p, piece);
		fputs(piece, out);
	}
	if (quote)
		fputc('"', out);
}
