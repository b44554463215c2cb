/*
 * A run's pools as the mon describes them, and the space a write cost
 * them. Read-only mon commands on the run's own control connection, each
 * bounded by --connect-timeout. The replies come from a cluster we do not
 * control: every figure is checked for its type and range, strings for
 * their length, arrays for their count, before it enters a result.
 */
#include <ccbench/cluster.h>
#include <ccbench/pool_info.h>

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounds on what a reply may hold before we stop reading it. */
#define MAX_POOLS  65536
#define MAX_APPS   16
#define MAX_STR    128
#define MAX_K_M    256
#define MAX_PG_NUM (1 << 22)
#define MAX_SIZE   64

/* A string of @p o no longer than MAX_STR, else NULL. */
static const char *short_str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s && strlen(s) < MAX_STR ? s : NULL;
}

/* An integer of @p o within [lo, hi], else -1. */
static json_int_t int_in(const json_t *o, const char *key, json_int_t lo, json_int_t hi)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return -1;
	return json_integer_value(v);
}

/* A profile's number ("2": the mon gives them as strings) within [1, MAX_K_M]. */
static int profile_num(const json_t *profile, const char *key)
{
	const char *s = short_str(profile, key);
	char *end;
	long v;

	if (!s)
		return -1;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 1 || v > MAX_K_M)
		return -1;
	return (int)v;
}

static const json_t *find_pool(const json_t *osd_dump, const char *pool)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(osd_dump, "pools"), i, p)
	{
		const char *name = short_str(p, "pool_name");

		if (i >= MAX_POOLS)
			break;
		if (name && strcmp(name, pool) == 0)
			return p;
	}
	return NULL;
}

static json_t *erasure_part(const json_t *p, const json_t *profile, int ec_opt)
{
	const char *flags = json_string_value(json_object_get(p, "flags_names"));
	const char *name = short_str(p, "erasure_code_profile");
	int k = profile_num(profile, "k"), m = profile_num(profile, "m");
	json_int_t width = int_in(p, "stripe_width", 0, (json_int_t)1 << 32);
	json_t *e =
	    json_pack("{s:s?, s:s?, s:s?, s:s?}", "profile", name, "plugin",
	              short_str(profile, "plugin"), "technique", short_str(profile, "technique"),
	              "crush_failure_domain", short_str(profile, "crush-failure-domain"));

	if (!e)
		return NULL;
	if (k > 0)
		json_object_set_new(e, "k", json_integer(k));
	if (m > 0)
		json_object_set_new(e, "m", json_integer(m));
	if (width >= 0) {
		json_object_set_new(e, "stripe_width", json_integer(width));
		/* The pool keeps the stripe's width (k chunks); a chunk is
		 * what a profile calls stripe_unit. */
		if (k > 0 && width % k == 0)
			json_object_set_new(e, "stripe_unit", json_integer(width / k));
	}
	json_object_set_new(e, "allow_ec_overwrites",
	                    json_boolean(ccb_cluster_has_flag(flags, "ec_overwrites")));
	json_object_set_new(e, "allow_ec_optimizations",
	                    ec_opt < 0 ? json_string(CCB_POOL_NO_FASTEC)
	                               : json_boolean(ec_opt > 0));
	return e;
}

json_t *ccb_pool_describe_parse(const json_t *osd_dump, const char *pool, const json_t *profile,
                                int ec_opt)
{
	const json_t *p = pool ? find_pool(osd_dump, pool) : NULL, *v;
	json_int_t type;
	json_t *d, *apps;
	const char *key;

	if (!p)
		return NULL;
	type = int_in(p, "type", 0, 255);
	d = json_pack("{s:s, s:I, s:s}", "name", pool, "id", int_in(p, "pool", 0, INT64_MAX),
	              "type",
	              type == 1   ? "replicated"
	              : type == 3 ? "erasure"
	                          : "other");
	apps = json_array();
	if (!d || !apps) {
		json_decref(d);
		json_decref(apps);
		return NULL;
	}
	json_object_set_new(d, "size", json_integer(int_in(p, "size", 0, MAX_SIZE)));
	json_object_set_new(d, "min_size", json_integer(int_in(p, "min_size", 0, MAX_SIZE)));
	json_object_set_new(d, "pg_num", json_integer(int_in(p, "pg_num", 0, MAX_PG_NUM)));
	json_object_foreach((json_t *)json_object_get(p, "application_metadata"), key, v)
	{
		(void)v;
		if (json_array_size(apps) < MAX_APPS && strlen(key) < MAX_STR)
			json_array_append_new(apps, json_string(key));
	}
	json_object_set_new(d, "application", apps);
	if (type == 3) {
		json_t *e = erasure_part(p, profile, ec_opt);

		if (!e) {
			json_decref(d);
			return NULL;
		}
		json_object_set_new(d, "erasure", e);
	}
	return d;
}

