/*
 * The librbd path: image I/O through rbd_aio_read / rbd_aio_write with the
 * knobs that decide sequential read speed (object order, readahead, cache
 * policy) set per client and read back into the result.
 *
 * By default the image is a temporary one, ccbench-<run>, filled with real
 * data before a read test (a never-written extent reads as zeroes without
 * touching an OSD and would measure nothing) and removed by the undo log.
 * An existing image (--image) is opened read-only for reads and is never
 * resized, removed or snapshotted.
 *
 * This file: the clients and their ops, the path's table. The image's
 * set-up, removal and crash record are rbd_image.c's; the per-client
 * librbd settings rbd_settings.c's.
 */
#include <ccbench/attribution.h>
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>
#include "../zerocopy.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rbd/librbd.h>

#include "../path_conn.h"
#include "path_rbd_int.h"
#include "rbd_asok.h"
#include "rbd_opts.h"

struct rbdclient {
	rados_t cluster;
	rados_ioctx_t io;
	struct ccb_zc_image *img;
	uint64_t start, end, pos;
	uint64_t passes;
	bool flushes;  /* a writer: flushed at open and at the end */
	char asok[96]; /* this handle's admin socket, when rbd_cache is on */
};

static bool mode_writes(enum ccb_mode m)
{
	return m == CCB_MODE_WRITE || m == CCB_MODE_RANDWRITE || m == CCB_MODE_RW;
}

/* ---- clients and ops ----------------------------------------------------- */

static int rbd_client_open(struct ccb_client *cl)
{
	struct ccb_run *run = cl->run;
	struct rbdrun *rr = run->path_data;
	struct rbdclient *rc = calloc(1, sizeof(*rc));
	char err[512];
	int r;

	if (!rc)
		return -ENOMEM;
	r = ccb_cluster_configure(run->opts, &rc->cluster, err, sizeof(err));
	if (r < 0)
		goto fail_free;
	r = ccb_rbd_apply_settings(run, rc->cluster, cl->idx == 0, err, sizeof(err));
	if (r < 0)
		goto fail_shutdown;
	/* Reads only: rw's served bytes hold writes the cluster never sends back. */
	if (run->mode == CCB_MODE_SEQ || run->mode == CCB_MODE_RAND)
		ccb_rbd_asok_setup(run->opts, rc->cluster, cl->idx, rr->asok_dir,
		                   sizeof(rr->asok_dir), rc->asok, sizeof(rc->asok));
	r = ccb_cluster_connect_handle(rc->cluster, run->opts, err, sizeof(err));
	if (r < 0)
		goto fail_shutdown;
	r = rados_ioctx_create(rc->cluster, rr->pool, &rc->io);
	if (r < 0) {
		snprintf(err, sizeof(err), "rados_ioctx_create(%s): %s", rr->pool, strerror(-r));
		goto fail_shutdown;
	}
	/* Readers open read-only: no exclusive lock to pass between clients.
	 * Write data is copied only if rbd_disable_zero_copy_writes says so. */
	char copy[16] = "";
	rados_conf_get(rc->cluster, "rbd_disable_zero_copy_writes", copy, sizeof(copy));
	r = ccb_zc_rbd_open(rc->io, rr->image,
	                    rr->existing_ro || (mode_reads(run->mode) && run->mode != CCB_MODE_RW),
	                    strcmp(copy, "false") != 0, &rc->img);
	if (r < 0) {
		snprintf(err, sizeof(err), "rbd_open(%s/%s): %s", rr->pool, rr->image,
		         strerror(-r));
		goto fail_ioctx;
	}
	/* Each pass starts cold: nothing the prefill or a previous pass cached. */
	ccb_zc_rbd_invalidate_cache(rc->img);
	/* librbd's cache stays writethrough until the first flush
	 * (rbd_cache_writethrough_until_flush); `rbd bench` flushes before it
	 * starts, as a guest's filesystem soon does, so its writes run under the
	 * configured policy (writearound: acknowledged early, up to
	 * rbd_cache_max_dirty). ccbench does the same, and flushes again at the
	 * end, inside the measured time (rbd_quiesce), as rbd bench does. */
	rc->flushes = mode_writes(run->mode);
	if (rc->flushes && (r = ccb_zc_rbd_flush(rc->img)) < 0) {
		snprintf(err, sizeof(err), "rbd_flush(%s/%s): %s", rr->pool, rr->image,
		         strerror(-r));
		goto fail_image;
	}
	if (cl->idx == 0) {
		json_t *lib =
		    ccb_rbd_effective_settings(rc->cluster, run->opts->sim_osd_latency_usec > 0);

		json_object_set_new(lib, "flush_before_and_after_writes",
		                    json_boolean(rc->flushes));
		json_object_set_new(run->layout, "librbd", lib);
	}
	rc->start = (uint64_t)cl->idx * rr->region_bytes;
	rc->end = rc->start + rr->region_bytes;
	if (rc->end > rr->image_bytes)
		rc->end = rr->image_bytes / rr->io_bytes * rr->io_bytes;
	rc->pos = rc->start;
	cl->path_data = rc;
	cl->instance_id = rados_get_instance_id(rc->cluster);
	return 0;

fail_image:
	ccb_zc_rbd_close(rc->img);
fail_ioctx:
	rados_ioctx_destroy(rc->io);
fail_shutdown:
	rados_shutdown(rc->cluster);
fail_free:
	fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
	free(rc);
	return r;
}

