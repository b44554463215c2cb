/**
 * @file mapping.h
 * Exposing an RBD image as a kernel block device for the run: through the
 * kernel rbd driver where it exists, or as rbd-fuse + a read-only loop
 * device ("fuse-loop") where it does not. Every step logs its undo, with a
 * crash record, before it is made; `ccbench restore` undoes the
 * records of a killed run with ccb_map_restore().
 */
#ifndef CCBENCH_MAPPING_H
#define CCBENCH_MAPPING_H

#include <ccbench/restore.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <jansson.h>
#include <rados/librados.h>

#include <ccbench/options.h>

enum ccb_map_via {
	CCB_MAP_KERNEL,    /**< rbd device map --read-only */
	CCB_MAP_FUSE_LOOP, /**< rbd-fuse, then a read-only loop device over its file */
};

struct ccb_mapping {
	enum ccb_map_via via;
	char pool[128];
	char image[128];
	char dev[64];           /**< /dev/rbdN or /dev/loopN */
	char backing[PATH_MAX]; /**< fuse-loop: the image file under the mount */
	char mountpoint[PATH_MAX];
	char fuse_log[PATH_MAX]; /**< rbd-fuse's stderr */
	bool log_made;           /**< fuse_log was created by us (O_EXCL) */
	pid_t fuse_pid;
	int loop_fd;           /**< held open: the loop device autoclears on our death */
	int backing_fd;        /**< fuse-loop: @c backing, held for cache drops (or -1) */
	bool detach_stuck;     /**< fuse-loop: the loop still held the file after its detach */
	char options[512];     /**< kernel: the -o given to rbd device map ("" for none) */
	char ms_mode[32];      /**< kernel: ms_mode in @c options, "" when none is passed */
	char ms_mode_why[256]; /**< kernel: why that ms_mode (given, or chosen and why) */
	/** kernel: the mode the map uses (@c ms_mode, or "legacy" where no ms_mode
	 *  means legacy), "" when unknown */
	char ms_mode_used[32];
	char rbd_version[64]; /**< kernel: the rbd CLI's version ("" if unknown) */
	bool noudev;          /**< kernel: noudev added (no udev daemon on this host) */
};

/** Some monitor has a msgr v1 address (ccb_map_mons_msgr()). */
#define CCB_MONS_V1 1
/** Some monitor has a msgr v2 address (ccb_map_mons_msgr()). */
#define CCB_MONS_V2 2
/** The first release whose `rbd device map` defaults to msgr v2 (Tentacle). */
#define CCB_RBD_MSGR2_MAJOR 20

/**
 * What the monitors of @p cl advertise: the mon map's address types
 * (a read-only mon command, bounded by --connect-timeout).
 *
 * @return CCB_MONS_V1 | CCB_MONS_V2 of the kinds some monitor has, or
 *         -errno when the mon map could not be read.
 */
int ccb_map_mons_msgr(rados_t cl);

/**
 * The release of the rbd CLI that maps: `rbd --version` (local, no
 * cluster). Its version string goes into @p version.
 *
 * @return its major version, or -errno (it could not be run or said no
 *         version).
 */
int ccb_map_rbd_cli_version(const struct ccb_opts *o, char *version, size_t len);

/**
 * The map options for `rbd device map -o`: @p given (--map-options, may be
 * NULL) plus what this host and cluster need: noudev when no udev daemon
 * runs (rbd would wait for its event forever), and, when @p given sets no
 * ms_mode: prefer-crc when the mons speak v2 only (legacy cannot talk to
 * them); legacy when they speak v1 only and the rbd CLI (@p rbd_major, -1
 * unknown) is Tentacle 20 or later, which would pick msgr v2; else the
 * CLI's default, prefer-crc passed explicitly from Tentacle 20 on, nothing
 * (legacy) before. Pure: no I/O.
 *
 * @param mons          ccb_map_mons_msgr(), or -errno when unknown
 * @param udev_running  whether a udev daemon runs (/run/udev/control)
 * @param m             receives options, ms_mode, ms_mode_used, ms_mode_why, noudev
 * @return 0, or -ENAMETOOLONG.
 */
int ccb_map_kernel_options(const char *given, int mons, int rbd_major, bool udev_running,
                           struct ccb_mapping *m);

