/*
 * What the CephFS paths share (path_cephfs_int.h): the pure checks of an
 * fs command, the mounts, the run's directory, and what removes the
 * entries a run makes.
 *
 * Every client has its own ceph_mount, as two nodes would. A control
 * mount, opened in prepare, makes the run's directory and is what the undo
 * log uses to remove it; it is unmounted last.
 *
 * Nothing lost: every removal is logged only once the entry it removes
 * was made by this run (and, on libcephfs, its inode recorded: the
 * removal, cephfs_remove.c, takes only that inode, never through a link) (mkdir succeeded, an
 * O_EXCL open succeeded), so an undo can never take an entry that was there before. What ccbench
 * makes carries the xattr user.ccbench ("ccbench run HOST-PID-TIME"); with
 * --reuse, an existing DIR/client-N is replaced only when it carries it
 * (an earlier run kept it), and anything else there makes the run refuse
 * before it changes anything.
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/cluster.h>
#include <ccbench/units.h>

#include <cephfs/libcephfs.h>

#include <ctype.h>
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <inttypes.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "fs_opts.h"
#include "fs_spec.h"

/* CephFS stripe units are multiples of CEPH_MIN_STRIPE_UNIT. */
#define MIN_STRIPE_UNIT      (64u << 10)
#define DEFAULT_OBJECT_BYTES (4ull << 20)

/* ---- the -n spec and the rules checked before mounting ------------------- */

int ccb_fs_spec_parse(const char *spec, struct ccb_fs_spec *out, char *err, size_t err_len)
{
	static const char *const field[] = {"N (thousands of files)", "MAX", "MIN", "DIRS"};
	uint64_t v[4] = {0, 0, 0, 0};
	const char *p = spec;
	int n = 0;

	memset(out, 0, sizeof(*out));
	if (!spec || !*spec) {
		snprintf(err, err_len, "--files '': expected N[:MAX[:MIN[:DIRS]]]");
		return -EINVAL;
	}
	for (;;) {
		size_t l = strcspn(p, ":");
		char tok[64];
		int r;

		if (n == 4) {
			snprintf(err, err_len,
			         "--files '%s': expected at most 4 fields N:MAX:MIN:DIRS", spec);
			return -EINVAL;
		}
		if (l == 0 || l >= sizeof(tok)) {
			snprintf(err, err_len, "--files '%s': %s is empty or too long", spec,
			         field[n]);
			return -EINVAL;
		}
		memcpy(tok, p, l);
		tok[l] = '\0';
		r = (n == 1 || n == 2) ? ccb_parse_bytes(tok, &v[n]) : ccb_parse_u64(tok, &v[n]);
		if (r < 0) {
			snprintf(err, err_len, "--files '%s': %s '%s': not %s", spec, field[n], tok,
			         (n == 1 || n == 2) ? "a size such as 0, 4096, 800k, 1M"
			                            : "a whole number");
			return -EINVAL;
		}
		n++;
		p += l;
		if (!*p)
			break;
		p++;
	}
	if (v[0] < 1 || v[0] > CCB_FS_SPEC_MAX_K) {
		snprintf(err, err_len, "--files '%s': N must be 1 to %d (units of 1024 files)",
		         spec, CCB_FS_SPEC_MAX_K);
		return -EINVAL;
	}
	if (v[1] > CCB_FS_SPEC_MAX_BYTES) {
		snprintf(err, err_len, "--files '%s': MAX over 1G", spec);
		return -EINVAL;
	}
	if (v[2] > v[1]) {
		snprintf(err, err_len, "--files '%s': MIN larger than MAX", spec);
		return -EINVAL;
	}
	if (v[3] > CCB_FS_SPEC_MAX_DIRS) {
		snprintf(err, err_len, "--files '%s': DIRS over %d", spec, CCB_FS_SPEC_MAX_DIRS);
		return -EINVAL;
	}
	out->files = v[0] * 1024;
	out->max_bytes = v[1];
	out->min_bytes = v[2];
	out->dirs = v[3];
	return 0;
}

