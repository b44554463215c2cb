/*
 * The CephFS path through libcephfs: dd-style streams (fs write, fs read)
 * and bonnie++-style small-file metadata rates (fs meta).
 *
 * Every client has its own ceph_mount, as two nodes would, and its own
 * file DIR/client-N. libcephfs calls are synchronous, so the path is
 * inline: submit makes the call and completes the slot before returning,
 * and the engine runs it at queue depth 1 per client.
 *
 * Writes end with ceph_fsync inside the measured time, like dd
 * conv=fsync: the last call of each client is ceph_write followed by
 * ceph_fsync, timed as one op, so the client's buffered data cannot
 * inflate the figure. The engine ends the run at the end of its last op,
 * so the fsync is in the seconds. With -d the path keeps the deadline
 * itself (the engine would stop before the fsync could be issued): the
 * first op that starts after it is the final write + fsync.
 *
 * Reads open a fresh mount per client after the files were written and
 * closed (by a previous `fs write --keep`, or by the prefill on the
 * control mount), so no reader starts with cached data.
 *
 * A control mount, opened in prepare, makes the run's directory and is
 * what the undo log uses to remove it; it is unmounted last.
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

#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/result.h>
#include <ccbench/stats.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cephfs/libcephfs.h>

/* CephFS stripe units are multiples of CEPH_MIN_STRIPE_UNIT. */
#define MIN_STRIPE_UNIT      (64u << 10)
#define DEFAULT_OBJECT_BYTES (4ull << 20)
/* Prefill: set-up, not the measurement, so large calls. */
#define FILL_BYTES (4ull << 20)

/* fs meta: bonnie's two blocks of three phases. */
enum { PH_CREATE, PH_READ, PH_DELETE, PH_KINDS };
#define N_PHASES (2 * PH_KINDS)

struct phase {
	struct ccb_hist hist;
	uint64_t ops, bytes;
	uint64_t start_nsec, end_nsec;
};

/* The marker xattr on what ccbench makes (see the top of the file). */
#define MARK_XATTR  "user.ccbench"
#define MARK_PREFIX "ccbench run "

struct fsrun {
	const struct ccb_opts *opts;
	struct ceph_mount_info *ctl;
	char dir[512];
	char mark[160]; /* this run's marker value */
	bool created_dir;
	bool existing_files; /* fs read --dir: files of an earlier write */
	bool meta;
	uint64_t file_bytes; /* per client; for read --dir, checked against the files */
	uint64_t block_bytes;
	uint64_t deadline_nsec; /* -d, kept by the path (see the top of the file) */
	/* Requested layout, 0 = the directory's default. */
	int stripe_unit, stripe_count, object_size;
	const char *data_pool;

	/* fs meta */
	struct ccb_fs_spec spec;
	uint32_t *perm[PH_KINDS]; /* random order of each phase of the random block */
	unsigned phase;
	uint64_t step;
	struct phase *phases;
};

struct fsclient {
	struct ceph_mount_info *cm;
	int fd;
	char path[600];
	const char *call; /* the call of the current op, for messages */
	uint64_t pos, file_bytes;
	bool done;
};

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

/* One ceph_mount configured the way ccb_cluster_configure() configures
 * librados, so -c, -n/-i, -k, CEPH_ARGS and -o mean the same here. */