static void rbd_cb(void *arg, int ret)
{
	/* librbd thread: record and wake the client, nothing more. */
	ccb_slot_done(arg, ret);
}

static int rbd_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct rbdrun *rr = run->path_data;
	struct rbdclient *rc = cl->path_data;
	const struct ccb_opts *o = run->opts;
	bool write, rand;
	int r;

	switch (run->mode) {
	case CCB_MODE_WRITE:
		write = true, rand = false;
		break;
	case CCB_MODE_RANDWRITE:
		write = true, rand = true;
		break;
	case CCB_MODE_RAND:
		write = false, rand = true;
		break;
	case CCB_MODE_RW:
		write = ccb_client_rand(cl) % 100 >= CCB_RBD_OPTS(o)->rw_mix_read_pct;
		rand = strcmp(CCB_RBD_OPTS(o)->pattern, "rand") == 0;
		break;
	case CCB_MODE_SEQ:
	default:
		write = false, rand = false;
		break;
	}
	if (rand) {
		s->offset = ccb_client_rand(cl) % (rr->image_bytes / rr->io_bytes) * rr->io_bytes;
		if (rr->one_pass && ++rc->passes > rr->region_bytes / rr->io_bytes)
			return CCB_SUBMIT_END; /* as many ops as one pass over the region */
	} else {
		if (rc->pos + rr->io_bytes > rc->end) {
			if (rr->one_pass)
				return CCB_SUBMIT_END;
			/* A new pass must not read what the last one cached. */
			rc->pos = rc->start;
			ccb_zc_rbd_invalidate_cache(rc->img);
		}
		s->offset = rc->pos;
		rc->pos += rr->io_bytes;
	}
	s->object = write;
	s->len_bytes = rr->io_bytes;
	if (!s->io) {
		struct ccb_zc_op *op;
		r = ccb_zc_op_new(rbd_cb, s, &op);
		if (r < 0)
			return r;
		s->io = op;
	}
	return write ? ccb_zc_rbd_write(s->io, rc->img, s->offset, rr->io_bytes, s->buf)
	             : ccb_zc_rbd_read(s->io, rc->img, s->offset, rr->io_bytes, s->buf);
}

static int rbd_complete(struct ccb_client *cl, struct ccb_slot *s)
{
	struct rbdrun *rr = cl->run->path_data;

	if (!s->object && (uint64_t)s->ret != s->len_bytes) {
		snprintf(cl->first_error_msg, sizeof(cl->first_error_msg),
		         "rbd_aio_read(%.64s/%.96s, offset %" PRIu64 "): %d of %" PRIu64 " bytes",
		         rr->pool, rr->image, s->offset, s->ret, s->len_bytes);
		return -EIO;
	}
	return 0;
}

