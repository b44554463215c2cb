/*
 * What the result says of the POSIX path's mount: the client (kernel,
 * ceph-fuse or a local file system), the mount's options, the kernel
 * client's read and write limits or ceph-fuse's effective settings, and
 * the cluster the mount reaches.
 *
 * Its own file: it reads the mount once, for the result, and needs
 * nothing of the calls or the threads.
 */
#define _FILE_OFFSET_BITS 64

#include <ccbench/cluster.h>
#include "../mountinfo.h"
#include "path_posix_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/xattr.h>

#include <rados/librados.h>

/* ---- what the result says of the mount ------------------------------------------ */

/* The effective setting @p key of the ceph-fuse ccbench starts (its conf,
 * CEPH_ARGS and -o, as the run's handle reads them). */
static void fuse_setting(rados_t h, json_t *j, const char *key, bool number)
{
	char v[128];

	if (rados_conf_get(h, key, v, sizeof(v)) < 0)
		return;
	if (number)
		json_object_set_new(j, key, json_integer(strtoll(v, NULL, 10)));
	else
		json_object_set_new(j, key, json_boolean(strcmp(v, "true") == 0));
}

static json_t *kernel_limits(const char *super)
{
	char v[64];
	json_t *j = json_object();

	/* The driver's defaults where mountinfo says nothing (fs/ceph/super.h). */
	json_object_set_new(j, "rasize",
	                    json_integer(ccb_mountinfo_option(super, "rasize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 8ll << 20));
	json_object_set_new(j, "rsize",
	                    json_integer(ccb_mountinfo_option(super, "rsize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 64ll << 20));
	json_object_set_new(j, "wsize",
	                    json_integer(ccb_mountinfo_option(super, "wsize", v, sizeof(v))
	                                     ? strtoll(v, NULL, 10)
	                                     : 64ll << 20));
	json_object_set_new(
	    j, "noshare",
	    json_boolean(ccb_mountinfo_option(super, "noshare", v, sizeof(v)) != NULL));
	return j;
}

void ccb_posix_describe_run(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	struct prun *pr = fr->io_run;
	struct pmount *pm = fr->ctl;
	struct ccb_mountinfo mi;
	const char *client = "local";
	json_t *mnt;
	char v[64];
	ssize_t n;

	if (!pm || ccb_mountinfo_of(pm->where, &mi) < 0) {
		json_object_set_new(run->layout, "client", json_string("unknown"));
		return;
	}
	if (strcmp(mi.fstype, "ceph") == 0)
		client = "kernel";
	else if (strcmp(mi.fstype, "fuse.ceph-fuse") == 0)
		client = "fuse";
	json_object_set_new(run->layout, "client", json_string(client));
	mnt = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:b}", "via",
	                pr->via == VIA_DIR    ? "--mount"
	                : pr->via == VIA_FUSE ? "fuse"
	                                      : "kernel",
	                "mountpoint", mi.mountpoint, "fstype", mi.fstype, "source", mi.source,
	                "options", mi.mount_options, "super_options", mi.super_options,
	                "one_per_client", pr->via != VIA_DIR);
	if (strcmp(client, "kernel") == 0)
		json_object_set_new(mnt, "kernel", kernel_limits(mi.super_options));
	if (strcmp(client, "fuse") == 0 && pr->via == VIA_FUSE) {
		char err[256];
		rados_t h;

		if (ccb_cluster_configure(o, &h, err, sizeof(err)) == 0) {
			json_t *f = json_object();

			fuse_setting(h, f, "fuse_max_write", true);
			fuse_setting(h, f, "fuse_multithreaded", false);
			fuse_setting(h, f, "fuse_big_writes", false);
			fuse_setting(h, f, "client_oc", false);
			fuse_setting(h, f, "client_oc_size", true);
			fuse_setting(h, f, "client_readahead_max_bytes", true);
			fuse_setting(h, f, "client_readahead_max_periods", true);
			json_object_set_new(mnt, "ceph_fuse", f);
			rados_shutdown(h);
		}
	}
	json_object_set_new(run->layout, "mount", mnt);
	json_object_set_new(run->layout, "direct", json_boolean(o->direct));
	/* The cluster the mount reaches, from the file system itself. */
	if (pm->cephfs && (n = getxattr(pm->where, "ceph.cluster_fsid", v, sizeof(v) - 1)) > 0) {
		v[n] = '\0';
		snprintf(run->fsid, sizeof(run->fsid), "%s", v);
	}
}
