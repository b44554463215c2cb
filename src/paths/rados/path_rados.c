/*
 * The rados path: whole-object writes and reads through librados async
 * completions, as rados bench does them.
 *
 * Objects live in their own namespace (default "ccbench") as RUN.NNNNNNNN,
 * beside RUN.meta, a small JSON document that claims the run name
 * (exclusive create, so two runs can never share objects), records the
 * layout for seq/rand, and lists the objects a stop left half-written.
 * Every op-size chunk starts with a header naming run, object and offset,
 * so a read of the wrong or a missing object fails instead of being fast.
 */
#include <ccbench/attribution.h>
#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include <ccbench/run_pools.h>
#include "path_rados.h"
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

#include <rados/librados.h>

#include "../path_conn.h"
#include "path_rados_int.h"
#include "rados_opts.h"

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static int add_partial(struct rrun *rr, uint64_t obj)
{
	if (rr->n_partial == rr->cap_partial) {
		size_t cap = rr->cap_partial ? rr->cap_partial * 2 : 16;
		uint64_t *p = realloc(rr->partial, cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		rr->partial = p;
		rr->cap_partial = cap;
	}
	rr->partial[rr->n_partial++] = obj;
	return 0;
}

static bool is_partial(const struct rrun *rr, uint64_t obj)
{
	for (size_t i = 0; i < rr->n_partial; i++)
		if (rr->partial[i] == obj)
			return true;
	return false;
}

/* ---- pool state --------------------------------------------------------- */

/*
 * Writes go with FULL_TRY, so an OSD answers EDQUOT or ENOSPC at once once
 * the osdmap flags the pool; plain writes would wait in the client until
 * --op-timeout. Say which, in the words of the map.
 */
static void explain_full(struct ccb_run *run, struct rrun *rr)
{
	char why[160];
	int err = run->error_ret;
	enum ccb_stop stop = (enum ccb_stop)atomic_load(&run->stop);

	if (stop == CCB_STOP_ERROR && (err == -EDQUOT || err == -ENOSPC)) {
		pthread_mutex_lock(&run->reason_lock);
		snprintf(run->reason, sizeof(run->reason),
		         "pool %s %s: the OSD refused the write (%s); measured until then",
		         run->opts->pool, err == -EDQUOT ? "is over its quota" : "is full",
		         err == -EDQUOT ? "EDQUOT" : "ENOSPC");
		pthread_mutex_unlock(&run->reason_lock);
		return;
	}
	if (stop != CCB_STOP_TIMEOUT ||
	    ccb_cluster_diagnose(rr->ctl, run->opts->pool, NULL, why, sizeof(why)) >= 0)
		return;
	pthread_mutex_lock(&run->reason_lock);
	snprintf(run->reason, sizeof(run->reason),
	         "%s: the run stopped at --op-timeout; measured until then", why);
	pthread_mutex_unlock(&run->reason_lock);
}

/* The engine's stall check: no completion for a while. */
static int rados_stalled(struct ccb_run *run, char *why, size_t len)
{
	struct rrun *rr = run->path_data;

	return ccb_cluster_diagnose(rr->ctl, run->opts->pool, NULL, why, len);
}

/* ---- ops table ---------------------------------------------------------- */

static void default_run_name(char *buf, size_t len)
{
	char host[64] = "";

	gethostname(host, sizeof(host) - 1);
	for (char *p = host; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", *p))
			*p = '-';
	host[24] = '\0';
	snprintf(buf, len, "ccb-%s-%d-%lld", host[0] ? host : "host", (int)getpid(),
	         (long long)time(NULL));
}

static int prepare_read(struct ccb_run *run, struct rrun *rr)
{
	const struct ccb_opts *o = run->opts;
	json_t *m = NULL, *p;
	size_t i;
	int r = ccb_rados_meta_read(rr->io, rr->run, &m);

	if (r == -ENOENT) {
		fprintf(
		    stderr,
		    "ccbench: --run-name '%s': no such run in pool %s namespace %s (write one with "
		    "ccbench rados write -p %s --no-cleanup --run-name %s)\n",
		    rr->run, o->pool, o->rados_namespace, o->pool, rr->run);
		run->bad_input = true;
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: rados_read(%s.meta): %s\n", rr->run,
		        r == -EBADMSG ? "not a ccbench run header" : strerror(-r));
		return r;
	}
	rr->op_bytes = (uint64_t)json_integer_value(json_object_get(m, "op_size"));
	rr->obj_bytes = (uint64_t)json_integer_value(json_object_get(m, "object_size"));
	rr->n_objects = (uint64_t)json_integer_value(json_object_get(m, "objects"));
	json_array_foreach(json_object_get(m, "partial"), i, p)
	    add_partial(rr, (uint64_t)json_integer_value(p));
	if (!json_is_true(json_object_get(m, "complete"))) {
		fprintf(
		    stderr,
		    "ccbench: run %s: its write has not finished (still running, or it crashed: "
		    "ccbench cleanup --run-name %s)\n",
		    rr->run, rr->run);
		json_decref(m);
		return -EBUSY;
	}
	json_decref(m);
	if (!rr->op_bytes || !rr->obj_bytes || rr->obj_bytes % rr->op_bytes) {
		fprintf(stderr, "ccbench: %s.meta: bad op_size/object_size\n", rr->run);
		return -EBADMSG;
	}
	if (ccb_opt_given(o, "op-size") && o->op_size_bytes != rr->op_bytes) {
		char a[32], b[32];
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		ccb_format_bytes(rr->op_bytes, b, sizeof(b));
		fprintf(stderr, "ccbench: --op-size %s: run %s was written with %s ops\n", a,
		        rr->run, b);
		run->bad_input = true;
		return -EINVAL;
	}
	if (rr->n_objects <= rr->n_partial) {
		fprintf(stderr, "ccbench: run %s: no complete object to read\n", rr->run);
		run->bad_input = true;
		return -ENODATA;
	}
	return 0;
}

static int prepare_write(struct ccb_run *run, struct rrun *rr)
{
	const struct ccb_opts *o = run->opts;
	char why[160];
	int r;

	r = ccb_cluster_diagnose(rr->ctl, o->pool, NULL, why, sizeof(why));
	if (r == -EDQUOT || r == -ENOSPC) {
		fprintf(stderr, "ccbench: %s: a write run would only be refused\n", why);
		return r;
	}
	r = ccb_rados_meta_write(rr, false, true);

	if (r == -EEXIST && o->reuse) {
		json_t *m = NULL;
		r = ccb_rados_meta_read(rr->io, rr->run, &m);
		if (r == 0) {
			rr->old_objects =
			    (uint64_t)json_integer_value(json_object_get(m, "objects"));
			json_decref(m);
			r = ccb_rados_meta_write(rr, false, false);
		} else {
			fprintf(stderr, "ccbench: --reuse: %s.meta: %s\n", rr->run,
			        r == -EBADMSG ? "not a ccbench run header; not touching it"
			                      : strerror(-r));
			run->bad_input = r == -EBADMSG;
			return r;
		}
	} else if (r == -EEXIST) {
		fprintf(stderr,
		        "ccbench: --run-name '%s': objects of that run already exist in pool %s "
		        "namespace %s; choose another name, remove them (ccbench cleanup -p %s "
		        "--run-name %s), or overwrite them with --reuse\n",
		        rr->run, o->pool, o->rados_namespace, o->pool, rr->run);
		run->bad_input = true;
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: rados_write_op_operate(%s.meta, pool %s): %s\n", rr->run,
		        o->pool, strerror(-r));
		return r;
	}
	rr->meta_claimed = true;
	if (!CCB_RADOS_OPTS(o)->no_cleanup) {
		r = ccb_undo_push("remove the run's objects", ccb_rados_undo_remove_objects, rr,
		                  NULL);
		if (r < 0)
			return r;
		ccb_undo_set_hint(r, "ccbench cleanup -p %s -N %s --run-name %s%s%s", o->pool,
		                  o->rados_namespace, rr->run, o->conf ? " -c " : "",
		                  o->conf ? o->conf : "");
	}
	return 0;
}