/**
 * Refuse --map-options (@p given, may be NULL) that carry key material: an
 * option ccb_redact_text() changes (secret=, key=, a bare ceph key). No
 * rbd CLI takes a key among its map options (16.2.15 refuses secret= as
 * an unknown map option, in -o and rbd_default_map_options alike), and on
 * rbd's argv any local user would read it; the key goes by the keyring.
 *
 * @return 0, -EINVAL with the option, redacted, in @p err, or -ENOMEM.
 */
int ccb_map_options_check(const char *given, char *err, size_t err_len);

/** "kernel" or "fuse-loop". */
const char *ccb_map_via_name(enum ccb_map_via via);

/**
 * Decide how --map-via (auto|kernel|fuse-loop) maps on this host, changing
 * nothing: auto takes the kernel driver where /sys/bus/rbd exists, else
 * fuse-loop. --map-options with a key are refused first
 * (ccb_map_options_check()).
 *
 * @return 0, or -EINVAL (a key in --map-options, neither way works, or
 *         the requested way does not; the reason in @p err), -ENOMEM.
 */
int ccb_map_choose(const struct ccb_opts *o, enum ccb_map_via *via, char *err, size_t err_len);

/**
 * Map POOL/IMAGE read-only. The undo entries unmap in reverse (loop
 * detach, fuse unmount, rbd-fuse exit) whenever the log unwinds.
 * Kernel mappings go through `rbd device map --read-only`, which finds the
 * monitors and the key as every ceph CLI does (-c, CEPH_ARGS with --name,
 * --id, --keyring and --set), with the options of ccb_map_kernel_options().
 *
 * @param mons  ccb_map_mons_msgr() of the cluster (kernel only)
 * @param out  the mapping, owned by the undo log (valid until it unwinds)
 * @return 0, or -errno with the reason in @p err.
 */
int ccb_map(const struct ccb_opts *o, enum ccb_map_via via, const char *pool, const char *image,
            int mons, struct ccb_mapping **out, char *err, size_t err_len);

/**
 * Drop the page cache of the layer under the device (the fuse file of a
 * fuse-loop mapping), so a buffered loop cannot serve a pass from memory.
 *
 * @return 0 or -errno.
 */
int ccb_map_drop_backing_cache(const struct ccb_mapping *m);

/**
 * Like ccb_map_drop_backing_cache() for the bytes under device range
 * [@p offset, @p offset + @p len) only (a stream's region, before its next
 * pass). A loop device maps its offsets 1:1 onto the file.
 *
 * @return 0 or -errno.
 */
int ccb_map_drop_backing_range(const struct ccb_mapping *m, uint64_t offset, uint64_t len);

/**
 * Whether kernel rbd device @p id (ROOT/bus/rbd/devices/ID) is provably
 * the one a failed `rbd device map --read-only -o @p options` of ours
 * added: it maps @p pool / @p image at the head, and the driver's record
 * of its request (config_info, read and wiped, never shown) is read-only
 * ("ro"), by @p entity ("client.admin" -> name=admin), and has each of
 * @p options (bar noudev/udev, which the CLI keeps). The reason it is not
 * goes into @p why.
 */
bool ccb_map_krbd_is_ours(const char *root, unsigned id, const char *pool, const char *image,
                          const char *options, const char *entity, char *why, size_t why_len);

/**
 * Undo one crash record a killed run left ("loop", "fuse", "krbd_map",
 * "fs_mount": a CephFS mount of --mount-via, see src/paths/fs_mount.h),
 * after checking it has the shape ccbench writes (/dev/loopN over a file
 * under DIR/mnt-XXXXXX/, a mount point DIR/mnt-XXXXXX with its log
 * DIR/mnt-XXXXXX.log, /dev/rbdN; DIR the state directory) and still names
 * what that run made: a loop device still backed by that file, a mount
 * still rbd-fuse's, a process still rbd-fuse, an rbd device still mapping
 * the recorded pool/image/snap.
 *
 * @return 0 (undone or already gone; what happened in @p msg), -EINVAL
 *         (an invalid record: nothing touched, why in @p msg), -ENOTSUP
 *         (not a mapping record), or -errno.
 */
int ccb_map_restore(const json_t *record, char *msg, size_t msg_len);

/** The crash record kinds of mappings and read_ahead_kb values, for restore. */
extern const struct ccb_undo_kind ccb_krbd_undo_kinds[];

#endif