/* Whether --mount-via asks ccbench to mount (fuse, kernel), not libcephfs. */
static bool mounts_itself(const struct ccb_opts *o)
{
	return CCB_FS_OPTS(o)->mount_via && strcmp(CCB_FS_OPTS(o)->mount_via, "libcephfs") != 0;
}

int ccb_fs_mount_rules(const struct ccb_opts *o, char *err, size_t err_len)
{
	if (CCB_FS_OPTS(o)->mount && CCB_FS_OPTS(o)->mount_via) {
		snprintf(err, err_len,
		         "--mount %s and --mount-via %s: give one of them (--mount runs in a "
		         "directory you mounted; --mount-via has ccbench mount the CephFS)",
		         CCB_FS_OPTS(o)->mount, CCB_FS_OPTS(o)->mount_via);
		return -EINVAL;
	}
	if (CCB_FS_OPTS(o)->mount_options && !mounts_itself(o)) {
		snprintf(err, err_len, "--mount-options: only with --mount-via fuse or kernel");
		return -EINVAL;
	}
	if (CCB_FS_OPTS(o)->mount_options) {
		const char *p = CCB_FS_OPTS(o)->mount_options;
		size_t l = strlen(p);

		/* The options reach mount(8) and ceph-fuse as one argument each,
		 * seen by anyone in ps: no key material, nothing a shell or an
		 * option parser would take for something else. */
		if (l > 400 ||
		    strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		              "0123456789_.,=:/+-") != l ||
		    p[0] == '-' || p[0] == ',') {
			snprintf(err, err_len,
			         "--mount-options '%s': expected OPT[=VALUE],... of the characters "
			         "A-Z a-z 0-9 _ . , = : / + - (at most 400)",
			         p);
			return -EINVAL;
		}
		for (const char *q = p; *q; q += strcspn(q, ","), q += *q == ',') {
			if (strncmp(q, "secret=", 7) == 0 || strncmp(q, "key=", 4) == 0) {
				snprintf(
				    err, err_len,
				    "--mount-options: %.*s would show the key to anyone running "
				    "ps; leave it out (the key comes from the keyring, as for "
				    "every ceph tool) or give secretfile=FILE",
				    (int)strcspn(q, "="), q);
				return -EINVAL;
			}
		}
	}
	if (o->direct && !CCB_FS_OPTS(o)->mount && !mounts_itself(o)) {
		snprintf(err, err_len,
		         "--direct: only on a mount (--mount DIR, --mount-via fuse|kernel); "
		         "libcephfs has no page cache to bypass");
		return -EINVAL;
	}
	if (o->direct && o->op_size_bytes % 4096) {
		snprintf(err, err_len, "--block-size %llu: --direct needs a multiple of 4096 bytes",
		         (unsigned long long)o->op_size_bytes);
		return -EINVAL;
	}
	if (CCB_FS_OPTS(o)->mount) {
		size_t l = strlen(CCB_FS_OPTS(o)->mount);

		if (CCB_FS_OPTS(o)->mount[0] != '/' || l > 512) {
			snprintf(err, err_len,
			         "--mount '%s': expected the absolute path of a directory (at most "
			         "512 bytes)",
			         CCB_FS_OPTS(o)->mount);
			return -EINVAL;
		}
	}
	return 0;
}

