/*
 * Starting and running the helper programs the paths use (rbd, rbd-fuse,
 * ceph-fuse, mount): their environment, whether one is installed, running
 * one to its end within a bound, and the short sleeps of their polls
 * (child.c). krbd and the CephFS mounts call them, so they sit below both.
 */
#ifndef CCBENCH_PATHS_CHILD_H
#define CCBENCH_PATHS_CHILD_H

#include <ccbench/options.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Sleep @p ms milliseconds, a poll's step (nanosleep: a signal cuts it short). */
void ccb_sleep_msec(long ms);
/** Whether @p prog is an executable in $PATH. */
bool ccb_program_in_path(const char *prog);
/** The environment of rbd, rbd-fuse: ours plus the connection options of @p o. */
char **ccb_child_env(const struct ccb_opts *o);
/** Free what ccb_child_env() returned (NULL is fine). */
void ccb_child_env_free(char **env);

/** The bound of ccb_child_run() (and of ccb_child_run_bounded() given 0). */
#define CCB_CHILD_RUN_MSEC 120000

/**
 * Run a helper command to its end, in a session of its own (out of reach
 * of the terminal's Ctrl-C; a pending ccbench signal SIGTERMs it, SIGKILLs
 * its session 5 s later if it is still there, and it is still waited for,
 * so the caller can see what it did). Its output comes through pipes: no
 * temporary files. Bounded by CCB_CHILD_RUN_MSEC, as
 * ccb_child_run_bounded() says.
 *
 * @param out     its first stdout line (may be NULL)
 * @param errtxt  its first stderr line; when it could not be run at all,
 *                which step failed ("not run: pipe: ...")
 * @return its exit status (128 + signal when killed), 124 past the bound,
 *         or -errno when it could not be started.
 */
int ccb_child_run(char *const argv[], char **env, char *out, size_t out_len, char *errtxt,
                  size_t errtxt_len);

/**
 * ccb_child_run() bounded: past @p limit_msec (0: CCB_CHILD_RUN_MSEC) its
 * whole session is killed (SIGKILL) and the status is 124, as timeout(1)
 * says. The pipes are read until every process holding them is gone, or
 * for 2 s after the SIGKILL; the command is then reaped within what is
 * left of the bound (one that closed its pipes and runs on is killed at
 * the bound). One that outlives SIGKILL (blocked in the kernel) is not
 * waited for: its pid and command go to stderr and into @p errtxt, and
 * the status is 124.
 */
int ccb_child_run_bounded(char *const argv[], char **env, uint64_t limit_msec, char *out,
                          size_t out_len, char *errtxt, size_t errtxt_len);

#endif
