/*
 * Where an output file (--output, --json, --csv, --svg) goes, and writing
 * it there. ccbench runs as root on shared hosts: an output path must
 * never lead it, through a link someone else planted, to replace or
 * create a file it was not asked to write, and an output must never make
 * it wait (a FIFO with no reader) while cluster-side changes are still in
 * place. So the path is walked here one component at a time, from
 * descriptors (openat, O_NOFOLLOW), and a symlink is followed only where
 * the kernel itself would under fs.protected_symlinks; the same walk runs
 * once before the run (ccb_output_check(), exit 2) and again when writing.
 */
#include <ccbench/report.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_HOPS 40 /* the kernel's own limit on symlinks in one lookup */

bool ccb_output_may_follow(const struct stat *dir, const struct stat *link, uid_t euid)
{
	if (link->st_uid == euid)
		return true;
	if ((dir->st_mode & (S_ISVTX | S_IWOTH)) != (S_ISVTX | S_IWOTH))
		return true;
	return dir->st_uid == link->st_uid;
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: descriptor *fd. */
static bool fd_name(const char *s, int *fd)
{
	int n = 0;

	if (strcmp(s, "/dev/stdout") == 0 || strcmp(s, "/dev/stderr") == 0) {
		*fd = strcmp(s, "/dev/stdout") == 0 ? 1 : 2;
		return true;
	}
	if ((sscanf(s, "/dev/fd/%d%n", fd, &n) == 1 ||
	     sscanf(s, "/proc/self/fd/%d%n", fd, &n) == 1) &&
	    n > 0 && s[n] == '\0' && *fd >= 0)
		return true;
	return false;
}

static int say(char *err, size_t len, int r, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int say(char *err, size_t len, int r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return r;
}

void ccb_output_target_close(struct ccb_output_target *t)
{
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
}

/*
 * The walk. @p where is the directory walked so far, as a path for
 * messages. A component that is a symlink is replaced by the link's text
 * (relative to the directory it is in) once ccb_output_may_follow() allows
 * it; each directory is entered with O_NOFOLLOW, so one swapped for a link
 * after its fstatat() is not entered either.
 */
int ccb_output_resolve(const char *path, struct ccb_output_target *t, char *err, size_t err_len)
{
	char rest[2 * PATH_MAX], comp[NAME_MAX + 1], link[PATH_MAX], where[PATH_MAX];
	struct stat st, dst;
	int hops = 0, dfd, r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->dirfd = -1;
	if (!path[0])
		return say(err, err_len, -ENOENT, "an empty path");
	if (fd_name(path, &t->fd))
		return 0;
	if (strlen(path) >= PATH_MAX)
		return say(err, err_len, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
	snprintf(rest, sizeof(rest), "%s", path);
	snprintf(where, sizeof(where), "%s", path[0] == '/' ? "" : ".");
	dfd = open(path[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return say(err, err_len, -errno, "open(%s): %s", path[0] == '/' ? "/" : ".",
		           strerror(errno));
	for (;;) {
		char *p = rest;
		const char *after;
		size_t n;
		bool last, slash;

		while (*p == '/')
			p++;
		if (!*p) {
			r = say(err, err_len, -EISDIR, "a directory");
			goto fail;
		}
		n = strcspn(p, "/");
		if (n > NAME_MAX) {
			r = say(err, err_len, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
			goto fail;
		}
		memcpy(comp, p, n);
		comp[n] = '\0';
		slash = p[n] == '/';
		after = p + n;
		while (*after == '/')
			after++;
		last = !*after;
		memmove(rest, after, strlen(after) + 1);
		if (fstatat(dfd, comp, &st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (errno == ENOENT && last && !slash) {
				t->dirfd = dfd;
				snprintf(t->name, sizeof(t->name), "%s", comp);
				return 0;
			}
			r = say(err, err_len, -errno, "%s/%s: %s", where, comp, strerror(errno));
			goto fail;
		}
		if (S_ISLNK(st.st_mode)) {
			ssize_t l;

			if (fstat(dfd, &dst) < 0) {
				r = say(err, err_len, -errno, "fstat(%s): %s", where,
				        strerror(errno));
				goto fail;
			}
			if (!ccb_output_may_follow(&dst, &st, geteuid())) {
				r = say(
				    err, err_len, -EPERM,
				    "%s/%s is a symlink owned by uid %u in the sticky, "
				    "world-writable directory %s (owned by uid %u): not followed "
				    "(ccbench follows a link only where the kernel's "
				    "fs.protected_symlinks would)",
				    where, comp, (unsigned)st.st_uid, where[0] ? where : "/",
				    (unsigned)dst.st_uid);
				goto fail;
			}
			if (++hops > MAX_HOPS) {
				r = say(err, err_len, -ELOOP, "%s", strerror(ELOOP));
				goto fail;
			}
			l = readlinkat(dfd, comp, link, sizeof(link) - 1);
			if (l <= 0) {
				r = say(err, err_len, l < 0 ? -errno : -ENOENT,
				        "readlink(%s/%s): %s", where, comp,
				        l < 0 ? strerror(errno) : "an empty link");
				goto fail;
			}
			link[l] = '\0';
			/* A link to a descriptor's name is that descriptor, as given. */
			if (last && !slash && fd_name(link, &t->fd)) {
				close(dfd);
				return 0;
			}
			if (strlen(link) + 2 + strlen(rest) > sizeof(rest)) {
				r = say(err, err_len, -ENAMETOOLONG, "%s", strerror(ENAMETOOLONG));
				goto fail;
			}
			{
				/* LINK "/" REST, the length checked above; by hand, as
				 * gcc 14 and 16 cannot see that check through snprintf. */
				char joined[sizeof(rest)];
				size_t ll = strlen(link), rl = strlen(rest), o = ll;

				memcpy(joined, link, ll);
				if (rest[0] || slash)
					joined[o++] = '/';
				memcpy(joined + o, rest, rl + 1);
				memcpy(rest, joined, sizeof(rest));
			}
			if (link[0] == '/') {
				int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

				if (root < 0) {
					r = say(err, err_len, -errno, "open(/): %s",
					        strerror(errno));
					goto fail;
				}
				close(dfd);
				dfd = root;
				where[0] = '\0';
			}
			continue;
		}
		if (last && !slash) {
			t->dirfd = dfd;
			t->exists = true;
			t->st = st;
			snprintf(t->name, sizeof(t->name), "%s", comp);
			return 0;
		}
		if (!S_ISDIR(st.st_mode)) {
			r = say(err, err_len, -ENOTDIR, "%s/%s: %s", where, comp,
			        strerror(ENOTDIR));
			goto fail;
		}
		{
			int nfd = openat(dfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			size_t wl = strlen(where);

			if (nfd < 0) {
				r = say(err, err_len, -errno, "%s/%s: %s", where, comp,
				        strerror(errno));
				goto fail;
			}
			close(dfd);
			dfd = nfd;
			snprintf(where + wl, sizeof(where) - wl, "/%s", comp);
		}
	}
fail:
	close(dfd);
	return r;
}

/* Writing a result over a disk is never what was meant. */
static const char *const block_device_msg =
    "a block device: ccbench writes results to files, character devices and pipes only";

/*
 * What an existing output may be: a regular file (replaced), or the null
 * device (written). A FIFO or a socket could hold the writer until someone
 * reads it; any other device is not a place for a result.
 */
static int type_ok(const struct stat *st, char *err, size_t len)
{
	if (S_ISREG(st->st_mode))
		return 0;
	if (S_ISDIR(st->st_mode))
		return say(err, len, -EISDIR, "a directory");
	if (S_ISBLK(st->st_mode))
		return say(err, len, -EINVAL, "%s", block_device_msg);
	if (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3)
		return 0;
	return say(err, len, -EINVAL,
	           "%s: ccbench writes results only to regular files, the null device and "
	           "/dev/stdout, /dev/stderr or /dev/fd/N",
	           S_ISFIFO(st->st_mode)   ? "a FIFO (its reader, or none, would hold the run)"
	           : S_ISSOCK(st->st_mode) ? "a socket"
	           : S_ISCHR(st->st_mode)  ? "a character device other than the null device"
	                                   : "not a regular file");
}

/* A descriptor's name: open, and not a directory nor a disk. */
static int fd_ok(int fd, char *err, size_t len)
{
	struct stat st;

	if (fstat(fd, &st) < 0)
		return say(err, len, -errno, "descriptor %d: %s", fd, strerror(errno));
	if (S_ISBLK(st.st_mode))
		return say(err, len, -EINVAL, "%s", block_device_msg);
	if (S_ISDIR(st.st_mode))
		return say(err, len, -EISDIR, "a directory");
	return 0;
}

int ccb_output_check(const char *path, const char *opt, char *err, size_t err_len)
{
	struct ccb_output_target t;
	char why[PATH_MAX + 256];
	int r = ccb_output_resolve(path, &t, why, sizeof(why));

	if (r == 0 && t.fd >= 0)
		r = fd_ok(t.fd, why, sizeof(why));
	else if (r == 0 && t.exists)
		r = type_ok(&t.st, why, sizeof(why));
	ccb_output_target_close(&t);
	if (r < 0)
		snprintf(err, err_len, "%s '%s': %s", opt, path, why);
	return r;
}

/* The process umask, read without changing it (umask(2) would, for every thread). */
static mode_t current_umask(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	unsigned m = 022;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "Umask: %o", &m) == 1)
			break;
	if (f)
		fclose(f);
	return (mode_t)m;
}

static int render_fd(int fd, bool own, const json_t *doc, int (*render)(const json_t *, FILE *))
{
	FILE *f = fdopen(fd, "w");
	int r;

	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	r = render(doc, f);
	if (fflush(f) != 0 && r == 0)
		r = -errno;
	if (own && r == 0 && fsync(fd) < 0 && errno != EINVAL && errno != EROFS)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

/* A descriptor given by name: a copy of it, so stdout stays open for
 * what follows; what is buffered for it goes first. */
static int write_fd(int fd, const json_t *doc, int (*render)(const json_t *, FILE *), char *err,
                    size_t len)
{
	int r;

	fflush(stdout);
	fflush(stderr);
	if ((r = fd_ok(fd, err, len)) < 0)
		return r;
	fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return say(err, len, -errno, "%s", strerror(errno));
	r = render_fd(fd, false, doc, render);
	return r < 0 ? say(err, len, r, "%s", strerror(-r)) : 0;
}

/* The null device: opened without following a link nor blocking, and
 * checked again on the descriptor. */
static int write_null(const struct ccb_output_target *t, const json_t *doc,
                      int (*render)(const json_t *, FILE *), char *err, size_t len)
{
	struct stat st;
	int fd =
	    openat(t->dirfd, t->name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int r;

	if (fd < 0)
		return say(err, len, -errno, "%s", strerror(errno));
	if (fstat(fd, &st) < 0 || (r = type_ok(&st, err, len)) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return say(err, len, -EAGAIN,
		           "changed from the null device while being opened; not "
		           "written");
	}
	r = render_fd(fd, false, doc, render);
	return r < 0 ? say(err, len, r, "%s", strerror(-r)) : 0;
}

/*
 * A regular file or a new name: written beside it, in the same directory
 * (the descriptor the walk ended in), under a random name created with
 * O_EXCL|O_NOFOLLOW, then renamed over it in one step, so a reader sees
 * the old file or the new one, never half, and a link planted at either
 * name is replaced, never followed. The replacement keeps the old file's
 * permissions (not set-id bits) and, for root, its owner; a new file gets
 * what open(2) would give.
 */
static int write_replace(const struct ccb_output_target *t, const json_t *doc,
                         int (*render)(const json_t *, FILE *), char *err, size_t len)
{
	char tmp[NAME_MAX + 1];
	mode_t mode = t->exists ? t->st.st_mode & 0777 : 0666 & ~current_umask();
	int fd = -1, r;

	for (int tries = 0; fd < 0 && tries < 100; tries++) {
		unsigned char rnd[6];

		if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd))
			for (size_t i = 0; i < sizeof(rnd); i++)
				rnd[i] = (unsigned char)rand();
		snprintf(tmp, sizeof(tmp), ".%.200s.%02x%02x%02x%02x%02x%02x", t->name, rnd[0],
		         rnd[1], rnd[2], rnd[3], rnd[4], rnd[5]);
		fd = openat(t->dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		            0600);
		if (fd < 0 && errno != EEXIST)
			return say(err, len, -errno, "creating a file beside it: %s",
			           strerror(errno));
	}
	if (fd < 0)
		return say(err, len, -EEXIST, "no free temporary name beside it");
	if (fchmod(fd, mode) < 0 ||
	    (t->exists && (t->st.st_uid != geteuid() || t->st.st_gid != getegid()) &&
	     fchown(fd, t->st.st_uid, t->st.st_gid) < 0 && errno != EPERM)) {
		r = say(err, len, -errno, "%s", strerror(errno));
		close(fd);
		goto out;
	}
	r = render_fd(fd, true, doc, render);
	if (r < 0)
		say(err, len, r, "%s", strerror(-r));
	else if (renameat(t->dirfd, tmp, t->dirfd, t->name) < 0)
		r = say(err, len, -errno, "rename: %s", strerror(errno));
out:
	if (r < 0)
		unlinkat(t->dirfd, tmp, 0);
	return r;
}

int ccb_report_to_file(const char *path, const char *opt, const json_t *doc,
                       int (*render)(const json_t *, FILE *))
{
	struct ccb_output_target t;
	char why[PATH_MAX + 256];
	int r;

	/* The walk and every check again: the path may have changed since the run began. */
	r = ccb_output_resolve(path, &t, why, sizeof(why));
	if (r == 0 && t.fd >= 0)
		r = write_fd(t.fd, doc, render, why, sizeof(why));
	else if (r == 0 && t.exists && (r = type_ok(&t.st, why, sizeof(why))) == 0 &&
	         S_ISCHR(t.st.st_mode))
		r = write_null(&t, doc, render, why, sizeof(why));
	else if (r == 0)
		r = write_replace(&t, doc, render, why, sizeof(why));
	ccb_output_target_close(&t);
	if (r < 0)
		fprintf(stderr, "ccbench: %s '%s': %s\n", opt, path, why);
	return r;
}