int ccb_fs_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	struct ccb_fs_spec spec;
	uint64_t obj = o->object_size_bytes ? o->object_size_bytes : DEFAULT_OBJECT_BYTES;
	uint64_t su = o->stripe_unit_bytes ? o->stripe_unit_bytes : obj;
	char a[32], b[32];

	if (ccb_fs_spec_parse(CCB_FS_OPTS(o)->files_spec, &spec, err, err_len) < 0)
		return -EINVAL;
	if (o->op_size_bytes > CCB_FS_OPTS(o)->file_size_bytes) {
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		ccb_format_bytes(CCB_FS_OPTS(o)->file_size_bytes, b, sizeof(b));
		snprintf(err, err_len, "--block-size %s: larger than --file-size %s", a, b);
		return -EINVAL;
	}
	/* libcephfs takes the layout as ints; CephFS wants 64K stripe units. */
	if (obj > (uint64_t)INT_MAX / 2 + 1 || obj % MIN_STRIPE_UNIT) {
		ccb_format_bytes(obj, a, sizeof(a));
		snprintf(err, err_len, "--object-size %s: must be a multiple of 64K, at most 1G",
		         a);
		return -EINVAL;
	}
	if (su % MIN_STRIPE_UNIT) {
		ccb_format_bytes(su, a, sizeof(a));
		snprintf(err, err_len, "--stripe-unit %s: CephFS needs a multiple of 64K", a);
		return -EINVAL;
	}
	if (obj % su) {
		ccb_format_bytes(su, a, sizeof(a));
		ccb_format_bytes(obj, b, sizeof(b));
		snprintf(err, err_len, "--stripe-unit %s: does not divide the object size %s%s", a,
		         b, o->object_size_bytes ? "" : " (the default; give --object-size)");
		return -EINVAL;
	}
	if (ccb_fs_mount_rules(o, err, err_len) < 0)
		return -EINVAL;
	if (CCB_FS_OPTS(o)->dir) {
		size_t l = strlen(CCB_FS_OPTS(o)->dir);

		if (CCB_FS_OPTS(o)->dir[0] != '/' || l < 2 || CCB_FS_OPTS(o)->dir[l - 1] == '/' ||
		    l > 400 || strstr(CCB_FS_OPTS(o)->dir, "//") ||
		    strstr(CCB_FS_OPTS(o)->dir, "/./") || strstr(CCB_FS_OPTS(o)->dir, "/../") ||
		    (l >= 2 && strcmp(CCB_FS_OPTS(o)->dir + l - 2, "/.") == 0) ||
		    (l >= 3 && strcmp(CCB_FS_OPTS(o)->dir + l - 3, "/..") == 0)) {
			snprintf(err, err_len,
			         "--dir '%s': expected an absolute CephFS path below / (like "
			         "/bench/run1), without . or .. or a trailing /",
			         CCB_FS_OPTS(o)->dir);
			return -EINVAL;
		}
	}
	return 0;
}

/* ---- mounts -------------------------------------------------------------- */

static int fs_read_file(void *h, const char *path)
{
	return ceph_conf_read_file(h, path);
}

static int fs_parse_env(void *h, const char *var)
{
	return ceph_conf_parse_env(h, var);
}

static int fs_set(void *h, const char *key, const char *value)
{
	return ceph_conf_set(h, key, value);
}

/* One ceph_mount configured by the rules that configure librados
 * (ccb_cluster_conf_apply()), so -c, -n/-i, -k, CEPH_ARGS and -o mean the
 * same here. */
int ccb_fs_mount(const struct ccb_opts *o, struct ceph_mount_info **out, char *err, size_t err_len)
{
	static const struct ccb_conf_ops ops = {
	    .lib = "ceph", .read_file = fs_read_file, .parse_env = fs_parse_env, .set = fs_set};
	struct ceph_mount_info *cm = NULL;
	char pathbuf[512], entity[256];
	const char *conf = ccb_cluster_conf_path(o, pathbuf, sizeof(pathbuf));
	const char *id;
	int r;

	if (o->name && (strncmp(o->name, "client.", 7) != 0 || !o->name[7])) {
		snprintf(err, err_len, "--name '%s': libcephfs mounts as a client (client.ID)",
		         o->name);
		return -EINVAL;
	}
	/* ceph_create takes the ID of client.ID. */
	id = ccb_cluster_entity(o, entity, sizeof(entity)) + strlen("client.");
	r = ceph_create(&cm, id);
	if (r < 0) {
		snprintf(err, err_len, "ceph_create(client.%s): %s", id, strerror(-r));
		return r;
	}
	r = ccb_cluster_conf_apply(o, &ops, cm, err, err_len);
	if (r < 0)
		goto fail;
	r = ceph_mount(cm, "/");
	if (r < 0) {
		char fsname[128] = "";

		ceph_conf_get(cm, "client_fs", fsname, sizeof(fsname));
		snprintf(err, err_len, "ceph_mount(client.%s, conf %s, fs %s): %s%s", id, conf,
		         fsname[0] ? fsname : "default", strerror(-r),
		         r == -ETIMEDOUT ? " (no MDS answered within --connect-timeout: does the "
		                           "cluster have a CephFS with an active MDS?)"
		         : r == -ENOENT  ? " (no such filesystem)"
		         : r == -EACCES || r == -EPERM ? " (authentication or MDS caps refused)"
		                                       : "");
		goto fail;
	}
	*out = cm;
	return 0;
fail:
	ceph_release(cm);
	return r;
}

