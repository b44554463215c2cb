/*
 * The rbd path's command and option rows (rbd read|randread|write|randwrite|rw): its
 * registry row in src/paths/registry.c names them, and src/cli/cli.c lists
 * them in the registry's order. What the rows say is rendered as the help,
 * the man page, the completion and docs/commands.md.
 */
#include <ccbench/command.h>
#include <ccbench/option_rows.h>
#include <ccbench/path.h>

#include <ccbench/path_rbd.h>
#include "rbd_opts.h"

/* A field of this path's own options (struct ccb_rbd_opts). */
#define RBD_OFF(f) PATH_OFF(struct ccb_rbd_opts, f)

/* Defaults that differ by command, and how a default reads where no value
 * says it (see struct ccb_command). */
static const char *const rbd_defaults[] = {"queue-depth", "1",   "pool", "rbd",
                                           "io-size",     "64K", NULL};
static const char *const image_notes[] = {"duration", "one pass over the image", NULL};

#define RBD_MASK (CCB_CMD_CONN | CCB_CMD_OUTPUT)

const struct ccb_command ccb_rbd_commands[] = {
    {
        .name = "rbd read",
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

/* The options only this path's commands take (the image, its readahead and cache,
 * --sim-osd-latency): the shared ones are in src/options/options_table.c. */
const struct ccb_opt_desc ccb_rbd_options[] = {
    {.name = "image",
     .type = CCB_OPT_STR,
     .offset = RBD_OFF(image),
     .cmds = OWN,
     .argname = "POOL/NAME",
     .help = "use this existing image (read-only for read modes) instead of a temporary one",
     .flags = TARGET},
    {.name = "allow-write-existing",
     .type = CCB_OPT_FLAG,
     .offset = RBD_OFF(allow_write_existing),
     .cmds = OWN,
     .help = "let a write mode write into --image"},
    {.name = "pattern",
     .type = CCB_OPT_CHOICE,
     .offset = RBD_OFF(pattern),
     .def = "seq",
     .choices = CHOICES("seq", "rand"),
     .cmds = OWN,
     .help = "offsets for modes that do not say (rw)"},
    {.name = "rw-mix-read",
     .type = CCB_OPT_UINT,
     .offset = RBD_OFF(rw_mix_read_pct),
     .def = "50",
     .max = 100,
     .cmds = OWN,
     .argname = "PCT",
     .help = "share of reads in rw mode"},
    {.name = "readahead",
     .type = CCB_OPT_BYTES,
     .offset = RBD_OFF(readahead_bytes),
     .max = 1ull << 32,
     .cmds = OWN,
     .argname = "BYTES",
     .help = "rbd_readahead_max_bytes (0 disables)"},
    {.name = "readahead-trigger",
     .type = CCB_OPT_UINT,
     .offset = RBD_OFF(readahead_trigger),
     .min = 1,
     .max = 1u << 20,
     .cmds = OWN,
     .argname = "N",
     .help = "rbd_readahead_trigger_requests"},
    {.name = "readahead-disable-after",
     .type = CCB_OPT_BYTES,
     .offset = RBD_OFF(readahead_disable_after_bytes),
     .def = "0",
     .max = U64MAX,
     .cmds = OWN,
     .argname = "BYTES",
     .help = "rbd_readahead_disable_after_bytes (0: never)"},
    {.name = "cache-policy",
     .type = CCB_OPT_CHOICE,
     .offset = RBD_OFF(cache_policy),
     .choices = CHOICES("writeback", "writethrough", "writearound"),
     .cmds = OWN,
     .help = "rbd_cache_policy"},
    {.name = "cache-size",
     .type = CCB_OPT_BYTES,
     .offset = RBD_OFF(cache_size_bytes),
     .max = 1ull << 40,
     .cmds = OWN,
     .argname = "BYTES",
     .help = "rbd_cache_size"},
    {.name = "no-cache",
     .type = CCB_OPT_FLAG,
     .offset = RBD_OFF(no_cache),
     .cmds = OWN,
     .help = "rbd_cache=false"},
    {.name = NULL},
};
