/*
 * OSD-side injected latency: the one change ccbench makes to the cluster's
 * daemons. Every step is ordered so that nothing is set that could not be
 * put back: the policy and the permissions are checked and each OSD's
 * earlier values read first, the undo (with its crash record) is logged
 * next, and only then is any OSD told. The OSDs are told through
 * librados' osd command (what `ceph tell osd.N` sends), on a connection of
 * this module's own that lives as long as the injection, bounded by short
 * op timeouts so that an unwind against a frozen cluster ends.
 *
 * Ceph reads ms_inject_delay_type when a connection is made (it gives the
 * connection a delay queue) and the other two for each message, so
 * putting ms_inject_delay_probability back first stops the delays of
 * every connection at once, and a run's own connections, made after the
 * set, are delayed from their first message.
 */
#include <ccbench/cluster.h>
#include <ccbench/cluster_state.h>
#include <ccbench/osd_inject.h>
#include <ccbench/restore.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <rados/librados.h>

/* The three keys, in the order they are set; the undo runs them backwards
 * (probability first: it stops every connection's delays at once). */
static const char *const inject_keys[] = {"ms_inject_delay_max", "ms_inject_delay_type",
                                          "ms_inject_delay_probability"};
#define N_KEYS (sizeof(inject_keys) / sizeof(inject_keys[0]))

/* Tells to an OSD are bounded by this, whatever --op-timeout says: an
 * unwind tells each OSD up to three times. */
#define TELL_TIMEOUT_S "10"

/* The one injection of this process. */
static struct {
	rados_t cl;
	bool connected, active;
	uint64_t usec;
	json_t *record; /* what was set, and each OSD's earlier values */
	json_t *said;   /* texts of ccb_osd_inject_check() already printed */
} inj;

/* ---- pure checks ------------------------------------------------------------ */

bool ccb_host_is_loopback(const char *host)
{
	struct in_addr a4;
	struct in6_addr a6;

	if (!host)
		return false;
	if (inet_pton(AF_INET, host, &a4) == 1)
		return (ntohl(a4.s_addr) >> 24) == 127;
	if (inet_pton(AF_INET6, host, &a6) == 1) {
		static const unsigned char v4mapped[12] = {0, 0, 0, 0, 0,    0,
		                                           0, 0, 0, 0, 0xff, 0xff};
		if (IN6_IS_ADDR_LOOPBACK(&a6))
			return true;
		return memcmp(a6.s6_addr, v4mapped, 12) == 0 && a6.s6_addr[12] == 127;
	}
	return false;
}

int ccb_osd_inject_policy(const json_t *hosts, const char *fsid, const char *confirm_fsid,
                          char *why, size_t why_len)
{
	const json_t *h;
	const char *remote = NULL;
	size_t i;

	if (confirm_fsid) {
		if (fsid && strcasecmp(confirm_fsid, fsid) == 0)
			return 0;
		snprintf(why, why_len,
		         "--osd-latency-cluster %s: this cluster is %s; refused (the option names "
		         "the cluster whose every client you accept to slow down)",
		         confirm_fsid, fsid ? fsid : "(unknown)");
		return -EPERM;
	}
	json_array_foreach(hosts, i, h)
	{
		if (!ccb_host_is_loopback(json_string_value(h))) {
			remote = json_string_value(h);
			break;
		}
	}
	if (!json_array_size(hosts) || remote) {
		snprintf(why, why_len,
		         "--osd-latency delays every client of the cluster, not only this run: "
		         "refused on a cluster whose daemons listen beyond this host (%s%s); if "
		         "every client of it may be slowed down, name it with "
		         "--osd-latency-cluster %s",
		         remote ? remote : "no address found",
		         remote ? " is not a loopback address" : "", fsid ? fsid : "FSID");
		return -EPERM;
	}
	return 0;
}