void ccb_fs_unmount(struct ceph_mount_info *cm)
{
	if (cm)
		ceph_shutdown(cm);
}

/* ---- the libcephfs calls ------------------------------------------------- */

static const char *const lc_calls[CCB_FS_N_CALLS] = {
    [CCB_FS_CREATE] = "ceph_open_layout", [CCB_FS_OPEN] = "ceph_open",
    [CCB_FS_WRITE] = "ceph_write",        [CCB_FS_READ] = "ceph_read",
    [CCB_FS_FSYNC] = "ceph_fsync",        [CCB_FS_CLOSE] = "ceph_close",
    [CCB_FS_STAT] = "ceph_statx",         [CCB_FS_UNLINK] = "ceph_unlink",
    [CCB_FS_MKDIR] = "ceph_mkdir",        [CCB_FS_RMDIR] = "ceph_rmdir",
    [CCB_FS_OPENDIR] = "ceph_opendir",    [CCB_FS_GETXATTR] = "ceph_lgetxattr",
    [CCB_FS_SETXATTR] = "ceph_setxattr",
};

static int lc_mount(struct ccb_run *run, struct ccb_fsrun *fr, int idx, void **m, char *err,
                    size_t err_len)
{
	struct ceph_mount_info *cm = NULL;
	int r;

	(void)fr;
	(void)idx;
	r = ccb_fs_mount(run->opts, &cm, err, err_len);
	*m = cm;
	return r;
}

static void lc_unmount(void *m)
{
	ccb_fs_unmount(m);
}

static const char *lc_where(void *m)
{
	(void)m;
	return "";
}

static int lc_create(void *m, const char *path, const struct ccb_fs_layout *l)
{
	return ceph_open_layout(m, path, O_CREAT | O_EXCL | O_WRONLY, 0644, l->stripe_unit,
	                        l->stripe_count, l->object_size,
	                        l->data_pool[0] ? l->data_pool : NULL);
}

static int lc_open(void *m, const char *path, int flags)
{
	return ceph_open(m, path, flags, 0);
}

static int lc_close(void *m, int fd)
{
	return ceph_close(m, fd);
}

static int64_t lc_pwrite(void *m, int fd, const void *buf, uint64_t len, uint64_t off)
{
	return ceph_write(m, fd, buf, (int64_t)len, (int64_t)off);
}

static int64_t lc_pread(void *m, int fd, void *buf, uint64_t len, uint64_t off)
{
	return ceph_read(m, fd, buf, (int64_t)len, (int64_t)off);
}

static int lc_fsync(void *m, int fd)
{
	return ceph_fsync(m, fd, 0);
}

static int lc_stat(void *m, const char *path, struct ccb_fs_stat *st)
{
	struct ceph_statx stx;
	int r = ceph_statx(m, path, &stx, CEPH_STATX_SIZE | CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);

	if (r == 0)
		*st = (struct ccb_fs_stat){.size_bytes = stx.stx_size, .mode = stx.stx_mode};
	return r;
}

static int lc_fstat(void *m, int fd, struct ccb_fs_stat *st)
{
	struct ceph_statx stx;
	int r = ceph_fstatx(m, fd, &stx, CEPH_STATX_SIZE | CEPH_STATX_MODE, 0);

	if (r == 0)
		*st = (struct ccb_fs_stat){.size_bytes = stx.stx_size, .mode = stx.stx_mode};
	return r;
}

/* The inode is the client's own, known while the file is open or its
 * name cached: no MDS round trip inside a timed create or delete. */