/*
 * allow_ec_optimizations is Tentacle's (FastEC): an older mon refuses the
 * variable itself (EINVAL, "not in size|min_size|..."), which is how we
 * tell the release has none, without a table of versions.
 */
static int ec_optimizations(rados_t r, const char *pool)
{
	char cmd[256];
	json_t *j, *v;
	int err = 0, on;

	snprintf(cmd, sizeof(cmd),
	         "{\"prefix\": \"osd pool get\", \"pool\": \"%s\", \"var\": "
	         "\"allow_ec_optimizations\", \"format\": \"json\"}",
	         pool);
	j = ccb_cluster_mon_json(r, cmd, &err);
	if (!j)
		return err == -EINVAL ? -1 : 0;
	v = json_object_get(j, "allow_ec_optimizations");
	on = json_is_true(v) || (json_is_string(v) && strcmp(json_string_value(v), "true") == 0);
	json_decref(j);
	return on;
}

/* A pool name goes into a JSON command as is: refuse what would need escaping. */
static bool plain_name(const char *s)
{
	if (!s || !*s || strlen(s) >= MAX_STR)
		return false;
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20)
			return false;
	return true;
}

int ccb_pool_describe(rados_t r, const char *pool, json_t **out, char *err, size_t len)
{
	json_t *dump, *profile = NULL;
	const json_t *p;
	char cmd[256];
	int ret = 0, ec_opt = -1;

	*out = NULL;
	if (!plain_name(pool)) {
		snprintf(err, len, "pool '%s': not a name the mon takes", pool ? pool : "");
		return -EINVAL;
	}
	dump = ccb_cluster_mon_json(r, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &ret);
	if (!dump) {
		snprintf(err, len, "osd dump: %s", strerror(-ret));
		return ret;
	}
	p = find_pool(dump, pool);
	if (!p) {
		snprintf(err, len, "pool '%s': no such pool", pool);
		json_decref(dump);
		return -ENOENT;
	}
	if (int_in(p, "type", 0, 255) == 3) {
		const char *name = short_str(p, "erasure_code_profile");

		if (!plain_name(name)) {
			snprintf(err, len, "pool '%s': osd dump names no valid EC profile", pool);
			json_decref(dump);
			return -EBADMSG;
		}
		snprintf(cmd, sizeof(cmd),
		         "{\"prefix\": \"osd erasure-code-profile get\", \"name\": \"%s\", "
		         "\"format\": \"json\"}",
		         name);
		profile = ccb_cluster_mon_json(r, cmd, &ret);
		if (!profile) {
			snprintf(err, len, "osd erasure-code-profile get %s: %s", name,
			         strerror(-ret));
			json_decref(dump);
			return ret;
		}
		ec_opt = ec_optimizations(r, pool);
	}
	*out = ccb_pool_describe_parse(dump, pool, profile, ec_opt);
	json_decref(dump);
	json_decref(profile);
	if (!*out) {
		snprintf(err, len, "pool '%s': %s", pool, strerror(ENOMEM));
		return -ENOMEM;
	}
	return 0;
}

/* ---- space ------------------------------------------------------------- */

