/* The CephFS path's own options: the struct its rows write in the path block
 * of struct ccb_opts (fio's engine options), and its accessors. */
#ifndef CCBENCH_FS_OPTS_H
#define CCBENCH_FS_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>

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

#endif