static int lc_file_ino(void *m, const char *path, int fd, uint64_t *ino)
{
	struct ceph_statx stx;
	int r = fd >= 0 ? ceph_fstatx(m, fd, &stx, CEPH_STATX_INO, AT_STATX_DONT_SYNC)
	                : ceph_statx(m, path, &stx, CEPH_STATX_INO,
	                             AT_STATX_DONT_SYNC | AT_SYMLINK_NOFOLLOW);

	if (r == 0)
		*ino = stx.stx_ino;
	return r;
}

static int lc_mkdir(void *m, const char *path)
{
	return ceph_mkdir(m, path, 0755);
}

static int lc_rmdir(void *m, const char *path)
{
	return ceph_rmdir(m, path);
}

static int lc_unlink(void *m, const char *path)
{
	return ceph_unlink(m, path);
}

static int lc_getxattr(void *m, const char *path, const char *name, char *val, size_t len)
{
	return ceph_lgetxattr(m, path, name, val, len);
}

static int lc_setxattr(void *m, const char *path, int fd, const char *name, const char *val,
                       size_t len)
{
	return fd >= 0 ? ceph_fsetxattr(m, fd, name, val, len, 0)
	               : ceph_setxattr(m, path, name, val, len, 0);
}

static int lc_readdir(void *m, const char *path,
                      int (*fn)(void *arg, const char *name, bool is_dir), void *arg)
{
	struct ceph_dir_result *d;
	struct dirent *de;
	int r = ceph_opendir(m, path, &d);

	if (r < 0)
		return r;
	while ((de = ceph_readdir(m, d))) {
		if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
			continue;
		r = fn(arg, de->d_name, de->d_type == DT_DIR);
		if (r < 0)
			break;
	}
	ceph_closedir(m, d);
	return r < 0 ? r : 0;
}

static json_t *lc_file_layout(void *m, int fd, char *why, size_t why_len)
{
	int su = 0, sc = 0, os = 0, pool = 0, r;
	char pool_name[256] = "";

	r = ceph_get_file_layout(m, fd, &su, &sc, &os, &pool);
	if (r < 0) {
		snprintf(why, why_len, "ceph_get_file_layout: %s", strerror(-r));
		return NULL;
	}
	ceph_get_file_pool_name(m, fd, pool_name, sizeof(pool_name));
	return json_pack("{s:i, s:i, s:i, s:s, s:i, s:i}", "object_size", os, "stripe_unit", su,
	                 "stripe_count", sc, "pool", pool_name, "pool_id", pool, "replication",
	                 ceph_get_file_replication(m, fd));
}

int ccb_fs_submit_inline(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                         const struct ccb_fs_op *op)
{
	struct ccb_fs_op o = *op;
	int r;

	o.buf = s->buf;
	r = exec(&o);
	ccb_fs_complete_op(cl, s, r, &o);
	return 0;
}

const struct ccb_fs_io ccb_fs_io_libcephfs = {
    .client = "libcephfs",
    .calls = lc_calls,
    .mount = lc_mount,
    .unmount = lc_unmount,
    .where = lc_where,
    .create = lc_create,
    .open = lc_open,
    .close = lc_close,
    .pwrite = lc_pwrite,
    .pread = lc_pread,
    .fsync = lc_fsync,
    .stat = lc_stat,
    .fstat = lc_fstat,
    .mkdir = lc_mkdir,
    .rmdir = lc_rmdir,
    .unlink = lc_unlink,
    .getxattr = lc_getxattr,
    .setxattr = lc_setxattr,
    .readdir = lc_readdir,
    .file_layout = lc_file_layout,
    .file_ino = lc_file_ino,
    /* libcephfs calls are synchronous, bounded by its own timeouts. */
    .submit = ccb_fs_submit_inline,
};

/* ---- the marker ---------------------------------------------------------- */

/* 1 when @p path carries a ccbench marker (of any run), 0 when not, or
 * -errno. A value not in ccbench's form is no marker: someone else's; so
 * is an xattr the file system does not support. */