static int fs_mount(const struct ccb_opts *o, struct ceph_mount_info **out, char *err,
                    size_t err_len)
{
	struct ceph_mount_info *cm = NULL;
	char pathbuf[512], val[32];
	const char *conf = ccb_cluster_conf_path(o, pathbuf, sizeof(pathbuf));
	const char *id = o->id ? o->id : "admin";
	int r;

	if (o->name) {
		if (strncmp(o->name, "client.", 7) != 0 || !o->name[7]) {
			snprintf(err, err_len,
			         "--name '%s': libcephfs mounts as a client (client.ID)", o->name);
			return -EINVAL;
		}
		id = o->name + 7;
	}
	r = ceph_create(&cm, id);
	if (r < 0) {
		snprintf(err, err_len, "ceph_create(client.%s): %s", id, strerror(-r));
		return r;
	}
	if (access(conf, R_OK) == 0 && (r = ceph_conf_read_file(cm, conf)) < 0) {
		snprintf(err, err_len, "ceph_conf_read_file(%s): %s", conf, strerror(-r));
		goto fail;
	}
	r = ceph_conf_parse_env(cm, "CEPH_ARGS");
	if (r < 0) {
		snprintf(err, err_len, "ceph_conf_parse_env(CEPH_ARGS): %s", strerror(-r));
		goto fail;
	}
	if (o->keyring && (r = ceph_conf_set(cm, "keyring", o->keyring)) < 0) {
		snprintf(err, err_len, "ceph_conf_set(keyring=%s): %s", o->keyring, strerror(-r));
		goto fail;
	}
	/* Bounds both the monitor handshake and the wait for an MDS, so a
	 * cluster without a filesystem fails instead of hanging. Whole seconds,
	 * rounded up. -o can still override it. */
	snprintf(val, sizeof(val), "%llu",
	         (unsigned long long)((o->connect_timeout_usec + 999999) / 1000000));
	if ((r = ceph_conf_set(cm, "client_mount_timeout", val)) < 0) {
		snprintf(err, err_len, "ceph_conf_set(client_mount_timeout=%s): %s", val,
		         strerror(-r));
		goto fail;
	}
	for (unsigned i = 0; i < o->n_sets; i++) {
		char key[256];
		const char *value;

		if (ccb_cluster_split_set(o->sets[i], key, sizeof(key), &value, err, err_len) < 0) {
			r = -EINVAL;
			goto fail;
		}
		if ((r = ceph_conf_set(cm, key, value)) < 0) {
			snprintf(err, err_len, "ceph_conf_set(%s): %s", o->sets[i], strerror(-r));
			r = -EINVAL;
			goto fail;
		}
	}
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

static void fs_unmount(struct ceph_mount_info *cm)
{
	if (cm)
		ceph_shutdown(cm);
}

/* ---- undo ---------------------------------------------------------------- */

struct undo_path {
	struct fsrun *fr;
	char path[];
};

static struct undo_path *undo_path_new(struct fsrun *fr, const char *path)
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
static int push_path_undo(const char *what, ccb_undo_fn fn, struct fsrun *fr, const char *path,
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
static int is_marked(struct ceph_mount_info *cm, const char *path)
{
	char v[200];
	int n = ceph_lgetxattr(cm, path, MARK_XATTR, v, sizeof(v) - 1);

	if (n == -ENODATA || n == -ERANGE)
		return 0;
	if (n < 0)
		return n;
	v[n] = '\0';
	return strncmp(v, MARK_PREFIX, strlen(MARK_PREFIX)) == 0;
}

/* Mark what this run just made. A mark that cannot be written only costs
 * a later --reuse the right to replace the entry, so it is a warning. */
static void mark_made(struct ccb_run *run, struct fsrun *fr, struct ceph_mount_info *cm,
                      const char *path, int fd)
{
	size_t l = strlen(fr->mark);
	int r = fd >= 0 ? ceph_fsetxattr(cm, fd, MARK_XATTR, fr->mark, l, 0)
	                : ceph_setxattr(cm, path, MARK_XATTR, fr->mark, l, 0);

	if (r < 0)
		ccb_run_warn(run,
		             "%s: could not set the %s marker: %s (a later --reuse will not "
		             "replace it)",
		             path, MARK_XATTR, strerror(-r));
}

static int undo_unlink(void *arg)
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

static int undo_rm_tree(void *arg)
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
	struct fsrun *fr = arg;

	fs_unmount(fr->ctl);
	for (int i = 0; i < PH_KINDS; i++)
		free(fr->perm[i]);
	free(fr->phases);
	free(fr);
	return 0;
}

/* ---- set-up -------------------------------------------------------------- */

static void client_file(const struct fsrun *fr, unsigned idx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/client-%u", fr->dir, idx);
}

/* Write the files of an `fs read` without --dir (unmeasured). */
static int prefill(struct ccb_run *run, struct fsrun *fr)
{
	uint64_t chunk = fr->block_bytes > FILL_BYTES ? fr->block_bytes : FILL_BYTES;
	uint64_t t0 = ccb_now_nsec();
	char *buf = malloc(chunk), path[600];
	int r = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t i = 0; i < chunk / 8; i++) {
		uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
		memcpy(buf + i * 8, &x, 8);
	}
	if (!run->opts->quiet)
		fprintf(stderr,
		        "ccbench: writing %u file(s) of %" PRIu64 " MiB in %s to read back "
		        "(not measured)\n",
		        run->n_clients, fr->file_bytes >> 20, fr->dir);
	for (unsigned c = 0; c < run->n_clients && !r; c++) {
		int fd;

		client_file(fr, c, path, sizeof(path));
		/* O_EXCL: only a file this run made is ever logged for removal. */
		fd = ceph_open_layout(fr->ctl, path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                      fr->stripe_unit, fr->stripe_count, fr->object_size,
		                      fr->data_pool);
		if (fd < 0) {
			fprintf(stderr, "ccbench: ceph_open_layout(%s): %s\n", path, strerror(-fd));
			r = fd;
			break;
		}
		if (!run->opts->keep && (r = push_path_undo("remove a client's file", undo_unlink,
		                                            fr, path, "rm")) < 0) {
			ceph_close(fr->ctl, fd);
			ceph_unlink(fr->ctl, path);
			break;
		}
		mark_made(run, fr, fr->ctl, path, fd);
		for (uint64_t off = 0; off < fr->file_bytes && !r; off += chunk) {
			uint64_t len = fr->file_bytes - off < chunk ? fr->file_bytes - off : chunk;
			int w;

			if (ccb_signal_pending) {
				r = -EINTR;
				break;
			}
			w = ceph_write(fr->ctl, fd, buf, (int64_t)len, (int64_t)off);
			if (w < 0 || (uint64_t)w != len) {
				r = w < 0 ? w : -EIO;
				fprintf(stderr,
				        "ccbench: ceph_write(%s) at offset %" PRIu64 ": %s%s\n",
				        path, off, strerror(-r),
				        r == -ENOSPC || r == -EDQUOT ? " (the data pool is full or "
				                                       "over its quota)"
				                                     : "");
			}
		}
		if (!r && (r = ceph_fsync(fr->ctl, fd, 0)) < 0)
			fprintf(stderr, "ccbench: ceph_fsync(%s): %s\n", path, strerror(-r));
		ceph_close(fr->ctl, fd);
	}
	free(buf);
	if (!r && !run->opts->quiet)
		fprintf(stderr, "ccbench: written in %.1f s\n",
		        (double)(ccb_now_nsec() - t0) / 1e9);
	return r;
}

