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
 */
#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>
#include <ccbench/zerocopy.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rbd/librbd.h>

#include "path_conn.h"
#include "rbd_asok.h"

/* Prefill: large writes, many in flight; it is set-up, not the measurement. */
#define FILL_DEPTH 16
#define FILL_BYTES (4ull << 20)

struct rbdrun {
	/* Valid during the point only: a sweep's shared image outlives the
	 * options it was made from, so the undo entries use copies (quiet). */
	const struct ccb_opts *opts;
	bool quiet;
	rados_t ctl;
	rados_ioctx_t io;
	char pool[128];
	char image[128];
	bool temporary;
	bool existing_ro; /* an existing image: open read-only */
	uint64_t image_bytes, io_bytes;
	uint64_t region_bytes; /* per client, for sequential patterns */
	bool one_pass;
	char asok_dir[64]; /* the clients' admin sockets (ours, mkdtemp) */
	bool asok_failed;  /* a client's counters could not be read */
};

struct rbdclient {
	rados_t cluster;
	rados_ioctx_t io;
	struct ccb_zc_image *img;
	uint64_t start, end, pos;
	uint64_t passes;
	bool flushes;  /* a writer: flushed at open and at the end */
	char asok[96]; /* this handle's admin socket, when rbd_cache is on */
};

static bool mode_reads(enum ccb_mode m)
{
	return m == CCB_MODE_SEQ || m == CCB_MODE_RAND || m == CCB_MODE_RW;
}

static bool mode_writes(enum ccb_mode m)
{
	return m == CCB_MODE_WRITE || m == CCB_MODE_RANDWRITE || m == CCB_MODE_RW;
}

/* ---- librbd settings ---------------------------------------------------- */

static int conf_set(rados_t r, const char *key, const char *val, char *err, size_t err_len)
{
	int ret = rados_conf_set(r, key, val);

	if (ret < 0)
		snprintf(err, err_len, "rados_conf_set(%s=%s): %s", key, val, strerror(-ret));
	return ret;
}

/*
 * The per-client librbd settings. Pacific's librbd reads ahead only under
 * the writeback and writethrough cache policies (its default, writearound,
 * gets none), and turns readahead off after 50 MiB unless told otherwise:
 * both would silently void a readahead experiment, so they are set here
 * and reported.
 */
static int apply_rbd_settings(struct ccb_run *run, rados_t r, bool warn, char *err, size_t err_len)
{
	const struct ccb_opts *o = run->opts;
	char v[64];
	int ret = 0;

	if (o->no_cache)
		ret = conf_set(r, "rbd_cache", "false", err, err_len);
	if (!ret && o->cache_policy)
		ret = conf_set(r, "rbd_cache_policy", o->cache_policy, err, err_len);
	if (!ret && ccb_opt_given(o, "readahead")) {
		snprintf(v, sizeof(v), "%" PRIu64, o->readahead_bytes);
		ret = conf_set(r, "rbd_readahead_max_bytes", v, err, err_len);
		if (!ret && !o->cache_policy && o->readahead_bytes) {
			ret = conf_set(r, "rbd_cache_policy", "writeback", err, err_len);
			if (warn)
				ccb_run_warn(run,
				             "--readahead without --cache-policy: using writeback, "
				             "since librbd reads ahead only under writeback or "
				             "writethrough");
		} else if (!ret && o->cache_policy && strcmp(o->cache_policy, "writearound") == 0 &&
		           o->readahead_bytes && warn) {
			ccb_run_warn(run,
			             "readahead inactive: librbd ignores "
			             "rbd_readahead_max_bytes under --cache-policy writearound");
			fprintf(stderr,
			        "ccbench: warning: readahead inactive: librbd ignores "
			        "rbd_readahead_max_bytes under --cache-policy writearound\n");
		}
	}
	if (!ret && o->readahead_trigger) {
		snprintf(v, sizeof(v), "%" PRIu64, o->readahead_trigger);
		ret = conf_set(r, "rbd_readahead_trigger_requests", v, err, err_len);
	}
	if (!ret) {
		snprintf(v, sizeof(v), "%" PRIu64, o->readahead_disable_after_bytes);
		ret = conf_set(r, "rbd_readahead_disable_after_bytes", v, err, err_len);
	}
	if (!ret && ccb_opt_given(o, "cache-size")) {
		snprintf(v, sizeof(v), "%" PRIu64, o->cache_size_bytes);
		ret = conf_set(r, "rbd_cache_size", v, err, err_len);
	}
	/* librbd copies write data by default; ccbench never touches a slot's
	 * buffer while its op is in flight, so it can lend it instead, as a
	 * VM's block layer does. An explicit -o setting wins. */
	bool user_set = false;
	for (unsigned i = 0; i < o->n_sets; i++)
		user_set |= strncmp(o->sets[i], "rbd_disable_zero_copy_writes=", 29) == 0;
	if (!ret && !user_set)
		ret = conf_set(r, "rbd_disable_zero_copy_writes", "false", err, err_len);
	if (!ret && o->sim_osd_latency_usec) {
		/* ms_inject_delay_max is the upper bound of a uniform delay: twice the
		 * mean gives about DUR per message from an OSD. */
		snprintf(v, sizeof(v), "%.6f", 2.0 * (double)o->sim_osd_latency_usec / 1e6);
		ret = conf_set(r, "ms_inject_delay_type", "osd", err, err_len);
		if (!ret)
			ret = conf_set(r, "ms_inject_delay_max", v, err, err_len);
		if (!ret)
			ret = conf_set(r, "ms_inject_delay_probability", "1", err, err_len);
	}
	return ret;
}