int ccb_fs_is_marked(const struct ccb_fsrun *fr, void *m, const char *path)
{
	char v[200];
	int n = fr->io->getxattr(m, path, CCB_FS_MARK_XATTR, v, sizeof(v) - 1);

	if (n == -ENODATA || n == -ERANGE || n == -ENOTSUP)
		return 0;
	if (n < 0)
		return n;
	v[n] = '\0';
	return strncmp(v, CCB_FS_MARK_PREFIX, strlen(CCB_FS_MARK_PREFIX)) == 0;
}

/* Mark what this run just made. A mark that cannot be written only costs
 * a later --reuse the right to replace the entry, so it is a warning. */
void ccb_fs_mark_made(struct ccb_run *run, struct ccb_fsrun *fr, void *m, const char *path, int fd)
{
	int r = fr->io->setxattr(m, path, fd, CCB_FS_MARK_XATTR, fr->mark, strlen(fr->mark));

	if (r < 0)
		ccb_run_warn(run,
		             "%s%s: could not set the %s marker: %s (a later --reuse will not "
		             "replace it)",
		             fr->io->where(m), path, CCB_FS_MARK_XATTR, strerror(-r));
}

static int undo_release_ctl(void *arg)
{
	ccb_fs_run_put(arg);
	return 0;
}

/* ---- the run and its clients --------------------------------------------- */

int ccb_fs_run_open(struct ccb_run *run, const struct ccb_fs_io *io, size_t size,
                    struct ccb_fsrun **out)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fsrun *fr;
	char err[1024], host[64] = "";
	int r;

	fr = calloc(1, size);
	if (!fr)
		return -ENOMEM;
	atomic_init(&fr->refs, 1);
	fr->opts = o;
	fr->io = io;
	fr->block_bytes = run->op_bytes;
	fr->file_bytes = CCB_FS_OPTS(o)->file_size_bytes;
	fr->layout.object_size = (int)o->object_size_bytes;
	fr->layout.stripe_unit =
	    (int)(o->stripe_unit_bytes ? o->stripe_unit_bytes : o->object_size_bytes);
	fr->layout.stripe_count = (int)o->stripe_count;
	snprintf(fr->layout.data_pool, sizeof(fr->layout.data_pool), "%s",
	         o->data_pool ? o->data_pool : "");
	if (CCB_FS_OPTS(o)->dir) {
		snprintf(fr->dir, sizeof(fr->dir), "%s", CCB_FS_OPTS(o)->dir);
	} else {
		gethostname(host, sizeof(host) - 1);
		/* A name of plain characters ("(none)" in a guest without one). */
		for (char *p = host; *p; p++)
			if (!isalnum((unsigned char)*p) && *p != '-' && *p != '_')
				*p = '-';
		snprintf(fr->dir, sizeof(fr->dir), "/ccbench-%s-%d-%lld", host, (int)getpid(),
		         (long long)time(NULL));
	}
	if (!host[0])
		gethostname(host, sizeof(host) - 1);
	snprintf(fr->mark, sizeof(fr->mark), CCB_FS_MARK_PREFIX "%s-%d-%lld", host, (int)getpid(),
	         (long long)time(NULL));

	/* Logged first: whatever the client kind makes for the run (a mount)
	 * is released with the run's state, after what is made under it. */
	r = ccb_undo_push("release the control mount", undo_release_ctl, fr, NULL);
	if (r < 0) {
		free(fr);
		return r;
	}
	run->path_data = fr;
	*out = fr;
	err[0] = '\0';
	r = io->mount(run, fr, -1, &fr->ctl, err, sizeof(err));
	if (r < 0) {
		fr->ctl = NULL;
		if (err[0])
			fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = r == -EINVAL;
		return r;
	}
	if (io == &ccb_fs_io_libcephfs) {
		/* libcephfs follows links on the way: removal works from a
		 * record of what the run made (cephfs_remove.c). */
		fr->made = ccb_fs_made_new();
		if (!fr->made)
			return -ENOMEM;
		if (ceph_conf_get(fr->ctl, "fsid", run->fsid, sizeof(run->fsid)) < 0)
			run->fsid[0] = '\0';
		if (o->data_pool && ceph_get_pool_id(fr->ctl, o->data_pool) < 0) {
			fprintf(stderr, "ccbench: --data-pool '%s': no such pool\n", o->data_pool);
			run->bad_input = true;
			return -ENOENT;
		}
	}
	return 0;
}

