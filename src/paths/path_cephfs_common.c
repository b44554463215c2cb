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
 * was made by this run (mkdir succeeded, an O_EXCL open succeeded), so an
 * undo can never take an entry that was there before. What ccbench makes
 * carries the xattr user.ccbench ("ccbench run HOST-PID-TIME"); with
 * --reuse, an existing DIR/client-N is replaced only when it carries it
 * (an earlier run kept it), and anything else there makes the run refuse
 * before it changes anything.
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/cluster.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/units.h>

#include <dirent.h>
#include <inttypes.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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

int ccb_fs_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	struct ccb_fs_spec spec;
	uint64_t obj = o->object_size_bytes ? o->object_size_bytes : DEFAULT_OBJECT_BYTES;
	uint64_t su = o->stripe_unit_bytes ? o->stripe_unit_bytes : obj;
	char a[32], b[32];

	if (ccb_fs_spec_parse(o->files_spec, &spec, err, err_len) < 0)
		return -EINVAL;
	if (o->block_size_bytes > o->file_size_bytes) {
		ccb_format_bytes(o->block_size_bytes, a, sizeof(a));
		ccb_format_bytes(o->file_size_bytes, b, sizeof(b));
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
	if (o->dir) {
		size_t l = strlen(o->dir);

		if (o->dir[0] != '/' || l < 2 || o->dir[l - 1] == '/' || l > 400 ||
		    strstr(o->dir, "//") || strstr(o->dir, "/./") || strstr(o->dir, "/../") ||
		    (l >= 2 && strcmp(o->dir + l - 2, "/.") == 0) ||
		    (l >= 3 && strcmp(o->dir + l - 3, "/..") == 0)) {
			snprintf(err, err_len,
			         "--dir '%s': expected an absolute CephFS path below / (like "
			         "/bench/run1), without . or .. or a trailing /",
			         o->dir);
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

/* ---- undo ---------------------------------------------------------------- */

struct undo_path {
	struct ccb_fsrun *fr;
	char path[];
};

static struct undo_path *undo_path_new(struct ccb_fsrun *fr, const char *path)
{
	size_t l = strlen(path) + 1;
	struct undo_path *u = malloc(sizeof(*u) + l);

	if (u) {
		u->fr = fr;
		memcpy(u->path, path, l);
	}
	return u;
}

/* Log @p fn on @p path; @p by_hand ("rm -r") is how a user would undo it
 * on a mount of the filesystem, said when a third signal gives up. */
int ccb_fs_push_undo(const char *what, ccb_undo_fn fn, struct ccb_fsrun *fr, const char *path,
                     const char *by_hand)
{
	struct undo_path *u = undo_path_new(fr, path);
	int r;

	if (!u)
		return -ENOMEM;
	r = ccb_undo_push(what, fn, u, free);
	if (r < 0)
		return r;
	ccb_undo_set_hint(r, "%s MOUNT%s (MOUNT: the CephFS mounted, e.g. with ceph-fuse)", by_hand,
	                  path);
	return 0;
}

/* 1 when @p path carries a ccbench marker (of any run), 0 when not, or
 * -errno. A value not in ccbench's form is no marker: someone else's. */
int ccb_fs_is_marked(struct ceph_mount_info *cm, const char *path)
{
	char v[200];
	int n = ceph_lgetxattr(cm, path, CCB_FS_MARK_XATTR, v, sizeof(v) - 1);

	if (n == -ENODATA || n == -ERANGE)
		return 0;
	if (n < 0)
		return n;
	v[n] = '\0';
	return strncmp(v, CCB_FS_MARK_PREFIX, strlen(CCB_FS_MARK_PREFIX)) == 0;
}

/* Mark what this run just made. A mark that cannot be written only costs
 * a later --reuse the right to replace the entry, so it is a warning. */
void ccb_fs_mark_made(struct ccb_run *run, struct ccb_fsrun *fr, struct ceph_mount_info *cm,
                      const char *path, int fd)
{
	size_t l = strlen(fr->mark);
	int r = fd >= 0 ? ceph_fsetxattr(cm, fd, CCB_FS_MARK_XATTR, fr->mark, l, 0)
	                : ceph_setxattr(cm, path, CCB_FS_MARK_XATTR, fr->mark, l, 0);

	if (r < 0)
		ccb_run_warn(run,
		             "%s: could not set the %s marker: %s (a later --reuse will not "
		             "replace it)",
		             path, CCB_FS_MARK_XATTR, strerror(-r));
}

int ccb_fs_undo_unlink(void *arg)
{
	struct undo_path *u = arg;
	int r = ceph_unlink(u->fr->ctl, u->path);

	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ccbench: ceph_unlink(%s): %s\n", u->path, strerror(-r));
		return r;
	}
	return 0;
}

/* Remove a tree this run made. Passes repeat until a directory reads
 * empty, since entries removed while a listing is open may hide others. */
static int rm_tree(struct ceph_mount_info *cm, const char *path)
{
	int first = 0, removed;

	do {
		struct ceph_dir_result *d;
		struct dirent *de;
		int r = ceph_opendir(cm, path, &d);

		if (r == -ENOENT)
			return 0;
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_opendir(%s): %s\n", path, strerror(-r));
			return r;
		}
		removed = 0;
		while ((de = ceph_readdir(cm, d))) {
			char child[1024];

			if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
				continue;
			snprintf(child, sizeof(child), "%s/%s", path, de->d_name);
			r = de->d_type == DT_DIR ? rm_tree(cm, child) : ceph_unlink(cm, child);
			if (r < 0 && r != -ENOENT) {
				if (!first && de->d_type != DT_DIR)
					fprintf(stderr, "ccbench: ceph_unlink(%s): %s\n", child,
					        strerror(-r));
				if (!first)
					first = r;
			} else {
				removed++;
			}
		}
		ceph_closedir(cm, d);
	} while (removed && !first);
	if (!first) {
		first = ceph_rmdir(cm, path);
		if (first == -ENOENT)
			first = 0;
		if (first < 0)
			fprintf(stderr, "ccbench: ceph_rmdir(%s): %s\n", path, strerror(-first));
	}
	return first;
}

int ccb_fs_undo_rm_tree(void *arg)
{
	struct undo_path *u = arg;

	return rm_tree(u->fr->ctl, u->path);
}

static int undo_rmdir(void *arg)
{
	struct undo_path *u = arg;
	int r;

	if (!u->fr->opts->quiet)
		fprintf(stderr, "ccbench: removing directory %s\n", u->path);
	r = ceph_rmdir(u->fr->ctl, u->path);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ccbench: ceph_rmdir(%s): %s\n", u->path, strerror(-r));
		return r;
	}
	return 0;
}

