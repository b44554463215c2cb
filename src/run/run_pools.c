/*
 * A run's pools in its result, the user's expectations of them checked
 * before anything is created, and what a write cost the data pool.
 */
#include <ccbench/engine.h>
#include <ccbench/pool_info.h>
#include <ccbench/run_pools.h>

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const char *ptype(const json_t *d)
{
	const char *t = json_string_value(json_object_get(d, "type"));
	return t ? t : "other";
}

static bool fastec_on(const json_t *d)
{
	return json_is_true(
	    json_object_get(json_object_get(d, "erasure"), "allow_ec_optimizations"));
}

/* What the options rule out for the data pool @p d; 0 or -EINVAL, said on stderr. */
static int check_data_pool(const struct ccb_opts *o, const json_t *d, const char *name,
                           bool needs_overwrites)
{
	const char *want = o->data_pool_type, *t = ptype(d);
	const json_t *e = json_object_get(d, "erasure");

	if (o->fastec_pool && strcmp(o->fastec_pool, name) == 0)
		want = "fastec";
	if (want && strcmp(want, "replicated") == 0 && strcmp(t, "replicated") != 0) {
		fprintf(stderr, "ccbench: pool '%s' is %s, not replicated (--data-pool-type)\n",
		        name, t);
		return -EINVAL;
	}
	if (want && strcmp(want, "replicated") != 0 && strcmp(t, "erasure") != 0) {
		fprintf(stderr, "ccbench: pool '%s' is %s, not erasure-coded (%s)\n", name, t,
		        o->data_pool_type ? "--data-pool-type" : "--fastec-pool");
		return -EINVAL;
	}
	if (want && strcmp(want, "fastec") == 0 && !fastec_on(d)) {
		const json_t *v = json_object_get(e, "allow_ec_optimizations");

		fprintf(stderr,
		        "ccbench: pool '%s' has no FastEC: allow_ec_optimizations is %s%s\n", name,
		        json_is_string(v) ? "not on this release" : "off",
		        json_is_string(v) ? " (Tentacle 20.2 has it)" : "");
		return -EINVAL;
	}
	/* librbd writes parts of objects; an EC pool refuses that unless it
	 * allows overwrites, and the first write would fail mid-run. */
	if (needs_overwrites && e && !json_is_true(json_object_get(e, "allow_ec_overwrites"))) {
		fprintf(
		    stderr,
		    "ccbench: --data-pool '%s' is erasure-coded without allow_ec_overwrites: rbd "
		    "cannot write to it (ceph osd pool set %s allow_ec_overwrites true)\n",
		    name, name);
		return -EINVAL;
	}
	return 0;
}

int ccb_run_pools(struct ccb_run *run, rados_t r, const char *metadata_pool, const char *data_pool,
                  bool needs_overwrites)
{
	const struct ccb_opts *o = run->opts;
	json_t *pools, *meta = NULL, *data = NULL;
	char err[512];
	int ret;

	if (!run->extra && !(run->extra = json_object()))
		return -ENOMEM;
	if (metadata_pool) {
		ret = ccb_pool_describe(r, metadata_pool, &meta, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "ccbench: %s\n", err);
			run->bad_input = ret == -ENOENT;
			return ret;
		}
		/* No omap on an EC pool: an image's header cannot live there. */
		if (strcmp(ptype(meta), "erasure") == 0) {
			fprintf(stderr,
			        "ccbench: pool '%s' is erasure-coded: an image's metadata needs a "
			        "replicated pool; give the EC pool as --data-pool\n",
			        metadata_pool);
			json_decref(meta);
			run->bad_input = true;
			return -EINVAL;
		}
	}
	if (data_pool && metadata_pool && strcmp(data_pool, metadata_pool) == 0) {
		data = json_incref(meta);
	} else if (data_pool) {
		ret = ccb_pool_describe(r, data_pool, &data, err, sizeof(err));
		if (ret < 0) {
			fprintf(stderr, "ccbench: %s%s\n", metadata_pool ? "--data-pool: " : "",
			        err);
			json_decref(meta);
			run->bad_input = ret == -ENOENT;
			return ret;
		}
	}
	if (data && check_data_pool(o, data, data_pool, needs_overwrites) < 0) {
		json_decref(meta);
		json_decref(data);
		run->bad_input = true;
		return -EINVAL;
	}
	pools = json_object();
	if (!pools) {
		json_decref(meta);
		json_decref(data);
		return -ENOMEM;
	}
	if (meta)
		json_object_set_new(pools, "metadata", meta);
	if (data)
		json_object_set_new(pools, "data", data);
	return json_object_set_new(run->extra, "pools", pools) < 0 ? -ENOMEM : 0;
}

