/*
 * What the krbd path settles before it opens a device: its option rules,
 * the temporary image of a run without --device or --map, and
 * `ccbench restore` (alias `krbd restore`) for what a killed run left.
 */
#include <ccbench/cluster.h>
#include "mapping.h"
#include <ccbench/osd_inject.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/loop.h>
#include <liburing.h>
#include <rbd/librbd.h>

#include "path_krbd_int.h"
#include "krbd_opts.h"

/* ---- what the rest of ccbench asks of the path ---------------------------- */

int ccb_krbd_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	const char *temp = ccb_opts_first_given(o, CCB_OPTF_TEMP);

	if (o->device && CCB_KRBD_OPTS(o)->map) {
		snprintf(err, err_len, "krbd: give one of --device DEV or --map POOL/IMAGE");
		return -EINVAL;
	}
	/* Neither: a temporary prefilled image, mapped for the run, laid out by
	 * the rbd layout flags (the same image `rbd read --image` can read). */
	if ((o->device || CCB_KRBD_OPTS(o)->map) && temp) {
		snprintf(err, err_len, "--%s: applies to the temporary image, not to --%s", temp,
		         o->device ? "device" : "map");
		return -EINVAL;
	}
	if (CCB_KRBD_OPTS(o)->map_options && !CCB_KRBD_OPTS(o)->map) {
		snprintf(err, err_len, "--map-options: only with --map");
		return -EINVAL;
	}
	if (CCB_KRBD_OPTS(o)->map &&
	    (!strchr(CCB_KRBD_OPTS(o)->map, '/') || CCB_KRBD_OPTS(o)->map[0] == '/')) {
		snprintf(err, err_len, "--map '%s': expected POOL/IMAGE", CCB_KRBD_OPTS(o)->map);
		return -EINVAL;
	}
	if (o->queue_depth > 1 && !o->direct) {
		snprintf(
		    err, err_len,
		    "--queue-depth %llu: buffered reads are one per stream; use --streams N, or "
		    "--direct for O_DIRECT reads at depth",
		    (unsigned long long)o->queue_depth);
		return -EINVAL;
	}
	if (o->direct && o->op_size_bytes % 512) {
		snprintf(err, err_len, "--io-size %llu: --direct needs a multiple of 512 bytes",
		         (unsigned long long)o->op_size_bytes);
		return -EINVAL;
	}
	return 0;
}

/* A plain --device run reads a local device: no cluster to talk to. */
bool ccb_krbd_needs_cluster(const struct ccb_opts *o)
{
	return !o->device;
}

bool ccb_krbd_has_target(const struct ccb_opts *o)
{
	return o->device || CCB_KRBD_OPTS(o)->map;
}

/* Buffered reads are one pread() at a time per stream (validate refuses
 * more); --direct reads go through io_uring at --queue-depth. */
uint64_t ccb_krbd_queue_depth(const struct ccb_opts *o)
{
	return o->direct ? o->queue_depth : 1;
}

/* Without --device or --map: a temporary prefilled image, mapped for the
 * point and removed with it (unless --keep). */
int ccb_krbd_setup(struct ccb_run *run, struct ccb_opts *scratch, char *buf, size_t buf_len)
{
	int r;

	if (ccb_krbd_has_target(run->opts))
		return 0;
	r = ccb_rbd_shared_image(run->opts, buf, buf_len);
	if (r < 0)
		return r;
	*scratch = *run->opts;
	CCB_KRBD_OPTS_W(scratch)->map = buf;
	run->opts = scratch;
	return 0;
}

/* A sweep's "readahead" is a size for both rbd paths; the kernel's knob is in KiB. */
int ccb_krbd_param_alias(const char *key, const char **name, const char **val, char *buf,
                         size_t buf_len, char *err, size_t err_len)
{
	uint64_t bytes;

	if (strcmp(key, "readahead") != 0)
		return 0;
	if (!*val || ccb_parse_bytes(*val, &bytes) < 0) {
		snprintf(err, err_len, "readahead: '%s' is not a size", *val ? *val : "");
		return -EINVAL;
	}
	snprintf(buf, buf_len, "%llu", (unsigned long long)(bytes / 1024));
	*name = "read-ahead-kb";
	*val = buf;
	return 1;
}

/* One pass reads from --offset to the end of the device. */
uint64_t ccb_krbd_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                 uint64_t image_bytes, const char **bound)
{
	(void)mode;
	(void)bound;
	if (!one_pass || !image_bytes)
		return 0;
	return image_bytes > CCB_KRBD_OPTS(o)->offset_bytes
	           ? image_bytes - CCB_KRBD_OPTS(o)->offset_bytes
	           : 0;
}
