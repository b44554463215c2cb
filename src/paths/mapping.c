/*
 * Mapping an image for the krbd path.
 *
 * fuse-loop: rbd-fuse exposes the image as a file, and a read-only loop
 * device over that file is a real kernel block device (block layer, page
 * cache, read_ahead_kb) backed by librbd. The pieces come up in order --
 * rbd-fuse, its mount, the loop device -- and each logs its undo with a
 * crash record first, so the unwind (or `ccbench krbd restore` after a
 * SIGKILL) takes them down in reverse: loop detach, unmount, rbd-fuse exit.
 *
 * rbd-fuse runs in its own session: Ctrl-C at the terminal must reach
 * ccbench alone, which then unmaps in order; a fuse daemon dying first
 * would turn the reads in flight into errors. The loop device is
 * configured with autoclear and held open by us, so if we die, it detaches
 * by itself once the last reader is gone.
 *
 * kernel: `rbd device map --read-only` (it finds the monitors and the
 * secret as every ceph CLI does), unmapped through
 * /sys/bus/rbd/remove_single_major, which needs no credentials. Two map
 * options are added when the host or the cluster needs them and the user
 * did not say: noudev where no udev daemon runs (rbd would wait for udev's
 * event forever: containers, the krbd-vm guest), and ms_mode=prefer-crc
 * when the monitors speak msgr v2 only (the driver's default, legacy,
 * retries "V1_BANNER" until it gives up after about a minute).
 */
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/mapping.h>
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

extern char **environ;

/* How long rbd-fuse may take to exit once unmounted, and the loop device to
 * let go of its file. */
#define SETTLE_MSEC 10000

const char *ccb_map_via_name(enum ccb_map_via via)
{
	return via == CCB_MAP_KERNEL ? "kernel" : "fuse-loop";
}

static void sleep_msec(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* True when @p prog is an executable in $PATH. */
static bool in_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[PATH_MAX];

	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin";
	while (*path) {
		size_t l = strcspn(path, ":");

		if (l &&
		    snprintf(buf, sizeof(buf), "%.*s/%s", (int)l, path, prog) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		path += l + (path[l] == ':');
	}
	return false;
}

static bool kernel_available(char *why, size_t len)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/bus/rbd", ccb_sysfs_root());
	if (stat(p, &st) < 0) {
		snprintf(why, len, "the kernel has no rbd driver (%s: %s; modprobe rbd)", p,
		         strerror(errno));
		return false;
	}
	if (!in_path("rbd")) {
		snprintf(why, len, "the rbd command is not in PATH (install ceph-common)");
		return false;
	}
	return true;
}

static bool fuse_loop_available(char *why, size_t len)
{
	if (!in_path("rbd-fuse")) {
		snprintf(why, len, "rbd-fuse is not in PATH (install the rbd-fuse package)");
		return false;
	}
	if (access("/dev/fuse", R_OK | W_OK) < 0) {
		snprintf(why, len, "/dev/fuse: %s", strerror(errno));
		return false;
	}
	if (access("/dev/loop-control", R_OK | W_OK) < 0) {
		snprintf(why, len, "/dev/loop-control: %s", strerror(errno));
		return false;
	}
	return true;
}

int ccb_map_choose(const struct ccb_opts *o, enum ccb_map_via *via, char *err, size_t err_len)
{
	char kwhy[PATH_MAX + 128] = "", fwhy[PATH_MAX + 128] = "";
	const char *want = o->map_via ? o->map_via : "auto";

	if (strcmp(want, "kernel") == 0) {
		if (!kernel_available(kwhy, sizeof(kwhy))) {
			snprintf(err, err_len, "--map-via kernel: %s; try --map-via fuse-loop",
			         kwhy);
			return -EINVAL;
		}
		*via = CCB_MAP_KERNEL;
		return 0;
	}
	if (strcmp(want, "fuse-loop") == 0) {
		if (!fuse_loop_available(fwhy, sizeof(fwhy))) {
			snprintf(err, err_len, "--map-via fuse-loop: %s", fwhy);
			return -EINVAL;
		}
		*via = CCB_MAP_FUSE_LOOP;
		return 0;
	}
	if (kernel_available(kwhy, sizeof(kwhy))) {
		*via = CCB_MAP_KERNEL;
		return 0;
	}
	if (fuse_loop_available(fwhy, sizeof(fwhy))) {
		*via = CCB_MAP_FUSE_LOOP;
		return 0;
	}
	snprintf(err, err_len, "--map %s: cannot map here: %s; and fuse-loop: %s", o->map, kwhy,
	         fwhy);
	return -EINVAL;
}

/* ---- child processes ----------------------------------------------------- */

/*
 * The environment for ceph tools we start: ours, with CEPH_ARGS extended
 * by the connection options ccbench was given (the tools read -c, but the
 * entity, keyring and -o settings only through CEPH_ARGS). Built before
 * fork, since the child may only make async-signal-safe calls.
 */
