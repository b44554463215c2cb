/**
 * @file undo.h
 * The undo log: every change ccbench makes outside itself is registered
 * here, with the function that undoes it, before it is made. The log
 * unwinds in reverse on normal exit, on error and after a caught signal,
 * so paths never clean up by hand.
 */
#ifndef CCBENCH_UNDO_H
#define CCBENCH_UNDO_H

#include <jansson.h>

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

/** The current depth of the log, for ccb_undo_unwind_to(). */
int ccb_undo_mark(void);

/**
 * Run the entries pushed since @p mark, newest first, and keep older
 * ones (a sweep's image outlives each point). A mark of 0 is a full
 * ccb_undo_unwind().
 *
 * @return 0, or the first -errno an undo returned.
 */
int ccb_undo_unwind_to(int mark);

/**
 * Run entry @p handle now (not at the unwind) and forget it: for a path
 * that must put a setting back before it reports the value "after".
 *
 * @return the undo's result, or -ENOENT when there is no such entry.
 */
int ccb_undo_run(int handle);

/**
 * Say how to undo entry @p handle by hand, as a command a user can run
 * ("rbd rm rbd/ccbench-img-1"): printed when a third signal gives up the
 * unwind. Entries with a record and no hint say `ccbench restore`.
 *
 * @return 0, or -ENOENT when there is no such entry.
 */
int ccb_undo_set_hint(int handle, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * A terminating signal arrived, the @p n th of the run (1 for the one that
 * stopped it); called from the signal handler, so async-signal-safe. 1
 * does nothing (the run stops and unwinds). 2 writes to stderr what is
 * still to be undone, the entry running first. 3 or more gives up: writes
 * every entry not yet undone with how to undo it by hand, and _exit()s
 * 128 + @p first_signo; the crash state file stays for `ccbench restore`.
 */
void ccb_undo_on_signal(int n, int first_signo);

/**
 * The text ccb_undo_on_signal(@p n, ...) would write after its header, as
 * of now (for the tests): n == 2 what is still to be undone, n >= 3 what
 * would be left and how to remove it.
 */
const char *ccb_undo_signal_text(int n);

/*
 * The crash state file. Entries a death ccbench cannot catch (SIGKILL,
 * power) would strand outside the process -- a read_ahead_kb value, a
 * mapping, a fuse mount, a loop device -- are pushed with a record, a JSON
 * object {"kind": ..., ...} describing how to undo them from another
 * process. The records of a run live in one file, DIR/run-PID-START.json
 * (DIR: $CCB_STATE_DIR or /run/ccbench), rewritten before each change and
 * removed when the log unwinds cleanly. A later run finds the files of
 * dead processes, reports them, and `ccbench restore` undoes them.
 */

/**
 * Like ccb_undo_push(), and also write @p record (stolen, with "what"
 * added) to this run's state file before returning, so the change can be
 * made only once a crash would leave a record of it.
 *
 * @return a handle > 0, or -errno (the state file could not be written,
 *         message on stderr; @p arg has been freed with @p free_arg).
 */
int ccb_undo_push_state(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *),
                        json_t *record);

/**
 * Set @p key of entry @p handle's record to @p value (stolen) and rewrite
 * the state file: for facts known only once the change is made (a pid).
 *
 * @return 0, -ENOENT (no such entry or no record), or -errno of the write.
 */
int ccb_undo_state_set(int handle, const char *key, json_t *value);

/** The state directory: $CCB_STATE_DIR, or /run/ccbench. */
const char *ccb_undo_state_dir(void);

/**
 * The state files of processes that are gone.
 *
 * @param out  an array of {"file", "pid", "command", "entries": [record...]},
 *             entries in the order they were made (undo newest first)
 * @return 0 (also when the directory does not exist), or -ENOMEM.
 */
int ccb_undo_state_stranded(json_t **out);

/**
 * Warn on stderr about every stranded record (one line each, then how to
 * undo them). Called at the start of a run.
 *
 * @return the number of stranded records.
 */
int ccb_undo_state_report(void);

/**
 * Rewrite stranded state file @p file with the records that are still
 * to be undone, or remove it when @p remaining is empty.
 *
 * @return 0 or -errno.
 */
int ccb_undo_state_resolve(const char *file, json_t *remaining);

#endif
