/*
 * The fs path's command and option rows (fs write|read|meta): its registry row in
 * src/paths/registry.c names them, and src/cli/cli.c lists them in the
 * registry's order. What the rows say is rendered as the help, the man
 * page, the completion and docs/commands.md.
 */
#include <ccbench/command.h>
#include <ccbench/option_rows.h>
#include <ccbench/path.h>

#include "path_cephfs.h"
#include "fs_opts.h"

/* A field of this path's own options (struct ccb_fs_opts). */
#define FS_OFF(f) PATH_OFF(struct ccb_fs_opts, f)

/* Defaults that differ by command, and how a default reads where no value
 * says it (see struct ccb_command). */
static const char *const fs_defaults[] = {"block-size", "4M", NULL};
static const char *const file_notes[] = {"duration", "the whole file", NULL};
static const char *const meta_notes[] = {"duration", "every file once", NULL};

#define FS_MASK CCB_CMD_OUTPUT

const struct ccb_command ccb_cephfs_commands[] = {
    {
        .name = "fs write",
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

/* The options only this path's commands take (the files, the mount): the
 * shared ones are in src/options/options_table.c. */
const struct ccb_opt_desc ccb_fs_options[] = {
    {.name = "file-size",
     .type = CCB_OPT_BYTES,
     .offset = FS_OFF(file_size_bytes),
     .def = "1G",
     .min = 4096,
     .max = 1ull << 50,
     .cmds = OWN,
     .argname = "BYTES",
     .help = "bytes per file (per client), like dd count x bs"},
    {.name = "dir",
     .type = CCB_OPT_STR,
     .offset = FS_OFF(dir),
     .cmds = OWN,
     .argname = "FS_PATH",
     .help = "directory of the run in the file system (below --mount DIR with --mount; default "
             "/ccbench-RUN; removed unless --keep)"},
    {.name = "files",
     .type = CCB_OPT_STR,
     .offset = FS_OFF(files_spec),
     .def = "1:4k:0:1",
     .cmds = OWN,
     .argname = "N[:MAX[:MIN[:DIRS]]]",
     .help = "fs meta: bonnie++ -n spec, N x 1024 files (also given as -n SPEC)"},
    {.name = "mount",
     .type = CCB_OPT_STR,
     .offset = FS_OFF(mount),
     .cmds = OWN,
     .argname = "DIR",
     .help = "run in this mounted directory (a CephFS kernel or ceph-fuse mount, or any local file "
             "system) through POSIX calls; --dir is then below DIR"},
    {.name = "mount-via",
     .type = CCB_OPT_CHOICE,
     .offset = FS_OFF(mount_via),
     .choices = CHOICES("libcephfs", "fuse", "kernel"),
     .cmds = OWN,
     .help = "the client: libcephfs in ccbench (the default), or ccbench mounts the CephFS itself, "
             "one mount per client (ceph-fuse, or mount -t ceph), unmounted at the end"},
    {.name = "mount-options",
     .type = CCB_OPT_STR,
     .offset = FS_OFF(mount_options),
     .cmds = OWN,
     .argname = "OPTS",
     .help = "with --mount-via: -o of mount -t ceph (rasize=N,wsize=N,...) or of ceph-fuse"},
    {.name = NULL},
};