static char **child_env(const struct ccb_opts *o)
{
	size_t n = 0, len = 1;
	const char *old = getenv("CEPH_ARGS");
	char *args, **env;

	while (environ[n])
		n++;
	len += old ? strlen(old) + 1 : 0;
	len += o->name ? strlen(o->name) + 9 : 0;
	len += o->id ? strlen(o->id) + 7 : 0;
	len += o->keyring ? strlen(o->keyring) + 12 : 0;
	len += o->cluster ? strlen(o->cluster) + 12 : 0;
	for (unsigned i = 0; i < o->n_sets; i++)
		len += strlen(o->sets[i]) + 4;
	args = malloc(len + 16);
	env = calloc(n + 2, sizeof(*env));
	if (!args || !env) {
		free(args);
		free(env);
		return NULL;
	}
	strcpy(args, "CEPH_ARGS=");
	if (old)
		strcat(strcat(args, old), " ");
	if (o->name)
		strcat(strcat(strcat(args, "--name "), o->name), " ");
	if (o->id)
		strcat(strcat(strcat(args, "--id "), o->id), " ");
	if (o->keyring)
		strcat(strcat(strcat(args, "--keyring "), o->keyring), " ");
	if (o->cluster)
		strcat(strcat(strcat(args, "--cluster "), o->cluster), " ");
	for (unsigned i = 0; i < o->n_sets; i++)
		strcat(strcat(strcat(args, "--"), o->sets[i]), " ");
	n = 0;
	for (char **e = environ; *e; e++)
		if (strncmp(*e, "CEPH_ARGS=", 10) != 0)
			env[n++] = *e;
	env[n++] = args;
	env[n] = NULL;
	return env;
}

static void free_env(char **env)
{
	size_t n = 0;

	if (!env)
		return;
	while (env[n])
		n++;
	if (n)
		free(env[n - 1]); /* CEPH_ARGS, the only string we allocated */
	free(env);
}

/*
 * Start @p argv with stdout into @p out_fd (or /dev/null) and stderr into
 * @p err_fd (or /dev/null), in a session of its own: Ctrl-C at the
 * terminal reaches ccbench alone, which then decides what happens to the
 * helper (an `rbd device map` killed by the terminal's SIGINT could leave
 * a device the kernel had already added, with nobody knowing its name).
 */
static pid_t spawn(char *const argv[], char **env, int out_fd, int err_fd)
{
	pid_t pid = fork();

	if (pid != 0)
		return pid < 0 ? -errno : pid;
	int null = open("/dev/null", O_RDWR);
	setsid();
	dup2(null, 0);
	dup2(out_fd >= 0 ? out_fd : null, 1);
	dup2(err_fd >= 0 ? err_fd : null, 2);
	execvpe(argv[0], argv, env);
	/* Only async-signal-safe calls here: the reason goes out as a fixed text. */
	static const char msg[] = "exec failed (not in PATH, or not executable)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

/* Append what @p fd has to @p buf (keeping the first @p len - 1 bytes).
 * @return false at end of file or on an error. */
static bool drain_fd(int fd, char *buf, size_t len, size_t *used)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));

	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return true;
	if (n <= 0)
		return false;
	if (buf && len && *used < len - 1) {
		size_t take = (size_t)n < len - 1 - *used ? (size_t)n : len - 1 - *used;
		memcpy(buf + *used, tmp, take);
		*used += take;
		buf[*used] = '\0';
	}
	return true;
}

int ccb_map_run_cmd(char *const argv[], char **env, char *out, size_t out_len, char *errtxt,
                    size_t errtxt_len)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, st = 0, r;
	size_t used[2] = {0, 0};
	bool termed = false;
	pid_t pid;

	if (out && out_len)
		out[0] = '\0';
	if (errtxt && errtxt_len)
		errtxt[0] = '\0';
	/* Pipes, not files: nothing depends on a writable (or existing) /tmp,
	 * and nothing is left behind. */
	if (pipe2(po, O_CLOEXEC) < 0 || pipe2(pe, O_CLOEXEC) < 0) {
		r = -errno;
		snprintf(errtxt, errtxt_len, "not run: pipe: %s", strerror(errno));
		goto out;
	}
	pid = spawn(argv, env, po[1], pe[1]);
	close(po[1]);
	close(pe[1]);
	po[1] = pe[1] = -1;
	if (pid < 0) {
		r = (int)pid;
		snprintf(errtxt, errtxt_len, "not run: fork: %s", strerror((int)-pid));
		goto out;
	}
	/* Read both pipes as the command writes (a full pipe would block it)
	 * until it closes them, that is, exits. */
	for (bool open_o = true, open_e = true; open_o || open_e;) {
		struct pollfd pfd[2];
		nfds_t n = 0;

		if (open_o)
			pfd[n++] = (struct pollfd){.fd = po[0], .events = POLLIN};
		if (open_e)
			pfd[n++] = (struct pollfd){.fd = pe[0], .events = POLLIN};
		/* Ctrl-C while it runs: ask it to stop, then wait for it as usual,
		 * so the caller can look for what it did before it died. */
		if (ccb_signal_pending && !termed) {
			kill(pid, SIGTERM);
			termed = true;
		}
		if (poll(pfd, n, 100) <= 0)
			continue;
		for (nfds_t i = 0; i < n; i++) {
			bool is_o = pfd[i].fd == po[0];

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			if (!drain_fd(pfd[i].fd, is_o ? out : errtxt, is_o ? out_len : errtxt_len,
			              &used[!is_o])) {
				if (is_o)
					open_o = false;
				else
					open_e = false;
			}
		}
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (out && out_len)
		out[strcspn(out, "\n")] = '\0';
	if (errtxt && errtxt_len)
		errtxt[strcspn(errtxt, "\n")] = '\0';
out:
	for (int i = 0; i < 2; i++) {
		if (po[i] >= 0)
			close(po[i]);
		if (pe[i] >= 0)
			close(pe[i]);
	}
	return r;
}