json_t *ccb_pool_df_parse(const json_t *df, const char *pool)
{
	const json_t *p, *st;
	size_t i;

	json_array_foreach(json_object_get(df, "pools"), i, p)
	{
		const char *name = short_str(p, "name");
		json_int_t stored, used, raw, objects;

		if (i >= MAX_POOLS)
			break;
		if (!name || !pool || strcmp(name, pool) != 0)
			continue;
		st = json_object_get(p, "stats");
		stored = int_in(st, "stored", 0, INT64_MAX);
		used = int_in(st, "bytes_used", 0, INT64_MAX);
		objects = int_in(st, "objects", 0, INT64_MAX);
		/* stored_raw is a double in some releases' replies. */
		raw = json_is_number(json_object_get(st, "stored_raw"))
		          ? (json_int_t)json_number_value(json_object_get(st, "stored_raw"))
		          : -1;
		if (stored < 0 || used < 0 || objects < 0)
			return NULL;
		return json_pack("{s:I, s:I, s:I, s:I}", "stored", stored, "used", used,
		                 "stored_raw", raw < 0 ? stored : raw, "objects", objects);
	}
	return NULL;
}

json_t *ccb_pool_df(rados_t r, const char *pool)
{
	json_t *df, *s;
	int err = 0;

	df = ccb_cluster_mon_json(r,
	                          "{\"prefix\": \"df\", \"detail\": \"detail\", \"format\": "
	                          "\"json\"}",
	                          &err);
	if (!df)
		return json_pack("{s:s}", "error", strerror(-err));
	s = ccb_pool_df_parse(df, pool);
	json_decref(df);
	return s ? s : json_pack("{s:s}", "error", "df detail: no such pool in the reply");
}

static json_int_t fig(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

json_t *ccb_pool_space(const char *pool, const json_t *before, const json_t *after,
                       uint64_t bytes_written, uint64_t max_stored, uint64_t max_objects)
{
	json_int_t stored, used, raw, objects;
	bool legacy, reliable = true;
	char why[256] = "";
	double amp = 0;
	json_t *s;

	if (!json_is_integer(json_object_get(before, "stored")) ||
	    !json_is_integer(json_object_get(after, "stored")))
		return NULL;
	stored = fig(after, "stored") - fig(before, "stored");
	used = fig(after, "used") - fig(before, "used");
	raw = fig(after, "stored_raw") - fig(before, "stored_raw");
	objects = fig(after, "objects") - fig(before, "objects");
	/* Where the OSDs keep no per-pool usage, the mon shows USED as
	 * STORED: a 3-copy pool would seem to cost nothing extra. Its raw
	 * rate is still known (stored_raw is STORED x the pool's rate). */
	legacy = used == stored && raw > stored;
	if (bytes_written)
		amp = (double)(legacy ? raw : used) / (double)bytes_written;
	if (objects < 0 || stored < 0) {
		reliable = false;
		snprintf(why, sizeof(why),
		         "the pool lost %s during the run: another client removed data beside it",
		         objects < 0 ? "objects" : "bytes");
	} else if ((uint64_t)objects > max_objects) {
		reliable = false;
		snprintf(why, sizeof(why),
		         "the pool gained %lld objects, more than the run's %" PRIu64
		         " at most: another client wrote beside it",
		         (long long)objects, max_objects);
	} else if ((uint64_t)stored > max_stored) {
		reliable = false;
		snprintf(why, sizeof(why),
		         "the pool stored %lld bytes more, beyond the run's %" PRIu64
		         " at most: another client wrote beside it",
		         (long long)stored, max_stored);
	} else if (bytes_written && stored == 0 && objects == 0) {
		reliable = false;
		snprintf(why, sizeof(why),
		         "the pool's figures did not change: the mon's statistics lag the run");
	}
	s = json_pack("{s:s, s:O, s:O, s:I, s:I, s:I, s:I, s:I, s:f, s:s, s:b}", "pool", pool,
	              "before", before, "after", after, "bytes_written", (json_int_t)bytes_written,
	              "stored_delta", stored, "used_delta", used, "stored_raw_delta", raw,
	              "objects_delta", objects, "amplification", amp, "amplification_of",
	              legacy ? "stored_raw" : "used", "reliable", reliable);
	/* What the pool's redundancy cost per byte it gained, whatever the
	 * run overwrote (a pass over an image again and again adds nothing). */
	if (s && stored > 0)
		json_object_set_new(s, "raw_per_stored",
		                    json_real((double)(legacy ? raw : used) / (double)stored));
	if (s && why[0])
		json_object_set_new(s, "why", json_string(why));
	return s;
}
