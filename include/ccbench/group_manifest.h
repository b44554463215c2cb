/**
 * @file group_manifest.h
 * `ccbench group manifest NAME --members N WORKLOAD ...`: the Kubernetes
 * objects that run a group, the way Rook users run things. An Indexed Job
 * of N pods (one member each, on different nodes), the cluster's conf and
 * keyring taken from Rook's mon endpoints ConfigMap and mon Secret (or a
 * Secret the user names), and a Job that reports the group afterwards.
 * Nothing is contacted: the manifest is printed, as YAML, on stdout.
 */
#ifndef CCBENCH_GROUP_MANIFEST_H
#define CCBENCH_GROUP_MANIFEST_H

#include <ccbench/command.h>
#include <stdio.h>

#include <ccbench/cli.h>

/**
 * The run of `group manifest` (struct ccb_command): checks the workload's
 * options as its own command would (exit 2), refuses key material on the
 * command line and options the pod sets itself (-c, -k, --group), prints
 * the manifest.
 *
 * @return 0, 1 when stdout could not be written, 2 bad input.
 */
int ccb_group_manifest_command(const struct ccb_cli *cli, int argc, char **argv);

/**
 * The manifest's documents, written to @p out as YAML: what the command
 * prints, given the checked workload in @p wl (its command and options)
 * and its arguments @p args (JSON strings, to pass on to each member).
 *
 * @return 0, -ENOMEM, or -EIO when @p out failed.
 */
int ccb_group_manifest_write(const struct ccb_cli *wl, const char *group, const json_t *args,
                             FILE *out);

/** The group manifest command's row (command.h), listed by the front. */
extern const struct ccb_command ccb_group_manifest_commands[];

#endif
