/*
 * Removing what a run made (path_cephfs_int.h): the undo entries of the
 * fs paths, and the record they work from.
 *
 * Removal never follows a link, whoever else writes the file system. The
 * POSIX path resolves every path with openat2(RESOLVE_NO_SYMLINKS |
 * RESOLVE_BENEATH) (path_posix.c), so its calls cannot be led elsewhere.
 * libcephfs resolves a path by name and follows links in every component
 * but the last: another client that swaps DIR/meta for a link to /victim
 * would have a removal by path list and delete /victim. So on libcephfs
 * the run records, when it makes them, the inode number and type of each
 * directory and file it makes (ccb_fs_record(); fs meta's files through
 * their op, ccb_fs_complete_op()), and of the directory each entry was
 * made in. A removal then starts from that directory's inode
 * (ceph_ll_lookup_inode: wherever it is now, a rename of a parent cannot
 * redirect it), looks the entry up by name without following it
 * (ceph_ll_lookup, AT_SYMLINK_NOFOLLOW), and removes it through the
 * parent's handle (ceph_ll_unlink, ceph_ll_rmdir) only when its inode is
 * one the run made, of the type it made; a tree is listed through the
 * directory's own handle (ceph_ll_opendir). Anything else is left, with
 * one line on stderr naming it and why.
 *
 * What is left open: libcephfs has no "remove this name if it is this
 * inode", so a client able to write into one of the run's own
 * directories can still swap a name between the lookup and the removal;
 * and a directory is recorded by a lookup just after its mkdir, so one
 * swapped in that moment is recorded instead (its entries are still not
 * the run's, so they stay). Only ceph_ll_* calls of Pacific (16.2) are used.
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <cephfs/libcephfs.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- the record: the inodes a run made ----------------------------------- */

/* An open-addressing set of inode numbers, the type in the top bit (a
 * CephFS inode number is below 2^63; 0 is none and marks a free slot).
 * Written from the clients' threads (fs meta's creates), so locked. */
#define MADE_DIR (1ull << 63)

struct ccb_fs_made {
	pthread_mutex_t lock;
	uint64_t *slot;
	size_t cap, n; /* cap: a power of two, kept at least twice n */
};

static size_t made_hash(uint64_t ino, size_t cap)
{
	ino ^= ino >> 33;
	ino *= 0xff51afd7ed558ccdull;
	ino ^= ino >> 33;
	return (size_t)ino & (cap - 1);
}

struct ccb_fs_made *ccb_fs_made_new(void)
{
	struct ccb_fs_made *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->cap = 64;
	s->slot = calloc(s->cap, sizeof(*s->slot));
	if (!s->slot) {
		free(s);
		return NULL;
	}
	pthread_mutex_init(&s->lock, NULL);
	return s;
}

void ccb_fs_made_free(struct ccb_fs_made *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->lock);
	free(s->slot);
	free(s);
}

/* Insert or update @p key (inode | MADE_DIR) in @p slot of @p cap. */
static bool made_put(uint64_t *slot, size_t cap, uint64_t key)
{
	for (size_t i = made_hash(key & ~MADE_DIR, cap);; i = (i + 1) & (cap - 1)) {
		if ((slot[i] & ~MADE_DIR) == (key & ~MADE_DIR)) {
			slot[i] = key;
			return false;
		}
		if (!slot[i]) {
			slot[i] = key;
			return true;
		}
	}
}

int ccb_fs_made_add(struct ccb_fs_made *s, uint64_t ino, bool is_dir)
{
	uint64_t key = ino | (is_dir ? MADE_DIR : 0);
	int r = 0;

	if (!s)
		return 0;
	if (!ino || ino & MADE_DIR)
		return -EINVAL;
	pthread_mutex_lock(&s->lock);
	if ((s->n + 1) * 2 > s->cap) {
		size_t cap = s->cap * 2;
		uint64_t *slot = calloc(cap, sizeof(*slot));

		if (!slot) {
			r = -ENOMEM;
			goto out;
		}
		for (size_t i = 0; i < s->cap; i++)
			if (s->slot[i])
				made_put(slot, cap, s->slot[i]);
		free(s->slot);
		s->slot = slot;
		s->cap = cap;
	}
	s->n += made_put(s->slot, s->cap, key);
out:
	pthread_mutex_unlock(&s->lock);
	return r;
}

