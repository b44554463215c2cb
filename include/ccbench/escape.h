/**
 * @file escape.h
 * Strings from elsewhere (another host's record in RADOS, a saved result)
 * made safe for a terminal and a spreadsheet: every text and CSV view,
 * explain's too, prints them through these.
 */
#ifndef CCBENCH_ESCAPE_H
#define CCBENCH_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/**
 * @p s for a terminal: control characters (C0, DEL, and C1 encoded in
 * UTF-8) as \xHH or \u00HH, so a string from another host's record
 * cannot move the cursor, retitle the window or fake a line. Truncated
 * to @p len, never inside an escape.
 *
 * @return @p buf.
 */
const char *ccb_text_esc(const char *s, char *buf, size_t len);

/** Print @p s to @p out escaped as ccb_text_esc() does, without a length limit. */
void ccb_text_put(FILE *out, const char *s);

/**
 * Print @p s to @p out as one CSV cell: escaped as ccb_text_put() does;
 * a cell beginning with = + - @ tab or CR prefixed with a single quote (so
 * a spreadsheet does not take it for a formula); quoted when it holds a
 * comma, quote, the prefix or a space at either end.
 */
void ccb_csv_cell(FILE *out, const char *s);

#endif