/* A value as the record holds it: null (no override), or a short printable string. */
static bool valid_value(const json_t *v)
{
	const char *s = json_string_value(v);

	return json_is_null(v) || (s && strlen(s) <= 64 && ccb_is_printable(s));
}

static int bad(char *why, size_t len, const char *what)
{
	snprintf(why, len, "invalid record (osd_inject): %s; nothing touched", what);
	return -EINVAL;
}

int ccb_osd_inject_check_record(const json_t *rec, char *why, size_t why_len)
{
	const json_t *set = json_object_get(rec, "set"), *osds = json_object_get(rec, "osds"), *o;
	const char *type = json_string_value(json_object_get(set, "ms_inject_delay_type"));
	const char *max = json_string_value(json_object_get(set, "ms_inject_delay_max"));
	const char *prob = json_string_value(json_object_get(set, "ms_inject_delay_probability"));
	char *end;
	size_t i;

	const char *kind = json_string_value(json_object_get(rec, "kind")), *what;

	if (!json_is_object(rec) || !kind || strcmp(kind, "osd_inject") != 0)
		return bad(why, why_len, "kind is not osd_inject");
	if (!ccb_is_fsid(json_string_value(json_object_get(rec, "fsid"))))
		return bad(why, why_len, "fsid is not a cluster fsid");
	/* Only what start() writes: type client, a delay of at most 20 s, always. */
	if (!type || strcmp(type, "client") != 0)
		return bad(why, why_len, "set.ms_inject_delay_type is not \"client\"");
	if (!max || !*max || strtod(max, &end) <= 0 || *end || strtod(max, NULL) > 20)
		return bad(why, why_len, "set.ms_inject_delay_max is not a delay in seconds");
	if (!prob || strcmp(prob, "1") != 0)
		return bad(why, why_len, "set.ms_inject_delay_probability is not 1");
	if (!json_is_array(osds) || !json_array_size(osds) || json_array_size(osds) > 65536)
		return bad(why, why_len, "osds is not a list of OSDs");
	json_array_foreach(osds, i, o)
	{
		const json_t *before = json_object_get(o, "before");
		json_int_t id = json_integer_value(json_object_get(o, "id"));

		if (!json_is_integer(json_object_get(o, "id")) || id < 0 || id > INT32_MAX ||
		    !json_is_integer(json_object_get(o, "up_from")) ||
		    json_integer_value(json_object_get(o, "up_from")) < 0)
			return bad(why, why_len, "an OSD without a valid id and up_from");
		const json_t *was = json_object_get(o, "was");

		if (!json_is_object(before) || json_object_size(before) != N_KEYS ||
		    !json_is_object(was) || json_object_size(was) != N_KEYS)
			return bad(why, why_len, "an OSD without its three earlier values");
		for (size_t k = 0; k < N_KEYS; k++) {
			const json_t *v = json_object_get(before, inject_keys[k]);
			const json_t *w = json_object_get(was, inject_keys[k]);
			if (!v || !valid_value(v) || !json_is_string(w) || !valid_value(w))
				return bad(why, why_len,
				           "an earlier value that is not a short string");
		}
	}
	if (!ccb_cluster_record_conn_valid(rec, &what))
		return bad(why, why_len, what);
	return 0;
}

/* ---- talking to the cluster ---------------------------------------------------- */

/* The JSON reply of a mon command, or NULL with -errno in *ret. */
static json_t *mon_json(rados_t cl, const char *prefix, int *ret)
{
	char cmd[128], *out = NULL, *st = NULL;
	const char *cmds[] = {cmd};
	size_t out_len = 0, st_len = 0;
	json_t *j = NULL;

	snprintf(cmd, sizeof(cmd), "{\"prefix\": \"%s\", \"format\": \"json\"}", prefix);
	*ret = rados_mon_command(cl, cmds, 1, NULL, 0, &out, &out_len, &st, &st_len);
	if (*ret == 0 && !(j = json_loadb(out, out_len, 0, NULL)))
		*ret = -EBADMSG;
	rados_buffer_free(out);
	rados_buffer_free(st);
	return j;
}

