/**
 * @file report.h
 * Views of a result: text, JSON and CSV rendered from the one model.
 */
#ifndef CCBENCH_REPORT_H
#define CCBENCH_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include <ccbench/options.h>

/** Render @p result to @p out. @return 0 or -EIO. */
int ccb_report_write(const json_t *result, enum ccb_format fmt, FILE *out);

/**
 * Render @p doc with @p render into @p path: written beside and renamed
 * into place, so a reader never sees half a file. Errors are printed
 * naming @p opt ("--svg") and the path.
 *
 * @return 0, or -errno.
 */
int ccb_report_to_file(const char *path, const char *opt, const json_t *doc,
		       int (*render)(const json_t *, FILE *));

/**
 * Render to --output FILE, or stdout. The file is written beside and
 * renamed into place, so a reader never sees half a result.
 *
 * @return 0, or -errno with a message printed.
 */
int ccb_report_emit(const json_t *result, const struct ccb_opts *o);

#endif
