/*
 * The krbd path's command rows (krbd read|randread, and restore under
 * its older name): its registry row in src/paths/registry.c names them, and
 * src/cli.c lists them in the registry's order. What the rows say is
 * rendered as the help, the man page, the completion and docs/commands.md.
 */
#include <ccbench/cli.h>
#include <ccbench/path.h>

#include "krbd_commands.h"

/* Defaults that differ by command, and how a default reads where no value
 * says it (see struct ccb_command). */
static const char *const krbd_defaults[] = {"queue-depth", "1",   "pool", "rbd",
                                            "io-size",     "64K", NULL};
static const char *const device_notes[] = {"duration", "one pass over the device", NULL};

#define KRBD_MASK (CCB_CMD_KRBD | CCB_CMD_OUTPUT)

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
