/*
 * Connecting like the ceph CLIs: -c / $CEPH_CONF / /etc/ceph/$cluster.conf,
 * --cluster, -n / -i, -k, CEPH_ARGS, -o KEY=VALUE. Configuration happens on
 * an unconnected handle first, so every bad value is refused before a
 * packet leaves.
 */
#include <ccbench/cluster.h>
#include <ccbench/units.h>

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

const char *ccb_cluster_conf_path(const struct ccb_opts *o, char *buf, size_t buf_len)
{
	const char *env = getenv("CEPH_CONF");

	if (o->conf)
		return o->conf;
	if (env && env[0])
		return env;
	snprintf(buf, buf_len, "/etc/ceph/%s.conf", o->cluster ? o->cluster : "ceph");
	return buf;
}

/* Values taken from CEPH_ARGS live as long as the options that point at them. */
static char *kept_copy;

static void free_kept(void)
{
	free(kept_copy);
}

/* The value of a CEPH_ARGS option: "--id x" or "--id=x" (points into the tokens). */
static int take_arg(char **tok, int n, int *i, char *arg, char **val)
{
	char *eq = strchr(arg, '=');

	if (eq && arg[0] == '-' && arg[1] == '-') {
		*val = eq + 1;
		return 0;
	}
	if (*i + 1 >= n)
		return -EINVAL;
	*val = tok[++*i];
	return 0;
}

int ccb_cluster_apply_ceph_args(struct ccb_opts *o, char *err, size_t err_len)
{
	static const struct {
		const char *lng, *shrt;
		size_t off;
	} known[] = {
	    {"--conf", "-c", offsetof(struct ccb_opts, conf)},
	    {"--cluster", NULL, offsetof(struct ccb_opts, cluster)},
	    {"--name", "-n", offsetof(struct ccb_opts, name)},
	    {"--id", "-i", offsetof(struct ccb_opts, id)},
	    {"--user", NULL, offsetof(struct ccb_opts, id)},
	    {"--keyring", "-k", offsetof(struct ccb_opts, keyring)},
	};
	const char *env = getenv("CEPH_ARGS");
	char *copy, *save = NULL, *tok[128];
	int n = 0, r = 0;
	bool cli_name = o->name || o->id;

	if (!env || !env[0])
		return 0;
	copy = strdup(env);
	if (!copy)
		return -ENOMEM;
	if (kept_copy)
		free(kept_copy);
	else
		atexit(free_kept);
	kept_copy = copy;
	for (char *t = strtok_r(copy, " \t\n", &save); t && n < 128;
	     t = strtok_r(NULL, " \t\n", &save))
		tok[n++] = t;
	for (int i = 0; i < n && r == 0; i++) {
		for (size_t k = 0; k < sizeof(known) / sizeof(known[0]); k++) {
			size_t ll = strlen(known[k].lng);
			char *val = NULL;
			const char **field = (const char **)((char *)o + known[k].off);
			bool hit = strcmp(tok[i], known[k].lng) == 0 ||
			           (known[k].shrt && strcmp(tok[i], known[k].shrt) == 0) ||
			           (strncmp(tok[i], known[k].lng, ll) == 0 && tok[i][ll] == '=');

			if (!hit)
				continue;
			r = take_arg(tok, n, &i, tok[i], &val);
			if (r == -EINVAL) {
				snprintf(err, err_len, "CEPH_ARGS: %s needs a value", known[k].lng);
				break;
			}
			if (r < 0)
				break;
			/* The command line wins; an entity name given there in
			 * either spelling hides both spellings in CEPH_ARGS. */
			bool is_entity = known[k].off == offsetof(struct ccb_opts, name) ||
			                 known[k].off == offsetof(struct ccb_opts, id);
			/* --cluster has a default ("ceph"), so a set field does not
			 * mean the command line gave it. */
			bool cli_given = known[k].off == offsetof(struct ccb_opts, cluster)
			                     ? ccb_opt_given(o, "cluster")
			                     : *field != NULL;
			if (!cli_given && !(is_entity && cli_name)) {
				*field = val;
				if (is_entity)
					cli_name = true;
			}
			break;
		}
	}
	return r;
}

