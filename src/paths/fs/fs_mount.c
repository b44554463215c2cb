/*
 * The CephFS mounts of --mount-via (see fs_mount.h), made and taken down
 * with the care krbd's mappings get (mapping.c):
 *
 * - The mount point is a fresh DIR/mnt-XXXXXX of the state directory
 *   (0700, root's), and the undo entry with its crash record is written
 *   before the mount is made, so a crash at any point leaves a record that
 *   `ccbench restore` can check and undo.
 * - ceph-fuse runs in the foreground in a session of its own (Ctrl-C at
 *   the terminal reaches ccbench alone, which unmounts in order), with the
 *   run's connection options and timeouts in CEPH_ARGS; its stderr goes
 *   to DIR/mnt-XXXXXX.log, whose last line is the reason it gives.
 * - The kernel client is mounted by mount(8) and mount.ceph, which read the
 *   monitors and the key from ceph.conf and the keyring (CEPH_ARGS names
 *   the keyring, as for every ceph tool) and hand the key to the kernel
 *   through its keyring: no secret on any command line. noshare makes each
 *   mount a client of its own ("two nodes"); mount_timeout and
 *   osd_request_timeout bound the mount and every OSD request by the run's
 *   --connect-timeout and --op-timeout (the driver's default for the
 *   latter is 0: wait forever).
 * - Unmounts run in a child process bounded in time: a kernel unmount
 *   flushes and closes its MDS session, which a frozen cluster can hold up;
 *   past the bound, ccbench says the exact command to finish by hand and
 *   goes on.
 */
#include <ccbench/redact.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/spawn.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include <ccbench/fs_mount.h>
#include "../fuse.h"
#include "../child.h"
#include "../mountinfo.h"
#include "fs_opts.h"

/* EBUSY is retried this long before an unmount is forced. */
#define BUSY_MSEC 1000

const char *ccb_fsmount_via_name(enum ccb_fsmount_via via)
{
	return via == CCB_FSMOUNT_FUSE ? "fuse" : "kernel";
}

const char *ccb_fsmount_fstype(enum ccb_fsmount_via via)
{
	return via == CCB_FSMOUNT_FUSE ? "fuse.ceph-fuse" : "ceph";
}

/* The kernel has the ceph file system, or a module of it that mount.ceph
 * can load. */
static bool kernel_has_ceph(char *why, size_t len)
{
	char line[256], dep[PATH_MAX];
	struct utsname u;
	bool found = false;
	FILE *f = fopen("/proc/filesystems", "re");

	while (f && !found && fgets(line, sizeof(line), f))
		found = strcmp(line, "nodev\tceph\n") == 0 || strcmp(line, "\tceph\n") == 0;
	if (f)
		fclose(f);
	if (found)
		return true;
	if (uname(&u) == 0 &&
	    snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", u.release) <
	        (int)sizeof(dep) &&
	    (f = fopen(dep, "re"))) {
		while (!found && fgets(line, sizeof(line), f))
			found = strstr(line, "/ceph.ko") && strchr(line, ':') &&
			        strstr(line, "/ceph.ko") < strchr(line, ':');
		fclose(f);
	}
	if (!found)
		snprintf(why, len,
		         "this kernel (%s) has no CephFS client: no ceph in /proc/filesystems, no "
		         "ceph module in /lib/modules (a kernel with CONFIG_CEPH_FS, e.g. in the "
		         "tests/krbd-vm guest; or --mount-via fuse)",
		         uname(&u) == 0 ? u.release : "?");
	return found;
}

