/*
 * `ccbench restore` (alias `krbd restore`): the command around restore's
 * engine (src/undo/restore.c). It turns --device into the disk whose
 * read_ahead_kb alone is put back, and lends restore its way to a
 * cluster: -c CONF, or the conf, keyring and entity a record names.
 */
#include <ccbench/command.h>
#include <ccbench/cli.h>
#include <ccbench/cluster.h>
#include <ccbench/host.h>
#include <ccbench/restore.h>
#include <ccbench/restore_cmd.h>
#include <ccbench/sysfs.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* Bounded: a restore that cannot reach a cluster gives up after 10 s. */
static int connect_for_restore(const struct ccb_opts *o, const json_t *rec, rados_t *cl, char *err,
                               size_t err_len)
{
	if (!rec)
		return ccb_cluster_connect_bounded(o, "10", cl, err, err_len);
	return ccb_cluster_connect_record(rec, o, "10", "records on the cluster", cl, err, err_len);
}

int ccb_restore_command(const struct ccb_opts *o)
{
	char only_disk[64] = "";

	if (o->device) {
		char real[PATH_MAX];
		struct stat st;

		if (!realpath(o->device, real) || stat(real, &st) < 0 || !S_ISBLK(st.st_mode) ||
		    ccb_sysfs_disk_of_devt(ccb_sysfs_root(), st.st_rdev, NULL, 0, only_disk,
		                           sizeof(only_disk)) < 0) {
			fprintf(stderr, "ccbench: --device %s: not a block device\n", o->device);
			return -EINVAL;
		}
	}
	return ccb_restore(o, only_disk, connect_for_restore);
}

int ccb_restore_run(const struct ccb_cli *cli, int argc, char **argv)
{
	int r = ccb_restore_command(&cli->opts);

	(void)argc;
	(void)argv;
	return r == 0 ? 0 : r == -EINVAL ? 2 : 1;
}

/* restore and its older name: the krbd path's, before mounts and OSD delays
 * were recorded too. */
const struct ccb_command ccb_restore_commands[] = {
    {
        .name = "restore",
        .mask = CCB_CMD_RESTORE,
        .mode = CCB_MODE_SEQ,
        .summary = "undo what a killed run left (read_ahead_kb, maps, mounts, OSD delay, "
                   "images)",
        .description =
            "Undoes what a killed run recorded in the state directory, newest first: puts "
            "back read_ahead_kb values, unmaps its mappings, detaches its loop devices, "
            "unmounts its rbd-fuse, ceph-fuse and kernel CephFS mounts, puts back the "
            "OSD settings an --osd-latency run changed (on the cluster the record names), and "
            "removes its temporary rbd image while that name still holds the image it made "
            "(the recorded id). Each is put back only while it still holds what ccbench set. "
            "A record whose shape or target no longer matches the system is named and kept, "
            "and nothing of it is touched; so is one of a run that may be alive (another PID "
            "namespace or host: --force). With -c CONF it also reads the copies that runs "
            "keep on the cluster (the mon's config-key ccbench/run/...) of their OSD delays "
            "and temporary images, so a client host that rebooted, or any other host, can "
            "undo them.",
        .example = "ccbench restore",
        .run = ccb_restore_run,
        .flags = CCB_CMDF_OWN_STATE,
    },
    {
        .name = "krbd restore",
        .mask = CCB_CMD_RESTORE,
        .mode = CCB_MODE_SEQ,
        .summary = "the same as restore (its older name)",
        .description = "The same as ccbench restore, under the name it had before CephFS mounts "
                       "and OSD latency injection were recorded too.",
        .example = "ccbench krbd restore",
        .run = ccb_restore_run,
        .flags = CCB_CMDF_OWN_STATE,
    },
    {0},
};