static void rbd_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	struct rbdrun *rr = cl->run->path_data;

	snprintf(buf, len, "%s(%.64s/%.96s)", s->object ? "rbd_aio_write" : "rbd_aio_read",
	         rr->pool, rr->image);
}

/* Attribution: the image's data objects, rbd_data.ID.NNNN in its data pool. */
static int rbd_attr_target(const struct ccb_run *run, struct ccb_attr_target *t)
{
	const struct rbdrun *rr = run->path_data;

	if (!rr || !rr->block_prefix[0] || rr->data_pool_id < 0)
		return -ENOENT;
	t->pool_id = rr->data_pool_id;
	t->nspace[0] = '\0';
	snprintf(t->prefix, sizeof(t->prefix), "%s.", rr->block_prefix);
	return 0;
}

/* The op's first data object; an op across objects counts on that one's
 * OSD (the engine counts how many did, docs/attribution.md). Format 1
 * images (rb.0.*) number their objects in 12 hex digits. */
static unsigned rbd_op_object(const struct ccb_client *cl, const struct ccb_slot *s, char *name,
                              size_t len)
{
	const struct rbdrun *rr = cl->run->path_data;
	unsigned n = 0;
	uint64_t obj = ccb_rbd_object_of(s->offset, s->len_bytes, rr->obj_bytes, rr->stripe_unit,
	                                 rr->stripe_count, &n);

	snprintf(name, len,
	         strncmp(rr->block_prefix, "rb.", 3) == 0 ? "%s.%012" PRIx64 : "%s.%016" PRIx64,
	         rr->block_prefix, obj);
	return n;
}

static void rbd_release(struct ccb_client *cl, struct ccb_slot *s)
{
	(void)cl;
	/* The handle stays with the slot for its next op. */
	if (s->io)
		ccb_zc_op_reset(s->io);
}

/* After the client's last op: what librbd acknowledged from its cache is
 * on the cluster before the run's end is taken. */
static int rbd_quiesce(struct ccb_client *cl)
{
	struct rbdrun *rr = cl->run->path_data;
	struct rbdclient *rc = cl->path_data;
	int r;

	if (!rc->flushes)
		return 0;
	r = ccb_zc_rbd_flush(rc->img);
	if (r < 0)
		snprintf(cl->first_error_msg, sizeof(cl->first_error_msg),
		         "rbd_flush(%.64s/%.96s) after the last write: %s", rr->pool, rr->image,
		         strerror(-r));
	return r;
}

static void rbd_client_close(struct ccb_client *cl)
{
	struct rbdclient *rc = cl->path_data;

	if (!rc)
		return;
	for (unsigned i = 0; i < cl->n_slots; i++) {
		ccb_zc_op_free(cl->slots[i].io);
		cl->slots[i].io = NULL;
	}
	/* Before the image closes: its cache's counters go with it. */
	ccb_rbd_asok_collect(cl->run, rc->asok,
	                     &((struct rbdrun *)cl->run->path_data)->asok_failed);
	ccb_zc_rbd_close(rc->img);
	rados_ioctx_destroy(rc->io);
	rados_shutdown(rc->cluster);
	free(rc);
	cl->path_data = NULL;
}

static void rbd_finish(struct ccb_run *run)
{
	struct rbdrun *rr = run->path_data;

	if (rr && rr->temporary && run->opts->keep && !run->opts->quiet)
		fprintf(stderr, "ccbench: kept image %s/%s (remove with: rbd rm %s/%s)\n", rr->pool,
		        rr->image, rr->pool, rr->image);
}

/*
 * The engine's stall check. librbd has no FULL_TRY for image writes: on a
 * full pool (or one over its quota) its writes wait in the client. The
 * osdmap says so, and the run ends with that reason within a few seconds;
 * writes already in flight are held by librbd until --op-timeout.
 */
