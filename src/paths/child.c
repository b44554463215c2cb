/*
 * The helper programs krbd and the CephFS mounts start (rbd, rbd-fuse,
 * ceph-fuse, mount), below both: finding one, its environment, running it
 * to its end within a bound through pipes, and the short sleeps of their
 * polls. The state directory's checks are undo_state.c's
 * (ccb_undo_state_dir_ready()). It calls none of its callers, so each
 * reads top-down.
 */
#include <ccbench/redact.h>
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include <ccbench/spawn.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"

extern char **environ;

void ccb_sleep_msec(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

/* True when @p prog is an executable in $PATH. */
bool ccb_program_in_path(const char *prog)
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

/* ---- child processes ----------------------------------------------------- */

/*
 * The environment for ceph tools we start: ours, with CEPH_ARGS extended
 * by the connection options ccbench was given (the tools read -c, but the
 * entity, keyring and -o settings only through CEPH_ARGS). Built before
 * fork, since the child may only make async-signal-safe calls.
 */
char **ccb_child_env(const struct ccb_opts *o)
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

void ccb_child_env_free(char **env)
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

int ccb_child_run(char *const argv[], char **env, char *out, size_t out_len, char *errtxt,
                  size_t errtxt_len)
{
	return ccb_child_run_bounded(argv, env, CCB_CHILD_RUN_MSEC, out, out_len, errtxt,
	                             errtxt_len);
}

/* After Ctrl-C, how long a command has to stop on SIGTERM before SIGKILL. */
#define TERM_GRACE_NSEC 5000000000ull
/* After SIGKILL, how long the pipes are read: one still in the kernel (in
 * D state, where even SIGKILL waits) may hold them open. */
#define KILL_GRACE_NSEC 2000000000ull

int ccb_child_run_bounded(char *const argv[], char **env, uint64_t limit_msec, char *out,
                          size_t out_len, char *errtxt, size_t errtxt_len)
{
	int po[2] = {-1, -1}, pe[2] = {-1, -1}, st = 0, r;
	size_t used[2] = {0, 0};
	bool termed = false, killed = false, timed_out = false;
	uint64_t t0 = ccb_now_nsec(), term_t = 0, kill_t = 0;
	char what[512];
	pid_t pid;

	if (!limit_msec)
		limit_msec = CCB_CHILD_RUN_MSEC;
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
	pid = ccb_spawn(argv, env, po[1], pe[1]);
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
		uint64_t now = ccb_now_nsec();
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
			term_t = now;
		}
		/* Past its bound, or deaf to SIGTERM: the whole session goes
		 * (mount(8) forks its helper, which may be the one waiting in
		 * the kernel). */
		timed_out |= !killed && now - t0 > limit_msec * 1000000ull;
		if (!killed && (timed_out || (termed && now - term_t > TERM_GRACE_NSEC))) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = true;
			kill_t = now;
		}
		if (killed && now - kill_t > KILL_GRACE_NSEC)
			break;
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
	/* The pipes are closed (or given up on): the command has exited, or
	 * closed them and runs on, or is stuck in the kernel. Waited for
	 * within what is left of its bound, then ended, never for ever. */
	ccb_spawn_describe(argv, what, sizeof(what));
	{
		uint64_t spent = (ccb_now_nsec() - t0) / 1000000ull;
		unsigned left = killed               ? 1000
		                : spent < limit_msec ? (unsigned)(limit_msec - spent)
		                                     : 0;

		r = ccb_spawn_reap(pid, left, &st);
		if (r == -ETIMEDOUT && !killed) {
			timed_out = true;
			r = ccb_spawn_stop(pid, true, 0, 2000, what, &st);
		} else if (r == -ETIMEDOUT) {
			fprintf(stderr,
			        "ccbench: %s (pid %d) did not exit after SIGKILL (blocked in the "
			        "kernel, D state); not waiting for it\n",
			        what, (int)pid);
		}
	}
	if (r == -ETIMEDOUT) {
		size_t l = errtxt && errtxt_len ? strcspn(errtxt, "\n") : 0;

		if (errtxt && errtxt_len)
			snprintf(
			    errtxt + l, errtxt_len - l,
			    "%sdid not exit after SIGKILL (pid %d, blocked in the kernel); left",
			    l ? "; " : "", (int)pid);
		r = 124;
	} else if (r < 0) {
		snprintf(errtxt, errtxt_len, "waitpid %d: %s", (int)pid, strerror(-r));
	} else {
		r = timed_out ? 124 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	}
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
