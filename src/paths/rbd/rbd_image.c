/*
 * The librbd path's image: the run's set-up (prepare), which creates a
 * temporary image, ccbench-<host>-<pid>-<time>, or opens an existing one
 * (--image), reads its layout back and fills a temporary image with real
 * data before a read test; the temporary image's removal (the undo) and
 * its crash record, which `ccbench restore` validates and acts on.
 *
 * Its own file: everything here happens before the clients open or after
 * the run (restore), and it is where the path's promise of never
 * removing what it did not create is kept; path_rbd.c's ops never touch
 * the image's existence.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/rbd_layout.h>
#include <ccbench/restore.h>
#include <ccbench/run_pools.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

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
#include "rbd_opts.h"

/* Prefill: large writes, many in flight; it is set-up, not the measurement. */
#define FILL_DEPTH 16
#define FILL_BYTES (4ull << 20)

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
		        "has room; then remove it with: rbd rm %s/%s%s\n",
		        why, rr->pool, rr->image, rr->pool, rr->image,
		        rr->recorded ? " (or ccbench restore, from its record)" : "");
		return r;
	}
	if (!rr->quiet)
		fprintf(stderr, "ccbench: removing temporary image %s/%s\n", rr->pool, rr->image);
	r = rbd_remove(rr->io, rr->image);
	if (r < 0 && r != -ENOENT) {
		/* A removal that timed out may still be carried out by the OSDs
		 * later, in part: the image gone from `rbd ls`, data objects left. */
		fprintf(stderr,
		        "ccbench: rbd_remove(%s/%s): %s; remove it with: rbd rm %s/%s%s%s%s%s\n",
		        rr->pool, rr->image, strerror(-r), rr->pool, rr->image,
		        rr->recorded ? " (or ccbench restore, from its record)" : "",
		        rr->data_prefix[0] ? " (if rbd ls no longer lists it: its data objects "
		                             "are the "
		                           : "",
		        rr->data_prefix, rr->data_prefix[0] ? ".* objects of the pool)" : "");
		return r;
	}
	return 0;
}

/*
 * The crash record of a temporary image (kind "rbd_image"): where it is
 * (cluster, pool, name), how the run connected, and its id, which librbd
 * draws anew for every image: `ccbench restore` removes the image only
 * while that name still holds that id, never one made since under the
 * same name. NULL when no record can be kept: the state directory is not
 * one this process may create (/run/ccbench for a user who is not root),
 * or the id cannot be read.
 */
static json_t *image_record(struct rbdrun *rr, const struct ccb_opts *o)
{
	char fsid[64], id[64];
	rbd_image_t img;
	json_t *rec;

	if (!getenv("CCB_STATE_DIR") && geteuid() != 0)
		return NULL;
	if (rados_cluster_fsid(rr->ctl, fsid, sizeof(fsid)) < 0 ||
	    rbd_open_read_only(rr->io, rr->image, &img, NULL) < 0)
		return NULL;
	int r = rbd_get_id(img, id, sizeof(id));
	rbd_close(img);
	if (r < 0)
		return NULL;
	rec = json_pack("{s:s, s:s, s:s, s:s, s:s}", "kind", "rbd_image", "fsid", fsid, "pool",
	                rr->pool, "image", rr->image, "id", id);
	if (rec && ccb_cluster_record_conn(o, rec) < 0) {
		json_decref(rec);
		return NULL;
	}
	return rec;
}

/* What image_record() writes, and nothing else: a temporary image's name, an id. */
static int check_image_record(const json_t *rec, char *msg, size_t msg_len)
{
	const char *pool = json_string_value(json_object_get(rec, "pool"));
	const char *image = json_string_value(json_object_get(rec, "image"));
	const char *id = json_string_value(json_object_get(rec, "id"));
	const char *what = NULL;

	if (!ccb_is_fsid(json_string_value(json_object_get(rec, "fsid"))))
		what = "fsid is not a cluster fsid";
	else if (!pool || !*pool || strlen(pool) >= 128 || !ccb_is_printable(pool))
		what = "pool is not a pool name";
	else if (!image || strncmp(image, "ccbench-", 8) != 0 || strlen(image) >= 128 ||
	         !ccb_is_printable(image) || strchr(image, '/') || strchr(image, '@'))
		what = "image is not the name of a temporary image (ccbench-...)";
	else if (!id || !*id || strlen(id) > 32 || strspn(id, "0123456789abcdef") != strlen(id))
		what = "id is not an image id";
	else
		ccb_cluster_record_conn_valid(rec, &what);
	if (!what)
		return 0;
	snprintf(msg, msg_len, "invalid record (rbd_image): %s; nothing touched", what);
	return -EINVAL;
}

