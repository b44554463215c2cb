/**
 * @file report.h
 * Views of a result: text, JSON and CSV rendered from the one model.
 */
#ifndef CCBENCH_REPORT_H
#define CCBENCH_REPORT_H

#include <stdio.h>

#include <jansson.h>

#include <ccbench/options.h>

/** The number at @p key of object @p o; 0 when absent or not a number. */
double ccb_report_num(const json_t *o, const char *key);

/** The string at @p key of object @p o; "" when absent or not a string. */
const char *ccb_report_str(const json_t *o, const char *key);

/** Render @p result to @p out. @return 0 or -EIO. */
int ccb_report_write(const json_t *result, enum ccb_format fmt, FILE *out);

/**
 * Render @p doc with @p render into @p path, never replacing what is not
 * a regular file:
 *   - a regular file or a new name: written to a mkstemp() file in the
 *     same directory and renamed over it, so a reader never sees half a
 *     file; an existing file's permissions (and, for root, owner) are kept;
 *   - a symlink: followed, the target replaced that way, the link kept;
 *   - a character device or a FIFO: written in place, the node kept;
 *   - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that open
 *     descriptor, written where it stands (an append stays an append);
 *   - a directory (-EISDIR) or a block device (-EINVAL): refused.
 * Errors are printed naming @p opt ("--svg") and the path.
 *
 * @return 0, or -errno.
 */
int ccb_report_to_file(const char *path, const char *opt, const json_t *doc,
                       int (*render)(const json_t *, FILE *));

/**
 * Render to --output FILE (through ccb_report_to_file()), or stdout.
 *
 * @return 0, or -errno with a message printed.
 */
int ccb_report_emit(const json_t *result, const struct ccb_opts *o);

#endif
