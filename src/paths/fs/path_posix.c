/*
 * The POSIX path: fs write, read and meta on a mounted directory, through
 * open/pwrite/pread/fsync, the same workloads as the libcephfs path (the
 * functions of fs_stream.c and fs_meta.c, below it, over this file's
 * struct ccb_fs_io). path_cephfs.c, above it, turns an fs command that
 * names a mount over to this file's tables. Three ways to a directory:
 *
 * - --mount DIR: the user's mount (a CephFS kernel or ceph-fuse mount, or
 *   any local file system, as seeds 000, 001 and 004 measured XFS); every
 *   client works in it.
 * - --mount-via fuse|kernel: ccbench mounts the cluster's CephFS itself
 *   (fs_mount.c), a control mount for the run's directory and one mount
 *   per client, so that two clients are two nodes.
 *
 * Nothing outside the run's own directory is touched: every path is
 * resolved below the mount's root with openat2(RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS), so no symbolic link is followed anywhere and no
 * ".." leads out; what is made is made with O_EXCL or mkdirat (an entry
 * already there is someone else's, EEXIST), marked with the user.ccbench
 * xattr and removed through the undo log, as on the libcephfs path.
 *
 * Reads start cold: a reader's file pages are dropped
 * (POSIX_FADV_DONTNEED) when it opens it, and before each later pass
 * under -d; how much of the file was still in the page cache (mincore)
 * goes to the result, for explain's cache kind. --direct opens the files
 * O_DIRECT instead.
 *
 * On a CephFS mount a call can wait in the kernel for as long as the
 * cluster does not answer (an MDS frozen: no timeout at all). So each
 * client's calls run on a worker thread of its own, and a monitor
 * abandons an op past --op-timeout, or one second after Ctrl-C: the run
 * ends, bounded, and the unwind's unmount ends the wait (ceph-fuse
 * stopped, umount -f). A local file system runs its calls inline.
 */
#define _FILE_OFFSET_BITS 64

#include <ccbench/clock.h>
#include <ccbench/fs_mount.h>
#include "path_cephfs_int.h"

#include <ccbench/cluster.h>
#include <ccbench/mountinfo.h>
#include <ccbench/path.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/units.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include <linux/openat2.h>
#include <rados/librados.h>

static const char *const px_calls[CCB_FS_N_CALLS] = {
    [CCB_FS_CREATE] = "open(O_CREAT|O_EXCL)",
    [CCB_FS_OPEN] = "open",
    [CCB_FS_WRITE] = "pwrite",
    [CCB_FS_READ] = "pread",
    [CCB_FS_FSYNC] = "fsync",
    [CCB_FS_CLOSE] = "close",
    [CCB_FS_STAT] = "fstatat",
    [CCB_FS_UNLINK] = "unlinkat",
    [CCB_FS_MKDIR] = "mkdirat",
    [CCB_FS_RMDIR] = "unlinkat(AT_REMOVEDIR)",
    [CCB_FS_OPENDIR] = "opendir",
    [CCB_FS_GETXATTR] = "getxattr",
    [CCB_FS_SETXATTR] = "setxattr",
};

/* One directory the run works in: the root of a mount (or --mount DIR). */
struct pmount {
	int root; /* O_PATH | O_DIRECTORY */
	char where[PATH_MAX];
	bool direct; /* --direct: files opened O_DIRECT */
	bool cephfs; /* a CephFS mount: kernel or ceph-fuse */
};

/* A client's worker thread and the op handed to it. */
struct pworker {
	struct ccb_client *cl;
	struct ccb_fsclient *fc; /* kept while a call is stuck: the worker's then */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ccb_slot *op; /* handed over, not completed (NULL once abandoned) */
	struct ccb_fs_op work;
	ccb_fs_exec_fn exec;
	char *buf;    /* its own: a stuck call may write into it after the run */
	bool taken;   /* the worker has started @c op */
	bool in_call; /* ... and is inside its calls */
	bool quit;
	struct pworker *next;
};

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

/* ---- paths below the root, never through a link ------------------------------ */

static int open_beneath(const struct pmount *pm, const char *path, int flags, mode_t mode)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC),
	    .mode = (flags & O_CREAT) ? mode : 0,
	    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	long fd;

	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	do
		fd = syscall(SYS_openat2, pm->root, path, &how, sizeof(how));
	while (fd < 0 && errno == EINTR);
	return fd < 0 ? -errno : (int)fd;
}