int ccb_rbd_image_restore(const json_t *rec, const struct ccb_opts *given, char *msg,
                          size_t msg_len)
{
	const char *fsid = json_string_value(json_object_get(rec, "fsid"));
	const char *pool = json_string_value(json_object_get(rec, "pool"));
	const char *image = json_string_value(json_object_get(rec, "image"));
	const char *id = json_string_value(json_object_get(rec, "id"));
	char what[512], cur[64] = "";
	rados_ioctx_t io;
	rbd_image_t img;
	rados_t cl;
	int r;

	if (check_image_record(rec, msg, msg_len) < 0)
		return -EINVAL;
	snprintf(what, sizeof(what), "temporary image %s/%s of cluster %s", pool, image, fsid);
	r = ccb_cluster_connect_record(rec, given, "10", what, &cl, msg, msg_len);
	if (r < 0)
		return r;
	r = rados_ioctx_create(cl, pool, &io);
	if (r < 0) {
		snprintf(msg, msg_len, "temporary image %s/%s: %s", pool, image,
		         r == -ENOENT ? "its pool is gone; nothing to remove" : strerror(-r));
		rados_shutdown(cl);
		return r == -ENOENT ? 0 : r;
	}
	/* A full pool (or one over its quota): librbd cannot remove an image
	 * from it, and tries until its op timeout; kept, with the reason. */
	{
		char why[256];
		int full = ccb_cluster_diagnose(cl, pool, NULL, why, sizeof(why));

		if (full == -ENOSPC || full == -EDQUOT) {
			snprintf(msg, msg_len,
			         "temporary image %s/%s: %s: librbd cannot remove an image until "
			         "the pool has room (kept; rbd rm %s/%s then, or restore again)",
			         pool, image, why, pool, image);
			rados_ioctx_destroy(io);
			rados_shutdown(cl);
			return full;
		}
	}
	r = rbd_open_read_only(io, image, &img, NULL);
	if (r == 0) {
		r = rbd_get_id(img, cur, sizeof(cur));
		rbd_close(img);
	}
	if (r == -ENOENT) {
		snprintf(msg, msg_len, "temporary image %s/%s: no longer there; nothing to remove",
		         pool, image);
		r = 0;
	} else if (r < 0) {
		snprintf(msg, msg_len, "temporary image %s/%s: %s (kept)", pool, image,
		         strerror(-r));
	} else if (strcmp(cur, id) != 0) {
		snprintf(msg, msg_len,
		         "%s/%s is another image now (id %s; the run made id %s); nothing touched",
		         pool, image, cur, id);
	} else {
		/* The killed run's watch on the header outlives it by the OSDs'
		 * watch timeout (30 s by default): until then librbd refuses
		 * (EBUSY). Bounded: 45 s. */
		for (int i = 0; (r = rbd_remove(io, image)) == -EBUSY && i < 45; i++) {
			if (!i)
				fprintf(stderr,
				        "ccbench: restore: %s/%s still has the killed run's watch; "
				        "waiting for it to expire (up to 45 s)\n",
				        pool, image);
			sleep(1);
		}
		/* ENOENT: a removal of the dead run's, timed out half-way, had
		 * taken the image out of the pool's directory; librbd removes the
		 * rest and then fails to find that entry. */
		if (r == -ENOENT)
			r = 0;
		if (r < 0)
			snprintf(
			    msg, msg_len,
			    "temporary image %s/%s: rbd_remove: %s (kept; remove it with: rbd rm "
			    "%s/%s)",
			    pool, image, strerror(-r), pool, image);
		else
			snprintf(msg, msg_len, "removed the temporary image %s/%s (id %s)", pool,
			         image, id);
	}
	rados_ioctx_destroy(io);
	rados_shutdown(cl);
	return r;
}

static void fill_cb(rbd_completion_t c, void *arg)
{
	(void)c;
	(void)arg;
}

/*
 * Wait for the oldest fill write, at most until @p deadline_nsec. librbd's
 * wait has no bound, and a cluster that stops answering (stopped, its
 * OSDs frozen) would hold the run there, past any signal; polling keeps
 * the bound that --op-timeout promises.
 */
static void *stranded_fill_buf;

static int fill_wait(rbd_completion_t c, uint64_t deadline_nsec)
{
	while (!rbd_aio_is_complete(c)) {
		if (ccb_now_nsec() > deadline_nsec)
			return -ETIMEDOUT;
		usleep(5000);
	}
	return 0;
}

/*
 * Write the whole temporary image with real data before a read test.
 * Bounded: a write outstanding for longer than --op-timeout (plus the
 * slack the engine gives its drain) ends the fill with ETIMEDOUT; its
 * completions and the open image are then left to the process's exit,
 * as the engine leaves stranded ops, since releasing them under librbd
 * could crash and closing the image would wait for them.
 */
