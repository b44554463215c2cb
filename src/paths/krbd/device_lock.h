/*
 * One tuner per block device (device_lock.c): a run that changes a queue
 * setting of a device (read_ahead_kb) holds DIR/dev-MAJ:MIN.lock (DIR the
 * state directory) flock'd for as long as its value stands, and a second
 * run on the same device is refused before it changes anything. The file
 * holds who has it: {"ccbench_devlock": 1, "pid", "boot_id", "device",
 * "disk", "command" (redacted)}; the flock, not the record, says whether
 * its holder is alive, so no pid is ever judged across PID namespaces or
 * boots. Private to src/paths (sysfs.c uses it; the unit tests include it).
 */
#ifndef CCBENCH_DEVICE_LOCK_H
#define CCBENCH_DEVICE_LOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/** Who holds (or last held) a device lock, as its file says. */
struct ccb_devlock_rec {
	long pid;
	char boot_id[40];
	char device[24]; /* "MAJ:MIN" */
	char disk[32];
	char command[512]; /* redacted, control characters as '?' */
};

/** A held device lock (opaque). */
struct ccb_devlock;

/** Largest lock file read; a longer one is not a record of ccbench's. */
#define CCB_DEVLOCK_MAX 4096

/**
 * Parse the text of a lock file (@p len bytes, not necessarily
 * terminated): it comes from a file, so everything is checked (pid 1 to
 * INT32_MAX, boot id of hex digits and '-', device "MAJ:MIN", a valid
 * disk name) and the command is cut and made printable.
 *
 * @return 0, -ENODATA (empty: a lock nobody recorded in), or -EINVAL.
 */
int ccb_devlock_parse(const char *text, size_t len, struct ccb_devlock_rec *rec);

/**
 * The record this process writes: its pid, the boot id of
 * /proc/sys/kernel/random/boot_id, its /proc/self/cmdline redacted
 * (ccb_redact_text() on each argument) and @p devt / @p disk.
 *
 * @return a new JSON text (free()), or NULL on ENOMEM.
 */
char *ccb_devlock_record(dev_t devt, const char *disk);

/**
 * Take the lock of block device @p devt (@p disk names it in messages)
 * in the state directory (made 0700 if need be, refused if others could
 * write to it), without waiting. The file is opened O_NOFOLLOW|O_CREAT
 * 0600 and must be a regular file of root's (or ours) that nobody else
 * can write; a name replaced between open and flock is opened again.
 *
 * @param stale  when not NULL, set to whether the file held the record of
 *               a run that ended without releasing it (filled in @p prev)
 * @param prev   may be NULL; the holder (-EBUSY) or the stale record
 * @return 0, -EBUSY (another process holds it: who, in @p err and @p prev),
 *         -EPERM (not a lock file of ccbench's), or -errno, with the
 *         reason in @p err.
 */
int ccb_devlock_acquire(dev_t devt, const char *disk, struct ccb_devlock **out, bool *stale,
                        struct ccb_devlock_rec *prev, char *err, size_t err_len);

/** Whether @p rec was written during this boot (a setting from an earlier
 *  one is gone with it). */
bool ccb_devlock_same_boot(const struct ccb_devlock_rec *rec);

/** Remove the lock file and let the lock go (NULL: nothing). */
void ccb_devlock_release(struct ccb_devlock *l);

/**
 * The device number of @p disk from ROOT/block/DISK/dev ("7:0").
 *
 * @return 0, -ENOENT (no such disk), or -EINVAL (unparsable).
 */
int ccb_devlock_disk_devt(const char *root, const char *disk, dev_t *devt);

#endif
