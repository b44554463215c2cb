/*
 * The rados path's command and option rows (rados write|seq|rand and cleanup): its
 * registry row in src/paths/registry.c names them, and src/cli/cli.c lists
 * them in the registry's order. What the rows say is rendered as the help,
 * the man page, the completion and docs/commands.md.
 */
#include <ccbench/command.h>
#include <ccbench/option_rows.h>
#include <ccbench/path.h>
#include "path_rados.h"

#include "path_rados.h"
#include "rados_opts.h"

/* A field of this path's own options (struct ccb_rados_opts). */
#define RADOS_OFF(f) PATH_OFF(struct ccb_rados_opts, f)

#define RADOS_MASK (CCB_CMD_CONN | CCB_CMD_OUTPUT)

const struct ccb_command ccb_rados_commands[] = {
    {
        .name = "rados write",
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
        .mask = RADOS_MASK,
        .mode = CCB_MODE_SEQ,
        .summary = "read a kept write run's objects in order",
        .description = "Reads each object of a write run kept with --no-cleanup (--run-name) "
                       "once, in order, and checks its header unless --no-verify.",
        .example = "ccbench rados seq -p rbd --run-name r1",
    },
    {
        .name = "rados rand",
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

/* The options only this path's commands take (--max-objects, --no-cleanup, --no-verify): the
 * shared ones are in src/options/options_table.c. */
const struct ccb_opt_desc ccb_rados_options[] = {
    {.name = "max-objects",
     .type = CCB_OPT_UINT,
     .offset = RADOS_OFF(max_objects),
     .min = 1,
     .max = 1ull << 40,
     .cmds = OWN,
     .argname = "N",
     .help = "stop writing after N objects"},
    {.name = "no-cleanup",
     .type = CCB_OPT_FLAG,
     .offset = RADOS_OFF(no_cleanup),
     .cmds = OWN,
     .help = "keep the objects written (for seq/rand)"},
    {.name = "no-verify",
     .type = CCB_OPT_FLAG,
     .offset = RADOS_OFF(no_verify),
     .cmds = OWN,
     .help = "do not check object headers on reads"},
    {.name = NULL},
};
