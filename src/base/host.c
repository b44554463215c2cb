/*
 * The client host's own trees that ccbench reads: sysfs is "/sys" unless
 * $CCB_SYSFS_ROOT names another directory, so that unit tests build a fake
 * tree. Its own file, in the base, since the core (cluster_state.c reads a
 * NIC's speed) and the krbd path both read sysfs.
 */
#include <ccbench/host.h>

#include <stdlib.h>

const char *ccb_sysfs_root(void)
{
	const char *r = getenv("CCB_SYSFS_ROOT");

	return r && r[0] ? r : "/sys";
}