/* ---- space ------------------------------------------------------------- */

static json_int_t fig(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static bool same(const json_t *a, const json_t *b)
{
	return fig(a, "stored") == fig(b, "stored") && fig(a, "used") == fig(b, "used") &&
	       fig(a, "objects") == fig(b, "objects");
}

/*
 * The mon's df is the mgr's digest of what the OSDs last reported, every
 * mgr_stats_period (5 s by default): right after the run it may not show
 * the run's last writes. So read it each second until it has moved from
 * the start's and held still for one read, 8 reads at most.
 */
static json_t *df_settled(rados_t r, const char *pool, const json_t *before,
                          const volatile sig_atomic_t *cancel)
{
	json_t *prev = ccb_pool_df(r, pool), *now;

	for (int i = 0; i < 7 && prev && !json_object_get(prev, "error"); i++) {
		if (cancel && *cancel)
			break;
		nanosleep(&(struct timespec){1, 0}, NULL);
		now = ccb_pool_df(r, pool);
		if (!now || json_object_get(now, "error")) {
			json_decref(now);
			break;
		}
		if (same(now, prev) && !same(now, before)) {
			json_decref(prev);
			return now;
		}
		json_decref(prev);
		prev = now;
	}
	return prev;
}

void ccb_run_space(struct ccb_run *run, rados_t r, bool start, const volatile sig_atomic_t *cancel)
{
	const json_t *data = json_object_get(json_object_get(run->extra, "pools"), "data");
	const char *pool = json_string_value(json_object_get(data, "name"));
	json_t *sp = json_object_get(run->extra, "space"), *before, *after, *s;
	uint64_t bytes = 0, max_stored, obj_bytes, max_objects, width;

	if (!run->is_write || run->no_space || !pool || !r)
		return;
	if (start) {
		json_object_set_new(
		    run->extra, "space",
		    json_pack("{s:s, s:o}", "pool", pool, "before", ccb_pool_df(r, pool)));
		return;
	}
	before = json_object_get(sp, "before");
	if (!before || json_object_get(before, "error"))
		return;
	for (unsigned i = 0; run->clients && i < run->n_clients; i++)
		bytes += atomic_load(&run->clients[i].bytes_done);
	after = df_settled(r, pool, before, cancel);
	if (!after || json_object_get(after, "error")) {
		json_object_set_new(
		    sp, "error",
		    json_string(after ? json_string_value(json_object_get(after, "error"))
		                      : "df detail: no answer"));
		json_decref(after);
		return;
	}
	/* What the run could have added: an image's whole size (rbd), else
	 * its bytes (rados). */
	max_stored = (uint64_t)json_integer_value(json_object_get(run->layout, "size"));
	if (!max_stored)
		max_stored = bytes;
	obj_bytes = (uint64_t)json_integer_value(json_object_get(run->layout, "object_size"));
	if (!obj_bytes)
		obj_bytes = 4 << 20;
	max_objects = (max_stored + obj_bytes - 1) / obj_bytes + 2;
	/* An EC pool stores each object in whole stripes (k x stripe_unit):
	 * its STORED counts a 4K object of a 2+1 pool with 4K units as 8K
	 * (seen on bluestore, t_ec_used). Such padding is the run's own. */
	width = (uint64_t)json_integer_value(
	    json_object_get(json_object_get(data, "erasure"), "stripe_width"));
	if (width && obj_bytes % width)
		max_stored = max_objects * ((obj_bytes + width - 1) / width * width);
	/* A run's small objects beside its data: rados's meta, librbd's own. */
	max_stored += 65536;
	s = ccb_pool_space(pool, before, after, bytes, max_stored, max_objects);
	json_decref(after);
	if (s)
		json_object_set_new(run->extra, "space", s);
}