/*
 * `tell osd.ID` @p cmd (stolen). @p out (may be NULL) receives the parsed
 * JSON reply. On failure the reason, naming the command, is in @p err.
 */
static int tell(rados_t cl, int id, json_t *cmd, json_t **out, char *err, size_t err_len)
{
	char *text = json_dumps(cmd, JSON_COMPACT), *ob = NULL, *st = NULL;
	const char *cmds[] = {text};
	size_t ob_len = 0, st_len = 0;
	const char *prefix = json_string_value(json_object_get(cmd, "prefix"));
	const char *var = json_string_value(json_object_get(cmd, "var"));
	int r;

	if (out)
		*out = NULL;
	if (!text) {
		json_decref(cmd);
		return -ENOMEM;
	}
	r = rados_osd_command(cl, id, cmds, 1, NULL, 0, &ob, &ob_len, &st, &st_len);
	if (r == 0 && out && !(*out = json_loadb(ob, ob_len, 0, NULL)))
		r = -EBADMSG;
	if (r < 0)
		snprintf(err, err_len, "tell osd.%d %s%s%s: %s%s%.*s", id, prefix ? prefix : "?",
		         var ? " " : "", var ? var : "", strerror(-r), st_len ? ": " : "",
		         (int)(st_len > 200 ? 200 : st_len), st ? st : "");
	rados_buffer_free(ob);
	rados_buffer_free(st);
	free(text);
	json_decref(cmd);
	return r;
}

static int tell_set(rados_t cl, int id, const char *key, const char *val, char *err, size_t err_len)
{
	return tell(cl, id,
	            json_pack("{s:s, s:s, s:[s]}", "prefix", "config set", "var", key, "val", val),
	            NULL, err, err_len);
}

static int tell_unset(rados_t cl, int id, const char *key, char *err, size_t err_len)
{
	return tell(cl, id, json_pack("{s:s, s:s}", "prefix", "config unset", "var", key), NULL,
	            err, err_len);
}

/* The value the OSD uses now, as `config get` prints it ("0.100000"). */
static int tell_get(rados_t cl, int id, const char *key, char *val, size_t val_len, char *err,
                    size_t err_len)
{
	json_t *out = NULL;
	int r =
	    tell(cl, id,
	         json_pack("{s:s, s:s, s:s}", "prefix", "config get", "var", key, "format", "json"),
	         &out, err, err_len);
	const char *s = json_string_value(json_object_get(out, key));

	if (r == 0 && !s) {
		snprintf(err, err_len, "tell osd.%d config get %s: no value in the reply", id, key);
		r = -EBADMSG;
	}
	if (r == 0)
		snprintf(val, val_len, "%s", s);
	json_decref(out);
	return r;
}

/* The same setting: "0.100000" is "0.1", "1.000000" is "1"; types compare as text. */
static bool same_value(const char *key, const char *a, const char *b)
{
	char *ea, *eb;
	double x, y;

	if (strcmp(key, "ms_inject_delay_type") == 0)
		return strcmp(a, b) == 0;
	x = strtod(a, &ea);
	y = strtod(b, &eb);
	return *a && *b && !*ea && !*eb && fabs(x - y) <= 1e-6 * fmax(1.0, fabs(y));
}

/*
 * The hosts the mons and the up OSDs advertise, as explain's cluster state
 * reads them from the same dumps. That list stops at 16 hosts: a full one
 * may hide more, so it gets a name that is no address, which the policy
 * refuses (a cluster of more than 16 hosts is no throwaway one anyway).
 */
