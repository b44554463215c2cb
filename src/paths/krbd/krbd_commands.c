/*
 * The krbd path's command and option rows (krbd read|randread): its registry row in
 * src/paths/registry.c names them, and src/cli/cli.c lists them in the registry's order. What the
 * rows say is rendered as the help, the man page, the completion and docs/commands.md.
 */
#include <ccbench/command.h>
#include <ccbench/option_rows.h>
#include <ccbench/path.h>

#include "path_krbd.h"
#include "krbd_opts.h"

/* A field of this path's own options (struct ccb_krbd_opts). */
#define KRBD_OFF(f) PATH_OFF(struct ccb_krbd_opts, f)

/* Defaults that differ by command, and how a default reads where no value
 * says it (see struct ccb_command). */
static const char *const krbd_defaults[] = {"queue-depth", "1",   "pool", "rbd",
                                            "io-size",     "64K", NULL};
static const char *const device_notes[] = {"duration", "one pass over the device", NULL};

#define KRBD_MASK CCB_CMD_OUTPUT

const struct ccb_command ccb_krbd_commands[] = {
    {
        .name = "krbd read",
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
        .mask = KRBD_MASK,
        .mode = CCB_MODE_RAND,
        .defaults = krbd_defaults,
        .default_notes = device_notes,
        .summary = "random reads of a kernel block device",
        .description = "Reads a block device at random offsets; the device is named, mapped "
                       "or made as for krbd read.",
        .example = "ccbench krbd randread --device /dev/rbd0 --io-size 4K -d 30s",
    },
    {0},
};

/* The options only this path's commands take (the mapping, read_ahead_kb, the streams): the
 * shared ones are in src/options/options_table.c. */
const struct ccb_opt_desc ccb_krbd_options[] = {
    {.name = "map",
     .type = CCB_OPT_STR,
     .offset = KRBD_OFF(map),
     .cmds = OWN,
     .argname = "POOL/IMAGE",
     .help = "map this image for the run, unmap at the end",
     .flags = TARGET},
    {.name = "map-via",
     .type = CCB_OPT_CHOICE,
     .offset = KRBD_OFF(map_via),
     .def = "auto",
     .choices = CHOICES("auto", "kernel", "fuse-loop"),
     .cmds = OWN,
     .help = "how --map exposes the image"},
    {.name = "map-options",
     .type = CCB_OPT_STR,
     .offset = KRBD_OFF(map_options),
     .cmds = OWN,
     .argname = "OPTS",
     .help = "kernel map options (queue_depth=N,alloc_size=N,...)"},
    {.name = "read-ahead-kb",
     .type = CCB_OPT_UINT,
     .offset = KRBD_OFF(read_ahead_kb),
     .max = 1u << 20,
     .cmds = OWN,
     .argname = "KB",
     .help = "set /sys/block/DEV/queue/read_ahead_kb for the run (restored after)"},
    {.name = "offset",
     .type = CCB_OPT_BYTES,
     .offset = KRBD_OFF(offset_bytes),
     .def = "0",
     .max = U64MAX,
     .cmds = OWN,
     .argname = "BYTES",
     .help = "start reading at BYTES"},
    {.name = "streams",
     .type = CCB_OPT_UINT,
     .offset = KRBD_OFF(streams),
     .def = "1",
     .min = 1,
     .max = 256,
     .cmds = OWN,
     .argname = "N",
     .help = "readers on separate regions"},
    {.name = NULL},
};
