/*
 * fuse-loop mappings (see mapping.c): rbd-fuse, its mount, a read-only
 * loop device over the image file, and taking them down in reverse.
 */
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include "mapping.h"
#include "../mountinfo.h"
#include <ccbench/spawn.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/loop.h>

#include "mapping_int.h"

/* ---- fuse-loop ------------------------------------------------------------ */

static int undo_fuse(void *arg)
{
	struct ccb_mapping *m = arg;
	char msg[PATH_MAX + 64] = "";
	/* A loop device that did not let go of the file in time has reads
	 * waiting on rbd-fuse: waiting more for the file is waiting for them.
	 * Detach the mount lazily and end rbd-fuse at once instead. */
	int wait_msec = m->detach_stuck ? 0 : SETTLE_MSEC;
	int r = ccb_fuse_unmount(m->mountpoint, "fuse.rbd-fuse", wait_msec, msg, sizeof(msg));

	if (msg[0])
		fprintf(stderr, "ccbench: %s\n", msg);
	if (m->fuse_pid > 0) {
		int s = ccb_fuse_stop(m->fuse_pid, "rbd-fuse", true, m->mountpoint, wait_msec);
		if (s < 0) {
			fprintf(stderr,
			        "ccbench: rbd-fuse (pid %d) did not exit after unmount of %s\n",
			        (int)m->fuse_pid, m->mountpoint);
			if (!r)
				r = s;
		}
	}
	if (r == 0 && rmdir(m->mountpoint) < 0 && errno != ENOENT) {
		r = -errno;
		fprintf(stderr, "ccbench: rmdir %s: %s\n", m->mountpoint, strerror(errno));
	}
	if (m->log_made)
		unlink(m->fuse_log);
	return r;
}

/* Detach the loop device; with autoclear, closing our descriptor is what
 * finally lets it go when other readers were still closing theirs. */
static int undo_loop(void *arg)
{
	struct ccb_mapping *m = arg;
	char attr[PATH_MAX];
	struct stat st;
	int r = 0;

	if (m->loop_fd < 0)
		return 0;
	if (ioctl(m->loop_fd, LOOP_CLR_FD, 0) < 0 && errno != ENXIO) {
		r = -errno;
		fprintf(stderr, "ccbench: ioctl(%s, LOOP_CLR_FD): %s\n", m->dev, strerror(errno));
	}
	close(m->loop_fd);
	m->loop_fd = -1;
	if (m->backing_fd >= 0)
		close(m->backing_fd);
	m->backing_fd = -1;
	/* The detach completes after the last close; wait so the unmount that
	 * follows does not find the file busy. */
	snprintf(attr, sizeof(attr), "%s/block/%s/loop/backing_file", ccb_sysfs_root(), m->dev + 5);
	for (int waited = 0; waited < SETTLE_MSEC && stat(attr, &st) == 0; waited += 20)
		ccb_sleep_msec(20);
	m->detach_stuck = stat(attr, &st) == 0;
	return r;
}