/* The settings librbd will really use, read back rather than assumed. */
static json_t *effective_settings(rados_t r, bool simulated)
{
	static const char *const keys[] = {
	    "rbd_cache",
	    "rbd_cache_policy",
	    "rbd_cache_size",
	    "rbd_cache_max_dirty",
	    "rbd_readahead_max_bytes",
	    "rbd_readahead_trigger_requests",
	    "rbd_readahead_disable_after_bytes",
	    "rbd_disable_zero_copy_writes",
	    "ms_inject_delay_type",
	    "ms_inject_delay_max",
	};
	json_t *j = json_object();
	char buf[256];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!simulated && strncmp(keys[i], "ms_inject", 9) == 0)
			continue;
		if (rados_conf_get(r, keys[i], buf, sizeof(buf)) < 0)
			continue;
		char *end;
		long long n = strtoll(buf, &end, 10);

		if (*end == '.')
			strtod(buf, &end);
		if (*buf && !*end && !strchr(buf, '.'))
			json_object_set_new(j, keys[i], json_integer(n));
		else if (*buf && !*end)
			json_object_set_new(j, keys[i], json_real(strtod(buf, NULL)));
		else if (strcmp(buf, "true") == 0 || strcmp(buf, "false") == 0)
			json_object_set_new(j, keys[i], json_boolean(buf[0] == 't'));
		else
			json_object_set_new(j, keys[i], json_string(buf));
	}
	const char *policy = json_string_value(json_object_get(j, "rbd_cache_policy"));
	json_t *cache = json_object_get(j, "rbd_cache");
	json_int_t ra = json_integer_value(json_object_get(j, "rbd_readahead_max_bytes"));
	json_object_set_new(j, "readahead_active",
	                    json_boolean(json_is_true(cache) && ra > 0 && policy &&
	                                 strcmp(policy, "writearound") != 0));
	return j;
}

/* ---- set-up -------------------------------------------------------------- */

static int undo_close_ctl(void *arg)
{
	struct rbdrun *rr = arg;

	rados_ioctx_destroy(rr->io);
	rados_shutdown(rr->ctl);
	free(rr);
	return 0;
}

static int undo_remove_image(void *arg)
{
	struct rbdrun *rr = arg;
	int r;

	char why[160];

	/* On a full pool (or one over its quota) Pacific's librbd cannot remove
	 * an image: the removal waits, times out half-way and leaves an image
	 * that `rbd rm` no longer removes either. Leave it whole instead, and
	 * say how to remove it once the pool has room. */
	r = ccb_cluster_diagnose(rr->ctl, rr->pool, NULL, why, sizeof(why));
	if (r == -ENOSPC || r == -EDQUOT) {
		fprintf(stderr,
		        "ccbench: %s: the temporary image %s/%s cannot be removed until the pool "
		        "has room; then remove it with: rbd rm %s/%s\n",
		        why, rr->pool, rr->image, rr->pool, rr->image);
		return r;
	}
	if (!rr->quiet)
		fprintf(stderr, "ccbench: removing temporary image %s/%s\n", rr->pool, rr->image);
	r = rbd_remove(rr->io, rr->image);
	if (r < 0 && r != -ENOENT) {
		fprintf(stderr, "ccbench: rbd_remove(%s/%s): %s; remove it with: rbd rm %s/%s\n",
		        rr->pool, rr->image, strerror(-r), rr->pool, rr->image);
		return r;
	}
	return 0;
}

static void fill_cb(rbd_completion_t c, void *arg)
{
	(void)c;
	(void)arg;
}