int ccb_cluster_split_set(const char *setting, char *key, size_t key_len, const char **value,
                          char *err, size_t err_len)
{
	const char *eq = strchr(setting, '=');
	size_t kl = eq ? (size_t)(eq - setting) : 0;

	if (!eq || !kl || kl >= key_len) {
		snprintf(err, err_len, "--set '%s': %s", setting,
		         kl >= key_len ? "key too long" : "expected KEY=VALUE");
		return -EINVAL;
	}
	memcpy(key, setting, kl);
	key[kl] = '\0';
	*value = eq + 1;
	return 0;
}

static void set_err(char *err, size_t err_len, const char *call, const char *what, int r)
{
	snprintf(err, err_len, "%s(%s): %s", call, what, strerror(-r));
}

const char *ccb_cluster_entity(const struct ccb_opts *o, char *buf, size_t buf_len)
{
	if (o->name)
		return o->name;
	snprintf(buf, buf_len, "client.%s", o->id ? o->id : "admin");
	return buf;
}

/* Whole seconds, rounded up so 1500ms is not 1 s: the options take seconds. */
static void seconds(uint64_t usec, char *buf, size_t len)
{
	snprintf(buf, len, "%llu", (unsigned long long)((usec + 999999) / 1000000));
}

int ccb_cluster_conf_apply(const struct ccb_opts *o, const struct ccb_conf_ops *ops, void *h,
                           char *err, size_t err_len)
{
	char pathbuf[512], call[64], val[64];
	const char *conf = ccb_cluster_conf_path(o, pathbuf, sizeof(pathbuf));
	bool mon_given = false;
	int ret;

	for (unsigned i = 0; i < o->n_sets; i++)
		if (strncmp(o->sets[i], "mon_host=", 9) == 0 ||
		    strncmp(o->sets[i], "mon-host=", 9) == 0)
			mon_given = true;
	if (access(conf, R_OK) < 0 && !mon_given) {
		snprintf(err, err_len, "--conf '%s': %s (give -c PATH or set CEPH_CONF)", conf,
		         strerror(errno));
		return -EINVAL;
	}
	if (access(conf, R_OK) == 0) {
		ret = ops->read_file(h, conf);
		if (ret < 0) {
			snprintf(err, err_len, "%s_conf_read_file(%s): %s", ops->lib, conf,
			         strerror(-ret));
			return -EINVAL;
		}
	}
	ret = ops->parse_env(h, "CEPH_ARGS");
	if (ret < 0) {
		snprintf(err, err_len, "CEPH_ARGS '%s': %s", getenv("CEPH_ARGS"), strerror(-ret));
		return -EINVAL;
	}
	snprintf(call, sizeof(call), "%s_conf_set", ops->lib);
	if (o->keyring && (ret = ops->set(h, "keyring", o->keyring)) < 0) {
		set_err(err, err_len, call, "keyring", ret);
		return -EINVAL;
	}
	/* Bounded connects and ops; -o can still override them. The mount
	 * timeout also bounds libcephfs' wait for an MDS, so a cluster
	 * without a filesystem fails instead of hanging. */
	seconds(o->connect_timeout_usec, val, sizeof(val));
	if ((ret = ops->set(h, "client_mount_timeout", val)) < 0) {
		set_err(err, err_len, call, "client_mount_timeout", ret);
		return ret;
	}
	if (ops->op_timeouts) {
		if ((ret = ops->set(h, "rados_mon_op_timeout", val)) < 0) {
			set_err(err, err_len, call, "rados_mon_op_timeout", ret);
			return ret;
		}
		seconds(o->op_timeout_usec, val, sizeof(val));
		if ((ret = ops->set(h, "rados_osd_op_timeout", val)) < 0) {
			set_err(err, err_len, call, "rados_osd_op_timeout", ret);
			return ret;
		}
	}
	for (unsigned i = 0; i < o->n_sets; i++) {
		char key[256];
		const char *value;

		if (ccb_cluster_split_set(o->sets[i], key, sizeof(key), &value, err, err_len) < 0)
			return -EINVAL;
		ret = ops->set(h, key, value);
		if (ret < 0) {
			snprintf(err, err_len, "--set '%s': %s", o->sets[i],
			         ret == -ENOENT ? "no such librados/librbd option"
			                        : "invalid value for this option");
			return -EINVAL;
		}
	}
	return 0;
}

static int rados_read_file(void *h, const char *path)
{
	return rados_conf_read_file(h, path);
}

static int rados_parse_env(void *h, const char *var)
{
	return rados_conf_parse_env(h, var);
}

