/*
 * Child processes: a session of their own (see spawn.h), so a signal to
 * ccbench's terminal never reaches them behind its back.
 */
#include <ccbench/spawn.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

pid_t ccb_spawn(char *const argv[], char **env, int out_fd, int err_fd)
{
	return ccb_spawn_in(argv, env, -1, out_fd, err_fd);
}

pid_t ccb_spawn_in(char *const argv[], char **env, int in_fd, int out_fd, int err_fd)
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
	execvpe(argv[0], argv, env);
	/* Only async-signal-safe calls here: the reason goes out as a fixed text. */
	static const char msg[] = "exec failed (not in PATH, or not executable)\n";
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(127);
	_exit(127);
}
