/**
 * @file path_cephfs.h
 * The CephFS paths' face: their tables (through libcephfs and on a mount,
 * streams and metadata), command and option rows, for the registry.
 */
#ifndef CCBENCH_PATH_CEPHFS_H
#define CCBENCH_PATH_CEPHFS_H

#include <stddef.h>
#include <stdint.h>

#include <ccbench/command.h>
#include <ccbench/options.h>
#include <ccbench/path.h>

#include "fs_opts.h"

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
