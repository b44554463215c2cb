/*
 * Kernel mappings (see mapping.c): `rbd device map --read-only`, the map
 * options the host or cluster needs, and unmapping through sysfs.
 */
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/mapping.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <poll.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <linux/loop.h>

#include "mapping_int.h"

/* ---- kernel driver --------------------------------------------------------- */

/* "PREFIX" then a device number and nothing else: no sign, no leading
 * zero, no "/.." after it. The grammar of every device a record names. */
bool ccb_map_parse_numbered(const char *s, const char *prefix, unsigned *n)
{
	size_t pl = strlen(prefix), digits = 0;
	unsigned long v = 0;

	if (!s || strncmp(s, prefix, pl) != 0)
		return false;
	for (const char *p = s + pl; *p; p++, digits++) {
		if (*p < '0' || *p > '9' || digits >= 7 || (digits == 1 && s[pl] == '0'))
			return false;
		v = v * 10 + (unsigned long)(*p - '0');
	}
	if (!digits)
		return false;
	*n = (unsigned)v;
	return true;
}

int ccb_map_rbd_remove(unsigned id, char *msg, size_t msg_len)
{
	char path[PATH_MAX];
	int r;

	snprintf(path, sizeof(path), "%s/bus/rbd/remove_single_major", ccb_sysfs_root());
	r = ccb_sysfs_write_u64(path, id);
	if (r < 0)
		snprintf(msg, msg_len, "write %s (unmap /dev/rbd%u): %s", path, id, strerror(-r));
	return r;
}

static int undo_krbd(void *arg)
{
	struct ccb_mapping *m = arg;
	char msg[PATH_MAX + 128];
	unsigned id;
	int r = 0;

	if (!ccb_map_parse_numbered(m->dev, "/dev/rbd", &id))
		return 0;
	for (int waited = 0;; waited += 100) {
		r = ccb_map_rbd_remove(id, msg, sizeof(msg));
		if (r != -EBUSY || waited >= SETTLE_MSEC)
			break;
		ccb_map_sleep_msec(100);
	}
	if (r < 0)
		fprintf(stderr, "ccbench: %s\n", msg);
	return r;
}

int ccb_map_mons_speak_v1(rados_t cl)
{
	const char *cmd[] = {"{\"prefix\": \"mon dump\", \"format\": \"json\"}"};
	char *outbuf = NULL, *outs = NULL;
	size_t outlen = 0, outslen = 0;
	json_t *doc, *mons, *mon, *a;
	size_t i, j;
	int r, v1 = 0, any = 0;

	r = rados_mon_command(cl, cmd, 1, "", 0, &outbuf, &outlen, &outs, &outslen);
	if (r < 0)
		goto out;
	doc = json_loadb(outbuf, outlen, 0, NULL);
	mons = json_object_get(doc, "mons");
	if (!json_is_array(mons)) {
		json_decref(doc);
		r = -EPROTO;
		goto out;
	}
	json_array_foreach(mons, i, mon)
	{
		json_t *vec = json_object_get(json_object_get(mon, "public_addrs"), "addrvec");

		json_array_foreach(vec, j, a)
		{
			const char *type = json_string_value(json_object_get(a, "type"));

			any = 1;
			if (type && strcmp(type, "v1") == 0)
				v1 = 1;
		}
		/* Old mon maps have only "addr", a v1 address. */
		if (!json_is_array(vec) && json_object_get(mon, "addr"))
			any = v1 = 1;
	}
	json_decref(doc);
	r = any ? v1 : -EPROTO;
out:
	rados_buffer_free(outbuf);
	rados_buffer_free(outs);
	return r;
}

/* The value of option @p key in the comma-separated @p opts ("" for a bare
 * flag), or NULL when absent. */
static const char *opt_find(const char *opts, const char *key, char *val, size_t val_len)
{
	size_t kl = strlen(key);
	const char *p = opts, *found = NULL;

	while (p && *p) {
		size_t l = strcspn(p, ",");

		if (l >= kl && strncmp(p, key, kl) == 0 && (l == kl || p[kl] == '=')) {
			size_t vl = l > kl ? l - kl - 1 : 0;
			snprintf(val, val_len, "%.*s", (int)vl, p + kl + (l > kl));
			found = val; /* the last one wins, as in the driver */
		}
		p += l + (p[l] == ',');
	}
	return found;
}

int ccb_map_kernel_options(const char *given, int mons_v1, bool udev_running, struct ccb_mapping *m)
{
	char val[64];
	size_t len = sizeof(m->options);
	int n;

	given = given ? given : "";
	n = snprintf(m->options, len, "%s", given);
	m->noudev = false;
	m->ms_mode[0] = '\0';
	if (!udev_running && !opt_find(given, "udev", val, sizeof(val)) &&
	    !opt_find(given, "noudev", val, sizeof(val))) {
		n += snprintf(m->options + n, len > (size_t)n ? len - n : 0, "%snoudev",
		              m->options[0] ? "," : "");
		m->noudev = true;
	}
	if (n >= 0 && (size_t)n < len && opt_find(given, "ms_mode", val, sizeof(val))) {
		snprintf(m->ms_mode, sizeof(m->ms_mode), "%.*s", (int)sizeof(m->ms_mode) - 1, val);
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why), "given in --map-options");
	} else if (n >= 0 && (size_t)n < len && mons_v1 == 0) {
		n += snprintf(m->options + n, len - n, "%sms_mode=prefer-crc",
		              m->options[0] ? "," : "");
		snprintf(m->ms_mode, sizeof(m->ms_mode), "prefer-crc");
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "chosen by ccbench: the monitors speak msgr v2 only, which the "
		         "driver's default (legacy) cannot");
	} else if (mons_v1 < 0) {
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "the driver's default (legacy): the mon map could not be read to check "
		         "for msgr v2-only monitors");
	} else {
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "the driver's default (legacy): the monitors speak msgr v1");
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static bool udev_running(void)
{
	struct stat st;

	/* systemd-udevd's control socket; eudev's is the same path. */
	return stat("/run/udev/control", &st) == 0 && S_ISSOCK(st.st_mode);
}