/* fs read --dir: the files of an earlier `fs write --keep --dir D`. */
static int check_existing_files(struct ccb_run *run, struct fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	uint64_t smallest = UINT64_MAX;
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ceph_statx stx;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = ceph_statx(fr->ctl, path, &stx, CEPH_STATX_SIZE | CEPH_STATX_MODE, 0);
		if (r < 0 || !S_ISREG(stx.stx_mode)) {
			fprintf(
			    stderr,
			    "ccbench: fs read --dir %s: ceph_statx(%s): %s (write the files first: "
			    "ccbench fs write --keep --dir %s --clients %u)\n",
			    fr->dir, path, r < 0 ? strerror(-r) : "not a regular file", fr->dir,
			    run->n_clients);
			run->bad_input = true;
			return r < 0 ? r : -EINVAL;
		}
		if (ccb_opt_given(o, "file-size") && stx.stx_size < o->file_size_bytes) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s: %s holds %" PRIu64 " bytes, less than "
			        "--file-size %" PRIu64 "\n",
			        fr->dir, path, (uint64_t)stx.stx_size, o->file_size_bytes);
			run->bad_input = true;
			return -EINVAL;
		}
		if (stx.stx_size < smallest)
			smallest = stx.stx_size;
	}
	/* Without --file-size, each reader reads its whole file (set in
	 * client_open); this is the figure the layout reports. */
	fr->file_bytes = ccb_opt_given(o, "file-size") ? o->file_size_bytes : smallest;
	if (fr->file_bytes < fr->block_bytes) {
		fprintf(stderr,
		        "ccbench: fs read --dir %s: files of %" PRIu64
		        " bytes are smaller than --block-size\n",
		        fr->dir, fr->file_bytes);
		run->bad_input = true;
		return -EINVAL;
	}
	return 0;
}

/* Make or claim the run's directory. An existing one is used only with
 * --reuse, and then only the entries this run creates are removed. */
static int claim_dir(struct ccb_run *run, struct fsrun *fr)
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
	if (!o->keep && (r = push_path_undo("remove the run's directory", undo_rmdir, fr, fr->dir,
	                                    "rmdir")) < 0) {
		ceph_rmdir(fr->ctl, fr->dir);
		return r;
	}
	mark_made(run, fr, fr->ctl, fr->dir, -1);
	return 0;
}

/*
 * fs write --reuse into an existing directory: every DIR/client-N there
 * must be a file an earlier ccbench run wrote (it carries the marker), or
 * the run refuses now, before anything is changed.
 */