void ccb_fs_take_deadline(struct ccb_run *run, struct ccb_fsrun *fr)
{
	if (run->duration_usec) {
		fr->deadline_nsec = run->duration_usec * 1000ull;
		run->duration_usec = 0;
	}
}

void ccb_fs_layout(struct ccb_run *run, const struct ccb_fsrun *fr)
{
	run->layout =
	    json_pack("{s:s, s:b, s:b, s:s}", "dir", fr->dir, "dir_created", fr->created_dir,
	              "kept", fr->opts->keep || fr->existing_files, "client", fr->io->client);
	if (fr->io->describe_run)
		fr->io->describe_run(run, (struct ccb_fsrun *)fr);
}

void ccb_fs_say_kept(const struct ccb_run *run, const struct ccb_fsrun *fr)
{
	if ((run->opts->keep && !fr->existing_files) && !run->opts->quiet)
		fprintf(stderr, "ccbench: kept directory %s%s\n", fr->io->where(fr->ctl), fr->dir);
}

/* Make or claim the run's directory. An existing one is used only with
 * --reuse, and then only the entries this run creates are removed. */
int ccb_fs_claim_dir(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	const char *where = fr->io->where(fr->ctl);
	struct ccb_fs_stat st;
	int r = fr->io->stat(fr->ctl, fr->dir, &st);

	if (r == 0) {
		if (!S_ISDIR(st.mode)) {
			fprintf(stderr, "ccbench: --dir %s%s: exists and is not a directory%s\n",
			        where, fr->dir,
			        S_ISLNK(st.mode) ? " (a symbolic link: never followed)" : "");
			run->bad_input = true;
			return -ENOTDIR;
		}
		if (!o->reuse) {
			fprintf(stderr,
			        "ccbench: --dir %s%s: exists; refusing to write into it (add "
			        "--reuse to "
			        "use it: only the run's own files are removed)\n",
			        where, fr->dir);
			run->bad_input = true;
			return -EEXIST;
		}
		return ccb_fs_record_dir(fr);
	}
	if (r != -ENOENT) {
		fprintf(stderr, "ccbench: %s(%s%s): %s%s\n", ccb_fs_call_name(fr, CCB_FS_STAT),
		        where, fr->dir, strerror(-r),
		        r == -ELOOP || r == -ENOTDIR
		            ? " (a symbolic link or a file on the way: never followed)"
		            : "");
		run->bad_input = r == -ELOOP || r == -ENOTDIR;
		return r;
	}
	/* Logged only once made: a directory that appeared since the stat is
	 * someone else's (EEXIST), and its undo would remove it. A crash
	 * between mkdir and the log costs an empty directory at worst. */
	r = fr->io->mkdir(fr->ctl, fr->dir);
	if (r < 0) {
		fprintf(stderr, "ccbench: %s(%s%s): %s%s\n", ccb_fs_call_name(fr, CCB_FS_MKDIR),
		        where, fr->dir, strerror(-r),
		        r == -ENOENT ? " (the parent directory does not exist)"
		        : r == -ELOOP || r == -ENOTDIR
		            ? " (a symbolic link or a file on the way: never followed)"
		            : "");
		run->bad_input = r == -ENOENT || r == -EEXIST || r == -ELOOP || r == -ENOTDIR;
		return r;
	}
	fr->created_dir = true;
	if (!o->keep && (r = ccb_fs_push_undo("remove the run's directory", ccb_fs_undo_rmdir, fr,
	                                      fr->ctl, fr->dir, -1, "rmdir")) < 0) {
		fr->io->rmdir(fr->ctl, fr->dir);
		return r;
	}
	ccb_fs_mark_made(run, fr, fr->ctl, fr->dir, -1);
	return ccb_fs_record_dir(fr);
}