static int start_fuse(const struct ccb_opts *o, struct ccb_mapping *m, char *err, size_t err_len)
{
	char confbuf[PATH_MAX];
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	/* rbd-fuse's pool defaults to "rbd", a string literal; libfuse 3.17
	 * and later free an option's old value when -p sets a new one, so
	 * those builds (Debian 13's and testing's rbd-fuse) crash on any -p.
	 * Pool rbd therefore goes without -p, which works on every release. */
	bool pool_opt = strcmp(m->pool, "rbd") != 0;
	char *argv[10] = {"rbd-fuse", "-c", (char *)conf};
	int argc = 3;
	if (pool_opt) {
		argv[argc++] = "-p";
		argv[argc++] = m->pool;
	}
	argv[argc++] = "-r";
	argv[argc++] = m->image;
	argv[argc++] = m->mountpoint;
	argv[argc++] = "-f";
	argv[argc] = NULL;
	char **env = ccb_child_env(o);
	uint64_t limit_msec = o->connect_timeout_usec / 1000 + 5000;
	struct stat st;
	int logfd, r;
	pid_t pid;

	if (!env)
		return -ENOMEM;
	/* A fresh file next to our fresh mount point: one already there (or
	 * a link put there) is not ours to write through. */
	logfd = open(m->fuse_log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (logfd < 0) {
		r = -errno;
		snprintf(err, err_len, "create %s: %s", m->fuse_log, strerror(errno));
		ccb_child_env_free(env);
		return r;
	}
	m->log_made = true;
	pid = ccb_spawn(argv, env, logfd, logfd);
	ccb_child_env_free(env);
	if (logfd >= 0)
		close(logfd);
	if (pid < 0) {
		snprintf(err, err_len, "fork rbd-fuse: %s", strerror((int)-pid));
		return (int)pid;
	}
	m->fuse_pid = pid;
	for (uint64_t waited = 0;; waited += 50) {
		char type[256], why[600];
		int status;

		if (waitpid(pid, &status, WNOHANG) == pid) {
			m->fuse_pid = 0;
			ccb_fuse_log_reason(m->fuse_log, why, sizeof(why));
			/* A crash dump's last line says nothing useful; the cause
			 * of the one crash known here does. */
			if (pool_opt && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV)
				snprintf(why, sizeof(why),
				         "this rbd-fuse crashes when given -p (libfuse 3.17 and "
				         "later free its built-in default): through fuse-loop "
				         "only images in pool rbd can be read here; try "
				         "--map-via kernel");
			snprintf(err, err_len, "rbd-fuse -p %s -r %s %s: exited with %d%s%s",
			         m->pool, m->image, m->mountpoint,
			         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			         why[0] ? ": " : "", why);
			return -EIO;
		}
		ccb_mountinfo_fstype(m->mountpoint, type, sizeof(type));
		if (strcmp(type, "fuse.rbd-fuse") == 0 && stat(m->backing, &st) == 0) {
			if (!S_ISREG(st.st_mode)) {
				snprintf(err, err_len, "%s: not a regular file", m->backing);
				return -EIO;
			}
			return 0;
		}
		if (waited >= limit_msec) {
			r = strcmp(type, "fuse.rbd-fuse") == 0 ? -ENOENT : -ETIMEDOUT;
			snprintf(err, err_len, "rbd-fuse -p %s -r %s: %s after %.1f s", m->pool,
			         m->image,
			         r == -ENOENT ? "mounted, but the image file did not appear"
			                      : "not mounted",
			         (double)waited / 1000);
			return r;
		}
		ccb_sleep_msec(50);
	}
}

static int attach_loop(struct ccb_mapping *m, char *err, size_t err_len)
{
	int ctl, file, fd = -1, r = 0;
	struct loop_config cfg;

	ctl = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		r = -errno;
		snprintf(err, err_len, "open /dev/loop-control: %s", strerror(errno));
		return r;
	}
	file = open(m->backing, O_RDONLY | O_CLOEXEC);
	if (file < 0) {
		r = -errno;
		snprintf(err, err_len, "open %s: %s", m->backing, strerror(errno));
		close(ctl);
		return r;
	}
	memset(&cfg, 0, sizeof(cfg));
	cfg.fd = (unsigned)file;
	cfg.info.lo_flags = LO_FLAGS_READ_ONLY | LO_FLAGS_AUTOCLEAR;
	/* The kernel keeps only LO_NAME_SIZE bytes of the name, for show. */
	memcpy(cfg.info.lo_file_name, m->backing,
	       strnlen(m->backing, sizeof(cfg.info.lo_file_name) - 1));
	/* Another process may take the free device between the two calls, as
	 * with losetup -f: ask again. */
	for (int attempt = 0; attempt < 20; attempt++) {
		int n = ioctl(ctl, LOOP_CTL_GET_FREE);

		if (n < 0) {
			r = -errno;
			snprintf(err, err_len, "ioctl(/dev/loop-control, LOOP_CTL_GET_FREE): %s",
			         strerror(errno));
			break;
		}
		snprintf(m->dev, sizeof(m->dev), "/dev/loop%d", n);
		fd = open(m->dev, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			r = -errno;
			snprintf(err, err_len, "open %s: %s", m->dev, strerror(errno));
			break;
		}
		if (ioctl(fd, LOOP_CONFIGURE, &cfg) == 0) {
			r = 0;
			break;
		}
		r = -errno;
		snprintf(err, err_len, "ioctl(%s, LOOP_CONFIGURE, %s): %s", m->dev, m->backing,
		         strerror(errno));
		close(fd);
		fd = -1;
		if (r != -EBUSY)
			break;
	}
	close(ctl);
	m->loop_fd = fd;
	/* Kept for the drops of the file's cached pages between passes: an
	 * open() of a file under the fuse mount is a request to rbd-fuse, which
	 * opens the image, and waits with it on a frozen OSD where neither
	 * --op-timeout nor Ctrl-C can end it. Closed at the detach, before the
	 * unmount that it would keep busy. */
	if (fd >= 0)
		m->backing_fd = file;
	else
		close(file);
	return fd >= 0 ? 0 : r;
}

