/*
 * Child processes: a session of their own (see spawn.h), so a signal to
 * ccbench's terminal never reaches them behind its back; and every wait
 * for one bounded, since a child blocked in the kernel (D state) outlives
 * even SIGKILL for as long as the kernel holds it.
 */
#include <ccbench/redact.h>
#include <ccbench/spawn.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

pid_t ccb_spawn(char *const argv[], char **env, int out_fd, int err_fd)
{
	return ccb_spawn_in(argv, env, -1, out_fd, err_fd);
}

pid_t ccb_spawn_in(char *const argv[], char **env, int in_fd, int out_fd, int err_fd)
{
	return ccb_spawn_at(argv, env, NULL, in_fd, out_fd, err_fd);
}

pid_t ccb_spawn_at(char *const argv[], char **env, const char *dir, int in_fd, int out_fd,
                   int err_fd)
{
	pid_t pid;

	/* What is buffered here must not reach the child's (a failed exec's
	 * _exit may flush it: TSan's does), or it would be printed twice. */
	fflush(NULL);
	pid = fork();

	if (pid != 0)
		return pid < 0 ? -errno : pid;
	int null = open("/dev/null", O_RDWR);
	setsid();
	dup2(in_fd >= 0 ? in_fd : null, 0);
	dup2(out_fd >= 0 ? out_fd : null, 1);
	dup2(err_fd >= 0 ? err_fd : null, 2);
	if (dir && chdir(dir) < 0) {
		static const char nodir[] = "cannot enter the command's directory\n";
		if (write(2, nodir, sizeof(nodir) - 1) < 0)
			_exit(127);
		_exit(127);
	}
	execvpe(argv[0], argv, env);
	/* Only async-signal-safe calls here: the reason goes out as a fixed text. */
	static const char msg[] = "exec failed (not in PATH, or not executable)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}

static void sleep_msec(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
}

int ccb_spawn_reap(pid_t pid, unsigned msec, int *status)
{
	int st = 0;

	for (unsigned waited = 0;; waited += 20) {
		pid_t w = waitpid(pid, &st, WNOHANG);

		if (w == pid) {
			if (status)
				*status = st;
			return 0;
		}
		if (w < 0 && errno != EINTR)
			return -errno;
		if (waited >= msec)
			return -ETIMEDOUT;
		sleep_msec(20);
	}
}

void ccb_spawn_describe(char *const argv[], char *buf, size_t len)
{
	size_t l = 0;

	buf[0] = '\0';
	for (int i = 0; argv && argv[i] && l + 1 < len; i++) {
		char *red = ccb_redact_text(argv[i]);

		snprintf(buf + l, len - l, "%s%s", i ? " " : "", red ? red : "?");
		free(red);
		l = strlen(buf);
	}
}

int ccb_spawn_stop(pid_t pid, bool group, unsigned term_msec, unsigned kill_msec, const char *what,
                   int *status)
{
	int r;

	if (term_msec) {
		if (group)
			kill(-pid, SIGTERM);
		kill(pid, SIGTERM);
		r = ccb_spawn_reap(pid, term_msec, status);
		if (r != -ETIMEDOUT)
			return r;
	}
	if (group)
		kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	r = ccb_spawn_reap(pid, kill_msec, status);
	if (r == -ETIMEDOUT)
		fprintf(stderr,
		        "ccbench: %s (pid %d) did not exit %.1f s after SIGKILL (blocked in the "
		        "kernel, D state); not waiting for it\n",
		        what && what[0] ? what : "child", (int)pid, kill_msec / 1000.0);
	return r;
}
