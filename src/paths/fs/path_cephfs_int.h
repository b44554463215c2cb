/*
 * Inside the file system paths: what every fs workload shares, whatever
 * client runs it. The workloads (fs_stream.c: fs write, fs read;
 * fs_meta.c: fs meta) make their calls through a struct
 * ccb_fs_io, the calls of one kind of client: libcephfs in this process
 * (path_cephfs_common.c), or POSIX calls on a mounted directory
 * (path_posix.c: the kernel client, ceph-fuse, or any local file system).
 * path_cephfs_common.c holds the rest they share: the run's directory and
 * the marker on what ccbench makes; cephfs_remove.c the record of what a
 * run made and the undo entries that remove it.
 *
 * Not a public header: only the fs path files include it.
 */
#ifndef CCBENCH_PATH_CEPHFS_INT_H
#define CCBENCH_PATH_CEPHFS_INT_H

/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt.
 * It must be set before the first system header, so in each file. */
#if !defined(_FILE_OFFSET_BITS) || _FILE_OFFSET_BITS != 64
#error "define _FILE_OFFSET_BITS 64 before any include"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/engine.h>
#include <ccbench/options.h>
#include <ccbench/undo.h>

/* The marker xattr on what ccbench makes (see path_cephfs_common.c). */
#define CCB_FS_MARK_XATTR  "user.ccbench"
#define CCB_FS_MARK_PREFIX "ccbench run "

/* The calls an fs run makes, named in messages as each client spells them. */
enum ccb_fs_call {
	CCB_FS_CREATE,
	CCB_FS_OPEN,
	CCB_FS_WRITE,
	CCB_FS_READ,
	CCB_FS_FSYNC,
	CCB_FS_CLOSE,
	CCB_FS_STAT,
	CCB_FS_UNLINK,
	CCB_FS_MKDIR,
	CCB_FS_RMDIR,
	CCB_FS_OPENDIR,
	CCB_FS_GETXATTR,
	CCB_FS_SETXATTR,
	CCB_FS_N_CALLS
};

struct ccb_fs_stat {
	uint64_t size_bytes;
	unsigned mode; /* S_IFMT bits and permissions */
};

struct ccb_fsrun;
struct ccb_fsclient;
struct ccb_fs_made;

/* The layout a run asks new files for (0 and "": the directory's). */
struct ccb_fs_layout {
	int stripe_unit, stripe_count, object_size;
	char data_pool[128];
};

/* The fs meta kinds of op. */
enum ccb_fs_meta_kind { CCB_FS_META_CREATE, CCB_FS_META_READ, CCB_FS_META_DELETE };

/*
 * One op as the workload planned it, with a copy of everything its calls
 * need: a thread stuck in one of them (a cluster that does not answer)
 * may return long after the run freed its slots and state, and must then
 * reach nothing of theirs. Only the client's own mount, descriptor and
 * path (kept while such a call is out) and @c buf (the slot's, or the
 * calling thread's own) are pointed to.
 */
struct ccb_fs_op {
	const struct ccb_fs_io *io;
	void *m;
	int fd;
	const char *path;
	struct ccb_fs_layout layout;
	char *buf;
	uint64_t offset, len_bytes;
	bool write, last, rewind;
	enum ccb_fs_meta_kind kind;
	/* In: record the inode of a file the op creates (libcephfs). Out:
	 * that inode, recorded when the op completes (ccb_fs_complete_op). */
	bool want_ino;
	uint64_t ino;
	/* In (libcephfs, whose ops run inline, while the run's state is
	 * there): what the run made; a delete takes only a file in it. */
	struct ccb_fs_made *made;
	/* In (libcephfs, fs meta's delete): the inode of the file's
	 * directory, which the run made; the unlink goes through it. */
	uint64_t dir_ino;
	/* Out: the call that failed, and more to say. */
	const char *call;
	char extra[128];
};

/* One op's calls: bytes, or -errno with op->call saying which. */
typedef int (*ccb_fs_exec_fn)(struct ccb_fs_op *op);

/*
 * The calls of one kind of client. @p m is one mount of the file system
 * (libcephfs: a struct ceph_mount_info; POSIX: a directory held open);
 * paths are absolute within it ("/ccbench-x/client-0"). No call follows
 * a symbolic link in the last component (POSIX: in any component). All
 * return 0 (or bytes, or a descriptor) or -errno.
 */
