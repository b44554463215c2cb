/**
 * @file read_ahead.h
 * A run's read_ahead_kb: set with its undo (and crash record) logged
 * first, one run per device at a time, and put back only while it still
 * holds the value ccbench set.
 */
#ifndef CCBENCH_READ_AHEAD_H
#define CCBENCH_READ_AHEAD_H

#include <stddef.h>
#include <stdint.h>

/**
 * Set read_ahead_kb of @p disk for the run. The device's lock (one tuner
 * per device, see src/paths/device_lock.h) is taken first and held until
 * the undo ran; then the original value is read, and the undo is
 * registered in the undo log and the crash state file before the new
 * value is written. The undo writes the original back only while the
 * device still holds the value set (ccb_sysfs_restore_decision()), and
 * otherwise says on stderr that it left it.
 *
 * @param before  the original value
 * @param during  the value the kernel reports after the write (it rounds
 *                to whole pages)
 * @param handle  the undo entry, for ccb_undo_run()
 * @return 0, -EBUSY (another run tunes the device: its pid and command
 *         in @p err), or -errno of the lock, read or write, with the
 *         message in @p err
 *         ("write /sys/block/loop0/queue/read_ahead_kb: Permission denied").
 */
int ccb_sysfs_set_read_ahead_kb(const char *disk, uint64_t kb, uint64_t *before, uint64_t *during,
                                int *handle, char *err, size_t err_len);

/** What a restore does with a setting (ccb_sysfs_restore_decision()). */
enum ccb_sysfs_restore {
	CCB_SYSFS_WRITE_BACK, /**< still the value the run set: put the original back */
	CCB_SYSFS_ALREADY,    /**< already the original: nothing to do */
	CCB_SYSFS_CHANGED,    /**< changed by someone else since: left as is */
};

/**
 * The "still ours" rule of every restore, in process and after a crash:
 * a setting is written back only while it holds the value the run set
 * (@p set, as the kernel reported it after the write).
 */
enum ccb_sysfs_restore ccb_sysfs_restore_decision(uint64_t now, uint64_t original, uint64_t set);

/** The message of a setting left as is: "read_ahead_kb of DISK: changed by
 *  someone else since ccbench set it: now X, ccbench set Y, was Z; left as is". */
void ccb_sysfs_changed_msg(const char *disk, uint64_t now, uint64_t set, uint64_t original,
                           char *msg, size_t msg_len);

/**
 * Put back a read_ahead_kb a killed run left (from its state record):
 * only when the current value is still the one that run set, so a later
 * change by someone else is kept (and said). Done under the device's lock:
 * while a live run tunes the device, nothing is touched.
 *
 * @return 0 (restored, or nothing to do; what happened in @p msg),
 *         -EBUSY (a live run holds the device), or -errno, with the
 *         reason in @p msg.
 */
int ccb_sysfs_restore_read_ahead_kb(const char *disk, uint64_t original, uint64_t set_kb, char *msg,
                                    size_t msg_len);

#endif