static int undo_unmount_ctl(void *arg)
{
	struct ccb_fsrun *fr = arg;

	ccb_fs_unmount(fr->ctl);
	if (fr->release)
		fr->release(fr);
	free(fr);
	return 0;
}

/* ---- the run and its clients --------------------------------------------- */

int ccb_fs_run_open(struct ccb_run *run, size_t size, struct ccb_fsrun **out)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fsrun *fr;
	char err[1024], host[64] = "";
	int r;

	fr = calloc(1, size);
	if (!fr)
		return -ENOMEM;
	fr->opts = o;
	fr->block_bytes = run->op_bytes;
	fr->file_bytes = o->file_size_bytes;
	fr->object_size = (int)o->object_size_bytes;
	fr->stripe_unit = (int)(o->stripe_unit_bytes ? o->stripe_unit_bytes : o->object_size_bytes);
	fr->stripe_count = (int)o->stripe_count;
	fr->data_pool = o->data_pool;
	if (o->dir) {
		snprintf(fr->dir, sizeof(fr->dir), "%s", o->dir);
	} else {
		gethostname(host, sizeof(host) - 1);
		for (char *p = host; *p; p++)
			if (*p == '.' || *p == '/' || *p == '@')
				*p = '-';
		snprintf(fr->dir, sizeof(fr->dir), "/ccbench-%s-%d-%lld", host, (int)getpid(),
		         (long long)time(NULL));
	}
	if (!host[0])
		gethostname(host, sizeof(host) - 1);
	snprintf(fr->mark, sizeof(fr->mark), CCB_FS_MARK_PREFIX "%s-%d-%lld", host, (int)getpid(),
	         (long long)time(NULL));

	r = ccb_fs_mount(o, &fr->ctl, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = r == -EINVAL;
		free(fr);
		return r;
	}
	r = ccb_undo_push("unmount the control mount", undo_unmount_ctl, fr, NULL);
	if (r < 0) {
		undo_unmount_ctl(fr);
		return r;
	}
	run->path_data = fr;
	*out = fr;
	if (ceph_conf_get(fr->ctl, "fsid", run->fsid, sizeof(run->fsid)) < 0)
		run->fsid[0] = '\0';
	if (fr->data_pool && ceph_get_pool_id(fr->ctl, fr->data_pool) < 0) {
		fprintf(stderr, "ccbench: --data-pool '%s': no such pool\n", fr->data_pool);
		run->bad_input = true;
		return -ENOENT;
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
	run->layout = json_pack("{s:s, s:b, s:b}", "dir", fr->dir, "dir_created", fr->created_dir,
	                        "kept", fr->opts->keep || fr->existing_files);
}

