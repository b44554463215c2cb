/**
 * @file host.h
 * The client host's own trees that ccbench reads.
 */
#ifndef CCBENCH_HOST_H
#define CCBENCH_HOST_H

/** $CCB_SYSFS_ROOT, or "/sys": where sysfs is read (a fake tree in unit tests). */
const char *ccb_sysfs_root(void);

#endif