static int check_reused_files(struct ccb_run *run, struct fsrun *fr)
{
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ceph_statx stx;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = ceph_statx(fr->ctl, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_statx(%s): %s\n", path, strerror(-r));
			return r;
		}
		r = S_ISREG(stx.stx_mode) ? is_marked(fr->ctl, path) : 0;
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_getxattr(%s, %s): %s\n", path, MARK_XATTR,
			        strerror(-r));
			return r;
		}
		if (!r) {
			fprintf(stderr,
			        "ccbench: --reuse: %s exists and was not written by ccbench (no %s "
			        "marker); refusing to replace it (move it away, or choose another "
			        "--dir)\n",
			        path, MARK_XATTR);
			run->bad_input = true;
			return -EEXIST;
		}
	}
	return 0;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Size of meta file @p idx: uniform in [min, max], the same at create and read. */
static uint64_t meta_file_bytes(const struct fsrun *fr, uint64_t idx)
{
	uint64_t span = fr->spec.max_bytes - fr->spec.min_bytes + 1;

	return fr->spec.min_bytes + mix64(idx + 1) % span;
}

static void meta_path(const struct fsrun *fr, uint64_t idx, char *buf, size_t len)
{
	if (fr->spec.dirs > 1)
		snprintf(buf, len, "%s/meta/d%05" PRIu64 "/f%08" PRIu64, fr->dir,
		         idx % fr->spec.dirs, idx);
	else
		snprintf(buf, len, "%s/meta/f%08" PRIu64, fr->dir, idx);
}

static int prepare_meta(struct ccb_run *run, struct fsrun *fr)
{
	char path[600];
	uint64_t rng = mix64((uint64_t)getpid() ^ ccb_now_nsec());
	int r;

	snprintf(path, sizeof(path), "%s/meta", fr->dir);
	/* The tree is removed whole at the end, so it must be this run's:
	 * logged only once mkdir made it. An existing DIR/meta is refused,
	 * even an earlier run's (--keep): by now it may hold others' files. */
	r = ceph_mkdir(fr->ctl, path, 0755);
	if (r == -EEXIST) {
		int m = is_marked(fr->ctl, path);

		fprintf(stderr,
		        "ccbench: fs meta --dir %s: %s exists (%s); refusing to write into it "
		        "(remove it, or choose another --dir)\n",
		        fr->dir, path,
		        m > 0 ? "left by an earlier ccbench fs meta --keep"
		              : "not made by ccbench");
		run->bad_input = true;
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: ceph_mkdir(%s): %s\n", path, strerror(-r));
		return r;
	}
	if (!run->opts->keep &&
	    (r = push_path_undo("remove the run's files", undo_rm_tree, fr, path, "rm -r")) < 0) {
		ceph_rmdir(fr->ctl, path);
		return r;
	}
	mark_made(run, fr, fr->ctl, path, -1);
	/* The directories are set-up, as in bonnie++: made before the clock starts. */
	for (uint64_t d = 0; fr->spec.dirs > 1 && d < fr->spec.dirs; d++) {
		snprintf(path, sizeof(path), "%s/meta/d%05" PRIu64, fr->dir, d);
		r = ceph_mkdir(fr->ctl, path, 0755);
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_mkdir(%s): %s\n", path, strerror(-r));
			return r;
		}
		if (ccb_signal_pending)
			return -EINTR;
	}
	/* The random block visits the files in a fresh order per phase; the
	 * orders are drawn now so shuffling is not timed. */
	for (int k = 0; k < PH_KINDS; k++) {
		uint32_t *p = malloc(fr->spec.files * sizeof(*p));

		if (!p)
			return -ENOMEM;
		fr->perm[k] = p;
		for (uint64_t i = 0; i < fr->spec.files; i++)
			p[i] = (uint32_t)i;
		for (uint64_t i = fr->spec.files - 1; i > 0; i--) {
			uint64_t j = (rng = mix64(rng + i)) % (i + 1);
			uint32_t t = p[i];
			p[i] = p[j];
			p[j] = t;
		}
	}
	fr->phases = calloc(N_PHASES, sizeof(*fr->phases));
	if (!fr->phases)
		return -ENOMEM;
	for (int i = 0; i < N_PHASES; i++)
		ccb_hist_init(&fr->phases[i].hist);
	return 0;
}