static int rados_set(void *h, const char *key, const char *value)
{
	return rados_conf_set(h, key, value);
}

int ccb_cluster_configure(const struct ccb_opts *o, rados_t *out, char *err, size_t err_len)
{
	static const struct ccb_conf_ops ops = {.lib = "rados",
	                                        .read_file = rados_read_file,
	                                        .parse_env = rados_parse_env,
	                                        .set = rados_set,
	                                        .op_timeouts = true};
	char entity[256];
	const char *name = ccb_cluster_entity(o, entity, sizeof(entity));
	rados_t r = NULL;
	int ret = rados_create2(&r, o->cluster ? o->cluster : "ceph", name, 0);

	if (ret < 0) {
		set_err(err, err_len, "rados_create2", name, ret);
		return ret == -EINVAL ? -EINVAL : ret;
	}
	ret = ccb_cluster_conf_apply(o, &ops, r, err, err_len);
	if (ret < 0) {
		rados_shutdown(r);
		return ret;
	}
	*out = r;
	return 0;
}

int ccb_cluster_connect_handle(rados_t r, const struct ccb_opts *o, char *err, size_t err_len)
{
	int ret = rados_connect(r);

	if (ret < 0) {
		char conf[512], entity[256];

		snprintf(err, err_len, "rados_connect(%s, conf %s): %s%s",
		         ccb_cluster_entity(o, entity, sizeof(entity)),
		         ccb_cluster_conf_path(o, conf, sizeof(conf)), strerror(-ret),
		         ret == -ETIMEDOUT ? " (cluster unreachable within --connect-timeout)"
		         : ret == -ENOENT  ? " (no keyring with this entity's key: give -k PATH)"
		         : ret == -EACCES || ret == -EPERM ? " (authentication refused)"
		                                           : "");
	}
	return ret;
}

int ccb_cluster_connect_bounded(const struct ccb_opts *o, const char *op_timeout_s, rados_t *out,
                                char *err, size_t err_len)
{
	int r = ccb_cluster_configure(o, out, err, err_len);

	if (r < 0)
		return r;
	r = rados_conf_set(*out, "rados_osd_op_timeout", op_timeout_s);
	if (r < 0) {
		snprintf(err, err_len, "rados_conf_set(rados_osd_op_timeout): %s", strerror(-r));
		rados_shutdown(*out);
		return r;
	}
	r = ccb_cluster_connect_handle(*out, o, err, err_len);
	if (r < 0)
		rados_shutdown(*out);
	return r;
}

int ccb_cluster_record_conn(const struct ccb_opts *o, json_t *rec)
{
	char ent[256], conf_buf[PATH_MAX], conf_real[PATH_MAX], key_real[PATH_MAX];
	const char *conf = ccb_cluster_conf_path(o, conf_buf, sizeof(conf_buf));
	int r = json_object_set_new(rec, "entity",
	                            json_string(ccb_cluster_entity(o, ent, sizeof(ent))));

	r |= json_object_set_new(rec, "conf",
	                         json_string(realpath(conf, conf_real) ? conf_real : conf));
	if (o->keyring && realpath(o->keyring, key_real))
		r |= json_object_set_new(rec, "keyring", json_string(key_real));
	return r ? -ENOMEM : 0;
}

/* Absent, null, or an absolute printable path. */
static bool valid_path(const json_t *v)
{
	const char *s = json_string_value(v);

	return !v || json_is_null(v) ||
	       (s && s[0] == '/' && strlen(s) < PATH_MAX && ccb_is_printable(s));
}

static bool valid_entity(const char *s)
{
	const char *dot = s ? strchr(s, '.') : NULL;

	if (!dot || dot == s || !dot[1] || strlen(s) > 128)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("._-", *s))
			return false;
	return true;
}

bool ccb_cluster_record_conn_valid(const json_t *rec, const char **what)
{
	if (!valid_path(json_object_get(rec, "conf")) ||
	    !valid_path(json_object_get(rec, "keyring"))) {
		*what = "conf or keyring is not an absolute path";
		return false;
	}
	if (!valid_entity(json_string_value(json_object_get(rec, "entity")))) {
		*what = "entity is not TYPE.ID";
		return false;
	}
	return true;
}

