/**
 * @file sysfs.h
 * Block devices under /sys, read only: resolving a device node to the
 * disk whose queue serves it, reading the queue limits and the kernel rbd
 * driver's mappings. Changing read_ahead_kb is read_ahead.h.
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
