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
 *
 * This file: the calls below the mount's root, the page cache check, the
 * path's tables and rules. The mounts and the worker threads are
 * posix_mount.c's; what the result says of the mount posix_describe.c's.
 */
#define _FILE_OFFSET_BITS 64

#include <ccbench/clock.h>
#include <ccbench/fs_mount.h>
#include "path_posix_int.h"

#include <ccbench/cluster.h>
#include "../mountinfo.h"
#include <ccbench/path.h>
#include "path_cephfs.h"
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
#include "fs_opts.h"
#include "fs_spec.h"

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

const struct ccb_fs_io ccb_fs_io_posix = {
    .client = "posix",
    .calls = px_calls,
    .mount = ccb_posix_mount,
    .unmount = ccb_posix_unmount,
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
    .submit = ccb_posix_submit,
    .client_opened = ccb_posix_client_opened,
    .client_closing = ccb_posix_client_closing,
    .drop_cache = px_drop_cache,
    .describe_run = ccb_posix_describe_run,
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
	if (CCB_FS_OPTS(o)->mount_via)
		return o->dry_run ? 0
		                  : ccb_fsmount_available(CCB_FS_OPTS(o)->mount_via, err, err_len);
	if (stat(CCB_FS_OPTS(o)->mount, &st) < 0) {
		snprintf(err, err_len, "--mount %s: %s", CCB_FS_OPTS(o)->mount, strerror(errno));
		return -EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "--mount %s: not a directory", CCB_FS_OPTS(o)->mount);
		return -EINVAL;
	}
	if (access(CCB_FS_OPTS(o)->mount, W_OK | X_OK) < 0) {
		snprintf(err, err_len, "--mount %s: %s", CCB_FS_OPTS(o)->mount, strerror(errno));
		return -EINVAL;
	}
	if (layout && !on_cephfs(CCB_FS_OPTS(o)->mount)) {
		snprintf(err, err_len,
		         "--%s: a CephFS file layout, and --mount %s is not on a CephFS mount",
		         layout, CCB_FS_OPTS(o)->mount);
		return -EINVAL;
	}
	return 0;
}

/* A local directory needs no cluster; a CephFS mount's run reads the
 * cluster's state (explain), as the other paths do. */
static bool px_needs_cluster(const struct ccb_opts *o)
{
	return !CCB_FS_OPTS(o)->mount || on_cephfs(CCB_FS_OPTS(o)->mount);
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
    CCB_FS_STREAM_OPS,
    .validate = px_validate,
    .needs_cluster = px_needs_cluster,
    .prepare = px_prepare,
    .undo_kinds = ccb_fs_undo_kinds,
};

const struct ccb_path_ops ccb_path_posix_meta = {
    .name = "posix",
    CCB_FS_META_OPS,
    .validate = px_validate,
    .needs_cluster = px_needs_cluster,
    .prepare = px_meta_prepare,
    .undo_kinds = ccb_fs_undo_kinds,
};