int ccb_fs_client_mount(struct ccb_client *cl, struct ccb_fsclient **out)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct ccb_fsclient *fc = calloc(1, sizeof(*fc));
	char err[1024] = "";
	int r;

	if (!fc)
		return -ENOMEM;
	fc->fd = -1;
	r = fr->io->mount(cl->run, fr, (int)cl->idx, &fc->m, err, sizeof(err));
	if (r < 0) {
		if (err[0])
			fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
		free(fc);
		return r;
	}
	cl->path_data = fc;
	if (fr->io->client_opened && (r = fr->io->client_opened(cl)) < 0) {
		fr->io->unmount(fc->m);
		free(fc);
		cl->path_data = NULL;
		return r;
	}
	*out = fc;
	return 0;
}

void ccb_fs_op_init(struct ccb_fs_op *op, const struct ccb_client *cl)
{
	const struct ccb_fsrun *fr = cl->run->path_data;
	const struct ccb_fsclient *fc = cl->path_data;

	memset(op, 0, sizeof(*op));
	op->io = fr->io;
	op->m = fc->m;
	op->fd = fc->fd;
	op->path = fc->path;
	op->layout = fr->layout;
	op->want_ino = fr->made && fr->io->file_ino;
	op->made = op->want_ino ? fr->made : NULL;
}

void ccb_fs_complete_op(struct ccb_client *cl, struct ccb_slot *s, int ret,
                        const struct ccb_fs_op *op)
{
	struct ccb_fsclient *fc = cl->path_data;
	struct ccb_fsrun *fr = cl->run->path_data;

	/* What the op made, even when a later call of it failed: its file
	 * exists, and is the run's to remove. */
	if (op->ino && ccb_fs_made_add(fr->made, op->ino, false) < 0)
		fprintf(stderr,
		        "ccbench: %s: cannot record the inode this run made (no memory): it "
		        "will be left at the end\n",
		        op->path);
	if (op->call)
		fc->call = op->call;
	if (ret < 0)
		ccb_fs_set_error(cl, s, ret, op->extra[0] ? op->extra : NULL);
	ccb_slot_done(s, ret);
}

void ccb_fs_set_error(struct ccb_client *cl, struct ccb_slot *s, int r, const char *extra)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct ccb_fsclient *fc = cl->path_data;
	char msg[1024];
	size_t l;

	if (cl->first_error_msg[0])
		return;
	snprintf(msg, sizeof(msg), "%s(%s%s) at offset %" PRIu64 ", client %u: %s%s", fc->call,
	         fr->io->where(fc->m), fc->path, s->offset, cl->idx, strerror(-r),
	         extra                          ? extra
	         : r == -ENOSPC || r == -EDQUOT ? " (the data pool is full or over its quota)"
	                                        : "");
	/* Truncated to the engine's buffer; the call and path come first. */
	l = strlen(msg);
	if (l >= sizeof(cl->first_error_msg))
		l = sizeof(cl->first_error_msg) - 1;
	memcpy(cl->first_error_msg, msg, l);
	cl->first_error_msg[l] = '\0';
}

void ccb_fs_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct ccb_fsclient *fc = cl->path_data;

	(void)s;
	snprintf(buf, len, "%s(%.60s%.120s)", fc && fc->call ? fc->call : fr->io->client,
	         fc ? fr->io->where(fc->m) : "", fc ? fc->path : "");
}

void ccb_fs_client_close(struct ccb_client *cl)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct ccb_fsclient *fc = cl->path_data;

	if (!fc)
		return;
	if (fr->io->client_closing && fr->io->client_closing(cl))
		return; /* a call stuck in the kernel still uses them: left as they are */
	if (fc->fd >= 0)
		fr->io->close(fc->m, fc->fd);
	fr->io->unmount(fc->m);
	free(fc);
	cl->path_data = NULL;
}

uint64_t ccb_fs_conf_u64(void *ctl, const char *key, uint64_t dflt)
{
	char buf[64], *end;
	unsigned long long v;

	if (!ctl || ceph_conf_get(ctl, key, buf, sizeof(buf)) < 0)
		return dflt;
	if (strcmp(buf, "true") == 0 || strcmp(buf, "false") == 0)
		return buf[0] == 't';
	v = strtoull(buf, &end, 10);
	return *end || end == buf ? dflt : (uint64_t)v;
}