void ccb_fs_say_kept(const struct ccb_run *run, const struct ccb_fsrun *fr)
{
	if ((run->opts->keep && !fr->existing_files) && !run->opts->quiet)
		fprintf(stderr, "ccbench: kept directory %s\n", fr->dir);
}

/* Make or claim the run's directory. An existing one is used only with
 * --reuse, and then only the entries this run creates are removed. */
int ccb_fs_claim_dir(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	struct ceph_statx stx;
	int r = ceph_statx(fr->ctl, fr->dir, &stx, CEPH_STATX_MODE, 0);

	if (r == 0) {
		if (!S_ISDIR(stx.stx_mode)) {
			fprintf(stderr, "ccbench: --dir %s: exists and is not a directory\n",
			        fr->dir);
			run->bad_input = true;
			return -ENOTDIR;
		}
		if (!o->reuse) {
			fprintf(
			    stderr,
			    "ccbench: --dir %s: exists; refusing to write into it (add --reuse to "
			    "use it: only the run's own files are removed)\n",
			    fr->dir);
			run->bad_input = true;
			return -EEXIST;
		}
		return 0;
	}
	if (r != -ENOENT) {
		fprintf(stderr, "ccbench: ceph_statx(%s): %s\n", fr->dir, strerror(-r));
		return r;
	}
	/* Logged only once made: a directory that appeared since the statx is
	 * someone else's (EEXIST), and its undo would remove it. A crash
	 * between mkdir and the log costs an empty directory at worst. */
	r = ceph_mkdir(fr->ctl, fr->dir, 0755);
	if (r < 0) {
		fprintf(stderr, "ccbench: ceph_mkdir(%s): %s%s\n", fr->dir, strerror(-r),
		        r == -ENOENT ? " (the parent directory does not exist)" : "");
		run->bad_input = r == -ENOENT || r == -EEXIST;
		return r;
	}
	fr->created_dir = true;
	if (!o->keep && (r = ccb_fs_push_undo("remove the run's directory", undo_rmdir, fr, fr->dir,
	                                      "rmdir")) < 0) {
		ceph_rmdir(fr->ctl, fr->dir);
		return r;
	}
	ccb_fs_mark_made(run, fr, fr->ctl, fr->dir, -1);
	return 0;
}

int ccb_fs_client_mount(struct ccb_client *cl, struct ccb_fsclient **out)
{
	struct ccb_fsclient *fc = calloc(1, sizeof(*fc));
	char err[1024];
	int r;

	if (!fc)
		return -ENOMEM;
	fc->fd = -1;
	r = ccb_fs_mount(cl->run->opts, &fc->cm, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
		free(fc);
		return r;
	}
	cl->path_data = fc;
	*out = fc;
	return 0;
}

void ccb_fs_set_error(struct ccb_client *cl, struct ccb_slot *s, int r, const char *extra)
{
	struct ccb_fsclient *fc = cl->path_data;
	char msg[1024];
	size_t l;

	if (cl->first_error_msg[0])
		return;
	snprintf(msg, sizeof(msg), "%s(%s) at offset %" PRIu64 ", client %u: %s%s", fc->call,
	         fc->path, s->offset, cl->idx, strerror(-r),
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
	struct ccb_fsclient *fc = cl->path_data;

	(void)s;
	snprintf(buf, len, "%s(%.120s)", fc && fc->call ? fc->call : "libcephfs",
	         fc ? fc->path : "");
}

void ccb_fs_client_close(struct ccb_client *cl)
{
	struct ccb_fsclient *fc = cl->path_data;

	if (!fc)
		return;
	if (fc->fd >= 0)
		ceph_close(fc->cm, fc->fd);
	ccb_fs_unmount(fc->cm);
	free(fc);
	cl->path_data = NULL;
}