/* The run state before the undo log owns it (see ccb_path_connect()). */
static void discard_rrun(void *arg)
{
	struct rrun *rr = arg;

	pthread_mutex_destroy(&rr->lock);
	free(rr);
}

static int rados_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct rrun *rr = calloc(1, sizeof(*rr));
	int r;

	if (!rr)
		return -ENOMEM;
	pthread_mutex_init(&rr->lock, NULL);
	rr->opts = o;
	r = ccb_path_connect(run, o->pool, o->rados_namespace ? o->rados_namespace : "", NULL,
	                     &rr->ctl, &rr->io, ccb_rados_undo_close_ctl, discard_rrun, rr);
	if (r < 0)
		return r;
	/* Before any object is written: the pool in the result, and what the
	 * options ask of it (--data-pool-type, --fastec-pool). */
	r = ccb_run_pools(run, rr->ctl, NULL, o->pool, false);
	if (r < 0)
		return r;

	if (o->run_name)
		snprintf(rr->run, sizeof(rr->run), "%s", o->run_name);
	else
		default_run_name(rr->run, sizeof(rr->run));
	rr->run_hash = fnv1a(rr->run);
	rr->op_bytes = run->op_bytes;
	rr->obj_bytes = o->object_size_bytes ? o->object_size_bytes : o->op_size_bytes;
	rr->max_objects = CCB_RADOS_OPTS(o)->max_objects;

	r = run->mode == CCB_MODE_WRITE ? prepare_write(run, rr) : prepare_read(run, rr);
	if (r < 0)
		return r;
	run->op_bytes = rr->op_bytes; /* a read run reads with its write run's ops */
	rr->chunks = rr->obj_bytes / rr->op_bytes;
	run->buf_bytes = rr->op_bytes;
	/* The chunk header goes with each op (zerocopy.h: from the op, or
	 * copied by librados' C API before the next op stamps its own); the
	 * rest of the shared buffer is never written after the fill. */
	run->shared_buf = true;
	/* more_in_flight: explain's word on what raises a latency bound. */
	run->layout =
	    json_pack("{s:s, s:s, s:s, s:I, s:I, s:s}", "pool", o->pool, "namespace",
	              o->rados_namespace, "run_name", rr->run, "op_size", (json_int_t)rr->op_bytes,
	              "object_size", (json_int_t)rr->obj_bytes, "more_in_flight", "raise -t");
	return 0;
}