static json_t *cluster_hosts(const json_t *osd_dump, const json_t *mon_dump)
{
	json_t *st = ccb_cluster_state_parse(NULL, osd_dump, mon_dump), *hosts = json_array();
	const char *const lists[] = {"mon_addrs", "osd_addrs"};

	for (size_t k = 0; k < 2; k++) {
		const json_t *l = json_object_get(st, lists[k]);
		json_array_extend(hosts, (json_t *)l);
		if (json_array_size(l) >= 16)
			json_array_append_new(hosts, json_string("(more than 16 addresses)"));
	}
	json_decref(st);
	return hosts;
}

/* ---- putting back ---------------------------------------------------------------- */

/*
 * Put back the earlier values of each OSD of @p rec on @p cl, where the
 * OSD still holds what was set. The OSD's own values decide, never its
 * up_from: an OSD marked down by its peers and up again (a loaded host)
 * gets a new up_from and keeps its run-time settings; one whose process
 * restarted has its earlier values back. An OSD that is down cannot be
 * asked: it keeps the record (an error), for `ccbench krbd restore` once
 * it is up. Appends what was done or left to @p msg.
 * @return 0, or the first -errno (the other OSDs are still done).
 */
static int put_back(rados_t cl, const json_t *rec, char *msg, size_t msg_len)
{
	const json_t *set = json_object_get(rec, "set"), *o;
	json_t *dump;
	size_t i, used = 0, restored = 0;
	int r, first = 0;
	char err[512];

#define SAY(...)                                                                                   \
	do {                                                                                       \
		int n_ = snprintf(msg + used, used < msg_len ? msg_len - used : 0, __VA_ARGS__);   \
		if (n_ > 0)                                                                        \
			used += (size_t)n_;                                                        \
		if (used >= msg_len)                                                               \
			used = msg_len ? msg_len - 1 : 0;                                          \
	} while (0)

	msg[0] = '\0';
	dump = mon_json(cl, "osd dump", &r);
	if (!dump) {
		SAY("osd dump: %s; the OSDs' settings are kept in the record", strerror(-r));
		return r;
	}
	json_array_foreach(json_object_get(rec, "osds"), i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "id"));
		const json_t *now = ccb_cluster_dump_osd(dump, id);
		size_t ours = 0, back = 0;
		bool osd_failed = false;

		if (!now) {
			SAY("%sosd.%d is no longer in the map: nothing to put back",
			    used ? "; " : "", id);
			restored++;
			continue;
		}
		if (!json_integer_value(json_object_get(now, "up"))) {
			SAY("%sosd.%d is down: its values cannot be checked; kept for `ccbench "
			    "krbd "
			    "restore` once it is up (a restart clears them anyway)",
			    used ? "; " : "", id);
			if (!first)
				first = -EAGAIN;
			continue;
		}
		/* Backwards: probability first, so the delays stop at once. */
		for (size_t k = N_KEYS; k-- > 0 && !osd_failed;) {
			const char *key = inject_keys[k];
			const char *want = json_string_value(json_object_get(set, key));
			const json_t *before = json_object_get(json_object_get(o, "before"), key);
			const char *was =
			    json_string_value(json_object_get(json_object_get(o, "was"), key));
			char cur[128];

			r = tell_get(cl, id, key, cur, sizeof(cur), err, sizeof(err));
			if (r == 0 && !same_value(key, cur, want)) {
				/* Never set (a start that stopped half way), back already
				 * (a restart), or someone else's since. */
				if (was && same_value(key, cur, was))
					back++;
				else
					SAY("%sosd.%d %s is '%s', not the '%s' ccbench set: "
					    "changed "
					    "since, left as it is",
					    used ? "; " : "", id, key, cur, want);
				continue;
			}
			if (r == 0)
				r = json_is_null(before)
				        ? tell_unset(cl, id, key, err, sizeof(err))
				        : tell_set(cl, id, key, json_string_value(before), err,
				                   sizeof(err));
			if (r < 0) {
				SAY("%s%s", used ? "; " : "", err);
				if (!first)
					first = r;
				osd_failed = true; /* one that does not answer: the next OSD */
			} else {
				ours++;
			}
		}
		if (osd_failed)
			continue;
		restored++;
		if (!ours && back == N_KEYS)
			SAY("%sosd.%d no longer delays (restarted since?): nothing to put back",
			    used ? "; " : "", id);
	}
	json_decref(dump);
	if (!first)
		SAY("%sput back on %zu of %zu OSD%s", used ? "; " : "", restored,
		    json_array_size(json_object_get(rec, "osds")),
		    json_array_size(json_object_get(rec, "osds")) == 1 ? "" : "s");
