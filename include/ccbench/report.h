/**
 * @file report.h
 * Views of a result: text, JSON and CSV rendered from the one model.
 */
#ifndef CCBENCH_REPORT_H
#define CCBENCH_REPORT_H

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>

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
 * a regular file and never following a link another user could have
 * planted. The path is walked again (ccb_output_resolve()) at the write:
 *   - a regular file or a new name: written to a random O_EXCL file in the
 *     same directory and renamed over it, so a reader never sees half a
 *     file; an existing file's permissions (and, for root, owner) are kept;
 *   - a symlink: followed only where ccb_output_may_follow() allows, the
 *     target replaced that way, the link kept;
 *   - the null device (1:3): written in place, opened O_NONBLOCK;
 *   - /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that open
 *     descriptor, written where it stands (an append stays an append);
 *   - refused: a directory (-EISDIR), a symlink not followed (-EPERM), a
 *     FIFO, socket, block device or other device (-EINVAL).
 * Errors are printed naming @p opt ("--svg") and the path.
 *
 * @return 0, or -errno.
 */
int ccb_report_to_file(const char *path, const char *opt, const json_t *doc,
                       int (*render)(const json_t *, FILE *));

/**
 * The kernel's fs.protected_symlinks rule: a symlink @p link in directory
 * @p dir may be followed by @p euid when @p euid owns it, when @p dir is
 * not both sticky and world-writable, or when @p dir's owner owns it.
 */
bool ccb_output_may_follow(const struct stat *dir, const struct stat *link, uid_t euid);

/** Where an output path leads (ccb_output_resolve()). */
struct ccb_output_target {
	int fd;                  /**< a descriptor's name (/dev/stdout ...): it; else -1 */
	int dirfd;               /**< else the directory the name is in (O_PATH), or -1 */
	char name[NAME_MAX + 1]; /**< the last component, in @c dirfd */
	bool exists;             /**< whether @c name exists; then @c st is its lstat */
	struct stat st;
};

/**
 * Walk @p path one component at a time from descriptors, following a
 * symlink only where ccb_output_may_follow() allows (every hop), at most
 * 40 of them. Close @p t with ccb_output_target_close().
 *
 * @return 0; -EPERM for a link not followed, -ENOENT, -ENOTDIR, -EISDIR,
 *         -ELOOP, -ENAMETOOLONG or another -errno, with @p err saying why.
 */
int ccb_output_resolve(const char *path, struct ccb_output_target *t, char *err, size_t err_len);

/** Close what ccb_output_resolve() opened. */
void ccb_output_target_close(struct ccb_output_target *t);

/**
 * Check output option @p opt's @p path before anything runs: the walk of
 * ccb_output_resolve(), and an existing name must be a regular file or
 * the null device, a descriptor's name an open descriptor.
 *
 * @return 0, or -errno with "OPT 'PATH': why" in @p err.
 */
int ccb_output_check(const char *path, const char *opt, char *err, size_t err_len);

/**
 * Render to --output FILE (through ccb_report_to_file()), or stdout.
 *
 * @return 0, or -errno with a message printed.
 */
int ccb_report_emit(const json_t *result, const struct ccb_opts *o);

#endif
