/*
 * The POSIX path's private declarations, shared by its three files:
 * path_posix.c (the calls on a mounted directory, the path's tables),
 * posix_mount.c (the mounts and the worker threads their calls run on)
 * and posix_describe.c (what the result says of the mount). Only these
 * files include it; what the fs paths share is path_cephfs_int.h's.
 */
#ifndef CCBENCH_PATH_POSIX_INT_H
#define CCBENCH_PATH_POSIX_INT_H

#include "path_cephfs_int.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* One directory the run works in: the root of a mount (or --mount DIR). */
struct pmount {
	int root; /* O_PATH | O_DIRECTORY */
	char where[PATH_MAX];
	bool direct; /* --direct: files opened O_DIRECT */
	bool cephfs; /* a CephFS mount: kernel or ceph-fuse */
};

struct pworker;

/* The run's: how it mounts, the monitor of the workers, the cache check. */
struct prun {
	struct ccb_run *run;
	enum { VIA_DIR, VIA_FUSE, VIA_KERNEL } via;
	bool workers; /* calls on worker threads (a CephFS mount) */
	pthread_t monitor;
	bool monitor_started, mon_quit;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct pworker *list;
	/* Reads: the files' bytes still in the page cache when each opened it. */
	bool cache_checked;
	uint64_t resident_bytes, checked_bytes;
};

/*
 * The struct ccb_fs_io calls of the mounts (posix_mount.c): mount the
 * run's control mount (@p idx < 0: the run's state, the call monitor) or
 * client @p idx's, and let it go; hand an op to the client's worker
 * thread (or run it inline on a local file system); start and stop a
 * client's worker. ccb_posix_client_closing() returns true when the
 * worker is stuck in an abandoned call (it then keeps the client's state).
 */
int ccb_posix_mount(struct ccb_run *run, struct ccb_fsrun *fr, int idx, void **m, char *err,
                    size_t err_len);
void ccb_posix_unmount(void *m);
int ccb_posix_submit(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                     const struct ccb_fs_op *op);
int ccb_posix_client_opened(struct ccb_client *cl);
bool ccb_posix_client_closing(struct ccb_client *cl);

/* The mount in the run's layout: client kind, mount options, the kernel
 * client's limits or ceph-fuse's settings, the cluster's fsid
 * (posix_describe.c). */
void ccb_posix_describe_run(struct ccb_run *run, struct ccb_fsrun *fr);

#endif