int ccb_fs_made_find(struct ccb_fs_made *s, uint64_t ino)
{
	int r = -ENOENT;

	if (!s || !ino || ino & MADE_DIR)
		return -ENOENT;
	pthread_mutex_lock(&s->lock);
	for (size_t i = made_hash(ino, s->cap); s->slot[i]; i = (i + 1) & (s->cap - 1)) {
		if ((s->slot[i] & ~MADE_DIR) == ino) {
			r = (s->slot[i] & MADE_DIR) != 0;
			break;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

/* The directory part of absolute @p path ("/" for "/x") into @p buf. */
static void dir_part(const char *path, char *buf, size_t len)
{
	const char *s = strrchr(path, '/');
	size_t l = s && s != path ? (size_t)(s - path) : 1;

	snprintf(buf, len, "%.*s", (int)l, path);
}

/* Inode and type of @p path on the control mount, the last component not
 * followed; a directory or a regular file only. */
static int lstat_ino(struct ccb_fsrun *fr, const char *path, uint64_t *ino, bool *is_dir)
{
	struct ceph_statx stx;
	int r =
	    ceph_statx(fr->ctl, path, &stx, CEPH_STATX_INO | CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);

	if (r < 0)
		return r;
	if (!S_ISDIR(stx.stx_mode) && !S_ISREG(stx.stx_mode))
		return S_ISLNK(stx.stx_mode) ? -ELOOP : -EINVAL;
	*ino = stx.stx_ino;
	*is_dir = S_ISDIR(stx.stx_mode);
	return 0;
}

int ccb_fs_record(struct ccb_fsrun *fr, void *m, const char *path, int fd, uint64_t *ino_out,
                  bool *is_dir_out)
{
	uint64_t ino = 0;
	bool is_dir = false;
	int r;

	if (!fr->made) {
		if (ino_out)
			*ino_out = 0;
		return 0;
	}
	if (fd >= 0) {
		struct ceph_statx stx;

		r = ceph_fstatx(m, fd, &stx, CEPH_STATX_INO | CEPH_STATX_MODE, 0);
		if (r == 0 && !S_ISREG(stx.stx_mode))
			r = -EINVAL;
		ino = stx.stx_ino;
	} else {
		r = lstat_ino(fr, path, &ino, &is_dir);
	}
	if (r == 0)
		r = ccb_fs_made_add(fr->made, ino, is_dir);
	if (r < 0) {
		fprintf(stderr, "ccbench: %s: cannot record the inode this run just made: %s%s\n",
		        path, strerror(-r),
		        r == -ELOOP ? " (a symbolic link is there now: another client swapped it)"
		                    : "");
		return r;
	}
	if (ino_out)
		*ino_out = ino;
	if (is_dir_out)
		*is_dir_out = is_dir;
	return 0;
}

int ccb_fs_record_dir(struct ccb_fsrun *fr)
{
	bool is_dir = false;
	int r;

	if (!fr->made)
		return 0;
	r = lstat_ino(fr, fr->dir, &fr->dir_ino, &is_dir);
	if (r == 0 && !is_dir)
		r = -ENOTDIR;
	if (r < 0)
		fprintf(stderr, "ccbench: --dir %s: cannot record its inode: %s\n", fr->dir,
		        strerror(-r));
	return r;
}

/* ---- undo entries -------------------------------------------------------- */

/* What one undo entry removes: @c path for messages; on libcephfs, the
 * inode and type recorded when it was made, and the inode of the
 * directory it was made in. */
struct undo_path {
	struct ccb_fsrun *fr;
	uint64_t ino, parent;
	bool is_dir;
	char path[];
};

int ccb_fs_push_undo(const char *what, ccb_undo_fn fn, struct ccb_fsrun *fr, void *m,
                     const char *path, int fd, const char *by_hand)
{
	size_t l = strlen(path) + 1;
	struct undo_path *u = calloc(1, sizeof(*u) + l);
	const char *where = fr->io->where(fr->ctl);
	char parent[sizeof(fr->dir)];
	int r;

	if (!u)
		return -ENOMEM;
	u->fr = fr;
	memcpy(u->path, path, l);
	if (fr->made) {
		bool pdir = false;

		r = ccb_fs_record(fr, m, path, fd, &u->ino, &u->is_dir);
		dir_part(path, parent, sizeof(parent));
		if (r == 0 && strcmp(parent, fr->dir) == 0 && fr->dir_ino) {
			u->parent = fr->dir_ino;
		} else if (r == 0 && (r = lstat_ino(fr, parent, &u->parent, &pdir)) == 0 && !pdir) {
			r = -ENOTDIR;
		}
		if (r < 0) {
			free(u);
			return r;
		}
	}
	r = ccb_undo_push(what, fn, u, free);
	if (r < 0)
		return r;
	if (where[0])
		ccb_undo_set_hint(r, "%s %s%s", by_hand, where, path);
	else
		ccb_undo_set_hint(r, "%s MOUNT%s (MOUNT: the CephFS mounted, e.g. with ceph-fuse)",
		                  by_hand, path);
	return 0;
}

/*
 * A removal on a client whose calls may wait in the kernel on a frozen
 * cluster (a mount: an MDS that does not answer holds unlink() for as
 * long as it stays frozen) runs on a thread of its own, waited for at
 * most --op-timeout: the unwind goes on to the unmount, which ends such a
 * wait (ceph-fuse stopped, umount -f), and the hint says what is left.
 */
struct bounded {
	int (*fn)(struct undo_path *u);
	struct undo_path *u;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done, abandoned;
	int ret;
};

static void *bounded_main(void *arg)
{
	struct bounded *b = arg;
	struct ccb_fsrun *fr = b->u->fr;
	int r = b->fn(b->u);
	bool abandoned;

	pthread_mutex_lock(&b->lock);
	b->ret = r;
	b->done = true;
	abandoned = b->abandoned;
	pthread_cond_signal(&b->cond);
	pthread_mutex_unlock(&b->lock);
	if (abandoned) {
		/* Nobody waits any more: what it used is its own to free. */
		pthread_mutex_destroy(&b->lock);
		pthread_cond_destroy(&b->cond);
		free(b->u);
		free(b);
	}
	ccb_fs_run_put(fr);
	return NULL;
}

static int run_removal(struct undo_path *u, int (*fn)(struct undo_path *u))
{
	struct ccb_fsrun *fr = u->fr;
	struct bounded *b;
	struct timespec ts;
	pthread_condattr_t ca;
	pthread_t t;
	size_t l;
	int r;

	if (!fr->io->bounded_undo)
		return fn(u);
	b = calloc(1, sizeof(*b));
	l = strlen(u->path) + 1;
	if (!b || !(b->u = malloc(sizeof(*u) + l))) {
		free(b);
		return fn(u);
	}
	memcpy(b->u, u, sizeof(*u) + l);
	b->fn = fn;
	pthread_mutex_init(&b->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&b->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* The thread's reference: the run's state and control mount stay
	 * until the removal returns, even past the unwind. */
	atomic_fetch_add(&fr->refs, 1);
	if (pthread_create(&t, NULL, bounded_main, b) != 0) {
		atomic_fetch_sub(&fr->refs, 1);
		pthread_mutex_destroy(&b->lock);
		pthread_cond_destroy(&b->cond);
		free(b->u);
		free(b);
		return fn(u);
	}
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* Once one removal went unanswered, the cluster is not answering:
	 * the others are given a second each, not --op-timeout again. */
	ts.tv_sec += fr->undo_stalled ? 1 : (time_t)(fr->opts->op_timeout_usec / 1000000);
	pthread_mutex_lock(&b->lock);
	while (!b->done && pthread_cond_timedwait(&b->cond, &b->lock, &ts) != ETIMEDOUT)
		;
	if (!b->done) {
		b->abandoned = true;
		pthread_mutex_unlock(&b->lock);
		pthread_detach(t);
		fprintf(stderr,
		        "ccbench: removing %s%s: no answer within %s (the cluster does not "
		        "answer); left behind: %s in the file system\n",
		        fr->io->where(fr->ctl), u->path,
		        fr->undo_stalled ? "a second" : "--op-timeout", u->path);
		fr->undo_stalled = true;
		return -ETIMEDOUT;
	}
	r = b->ret;
	pthread_mutex_unlock(&b->lock);
	pthread_join(t, NULL);
	pthread_mutex_destroy(&b->lock);
	pthread_cond_destroy(&b->cond);
	free(b->u);
	free(b);
	return r;
}

/* ---- removal on libcephfs: by inode handle, only what the run made ------- */

/* One line for what is left, and why: the promise is never silent. */
static void say_left(const char *path, const char *name, const char *why, uint64_t ino)
{
	fprintf(stderr,
	        "ccbench: left %s%s%s in the file system: %s (inode %llu); only what this run "
	        "made is removed, and no link is followed\n",
	        path, name ? "/" : "", name ? name : "", why, (unsigned long long)ino);
}

/* Why entry @p stx is not the one recorded (@p ino of type @p is_dir), or NULL. */
static const char *not_ours(const struct ceph_statx *stx, uint64_t ino, bool is_dir)
{
	if (S_ISLNK(stx->stx_mode))
		return "it is now a symbolic link, not what this run made";
	if (!S_ISDIR(stx->stx_mode) && !S_ISREG(stx->stx_mode))
		return "it is now neither a file nor a directory, not what this run made";
	if (stx->stx_ino != ino)
		return "another client put it there: not the entry this run made";
	if (S_ISDIR(stx->stx_mode) != is_dir)
		return "its type is not the one this run made";
	return NULL;
}

struct ll_ctx {
	struct ceph_mount_info *cm;
	const UserPerm *perms;
	struct ccb_fsrun *fr;
};

static int ll_rm_contents(struct ll_ctx *c, Inode *din, const char *path, int depth);

/* Remove @p name from directory @p din when it is one the run made:
 * looked up again just before, not followed. 0 when removed, 1 when it
 * was left, 2 when it was gone already, or -errno. */
static int ll_rm_child(struct ll_ctx *c, Inode *din, const char *path, const char *name, int depth)
{
	struct ceph_statx stx;
	Inode *in = NULL;
	const char *why;
	char child[1200];
	int kind, r;

	snprintf(child, sizeof(child), "%s/%s", path, name);
	r = ceph_ll_lookup(c->cm, din, name, &in, &stx, CEPH_STATX_INO | CEPH_STATX_MODE,
	                   AT_SYMLINK_NOFOLLOW, c->perms);
	if (r == -ENOENT)
		return 2; /* not counted as removed: a stale listing must not loop */
	if (r < 0) {
		fprintf(stderr, "ccbench: ceph_ll_lookup(%s): %s\n", child, strerror(-r));
		return r;
	}
	kind = ccb_fs_made_find(c->fr->made, stx.stx_ino);
	why = kind < 0 ? (S_ISLNK(stx.stx_mode) ? "a symbolic link this run did not make"
	                                        : "this run did not make it")
	               : not_ours(&stx, stx.stx_ino, kind == 1);
	if (why) {
		say_left(path, name, why, stx.stx_ino);
		ceph_ll_put(c->cm, in);
		return 1;
	}
	if (kind == 1) {
		r = depth < 16 ? ll_rm_contents(c, in, child, depth + 1) : -ELOOP;
		if (r == 0) {
			r = ceph_ll_rmdir(c->cm, din, name, c->perms);
			if (r < 0 && r != -ENOENT)
				fprintf(stderr, "ccbench: ceph_ll_rmdir(%s): %s\n", child,
				        strerror(-r));
		} else if (r > 0) {
			r = 1; /* something in it was left: so is it */
		}
	} else {
		r = ceph_ll_unlink(c->cm, din, name, c->perms);
		if (r < 0 && r != -ENOENT)
			fprintf(stderr, "ccbench: ceph_ll_unlink(%s): %s\n", child, strerror(-r));
	}
	ceph_ll_put(c->cm, in);
	return r == -ENOENT ? 0 : r;
}

/* Empty directory @p din (the run's, by handle), through its own listing.
 * Passes repeat while they remove something, as entries removed while a
 * listing is open may hide others. 0, 1 when something was left, -errno. */
static int ll_rm_contents(struct ll_ctx *c, Inode *din, const char *path, int depth)
{
	int left, first, removed;

	do {
		struct ceph_dir_result *d;
		struct dirent de;
		int r = ceph_ll_opendir(c->cm, din, &d, c->perms);

		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_ll_opendir(%s): %s\n", path, strerror(-r));
			return r;
		}
		left = first = removed = 0;
		while ((r = ceph_readdir_r(c->cm, d, &de)) > 0) {
			if (strcmp(de.d_name, ".") == 0 || strcmp(de.d_name, "..") == 0)
				continue;
			r = ll_rm_child(c, din, path, de.d_name, depth);
			if (r == 1)
				left = 1;
			else if (r < 0 && !first)
				first = r;
			else if (r == 0)
				removed++;
		}
		ceph_ll_releasedir(c->cm, d);
		if (r < 0 && !first)
			first = r;
		if (first)
			return first;
	} while (removed && !left);
	return left;
}

/* A tree the run made is no longer where it made it (moved by another
 * client, a link or something else in its place): its own entries still
 * go, through its handle; the directory stays wherever it is now. */
static void ll_empty_moved(struct ll_ctx *c, const struct undo_path *u)
{
	struct ceph_statx stx;
	Inode *in = NULL;

	if (ceph_ll_lookup_inode(c->cm, (struct inodeno_t){u->ino}, &in) < 0)
		return; /* gone: nothing of it is left */
	if (ceph_ll_getattr(c->cm, in, &stx, CEPH_STATX_INO | CEPH_STATX_MODE, 0, c->perms) == 0 &&
	    S_ISDIR(stx.stx_mode) && ll_rm_contents(c, in, u->path, 0) >= 0)
		fprintf(stderr,
		        "ccbench: left the directory this run made as %s (inode %llu) where "
		        "another client moved it; what the run made in it was removed\n",
		        u->path, (unsigned long long)u->ino);
	ceph_ll_put(c->cm, in);
}

/* Remove the entry of undo entry @p u (emptied first when @p tree). */
static int ll_remove(struct undo_path *u, bool tree)
{
	struct ll_ctx c = {.cm = u->fr->ctl, .fr = u->fr};
	const char *name = strrchr(u->path, '/') + 1;
	struct ceph_statx stx;
	Inode *pin = NULL, *in = NULL;
	const char *why;
	int r;

	c.perms = ceph_mount_perms(c.cm);
	r = u->parent == 1 ? ceph_ll_lookup_root(c.cm, &pin)
	                   : ceph_ll_lookup_inode(c.cm, (struct inodeno_t){u->parent}, &pin);
	if (r < 0 && u->is_dir && tree)
		ll_empty_moved(&c, u); /* its directory is gone: it was moved out */
	if (r == -ENOENT || r == -ESTALE)
		return 0;
	if (r < 0) {
		fprintf(stderr, "ccbench: ceph_ll_lookup_inode(%llu, the directory of %s): %s\n",
		        (unsigned long long)u->parent, u->path, strerror(-r));
		return r;
	}
	r = ceph_ll_lookup(c.cm, pin, name, &in, &stx, CEPH_STATX_INO | CEPH_STATX_MODE,
	                   AT_SYMLINK_NOFOLLOW, c.perms);
	if (r < 0) {
		if (r != -ENOENT)
			fprintf(stderr, "ccbench: ceph_ll_lookup(%s): %s\n", u->path, strerror(-r));
		else if (u->is_dir && tree)
			ll_empty_moved(&c, u);
		goto out;
	}
	if ((why = not_ours(&stx, u->ino, u->is_dir))) {
		say_left(u->path, NULL, why, stx.stx_ino);
		if (u->is_dir && tree)
			ll_empty_moved(&c, u);
		r = 0;
	} else if (u->is_dir) {
		r = tree ? ll_rm_contents(&c, in, u->path, 0) : 0;
		if (r == 0) {
			r = ceph_ll_rmdir(c.cm, pin, name, c.perms);
			if (r < 0 && r != -ENOENT)
				fprintf(stderr, "ccbench: ceph_ll_rmdir(%s): %s\n", u->path,
				        strerror(-r));
		} else if (r > 0) {
			say_left(u->path, NULL, "something in it is not this run's", u->ino);
			r = 0;
		}
	} else {
		r = ceph_ll_unlink(c.cm, pin, name, c.perms);
		if (r < 0 && r != -ENOENT)
			fprintf(stderr, "ccbench: ceph_ll_unlink(%s): %s\n", u->path, strerror(-r));
	}
	ceph_ll_put(c.cm, in);
out:
	ceph_ll_put(c.cm, pin);
	return r == -ENOENT ? 0 : r;
}

int ccb_fs_ll_unlink_made(void *m, struct ccb_fs_made *made, uint64_t dir_ino, const char *name)
{
	struct ceph_mount_info *cm = m;
	const UserPerm *perms = ceph_mount_perms(cm);
	struct ceph_statx stx;
	Inode *pin = NULL, *in = NULL;
	int r;

	r = ceph_ll_lookup_inode(cm, (struct inodeno_t){dir_ino}, &pin);
	if (r < 0)
		return r;
	r = ceph_ll_lookup(cm, pin, name, &in, &stx, CEPH_STATX_INO | CEPH_STATX_MODE,
	                   AT_SYMLINK_NOFOLLOW, perms);
	if (r == 0) {
		r = !S_ISREG(stx.stx_mode) || ccb_fs_made_find(made, stx.stx_ino) != 0
		        ? -EEXIST
		        : ceph_ll_unlink(cm, pin, name, perms);
		ceph_ll_put(cm, in);
	}
	ceph_ll_put(cm, pin);
	return r;
}

/* ---- removal on a mount: by path, resolved without links (path_posix.c) -- */

static int do_unlink(struct undo_path *u)
{
	struct ccb_fsrun *fr = u->fr;
	int r;

	if (fr->made)
		return ll_remove(u, false);
	r = fr->io->unlink(fr->ctl, u->path);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ccbench: %s(%s%s): %s\n", ccb_fs_call_name(fr, CCB_FS_UNLINK),
		        fr->io->where(fr->ctl), u->path, strerror(-r));
		return r;
	}
	return 0;
}

int ccb_fs_undo_unlink(void *arg)
{
	return run_removal(arg, do_unlink);
}

/* Remove a tree this run made. Passes repeat until a directory reads
 * empty, since entries removed while a listing is open may hide others. */
struct rm_pass {
	const struct ccb_fsrun *fr;
	const char *dir;
	int first, removed;
};

static int rm_tree(const struct ccb_fsrun *fr, const char *path);

static int rm_entry(void *arg, const char *name, bool is_dir)
{
	struct rm_pass *p = arg;
	char child[1024];
	int r;

	snprintf(child, sizeof(child), "%s/%s", p->dir, name);
	r = is_dir ? rm_tree(p->fr, child) : p->fr->io->unlink(p->fr->ctl, child);
	if (r < 0 && r != -ENOENT) {
		if (!p->first && !is_dir)
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(p->fr, CCB_FS_UNLINK),
			        p->fr->io->where(p->fr->ctl), child, strerror(-r));
		if (!p->first)
			p->first = r;
	} else {
		p->removed++;
	}
	return 0;
}