struct ccb_fs_io {
	const char *client;       /* "libcephfs", "posix" */
	const char *const *calls; /* [enum ccb_fs_call]: names for messages */
	/* A mount for the run: the control mount (@p idx < 0), or client @p idx's. */
	int (*mount)(struct ccb_run *run, struct ccb_fsrun *fr, int idx, void **m, char *err,
	             size_t err_len);
	/* Let go of @p m (what made the mount itself may be the undo log's). */
	void (*unmount)(void *m);
	/* What paths are shown under in messages: "" or the mount point. */
	const char *(*where)(void *m);
	/* O_CREAT | O_EXCL | O_WRONLY, 0644, laid out as @p layout asks. */
	int (*create)(void *m, const char *path, const struct ccb_fs_layout *layout);
	int (*open)(void *m, const char *path, int flags);
	int (*close)(void *m, int fd);
	int64_t (*pwrite)(void *m, int fd, const void *buf, uint64_t len, uint64_t off);
	int64_t (*pread)(void *m, int fd, void *buf, uint64_t len, uint64_t off);
	int (*fsync)(void *m, int fd);
	int (*stat)(void *m, const char *path, struct ccb_fs_stat *st);
	int (*fstat)(void *m, int fd, struct ccb_fs_stat *st);
	int (*mkdir)(void *m, const char *path);
	int (*rmdir)(void *m, const char *path);
	int (*unlink)(void *m, const char *path);
	/* Bytes of the value, -ENODATA when absent. */
	int (*getxattr)(void *m, const char *path, const char *name, char *val, size_t len);
	/* Through @p fd when >= 0, else by @p path. */
	int (*setxattr)(void *m, const char *path, int fd, const char *name, const char *val,
	                size_t len);
	/* Call @p fn for each entry of directory @p path but . and ..; stops at
	 * the first negative return of @p fn and returns it. */
	int (*readdir)(void *m, const char *path,
	               int (*fn)(void *arg, const char *name, bool is_dir), void *arg);
	/* The layout the file system gave the open file (object_size,
	 * stripe_unit, stripe_count, pool ...), read back; NULL where the file
	 * system has none (a local one), with the reason in @p why when it failed. */
	json_t *(*file_layout)(void *m, int fd, char *why, size_t why_len);
	/* Run @p exec on @p op (its buf unset) for slot @p s and complete it
	 * (ccb_fs_complete_op): inline on the slot's buffer, or handed (copied)
	 * to a thread of the client's, on its own buffer, which an op stuck in
	 * the kernel cannot hold the run up from. @return 0 or -errno. */
	int (*submit)(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
	              const struct ccb_fs_op *op);
	/* Optional: client @p cl has its mount (cl->path_data set), before its
	 * file is opened (POSIX: its worker thread). @return 0 or -errno. */
	int (*client_opened)(struct ccb_client *cl);
	/* Optional: before @p cl's file and mount are let go. @return true
	 * when they must stay (a call stuck in the kernel may return into them). */
	bool (*client_closing)(struct ccb_client *cl);
	/* Optional: drop @p fd's pages from the page cache, and say how many
	 * bytes of its first @p len stayed (a read from them is no read from
	 * the cluster). @return bytes, or -errno. */
	int64_t (*drop_cache)(void *m, int fd, uint64_t len);
	/* Optional: the run's own fields in its layout ("mount", "client"). */
	void (*describe_run)(struct ccb_run *run, struct ccb_fsrun *fr);
	/* Optional (libcephfs): the inode number of open file @p fd, or with
	 * @p fd < 0 of @p path (not followed), from the client's cache where
	 * it can: for the record the removal works from (cephfs_remove.c). */
	int (*file_ino)(void *m, const char *path, int fd, uint64_t *ino);
	/* Whether undoing (removing the run's files) may wait on a frozen
	 * cluster in the kernel: then each removal is bounded by a thread. */
	bool bounded_undo;
};

/* The libcephfs calls (path_cephfs_common.c). */
extern const struct ccb_fs_io ccb_fs_io_libcephfs;

/* The POSIX calls on a mounted directory (path_posix.c). */
extern const struct ccb_fs_io ccb_fs_io_posix;

struct ccb_fs_made;

/* A run's state, the part every fs workload has (run->path_data). Freed
 * with its control mount when the last reference goes: the undo log's,
 * and each removal still waiting on a cluster that does not answer. */