static int fs_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct fsrun *fr;
	char err[1024], host[64] = "";
	int r;

	/* Inline calls: one op at a time per client, whatever the table says. */
	run->queue_depth = 1;
	fr = calloc(1, sizeof(*fr));
	if (!fr)
		return -ENOMEM;
	fr->opts = o;
	fr->meta = run->mode == CCB_MODE_RW;
	fr->block_bytes = o->block_size_bytes;
	fr->file_bytes = o->file_size_bytes;
	fr->object_size = (int)o->object_size_bytes;
	fr->stripe_unit = (int)(o->stripe_unit_bytes ? o->stripe_unit_bytes : o->object_size_bytes);
	fr->stripe_count = (int)o->stripe_count;
	fr->data_pool = o->data_pool;
	/* The rules ccb_opts_validate() applies; repeated for sweeps and
	 * groups, which build their options elsewhere. Before any mount. */
	if (ccb_fs_validate(o, err, sizeof(err)) < 0 ||
	    (fr->meta && ccb_fs_spec_parse(o->files_spec, &fr->spec, err, sizeof(err)) < 0)) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = true;
		free(fr);
		return -EINVAL;
	}
	if (fr->meta && run->n_clients > 1) {
		fprintf(stderr, "ccbench: fs meta: --clients must be 1 (one bonnie++ process); run "
		                "several ccbench fs meta with --group for concurrent clients\n");
		run->bad_input = true;
		free(fr);
		return -EINVAL;
	}
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
	fr->existing_files = run->mode == CCB_MODE_SEQ && o->dir;
	if (!host[0])
		gethostname(host, sizeof(host) - 1);
	snprintf(fr->mark, sizeof(fr->mark), MARK_PREFIX "%s-%d-%lld", host, (int)getpid(),
	         (long long)time(NULL));

	r = fs_mount(o, &fr->ctl, err, sizeof(err));
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
	if (ceph_conf_get(fr->ctl, "fsid", run->fsid, sizeof(run->fsid)) < 0)
		run->fsid[0] = '\0';
	if (fr->data_pool && ceph_get_pool_id(fr->ctl, fr->data_pool) < 0) {
		fprintf(stderr, "ccbench: --data-pool '%s': no such pool\n", fr->data_pool);
		run->bad_input = true;
		return -ENOENT;
	}

	if (fr->existing_files) {
		struct ceph_statx stx;

		r = ceph_statx(fr->ctl, fr->dir, &stx, CEPH_STATX_MODE, 0);
		if (r < 0 || !S_ISDIR(stx.stx_mode)) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s: %s (write it first: ccbench fs "
			        "write --keep --dir %s)\n",
			        fr->dir, r < 0 ? strerror(-r) : "not a directory", fr->dir);
			run->bad_input = true;
			return r < 0 ? r : -ENOTDIR;
		}
		r = check_existing_files(run, fr);
		if (r < 0)
			return r;
	} else {
		r = claim_dir(run, fr);
		if (r < 0)
			return r;
		/* The client files' removals are logged as each is made (client_open, prefill). */
		if (!fr->created_dir && !fr->meta && run->is_write &&
		    (r = check_reused_files(run, fr)) < 0)
			return r;
		if (fr->meta)
			r = prepare_meta(run, fr);
		else if (run->mode == CCB_MODE_SEQ)
			r = prefill(run, fr);
		if (r < 0)
			return r;
	}

	if (run->duration_usec) {
		/* Kept here, not by the engine: see the top of the file. */
		fr->deadline_nsec = run->duration_usec * 1000ull;
		run->duration_usec = 0;
		if (run->mode == CCB_MODE_SEQ)
			ccb_run_warn(run,
			             "-d: a reader that reaches the end of its file starts over; "
			             "later passes may be served from the client's cache");
	}
	run->buf_bytes =
	    fr->meta ? (fr->spec.max_bytes > 4096 ? fr->spec.max_bytes : 4096) : fr->block_bytes;
	run->layout = json_pack("{s:s, s:b, s:b}", "dir", fr->dir, "dir_created", fr->created_dir,
	                        "kept", o->keep || fr->existing_files);
	if (!fr->meta) {
		json_object_set_new(run->layout, "file_size",
		                    json_integer((json_int_t)fr->file_bytes));
		json_object_set_new(run->layout, "block_size",
		                    json_integer((json_int_t)fr->block_bytes));
		if (run->is_write)
			json_object_set_new(run->layout, "fsync_in_time", json_true());
		else
			json_object_set_new(run->layout, "fresh_mount_per_reader", json_true());
	}
	return 0;
}

/* ---- clients and ops ----------------------------------------------------- */