int ccb_fsmount_available(const char *via, char *err, size_t err_len)
{
	char why[512] = "";

	if (strcmp(via, "kernel") == 0) {
		if (!kernel_has_ceph(why, sizeof(why))) {
			snprintf(err, err_len, "--mount-via kernel: %s", why);
			return -EINVAL;
		}
		if (!ccb_program_in_path("mount") || (access("/sbin/mount.ceph", X_OK) < 0 &&
		                                      access("/usr/sbin/mount.ceph", X_OK) < 0 &&
		                                      !ccb_program_in_path("mount.ceph"))) {
			snprintf(err, err_len,
			         "--mount-via kernel: mount(8) or mount.ceph not found (install "
			         "mount and ceph-common)");
			return -EINVAL;
		}
		return 0;
	}
	if (!ccb_program_in_path("ceph-fuse")) {
		snprintf(err, err_len,
		         "--mount-via fuse: ceph-fuse is not in PATH (install the "
		         "ceph-fuse package)");
		return -EINVAL;
	}
	if (access("/dev/fuse", R_OK | W_OK) < 0) {
		snprintf(err, err_len, "--mount-via fuse: /dev/fuse: %s", strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* The value of -o client_fs=NAME (--set), or NULL. */
static const char *client_fs(const struct ccb_opts *o)
{
	const char *fs = NULL;

	for (unsigned i = 0; i < o->n_sets; i++)
		if (strncmp(o->sets[i], "client_fs=", 10) == 0 ||
		    strncmp(o->sets[i], "client-fs=", 10) == 0)
			fs = o->sets[i] + 10;
	return fs && fs[0] ? fs : NULL;
}

int ccb_fsmount_kernel_options(const struct ccb_opts *o, char *buf, size_t len)
{
	char pathbuf[PATH_MAX], entity[256];
	const char *conf = ccb_cluster_conf_path(o, pathbuf, sizeof(pathbuf));
	const char *name = ccb_cluster_entity(o, entity, sizeof(entity));
	const char *fs = client_fs(o);
	int n;

	if (strncmp(name, "client.", 7) == 0)
		name += 7;
	n = snprintf(buf, len,
	             "name=%s,conf=%s,noshare,mount_timeout=%llu,osd_request_timeout=%llu%s%s%s%s",
	             name, conf, (unsigned long long)((o->connect_timeout_usec + 999999) / 1000000),
	             (unsigned long long)((o->op_timeout_usec + 999999) / 1000000),
	             fs ? ",fs=" : "", fs ? fs : "", CCB_FS_OPTS(o)->mount_options ? "," : "",
	             CCB_FS_OPTS(o)->mount_options ? CCB_FS_OPTS(o)->mount_options : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* ---- unmounting ------------------------------------------------------------ */

/* umount2(@p mp, @p flags) in a child, waited for at most @p msec: a
 * kernel unmount may wait on a cluster that does not answer, in the
 * kernel, where no signal ends it. @return 0, -errno, or -ETIMEDOUT (the
 * child is left to finish by itself). */
static int umount_bounded(const char *mp, int flags, unsigned msec)
{
	int st;
	pid_t pid;

	/* The child must not write what is buffered here again: an _exit
	 * that flushes stdio (TSan's does) would print it twice. */
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(umount2(mp, flags) == 0 ? 0 : errno & 0xff);
	for (unsigned waited = 0;; waited += 20) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid)
			return WIFEXITED(st) ? -WEXITSTATUS(st) : -EINTR;
		if (w < 0 && errno != EINTR)
			return -errno;
		if (waited >= msec)
			break;
		ccb_sleep_msec(20);
	}
	/* Stuck: killed (it dies once the kernel lets it go) and reaped if
	 * it goes at once; otherwise named and left, never waited for. */
	char what[PATH_MAX + 64];

	snprintf(what, sizeof(what), "umount2(%s) child", mp);
	ccb_spawn_stop(pid, false, 0, 500, what, NULL);
	return -ETIMEDOUT;
}

static bool still_mounted(enum ccb_fsmount_via via, const char *mp)
{
	char type[256];

	ccb_mountinfo_fstype(mp, type, sizeof(type));
	return strcmp(type, ccb_fsmount_fstype(via)) == 0;
}

static void say(char *msg, size_t len, const char *fmt, const char *mp, const char *more)
{
	size_t l = strlen(msg);

	snprintf(msg + l, len - l, "%s", l ? "; " : "");
	l = strlen(msg);
	snprintf(msg + l, len - l, fmt, mp, more);
}

/* A client ended without closing its MDS session (ceph-fuse killed, a
 * forced kernel unmount): the MDS keeps the caps it held, and the run's
 * files with them, until it closes the session itself. */
static void say_session(const char *client_id, char *msg, size_t msg_len)
{
	const char *id = strncmp(client_id, "client", 6) == 0 ? client_id + 6 : "";

	if (id[0] && strspn(id, "0123456789") == strlen(id))
		say(msg, msg_len,
		    "its MDS session (%s) holds its caps until the MDS closes it (session_timeout, "
		    "session_autoclose); to free them now: ceph tell mds.* client evict id=%s",
		    client_id, id);
}

int ccb_fsmount_unmount_at(enum ccb_fsmount_via via, const char *mp, pid_t pid, bool child,
                           unsigned bound_msec, const char *client_id, char *msg, size_t msg_len)
{
	bool fuse = via == CCB_FSMOUNT_FUSE;
	/* A ceph-fuse that never mounted (stopped while mounting) has
	 * nothing to finish: it is stopped at once. */
	bool was_mounted = still_mounted(via, mp);
	char log[PATH_MAX + 8];
	struct stat st;
	int r = 0;

	msg[0] = '\0';
	for (unsigned waited = 0; still_mounted(via, mp); waited += 100) {
		r = umount_bounded(mp, 0, bound_msec);
		if (r == -ETIMEDOUT) {
			snprintf(
			    msg, msg_len,
			    "umount %s: no answer within %.0f s (the cluster does not answer); "
			    "finish by hand: %s %s%s",
			    mp, bound_msec / 1000.0, fuse ? "fusermount -uz" : "umount -l", mp,
			    fuse ? " (and stop ceph-fuse)" : "");
			return r;
		}
		if (r != -EBUSY || waited >= BUSY_MSEC)
			break;
		ccb_sleep_msec(100);
	}
	if (r == -EBUSY && still_mounted(via, mp)) {
		/* Held open (a reader stuck in a request, or someone else): the
		 * kernel client aborts its requests under MNT_FORCE; ceph-fuse's
		 * requests fail once it is gone. Then the mount is detached and
		 * goes when its last user lets go. */
		if (fuse && pid > 0)
			ccb_fuse_stop(pid, "ceph-fuse", child, mp, 0);
		else if (!fuse)
			umount_bounded(mp, MNT_FORCE, bound_msec);
		r = still_mounted(via, mp) ? umount_bounded(mp, MNT_DETACH, bound_msec) : 0;
		if (r == 0)
			say(msg, msg_len, "umount %s: busy; %s", mp,
			    fuse ? "ceph-fuse stopped, detached lazily"
			         : "forced (MNT_FORCE), detached lazily");
		if (client_id)
			say_session(client_id, msg, msg_len);
	}
	if (r < 0 && r != -EINVAL && still_mounted(via, mp)) {
		snprintf(msg, msg_len, "umount %s: %s; finish by hand: %s %s", mp, strerror(-r),
		         fuse ? "fusermount -uz" : "umount -l", mp);
		return r;
	}
	/* ceph-fuse exits once unmounted; one that does not is stopped. */
	if (fuse && pid > 0 &&
	    ccb_fuse_stop(pid, "ceph-fuse", child, mp, was_mounted ? 5000 : 0) < 0) {
		snprintf(msg, msg_len, "ceph-fuse (pid %d) did not exit after unmount of %s",
		         (int)pid, mp);
		return -ETIMEDOUT;
	}
	if (still_mounted(via, mp))
		return 0; /* detached lazily: the directory goes with the next restore */
	if (rmdir(mp) < 0 && errno != ENOENT) {
		r = -errno;
		say(msg, msg_len, "rmdir %s: %s", mp, strerror(errno));
		return r;
	}
	/* Only a plain file of ours (unlink does not follow a link). */
	snprintf(log, sizeof(log), "%s.log", mp);
	if (lstat(log, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
		unlink(log);
	return 0;
}

/* ---- mounting -------------------------------------------------------------- */

static void free_mount(void *arg)
{
	free(arg);
}

static int undo_mount(void *arg)
{
	struct ccb_fsmount *m = arg;
	char msg[2 * PATH_MAX + 256];
	int r = ccb_fsmount_unmount_at(m->via, m->mountpoint, m->pid, true, m->bound_msec,
	                               m->client_id, msg, sizeof(msg));

	if (msg[0])
		fprintf(stderr, "ccbench: %s\n", msg);
	if (r == 0 && m->log_made)
		unlink(m->log);
	return r;
}

static int mount_fuse(const struct ccb_opts *o, struct ccb_fsmount *m, int handle, char *err,
                      size_t err_len)
{
	char confbuf[PATH_MAX];
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	char *argv[8] = {"ceph-fuse", "-f", "-c", (char *)conf};
	char **env = ccb_child_env(o);
	uint64_t limit_msec = o->connect_timeout_usec / 1000 + 5000;
	int n = 4, logfd, st;
	pid_t pid;

	if (!env)
		return -ENOMEM;
	if (CCB_FS_OPTS(o)->mount_options) {
		argv[n++] = "-o";
		argv[n++] = (char *)CCB_FS_OPTS(o)->mount_options;
	}
	argv[n++] = m->mountpoint;
	argv[n] = NULL;
	/* A fresh file next to our fresh mount point: one already there (or
	 * a link put there) is not ours to write through. */
	logfd = open(m->log, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (logfd < 0) {
		int r = -errno;

		snprintf(err, err_len, "create %s: %s", m->log, strerror(errno));
		ccb_child_env_free(env);
		return r;
	}
	m->log_made = true;
	pid = ccb_spawn(argv, env, logfd, logfd);
	ccb_child_env_free(env);
	close(logfd);
	if (pid < 0) {
		snprintf(err, err_len, "fork ceph-fuse: %s", strerror((int)-pid));
		return (int)pid;
	}
	m->pid = pid;
	ccb_undo_state_set(handle, "pid", json_integer(pid));
	for (uint64_t waited = 0;; waited += 50) {
		char why[600];

		if (waitpid(pid, &st, WNOHANG) == pid) {
			m->pid = 0;
			ccb_fuse_log_reason(m->log, why, sizeof(why));
			snprintf(err, err_len, "ceph-fuse -c %s %s: exited with %d%s%s", conf,
			         m->mountpoint,
			         WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st),
			         why[0] ? ": " : "", why);
			ccb_redact_in_place(err, err_len); /* its log may echo -o */
			return -EIO;
		}
		if (still_mounted(CCB_FSMOUNT_FUSE, m->mountpoint))
			return 0;
		if (ccb_signal_pending) {
			snprintf(err, err_len, "ceph-fuse %s: interrupted while mounting",
			         m->mountpoint);
			return -EINTR;
		}
		if (waited >= limit_msec) {
			ccb_fuse_log_reason(m->log, why, sizeof(why));
			snprintf(err, err_len,
			         "ceph-fuse %s: not mounted after %.1f s (--connect-timeout)%s%s",
			         m->mountpoint, (double)waited / 1000, why[0] ? ": " : "", why);
			ccb_redact_in_place(err, err_len);
			return -ETIMEDOUT;
		}
		ccb_sleep_msec(50);
	}
}

static int mount_kernel(const struct ccb_opts *o, struct ccb_fsmount *m, char *err, size_t err_len)
{
	char *argv[] = {"mount", "-t", "ceph", "-o", m->options, ":/", m->mountpoint, NULL};
	char **env = ccb_child_env(o);
	char out[512], errtxt[512];
	uint64_t limit_msec = o->connect_timeout_usec / 1000 + 5000;
	int st;

	if (!env)
		return -ENOMEM;
	st = ccb_child_run_bounded(argv, env, limit_msec, out, sizeof(out), errtxt, sizeof(errtxt));
	ccb_child_env_free(env);
	if (st == 0 && still_mounted(CCB_FSMOUNT_KERNEL, m->mountpoint))
		return 0;
	char *ropts = ccb_redact_text(m->options);

	snprintf(err, err_len, "mount -t ceph -o %s :/ %s: %s%s%s", ropts ? ropts : "(withheld)",
	         m->mountpoint, st == 124 ? "no answer within --connect-timeout" : "failed",
	         errtxt[0] || out[0] ? ": " : "", errtxt[0] ? errtxt : out);
	/* --mount-options may carry a secret=; mount(8) may echo it. */
	free(ropts);
	ccb_redact_in_place(err, err_len);
	return st < 0 ? st : st == 124 ? -ETIMEDOUT : -EIO;
}

int ccb_fsmount(const struct ccb_opts *o, enum ccb_fsmount_via via, const char *who,
                struct ccb_fsmount **out, char *err, size_t err_len)
{
	const char *dir = ccb_undo_state_dir();
	struct ccb_fsmount *m = calloc(1, sizeof(*m));
	char what[PATH_MAX + 128];
	json_t *rec;
	int h, r;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	m->via = via;
	/* The unmount's own bound: the kernel's is mount_timeout
	 * (--connect-timeout) for the MDS session, more for the flush. */
	m->bound_msec = (unsigned)(o->connect_timeout_usec / 1000 + 5000);
	if (via == CCB_FSMOUNT_KERNEL &&
	    ccb_fsmount_kernel_options(o, m->options, sizeof(m->options)) < 0) {
		snprintf(err, err_len, "--mount-options: too long");
		free(m);
		return -EINVAL;
	}
	if (via == CCB_FSMOUNT_FUSE && CCB_FS_OPTS(o)->mount_options)
		snprintf(m->options, sizeof(m->options), "%s", CCB_FS_OPTS(o)->mount_options);
	r = ccb_undo_state_dir_ready(err, err_len);
	if (r < 0) {
		free(m);
		return r;
	}
	snprintf(m->mountpoint, sizeof(m->mountpoint), "%s/mnt-XXXXXX", dir);
	if (!mkdtemp(m->mountpoint)) {
		r = -errno;
		snprintf(err, err_len, "mkdtemp %s: %s", m->mountpoint, strerror(errno));
		free(m);
		return r;
	}
	if (snprintf(m->log, sizeof(m->log), "%s.log", m->mountpoint) >= (int)sizeof(m->log)) {
		rmdir(m->mountpoint);
		free(m);
		snprintf(err, err_len, "%s: path too long", dir);
		return -ENAMETOOLONG;
	}
	snprintf(what, sizeof(what), "unmount %s (%s) at %s", ccb_fsmount_via_name(via), who,
	         m->mountpoint);
	rec = json_pack("{s:s, s:s, s:s, s:s, s:i}", "kind", "fs_mount", "via",
	                ccb_fsmount_via_name(via), "mountpoint", m->mountpoint, "log", m->log,
	                "pid", 0);
	h = ccb_undo_push_state(what, undo_mount, m, free_mount, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the mount in %s: %s", dir, strerror(-h));
		rmdir(m->mountpoint);
		return h;
	}
	if (via == CCB_FSMOUNT_FUSE)
		ccb_undo_set_hint(h, "fusermount -uz %s; rmdir %s (stop its ceph-fuse)",
		                  m->mountpoint, m->mountpoint);
	else
		ccb_undo_set_hint(h, "umount -l %s; rmdir %s", m->mountpoint, m->mountpoint);
	*out = m;
	/* From here on the undo log owns m, on success and failure alike. */
	r = via == CCB_FSMOUNT_FUSE ? mount_fuse(o, m, h, err, err_len)
	                            : mount_kernel(o, m, err, err_len);
	if (r == 0) {
		/* Its MDS session, for the result and a hint should it have to
		 * be ended without closing it. */
		ssize_t n = getxattr(m->mountpoint, "ceph.client_id", m->client_id,
		                     sizeof(m->client_id) - 1);

		m->client_id[n > 0 ? n : 0] = '\0';
		if (n > 0)
			ccb_undo_state_set(h, "client_id", json_string(m->client_id));
	}
	return r;
}
