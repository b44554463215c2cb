/*
 * The command rows of the paths whose folders hold no rows of their own
 * yet: each list is named by its path's row in registry.c, and src/cli.c
 * puts them in its table in the registry's order, before its own rows.
 * A new path keeps its rows in its own folder (src/paths/null/).
 */
#include <ccbench/cli.h>
#include <ccbench/path.h>
#include <ccbench/path_rados.h>
#include "path_commands.h"

/* Defaults that differ by command, and how a default reads where no value
 * says it (see struct ccb_command). */
static const char *const rbd_defaults[] = {"queue-depth", "1",   "pool", "rbd",
                                           "io-size",     "64K", NULL};
static const char *const krbd_defaults[] = {"queue-depth", "1",   "pool", "rbd",
                                            "io-size",     "64K", NULL};
static const char *const fs_defaults[] = {"block-size", "4M", NULL};
static const char *const image_notes[] = {"duration", "one pass over the image", NULL};
static const char *const device_notes[] = {"duration", "one pass over the device", NULL};
static const char *const file_notes[] = {"duration", "the whole file", NULL};
static const char *const meta_notes[] = {"duration", "every file once", NULL};

#define RADOS_MASK (CCB_CMD_CONN | CCB_CMD_RADOS | CCB_CMD_OUTPUT)
#define RBD_MASK   (CCB_CMD_CONN | CCB_CMD_RBD | CCB_CMD_OUTPUT)
#define KRBD_MASK  (CCB_CMD_KRBD | CCB_CMD_OUTPUT)
#define FS_MASK    (CCB_CMD_FS | CCB_CMD_OUTPUT)

const struct ccb_command ccb_rados_commands[] = {
    {
        .name = "rados write",
        .ops = &ccb_path_rados,
        .mask = RADOS_MASK,
        .mode = CCB_MODE_WRITE,
        .summary = "write objects through librados (like rados bench write)",
        .description =
            "Writes objects of --op-size through librados, --queue-depth in flight per client, "
            "each of --clients on a connection of its own, for --duration or --total "
            "(whichever comes first). The objects live in their own RADOS namespace (-N) under "
            "a run name, each with a header that rados seq and rand verify; they are removed "
            "at the end unless --no-cleanup keeps them for a read run.",
        .example = "ccbench rados write -p rbd -d 30s -t 32 --clients 4",
    },
    {
        .name = "rados seq",
        .ops = &ccb_path_rados,
        .mask = RADOS_MASK,
        .mode = CCB_MODE_SEQ,
        .summary = "read a kept write run's objects in order",
        .description = "Reads each object of a write run kept with --no-cleanup (--run-name) "
                       "once, in order, and checks its header unless --no-verify.",
        .example = "ccbench rados seq -p rbd --run-name r1",
    },
    {
        .name = "rados rand",
        .ops = &ccb_path_rados,
        .mask = RADOS_MASK,
        .mode = CCB_MODE_RAND,
        .summary = "read a kept write run's objects at random",
        .description = "Reads the objects of a write run kept with --no-cleanup (--run-name) "
                       "at random, for --duration or --total.",
        .example = "ccbench rados rand -p rbd --run-name r1 -d 30s",
    },
    {
        .name = "cleanup",
        .mask = CCB_CMD_CONN | CCB_CMD_CLEANUP,
        .mode = CCB_MODE_WRITE,
        .run = ccb_rados_cleanup_run,
        .summary = "remove the objects a run left (--run-name NAME or --all-runs)",
        .description =
            "Removes the objects of a kept or interrupted rados run: --run-name NAME when "
            "NAME.meta carries ccbench's header (--force: without it), or --all-runs, every "
            "ccbench run in the namespace. Objects without ccbench's names are never touched.",
        .example = "ccbench cleanup -p rbd --run-name r1",
    },
    {0},
};

const struct ccb_command ccb_rbd_commands[] = {
    {
        .name = "rbd read",
        .ops = &ccb_path_rbd,
        .mask = RBD_MASK,
        .mode = CCB_MODE_SEQ,
        .defaults = rbd_defaults,
        .default_notes = image_notes,
        .summary = "sequential reads of an image through librbd",
        .description =
            "Reads an image in order through librbd, by default at depth 1 like dd or a "
            "booting VM. Without --image it creates a temporary image (--size, --order or "
            "--object-size, striping, features), fills it with data and removes it at the end "
            "unless --keep; --image POOL/NAME reads an existing image, opened read-only. The "
            "readahead and cache options set librbd's rbd_readahead_* and rbd_cache_*; the "
            "values librbd really used are read back into the result.",
        .example = "ccbench rbd read --size 1G --readahead 4M --sim-osd-latency 2ms",
    },
    {
        .name = "rbd randread",
        .ops = &ccb_path_rbd,
        .mask = RBD_MASK,
        .mode = CCB_MODE_RAND,
        .defaults = rbd_defaults,
        .default_notes = image_notes,
        .summary = "random reads of an image through librbd",
        .description = "Reads an image at random offsets through librbd; the image is made "
                       "or named as for rbd read.",
        .example = "ccbench rbd randread --image rbd/vm1 -t 32 --io-size 4K -d 30s",
    },
    {
        .name = "rbd write",
        .ops = &ccb_path_rbd,
        .mask = RBD_MASK,
        .mode = CCB_MODE_WRITE,
        .defaults = rbd_defaults,
        .default_notes = image_notes,
        .summary = "sequential writes through librbd",
        .description = "Writes an image in order through librbd: a temporary image, or an "
                       "existing --image only with --allow-write-existing.",
        .example = "ccbench rbd write --order 22 --io-size 4M -t 16 --total 4G",
    },
    {
        .name = "rbd randwrite",
        .ops = &ccb_path_rbd,
        .mask = RBD_MASK,
        .mode = CCB_MODE_RANDWRITE,
        .defaults = rbd_defaults,
        .default_notes = image_notes,
        .summary = "random writes through librbd",
        .description = "Writes an image at random offsets through librbd; the image is made "
                       "or named as for rbd write.",
        .example = "ccbench rbd randwrite --io-size 4K -t 32 -d 30s",
    },
    {
        .name = "rbd rw",
        .ops = &ccb_path_rbd,
        .mask = RBD_MASK,
        .mode = CCB_MODE_RW,
        .defaults = rbd_defaults,
        .default_notes = image_notes,
        .summary = "mixed reads and writes (--rw-mix-read, --pattern)",
        .description = "Mixes reads and writes through librbd: --rw-mix-read percent of the "
                       "I/Os read, at --pattern seq or rand offsets.",
        .example = "ccbench rbd rw --pattern rand --rw-mix-read 70 -t 8 -d 30s",
    },
    {0},
};