static int rbd_stalled(struct ccb_run *run, char *why, size_t len)
{
	struct rbdrun *rr = run->path_data;

	return ccb_cluster_diagnose(rr->ctl, rr->pool, run->opts->data_pool, why, len);
}

static bool rbd_has_target(const struct ccb_opts *o)
{
	return CCB_RBD_OPTS(o)->image != NULL;
}

/* One pass reads or writes the whole image. */
static uint64_t rbd_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                   uint64_t image_bytes, const char **bound)
{
	(void)o;
	(void)mode;
	(void)bound;
	return one_pass ? image_bytes : 0;
}

/* The image's object size: the image's own once prepare has read it,
 * else as the options lay it out (rbd's default order 22). */
static uint64_t rbd_object_bytes(const struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	const json_t *v = json_object_get(run->layout, "object_size");

	if (json_is_integer(v) && json_integer_value(v) > 0)
		return (uint64_t)json_integer_value(v);
	if (o->object_size_bytes)
		return o->object_size_bytes;
	return 1ull << (o->order ? o->order : 22);
}

/*
 * --until-steady's ramp. Sequential reads: librbd's readahead window
 * doubles from the first ten requests' bytes up to rbd_readahead_max_bytes,
 * and reads whole objects' worth ahead; the rate is the level's once both
 * have passed. Writes through a write-back cache: the first
 * rbd_cache_max_dirty bytes are taken at memory speed. What librbd really
 * uses (run->layout's "librbd", read back at client_open) wins over what
 * the options ask (a dry run has only those).
 */
static uint64_t rbd_steady_ramp_bytes(const struct ccb_run *run, char *basis, size_t len)
{
	const struct ccb_opts *o = run->opts;
	const json_t *lib = json_object_get(run->layout, "librbd");
	bool seq =
	    run->mode == CCB_MODE_SEQ || (run->mode == CCB_MODE_RW && CCB_RBD_OPTS(o)->pattern &&
	                                  strcmp(CCB_RBD_OPTS(o)->pattern, "seq") == 0);
	bool writes = run->mode != CCB_MODE_SEQ && run->mode != CCB_MODE_RAND;
	const char *policy = lib ? json_string_value(json_object_get(lib, "rbd_cache_policy"))
	                         : CCB_RBD_OPTS(o)->cache_policy;
	static const char *const what[] = {"readahead", "object size", "rbd_cache_max_dirty",
	                                   "rbd_cache_size"};
	uint64_t sizes[4] = {0, 0, 0, 0};

	if (seq && lib && json_is_true(json_object_get(lib, "readahead_active")))
		sizes[0] =
		    (uint64_t)json_integer_value(json_object_get(lib, "rbd_readahead_max_bytes"));
	else if (seq && !lib && ccb_opt_given(o, "readahead") && !CCB_RBD_OPTS(o)->no_cache &&
	         !(policy && strcmp(policy, "writearound") == 0))
		sizes[0] = CCB_RBD_OPTS(o)->readahead_bytes; /* prepare turns writeback on for it */
	if (sizes[0]) {
		uint64_t cache =
		    lib && json_integer_value(json_object_get(lib, "rbd_cache_size")) > 0
		        ? (uint64_t)json_integer_value(json_object_get(lib, "rbd_cache_size"))
		    : ccb_opt_given(o, "cache-size") ? CCB_RBD_OPTS(o)->cache_size_bytes
		                                     : 32ull << 20;
		/* A readahead above the cache never grows past it: the cache
		 * evicts what was read ahead before it is used (the cliff
		 * explain warns of), so the cache bounds the ramp. */
		if (sizes[0] > cache) {
			sizes[3] = cache;
			sizes[0] = 0;
		}
		sizes[1] = rbd_object_bytes(run);
	}
	if (writes && policy && strcmp(policy, "writeback") == 0 && !CCB_RBD_OPTS(o)->no_cache)
		sizes[2] =
		    lib ? (uint64_t)json_integer_value(json_object_get(lib, "rbd_cache_max_dirty"))
		        : (ccb_opt_given(o, "cache-size") ? CCB_RBD_OPTS(o)->cache_size_bytes
		                                          : 24ull << 20);
	uint64_t ramp = ccb_steady_ramp_of(what, sizes, 4, basis, len);
	/* Readahead starts only after rbd_readahead_trigger_requests
	 * sequential reads: those come first, at the speed of none. */
	if (sizes[0] || sizes[3]) {
		json_int_t trig =
		    json_integer_value(json_object_get(lib, "rbd_readahead_trigger_requests"));
		uint64_t n = lib && trig > 0 ? (uint64_t)trig
		             : CCB_RBD_OPTS(o)->readahead_trigger
		                 ? CCB_RBD_OPTS(o)->readahead_trigger
		                 : 10;
		uint64_t op = run->op_bytes ? run->op_bytes : o->op_size_bytes;
		char ob[32], rest[128];

		ccb_format_bytes(op, ob, sizeof(ob));
		snprintf(rest, sizeof(rest), "%s", basis);
		snprintf(basis, len, "%llu × %s reads before readahead starts + %s",
		         (unsigned long long)n, ob, rest);
		ramp += n * op;
	}
	return ramp;
}