struct ccb_fsrun {
	atomic_int refs;
	const struct ccb_opts *opts;
	const struct ccb_fs_io *io;
	void *ctl; /* the control mount */
	char dir[512];
	char mark[160]; /* this run's marker value */
	/* libcephfs: the inodes this run made, which alone its removal takes
	 * (cephfs_remove.c), and the inode of the run's directory. NULL on a
	 * mount, whose calls resolve without following links. */
	struct ccb_fs_made *made;
	uint64_t dir_ino;
	bool created_dir;
	bool existing_files; /* fs read --dir: files of an earlier write */
	uint64_t file_bytes; /* per client; for read --dir, checked against the files */
	uint64_t block_bytes;
	uint64_t deadline_nsec; /* -d, kept by the path (see fs_stream.c) */
	/* Requested layout, 0 = the directory's default. */
	struct ccb_fs_layout layout;
	/* A removal got no answer within --op-timeout: the next ones on this
	 * cluster wait a second only (see run_removal). */
	bool undo_stalled;
	/* Reads: bytes of the files still in the page cache once dropped. */
	bool cache_checked;
	uint64_t cache_resident_bytes, cache_file_bytes;
	/* The client kind's own run state (POSIX: the mounts), or NULL. */
	void *io_run;
	void (*io_release)(struct ccb_fsrun *fr);
	/* The workload's own state, released with the control mount (or NULL). */
	void (*release)(struct ccb_fsrun *fr);
};

/* A client's state (cl->path_data). */
struct ccb_fsclient {
	void *m; /* its own mount */
	int fd;
	char path[600];
	const char *call; /* the call of the current op, for messages */
	uint64_t pos, file_bytes;
	bool done;
	bool last;         /* the planned op is the client's last (write: + fsync) */
	bool rewind;       /* the planned read starts a new pass (-d) */
	unsigned op_phase; /* fs meta: the phase of the planned op */
	void *io_client;   /* the client kind's own state (POSIX: its worker) */
};

/* One ceph_mount configured the way librados is (-c, -n/-i, -k, CEPH_ARGS,
 * -o). @return 0, or -errno with the reason in @p err. */
struct ceph_mount_info;
int ccb_fs_mount(const struct ccb_opts *o, struct ceph_mount_info **out, char *err, size_t err_len);
void ccb_fs_unmount(struct ceph_mount_info *cm);

/*
 * The start of every fs prepare, after its checks that need no cluster:
 * @p size bytes of run state (struct ccb_fsrun first) holding the
 * options, the run's directory and marker, the control mount through @p io
 * (its release logged), the fsid, --data-pool checked. On success
 * run->path_data is the state, freed by the undo log.
 */
int ccb_fs_run_open(struct ccb_run *run, const struct ccb_fs_io *io, size_t size,
                    struct ccb_fsrun **out);

/* Make or claim the run's directory (an existing one only with --reuse). */
int ccb_fs_claim_dir(struct ccb_run *run, struct ccb_fsrun *fr);

/* -d is kept by the path, not the engine (see fs_stream.c). */
void ccb_fs_take_deadline(struct ccb_run *run, struct ccb_fsrun *fr);

/* run->layout's dir, dir_created, kept and client. */
void ccb_fs_layout(struct ccb_run *run, const struct ccb_fsrun *fr);

/* "kept directory DIR" with --keep, at the end of a run. */
void ccb_fs_say_kept(const struct ccb_run *run, const struct ccb_fsrun *fr);

/* 1 when @p path carries a ccbench marker (of any run), 0 when not, or -errno. */
int ccb_fs_is_marked(const struct ccb_fsrun *fr, void *m, const char *path);

/* Mark what this run just made (through @p fd when >= 0, else by @p path). */
void ccb_fs_mark_made(struct ccb_run *run, struct ccb_fsrun *fr, void *m, const char *path, int fd);

/*
 * Log @p fn on @p path, just made by this run on mount @p m (a file open
 * as @p fd, or -1); @p by_hand ("rm -r") is how a user would undo it. On
 * libcephfs the entry's inode and type, and its directory's, are recorded
 * first (ccb_fs_record()): the removal takes only that entry.
 * @return 0; -ELOOP (a symbolic link is there now), -EINVAL (neither a
 * file nor a directory), -ENOTDIR, -ENOMEM or another -errno of the
 * lookup: nothing logged.
 */
int ccb_fs_push_undo(const char *what, ccb_undo_fn fn, struct ccb_fsrun *fr, void *m,
                     const char *path, int fd, const char *by_hand);

/* Undo entries for ccb_fs_push_undo(): remove a file, a tree this run
 * made, an empty directory this run made (the run's own). On libcephfs
 * only what the run recorded is removed, found from its directory's
 * inode, never by following a link; anything else is left, said on
 * stderr. @return 0 or -errno of the removal. */
int ccb_fs_undo_unlink(void *arg);
int ccb_fs_undo_rm_tree(void *arg);
int ccb_fs_undo_rmdir(void *arg);

/*
 * Record in fr->made that this run made @p path on mount @p m (a file
 * open as @p fd, or by path on the control mount, not followed): its
 * inode and type into @p ino and @p is_dir (each may be NULL). Nothing
 * on a mount (fr->made NULL: *ino 0). @return 0, -ELOOP when a symbolic
 * link is there, -EINVAL for other types, -ENOMEM, or the lookup's -errno
 * (said on stderr).
 */