/* Write the whole temporary image with real data before a read test. */
static int prefill(struct ccb_run *run, struct rbdrun *rr)
{
	rbd_completion_t comp[FILL_DEPTH] = {0};
	char *buf = malloc(FILL_BYTES);
	rbd_image_t img;
	uint64_t off = 0, t0 = ccb_now_nsec();
	unsigned n = 0;
	int r, first = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t i = 0; i < FILL_BYTES / 8; i++) {
		uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
		memcpy(buf + i * 8, &x, 8);
	}
	r = rbd_open(rr->io, rr->image, &img, NULL);
	if (r < 0) {
		fprintf(stderr, "ccbench: rbd_open(%s/%s): %s\n", rr->pool, rr->image,
		        strerror(-r));
		free(buf);
		return r;
	}
	if (!run->opts->quiet)
		fprintf(stderr,
		        "ccbench: filling %s/%s (%" PRIu64 " MiB) so reads touch the OSDs\n",
		        rr->pool, rr->image, rr->image_bytes >> 20);
	while ((off < rr->image_bytes || n) && !first) {
		if (off < rr->image_bytes && n < FILL_DEPTH && !ccb_signal_pending) {
			uint64_t len =
			    rr->image_bytes - off < FILL_BYTES ? rr->image_bytes - off : FILL_BYTES;
			rbd_aio_create_completion(NULL, fill_cb, &comp[n]);
			r = rbd_aio_write(img, off, len, buf, comp[n]);
			if (r < 0) {
				rbd_aio_release(comp[n]);
				first = r;
				break;
			}
			n++;
			off += len;
			continue;
		}
		if (ccb_signal_pending && off < rr->image_bytes) {
			/* Stop issuing and drain; none may be in flight yet (a
			 * signal before the first write): nothing to wait for. */
			off = rr->image_bytes;
			continue;
		}
		/* Oldest first: completions of one image finish nearly in order. */
		rbd_aio_wait_for_complete(comp[0]);
		r = (int)rbd_aio_get_return_value(comp[0]);
		rbd_aio_release(comp[0]);
		memmove(comp, comp + 1, (n - 1) * sizeof(comp[0]));
		n--;
		if (r < 0)
			first = r;
	}
	while (n) {
		rbd_aio_wait_for_complete(comp[n - 1]);
		rbd_aio_release(comp[--n]);
	}
	if (!first)
		first = rbd_flush(img);
	rbd_close(img);
	free(buf);
	if (first < 0)
		fprintf(stderr, "ccbench: filling %s/%s: rbd_aio_write: %s\n", rr->pool, rr->image,
		        strerror(-first));
	else if (ccb_signal_pending)
		return -EINTR;
	else if (!run->opts->quiet)
		fprintf(stderr, "ccbench: filled in %.1f s\n", (double)(ccb_now_nsec() - t0) / 1e9);
	return first;
}

static int create_image(struct ccb_run *run, struct rbdrun *rr)
{
	const struct ccb_opts *o = run->opts;
	rbd_image_options_t io_opts;
	uint64_t obj = ccb_opts_rbd_object_bytes(o), features = 0;
	char err[256];
	int order = 0, r;

	while ((1ull << order) < obj)
		order++;
	rbd_image_options_create(&io_opts);
	rbd_image_options_set_uint64(io_opts, RBD_IMAGE_OPTION_ORDER, (uint64_t)order);
	if (o->image_features) {
		ccb_rbd_features_parse(o->image_features, &features, err, sizeof(err));
		rbd_image_options_set_uint64(io_opts, RBD_IMAGE_OPTION_FEATURES, features);
	}
	if (o->stripe_unit_bytes || o->stripe_count) {
		rbd_image_options_set_uint64(io_opts, RBD_IMAGE_OPTION_STRIPE_UNIT,
		                             o->stripe_unit_bytes ? o->stripe_unit_bytes : obj);
		rbd_image_options_set_uint64(io_opts, RBD_IMAGE_OPTION_STRIPE_COUNT,
		                             o->stripe_count ? o->stripe_count : 1);
	}
	if (o->data_pool)
		rbd_image_options_set_string(io_opts, RBD_IMAGE_OPTION_DATA_POOL, o->data_pool);
	r = rbd_create4(rr->io, rr->image, o->image_size_bytes, io_opts);
	rbd_image_options_destroy(io_opts);
	if (r < 0) {
		fprintf(stderr, "ccbench: rbd_create4(%s/%s, size %" PRIu64 ", order %d): %s\n",
		        rr->pool, rr->image, o->image_size_bytes, order, strerror(-r));
		run->bad_input = r == -EINVAL;
		return r;
	}
	/* Logged only once created: a name clash must never remove someone else's image. */
	if (!o->keep) {
		r = ccb_undo_push("remove the temporary image", undo_remove_image, rr, NULL);
		if (r < 0)
			return r;
		ccb_undo_set_hint(r, "rbd rm %s/%s%s%s", rr->pool, rr->image, o->conf ? " -c " : "",
		                  o->conf ? o->conf : "");
	}
	return 0;
}