int ccb_map_do_fuse_loop(const struct ccb_opts *o, struct ccb_mapping *m, char *err, size_t err_len)
{
	const char *dir = ccb_undo_state_dir();
	char what[2 * PATH_MAX];
	json_t *rec;
	int h, r;

	snprintf(m->mountpoint, sizeof(m->mountpoint), "%s/mnt-XXXXXX", dir);
	if (!mkdtemp(m->mountpoint)) {
		r = -errno;
		snprintf(err, err_len, "mkdtemp %s: %s", m->mountpoint, strerror(errno));
		ccb_mapping_free(m);
		return r;
	}
	if (snprintf(m->fuse_log, sizeof(m->fuse_log), "%s.log", m->mountpoint) >=
	        (int)sizeof(m->fuse_log) ||
	    snprintf(m->backing, sizeof(m->backing), "%s/%s", m->mountpoint, m->image) >=
	        (int)sizeof(m->backing)) {
		snprintf(err, err_len, "%s: path too long", m->mountpoint);
		rmdir(m->mountpoint);
		ccb_mapping_free(m);
		return -ENAMETOOLONG;
	}
	/* This entry owns the mapping: it is the last to unwind. */
	snprintf(what, sizeof(what), "unmount rbd-fuse at %s and stop it", m->mountpoint);
	rec = json_pack("{s:s, s:s, s:s, s:i}", "kind", "fuse", "mountpoint", m->mountpoint, "log",
	                m->fuse_log, "pid", 0);
	h = ccb_undo_push_state(what, undo_fuse, m, ccb_mapping_free, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the fuse mount in %s: %s", dir, strerror(-h));
		return h;
	}
	r = start_fuse(o, m, err, err_len);
	if (m->fuse_pid > 0)
		ccb_undo_state_set(h, "pid", json_integer(m->fuse_pid));
	if (r < 0)
		return r;
	r = attach_loop(m, err, err_len);
	if (r < 0)
		return r;
	snprintf(what, sizeof(what), "detach %s (over %s)", m->dev, m->backing);
	rec = json_pack("{s:s, s:s, s:s}", "kind", "loop", "dev", m->dev, "backing", m->backing);
	h = ccb_undo_push_state(what, undo_loop, m, NULL, rec);
	if (h < 0) {
		/* Autoclear detaches the device when the fuse undo closes our fd. */
		snprintf(err, err_len, "record %s in %s: %s", m->dev, dir, strerror(-h));
		return h;
	}
	return 0;
}