#undef SAY
	return first;
}

static int undo_inject(void *arg)
{
	char msg[2048];
	int r;

	(void)arg;
	if (!inj.connected)
		return -ENOTCONN;
	r = put_back(inj.cl, inj.record, msg, sizeof(msg));
	/* What did not go back as set is worth a line even when nothing failed. */
	if (r < 0 || strstr(msg, "no longer") || strstr(msg, "changed"))
		fprintf(stderr, "ccbench: --osd-latency: %s\n", msg);
	return r;
}

/* After the undo ran (or was dropped): the connection and the state go. */
static void free_inject(void *arg)
{
	(void)arg;
	if (inj.connected)
		rados_shutdown(inj.cl);
	json_decref(inj.record);
	json_decref(inj.said);
	memset(&inj, 0, sizeof(inj));
}

/* ---- setting ---------------------------------------------------------------------- */

/* Each up OSD's earlier values ({key: override or null}) and the refusals. */
static int read_before(rados_t cl, json_t *osds, char *err, size_t err_len)
{
	json_t *o;
	size_t i;

	json_array_foreach(osds, i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "id"));
		json_t *diff = NULL, *before = json_object(), *was = json_object(), *d;
		char cur[3][128];
		int r =
		    tell(cl, id, json_pack("{s:s, s:s}", "prefix", "config diff", "format", "json"),
		         &diff, err, err_len);

		if (r == -EACCES || r == -EPERM) {
			snprintf(err + strlen(err), err_len - strlen(err),
			         " (--osd-latency needs the OSDs to take `config set` from this "
			         "client, osd 'allow *' caps, to set and put back their values; "
			         "nothing was changed)");
			r = -EACCES;
		}
		if (r < 0) {
			json_decref(before);
			json_decref(was);
			json_decref(diff);
			return r;
		}
		d = json_object_get(diff, "diff");
		for (size_t k = 0; k < N_KEYS; k++) {
			/* config diff lists only what differs from the default: no
			 * "override" there means no run-time value to put back. */
			const json_t *ov =
			    json_object_get(json_object_get(d, inject_keys[k]), "override");
			char num[64];

			if (json_is_string(ov))
				json_object_set(before, inject_keys[k], (json_t *)ov);
			else if (json_is_number(ov))
				snprintf(num, sizeof(num), "%.6f", json_number_value(ov)),
				    json_object_set_new(before, inject_keys[k], json_string(num));
			else
				json_object_set_new(before, inject_keys[k], json_null());
			r = tell_get(cl, id, inject_keys[k], cur[k], sizeof(cur[k]), err, err_len);
			if (r < 0) {
				json_decref(before);
				json_decref(was);
				json_decref(diff);
				return r;
			}
			json_object_set_new(was, inject_keys[k], json_string(cur[k]));
		}
		json_decref(diff);
		/* Someone else's injection (or a run of ours still going): ours
		 * would hide in it, and its undo would end theirs. */
		if (cur[1][0] && strtod(cur[2], NULL) > 0) {
			snprintf(err, err_len,
			         "osd.%d already injects delays (ms_inject_delay_type '%s', "
			         "probability %s, max %s s): refused, nothing was changed",
			         id, cur[1], cur[2], cur[0]);
			json_decref(before);
			json_decref(was);
			return -EBUSY;
		}
		json_object_set_new(o, "before", before);
		json_object_set_new(o, "was", was);
	}
	return 0;
}

