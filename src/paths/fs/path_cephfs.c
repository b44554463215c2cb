/*
 * The CephFS path through libcephfs: the tables of fs write / read
 * (ccb_path_cephfs) and fs meta (ccb_path_cephfs_meta). The workloads are
 * fs_stream.c and fs_meta.c, their calls the libcephfs struct ccb_fs_io of
 * path_cephfs_common.c; this file adds what is libcephfs's own (prepare
 * through that struct ccb_fs_io, --until-steady's ramp from the client's
 * settings) and turns a run that names a mount over to the POSIX path's
 * tables. So it sits above path_posix.c, which fills its tables with the
 * same workload functions from below.
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/path.h>
#include "path_cephfs.h"
#include <ccbench/steady.h>

#include <string.h>
#include "fs_opts.h"
#include "fs_spec.h"

static int fs_prepare(struct ccb_run *run)
{
	return ccb_fs_stream_prepare(run, &ccb_fs_io_libcephfs);
}

static int meta_prepare(struct ccb_run *run)
{
	return ccb_fs_meta_prepare(run, &ccb_fs_io_libcephfs);
}

/*
 * --until-steady's ramp. Reads: libcephfs reads ahead up to
 * client_readahead_max_periods file periods (object size x stripe count),
 * growing to it. Writes: the object cacher takes client_oc_max_dirty at
 * memory speed before it makes writes wait for the OSDs.
 */
static uint64_t fs_steady_ramp_bytes(const struct ccb_run *run, char *basis, size_t len)
{
	const struct ccb_opts *o = run->opts;
	const struct ccb_fsrun *fr = run->path_data;
	const json_t *fl = json_object_get(run->layout, "file_layout");
	static const char *const what[] = {"readahead", "client_oc_max_dirty"};
	uint64_t sizes[2] = {0, 0};

	if (run->mode == CCB_MODE_SEQ) {
		uint64_t obj =
		    json_is_integer(json_object_get(fl, "object_size"))
		        ? (uint64_t)json_integer_value(json_object_get(fl, "object_size"))
		    : o->object_size_bytes ? o->object_size_bytes
		                           : 4ull << 20;
		uint64_t sc =
		    json_is_integer(json_object_get(fl, "stripe_count"))
		        ? (uint64_t)json_integer_value(json_object_get(fl, "stripe_count"))
		    : o->stripe_count ? o->stripe_count
		                      : 1;
		uint64_t max =
		    ccb_fs_conf_u64(fr ? fr->ctl : NULL, "client_readahead_max_bytes", 0);

		sizes[0] = ccb_fs_conf_u64(fr ? fr->ctl : NULL, "client_readahead_max_periods", 4) *
		           obj * sc;
		if (max && max < sizes[0])
			sizes[0] = max;
	} else if (ccb_fs_conf_u64(fr ? fr->ctl : NULL, "client_oc", 1)) {
		sizes[1] =
		    ccb_fs_conf_u64(fr ? fr->ctl : NULL, "client_oc_max_dirty", 100ull << 20);
	}
	return ccb_steady_ramp_of(what, sizes, 2, basis, len);
}

/* The table a run of an fs command goes through: the POSIX path's when
 * the options name a mount (--mount, --mount-via fuse|kernel). Here, above
 * path_posix.c, so that the POSIX path never names the libcephfs tables. */
static const struct ccb_path_ops *fs_variant(const struct ccb_path_ops *ops,
                                             const struct ccb_opts *o)
{
	if (!CCB_FS_OPTS(o)->mount &&
	    (!CCB_FS_OPTS(o)->mount_via || strcmp(CCB_FS_OPTS(o)->mount_via, "libcephfs") == 0))
		return ops;
	return ops == &ccb_path_cephfs_meta ? &ccb_path_posix_meta : &ccb_path_posix;
}

const struct ccb_path_ops ccb_path_cephfs = {
    .name = "cephfs",
    CCB_FS_STREAM_OPS,
    .variant = fs_variant,
    .validate = ccb_fs_validate,
    .steady_ramp_bytes = fs_steady_ramp_bytes,
    .prepare = fs_prepare,
    .commands = ccb_cephfs_commands,
    .options = ccb_fs_options,
};

const struct ccb_path_ops ccb_path_cephfs_meta = {
    .name = "cephfs",
    CCB_FS_META_OPS,
    .variant = fs_variant,
    .validate = ccb_fs_validate,
    .prepare = meta_prepare,
};