/* Most mappings of one image a run looks through for its own. */
#define MAX_SAME_IMAGE 64

/* After a map that did not report its device: the one device of this
 * image that is not among @p before is the map's (the kernel added it
 * before rbd was stopped or failed). Taken into the mapping and its
 * record, so the unwind unmaps it. Two new ones (another map of the same
 * image at the same time) are left alone: neither is known to be ours. */
static bool adopt_new_device(struct ccb_mapping *m, int h, const unsigned *before, int before_n)
{
	unsigned now[MAX_SAME_IMAGE], mine = 0;
	int n = ccb_sysfs_rbd_find(ccb_sysfs_root(), m->pool, m->image, "-", now, MAX_SAME_IMAGE),
	    fresh = 0;

	for (int i = 0; i < n && i < MAX_SAME_IMAGE; i++) {
		bool old = false;

		for (int j = 0; j < before_n; j++)
			old |= before[j] == now[i];
		if (!old) {
			mine = now[i];
			fresh++;
		}
	}
	if (fresh != 1)
		return false;
	snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", mine);
	ccb_undo_state_set(h, "dev", json_string(m->dev));
	return true;
}

int ccb_map_do_kernel(const struct ccb_opts *o, struct ccb_mapping *m, int mons_v1, char *err,
                      size_t err_len)
{
	char spec[260], confbuf[PATH_MAX], out[sizeof(m->dev)], errtxt[512], what[320];
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	unsigned before[MAX_SAME_IMAGE], id;
	char *argv[12];
	char **env;
	json_t *rec, *pre;
	int n = 0, h, st, before_n;
	bool adopted;

	snprintf(spec, sizeof(spec), "%s/%s", m->pool, m->image);
	if (ccb_map_kernel_options(o->map_options, mons_v1, udev_running(), m) < 0) {
		snprintf(err, err_len, "--map-options %s: too long", o->map_options);
		ccb_map_free_mapping(m);
		return -EINVAL;
	}
	argv[n++] = "rbd";
	argv[n++] = "device";
	argv[n++] = "map";
	argv[n++] = "--read-only";
	argv[n++] = "-c";
	argv[n++] = (char *)conf;
	if (m->options[0]) {
		argv[n++] = "-o";
		argv[n++] = m->options;
	}
	argv[n++] = spec;
	argv[n] = NULL;
	/* The devices already mapping this image are not ours: only a new one
	 * can be what an interrupted map left (see adopt_new_device). */
	before_n =
	    ccb_sysfs_rbd_find(ccb_sysfs_root(), m->pool, m->image, "-", before, MAX_SAME_IMAGE);
	if (before_n < 0) {
		ccb_map_free_mapping(m);
		return before_n;
	}
	if (before_n > MAX_SAME_IMAGE) {
		snprintf(err, err_len, "%s is mapped %d times already; unmap some first", spec,
		         before_n);
		ccb_map_free_mapping(m);
		return -EBUSY;
	}
	pre = json_array();
	for (int i = 0; i < before_n; i++)
		json_array_append_new(pre, json_integer(before[i]));
	snprintf(what, sizeof(what), "unmap %s", spec);
	rec = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "kind", "krbd_map", "pool", m->pool,
	                "image", m->image, "snap", "-", "dev", "", "preexisting", pre);
	h = ccb_undo_push_state(what, undo_krbd, m, ccb_map_free_mapping, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the mapping in %s: %s", ccb_undo_state_dir(),
		         strerror(-h));
		return h;
	}
	env = ccb_map_child_env(o);
	if (!env)
		return -ENOMEM;
	st = ccb_map_run_cmd(argv, env, out, sizeof(out), errtxt, sizeof(errtxt));
	ccb_map_free_env(env);
	if (st == 0 && ccb_map_parse_numbered(out, "/dev/rbd", &id) &&
	    ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, m->pool, m->image, "-")) {
		snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", id);
		ccb_undo_state_set(h, "dev", json_string(m->dev));
		return 0;
	}
	/* Failed, interrupted, or printed something else: the kernel may have
	 * added the device all the same. The unwind must unmap it. */
	adopted = adopt_new_device(m, h, before, before_n);
	snprintf(err, err_len, "rbd device map --read-only %s%s%s: %s%s%s", spec,
	         m->options[0] ? " -o " : "", m->options,
	         st == 0 ? "printed no /dev/rbdN of this image: " : "",
	         st == 0     ? out
	         : errtxt[0] ? errtxt
	         : st < 0    ? strerror(-st)
	                     : "failed",
	         adopted ? "; the device it had added will be unmapped" : "");
	return st < 0 ? st : -EIO;
}
