/**
 * @file spawn.h
 * Starting a helper program (rbd, rbd-fuse, a sweep's --runner) in a
 * session of its own: Ctrl-C at the terminal reaches ccbench alone, which
 * then decides what happens to the helper (an `rbd device map` killed by
 * the terminal's SIGINT could leave a device the kernel had already added,
 * with nobody knowing its name); the helper's whole process group can be
 * signalled as one (kill(-pid, ...)).
 */
#ifndef CCBENCH_SPAWN_H
#define CCBENCH_SPAWN_H

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

#endif