int ccb_osd_inject_start(const struct ccb_opts *o, char *err, size_t err_len)
{
	char fsid[64] = "", why[512], max[32];
	json_t *osd_dump = NULL, *mon_dump = NULL, *hosts = NULL, *osds = json_array();
	json_t *rec = NULL, *x;
	size_t i;
	int r, h;

	/* Not through "fail": that would shut down the connection the set
	 * injection's undo puts the OSDs back with. */
	if (inj.active) {
		snprintf(err, err_len, "--osd-latency: an injection is already set by this run");
		json_decref(osds);
		return -EALREADY;
	}
	r = ccb_cluster_connect_bounded(o, TELL_TIMEOUT_S, &inj.cl, err, err_len);
	if (r < 0)
		goto fail;
	inj.connected = true;
	r = rados_cluster_fsid(inj.cl, fsid, sizeof(fsid));
	if (r < 0) {
		snprintf(err, err_len, "rados_cluster_fsid: %s", strerror(-r));
		goto fail;
	}
	r = 0;
	osd_dump = mon_json(inj.cl, "osd dump", &r);
	if (osd_dump)
		mon_dump = mon_json(inj.cl, "mon dump", &r);
	if (!osd_dump || !mon_dump) {
		snprintf(err, err_len, "--osd-latency: %s dump: %s", osd_dump ? "mon" : "osd",
		         strerror(-r));
		goto fail;
	}
	hosts = cluster_hosts(osd_dump, mon_dump);
	json_array_foreach(json_object_get(osd_dump, "osds"), i, x)
	{
		if (json_integer_value(json_object_get(x, "up")))
			json_array_append_new(
			    osds,
			    json_pack("{s:I, s:I}", "id",
			              json_integer_value(json_object_get(x, "osd")), "up_from",
			              json_integer_value(json_object_get(x, "up_from"))));
	}
	r = ccb_osd_inject_policy(hosts, fsid, o->osd_latency_cluster, why, sizeof(why));
	if (r < 0) {
		snprintf(err, err_len, "%s", why);
		goto fail;
	}
	if (!json_array_size(osds)) {
		snprintf(err, err_len, "--osd-latency: no OSD of cluster %s is up", fsid);
		r = -ENODEV;
		goto fail;
	}
	r = read_before(inj.cl, osds, err, err_len);
	if (r < 0)
		goto fail;

	/* ms_inject_delay_max bounds a uniform delay: twice the mean. */
	snprintf(max, sizeof(max), "%.6f", 2.0 * (double)o->osd_latency_usec / 1e6);
	rec = json_pack("{s:s, s:s, s:{s:s, s:s, s:s}, s:O, s:I}", "kind", "osd_inject", "fsid",
	                fsid, "set", "ms_inject_delay_max", max, "ms_inject_delay_type", "client",
	                "ms_inject_delay_probability", "1", "osds", osds, "osd_us",
	                (json_int_t)o->osd_latency_usec);
	if (rec && ccb_cluster_record_conn(o, rec) < 0) {
		json_decref(rec);
		rec = NULL;
	}
	if (!rec) {
		r = -ENOMEM;
		goto fail;
	}
	inj.record = json_incref(rec);
	inj.usec = o->osd_latency_usec;
	inj.said = json_object();
	/* The undo owns the connection from here: it runs on every end. */
	snprintf(why, sizeof(why),
	         "OSD-side latency on %zu OSD%s of %s: put back their earlier values",
	         json_array_size(osds), json_array_size(osds) == 1 ? "" : "s", fsid);
	/* Kept on the cluster too: the delay is cluster-wide and outlives
	 * this host's /run. */
	h = ccb_undo_push_cluster(why, undo_inject, NULL, free_inject, json_deep_copy(rec), inj.cl);
	json_decref(rec);
	rec = NULL;
	if (h < 0) {
		snprintf(err, err_len, "record the OSDs' settings in %s: %s", ccb_undo_state_dir(),
		         strerror(-h));
		r = h;
		goto out; /* free_inject has run */
	}
	ccb_undo_set_hint(h, "ccbench restore (or, per OSD: ceph tell osd.N config unset "
	                     "ms_inject_delay_probability, ..._type, ..._max)");
	json_array_foreach(osds, i, x)
	{
		int id = (int)json_integer_value(json_object_get(x, "id"));
		for (size_t k = 0; k < N_KEYS; k++) {
			const char *want = json_string_value(
			    json_object_get(json_object_get(inj.record, "set"), inject_keys[k]));
			char cur[128];

			r = tell_set(inj.cl, id, inject_keys[k], want, err, err_len);
			if (r == 0)
				r = tell_get(inj.cl, id, inject_keys[k], cur, sizeof(cur), err,
				             err_len);
			if (r == 0 && !same_value(inject_keys[k], cur, want)) {
				snprintf(err, err_len,
				         "tell osd.%d config set %s %s: the OSD reports '%s'", id,
				         inject_keys[k], want, cur);
				r = -EIO;
			}
			if (r < 0)
				goto out; /* the undo puts back what was set */
		}
	}
	inj.active = true;
	r = 0;
	goto out;
fail:
	if (inj.connected)
		rados_shutdown(inj.cl);
	json_decref(inj.record);
	json_decref(inj.said);
	memset(&inj, 0, sizeof(inj));
out:
	json_decref(rec);
	json_decref(osd_dump);
	json_decref(mon_dump);
	json_decref(hosts);
	json_decref(osds);
	return r;
}

