/*
 * The librbd path's per-client settings: what the options ask of librbd
 * (cache, cache policy, readahead, zero-copy writes, simulated latency),
 * set on each client's handle before it connects, and what librbd then
 * really uses, read back for the result.
 *
 * Its own file: the settings are the path's readahead and cache
 * experiment, read apart from the image's set-up and the ops, and they
 * need nothing of either (path_rbd.c calls them at a client's open).
 */
#include <ccbench/cluster.h>
#include <ccbench/options.h>
#include <ccbench/path.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path_rbd_int.h"
#include "rbd_opts.h"

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
int ccb_rbd_apply_settings(struct ccb_run *run, rados_t r, bool warn, char *err, size_t err_len)
{
	const struct ccb_opts *o = run->opts;
	char v[64];
	int ret = 0;

	if (CCB_RBD_OPTS(o)->no_cache)
		ret = conf_set(r, "rbd_cache", "false", err, err_len);
	if (!ret && CCB_RBD_OPTS(o)->cache_policy)
		ret = conf_set(r, "rbd_cache_policy", CCB_RBD_OPTS(o)->cache_policy, err, err_len);
	if (!ret && ccb_opt_given(o, "readahead")) {
		snprintf(v, sizeof(v), "%" PRIu64, CCB_RBD_OPTS(o)->readahead_bytes);
		ret = conf_set(r, "rbd_readahead_max_bytes", v, err, err_len);
		if (!ret && !CCB_RBD_OPTS(o)->cache_policy && CCB_RBD_OPTS(o)->readahead_bytes) {
			ret = conf_set(r, "rbd_cache_policy", "writeback", err, err_len);
			if (warn)
				ccb_run_warn(run,
				             "--readahead without --cache-policy: using writeback, "
				             "since librbd reads ahead only under writeback or "
				             "writethrough");
		} else if (!ret && CCB_RBD_OPTS(o)->cache_policy &&
		           strcmp(CCB_RBD_OPTS(o)->cache_policy, "writearound") == 0 &&
		           CCB_RBD_OPTS(o)->readahead_bytes && warn) {
			ccb_run_warn(run,
			             "readahead inactive: librbd ignores "
			             "rbd_readahead_max_bytes under --cache-policy writearound");
			fprintf(stderr,
			        "ccbench: warning: readahead inactive: librbd ignores "
			        "rbd_readahead_max_bytes under --cache-policy writearound\n");
		}
	}
	if (!ret && CCB_RBD_OPTS(o)->readahead_trigger) {
		snprintf(v, sizeof(v), "%" PRIu64, CCB_RBD_OPTS(o)->readahead_trigger);
		ret = conf_set(r, "rbd_readahead_trigger_requests", v, err, err_len);
	}
	if (!ret) {
		snprintf(v, sizeof(v), "%" PRIu64, CCB_RBD_OPTS(o)->readahead_disable_after_bytes);
		ret = conf_set(r, "rbd_readahead_disable_after_bytes", v, err, err_len);
	}
	if (!ret && ccb_opt_given(o, "cache-size")) {
		snprintf(v, sizeof(v), "%" PRIu64, CCB_RBD_OPTS(o)->cache_size_bytes);
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
	if (!ret && o->sim_osd_latency_usec)
		ret = ccb_cluster_set_sim_latency(r, o->sim_osd_latency_usec, err, err_len);
	return ret;
}

/* The settings librbd will really use, read back rather than assumed. */
json_t *ccb_rbd_effective_settings(rados_t r, bool simulated)
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
	    "rbd_read_from_replica_policy",
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