/* ---- mounts and processes ------------------------------------------------ */

/* The filesystem type mounted at @p dir ("fuse.rbd-fuse"), or "" when none. */
static void mount_type(const char *dir, char *type, size_t len)
{
	char line[4096];
	FILE *f = fopen("/proc/self/mountinfo", "r");

	type[0] = '\0';
	if (!f)
		return;
	/* Fields: id parent maj:min root mountpoint opts [optional...] - fstype src opts.
	 * Mount points with spaces are octal-escaped; ours have none. */
	while (fgets(line, sizeof(line), f)) {
		char mp[PATH_MAX], *dash;

		if (sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 || strcmp(mp, dir) != 0)
			continue;
		dash = strstr(line, " - ");
		if (dash && sscanf(dash + 3, "%255s", type) == 1 && strlen(type) < len)
			continue; /* the last mount on a point is the visible one */
		type[0] = '\0';
	}
	fclose(f);
}

/* True while @p pid is a live (not zombie) rbd-fuse serving @p mountpoint. */
static bool is_our_fuse(pid_t pid, const char *mountpoint)
{
	char path[64], buf[4096];
	ssize_t n;
	int fd;
	bool named = false, mp = false;

	if (pid <= 0)
		return false;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false; /* a zombie has an empty cmdline */
	buf[n] = '\0';
	for (char *p = buf; p < buf + n; p += strlen(p) + 1) {
		const char *slash = strrchr(p, '/');
		if (strcmp(slash ? slash + 1 : p, "rbd-fuse") == 0)
			named = true;
		if (strcmp(p, mountpoint) == 0)
			mp = true;
	}
	return named && mp;
}

/* Unmount @p mountpoint if rbd-fuse is mounted there, retrying while the
 * loop device lets go of the file. */
static int unmount_fuse(const char *mountpoint, char *msg, size_t msg_len)
{
	char type[256];

	for (int waited = 0;; waited += 100) {
		mount_type(mountpoint, type, sizeof(type));
		if (strcmp(type, "fuse.rbd-fuse") != 0)
			return 0;
		if (umount2(mountpoint, 0) == 0)
			return 0;
		if (errno != EBUSY || waited >= SETTLE_MSEC)
			break;
		sleep_msec(100);
	}
	int e = errno;
	/* Busy for good (someone else holds a file open): detach it from the
	 * namespace so rbd-fuse exits once the last user lets go. */
	if (e == EBUSY && umount2(mountpoint, MNT_DETACH) == 0) {
		snprintf(msg, msg_len, "umount %s: busy; detached lazily", mountpoint);
		return 0;
	}
	snprintf(msg, msg_len, "umount %s: %s", mountpoint, strerror(e));
	return -e;
}

/* Wait for rbd-fuse to exit after its unmount; SIGTERM it if it lingers. */
static int stop_fuse(pid_t pid, bool child, const char *mountpoint)
{
	for (int waited = 0; waited < 2 * SETTLE_MSEC; waited += 50) {
		if (child) {
			int st;
			pid_t w = waitpid(pid, &st, WNOHANG);
			if (w == pid || (w < 0 && errno == ECHILD))
				return 0;
		} else if (!is_our_fuse(pid, mountpoint)) {
			return 0;
		}
		if (waited == SETTLE_MSEC)
			kill(pid, SIGTERM);
		sleep_msec(50);
	}
	return -ETIMEDOUT;
}

/* ---- fuse-loop ------------------------------------------------------------ */

static void free_mapping(void *arg)
{
	struct ccb_mapping *m = arg;

	if (m->loop_fd >= 0)
		close(m->loop_fd);
	free(m);
}

static int undo_fuse(void *arg)
{
	struct ccb_mapping *m = arg;
	char msg[PATH_MAX + 64] = "";
	int r = unmount_fuse(m->mountpoint, msg, sizeof(msg));

	if (msg[0])
		fprintf(stderr, "ccbench: %s\n", msg);
	if (m->fuse_pid > 0) {
		int s = stop_fuse(m->fuse_pid, true, m->mountpoint);
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
	/* The detach completes after the last close; wait so the unmount that
	 * follows does not find the file busy. */
	snprintf(attr, sizeof(attr), "%s/block/%s/loop/backing_file", ccb_sysfs_root(), m->dev + 5);
	for (int waited = 0; waited < SETTLE_MSEC && stat(attr, &st) == 0; waited += 20)
		sleep_msec(20);
	return r;
}

static void read_log_line(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	char line[512];

	buf[0] = '\0';
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	/* The last line that says something: rbd-fuse prints its reason last. */
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

static int start_fuse(const struct ccb_opts *o, struct ccb_mapping *m, char *err, size_t err_len)
{
	char confbuf[PATH_MAX];
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	char *argv[] = {"rbd-fuse", "-c",     (char *)conf,  "-p", m->pool,
	                "-r",       m->image, m->mountpoint, "-f", NULL};
	char **env = child_env(o);
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
		free_env(env);
		return r;
	}
	m->log_made = true;
	pid = spawn(argv, env, logfd, logfd);
	free_env(env);
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
			read_log_line(m->fuse_log, why, sizeof(why));
			snprintf(err, err_len, "rbd-fuse -p %s -r %s %s: exited with %d%s%s",
			         m->pool, m->image, m->mountpoint,
			         WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status),
			         why[0] ? ": " : "", why);
			return -EIO;
		}
		mount_type(m->mountpoint, type, sizeof(type));
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
		sleep_msec(50);
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
	close(file);
	close(ctl);
	m->loop_fd = fd;
	return fd >= 0 ? 0 : r;
}