bool ccb_osd_inject_active(void)
{
	return inj.active;
}

uint64_t ccb_osd_inject_usec(void)
{
	return inj.active ? inj.usec : 0;
}

json_t *ccb_osd_inject_check(void)
{
	json_t *lost = json_array(), *dump, *o;
	const json_t *x, *set = json_object_get(inj.record, "set");
	size_t i;
	int r = 0;
	char t[256], err[512];

	if (!lost || !inj.active)
		return lost;
	dump = mon_json(inj.cl, "osd dump", &r);
	if (!dump) {
		snprintf(t, sizeof(t), "osd dump: %s: whether the OSDs still delay is unknown",
		         strerror(-r));
		json_array_append_new(lost, json_string(t));
	}
	/* Each OSD's own values: a restart puts its earlier ones back (a new
	 * up_from alone says nothing: an OSD marked down and up again keeps
	 * them). One that is down now cannot say; it is not counted. */
	json_array_foreach(dump ? json_object_get(inj.record, "osds") : NULL, i, o)
	{
		int id = (int)json_integer_value(json_object_get(o, "id"));
		const json_t *now = ccb_cluster_dump_osd(dump, id);
		json_t *diff = NULL;

		if (!now || !json_integer_value(json_object_get(now, "up")))
			continue;
		r = tell(inj.cl, id,
		         json_pack("{s:s, s:s}", "prefix", "config diff", "format", "json"), &diff,
		         err, sizeof(err));
		if (r < 0) {
			snprintf(t, sizeof(t), "osd.%d: %.200s: whether it still delays is unknown",
			         id, err);
			json_array_append_new(lost, json_string(t));
			continue;
		}
		for (size_t k = 0; k < N_KEYS; k++) {
			const json_t *f = json_object_get(
			    json_object_get(json_object_get(diff, "diff"), inject_keys[k]),
			    "final");
			const char *want = json_string_value(json_object_get(set, inject_keys[k]));
			char cur[64];

			/* Listed only when not the default: missing is the default. */
			if (json_is_string(f))
				snprintf(cur, sizeof(cur), "%s", json_string_value(f));
			else if (json_is_number(f))
				snprintf(cur, sizeof(cur), "%.6f", json_number_value(f));
			else
				snprintf(cur, sizeof(cur), "(default)");
			if (!same_value(inject_keys[k], cur, want)) {
				snprintf(
				    t, sizeof(t),
				    "osd.%d no longer delays: its %s is %s, not %s (restarted?)",
				    id, inject_keys[k], cur, want);
				json_array_append_new(lost, json_string(t));
				break;
			}
		}
		json_decref(diff);
	}
	/* An OSD that came up since never had it. */
	json_array_foreach(dump ? json_object_get(dump, "osds") : NULL, i, x)
	{
		json_int_t id = json_integer_value(json_object_get(x, "osd"));
		bool known = false;
		size_t j;

		json_array_foreach(json_object_get(inj.record, "osds"), j, o) known |=
		    json_integer_value(json_object_get(o, "id")) == id;
		if (known || !json_integer_value(json_object_get(x, "up")))
			continue;
		snprintf(t, sizeof(t), "osd.%lld came up after the latency was set: it has none",
		         (long long)id);
		json_array_append_new(lost, json_string(t));
	}
	json_decref(dump);
	json_array_foreach(lost, i, x)
	{
		const char *m = json_string_value(x);
		if (json_object_get(inj.said, m))
			continue;
		json_object_set_new(inj.said, m, json_true());
		fprintf(stderr, "ccbench: warning: --osd-latency: %s\n", m);
	}
	return lost;
}

