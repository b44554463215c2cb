/*
 * The OSD op scheduler, read from one OSD's running configuration (see
 * cluster_sched.h). Read-only: `osd dump` and `osd metadata` from the mon,
 * `config show` from the OSD.
 */
#include <ccbench/cluster.h>
#include <ccbench/cluster_sched.h>

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An option of @p config as a number; NAN when absent or not one. */
static double opt_num(const json_t *config, const char *key)
{
	const char *s = json_string_value(json_object_get(config, key));
	char *end;
	double v;

	if (!s || !*s)
		return NAN;
	v = strtod(s, &end);
	return end == s || *end ? NAN : v;
}

static const char *opt_str(const json_t *config, const char *key)
{
	return json_string_value(json_object_get(config, key));
}

/* The number @p v, or null when it is NAN. */
static json_t *num_or_null(double v)
{
	return isnan(v) ? json_null() : json_real(v);
}

json_t *ccb_cluster_sched_parse(int osd, const json_t *config, const json_t *metadata)
{
	const char *queue = opt_str(config, "osd_op_queue");
	const char *rot = json_string_value(json_object_get(metadata, "rotational"));
	const char *ver = json_string_value(json_object_get(metadata, "ceph_version_short"));
	char name[32];
	json_t *s, *m;

	snprintf(name, sizeof(name), "osd.%d", osd);
	s = json_pack("{s:s, s:s*, s:s*}", "osd", name, "ceph_version", ver, "osd_op_queue", queue);
	if (!s)
		return NULL;
	if (rot)
		json_object_set_new(s, "rotational", json_boolean(strcmp(rot, "1") == 0));
	if (!queue || strcmp(queue, "mclock_scheduler") != 0)
		return s;

	bool hdd = rot && strcmp(rot, "1") == 0;
	const char *res_s = opt_str(config, "osd_mclock_scheduler_client_res");
	const char *lim_s = opt_str(config, "osd_mclock_scheduler_client_lim");
	double res = opt_num(config, "osd_mclock_scheduler_client_res");
	double wgt = opt_num(config, "osd_mclock_scheduler_client_wgt");
	double lim = opt_num(config, "osd_mclock_scheduler_client_lim");
	const char *cap_opt =
	    hdd ? "osd_mclock_max_capacity_iops_hdd" : "osd_mclock_max_capacity_iops_ssd";
	double cap = opt_num(config, cap_opt);
	double shards = opt_num(config, "osd_op_num_shards");
	/* Float options print with a point ("0.500000"), Pacific's uint
	 * ones without: the type says the unit, whatever the release. */
	bool share = (res_s && strchr(res_s, '.')) || (lim_s && strchr(lim_s, '.'));
	double res_iops = NAN, lim_iops = NAN;

	if (isnan(shards) || shards <= 0)
		shards = opt_num(config, hdd ? "osd_op_num_shards_hdd" : "osd_op_num_shards_ssd");
	if (share) {
		if (!isnan(cap) && cap > 0) {
			res_iops = res > 0 ? res * cap : 0;
			lim_iops = lim > 0 ? lim * cap : NAN;
		}
	} else if (!isnan(shards) && shards > 0) {
		res_iops = res > 0 ? res * shards : 0;
		lim_iops = lim > 0 && lim < CCB_SCHED_PACIFIC_MAX ? lim * shards : NAN;
	}
	m = json_pack("{s:s?, s:s, s:{s:o, s:o, s:o}, s:o, s:s, s:o, s:o}", "profile",
	              opt_str(config, "osd_mclock_profile"), "qos_unit",
	              share ? "capacity_share" : "iops_per_shard", "client", "res",
	              num_or_null(res), "wgt", num_or_null(wgt), "lim", num_or_null(lim),
	              "capacity_iops", num_or_null(cap), "capacity_option", cap_opt, "shards",
	              num_or_null(shards), "client_reservation_iops", num_or_null(res_iops));
	if (m && !isnan(lim_iops))
		json_object_set_new(m, "client_limit_iops", json_real(lim_iops));
	if (!m || json_object_set_new(s, "mclock", m) < 0) {
		json_decref(s);
		return NULL;
	}
	return s;
}

/* The lowest-numbered OSD that is up in @p dump, or -1. */
static int first_up(const json_t *dump)
{
	const json_t *o;
	size_t i;
	int best = -1;

	json_array_foreach(json_object_get(dump, "osds"), i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "osd"));

		if (json_integer_value(json_object_get(o, "up")) == 1 && (best < 0 || id < best))
			best = id;
	}
	return best;
}

json_t *ccb_cluster_sched(rados_t r)
{
	json_t *dump, *config = NULL, *meta = NULL, *s = NULL;
	char cmd[128], why[160];
	int err = 0, osd;

	dump = ccb_cluster_mon_json(r, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &err);
	if (!dump) {
		snprintf(why, sizeof(why), "mon command osd dump: %s", strerror(-err));
		return json_pack("{s:s}", "error", why);
	}
	osd = first_up(dump);
	json_decref(dump);
	if (osd < 0)
		return json_pack("{s:s}", "error", "no OSD is up to ask");
	/* An OSD that went down since the map was read answers -ENXIO at
	 * once; one that hangs (frozen, still up in the map) ends when the
	 * mon marks it down (-ENXIO: measured 9 s after a SIGSTOP with a 6 s
	 * heartbeat grace), or at rados_osd_op_timeout (--op-timeout). */
	config = ccb_cluster_osd_json(r, osd, "{\"prefix\": \"config show\", \"format\": \"json\"}",
	                              &err);
	if (!json_is_object(config)) {
		snprintf(why, sizeof(why), "tell osd.%d config show: %s%s", osd,
		         strerror(err ? -err : EBADMSG),
		         err == -ENXIO ? " (it went down before it answered)" : "");
		json_decref(config);
		return json_pack("{s:s}", "error", why);
	}
	snprintf(cmd, sizeof(cmd),
	         "{\"prefix\": \"osd metadata\", \"id\": %d, \"format\": \"json\"}", osd);
	/* The device class and version only refine the record. */
	meta = ccb_cluster_mon_json(r, cmd, &(int){0});
	s = ccb_cluster_sched_parse(osd, config, meta);
	json_decref(config);
	json_decref(meta);
	return s;
}