/* The layout CephFS gave the file, read back rather than assumed. */
static void record_layout(struct ccb_run *run, struct fsrun *fr, struct fsclient *fc)
{
	int su = 0, sc = 0, os = 0, pool = 0, r;
	char pool_name[256] = "";
	json_t *j;

	r = ceph_get_file_layout(fc->cm, fc->fd, &su, &sc, &os, &pool);
	if (r < 0) {
		ccb_run_warn(run, "ceph_get_file_layout(%s): %s", fc->path, strerror(-r));
		return;
	}
	ceph_get_file_pool_name(fc->cm, fc->fd, pool_name, sizeof(pool_name));
	j = json_pack("{s:i, s:i, s:i, s:s, s:i, s:i}", "object_size", os, "stripe_unit", su,
	              "stripe_count", sc, "pool", pool_name, "pool_id", pool, "replication",
	              ceph_get_file_replication(fc->cm, fc->fd));
	json_object_set_new(run->layout, "file_layout", j);
	if ((fr->object_size && os != fr->object_size) ||
	    (fr->stripe_unit && su != fr->stripe_unit) ||
	    (fr->stripe_count && sc != fr->stripe_count) ||
	    (fr->data_pool && strcmp(pool_name, fr->data_pool) != 0))
		ccb_run_warn(run,
		             "%s: layout differs from the one asked for (an existing file keeps "
		             "its layout)",
		             fc->path);
}

static int fs_client_open(struct ccb_client *cl)
{
	struct ccb_run *run = cl->run;
	struct fsrun *fr = run->path_data;
	struct fsclient *fc = calloc(1, sizeof(*fc));
	char err[1024];
	int r;

	if (!fc)
		return -ENOMEM;
	fc->fd = -1;
	r = fs_mount(run->opts, &fc->cm, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
		free(fc);
		return r;
	}
	cl->path_data = fc;
	if (fr->meta)
		return 0;
	client_file(fr, cl->idx, fc->path, sizeof(fc->path));
	fc->file_bytes = fr->file_bytes;
	if (run->is_write) {
		/* A reused directory may hold this file from an earlier run: it is
		 * made anew, since an existing file keeps its old layout. Only a
		 * file with ccbench's marker goes (checked in prepare, and again
		 * here, just before); O_EXCL then makes sure the file is ours. */
		r = is_marked(fc->cm, fc->path);
		if (r > 0)
			r = ceph_unlink(fc->cm, fc->path);
		else if (r == 0 && ceph_statx(fc->cm, fc->path, &(struct ceph_statx){0}, 0,
		                              AT_SYMLINK_NOFOLLOW) == 0)
			r = -EEXIST;
		fc->call = "ceph_open_layout";
		fc->fd = r < 0 && r != -ENOENT
		             ? r
		             : ceph_open_layout(fc->cm, fc->path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                                fr->stripe_unit, fr->stripe_count, fr->object_size,
		                                fr->data_pool);
		if (fc->fd >= 0 && !run->opts->keep &&
		    (r = push_path_undo("remove a client's file", undo_unlink, fr, fc->path,
		                        "rm")) < 0) {
			ceph_close(fc->cm, fc->fd);
			ceph_unlink(fc->cm, fc->path);
			fc->fd = r;
		}
		if (fc->fd >= 0)
			mark_made(run, fr, fc->cm, fc->path, fc->fd);
	} else {
		fc->call = "ceph_open";
		fc->fd = ceph_open(fc->cm, fc->path, O_RDONLY, 0);
	}
	if (fc->fd < 0) {
		r = fc->fd;
		fprintf(stderr, "ccbench: client %u: %s(%s): %s\n", cl->idx, fc->call, fc->path,
		        strerror(-r));
		fs_unmount(fc->cm);
		free(fc);
		cl->path_data = NULL;
		return r;
	}
	if (fr->existing_files && !ccb_opt_given(run->opts, "file-size")) {
		struct ceph_statx stx;

		if (ceph_fstatx(fc->cm, fc->fd, &stx, CEPH_STATX_SIZE, 0) == 0)
			fc->file_bytes = stx.stx_size;
	}
	if (cl->idx == 0)
		record_layout(run, fr, fc);
	return 0;
}

