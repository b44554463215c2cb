/**
 * @file spawn.h
 * Starting a helper program (rbd, rbd-fuse, a sweep's --runner) in a
 * session of its own: Ctrl-C at the terminal reaches ccbench alone, which
 * then decides what happens to the helper (an `rbd device map` killed by
 * the terminal's SIGINT could leave a device the kernel had already added,
 * with nobody knowing its name); the helper's whole process group can be
 * signalled as one (kill(-pid, ...)). And waiting for one, always with a
 * bound: a child blocked in the kernel does not die even of SIGKILL until
 * the kernel lets it go, so it is reported and left, never waited for.
 */
#ifndef CCBENCH_SPAWN_H
#define CCBENCH_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * Start @p argv (looked up in PATH) with environment @p env, stdin from
 * /dev/null, stdout into @p out_fd and stderr into @p err_fd (each -1:
 * /dev/null), in a new session (its pid is its process group id).
 *
 * @return the child's pid, or -errno when fork failed. A failed exec
 *         ends the child with status 127 and a line on @p err_fd.
 */
pid_t ccb_spawn(char *const argv[], char **env, int out_fd, int err_fd);

/** ccb_spawn() with stdin from @p in_fd (-1: /dev/null). */
pid_t ccb_spawn_in(char *const argv[], char **env, int in_fd, int out_fd, int err_fd);

/** ccb_spawn_in() run in directory @p dir (NULL: this one); a child that
 *  cannot enter it ends with status 127 and a line on @p err_fd. */
pid_t ccb_spawn_at(char *const argv[], char **env, const char *dir, int in_fd, int out_fd,
                   int err_fd);

/**
 * Reap child @p pid if it exits within @p msec (waitpid WNOHANG, polled
 * every 20 ms).
 *
 * @return 0 (its wait status in @p status, which may be NULL),
 *         -ETIMEDOUT (still running), or -errno of waitpid (-ECHILD).
 */
int ccb_spawn_reap(pid_t pid, unsigned msec, int *status);

/**
 * End child @p pid: SIGTERM (to its process group too when @p group),
 * up to @p term_msec for it to exit (0: straight to SIGKILL), then
 * SIGKILL and up to @p kill_msec. One still there is left unreaped and
 * named on stderr with its pid and @p what (its command, redacted).
 *
 * @return 0 (reaped, status in @p status), -ETIMEDOUT, or -errno.
 */
int ccb_spawn_stop(pid_t pid, bool group, unsigned term_msec, unsigned kill_msec, const char *what,
                   int *status);

/** @p argv joined by spaces into @p buf, each word through ccb_redact_text(). */
void ccb_spawn_describe(char *const argv[], char *buf, size_t len);

#endif