static void record_opts(const json_t *rec, struct ccb_opts *o)
{
	const char *conf = json_string_value(json_object_get(rec, "conf"));

	if (!o->conf && conf && access(conf, R_OK) == 0)
		o->conf = conf;
	if (!o->name && !o->id)
		o->name = json_string_value(json_object_get(rec, "entity"));
	if (!o->keyring)
		o->keyring = json_string_value(json_object_get(rec, "keyring"));
}

int ccb_cluster_connect_record(const json_t *rec, const struct ccb_opts *given,
                               const char *op_timeout_s, const char *what, rados_t *out, char *msg,
                               size_t msg_len)
{
	const char *fsid = json_string_value(json_object_get(rec, "fsid"));
	struct ccb_opts o = *given;
	char now[64] = "", err[512];
	int r;

	/* The command line first; else how the run connected, while its conf
	 * is still there (else $CEPH_CONF, /etc/ceph: the fsid check below
	 * refuses another cluster). */
	record_opts(rec, &o);
	r = ccb_cluster_connect_bounded(&o, op_timeout_s, out, err, sizeof(err));
	if (r < 0) {
		snprintf(msg, msg_len, "%s: %s (kept; give -c, -n, -k to restore)", what, err);
		return r == -EINVAL ? -EIO : r;
	}
	r = rados_cluster_fsid(*out, now, sizeof(now));
	if (r < 0 || !fsid || strcasecmp(now, fsid) != 0) {
		snprintf(
		    msg, msg_len,
		    "%s: connected to cluster %s instead; nothing touched (give -c CONF of that "
		    "cluster)",
		    what, r < 0 ? "(unknown)" : now);
		rados_shutdown(*out);
		return -EINVAL;
	}
	return 0;
}

int ccb_cluster_connect(const struct ccb_opts *o, rados_t *out, char *err, size_t err_len)
{
	rados_t r;
	int ret = ccb_cluster_configure(o, &r, err, err_len);

	if (ret < 0)
		return ret;
	ret = ccb_cluster_connect_handle(r, o, err, err_len);
	if (ret < 0) {
		rados_shutdown(r);
		return ret;
	}
	*out = r;
	return 0;
}

int ccb_cluster_set_sim_latency(rados_t r, uint64_t usec, char *err, size_t err_len)
{
	const char *keys[] = {"ms_inject_delay_type", "ms_inject_delay_max",
	                      "ms_inject_delay_probability"};
	char max[32];
	const char *vals[] = {"osd", max, "1"};

	/* ms_inject_delay_max is the upper bound of a uniform delay: twice the
	 * mean gives about usec per message from an OSD. */
	snprintf(max, sizeof(max), "%.6f", 2.0 * (double)usec / 1e6);
	for (size_t i = 0; i < 3; i++) {
		int ret = rados_conf_set(r, keys[i], vals[i]);
		if (ret < 0) {
			snprintf(err, err_len, "rados_conf_set(%s=%s): %s", keys[i], vals[i],
			         strerror(-ret));
			return ret;
		}
	}
	return 0;
}

int ccb_cluster_ioctx(rados_t r, const struct ccb_opts *o, rados_ioctx_t *out, char *err,
                      size_t err_len)
{
	int ret = rados_ioctx_create(r, o->pool, out);

	if (ret < 0) {
		snprintf(err, err_len, "--pool '%s': %s", o->pool,
		         ret == -ENOENT ? "no such pool" : strerror(-ret));
		return ret;
	}
	rados_ioctx_set_namespace(*out, o->rados_namespace ? o->rados_namespace : "");
	return 0;
}

/* The mgr's commands go through command_json() under this pseudo OSD id. */
#define TO_MGR (-2)

/* One command to a mon (osd -1), the mgr (TO_MGR) or to one OSD, its JSON
 * answer parsed; the first error is kept in *err, so a caller asking
 * several things reports the first that failed. */
static json_t *command_json(rados_t r, int osd, const char *cmd, int *err, bool lenient)
{
	const char *cmds[] = {cmd};
	char *out = NULL, *st = NULL;
	size_t out_len = 0, st_len = 0;
	json_t *j = NULL;
	int ret;

	if (osd == TO_MGR)
		ret = rados_mgr_command(r, cmds, 1, NULL, 0, &out, &out_len, &st, &st_len);
	else if (osd < 0)
		ret = rados_mon_command(r, cmds, 1, NULL, 0, &out, &out_len, &st, &st_len);
	else
		ret = rados_osd_command(r, osd, cmds, 1, NULL, 0, &out, &out_len, &st, &st_len);
	if (ret == 0) {
		json_error_t e;

		j = json_loadb(out, out_len, 0, &e);
		/* A counter below zero prints as a 64-bit unsigned number past
		 * what jansson holds (Pacific's numpg_stray 18446744073709551610):
		 * the rest of the reply is still good, read with reals. */
		if (!j && lenient && strstr(e.text, "too big integer"))
			j = json_loadb(out, out_len, JSON_DECODE_INT_AS_REAL, NULL);
		if (!j)
			ret = -EBADMSG;
	}
	if (ret < 0 && !*err)
		*err = ret;
	rados_buffer_free(out);
	rados_buffer_free(st);
	return j;
}