static int map_fuse_loop(const struct ccb_opts *o, struct ccb_mapping *m, char *err, size_t err_len)
{
	const char *dir = ccb_undo_state_dir();
	char what[2 * PATH_MAX];
	json_t *rec;
	int h, r;

	snprintf(m->mountpoint, sizeof(m->mountpoint), "%s/mnt-XXXXXX", dir);
	if (!mkdtemp(m->mountpoint)) {
		r = -errno;
		snprintf(err, err_len, "mkdtemp %s: %s", m->mountpoint, strerror(errno));
		free_mapping(m);
		return r;
	}
	if (snprintf(m->fuse_log, sizeof(m->fuse_log), "%s.log", m->mountpoint) >=
	        (int)sizeof(m->fuse_log) ||
	    snprintf(m->backing, sizeof(m->backing), "%s/%s", m->mountpoint, m->image) >=
	        (int)sizeof(m->backing)) {
		snprintf(err, err_len, "%s: path too long", m->mountpoint);
		rmdir(m->mountpoint);
		free_mapping(m);
		return -ENAMETOOLONG;
	}
	/* This entry owns the mapping: it is the last to unwind. */
	snprintf(what, sizeof(what), "unmount rbd-fuse at %s and stop it", m->mountpoint);
	rec = json_pack("{s:s, s:s, s:s, s:i}", "kind", "fuse", "mountpoint", m->mountpoint, "log",
	                m->fuse_log, "pid", 0);
	h = ccb_undo_push_state(what, undo_fuse, m, free_mapping, rec);
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

/* ---- kernel driver --------------------------------------------------------- */

/* "PREFIX" then a device number and nothing else: no sign, no leading
 * zero, no "/.." after it. The grammar of every device a record names. */
static bool parse_numbered(const char *s, const char *prefix, unsigned *n)
{
	size_t pl = strlen(prefix), digits = 0;
	unsigned long v = 0;

	if (!s || strncmp(s, prefix, pl) != 0)
		return false;
	for (const char *p = s + pl; *p; p++, digits++) {
		if (*p < '0' || *p > '9' || digits >= 7 || (digits == 1 && s[pl] == '0'))
			return false;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (!digits)
		return false;
	*n = (unsigned)v;
	return true;
}

static int rbd_remove(unsigned id, char *msg, size_t msg_len)
{
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "%s/bus/rbd/remove_single_major", ccb_sysfs_root());
	r = ccb_sysfs_write_u64(path, id);
	if (r < 0)
		snprintf(msg, msg_len, "write %s (unmap /dev/rbd%u): %s", path, id, strerror(-r));
	return r;
}

static int undo_krbd(void *arg)
{
	struct ccb_mapping *m = arg;
	char msg[PATH_MAX + 128];
	unsigned id;
	int r = 0;

	if (!parse_numbered(m->dev, "/dev/rbd", &id))
		return 0;
	for (int waited = 0;; waited += 100) {
		r = rbd_remove(id, msg, sizeof(msg));
		if (r != -EBUSY || waited >= SETTLE_MSEC)
			break;
		sleep_msec(100);
	}
	if (r < 0)
		fprintf(stderr, "ccbench: %s\n", msg);
	return r;
}

int ccb_map_mons_speak_v1(rados_t cl)
{
	const char *cmd[] = {"{\"prefix\": \"mon dump\", \"format\": \"json\"}"};
	char *outbuf = NULL, *outs = NULL;
	size_t outlen = 0, outslen = 0;
	json_t *doc, *mons, *mon, *a;
	size_t i, j;
	int r, v1 = 0, any = 0;

	r = rados_mon_command(cl, cmd, 1, "", 0, &outbuf, &outlen, &outs, &outslen);
	if (r < 0)
		goto out;
	doc = json_loadb(outbuf, outlen, 0, NULL);
	mons = json_object_get(doc, "mons");
	if (!json_is_array(mons)) {
		json_decref(doc);
		r = -EPROTO;
		goto out;
	}
	json_array_foreach(mons, i, mon)
	{
		json_t *vec = json_object_get(json_object_get(mon, "public_addrs"), "addrvec");

		json_array_foreach(vec, j, a)
		{
			const char *type = json_string_value(json_object_get(a, "type"));

			any = 1;
			if (type && strcmp(type, "v1") == 0)
				v1 = 1;
		}
		/* Old mon maps have only "addr", a v1 address. */
		if (!json_is_array(vec) && json_object_get(mon, "addr"))
			any = v1 = 1;
	}
	json_decref(doc);
	r = any ? v1 : -EPROTO;
out:
	rados_buffer_free(outbuf);
	rados_buffer_free(outs);
	return r;
}

/* The value of option @p key in the comma-separated @p opts ("" for a bare
 * flag), or NULL when absent. */
static const char *opt_find(const char *opts, const char *key, char *val, size_t val_len)
{
	size_t kl = strlen(key);
	const char *p = opts, *found = NULL;

	while (p && *p) {
		size_t l = strcspn(p, ",");

		if (l >= kl && strncmp(p, key, kl) == 0 && (l == kl || p[kl] == '=')) {
			size_t vl = l > kl ? l - kl - 1 : 0;
			snprintf(val, val_len, "%.*s", (int)vl, p + kl + (l > kl));
			found = val; /* the last one wins, as in the driver */
		}
		p += l + (p[l] == ',');
	}
	return found;
}

int ccb_map_kernel_options(const char *given, int mons_v1, bool udev_running, struct ccb_mapping *m)
{
	char val[64];
	size_t len = sizeof(m->options);
	int n;

	given = given ? given : "";
	n = snprintf(m->options, len, "%s", given);
	m->noudev = false;
	m->ms_mode[0] = '\0';
	if (!udev_running && !opt_find(given, "udev", val, sizeof(val)) &&
	    !opt_find(given, "noudev", val, sizeof(val))) {
		n += snprintf(m->options + n, len > (size_t)n ? len - n : 0, "%snoudev",
		              m->options[0] ? "," : "");
		m->noudev = true;
	}
	if (n >= 0 && (size_t)n < len && opt_find(given, "ms_mode", val, sizeof(val))) {
		snprintf(m->ms_mode, sizeof(m->ms_mode), "%.*s", (int)sizeof(m->ms_mode) - 1, val);
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why), "given in --map-options");
	} else if (n >= 0 && (size_t)n < len && mons_v1 == 0) {
		n += snprintf(m->options + n, len - n, "%sms_mode=prefer-crc",
		              m->options[0] ? "," : "");
		snprintf(m->ms_mode, sizeof(m->ms_mode), "prefer-crc");
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "chosen by ccbench: the monitors speak msgr v2 only, which the "
		         "driver's default (legacy) cannot");
	} else if (mons_v1 < 0) {
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "the driver's default (legacy): the mon map could not be read to check "
		         "for msgr v2-only monitors");
	} else {
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "the driver's default (legacy): the monitors speak msgr v1");
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool udev_running(void)
{
	struct stat st;

	/* systemd-udevd's control socket; eudev's is the same path. */
	return stat("/run/udev/control", &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Most mappings of one image a run looks through for its own. */
#define MAX_SAME_IMAGE 64

/* After a map that did not report its device: the one device of this
 * image that is not among @p before is the map's (the kernel added it
 * before rbd was stopped or failed). Taken into the mapping and its
 * record, so the unwind unmaps it. Two new ones (another map of the same
 * image at the same time) are left alone: neither is known to be ours. */
static bool adopt_new_device(struct ccb_mapping *m, int h, const unsigned *before, int before_n)
{
	unsigned now[MAX_SAME_IMAGE], mine = 0;
	int n = ccb_sysfs_rbd_find(ccb_sysfs_root(), m->pool, m->image, "-", now, MAX_SAME_IMAGE),
	    fresh = 0;

	for (int i = 0; i < n && i < MAX_SAME_IMAGE; i++) {
		bool old = false;

		for (int j = 0; j < before_n; j++)
			old |= before[j] == now[i];
		if (!old) {
			mine = now[i];
			fresh++;
		}
	}
	if (fresh != 1)
		return false;
	snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", mine);
	ccb_undo_state_set(h, "dev", json_string(m->dev));
	return true;
}

static int map_kernel(const struct ccb_opts *o, struct ccb_mapping *m, int mons_v1, char *err,
                      size_t err_len)
{
	char spec[260], confbuf[PATH_MAX], out[sizeof(m->dev)], errtxt[512], what[320];
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	unsigned before[MAX_SAME_IMAGE], id;
	char *argv[12];
	char **env;
	json_t *rec, *pre;
	int n = 0, h, st, before_n;
	bool adopted;

	snprintf(spec, sizeof(spec), "%s/%s", m->pool, m->image);
	if (ccb_map_kernel_options(o->map_options, mons_v1, udev_running(), m) < 0) {
		snprintf(err, err_len, "--map-options %s: too long", o->map_options);
		free_mapping(m);
		return -EINVAL;
	}
	argv[n++] = "rbd";
	argv[n++] = "device";
	argv[n++] = "map";
	argv[n++] = "--read-only";
	argv[n++] = "-c";
	argv[n++] = (char *)conf;
	if (m->options[0]) {
		argv[n++] = "-o";
		argv[n++] = m->options;
	}
	argv[n++] = spec;
	argv[n] = NULL;
	/* The devices already mapping this image are not ours: only a new one
	 * can be what an interrupted map left (see adopt_new_device). */
	before_n =
	    ccb_sysfs_rbd_find(ccb_sysfs_root(), m->pool, m->image, "-", before, MAX_SAME_IMAGE);
	if (before_n < 0) {
		free_mapping(m);
		return before_n;
	}
	if (before_n > MAX_SAME_IMAGE) {
		snprintf(err, err_len, "%s is mapped %d times already; unmap some first", spec,
		         before_n);
		free_mapping(m);
		return -EBUSY;
	}
	pre = json_array();
	for (int i = 0; i < before_n; i++)
		json_array_append_new(pre, json_integer(before[i]));
	snprintf(what, sizeof(what), "unmap %s", spec);
	rec = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "kind", "krbd_map", "pool", m->pool,
	                "image", m->image, "snap", "-", "dev", "", "preexisting", pre);
	h = ccb_undo_push_state(what, undo_krbd, m, free_mapping, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the mapping in %s: %s", ccb_undo_state_dir(),
		         strerror(-h));
		return h;
	}
	env = child_env(o);
	if (!env)
		return -ENOMEM;
	st = ccb_map_run_cmd(argv, env, out, sizeof(out), errtxt, sizeof(errtxt));
	free_env(env);
	if (st == 0 && parse_numbered(out, "/dev/rbd", &id) &&
	    ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, m->pool, m->image, "-")) {
		snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", id);
		ccb_undo_state_set(h, "dev", json_string(m->dev));
		return 0;
	}
	/* Failed, interrupted, or printed something else: the kernel may have
	 * added the device all the same. The unwind must unmap it. */
	adopted = adopt_new_device(m, h, before, before_n);
	snprintf(err, err_len, "rbd device map --read-only %s%s%s: %s%s%s", spec,
	         m->options[0] ? " -o " : "", m->options,
	         st == 0 ? "printed no /dev/rbdN of this image: " : "",
	         st == 0     ? out
	         : errtxt[0] ? errtxt
	         : st < 0    ? strerror(-st)
	                     : "failed",
	         adopted ? "; the device it had added will be unmapped" : "");
	return st < 0 ? st : -EIO;
}