static int prefill(struct ccb_run *run, struct rbdrun *rr)
{
	rbd_completion_t comp[FILL_DEPTH] = {0};
	uint64_t issued[FILL_DEPTH] = {0};
	uint64_t limit = run->opts->op_timeout_usec * 1000ull + 5000000000ull;
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
	if (rbd_get_block_name_prefix(img, rr->data_prefix, sizeof(rr->data_prefix)) < 0)
		rr->data_prefix[0] = '\0';
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
			issued[n++] = ccb_now_nsec();
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
		if (fill_wait(comp[0], issued[0] + limit) < 0)
			goto stranded;
		r = (int)rbd_aio_get_return_value(comp[0]);
		rbd_aio_release(comp[0]);
		memmove(comp, comp + 1, (n - 1) * sizeof(comp[0]));
		memmove(issued, issued + 1, (n - 1) * sizeof(issued[0]));
		n--;
		if (r < 0)
			first = r;
	}
	while (n) {
		if (fill_wait(comp[n - 1], issued[n - 1] + limit) < 0)
			goto stranded;
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
stranded:
	/* buf, the completions and img stay: librbd may still touch them
	 * (kept reachable, so that a leak checker does not count them). */
	stranded_fill_buf = buf;
	fprintf(stderr,
	        "ccbench: filling %s/%s: a write outstanding for more than %.0f s (--op-timeout "
	        "and 5 s): the cluster stopped answering\n",
	        rr->pool, rr->image, (double)limit / 1e9);
	return -ETIMEDOUT;
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
		json_t *rec = image_record(rr, o);

		/* Kept on the cluster too (the image outlives this host's /run). */
		r = rec ? ccb_undo_push_cluster("remove the temporary image", undo_remove_image, rr,
		                                NULL, rec, rr->ctl)
		        : -ENOENT;
		rr->recorded = r > 0;
		/* No record (its state directory is not ours to write, or the
		 * image's id could not be read): removed on every end but a
		 * SIGKILL, as before records. */
		if (r < 0)
			r = ccb_undo_push("remove the temporary image", undo_remove_image, rr,
			                  NULL);
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
	{
		int64_t dp = rbd_get_data_pool_id(img);

		if (dp >= 0 && rados_pool_reverse_lookup(rr->ctl, dp, rr->data_pool,
		                                         sizeof(rr->data_pool)) < 0)
			rr->data_pool[0] = '\0';
		/* The data pool's id is the image's own pool's when it has none. */
		rr->data_pool_id = dp;
	}
	if (rbd_get_block_name_prefix(img, rr->block_prefix, sizeof(rr->block_prefix)) < 0)
		rr->block_prefix[0] = '\0';
	rr->obj_bytes = info.obj_size;
	rr->stripe_unit = su;
	rr->stripe_count = sc;
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

int ccb_rbd_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct rbdrun *rr;
	char err[512], host[64] = "";
	const char *slash;
	int r;

	/* Refused before anything is touched: writing into someone's image. */
	if (CCB_RBD_OPTS(o)->image && run->is_write && !CCB_RBD_OPTS(o)->allow_write_existing) {
		fprintf(stderr,
		        "ccbench: --image %s: a write mode would overwrite an existing image; add "
		        "--allow-write-existing if that is what you want\n",
		        CCB_RBD_OPTS(o)->image);
		run->bad_input = true;
		return -EPERM;
	}
	if (run->mode == CCB_MODE_RW && CCB_RBD_OPTS(o)->image &&
	    !CCB_RBD_OPTS(o)->allow_write_existing) {
		fprintf(stderr, "ccbench: --image %s: rw writes; add --allow-write-existing\n",
		        CCB_RBD_OPTS(o)->image);
		run->bad_input = true;
		return -EPERM;
	}
	rr = calloc(1, sizeof(*rr));
	if (!rr)
		return -ENOMEM;
	rr->quiet = o->quiet;
	if (CCB_RBD_OPTS(o)->image && (slash = strchr(CCB_RBD_OPTS(o)->image, '/'))) {
		snprintf(rr->pool, sizeof(rr->pool), "%.*s", (int)(slash - CCB_RBD_OPTS(o)->image),
		         CCB_RBD_OPTS(o)->image);
		snprintf(rr->image, sizeof(rr->image), "%s", slash + 1);
	} else {
		snprintf(rr->pool, sizeof(rr->pool), "%s", o->pool);
		if (CCB_RBD_OPTS(o)->image) {
			snprintf(rr->image, sizeof(rr->image), "%s", CCB_RBD_OPTS(o)->image);
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
		/* Before the image is made: its pools in the result, and what the
		 * options ask of them (an EC data pool without overwrites, a
		 * --data-pool-type the pool is not) refused with exit 2. */
		r = ccb_run_pools(run, rr->ctl, rr->pool, o->data_pool ? o->data_pool : rr->pool,
		                  true);
		if (r < 0)
			return r;
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
	if (!rr->temporary) {
		r = ccb_run_pools(run, rr->ctl, rr->pool,
		                  rr->data_pool[0] ? rr->data_pool : rr->pool,
		                  run->is_write || run->mode == CCB_MODE_RW);
		if (r < 0)
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
	/* One pass: each client a region's worth (sequential: its region, the
	 * last one to the image's end, under one op more). */
	if (rr->one_pass)
		run->pass_bytes = (uint64_t)run->n_clients * rr->region_bytes;
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

/* The fields a copy of this record on the cluster may have: what image_record() writes. */
static const char *const image_fields[] = {"kind", "fsid",    "pool", "image",       "id", "entity",
                                           "conf", "keyring", "what", "cluster_key", NULL};

const struct ccb_undo_kind ccb_rbd_undo_kinds[] = {
    {.name = "rbd_image", .undo = ccb_rbd_image_restore, .cluster_fields = image_fields},
    {0},
};
