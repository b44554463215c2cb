/**
 * @file sysfs.h
 * Block-device queue settings under /sys: resolving a device node to the
 * disk whose queue serves it, reading the queue limits, and changing
 * read_ahead_kb with its undo (and crash record) logged first.
 *
 * The sysfs root is "/sys" unless $CCB_SYSFS_ROOT names another directory,
 * so unit tests can build a fake tree in a temporary directory.
 */
#ifndef CCBENCH_SYSFS_H
#define CCBENCH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

/** The queue attributes a krbd result reports (UINT64_MAX: not present). */
struct ccb_queue_info {
	uint64_t read_ahead_kb;
	uint64_t optimal_io_size;
	uint64_t max_sectors_kb;
	uint64_t max_hw_sectors_kb;
	uint64_t nr_requests;
	uint64_t logical_block_size;
	uint64_t rotational;
};

/** $CCB_SYSFS_ROOT, or "/sys". */
const char *ccb_sysfs_root(void);

/**
 * Parse a sysfs attribute: a decimal integer, optionally followed by a
 * newline, nothing else.
 *
 * @return 0, or -EINVAL.
 */
int ccb_sysfs_parse_u64(const char *text, uint64_t *out);

/**
 * The first line of the attribute at @p path, newline cut, into @p buf;
 * "" when it cannot be read. Opened with O_NOFOLLOW.
 */
void ccb_sysfs_read_line(const char *path, char *buf, size_t len);

/**
 * Read a decimal attribute at @p path.
 *
 * @return 0, -EINVAL (not a number), or -errno of open/read.
 */
int ccb_sysfs_read_u64(const char *path, uint64_t *out);

/**
 * Write @p value to the attribute at @p path.
 *
 * @return 0 or -errno of open/write.
 */
int ccb_sysfs_write_u64(const char *path, uint64_t value);

/**
 * The disk that serves block device @p name ("sda1" -> "sda", "loop0" ->
 * "loop0"): a partition's queue is its parent's, found as
 * ROOT/class/block/NAME/.. when ROOT/class/block/NAME/partition exists.
 *
 * @param root  sysfs root (ccb_sysfs_root() in production)
 * @return 0, -ENOENT (no such block device in sysfs), -ENAMETOOLONG.
 */
int ccb_sysfs_disk_of_name(const char *root, const char *name, char *disk, size_t disk_len);

/**
 * Like ccb_sysfs_disk_of_name() for a device number, through
 * ROOT/dev/block/MAJ:MIN; @p name (may be NULL) gets the device's own
 * name (the partition's, for a partition).
 *
 * @return 0, -ENOENT, -ENAMETOOLONG.
 */
int ccb_sysfs_disk_of_devt(const char *root, dev_t devt, char *name, size_t name_len, char *disk,
                           size_t disk_len);

/** Path of ROOT/block/DISK/queue/ATTR into @p buf (truncated paths fail later, at open). */
void ccb_sysfs_queue_attr(const char *root, const char *disk, const char *attr, char *buf,
                          size_t len);

/**
 * Read the queue attributes of @p disk. Missing attributes read as
 * UINT64_MAX; only read_ahead_kb is required.
 *
 * @return 0, or -errno reading read_ahead_kb.
 */
int ccb_sysfs_queue_info(const char *root, const char *disk, struct ccb_queue_info *qi);

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

/**
 * Whether @p name can be a kernel block device name ("sda1", "loop0",
 * "nvme0n1", "dm-0"): 1 to 31 of [A-Za-z0-9_-], not starting with '-'.
 * Names from a record are checked with it before they go into a path.
 */
bool ccb_sysfs_valid_disk_name(const char *name);

/**
 * Whether kernel rbd device @p id (ROOT/bus/rbd/devices/ID) maps
 * @p pool / @p image at @p snap ("-" for the image head, as the driver
 * writes current_snap).
 */
bool ccb_sysfs_rbd_maps(const char *root, unsigned id, const char *pool, const char *image,
                        const char *snap);

/**
 * The kernel rbd devices that map @p pool / @p image at @p snap, in
 * ROOT/bus/rbd/devices: how a mapping whose `rbd device map` was
 * interrupted (or never printed its device) is found.
 *
 * @param ids  receives up to @p max ids, ascending
 * @return the number found (may exceed @p max; only @p max are stored),
 *         0 when there is no rbd bus, or -ENOMEM.
 */
int ccb_sysfs_rbd_find(const char *root, const char *pool, const char *image, const char *snap,
                       unsigned *ids, size_t max);

#endif