void ccb_osd_inject_annotate(json_t *result, uint64_t client_us, json_t *lost)
{
	uint64_t osd_us = ccb_osd_inject_usec();
	const char *side = osd_us && client_us ? "both"
	                   : osd_us            ? "osd"
	                   : client_us         ? "client"
	                                       : "none";
	json_t *li;

	if (!result) {
		json_decref(lost);
		return;
	}
	li = json_pack("{s:s, s:I, s:I}", "side", side, "osd_us", (json_int_t)osd_us, "client_us",
	               (json_int_t)client_us);
	if (li && osd_us) {
		json_t *ids = json_array(), *o;
		size_t i;

		json_array_foreach(json_object_get(inj.record, "osds"), i, o)
		    json_array_append(ids, json_object_get(o, "id"));
		json_object_set_new(li, "osds", ids);
		json_object_set(li, "settings", json_object_get(inj.record, "set"));
		json_object_set(li, "fsid", json_object_get(inj.record, "fsid"));
	}
	if (li && json_array_size(lost))
		json_object_set(li, "lost", lost);
	json_decref(lost);
	json_object_set_new(result, "latency_injection", li);
}

/* ---- restore after a crash ---------------------------------------------------------- */

int ccb_osd_inject_restore(const json_t *rec, const struct ccb_opts *given, char *msg,
                           size_t msg_len)
{
	const char *fsid = json_string_value(json_object_get(rec, "fsid"));
	char what[2048];
	rados_t cl;
	int r;

	if (ccb_osd_inject_check_record(rec, msg, msg_len) < 0)
		return -EINVAL;
	snprintf(what, sizeof(what), "OSD-side latency of cluster %s", fsid);
	r = ccb_cluster_connect_record(rec, given, TELL_TIMEOUT_S, what, &cl, msg, msg_len);
	if (r < 0)
		return r;
	r = put_back(cl, rec, what, sizeof(what));
	rados_shutdown(cl);
	snprintf(msg, msg_len, "OSD-side latency of cluster %s: %s", fsid, what);
	return r;
}

/* The fields a copy of this record on the cluster may have: what ccb_osd_inject_apply writes. */
static const char *const osd_fields[] = {"kind",   "fsid",        "set",  "osds",
                                         "osd_us", "entity",      "conf", "keyring",
                                         "what",   "cluster_key", NULL};

const struct ccb_undo_kind ccb_osd_inject_undo_kinds[] = {
    {.name = "osd_inject", .undo = ccb_osd_inject_restore, .cluster_fields = osd_fields},
    {0},
};