static int rados_client_open(struct ccb_client *cl)
{
	struct rclient *rc = calloc(1, sizeof(*rc));
	char err[512];
	int r;

	if (!rc)
		return -ENOMEM;
	r = ccb_cluster_connect(cl->run->opts, &rc->cluster, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
		free(rc);
		return r;
	}
	r = ccb_cluster_ioctx(rc->cluster, cl->run->opts, &rc->io, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: client %u: %s\n", cl->idx, err);
		rados_shutdown(rc->cluster);
		free(rc);
		return r;
	}
	cl->path_data = rc;
	cl->instance_id = rados_get_instance_id(rc->cluster);
	return 0;
}

static void rados_complete_cb(void *arg, int ret)
{
	struct ccb_slot *s = arg;

	/* librados thread: record and wake the client, nothing more (a write
	 * given up on is counted for the cleanup's warning; path_data is set
	 * before any op and freed after the last). */
	if (ret == -ETIMEDOUT && s->cl->run->mode == CCB_MODE_WRITE)
		atomic_fetch_add(&((struct rrun *)s->cl->run->path_data)->timed_out, 1);
	ccb_slot_done(arg, ret);
}

static int pick_read(struct ccb_run *run, struct rrun *rr, struct ccb_client *cl,
                     struct ccb_slot *s)
{
	uint64_t total = rr->n_objects * rr->chunks;

	if (run->mode == CCB_MODE_SEQ) {
		for (;;) {
			uint64_t idx = atomic_fetch_add(&rr->next, 1);
			if (idx >= total)
				return CCB_SUBMIT_END;
			s->object = idx / rr->chunks;
			s->offset = (idx % rr->chunks) * rr->op_bytes;
			if (!is_partial(rr, s->object))
				return 0;
		}
	}
	do {
		s->object = ccb_client_rand(cl) % rr->n_objects;
	} while (is_partial(rr, s->object));
	s->offset = (ccb_client_rand(cl) % rr->chunks) * rr->op_bytes;
	return 0;
}