const struct ccb_path_ops ccb_path_rbd = {
    .name = "librbd",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_TEMP_IMAGE,
    .caps = CCB_CMD_WORKLOAD | CCB_CAP_POOL | CCB_CAP_QUEUE | CCB_CAP_CLIENTS |
            CCB_CAP_OBJECT_SIZE | CCB_CAP_IMAGE | CCB_CAP_STRIPES | CCB_CAP_POOL_TYPE |
            CCB_CAP_TEMP | CCB_CAP_SIM_LATENCY | CCB_CAP_IO_SIZE,
    .opts_bytes = sizeof(struct ccb_rbd_opts),
    .op_size_name = "io-size",
    .target_opt = "image",
    .has_target = rbd_has_target,
    .validate = ccb_rbd_validate,
    .estimate_bytes = rbd_estimate_bytes,
    .steady_ramp_bytes = rbd_steady_ramp_bytes,
    .prepare = ccb_rbd_prepare,
    .client_open = rbd_client_open,
    .submit = rbd_submit,
    .complete = rbd_complete,
    .describe = rbd_describe,
    .release = rbd_release,
    .quiesce = rbd_quiesce,
    .client_close = rbd_client_close,
    .finish = rbd_finish,
    .stalled = rbd_stalled,
    .undo_kinds = ccb_rbd_undo_kinds,
    .commands = ccb_rbd_commands,
    .options = ccb_rbd_options,
    .attr_target = rbd_attr_target,
    .op_object = rbd_op_object,
};

int ccb_rbd_shared_image(const struct ccb_opts *o, char *spec, size_t spec_len)
{
	struct ccb_run run = {0};
	struct ccb_opts ro = *o;
	struct rbdrun *rr;
	int r;

	/* The same set-up as a read point's, kept alive in the undo log past
	 * the point: the caller's later points name it with --image. Its
	 * options are rbd's own (the caller's block may be krbd's): the
	 * image's layout is the shared options', the rest rbd's defaults. */
	ccb_opts_block_select(&ro, ccb_opt_group_bit(ccb_rbd_options));
	run.opts = &ro;
	run.command = "rbd read";
	run.mode = CCB_MODE_SEQ;
	run.n_clients = 1;
	run.op_bytes = o->op_size_bytes;
	pthread_mutex_init(&run.reason_lock, NULL);
	r = ccb_rbd_prepare(&run);
	rr = run.path_data;
	if (r == 0 && rr)
		snprintf(spec, spec_len, "%s/%s", rr->pool, rr->image);
	json_decref(run.layout);
	json_decref(run.warnings);
	json_decref(run.extra); /* its pools, described by the prepare */
	pthread_mutex_destroy(&run.reason_lock);
	return r < 0 ? r : 0;
}