static json_t *image_layout(struct rbdrun *rr, int *rc, char *err, size_t err_len)
{
	static const char *const fnames[] = {"layering",   "striping",  "exclusive-lock",
	                                     "object-map", "fast-diff", "deep-flatten",
	                                     "journaling", "data-pool", "operations"};
	rbd_image_info_t info;
	rbd_image_t img;
	uint64_t su = 0, sc = 0, features = 0;
	json_t *j, *f = json_array();
	int r = rbd_open_read_only(rr->io, rr->image, &img, NULL);

	if (r < 0) {
		snprintf(err, err_len, "rbd_open_read_only(%s/%s): %s", rr->pool, rr->image,
		         r == -ENOENT ? "no such image" : strerror(-r));
		json_decref(f);
		*rc = r;
		return NULL;
	}
	rbd_stat(img, &info, sizeof(info));
	rbd_get_stripe_unit(img, &su);
	rbd_get_stripe_count(img, &sc);
	rbd_get_features(img, &features);
	rbd_close(img);
	for (size_t i = 0; i < sizeof(fnames) / sizeof(fnames[0]); i++)
		if (features & (1ull << i))
			json_array_append_new(f, json_string(fnames[i]));
	rr->image_bytes = info.size;
	j = json_pack("{s:s, s:s, s:b, s:I, s:i, s:I, s:I, s:I, s:o}", "pool", rr->pool, "image",
	              rr->image, "temporary", rr->temporary, "size", (json_int_t)info.size, "order",
	              info.order, "object_size", (json_int_t)info.obj_size, "stripe_unit",
	              (json_int_t)su, "stripe_count", (json_int_t)sc, "features", f);
	return j;
}

/* The temporary image's removal (the undo) sends its object removals
 * this many at a time. At librbd's default of 10, an OSD stopped mid-run
 * made the removal wait out one op timeout per 10 of that OSD's objects,
 * so the end of a fault grew with the image's size. */
static void tune_ctl(rados_t ctl)
{
	rados_conf_set(ctl, "rbd_concurrent_management_ops", "1024");
}