static int rados_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct rrun *rr = run->path_data;
	struct rclient *rc = cl->path_data;
	struct chunk_hdr h;
	bool stamp = false;
	char name[96];
	int r;

	if (run->mode == CCB_MODE_WRITE) {
		if (!rc->have_obj) {
			uint64_t obj = atomic_fetch_add(&rr->next, 1);
			if (rr->max_objects && obj >= rr->max_objects)
				return CCB_SUBMIT_END;
			rc->cur_obj = obj;
			rc->next_chunk = 0;
			rc->have_obj = true;
		}
		s->object = rc->cur_obj;
		s->offset = rc->next_chunk * rr->op_bytes;
		if (++rc->next_chunk == rr->chunks)
			rc->have_obj = false;
		if (!CCB_RADOS_OPTS(run->opts)->no_verify) {
			h = (struct chunk_hdr){.run_hash = rr->run_hash,
			                       .object = s->object,
			                       .offset = s->offset,
			                       .op_bytes = rr->op_bytes};
			memcpy(h.magic, HDR_MAGIC, 8);
			stamp = true;
		}
	} else {
		r = pick_read(run, rr, cl, s);
		if (r)
			return r;
	}
	s->len_bytes = rr->op_bytes;
	ccb_rados_obj_name(name, sizeof(name), rr->run, s->object);
	if (!s->io) {
		struct ccb_zc_op *op;
		r = ccb_zc_op_new(rados_complete_cb, s, &op);
		if (r < 0)
			return r;
		s->io = op;
	}
	if (run->mode != CCB_MODE_WRITE)
		r = ccb_zc_rados_read(s->io, rc->io, name, s->buf, rr->op_bytes, s->offset);
	else
		/* FULL_TRY (in zerocopy.c*): on a full pool or one over its quota
		 * the OSD answers ENOSPC / EDQUOT at once, where a plain write
		 * waits in the client until --op-timeout. */
		r = ccb_zc_rados_write(s->io, rc->io, name, stamp ? &h : NULL,
		                       stamp ? sizeof(h) : 0, s->buf, rr->op_bytes, s->offset,
		                       rr->chunks == 1);
	if (r < 0) {
		snprintf(cl->first_error_msg, sizeof(cl->first_error_msg), "rados_aio_%s(%s): %s",
		         run->mode == CCB_MODE_WRITE ? "write" : "read", name, strerror(-r));
	}
	return r;
}

static int rados_complete(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct rrun *rr = run->path_data;
	struct chunk_hdr h = {0};
	char name[96];

	if (run->mode == CCB_MODE_WRITE)
		return 0;
	ccb_rados_obj_name(name, sizeof(name), rr->run, s->object);
	if ((uint64_t)s->ret != rr->op_bytes) {
		if (!cl->first_error)
			snprintf(cl->first_error_msg, sizeof(cl->first_error_msg),
			         "rados_aio_read(%s, offset %" PRIu64 "): %d of %" PRIu64
			         " bytes (object shorter than the run's layout)",
			         name, s->offset, s->ret, rr->op_bytes);
		return -EIO;
	}
	if (CCB_RADOS_OPTS(run->opts)->no_verify)
		return 0;
	ccb_zc_read_copy(s->io, s->buf, &h, sizeof(h));
	if (memcmp(h.magic, HDR_MAGIC, 8) != 0 || h.run_hash != rr->run_hash ||
	    h.object != s->object || h.offset != s->offset) {
		if (!cl->first_error)
			snprintf(cl->first_error_msg, sizeof(cl->first_error_msg),
			         "verify %s at offset %" PRIu64
			         ": header does not name this run, object and offset "
			         "(overwritten, or written with --no-verify)",
			         name, s->offset);
		return -EBADMSG;
	}
	return 0;
}

static void rados_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	struct ccb_run *run = cl->run;
	struct rrun *rr = run->path_data;
	char name[96];

	ccb_rados_obj_name(name, sizeof(name), rr->run, s->object);
	snprintf(buf, len, "%s(%s)",
	         run->mode != CCB_MODE_WRITE ? "rados_aio_read"
	         : rr->chunks == 1           ? "rados_write_op_write_full"
	                                     : "rados_write_op_write",
	         name);
}

/* Attribution: the run's objects, RUN.NNNNNNNN in the run's namespace. */
static int rados_attr_target(const struct ccb_run *run, struct ccb_attr_target *t)
{
	const struct rrun *rr = run->path_data;

	if (!rr || !rr->io)
		return -ENOENT;
	t->pool_id = rados_ioctx_get_id(rr->io);
	snprintf(t->nspace, sizeof(t->nspace), "%s",
	         run->opts->rados_namespace ? run->opts->rados_namespace : "");
	snprintf(t->prefix, sizeof(t->prefix), "%s.", rr->run);
	return 0;
}

static unsigned rados_op_object(const struct ccb_client *cl, const struct ccb_slot *s, char *name,
                                size_t len)
{
	const struct rrun *rr = cl->run->path_data;

	ccb_rados_obj_name(name, len, rr->run, s->object);
	return 1;
}

static void rados_release(struct ccb_client *cl, struct ccb_slot *s)
{
	(void)cl;
	/* The handle stays with the slot for its next op. */
	if (s->io)
		ccb_zc_op_reset(s->io);
}