int ccb_fs_record(struct ccb_fsrun *fr, void *m, const char *path, int fd, uint64_t *ino,
                  bool *is_dir);

/* fr->dir_ino: the inode of the run's directory (made or reused), the
 * parent its entries are removed from. @return 0, -ENOTDIR, -ELOOP or
 * the lookup's -errno (said on stderr); 0 on a mount. */
int ccb_fs_record_dir(struct ccb_fsrun *fr);

/*
 * fs meta's delete on libcephfs (mount @p m): unlink @p name from the
 * directory of inode @p dir_ino, which the run made, found by its inode
 * and never by a path (libcephfs follows a link on the way, and another
 * client may retarget one between a check and an unlink by path), and
 * only when the entry is a file in @p made, looked up just before, not
 * followed. @return 0, -EEXIST when it is not the run's (left), or the
 * calls' -errno.
 */
int ccb_fs_ll_unlink_made(void *m, struct ccb_fs_made *made, uint64_t dir_ino, const char *name);

/* The record's set (cephfs_remove.c): an empty one, or NULL. */
struct ccb_fs_made *ccb_fs_made_new(void);
void ccb_fs_made_free(struct ccb_fs_made *s);
/* Add inode @p ino (not 0) of type @p is_dir; again: the type is updated.
 * @return 0, -EINVAL (ino 0 or over 2^63), -ENOMEM; 0 when @p s is NULL. */
int ccb_fs_made_add(struct ccb_fs_made *s, uint64_t ino, bool is_dir);
/* 1 when @p ino was added as a directory, 0 as a file, -ENOENT when not. */
int ccb_fs_made_find(struct ccb_fs_made *s, uint64_t ino);

/* Drop a reference to the run's state; the last frees it, its control
 * mount and the record. */
void ccb_fs_run_put(struct ccb_fsrun *fr);

/* A client with its own mount and no file yet (fd -1); cl->path_data set. */
int ccb_fs_client_mount(struct ccb_client *cl, struct ccb_fsclient **out);

/* An op of client @p cl for its mount, descriptor and path, and the run's layout. */
void ccb_fs_op_init(struct ccb_fs_op *op, const struct ccb_client *cl);

/* struct ccb_fs_io.submit run inline: @p exec on the slot's buffer,
 * then the slot completed. */
int ccb_fs_submit_inline(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                         const struct ccb_fs_op *op);

/* Complete @p s with @p ret (bytes or -errno), describing a failure by
 * @p op: the end of every exec, on whichever thread ran it. */
void ccb_fs_complete_op(struct ccb_client *cl, struct ccb_slot *s, int ret,
                        const struct ccb_fs_op *op);

/* The name of @p call for the run's client kind. */
static inline const char *ccb_fs_call_name(const struct ccb_fsrun *fr, enum ccb_fs_call call)
{
	return fr->io->calls[call];
}

/*
 * The workloads (fs_stream.c, fs_meta.c), whose functions fill the tables
 * of the POSIX path (path_posix.c) and, above it, the libcephfs path
 * (path_cephfs.c): only prepare differs, by the struct ccb_fs_io it gives.
 */
int ccb_fs_stream_prepare(struct ccb_run *run, const struct ccb_fs_io *io);
int ccb_fs_stream_client_open(struct ccb_client *cl);
int ccb_fs_stream_submit(struct ccb_client *cl, struct ccb_slot *s);
void ccb_fs_stream_finish(struct ccb_run *run);
uint64_t ccb_fs_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                               uint64_t image_bytes, const char **bound);
int ccb_fs_meta_prepare(struct ccb_run *run, const struct ccb_fs_io *io);
int ccb_fs_meta_client_open(struct ccb_client *cl);
int ccb_fs_meta_submit(struct ccb_client *cl, struct ccb_slot *s);
int ccb_fs_meta_complete(struct ccb_client *cl, struct ccb_slot *s);
void ccb_fs_meta_finish(struct ccb_run *run);
void ccb_fs_meta_result(const struct ccb_run *run, json_t *res);

/* The ops every fs workload shares. */
void ccb_fs_set_error(struct ccb_client *cl, struct ccb_slot *s, int r, const char *extra);
void ccb_fs_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len);
void ccb_fs_client_close(struct ccb_client *cl);

/* A numeric libcephfs setting of control mount @p ctl (a ceph_mount_info,
 * libcephfs path only), or @p dflt (no mount: a dry run). */
uint64_t ccb_fs_conf_u64(void *ctl, const char *key, uint64_t dflt);

#endif