static int rm_tree(const struct ccb_fsrun *fr, const char *path)
{
	struct rm_pass p = {.fr = fr, .dir = path};
	int r;

	do {
		p.removed = 0;
		r = fr->io->readdir(fr->ctl, path, rm_entry, &p);
		if (r == -ENOENT)
			return 0;
		if (r < 0) {
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_OPENDIR), fr->io->where(fr->ctl), path,
			        strerror(-r));
			return r;
		}
	} while (p.removed && !p.first);
	if (!p.first) {
		p.first = fr->io->rmdir(fr->ctl, path);
		if (p.first == -ENOENT)
			p.first = 0;
		if (p.first < 0)
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_RMDIR), fr->io->where(fr->ctl), path,
			        strerror(-p.first));
	}
	return p.first;
}

static int do_rm_tree(struct undo_path *u)
{
	if (u->fr->made)
		return ll_remove(u, true);
	return rm_tree(u->fr, u->path);
}

int ccb_fs_undo_rm_tree(void *arg)
{
	return run_removal(arg, do_rm_tree);
}

static int do_rmdir(struct undo_path *u)
{
	struct ccb_fsrun *fr = u->fr;
	int r;

	if (fr->made)
		return ll_remove(u, false);
	r = fr->io->rmdir(fr->ctl, u->path);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ccbench: %s(%s%s): %s\n", ccb_fs_call_name(fr, CCB_FS_RMDIR),
		        fr->io->where(fr->ctl), u->path, strerror(-r));
		return r;
	}
	return 0;
}

int ccb_fs_undo_rmdir(void *arg)
{
	struct undo_path *u = arg;

	if (!u->fr->opts->quiet)
		fprintf(stderr, "ccbench: removing directory %s%s\n", u->fr->io->where(u->fr->ctl),
		        u->path);
	return run_removal(u, do_rmdir);
}

void ccb_fs_run_put(struct ccb_fsrun *fr)
{
	if (atomic_fetch_sub(&fr->refs, 1) != 1)
		return;
	if (fr->ctl)
		fr->io->unmount(fr->ctl);
	if (fr->release)
		fr->release(fr);
	if (fr->io_release)
		fr->io_release(fr);
	ccb_fs_made_free(fr->made);
	free(fr);
}
