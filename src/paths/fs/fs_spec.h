/**
 * @file fs_spec.h
 * The CephFS paths' pure rules, exposed for the unit tests: the bonnie++
 * -n file spec and the layout rules checked before mounting (both CephFS
 * tables' validate; path_cephfs_common.c).
 */
#ifndef CCBENCH_FS_SPEC_H
#define CCBENCH_FS_SPEC_H

#include <stddef.h>
#include <stdint.h>

#include <ccbench/options.h>

/** Most -n thousands (1024 files each): 4M files, permutations of 48 MiB. */
#define CCB_FS_SPEC_MAX_K 4096
/** Most directories in a spec. */
#define CCB_FS_SPEC_MAX_DIRS 100000
/** Largest file of a spec (one read or write call). */
#define CCB_FS_SPEC_MAX_BYTES (1ull << 30)

/** bonnie++ -n N:MAX:MIN:DIRS, parsed. */
struct ccb_fs_spec {
	uint64_t files;     /**< N x 1024 */
	uint64_t max_bytes; /**< largest file (0: empty files) */
	uint64_t min_bytes; /**< smallest file */
	uint64_t dirs;      /**< directories the files spread over (0 and 1: one) */
};

/**
 * Parse a bonnie++ -n spec: N[:MAX[:MIN[:DIRS]]], N in units of 1024
 * files (1 to CCB_FS_SPEC_MAX_K), MAX and MIN sizes such as 800k (default
 * 0), MIN <= MAX, DIRS 0 to CCB_FS_SPEC_MAX_DIRS (default 0).
 *
 * @return 0, or -EINVAL with the reason in @p err ("--files '1:x': ...").
 */
int ccb_fs_spec_parse(const char *spec, struct ccb_fs_spec *out, char *err, size_t err_len);

/**
 * The rules of an fs command that need no cluster: the -n spec, block
 * size against file size, the file layout (stripe unit a multiple of 64K
 * dividing the object size), --dir an absolute path other than "/", and
 * ccb_fs_mount_rules().
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_fs_validate(const struct ccb_opts *o, char *err, size_t err_len);

/**
 * The rules of the mount options that need nothing but the options
 * (part of ccb_fs_validate()): --mount or --mount-via, not both;
 * --mount-options only where ccbench mounts, with no key material
 * (secret=, key=) and only the characters of mount options; --direct only
 * on a mount, with a --block-size multiple of 4096; --mount absolute.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_fs_mount_rules(const struct ccb_opts *o, char *err, size_t err_len);

#endif