const struct ccb_command ccb_krbd_commands[] = {
    {
        .name = "krbd read",
        .ops = &ccb_path_krbd,
        .mask = KRBD_MASK,
        .mode = CCB_MODE_SEQ,
        .defaults = krbd_defaults,
        .default_notes = device_notes,
        .summary = "sequential reads of a kernel block device (read_ahead_kb set, then "
                   "restored)",
        .description =
            "Reads a block device in order: --device (any block device, opened read-only), "
            "--map POOL/IMAGE (mapped for the run through the kernel's rbd driver or rbd-fuse "
            "and a loop device, see --map-via, and unmapped after), or else a temporary image "
            "laid out as for rbd read, filled, mapped and removed. --read-ahead-kb sets the "
            "device's read_ahead_kb for the run and restores it after. Reads go through the "
            "page cache (dropped first) or, with --direct, O_DIRECT through io_uring.",
        .example = "ccbench krbd read --map rbd/vm1 --read-ahead-kb 4096",
    },
    {
        .name = "krbd randread",
        .ops = &ccb_path_krbd,
        .mask = KRBD_MASK,
        .mode = CCB_MODE_RAND,
        .defaults = krbd_defaults,
        .default_notes = device_notes,
        .summary = "random reads of a kernel block device",
        .description = "Reads a block device at random offsets; the device is named, mapped "
                       "or made as for krbd read.",
        .example = "ccbench krbd randread --device /dev/rbd0 --io-size 4K -d 30s",
    },
    {
        .name = "krbd restore",
        .mask = CCB_CMD_RESTORE,
        .mode = CCB_MODE_SEQ,
        .summary = "the same as restore (its older name)",
        .description = "The same as ccbench restore, under the name it had before CephFS mounts "
                       "and OSD latency injection were recorded too.",
        .example = "ccbench krbd restore",
    },
    {0},
};

const struct ccb_command ccb_cephfs_commands[] = {
    {
        .name = "fs write",
        .ops = &ccb_path_cephfs,
        .mask = FS_MASK,
        .defaults = fs_defaults,
        .mode = CCB_MODE_WRITE,
        .default_notes = file_notes,
        .summary = "dd-style file writes, one file per client (libcephfs or a mount)",
        .description =
            "Writes one file per client, dd-style: --block-size per call up to --file-size, "
            "each client on a mount of its own, the final fsync inside the measured time. "
            "The client is libcephfs in ccbench, or with --mount-via fuse|kernel a ceph-fuse "
            "or kernel mount ccbench makes per client and takes down at the end, or with "
            "--mount DIR any mounted directory (POSIX calls). The files go under --dir, which "
            "the run creates and removes at the end unless --keep; an existing directory is "
            "used only with --reuse.",
        .example = "ccbench fs write --file-size 1G --block-size 4M --clients 2",
    },
    {
        .name = "fs read",
        .ops = &ccb_path_cephfs,
        .mask = FS_MASK,
        .defaults = fs_defaults,
        .mode = CCB_MODE_SEQ,
        .default_notes = file_notes,
        .summary = "dd-style cold file reads, one file per client (libcephfs or a mount)",
        .description =
            "Reads one file per client, cold: through libcephfs from a fresh mount, or through "
            "a mount (--mount-via, --mount) with each file dropped from the page cache first "
            "(or --direct, O_DIRECT). Without --dir it first writes the files (not measured); "
            "--dir with --reuse reads the files a fs write --keep left there.",
        .example = "ccbench fs read --mount-via fuse --clients 2 --file-size 1G",
    },
    {
        .name = "fs meta",
        .ops = &ccb_path_cephfs_meta,
        .mask = FS_MASK,
        .defaults = fs_defaults,
        .mode = CCB_MODE_RW,
        .default_notes = meta_notes,
        .summary = "bonnie++-style small-file create, stat+read, delete rates",
        .description =
            "Creates, stats and reads, then deletes small files through libcephfs as "
            "bonnie++ -n does, in order and then at random, and reports each phase's rate and "
            "latencies. --files N:MAX:MIN:DIRS (or -n with no dot in it) asks for N x 1024 "
            "files of MIN to MAX bytes over DIRS directories.",
        .example = "ccbench fs meta -n 1:4k:1k:4",
    },
    {0},
};