static int rbd_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct rbdrun *rr;
	char err[512], host[64] = "";
	const char *slash;
	int r;

	/* Refused before anything is touched: writing into someone's image. */
	if (o->image && run->is_write && !o->allow_write_existing) {
		fprintf(stderr,
		        "ccbench: --image %s: a write mode would overwrite an existing image; add "
		        "--allow-write-existing if that is what you want\n",
		        o->image);
		run->bad_input = true;
		return -EPERM;
	}
	if (run->mode == CCB_MODE_RW && o->image && !o->allow_write_existing) {
		fprintf(stderr, "ccbench: --image %s: rw writes; add --allow-write-existing\n",
		        o->image);
		run->bad_input = true;
		return -EPERM;
	}
	rr = calloc(1, sizeof(*rr));
	if (!rr)
		return -ENOMEM;
	rr->opts = o;
	rr->quiet = o->quiet;
	if (o->image && (slash = strchr(o->image, '/'))) {
		snprintf(rr->pool, sizeof(rr->pool), "%.*s", (int)(slash - o->image), o->image);
		snprintf(rr->image, sizeof(rr->image), "%s", slash + 1);
	} else {
		snprintf(rr->pool, sizeof(rr->pool), "%s", o->pool);
		if (o->image) {
			snprintf(rr->image, sizeof(rr->image), "%s", o->image);
		} else {
			gethostname(host, sizeof(host) - 1);
			for (char *p = host; *p; p++)
				if (*p == '.' || *p == '/' || *p == '@')
					*p = '-';
			snprintf(rr->image, sizeof(rr->image), "ccbench-%s-%d-%lld", host,
			         (int)getpid(), (long long)time(NULL));
			rr->temporary = true;
		}
	}
	rr->existing_ro = !rr->temporary && !run->is_write && run->mode != CCB_MODE_RW;
	r = ccb_path_connect(run, rr->pool, NULL, tune_ctl, &rr->ctl, &rr->io, undo_close_ctl, free,
	                     rr);
	if (r < 0)
		return r;

	if (rr->temporary) {
		if (o->data_pool && rados_pool_lookup(rr->ctl, o->data_pool) < 0) {
			fprintf(stderr, "ccbench: --data-pool '%s': no such pool\n", o->data_pool);
			run->bad_input = true;
			return -ENOENT;
		}
		r = create_image(run, rr);
		if (r < 0)
			return r;
	}
	r = -ENOENT;
	run->layout = image_layout(rr, &r, err, sizeof(err));
	if (!run->layout) {
		fprintf(stderr, "ccbench: --image: %s\n", err);
		/* Only a name that is not there is the user's mistake (exit 2):
		 * a timeout under a frozen OSD is a fault of the run (seen in
		 * t_zz_chaos, where it ended a sweep as if its config were bad). */
		run->bad_input = !rr->temporary && r == -ENOENT;
		return r;
	}
	rr->io_bytes = run->op_bytes;
	if (rr->io_bytes > rr->image_bytes) {
		fprintf(stderr,
		        "ccbench: --io-size %" PRIu64 ": larger than image %s/%s (%" PRIu64
		        " bytes)\n",
		        rr->io_bytes, rr->pool, rr->image, rr->image_bytes);
		run->bad_input = true;
		return -EINVAL;
	}
	if (rr->temporary && mode_reads(run->mode)) {
		r = prefill(run, rr);
		if (r < 0)
			return r;
	}
	run->buf_bytes = rr->io_bytes;
	/* Write data is never modified after the fill, so every slot can hand
	 * librbd the same buffer, copied or (zero-copy) referenced. */
	run->shared_buf = true;
	rr->one_pass = !run->duration_usec && !run->total_bytes;
	rr->region_bytes = rr->image_bytes / run->n_clients / rr->io_bytes * rr->io_bytes;
	if (!rr->region_bytes)
		rr->region_bytes = rr->io_bytes;
	if (o->sim_osd_latency_usec) {
		char d[32];
		ccb_format_duration(o->sim_osd_latency_usec, d, sizeof(d));
		ccb_run_warn(run,
		             "simulated: about %s of OSD latency injected on the client "
		             "(--sim-osd-latency)",
		             d);
		json_object_set_new(run->layout, "simulated_osd_latency_us",
		                    json_integer((json_int_t)o->sim_osd_latency_usec));
	}
	json_object_set_new(run->layout, "cache_invalidated_before_pass", json_true());
	/* For explain's latency-bound line: what puts more ops in flight. */
	json_object_set_new(run->layout, "more_in_flight",
	                    json_string(run->is_write ? "raise -t" : "raise -t (or readahead)"));
	return 0;
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
	r = apply_rbd_settings(run, rc->cluster, cl->idx == 0, err, sizeof(err));
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
		json_t *lib = effective_settings(rc->cluster, run->opts->sim_osd_latency_usec > 0);

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
		write = ccb_client_rand(cl) % 100 >= o->rw_mix_read_pct;
		rand = strcmp(o->pattern, "rand") == 0;
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
	return o->image != NULL;
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

const struct ccb_path_ops ccb_path_rbd = {
    .name = "librbd",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_TEMP_IMAGE,
    .cmd_bit = CCB_CMD_RBD,
    .op_size_opt = "io-size",
    .target_opt = "image",
    .has_target = rbd_has_target,
    .validate = ccb_rbd_validate,
    .estimate_bytes = rbd_estimate_bytes,
    .prepare = rbd_prepare,
    .client_open = rbd_client_open,
    .submit = rbd_submit,
    .complete = rbd_complete,
    .describe = rbd_describe,
    .release = rbd_release,
    .quiesce = rbd_quiesce,
    .client_close = rbd_client_close,
    .finish = rbd_finish,
    .stalled = rbd_stalled,
};

int ccb_rbd_shared_image(const struct ccb_opts *o, char *spec, size_t spec_len)
{
	struct ccb_run run = {0};
	struct rbdrun *rr;
	int r;

	/* The same set-up as a read point's, kept alive in the undo log past
	 * the point: the caller's later points name it with --image. */
	run.opts = o;
	run.command = "rbd read";
	run.mode = CCB_MODE_SEQ;
	run.n_clients = 1;
	run.op_bytes = ccb_path_op_bytes(&ccb_path_rbd, o);
	pthread_mutex_init(&run.reason_lock, NULL);
	r = rbd_prepare(&run);
	rr = run.path_data;
	if (r == 0 && rr)
		snprintf(spec, spec_len, "%s/%s", rr->pool, rr->image);
	json_decref(run.layout);
	json_decref(run.warnings);
	pthread_mutex_destroy(&run.reason_lock);
	return r < 0 ? r : 0;
}
