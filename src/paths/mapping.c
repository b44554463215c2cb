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
 *
 * This file chooses the way and runs child processes; map_fuse.c,
 * map_kernel.c and map_restore.c hold the two ways and the crash restore.
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

#include "mapping_int.h"

extern char **environ;

const char *ccb_map_via_name(enum ccb_map_via via)
{
	return via == CCB_MAP_KERNEL ? "kernel" : "fuse-loop";
}

void ccb_map_sleep_msec(long ms)
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
char **ccb_map_child_env(const struct ccb_opts *o)
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
	len += 160; /* the three timeouts below */
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
	/* The helper's own ops are bounded as ours are: rbd-fuse without them
	 * waits on a frozen OSD for as long as it stays frozen, and the loop
	 * device over it, the reader and the unmount all wait with it. Before
	 * the -o sets, which can still override them. */
	snprintf(args + strlen(args), 160,
	         "--client_mount_timeout %llu --rados_mon_op_timeout %llu "
	         "--rados_osd_op_timeout %llu ",
	         (unsigned long long)((o->connect_timeout_usec + 999999) / 1000000),
	         (unsigned long long)((o->connect_timeout_usec + 999999) / 1000000),
	         (unsigned long long)((o->op_timeout_usec + 999999) / 1000000));
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

void ccb_map_free_env(char **env)
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
pid_t ccb_map_spawn(char *const argv[], char **env, int out_fd, int err_fd)
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
	pid = ccb_map_spawn(argv, env, po[1], pe[1]);
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

int ccb_map(const struct ccb_opts *o, enum ccb_map_via via, const char *pool, const char *image,
            int mons_v1, struct ccb_mapping **out, char *err, size_t err_len)
{
	struct ccb_mapping *m = calloc(1, sizeof(*m));
	int r;

	if (!m)
		return -ENOMEM;
	m->via = via;
	m->loop_fd = -1;
	m->backing_fd = -1;
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
		return ccb_map_do_kernel(o, m, mons_v1, err, err_len);
	return ccb_map_do_fuse_loop(o, m, err, err_len);
}

int ccb_map_drop_backing_range(const struct ccb_mapping *m, uint64_t offset, uint64_t len)
{
	int fd, r = 0;

	if (m->via != CCB_MAP_FUSE_LOOP)
		return 0;
	/* The descriptor the mapping holds (see attach_loop): a new open()
	 * would be a request to rbd-fuse, which can wait on the cluster. */
	if (m->backing_fd >= 0)
		return -posix_fadvise(m->backing_fd, (off_t)offset, (off_t)len,
		                      POSIX_FADV_DONTNEED);
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