/* The directory that holds @p path's last component, and that component. */
static int open_parent(const struct pmount *pm, const char *path, const char **last)
{
	const char *slash = strrchr(path, '/');
	char parent[PATH_MAX];

	if (!slash || !slash[1] || (size_t)(slash - path) >= sizeof(parent))
		return -EINVAL;
	*last = slash + 1;
	if (strcmp(*last, ".") == 0 || strcmp(*last, "..") == 0)
		return -EINVAL;
	memcpy(parent, path, (size_t)(slash - path));
	parent[slash - path] = '\0';
	return open_beneath(pm, parent, O_PATH | O_DIRECTORY, 0);
}

/* ---- the POSIX calls -------------------------------------------------------- */

static const char *px_where(void *m)
{
	return ((struct pmount *)m)->where;
}

static int px_create(void *m, const char *path, const struct ccb_fs_layout *lay)
{
	struct pmount *pm = m;
	int fd = open_beneath(
	    pm, path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | (pm->direct ? O_DIRECT : 0), 0644);
	char layout[300];
	size_t l = 0;

	if (fd < 0 || !pm->cephfs)
		return fd;
	/* A new, empty file takes a layout (CephFS refuses it once there is
	 * data): what the run asks for, in one xattr. */
	if (lay->stripe_unit)
		l += (size_t)snprintf(layout + l, sizeof(layout) - l, "stripe_unit=%d ",
		                      lay->stripe_unit);
	if (lay->stripe_count)
		l += (size_t)snprintf(layout + l, sizeof(layout) - l, "stripe_count=%d ",
		                      lay->stripe_count);
	if (lay->object_size)
		l += (size_t)snprintf(layout + l, sizeof(layout) - l, "object_size=%d ",
		                      lay->object_size);
	if (lay->data_pool[0])
		l += (size_t)snprintf(layout + l, sizeof(layout) - l, "pool=%s ", lay->data_pool);
	if (l && fsetxattr(fd, "ceph.file.layout", layout, l - 1, 0) < 0) {
		int r = -errno;

		/* The file is this run's (O_EXCL): it goes, and the run ends. */
		close(fd);
		int dfd;
		const char *last;
		if ((dfd = open_parent(pm, path, &last)) >= 0) {
			unlinkat(dfd, last, 0);
			close(dfd);
		}
		fprintf(stderr, "ccbench: setxattr(%s%s, ceph.file.layout, \"%.*s\"): %s%s\n",
		        pm->where, path, (int)(l - 1), layout, strerror(-r),
		        r == -EINVAL ? " (no such --data-pool, or a layout CephFS refuses)" : "");
		return r;
	}
	return fd;
}

static int px_open(void *m, const char *path, int flags)
{
	struct pmount *pm = m;

	return open_beneath(pm, path, flags | O_NOFOLLOW | (pm->direct ? O_DIRECT : 0), 0);
}

static int px_close(void *m, int fd)
{
	(void)m;
	return close(fd) < 0 ? -errno : 0;
}