json_t *ccb_cluster_mon_json(rados_t r, const char *cmd, int *err)
{
	return command_json(r, -1, cmd, err, false);
}

json_t *ccb_cluster_mgr_json(rados_t r, const char *cmd, int *err)
{
	return command_json(r, TO_MGR, cmd, err, false);
}

json_t *ccb_cluster_osd_json(rados_t r, int osd, const char *cmd, int *err)
{
	if (osd < 0) { /* not an OSD id: never send it to the mon instead */
		if (!*err)
			*err = -EINVAL;
		return NULL;
	}
	return command_json(r, osd, cmd, err, false);
}

json_t *ccb_cluster_osd_json_lenient(rados_t r, int osd, const char *cmd, int *err)
{
	if (osd < 0) {
		if (!*err)
			*err = -EINVAL;
		return NULL;
	}
	return command_json(r, osd, cmd, err, true);
}

bool ccb_cluster_has_flag(const char *flags, const char *flag)
{
	size_t fl = strlen(flag);

	for (const char *f = flags; f && (f = strstr(f, flag)); f += fl)
		if ((f == flags || f[-1] == ',') && (f[fl] == '\0' || f[fl] == ','))
			return true;
	return false;
}

/* Append "osd.N" names of the OSDs that are down (at most a few). */
static void down_osds(json_t *dump, char *buf, size_t len)
{
	json_t *osds = json_object_get(dump, "osds"), *osd;
	size_t i, used = 0, named = 0, down = 0;

	buf[0] = '\0';
	json_array_foreach(osds, i, osd)
	{
		if (json_integer_value(json_object_get(osd, "up")) != 0)
			continue;
		if (named < 4 && used < len) {
			int n =
			    snprintf(buf + used, len - used, "%sosd.%lld", named ? ", " : "",
			             (long long)json_integer_value(json_object_get(osd, "osd")));
			if (n > 0)
				used += (size_t)n;
			named++;
		}
		down++;
	}
	if (down > named && used < len)
		snprintf(buf + used, len - used, " and %zu more", down - named);
}

int ccb_cluster_diagnose(rados_t r, const char *pool, const char *pool2, char *why, size_t len)
{
	char down[128];
	size_t i;
	json_t *dump, *p;
	int ret = 0;

	why[0] = '\0';
	dump = ccb_cluster_mon_json(r, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &ret);
	if (!dump)
		return ret;
	json_array_foreach(json_object_get(dump, "pools"), i, p)
	{
		const char *name = json_string_value(json_object_get(p, "pool_name"));
		const char *flags = json_string_value(json_object_get(p, "flags_names"));

		if (!name || !flags ||
		    (strcmp(name, pool) != 0 && (!pool2 || strcmp(name, pool2) != 0)))
			continue;
		/* Whole flags: "nearfull" (an OSD of the pool past its
		 * nearfull ratio) does not stop I/O. */
		if (ccb_cluster_has_flag(flags, "full_quota")) {
			snprintf(why, len, "pool %s is over its quota (osdmap flag full_quota)",
			         name);
			ret = -EDQUOT;
			break;
		}
		if (ccb_cluster_has_flag(flags, "full")) {
			snprintf(why, len, "pool %s is full (osdmap flag full)", name);
			ret = -ENOSPC;
			break;
		}
	}
	if (ret == 0) {
		down_osds(dump, down, sizeof(down));
		if (down[0])
			snprintf(why, len, "%s down", down);
	}
	json_decref(dump);
	return ret;
}

const json_t *ccb_cluster_dump_osd(const json_t *dump, json_int_t id)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(dump, "osds"), i,
	                   o) if (json_integer_value(json_object_get(o, "osd")) == id) return o;
	return NULL;
}
