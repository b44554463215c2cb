/**
 * @file path_rados.h
 * What the rados path offers beyond its ops table: removing what earlier
 * runs left behind.
 */
#ifndef CCBENCH_PATH_RADOS_H
#define CCBENCH_PATH_RADOS_H

#include <ccbench/options.h>

/**
 * `ccbench cleanup`: remove the objects of --run-name (or of every
 * ccbench run in the namespace with --all-runs). Only names ccbench
 * writes (RUN.meta with a ccbench header, RUN.NNNNNNNN) are touched.
 *
 * @return 0, -EINVAL / -ENOENT for bad input (exit 2), or another -errno.
 */
int ccb_rados_cleanup(const struct ccb_opts *o);

struct ccb_cli;

/** The cleanup command's run (struct ccb_command): ccb_rados_cleanup() as
 *  an exit status, 0, 2 for -EINVAL or -ENOENT, else 1. */
int ccb_rados_cleanup_run(const struct ccb_cli *cli, int argc, char **argv);

#endif
