/*
 * The connection ladder of the paths that talk to librados directly
 * (rados, librbd): connect, open the pool, hand the run state to the undo
 * log. Written once so the error handling and the exit-2 rules agree.
 */
#ifndef CCBENCH_PATH_CONN_H
#define CCBENCH_PATH_CONN_H

#include <ccbench/engine.h>

#include <rados/librados.h>

/**
 * Connect with run->opts into *@p ctl, then open @p pool (in namespace
 * @p ns unless NULL) into *@p io; record the fsid; push @p undo(@p state)
 * ("close the control connection") and make @p state run->path_data.
 * @p ctl and @p io point into @p state. @p tune, if given, sets options on
 * the connected handle before the pool opens.
 *
 * @p state is the callee's from the call on: on failure it is released
 * (@p discard before the undo is pushed, @p undo after), the reason is
 * printed, and run->bad_input says whether it was the user's input (a
 * bad option -EINVAL, no such pool -ENOENT).
 *
 * @return 0 or -errno.
 */
int ccb_path_connect(struct ccb_run *run, const char *pool, const char *ns, void (*tune)(rados_t),
                     rados_t *ctl, rados_ioctx_t *io, int (*undo)(void *), void (*discard)(void *),
                     void *state);

#endif