static void set_error(struct ccb_client *cl, struct ccb_slot *s, int r, const char *extra)
{
	struct fsclient *fc = cl->path_data;
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

static int stream_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct fsrun *fr = run->path_data;
	struct fsclient *fc = cl->path_data;
	bool last = false;
	uint64_t len;
	int r;

	if (fc->done)
		return CCB_SUBMIT_END;
	if (fr->deadline_nsec) {
		if (fc->pos >= fc->file_bytes)
			fc->pos = 0;
		last = s->start_nsec - run->start_nsec >= fr->deadline_nsec;
	} else if (fc->pos >= fc->file_bytes) {
		return CCB_SUBMIT_END;
	}
	len =
	    fc->file_bytes - fc->pos < fr->block_bytes ? fc->file_bytes - fc->pos : fr->block_bytes;
	if (!fr->deadline_nsec && fc->pos + len >= fc->file_bytes)
		last = true;
	s->offset = fc->pos;
	s->len_bytes = len;
	s->object = run->is_write;
	if (run->is_write) {
		fc->call = "ceph_write";
		r = ceph_write(fc->cm, fc->fd, s->buf, (int64_t)len, (int64_t)fc->pos);
		if (r >= 0 && (uint64_t)r != len) {
			set_error(cl, s, -EIO, " (short write)");
			r = -EIO;
		}
		if (r >= 0 && last) {
			int f;

			fc->call = "ceph_fsync";
			f = ceph_fsync(fc->cm, fc->fd, 0);
			if (f < 0)
				r = f;
		}
	} else {
		fc->call = "ceph_read";
		r = ceph_read(fc->cm, fc->fd, s->buf, (int64_t)len, (int64_t)fc->pos);
		if (r >= 0 && (uint64_t)r != len) {
			char extra[96];

			snprintf(extra, sizeof(extra), " (%d of %" PRIu64 " bytes: file shorter?)",
			         r, len);
			set_error(cl, s, -EIO, extra);
			r = -EIO;
		}
	}
	fc->pos += len;
	if (last)
		fc->done = true;
	if (r < 0)
		set_error(cl, s, r, NULL);
	ccb_slot_done(s, r);
	return 0;
}

/* One metadata op of the current phase: create (open O_CREAT|O_EXCL,
 * write the file's bytes, close), stat+read (statx, then open, read,
 * close when the file has data), or delete (unlink). */
static int meta_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct fsrun *fr = run->path_data;
	struct fsclient *fc = cl->path_data;
	struct ceph_statx stx;
	struct phase *ph;
	uint64_t idx, bytes, end;
	int kind, r, fd, c;

	if (fr->phase >= N_PHASES)
		return CCB_SUBMIT_END;
	ph = &fr->phases[fr->phase];
	kind = (int)(fr->phase % PH_KINDS);
	idx = fr->phase < PH_KINDS ? fr->step : fr->perm[kind][fr->step];
	meta_path(fr, idx, fc->path, sizeof(fc->path));
	bytes = meta_file_bytes(fr, idx);
	s->offset = 0;
	s->object = idx;
	s->len_bytes = kind == PH_DELETE ? 0 : bytes;
	switch (kind) {
	case PH_CREATE:
		fc->call = "ceph_open_layout";
		r = fd = ceph_open_layout(fc->cm, fc->path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                          fr->stripe_unit, fr->stripe_count, fr->object_size,
		                          fr->data_pool);
		if (fd < 0)
			break;
		if (bytes) {
			fc->call = "ceph_write";
			r = ceph_write(fc->cm, fd, s->buf, (int64_t)bytes, 0);
			if (r >= 0 && (uint64_t)r != bytes)
				r = -EIO;
		}
		c = ceph_close(fc->cm, fd);
		if (r >= 0 && c < 0) {
			fc->call = "ceph_close";
			r = c;
		}
		break;
	case PH_READ:
		fc->call = "ceph_statx";
		r = ceph_statx(fc->cm, fc->path, &stx, CEPH_STATX_BASIC_STATS, 0);
		if (r < 0)
			break;
		if (stx.stx_size != bytes) {
			set_error(cl, s, -EIO, " (size differs from the one written)");
			r = -EIO;
			break;
		}
		if (!bytes)
			break;
		fc->call = "ceph_open";
		r = fd = ceph_open(fc->cm, fc->path, O_RDONLY, 0);
		if (fd < 0)
			break;
		fc->call = "ceph_read";
		r = ceph_read(fc->cm, fd, s->buf, (int64_t)bytes, 0);
		if (r >= 0 && (uint64_t)r != bytes)
			r = -EIO;
		ceph_close(fc->cm, fd);
		break;
	default:
		fc->call = "ceph_unlink";
		r = ceph_unlink(fc->cm, fc->path);
		break;
	}
	end = ccb_now_nsec();
	if (r >= 0) {
		r = (int)s->len_bytes;
		ccb_hist_record(&ph->hist, end - s->start_nsec);
		if (!ph->ops)
			ph->start_nsec = s->start_nsec;
		ph->end_nsec = end;
		ph->ops++;
		ph->bytes += s->len_bytes;
	} else {
		set_error(cl, s, r, NULL);
	}
	if (++fr->step == fr->spec.files) {
		fr->phase++;
		fr->step = 0;
	}
	ccb_slot_done(s, r);
	return 0;
}