static void rados_client_close(struct ccb_client *cl)
{
	struct rclient *rc = cl->path_data;
	struct rrun *rr = cl->run->path_data;

	if (!rc)
		return;
	/* A client stopped mid-object leaves it short; reads must skip it. */
	if (cl->run->mode == CCB_MODE_WRITE && rc->have_obj && rc->next_chunk < rr->chunks) {
		pthread_mutex_lock(&rr->lock);
		add_partial(rr, rc->cur_obj);
		pthread_mutex_unlock(&rr->lock);
	}
	/* Before the ioctx goes: the zero-copy handles hold a reference to it. */
	for (unsigned i = 0; i < cl->n_slots; i++) {
		ccb_zc_op_free(cl->slots[i].io);
		cl->slots[i].io = NULL;
	}
	rados_ioctx_destroy(rc->io);
	rados_shutdown(rc->cluster);
	free(rc);
	cl->path_data = NULL;
}

static void rados_finish(struct ccb_run *run)
{
	struct rrun *rr = run->path_data;
	int r;

	if (!rr || run->mode != CCB_MODE_WRITE || !rr->meta_claimed)
		return;
	explain_full(run, rr);
	json_object_set_new(run->layout, "objects",
	                    json_integer((json_int_t)ccb_rados_claimed_objects(rr)));
	if (!CCB_RADOS_OPTS(run->opts)->no_cleanup)
		return; /* the undo log removes everything, meta included */
	r = ccb_rados_meta_write(rr, true, false);
	if (r < 0)
		fprintf(stderr, "ccbench: rados_write_op_operate(%s.meta): %s\n", rr->run,
		        strerror(-r));
	else if (!run->opts->quiet)
		fprintf(stderr,
		        "ccbench: kept %" PRIu64 " objects of run %s (read them with ccbench rados "
		        "seq --run-name %s; remove with ccbench cleanup -p %s --run-name %s)\n",
		        ccb_rados_claimed_objects(rr), rr->run, rr->run, run->opts->pool, rr->run);
}

/* ---- option rules --------------------------------------------------------- */

static int rados_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	uint64_t obj;
	char a[32], b[32];

	if (!o->pool) {
		snprintf(err, err_len, "--pool: required (-p POOL)");
		return -EINVAL;
	}
	obj = o->object_size_bytes ? o->object_size_bytes : o->op_size_bytes;
	if (o->op_size_bytes > obj) {
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		ccb_format_bytes(obj, b, sizeof(b));
		snprintf(err, err_len, "--op-size %s: larger than --object-size %s", a, b);
		return -EINVAL;
	}
	if (obj % o->op_size_bytes) {
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		ccb_format_bytes(obj, b, sizeof(b));
		snprintf(err, err_len, "--object-size %s: not a multiple of --op-size %s", b, a);
		return -EINVAL;
	}
	if (o->op_size_bytes < 64 && !CCB_RADOS_OPTS(o)->no_verify) {
		snprintf(err, err_len,
		         "--op-size %llu: ops under 64 bytes cannot carry the verification "
		         "header; add --no-verify",
		         (unsigned long long)o->op_size_bytes);
		return -EINVAL;
	}
	return 0;
}

/* A write run may be bounded by --max-objects whole objects. */
static uint64_t rados_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                     uint64_t image_bytes, const char **bound)
{
	(void)one_pass;
	(void)image_bytes;
	if (mode != CCB_MODE_WRITE || !CCB_RADOS_OPTS(o)->max_objects)
		return 0;
	*bound = "max-objects";
	return CCB_RADOS_OPTS(o)->max_objects *
	       (o->object_size_bytes ? o->object_size_bytes : o->op_size_bytes);
}

const struct ccb_path_ops ccb_path_rados = {
    .name = "rados",
    .caps = CCB_CMD_WORKLOAD | CCB_CAP_POOL | CCB_CAP_OBJECTS | CCB_CAP_REUSE | CCB_CAP_QUEUE |
            CCB_CAP_CLIENTS | CCB_CAP_OBJECT_SIZE | CCB_CAP_POOL_TYPE | CCB_CAP_OP_SIZE,
    .opts_bytes = sizeof(struct ccb_rados_opts),
    .op_size_name = "op-size",
    .validate = rados_validate,
    .estimate_bytes = rados_estimate_bytes,
    .prepare = rados_prepare,
    .client_open = rados_client_open,
    .submit = rados_submit,
    .complete = rados_complete,
    .describe = rados_describe,
    .release = rados_release,
    .client_close = rados_client_close,
    .finish = rados_finish,
    .stalled = rados_stalled,
    .commands = ccb_rados_commands,
    .options = ccb_rados_options,
    .attr_target = rados_attr_target,
    .op_object = rados_op_object,
};
