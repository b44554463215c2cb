/**
 * @file path_cephfs.h
 * The CephFS path's pure parts, exposed for the unit tests: the bonnie++
 * -n file spec and the layout rules checked before mounting (both CephFS
 * tables' validate).
 */
#ifndef CCBENCH_PATH_CEPHFS_H
#define CCBENCH_PATH_CEPHFS_H

#include <stddef.h>
#include <stdint.h>

#include <ccbench/command.h>
#include <ccbench/options.h>
#include <ccbench/path.h>

/** The CephFS paths' own options (their rows: fs_commands.c). */
struct ccb_fs_opts {
	uint64_t file_size_bytes;
	const char *dir;
	const char *files_spec;    /**< bonnie++ -n files:max:min:dirs */
	const char *mount;         /**< a mounted directory to run in (the posix path) */
	const char *mount_via;     /**< libcephfs | fuse | kernel (NULL: libcephfs) */
	const char *mount_options; /**< -o of mount -t ceph / ceph-fuse */
};

_Static_assert(sizeof(struct ccb_fs_opts) <= CCB_PATH_OPTS_BYTES,
               "ccb_fs_opts: too big for the path block");

/** @p o's options of this path (the path block, struct ccb_opts), to read. */
#define CCB_FS_OPTS(o) ((const struct ccb_fs_opts *)(const void *)(o)->path_block.bytes)
/** ... to write (a copy of the options the path makes for itself). */
#define CCB_FS_OPTS_W(o) ((struct ccb_fs_opts *)(void *)(o)->path_block.bytes)

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

/** What both CephFS tables (libcephfs and a mount) can do (struct ccb_path_ops.caps). */
#define CCB_FS_CAPS                                                                                \
	(CCB_CMD_WORKLOAD | CCB_CAP_REUSE | CCB_CAP_CLIENTS | CCB_CAP_OBJECT_SIZE |                \
	 CCB_CAP_STRIPES | CCB_CAP_TEMP | CCB_CAP_DIRECT | CCB_CAP_BLOCK_SIZE)

/*
 * The fs workloads' tables, one for each workload and place: streams (fs
 * write and read) and metadata (fs meta), through libcephfs or on a
 * mounted directory. Each pair shares everything but where the files are
 * (its prepare hands the workload the calls of its place) and the rules of
 * that place: what is shared is written once, here.
 */
#define CCB_FS_STREAM_OPS                                                                          \
	.flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES, .caps = CCB_FS_CAPS,          \
	.opts_bytes = sizeof(struct ccb_fs_opts), .op_size_name = "block-size",                    \
	.estimate_bytes = ccb_fs_estimate_bytes, .client_open = ccb_fs_stream_client_open,         \
	.submit = ccb_fs_stream_submit, .describe = ccb_fs_describe,                               \
	.client_close = ccb_fs_client_close, .finish = ccb_fs_stream_finish
#define CCB_FS_META_OPS                                                                            \
	.flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES | CCB_PATH_PHASED,             \
	.caps = CCB_FS_CAPS, .opts_bytes = sizeof(struct ccb_fs_opts),                             \
	.op_size_name = "block-size", .client_open = ccb_fs_meta_client_open,                      \
	.submit = ccb_fs_meta_submit, .complete = ccb_fs_meta_complete,                            \
	.describe = ccb_fs_describe, .client_close = ccb_fs_client_close,                          \
	.finish = ccb_fs_meta_finish, .result = ccb_fs_meta_result

/** The CephFS path through libcephfs: fs write and read (path_cephfs.c). */
extern const struct ccb_path_ops ccb_path_cephfs;

/** The CephFS path's metadata workload, fs meta (path_cephfs.c). */
extern const struct ccb_path_ops ccb_path_cephfs_meta;

/** fs write and read on a mounted directory: the kernel client, ceph-fuse
 *  or a local file system (path_posix.c). */
extern const struct ccb_path_ops ccb_path_posix;

/** fs meta on a mounted directory (path_posix.c). */
extern const struct ccb_path_ops ccb_path_posix_meta;

/** fs write|read|meta, ending in a row with no name (fs_commands.c). */
extern const struct ccb_command ccb_cephfs_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (fs_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_fs_options[];

#endif