static int64_t px_pwrite(void *m, int fd, const void *buf, uint64_t len, uint64_t off)
{
	uint64_t done = 0;

	(void)m;
	/* A short write is continued, as dd does with its blocks. */
	while (done < len) {
		ssize_t n = pwrite(fd, (const char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int64_t px_pread(void *m, int fd, void *buf, uint64_t len, uint64_t off)
{
	uint64_t done = 0;

	(void)m;
	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break; /* end of file */
		done += (uint64_t)n;
	}
	return (int64_t)done;
}

static int px_fsync(void *m, int fd)
{
	(void)m;
	return fsync(fd) < 0 ? -errno : 0;
}

static int px_stat(void *m, const char *path, struct ccb_fs_stat *st)
{
	const char *last;
	struct stat sb;
	int dfd, r = 0;

	if (strcmp(path, "/") == 0)
		return fstat(((struct pmount *)m)->root, &sb) < 0
		           ? -errno
		           : (*st = (struct ccb_fs_stat){(uint64_t)sb.st_size, sb.st_mode}, 0);
	dfd = open_parent(m, path, &last);
	if (dfd < 0)
		return dfd;
	if (fstatat(dfd, last, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		r = -errno;
	else
		*st = (struct ccb_fs_stat){.size_bytes = (uint64_t)sb.st_size, .mode = sb.st_mode};
	close(dfd);
	return r;
}

static int px_fstat(void *m, int fd, struct ccb_fs_stat *st)
{
	struct stat sb;

	(void)m;
	if (fstat(fd, &sb) < 0)
		return -errno;
	*st = (struct ccb_fs_stat){.size_bytes = (uint64_t)sb.st_size, .mode = sb.st_mode};
	return 0;
}

/* mkdirat, unlinkat and unlinkat(AT_REMOVEDIR) on the last component. */
static int at_parent(void *m, const char *path, int op)
{
	const char *last;
	int dfd = open_parent(m, path, &last), r = 0;

	if (dfd < 0)
		return dfd;
	if ((op == 0 ? mkdirat(dfd, last, 0755) : unlinkat(dfd, last, op == 2 ? AT_REMOVEDIR : 0)) <
	    0)
		r = -errno;
	close(dfd);
	return r;
}

static int px_mkdir(void *m, const char *path)
{
	return at_parent(m, path, 0);
}

static int px_unlink(void *m, const char *path)
{
	return at_parent(m, path, 1);
}

static int px_rmdir(void *m, const char *path)
{
	return at_parent(m, path, 2);
}

/* A regular file or a directory at @p path, opened to read its xattrs:
 * O_PATH first, so that a device or a fifo put there is never opened. */
static int open_entry(void *m, const char *path)
{
	char proc[64];
	struct stat sb;
	int fd = open_beneath(m, path, O_PATH | O_NOFOLLOW, 0), r;

	if (fd < 0)
		return fd;
	if (fstat(fd, &sb) < 0 || !(S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode))) {
		close(fd);
		return S_ISLNK(sb.st_mode) ? -ELOOP : -ENODATA;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	r = open(proc, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	r = r < 0 ? -errno : r;
	close(fd);
	return r;
}

static int px_getxattr(void *m, const char *path, const char *name, char *val, size_t len)
{
	int fd = open_entry(m, path), r;
	ssize_t n;

	if (fd < 0)
		return fd == -ELOOP ? -ENODATA : fd;
	n = fgetxattr(fd, name, val, len);
	r = n < 0 ? -errno : (int)n;
	close(fd);
	return r;
}

static int px_setxattr(void *m, const char *path, int fd, const char *name, const char *val,
                       size_t len)
{
	int own = -1, r = 0;

	if (fd < 0 && (fd = own = open_entry(m, path)) < 0)
		return fd;
	if (fsetxattr(fd, name, val, len, 0) < 0)
		r = -errno;
	if (own >= 0)
		close(own);
	return r;
}

static int px_readdir(void *m, const char *path,
                      int (*fn)(void *arg, const char *name, bool is_dir), void *arg)
{
	int fd = open_beneath(m, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0), r = 0;
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return fd;
	d = fdopendir(fd);
	if (!d) {
		r = -errno;
		close(fd);
		return r;
	}
	while (r >= 0 && (de = readdir(d))) {
		struct stat sb;
		bool is_dir = de->d_type == DT_DIR;

		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		/* Some file systems leave d_type unknown. */
		if (de->d_type == DT_UNKNOWN &&
		    fstatat(fd, de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == 0)
			is_dir = S_ISDIR(sb.st_mode);
		r = fn(arg, de->d_name, is_dir);
	}
	closedir(d);
	return r < 0 ? r : 0;
}

/* One number of the file's layout xattr, or -1. */
static long long layout_xattr(int fd, const char *field, char *buf, size_t len)
{
	char name[64];
	ssize_t n;

	snprintf(name, sizeof(name), "ceph.file.layout.%s", field);
	n = fgetxattr(fd, name, buf, len - 1);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return strtoll(buf, NULL, 10);
}

/* Read back through the ceph.file.layout.* xattrs, as getfattr would. */
static json_t *px_file_layout(void *m, int fd, char *why, size_t why_len)
{
	char v[256];
	long long su, sc, os;
	json_t *j;

	if (!((struct pmount *)m)->cephfs)
		return NULL; /* a local file system has no layout to tell */
	su = layout_xattr(fd, "stripe_unit", v, sizeof(v));
	sc = layout_xattr(fd, "stripe_count", v, sizeof(v));
	os = layout_xattr(fd, "object_size", v, sizeof(v));
	if (su < 0 || sc < 0 || os < 0) {
		snprintf(why, why_len, "getxattr(ceph.file.layout.*): %s", strerror(errno));
		return NULL;
	}
	j = json_pack("{s:I, s:I, s:I}", "object_size", (json_int_t)os, "stripe_unit",
	              (json_int_t)su, "stripe_count", (json_int_t)sc);
	if (layout_xattr(fd, "pool", v, sizeof(v)) != -1 || v[0])
		json_object_set_new(j, "pool", json_string(v));
	json_object_set_new(j, "read_through", json_string("ceph.file.layout xattrs"));
	return j;
}

/* ---- the worker threads and their monitor -------------------------------------- */

static void worker_free(struct pworker *w)
{
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w->buf);
	free(w);
}

/* One client's calls, one op at a time, on the worker's own copy of it. */
static void *worker_main(void *arg)
{
	struct pworker *w = arg;

	for (;;) {
		struct ccb_slot *mine;
		struct ccb_fs_op op;
		bool orphan;
		int r;

		pthread_mutex_lock(&w->lock);
		while (!w->quit && (!w->op || w->taken))
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->quit) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		mine = w->op;
		op = w->work;
		w->taken = w->in_call = true;
		pthread_mutex_unlock(&w->lock);

		r = w->exec(&op);

		pthread_mutex_lock(&w->lock);
		w->in_call = false;
		/* Not abandoned by the monitor meanwhile: completed under the
		 * lock, so the monitor cannot take it now. */
		if (w->op == mine) {
			w->op = NULL;
			ccb_fs_complete_op(w->cl, mine, r, &op);
		}
		orphan = w->quit;
		pthread_mutex_unlock(&w->lock);
		if (orphan) {
			/* The client was closed while this call hung: its file, mount
			 * and state were left to this thread, the last to use them. */
			struct ccb_fsclient *fc = w->fc;

			if (fc->fd >= 0)
				op.io->close(fc->m, fc->fd);
			op.io->unmount(fc->m);
			free(fc);
			worker_free(w);
			return NULL;
		}
	}
}

static int worker_submit(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                         const struct ccb_fs_op *op)
{
	struct ccb_fsclient *fc = cl->path_data;
	struct pworker *w = fc->io_client;

	pthread_mutex_lock(&w->lock);
	w->op = s;
	w->work = *op;
	w->work.buf = w->buf;
	w->exec = exec;
	w->taken = false;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

static int px_submit(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                     const struct ccb_fs_op *op)
{
	struct ccb_fsclient *fc = cl->path_data;

	return fc->io_client ? worker_submit(cl, s, exec, op)
	                     : ccb_fs_submit_inline(cl, s, exec, op);
}

/* Abandon the ops no call will complete in time: past --op-timeout, or
 * (after Ctrl-C) started before the signal and still running a second
 * later. Checked every 100 ms. */
static void *monitor_main(void *arg)
{
	struct prun *pr = arg;
	struct ccb_run *run = pr->run;
	uint64_t limit = run->opts->op_timeout_usec * 1000ull, stop_seen = 0;

	pthread_mutex_lock(&pr->lock);
	while (!pr->mon_quit) {
		struct timespec ts;
		uint64_t now = ccb_now_nsec();
		int stop = atomic_load(&run->stop);

		if (stop != CCB_STOP_NONE && !stop_seen)
			stop_seen = now;
		for (struct pworker *w = pr->list; w; w = w->next) {
			struct ccb_fsclient *fc = w->cl->path_data;
			struct ccb_fsrun *fr = run->path_data;
			struct ccb_slot *s;
			uint64_t age;
			char extra[200];
			int ret;

			pthread_mutex_lock(&w->lock);
			s = w->op;
			age = s && now > s->start_nsec ? now - s->start_nsec : 0;
			if (!s || (age <= limit &&
			           !(stop == CCB_STOP_SIGNAL && s->start_nsec < stop_seen &&
			             now - stop_seen > 1000000000ull))) {
				pthread_mutex_unlock(&w->lock);
				continue;
			}
			w->op = NULL;
			ret = age > limit ? -ETIMEDOUT : -EINTR;
			snprintf(extra, sizeof(extra),
			         " (had not returned after %.1f s, %s: abandoned; %s)",
			         (double)age / 1e9,
			         ret == -ETIMEDOUT ? "--op-timeout" : "the run was interrupted",
			         w->in_call
			             ? "its thread may still wait in the kernel on the cluster"
			             : "it had not started");
			ccb_fs_set_error(w->cl, s, ret, extra);
			ccb_run_warn(run, "client %u: %s%s: an op at offset %" PRIu64 "%s",
			             w->cl->idx, fr->io->where(fc->m), fc->path, s->offset, extra);
			ccb_slot_done(s, ret);
			pthread_mutex_unlock(&w->lock);
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 100000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pr->cond, &pr->lock, &ts);
	}
	pthread_mutex_unlock(&pr->lock);
	return NULL;
}

static int undo_monitor(void *arg)
{
	struct prun *pr = arg;

	pthread_mutex_lock(&pr->lock);
	pr->mon_quit = true;
	pthread_cond_signal(&pr->cond);
	pthread_mutex_unlock(&pr->lock);
	pthread_join(pr->monitor, NULL);
	pr->monitor_started = false;
	return 0;
}

static int start_monitor(struct prun *pr)
{
	pthread_condattr_t ca;
	int r;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pr->cond, &ca);
	pthread_condattr_destroy(&ca);
	r = pthread_create(&pr->monitor, NULL, monitor_main, pr);
	if (r)
		return -r;
	pr->monitor_started = true;
	r = ccb_undo_push("stop the fs call monitor", undo_monitor, pr, NULL);
	if (r < 0) {
		undo_monitor(pr);
		return r;
	}
	return 0;
}

static int start_worker(struct prun *pr, struct ccb_client *cl, struct ccb_fsclient *fc)
{
	struct ccb_run *run = cl->run;
	struct pworker *w = calloc(1, sizeof(*w));
	int r;

	if (!w)
		return -ENOMEM;
	/* Its own buffer (aligned for O_DIRECT): what a write sends is the
	 * slots' pattern, filled by the engine before the clients open. */
	if (posix_memalign((void **)&w->buf, 4096, run->buf_bytes ? run->buf_bytes : 4096)) {
		free(w);
		return -ENOMEM;
	}
	if (run->buf_bytes && cl->slots && cl->slots[0].buf)
		memcpy(w->buf, cl->slots[0].buf, run->buf_bytes);
	w->cl = cl;
	w->fc = fc;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	r = pthread_create(&w->thread, NULL, worker_main, w);
	if (r) {
		worker_free(w);
		return -r;
	}
	fc->io_client = w;
	pthread_mutex_lock(&pr->lock);
	w->next = pr->list;
	pr->list = w;
	pthread_mutex_unlock(&pr->lock);
	return 0;
}

/* Stop @p fc's worker. @return true when it is inside a call that was
 * abandoned: then it, the client's state and its mount stay (the call may
 * still return into them), and the unwind's unmount ends the call. */
static bool stop_worker(struct prun *pr, struct ccb_fsclient *fc)
{
	struct pworker *w = fc->io_client;
	bool stuck;

	if (!w)
		return false;
	pthread_mutex_lock(&pr->lock);
	for (struct pworker **p = &pr->list; *p; p = &(*p)->next) {
		if (*p == w) {
			*p = w->next;
			break;
		}
	}
	pthread_mutex_unlock(&pr->lock);
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	stuck = w->in_call;
	/* Under the lock: a stuck worker that returns now frees w itself
	 * (worker_main), but only once it holds this lock. */
	if (stuck)
		pthread_detach(w->thread);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (stuck)
		return true;
	pthread_join(w->thread, NULL);
	worker_free(w);
	fc->io_client = NULL;
	return false;
}

/* ---- mounts ------------------------------------------------------------------ */

static int undo_let_go_ctl(void *arg)
{
	struct ccb_fsrun *fr = arg;
	struct pmount *pm = fr->ctl;

	/* Before the unmount, which our open root would keep busy. Not while
	 * a removal that got no answer may still resolve paths through it
	 * (it holds a reference to the run): its number could be reused for
	 * another directory. The unmount is then a lazy one, and the root is
	 * closed with the last reference. */
	if (pm && pm->root >= 0 && atomic_load(&fr->refs) == 1) {
		close(pm->root);
		pm->root = -1;
	}
	return 0;
}

static void release_run(struct ccb_fsrun *fr)
{
	struct prun *pr = fr->io_run;

	if (!pr)
		return;
	if (pr->monitor_started)
		undo_monitor(pr);
	pthread_mutex_destroy(&pr->lock);
	pthread_cond_destroy(&pr->cond);
	free(pr);
	fr->io_run = NULL;
}

static int px_mount(struct ccb_run *run, struct ccb_fsrun *fr, int idx, void **m, char *err,
                    size_t err_len)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_mountinfo mi;
	struct pmount *pm;
	struct prun *pr = fr->io_run;
	const char *where = o->mount;
	int r;

	*m = NULL;
	if (idx < 0 && !pr) {
		pr = calloc(1, sizeof(*pr));
		if (!pr)
			return -ENOMEM;
		pr->run = run;
		pr->via = o->mount                              ? VIA_DIR
		          : strcmp(o->mount_via, "kernel") == 0 ? VIA_KERNEL
		                                                : VIA_FUSE;
		pthread_mutex_init(&pr->lock, NULL);
		pthread_cond_init(&pr->cond, NULL);
		fr->io_run = pr;
		fr->io_release = release_run;
	}
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->root = -1;
	pm->direct = o->direct;
	if (pr->via != VIA_DIR) {
		struct ccb_fsmount *mnt;
		char who[32];

		if (idx < 0)
			snprintf(who, sizeof(who), "the control mount");
		else
			snprintf(who, sizeof(who), "client %d", idx);
		if (!o->quiet && idx < 0)
			fprintf(stderr, "ccbench: mounting the CephFS through %s\n",
			        pr->via == VIA_FUSE ? "ceph-fuse" : "the kernel client");
		r = ccb_fsmount(o, pr->via == VIA_FUSE ? CCB_FSMOUNT_FUSE : CCB_FSMOUNT_KERNEL, who,
		                &mnt, err, err_len);
		if (r < 0) {
			free(pm);
			return r;
		}
		where = mnt->mountpoint;
	}
	snprintf(pm->where, sizeof(pm->where), "%s", where);
	pm->root = open(where, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pm->root < 0) {
		r = -errno;
		snprintf(err, err_len, "--mount %s: %s", where, strerror(errno));
		free(pm);
		run->bad_input = pr->via == VIA_DIR;
		return r;
	}
	pm->cephfs = ccb_mountinfo_of(where, &mi) == 0 &&
	             (strcmp(mi.fstype, "ceph") == 0 || strcmp(mi.fstype, "fuse.ceph-fuse") == 0);
	*m = pm;
	if (idx < 0) {
		/* A CephFS call may hang in the kernel: each client's on a thread
		 * the monitor can give up on. A local file system's cannot. */
		pr->workers = pm->cephfs || pr->via != VIA_DIR;
		r = ccb_undo_push("let go of the control mount's root", undo_let_go_ctl, fr, NULL);
		if (r < 0)
			return r;
		if (pr->workers && (r = start_monitor(pr)) < 0) {
			snprintf(err, err_len, "start the call monitor: %s", strerror(-r));
			return r;
		}
	}
	return 0;
}

static int px_client_opened(struct ccb_client *cl)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct prun *pr = fr->io_run;
	int r;

	if (!pr->workers)
		return 0;
	r = start_worker(pr, cl, cl->path_data);
	if (r < 0)
		fprintf(stderr, "ccbench: client %u: start its call thread: %s\n", cl->idx,
		        strerror(-r));
	return r;
}

static bool px_client_closing(struct ccb_client *cl)
{
	struct ccb_fsrun *fr = cl->run->path_data;

	return stop_worker(fr->io_run, cl->path_data);
}

static void px_unmount(void *m)
{
	struct pmount *pm = m;

	if (!pm)
		return;
	if (pm->root >= 0)
		close(pm->root);
	free(pm);
}

/* ---- the page cache ------------------------------------------------------------ */

/* Bytes of the first @p len of @p fd in the page cache (mincore over a
 * mapping that is never touched), or -errno. */
static int64_t resident_bytes(int fd, uint64_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	const uint64_t window = 1ull << 30;
	unsigned char *vec;
	int64_t n = 0;

	if (page <= 0)
		return -EINVAL;
	vec = malloc(window / (uint64_t)page);
	if (!vec)
		return -ENOMEM;
	for (uint64_t off = 0; off < len; off += window) {
		uint64_t l = len - off < window ? len - off : window;
		void *a = mmap(NULL, l, PROT_READ, MAP_SHARED, fd, (off_t)off);

		if (a == MAP_FAILED) {
			n = -errno;
			break;
		}
		if (mincore(a, l, vec) < 0) {
			n = -errno;
			munmap(a, l);
			break;
		}
		for (uint64_t i = 0; i < (l + (uint64_t)page - 1) / (uint64_t)page; i++)
			if (vec[i] & 1)
				n += page;
		munmap(a, l);
	}
	free(vec);
	return n;
}

/* Drop the file's clean pages, and say what stayed (tmpfs keeps all). */
static int64_t px_drop_cache(void *m, int fd, uint64_t len)
{
	struct pmount *pm = m;
	int r;

	if (pm->direct)
		return 0; /* O_DIRECT reads go around the page cache */
	r = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (r)
		return -r;
	return resident_bytes(fd, len);
}

/* ---- what the result says of the mount ------------------------------------------ */

/* The effective setting @p key of the ceph-fuse ccbench starts (its conf,
 * CEPH_ARGS and -o, as the run's handle reads them). */
static void fuse_setting(rados_t h, json_t *j, const char *key, bool number)
{
	char v[128];

	if (rados_conf_get(h, key, v, sizeof(v)) < 0)
		return;
	if (number)
		json_object_set_new(j, key, json_integer(strtoll(v, NULL, 10)));
	else
		json_object_set_new(j, key, json_boolean(strcmp(v, "true") == 0));
}

static json_t *kernel_limits(const char *super)
{
	char v[64];
	json_t *j = json_object();

	/* The driver's defaults where mountinfo says nothing (fs/ceph/super.h). */
	json_object_set_new(j, "rasize",
	                    json_integer(ccb_mountinfo_option(super, "rasize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 8ll << 20));
	json_object_set_new(j, "rsize",
	                    json_integer(ccb_mountinfo_option(super, "rsize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 64ll << 20));
	json_object_set_new(j, "wsize",
	                    json_integer(ccb_mountinfo_option(super, "wsize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 64ll << 20));
	json_object_set_new(
	    j, "noshare",
	    json_boolean(ccb_mountinfo_option(super, "noshare", v, sizeof(v)) != NULL));
	return j;
}

static void px_describe_run(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	struct prun *pr = fr->io_run;
	struct pmount *pm = fr->ctl;
	struct ccb_mountinfo mi;
	const char *client = "local";
	json_t *mnt;
	char v[64];
	ssize_t n;

	if (!pm || ccb_mountinfo_of(pm->where, &mi) < 0) {
		json_object_set_new(run->layout, "client", json_string("unknown"));
		return;
	}
	if (strcmp(mi.fstype, "ceph") == 0)
		client = "kernel";
	else if (strcmp(mi.fstype, "fuse.ceph-fuse") == 0)
		client = "fuse";
	json_object_set_new(run->layout, "client", json_string(client));
	mnt = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "via",
	                pr->via == VIA_DIR    ? "--mount"
	                : pr->via == VIA_FUSE ? "fuse"
	                                      : "kernel",
	                "mountpoint", mi.mountpoint, "fstype", mi.fstype, "source", mi.source,
	                "options", mi.mount_options, "super_options", mi.super_options,
	                "one_per_client", pr->via != VIA_DIR);
	if (strcmp(client, "kernel") == 0)
		json_object_set_new(mnt, "kernel", kernel_limits(mi.super_options));
	if (strcmp(client, "fuse") == 0 && pr->via == VIA_FUSE) {
		char err[256];
		rados_t h;

		if (ccb_cluster_configure(o, &h, err, sizeof(err)) == 0) {
			json_t *f = json_object();

			fuse_setting(h, f, "fuse_max_write", true);
			fuse_setting(h, f, "fuse_multithreaded", false);
			fuse_setting(h, f, "fuse_big_writes", false);
			fuse_setting(h, f, "client_oc", false);
			fuse_setting(h, f, "client_oc_size", true);
			fuse_setting(h, f, "client_readahead_max_bytes", true);
			fuse_setting(h, f, "client_readahead_max_periods", true);
			json_object_set_new(mnt, "ceph_fuse", f);
			rados_shutdown(h);
		}
	}
	json_object_set_new(run->layout, "mount", mnt);
	json_object_set_new(run->layout, "direct", json_boolean(o->direct));
	/* The cluster the mount reaches, from the file system itself. */
	if (pm->cephfs && (n = getxattr(pm->where, "ceph.cluster_fsid", v, sizeof(v) - 1)) > 0) {
		v[n] = '\0';
		snprintf(run->fsid, sizeof(run->fsid), "%s", v);
	}
}

const struct ccb_fs_io ccb_fs_io_posix = {
    .client = "posix",
    .calls = px_calls,
    .mount = px_mount,
    .unmount = px_unmount,
    .where = px_where,
    .create = px_create,
    .open = px_open,
    .close = px_close,
    .pwrite = px_pwrite,
    .pread = px_pread,
    .fsync = px_fsync,
    .stat = px_stat,
    .fstat = px_fstat,
    .mkdir = px_mkdir,
    .rmdir = px_rmdir,
    .unlink = px_unlink,
    .getxattr = px_getxattr,
    .setxattr = px_setxattr,
    .readdir = px_readdir,
    .file_layout = px_file_layout,
    .submit = px_submit,
    .client_opened = px_client_opened,
    .client_closing = px_client_closing,
    .drop_cache = px_drop_cache,
    .describe_run = px_describe_run,
    .bounded_undo = true,
};

/* ---- the path's rules and tables ---------------------------------------------- */

/* Whether @p dir is on a CephFS mount (kernel or ceph-fuse). */
static bool on_cephfs(const char *dir)
{
	struct ccb_mountinfo mi;

	return ccb_mountinfo_of(dir, &mi) == 0 &&
	       (strcmp(mi.fstype, "ceph") == 0 || strcmp(mi.fstype, "fuse.ceph-fuse") == 0);
}

static int px_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	const char *layout = o->object_size_bytes   ? "object-size"
	                     : o->stripe_unit_bytes ? "stripe-unit"
	                     : o->stripe_count      ? "stripe-count"
	                     : o->data_pool         ? "data-pool"
	                                            : NULL;
	struct stat st;

	if (ccb_fs_validate(o, err, err_len) < 0)
		return -EINVAL;
	/* A sweep's dry run plans, perhaps for another host: what this one
	 * lacks is said in its plan (sweep_plan.c), not refused. */
	if (o->mount_via)
		return o->dry_run ? 0 : ccb_fsmount_available(o->mount_via, err, err_len);
	if (stat(o->mount, &st) < 0) {
		snprintf(err, err_len, "--mount %s: %s", o->mount, strerror(errno));
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "--mount %s: not a directory", o->mount);
		return -EINVAL;
	}
	if (access(o->mount, W_OK | X_OK) < 0) {
		snprintf(err, err_len, "--mount %s: %s", o->mount, strerror(errno));
		return -EINVAL;
	}
	if (layout && !on_cephfs(o->mount)) {
		snprintf(err, err_len,
		         "--%s: a CephFS file layout, and --mount %s is not on a CephFS mount",
		         layout, o->mount);
		return -EINVAL;
	}
	return 0;
}

/* A local directory needs no cluster; a CephFS mount's run reads the
 * cluster's state (explain), as the other paths do. */
static bool px_needs_cluster(const struct ccb_opts *o)
{
	return !o->mount || on_cephfs(o->mount);
}

static int px_prepare(struct ccb_run *run)
{
	return ccb_fs_stream_prepare(run, &ccb_fs_io_posix);
}

static int px_meta_prepare(struct ccb_run *run)
{
	return ccb_fs_meta_prepare(run, &ccb_fs_io_posix);
}

const struct ccb_path_ops ccb_path_posix = {
    .name = "posix",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES,
    .cmd_bit = CCB_CMD_FS,
    .op_size_opt = "block-size",
    .validate = px_validate,
    .needs_cluster = px_needs_cluster,
    .estimate_bytes = ccb_fs_estimate_bytes,
    .prepare = px_prepare,
    .client_open = ccb_fs_stream_client_open,
    .submit = ccb_fs_stream_submit,
    .describe = ccb_fs_describe,
    .client_close = ccb_fs_client_close,
    .finish = ccb_fs_stream_finish,
};

const struct ccb_path_ops ccb_path_posix_meta = {
    .name = "posix",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES | CCB_PATH_PHASED,
    .cmd_bit = CCB_CMD_FS,
    .op_size_opt = "block-size",
    .validate = px_validate,
    .needs_cluster = px_needs_cluster,
    .prepare = px_meta_prepare,
    .client_open = ccb_fs_meta_client_open,
    .submit = ccb_fs_meta_submit,
    .complete = ccb_fs_meta_complete,
    .describe = ccb_fs_describe,
    .client_close = ccb_fs_client_close,
    .finish = ccb_fs_meta_finish,
    .result = ccb_fs_meta_result,
};
