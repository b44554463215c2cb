/**
 * @file undo.h
 * The undo log: every change ccbench makes outside itself is registered
 * here, with the function that undoes it, before it is made. The log
 * unwinds in reverse on normal exit, on error and after a caught signal,
 * so paths never clean up by hand.
 */
#ifndef CCBENCH_UNDO_H
#define CCBENCH_UNDO_H

/** Undo one change. @return 0 or -errno (reported, the unwind goes on). */
typedef int (*ccb_undo_fn)(void *arg);

/**
 * Register the undo of a change about to be made.
 *
 * @param what   shown when the undo fails ("remove objects of run r1")
 * @param fn     the undo
 * @param arg    its argument, owned by the log from now on
 * @param free_arg called on @p arg after the undo runs or is dropped (may be NULL)
 * @return a handle > 0, or -ENOMEM.
 */
int ccb_undo_push(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *));

/** Forget entry @p handle without running it (the change is to be kept). */
void ccb_undo_drop(int handle);

/**
 * Run every entry, newest first, and empty the log.
 *
 * @return 0, or the first -errno an undo returned.
 */
int ccb_undo_unwind(void);

/** Entries still in the log. */
int ccb_undo_pending(void);

#endif