static int fs_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct fsrun *fr = cl->run->path_data;

	return fr->meta ? meta_submit(cl, s) : stream_submit(cl, s);
}

static void fs_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	struct fsclient *fc = cl->path_data;

	(void)s;
	snprintf(buf, len, "%s(%.120s)", fc && fc->call ? fc->call : "libcephfs",
	         fc ? fc->path : "");
}

static void fs_client_close(struct ccb_client *cl)
{
	struct fsclient *fc = cl->path_data;

	if (!fc)
		return;
	if (fc->fd >= 0)
		ceph_close(fc->cm, fc->fd);
	fs_unmount(fc->cm);
	free(fc);
	cl->path_data = NULL;
}

/* Each client's share of the aggregate and Jain's fairness index: a run
 * cannot measure one client alone and all together at once, so the
 * single-client figure comes from a --clients 1 run (or a sweep). */
static void fs_finish(struct ccb_run *run)
{
	struct fsrun *fr = run->path_data;
	double total = 0, *bw;
	json_t *shares, *own;

	if (!fr)
		return;
	if (!fr->meta && run->n_clients > 1 && run->clients &&
	    (bw = calloc(run->n_clients, sizeof(*bw)))) {
		for (unsigned i = 0; i < run->n_clients; i++) {
			const struct ccb_client *cl = &run->clients[i];
			uint64_t ns = cl->last_op_nsec > run->start_nsec
			                  ? cl->last_op_nsec - run->start_nsec
			                  : 0;

			/* Over the client's own time, so an early finisher is not
			 * diluted by the others' tail. */
			bw[i] = ns ? (double)atomic_load(&((struct ccb_client *)cl)->bytes_done) /
			                 1048576.0 / ((double)ns / 1e9)
			           : 0;
			total += (double)atomic_load(&((struct ccb_client *)cl)->bytes_done);
		}
		shares = json_array();
		own = json_array();
		for (unsigned i = 0; i < run->n_clients; i++) {
			double b = (double)atomic_load(&run->clients[i].bytes_done);

			json_array_append_new(shares, json_real(total > 0 ? b / total : 0.0));
			json_array_append_new(own, json_real(bw[i]));
		}
		json_object_set_new(run->layout, "client_share", shares);
		json_object_set_new(run->layout, "client_own_time_mib_s", own);
		json_object_set_new(run->layout, "fairness_jain",
		                    json_real(ccb_jain_index(bw, run->n_clients)));
		free(bw);
	}
	if ((run->opts->keep && !fr->existing_files) && !run->opts->quiet)
		fprintf(stderr, "ccbench: kept directory %s\n", fr->dir);
}

/* fs meta: the phases, bonnie's Sequential Create and Random Create blocks. */
static void fs_result(const struct ccb_run *run, json_t *res)
{
	static const char *const names[PH_KINDS] = {"create", "read", "delete"};
	struct fsrun *fr = run->path_data;
	json_t *phases;

	if (!fr || !fr->meta || !fr->phases)
		return;
	phases = json_array();
	for (int i = 0; i < N_PHASES; i++) {
		const struct phase *ph = &fr->phases[i];
		double secs = (double)(ph->end_nsec - ph->start_nsec) / 1e9;

		json_array_append_new(
		    phases,
		    json_pack("{s:s, s:s, s:I, s:I, s:b, s:f, s:f, s:o}", "name",
		              names[i % PH_KINDS], "order", i < PH_KINDS ? "sequential" : "random",
		              "ops", (json_int_t)ph->ops, "bytes", (json_int_t)ph->bytes,
		              "complete", ph->ops == fr->spec.files, "seconds", secs, "ops_per_s",
		              secs > 0 ? (double)ph->ops / secs : 0.0, "latency_us",
		              ccb_result_latency(&ph->hist)));
	}
	json_object_set_new(res, "phases", phases);
	json_object_set_new(res, "files",
	                    json_pack("{s:s, s:I, s:I, s:I, s:I}", "spec", run->opts->files_spec,
	                              "count", (json_int_t)fr->spec.files, "max_bytes",
	                              (json_int_t)fr->spec.max_bytes, "min_bytes",
	                              (json_int_t)fr->spec.min_bytes, "dirs",
	                              (json_int_t)fr->spec.dirs));
}

const struct ccb_path_ops ccb_path_cephfs = {
    .name = "cephfs",
    .prepare = fs_prepare,
    .client_open = fs_client_open,
    .submit = fs_submit,
    .describe = fs_describe,
    .client_close = fs_client_close,
    .finish = fs_finish,
    .result = fs_result,
};
