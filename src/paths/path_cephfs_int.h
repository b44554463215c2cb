/*
 * Inside the CephFS paths: what the stream path (path_cephfs.c: fs write,
 * fs read) and the metadata path (path_cephfs_meta.c: fs meta) share, in
 * path_cephfs_common.c: the mounts, the run's directory, the marker on
 * what ccbench makes, and the undo entries that remove it.
 *
 * Not a public header: only the CephFS path files include it.
 */
#ifndef CCBENCH_PATH_CEPHFS_INT_H
#define CCBENCH_PATH_CEPHFS_INT_H

/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt.
 * It must be set before the first system header, so in each file. */
#if !defined(_FILE_OFFSET_BITS) || _FILE_OFFSET_BITS != 64
#error "define _FILE_OFFSET_BITS 64 before any include"
#endif

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ccbench/engine.h>
#include <ccbench/options.h>
#include <ccbench/undo.h>

#include <cephfs/libcephfs.h>

/* The marker xattr on what ccbench makes (see path_cephfs_common.c). */
#define CCB_FS_MARK_XATTR  "user.ccbench"
#define CCB_FS_MARK_PREFIX "ccbench run "

/* A run's state, the part every CephFS workload has (run->path_data). */
struct ccb_fsrun {
	const struct ccb_opts *opts;
	struct ceph_mount_info *ctl;
	char dir[512];
	char mark[160]; /* this run's marker value */
	bool created_dir;
	bool existing_files; /* fs read --dir: files of an earlier write */
	uint64_t file_bytes; /* per client; for read --dir, checked against the files */
	uint64_t block_bytes;
	uint64_t deadline_nsec; /* -d, kept by the path (see path_cephfs.c) */
	/* Requested layout, 0 = the directory's default. */
	int stripe_unit, stripe_count, object_size;
	const char *data_pool;
	/* The workload's own state, released with the control mount (or NULL). */
	void (*release)(struct ccb_fsrun *fr);
};

/* A client's state (cl->path_data). */
struct ccb_fsclient {
	struct ceph_mount_info *cm;
	int fd;
	char path[600];
	const char *call; /* the call of the current op, for messages */
	uint64_t pos, file_bytes;
	bool done;
};

/* One ceph_mount configured the way librados is (-c, -n/-i, -k, CEPH_ARGS,
 * -o). @return 0, or -errno with the reason in @p err. */
int ccb_fs_mount(const struct ccb_opts *o, struct ceph_mount_info **out, char *err, size_t err_len);
void ccb_fs_unmount(struct ceph_mount_info *cm);

/*
 * The start of every CephFS prepare, after its checks that need no
 * cluster: one op at a time per client, @p size bytes of run state
 * (struct ccb_fsrun first) holding the options, the run's directory and
 * marker, the control mount (its unmount logged), the fsid, --data-pool
 * checked. On success run->path_data is the state, freed by the undo log.
 */
int ccb_fs_run_open(struct ccb_run *run, size_t size, struct ccb_fsrun **out);

/* Make or claim the run's directory (an existing one only with --reuse). */
int ccb_fs_claim_dir(struct ccb_run *run, struct ccb_fsrun *fr);

/* -d is kept by the path, not the engine (see path_cephfs.c). */
void ccb_fs_take_deadline(struct ccb_run *run, struct ccb_fsrun *fr);

/* run->layout's dir, dir_created and kept. */
void ccb_fs_layout(struct ccb_run *run, const struct ccb_fsrun *fr);

/* "kept directory DIR" with --keep, at the end of a run. */
void ccb_fs_say_kept(const struct ccb_run *run, const struct ccb_fsrun *fr);

/* 1 when @p path carries a ccbench marker (of any run), 0 when not, or -errno. */
int ccb_fs_is_marked(struct ceph_mount_info *cm, const char *path);

/* Mark what this run just made (through @p fd when >= 0, else by @p path). */
void ccb_fs_mark_made(struct ccb_run *run, struct ccb_fsrun *fr, struct ceph_mount_info *cm,
                      const char *path, int fd);

/* Log @p fn on @p path; @p by_hand ("rm -r") is how a user would undo it. */
int ccb_fs_push_undo(const char *what, ccb_undo_fn fn, struct ccb_fsrun *fr, const char *path,
                     const char *by_hand);

/* Undo entries for ccb_fs_push_undo(): remove a file, a tree this run made. */
int ccb_fs_undo_unlink(void *arg);
int ccb_fs_undo_rm_tree(void *arg);

/* A client with its own mount and no file yet (fd -1); cl->path_data set. */
int ccb_fs_client_mount(struct ccb_client *cl, struct ccb_fsclient **out);

/* The ops every CephFS workload shares. */
void ccb_fs_set_error(struct ccb_client *cl, struct ccb_slot *s, int r, const char *extra);
void ccb_fs_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len);
void ccb_fs_client_close(struct ccb_client *cl);

#endif
