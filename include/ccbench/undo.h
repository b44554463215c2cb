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
#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

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
 * process. The records of a run live in one file in DIR (see below)
 * (DIR: $CCB_STATE_DIR or /run/ccbench), rewritten before each change and
 * removed when the log unwinds cleanly. A later run finds the files of
 * dead processes, reports them, and `ccbench restore` undoes them.
 *
 * A run is known by pid + start time, the boot id and the PID namespace,
 * all in the file's name (run-PID-START-BOOT8-NS.json) and its top level
 * ({"ccbench_state": 2, "pid", "starttime", "boot_id", "pid_ns", "host",
 * "command" (redacted), "entries"}). Records of cluster-side changes are
 * also kept on the cluster (ccb_undo_push_cluster()), for a client host
 * that rebooted. Other files in DIR (locks, mount points) are left alone.
 */

/** Largest state file read back, in bytes: a larger one is skipped. */
#define CCB_UNDO_RECORD_MAX (1 << 20)

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
 * Refuse a state directory someone else could have written records into:
 * a symbolic link or not a directory, owned by neither root nor the euid,
 * or writable by its group or others. An absent one is fine (the first
 * record makes it, 0700). Called before any command touches the cluster.
 *
 * @return 0, or -EPERM with the reason (naming the directory) in @p err.
 */
int ccb_undo_state_dir_check(char *err, size_t err_len);

/**
 * Make the state directory (0700) if it is absent, then
 * ccb_undo_state_dir_check() it: for what goes there besides records
 * (device locks, fuse mount points and their logs).
 *
 * @return 0, -errno of mkdir, or -EPERM, with the reason in @p err.
 */
int ccb_undo_state_dir_ready(char *err, size_t err_len);

/** This boot's id (/proc/sys/kernel/random/boot_id), or "" when unknown. */
const char *ccb_undo_boot_id(void);

/** This process's PID namespace ("pid:[4026531836]"), or "". */
const char *ccb_undo_pid_ns(void);

/** This host's name, or "". */
const char *ccb_undo_host(void);

/**
 * Whether the run that @p id (an object with "pid", "starttime" and, when
 * recorded, "host", "boot_id", "pid_ns") names may still be running. A run
 * on another host, or in another PID namespace of this boot, cannot be
 * judged by its pid: it may be alive (*@p maybe_alive). A run of an earlier
 * boot of this host is gone. Otherwise the pid decides.
 *
 * @return NULL when the run is gone, else why it may be alive ("a live
 *         run", "a run on another host", "a run in another PID namespace").
 */
const char *ccb_undo_judge(const json_t *id, bool *maybe_alive);

/**
 * The state files of processes that are gone.
 *
 * @param out  an array of {"file", "pid", "command", "host", "entries": [record...]},
 *             entries in the order they were made (undo newest first);
 *             runs that may be alive elsewhere (see ccb_undo_judge()) are
 *             listed with "maybe_alive": why. Files that are not regular,
 *             too large or not state files are skipped with a line on
 *             stderr; none is ever opened in a way that could block.
 * @return 0 (also when the directory does not exist), -EPERM (the
 *         directory is refused, message on stderr), or -ENOMEM.
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

/*
 * Copies on the cluster (src/undo/undo_cluster.c): one mon config-key per
 * record, CCB_UNDO_CLUSTER_PREFIX BOOT_ID/PID-STARTTIME-HANDLE, holding
 * {"ccbench_cluster_record": 1, "run": {"host", "boot_id", "pid_ns",
 * "pid", "starttime", "command", "time"}, "record": {...}}, redacted.
 */
#define CCB_UNDO_CLUSTER_PREFIX "ccbench/run/"
/** Largest cluster copy written or read back, in bytes. */
#define CCB_UNDO_CLUSTER_MAX 65536

/**
 * Like ccb_undo_push_state(), and also keep the record (with its key as
 * "cluster_key") in the config-key store of the cluster @p cl is connected
 * to, so `ccbench restore -c CONF` finds it from any host. @p cl must stay
 * connected until the entry's undo has run (its free_arg may shut it
 * down). When the cluster refuses the copy, the run goes on with the
 * local record and a warning.
 *
 * @return a handle > 0, or -errno as ccb_undo_push_state().
 */
int ccb_undo_push_cluster(const char *what, ccb_undo_fn fn, void *arg, void (*free_arg)(void *),
                          json_t *record, rados_t cl);

/** The key of this run's record @p handle. @return 0 or -ENAMETOOLONG. */
int ccb_undo_cluster_key(char *buf, size_t len, int handle);

/**
 * Write @p record (redacted copy) under @p key, with this run's identity
 * and @p command (may be NULL). @return 0 or -errno (reason in @p err).
 */
int ccb_undo_cluster_put(rados_t cl, const char *key, const json_t *record, const json_t *command,
                         char *err, size_t err_len);

/** Remove @p key (absent is fine). @return 0 or -errno (reason in @p err). */
int ccb_undo_cluster_rm(rados_t cl, const char *key, char *err, size_t err_len);

/**
 * Every key under CCB_UNDO_CLUSTER_PREFIX with its value (a string), as
 * one object in *@p out.
 *
 * @return 0, or -errno of the mon command / -EBADMSG (reason in @p err).
 */
int ccb_undo_cluster_list(rados_t cl, json_t **out, char *err, size_t err_len);

/**
 * The keys under CCB_UNDO_CLUSTER_PREFIX of a `config-key dump` answer
 * (@p len bytes of JSON text), with their values, as one object in
 * *@p out; pure (fuzzed by tests/fuzz/fuzz_restore.c).
 *
 * @return 0, -EBADMSG (not a JSON object) or -ENOMEM (reason in @p err).
 */
int ccb_undo_cluster_parse(const char *text, size_t len, json_t **out, char *err, size_t err_len);

#endif