int ccb_map(const struct ccb_opts *o, enum ccb_map_via via, const char *pool, const char *image,
            int mons_v1, struct ccb_mapping **out, char *err, size_t err_len)
{
	struct ccb_mapping *m = calloc(1, sizeof(*m));
	int r;

	if (!m)
		return -ENOMEM;
	m->via = via;
	m->loop_fd = -1;
	snprintf(m->pool, sizeof(m->pool), "%s", pool);
	snprintf(m->image, sizeof(m->image), "%s", image);
	r = mkdir(ccb_undo_state_dir(), 0700);
	if (r < 0 && errno != EEXIST) {
		r = -errno;
		snprintf(err, err_len, "mkdir %s: %s", ccb_undo_state_dir(), strerror(errno));
		free(m);
		return r;
	}
	/* Mount points and logs go there: a directory others can write to
	 * would let them swap a path under us. */
	r = ccb_map_check_state_dir(ccb_undo_state_dir(), err, err_len);
	if (r < 0) {
		free(m);
		return r;
	}
	*out = m;
	/* From here on the undo log owns m, on success and failure alike. */
	if (via == CCB_MAP_KERNEL)
		return map_kernel(o, m, mons_v1, err, err_len);
	return map_fuse_loop(o, m, err, err_len);
}

int ccb_map_drop_backing_range(const struct ccb_mapping *m, uint64_t offset, uint64_t len)
{
	int fd, r = 0;

	if (m->via != CCB_MAP_FUSE_LOOP)
		return 0;
	/* Opened per call: a descriptor held for the run would keep the fuse
	 * mount busy at the unmount. */
	fd = open(m->backing, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = posix_fadvise(fd, (off_t)offset, (off_t)len, POSIX_FADV_DONTNEED);
	close(fd);
	return -r;
}

int ccb_map_drop_backing_cache(const struct ccb_mapping *m)
{
	return ccb_map_drop_backing_range(m, 0, 0);
}

/* ---- restore after a crash ------------------------------------------------- */

/*
 * A record is a file anyone who could write to the state directory could
 * have made, and restore runs as root: nothing in it is used before it is
 * checked against the only shapes ccbench writes (a loop device over a
 * file under one of its own mount points, a mount point DIR/mnt-XXXXXX,
 * its log DIR/mnt-XXXXXX.log, /dev/rbdN) and then against the live
 * system (sysfs, the mount table, /proc). Anything else is reported as an
 * invalid record and left alone, together with whatever it names.
 */

static bool owner_ok(const struct stat *st)
{
	/* Root's, or (for a user running ccbench on their own devices) ours. */
	return st->st_uid == 0 || st->st_uid == geteuid();
}

int ccb_map_check_state_dir(const char *dir, char *err, size_t err_len)
{
	struct stat st;

	if (lstat(dir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, err_len, "state directory %s: %s", dir, strerror(errno));
		return -errno;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, err_len, "state directory %s: %s; refused", dir,
		         S_ISLNK(st.st_mode) ? "a symbolic link" : "not a directory");
		return -EPERM;
	}
	if (!owner_ok(&st)) {
		snprintf(err, err_len, "state directory %s: owned by uid %u, not root; refused",
		         dir, (unsigned)st.st_uid);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, err_len,
		         "state directory %s: writable by %s (mode %03o); refused (chmod 700 it)",
		         dir, st.st_mode & S_IWOTH ? "others" : "its group",
		         (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

int ccb_map_check_state_file(const char *file, char *err, size_t err_len)
{
	struct stat st;

	if (lstat(file, &st) < 0) {
		snprintf(err, err_len, "%s: %s", file, strerror(errno));
		return -errno;
	}
	if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || !owner_ok(&st) ||
	    (st.st_mode & (S_IWGRP | S_IWOTH))) {
		snprintf(err, err_len, "%s: %s; not a state file of ccbench's, refused", file,
		         S_ISLNK(st.st_mode)    ? "a symbolic link"
		         : !S_ISREG(st.st_mode) ? "not a regular file"
		         : st.st_nlink != 1     ? "a hard link (more than one name)"
		         : !owner_ok(&st)       ? "not owned by root"
		                                : "writable by others");
		return -EPERM;
	}
	return 0;
}

/* Length of "DIR/mnt-XXXXXX" at the start of @p path (DIR the state
 * directory, X as mkdtemp makes them), or 0 when it does not start so. */
static size_t own_mountpoint_len(const char *path)
{
	const char *dir = ccb_undo_state_dir();
	size_t dl = strlen(dir);

	if (!path || strncmp(path, dir, dl) != 0 || strncmp(path + dl, "/mnt-", 5) != 0)
		return 0;
	for (size_t i = dl + 5; i < dl + 11; i++) {
		char c = path[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
			return 0;
	}
	return dl + 11;
}

static bool valid_mountpoint(const char *mp)
{
	size_t l = own_mountpoint_len(mp);

	return l && mp[l] == '\0';
}

/* A pool or image name as ccbench records them: no '/', no control characters. */
static bool valid_object_name(const char *s)
{
	size_t n = 0;

	if (!s || !s[0] || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; s[n]; n++)
		if (s[n] == '/' || (unsigned char)s[n] < 0x20 || s[n] == 0x7f || n >= 127)
			return false;
	return true;
}

/* DIR/mnt-XXXXXX/IMAGE: the file rbd-fuse serves in one of our mounts. */
static bool valid_backing(const char *backing)
{
	size_t l = own_mountpoint_len(backing);

	return l && backing[l] == '/' && valid_object_name(backing + l + 1);
}

static int invalid(char *msg, size_t msg_len, const char *kind, const char *why, const char *value)
{
	snprintf(msg, msg_len, "invalid record (%s): %s '%.*s'; nothing touched", kind, why, 200,
	         value ? value : "(missing)");
	return -EINVAL;
}

/* The first line of @p path (a sysfs attribute), newline cut; "" when unreadable. */
static void read_line(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	buf[0] = '\0';
	if (fd < 0)
		return;
	n = read(fd, buf, len - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

static int restore_loop(const json_t *rec, char *msg, size_t msg_len)
{
	const char *dev = json_string_value(json_object_get(rec, "dev"));
	const char *backing = json_string_value(json_object_get(rec, "backing"));
	char attr[PATH_MAX], cur[PATH_MAX + 16], devt[32], want[PATH_MAX + 16];
	unsigned n, maj, min;
	struct stat st;
	int fd, r = 0;

	if (!parse_numbered(dev, "/dev/loop", &n))
		return invalid(msg, msg_len, "loop", "dev is not /dev/loopN:", dev);
	if (!valid_backing(backing))
		return invalid(msg, msg_len, "loop",
		               "backing is not a file under a mount point of ccbench's:", backing);
	snprintf(attr, sizeof(attr), "%s/block/loop%u/loop/backing_file", ccb_sysfs_root(), n);
	read_line(attr, cur, sizeof(cur));
	/* Exactly the file (the kernel appends " (deleted)" once it is gone). */
	snprintf(want, sizeof(want), "%s (deleted)", backing);
	if (strcmp(cur, backing) != 0 && strcmp(cur, want) != 0) {
		snprintf(msg, msg_len, "%s: no longer attached to %s; nothing to detach", dev,
		         backing);
		return 0;
	}
	/* The node must be that very device, not something put at its name. */
	snprintf(want, sizeof(want), "%s/block/loop%u/dev", ccb_sysfs_root(), n);
	read_line(want, devt, sizeof(devt));
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0) {
		r = -errno;
		snprintf(msg, msg_len, "open %s: %s", dev, strerror(errno));
		return r;
	}
	if (fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode) || sscanf(devt, "%u:%u", &maj, &min) != 2 ||
	    major(st.st_rdev) != maj || minor(st.st_rdev) != min) {
		close(fd);
		snprintf(msg, msg_len, "%s: not the block device %s of sysfs; nothing touched", dev,
		         devt[0] ? devt : "(unknown)");
		return -EINVAL;
	}
	if (ioctl(fd, LOOP_CLR_FD, 0) < 0) {
		r = -errno;
		snprintf(msg, msg_len, "ioctl(%s, LOOP_CLR_FD): %s", dev, strerror(errno));
	} else {
		snprintf(msg, msg_len, "%s: detached from %s", dev, backing);
	}
	close(fd);
	for (int waited = 0; r == 0 && waited < SETTLE_MSEC && access(attr, F_OK) == 0;
	     waited += 20)
		sleep_msec(20);
	return r;
}

static int restore_fuse(const json_t *rec, char *msg, size_t msg_len)
{
	const char *mp = json_string_value(json_object_get(rec, "mountpoint"));
	const char *log = json_string_value(json_object_get(rec, "log"));
	json_t *jpid = json_object_get(rec, "pid");
	char umsg[PATH_MAX + 64] = "", want[PATH_MAX + 8];
	json_int_t pid = json_integer_value(jpid);
	struct stat st;
	int r;

	if (!valid_mountpoint(mp))
		return invalid(msg, msg_len, "fuse",
		               "mountpoint is not a mount point of ccbench's:", mp);
	snprintf(want, sizeof(want), "%s.log", mp);
	if (log && strcmp(log, want) != 0)
		return invalid(msg, msg_len, "fuse", "log is not the log of its mount point:", log);
	if (!json_is_integer(jpid) || pid < 0 || pid > INT32_MAX)
		return invalid(msg, msg_len, "fuse", "pid is not a process id:", "pid");
	if (lstat(mp, &st) == 0 && !S_ISDIR(st.st_mode))
		return invalid(msg, msg_len, "fuse", "mountpoint is not a directory:", mp);
	r = unmount_fuse(mp, umsg, sizeof(umsg));
	if (r < 0) {
		snprintf(msg, msg_len, "%s", umsg);
		return r;
	}
	if (is_our_fuse((pid_t)pid, mp) && stop_fuse((pid_t)pid, false, mp) < 0) {
		snprintf(msg, msg_len, "rbd-fuse (pid %d) did not exit after unmount of %s",
		         (int)pid, mp);
		return -ETIMEDOUT;
	}
	if (rmdir(mp) < 0 && errno != ENOENT) {
		snprintf(msg, msg_len, "rmdir %s: %s", mp, strerror(errno));
		return -errno;
	}
	/* Only a plain file of ours (unlink would not follow a link, but a
	 * directory or a device at that name is not our log either). */
	if (lstat(want, &st) == 0 && (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
		unlink(want);
	snprintf(msg, msg_len, "%s: rbd-fuse unmounted%s%s", mp, umsg[0] ? "; " : "", umsg);
	return 0;
}

static int restore_krbd(const json_t *rec, char *msg, size_t msg_len)
{
	const char *dev = json_string_value(json_object_get(rec, "dev"));
	const char *pool = json_string_value(json_object_get(rec, "pool"));
	const char *image = json_string_value(json_object_get(rec, "image"));
	const char *snap = json_string_value(json_object_get(rec, "snap"));
	unsigned id;

	if (!valid_object_name(pool))
		return invalid(msg, msg_len, "krbd_map", "pool is not a pool name:", pool);
	if (!valid_object_name(image))
		return invalid(msg, msg_len, "krbd_map", "image is not an image name:", image);
	if (!snap)
		snap = "-"; /* records before snap was written: ccbench maps heads only */
	else if (strcmp(snap, "-") != 0 && !valid_object_name(snap))
		return invalid(msg, msg_len, "krbd_map", "snap is not a snapshot name:", snap);
	if (!dev || (dev[0] && !parse_numbered(dev, "/dev/rbd", &id)))
		return invalid(msg, msg_len, "krbd_map", "dev is not /dev/rbdN:", dev);
	if (!dev[0]) {
		/* The run died inside `rbd device map`. A device of this image
		 * that was not there before may be its, or someone's since:
		 * named, not removed. */
		unsigned ids[8];
		int n = ccb_sysfs_rbd_find(ccb_sysfs_root(), pool, image, snap, ids, 8), k = 0;
		char list[128] = "";
		json_t *pre = json_object_get(rec, "preexisting");

		for (int i = 0; i < n && i < 8; i++) {
			bool old = false;
			size_t j;
			json_t *v;

			json_array_foreach(pre, j, v) old |=
			    json_integer_value(v) == (json_int_t)ids[i];
			if (!old && k++ < 4)
				snprintf(list + strlen(list), sizeof(list) - strlen(list),
				         " /dev/rbd%u", ids[i]);
		}
		snprintf(msg, msg_len, "%s/%s: the map had not finished%s%s%s", pool, image,
		         k ? "; mapped since it began:" : "; no device of it was added", list,
		         k ? " (check with 'rbd device list' and unmap what is not in use)" : "");
		return 0;
	}
	/* Only a device still mapping the recorded image is ours to remove. */
	if (!ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, pool, image, snap)) {
		snprintf(msg, msg_len, "%s: no longer maps %s/%s; nothing to unmap", dev, pool,
		         image);
		return 0;
	}
	if (rbd_remove(id, msg, msg_len) < 0)
		return -EIO;
	snprintf(msg, msg_len, "%s: unmapped %s/%s", dev, pool, image);
	return 0;
}

int ccb_map_restore(const json_t *record, char *msg, size_t msg_len)
{
	const char *kind = json_string_value(json_object_get(record, "kind"));

	if (!kind)
		return -ENOTSUP;
	if (strcmp(kind, "loop") == 0)
		return restore_loop(record, msg, msg_len);
	if (strcmp(kind, "fuse") == 0)
		return restore_fuse(record, msg, msg_len);
	if (strcmp(kind, "krbd_map") == 0)
		return restore_krbd(record, msg, msg_len);
	return -ENOTSUP;
}
