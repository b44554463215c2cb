/*
 * Kernel mappings (see mapping.c): `rbd device map --read-only`, the map
 * options the host or cluster needs, and unmapping through sysfs.
 */
#include <ccbench/redact.h>
#include <ccbench/host.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include "mapping.h"
#include "../mountinfo.h"
#include <ccbench/release.h>
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
#include "krbd_opts.h"

/* `rbd --version` talks to nobody: a few seconds are plenty. */
#define RBD_VERSION_MSEC 10000

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
		/* Ids are reused: right before each attempt, the device must
		 * still map what ours did, or it is someone else's by now. */
		if (!ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, m->pool, m->image, "-")) {
			fprintf(stderr,
			        "ccbench: %s no longer maps %s/%s (at the head): not ours, left "
			        "as is\n",
			        m->dev, m->pool, m->image);
			return 0;
		}
		r = ccb_map_rbd_remove(id, msg, sizeof(msg));
		if (r != -EBUSY || waited >= SETTLE_MSEC)
			break;
		ccb_sleep_msec(100);
	}
	if (r < 0)
		fprintf(stderr, "ccbench: %s\n", msg);
	return r;
}

int ccb_map_mons_msgr(rados_t cl)
{
	json_t *doc, *mon, *a;
	size_t i, j;
	int r = 0, kinds = 0;

	doc = ccb_cluster_mon_json(cl, "{\"prefix\": \"mon dump\", \"format\": \"json\"}", &r);
	if (!doc)
		return r;
	if (!json_is_array(json_object_get(doc, "mons"))) {
		json_decref(doc);
		return -EPROTO;
	}
	json_array_foreach(json_object_get(doc, "mons"), i, mon)
	{
		json_t *vec = json_object_get(json_object_get(mon, "public_addrs"), "addrvec");

		json_array_foreach(vec, j, a)
		{
			const char *type = json_string_value(json_object_get(a, "type"));

			if (type && strcmp(type, "v1") == 0)
				kinds |= CCB_MONS_V1;
			if (type && strcmp(type, "v2") == 0)
				kinds |= CCB_MONS_V2;
		}
		/* Old mon maps have only "addr", a v1 address. */
		if (!json_is_array(vec) && json_object_get(mon, "addr"))
			kinds |= CCB_MONS_V1;
	}
	json_decref(doc);
	return kinds ? kinds : -EPROTO;
}

int ccb_map_rbd_cli_version(const struct ccb_opts *o, char *version, size_t len)
{
	char *argv[] = {"rbd", "--version", NULL}, out[256], errtxt[256], name[32];
	char **env = ccb_child_env(o);
	int st;

	version[0] = '\0';
	if (!env)
		return -ENOMEM;
	/* Local: `rbd --version` reads no conf and talks to nobody. */
	st = ccb_child_run_bounded(argv, env, RBD_VERSION_MSEC, out, sizeof(out), errtxt,
	                           sizeof(errtxt));
	ccb_child_env_free(env);
	if (st != 0)
		return st < 0 ? st : -EIO;
	return ccb_release_parse(out, version, len, name, sizeof(name));
}

/*
 * Every rbd CLI takes its map options from a fixed list (16.2.15 here:
 * fsid, ip, share, crc, ..., ms_mode, rxbounce, udev) and refuses any
 * other, secret= and key= included, as an "unknown map option", in -o and
 * in rbd_default_map_options alike (one parser for both, the latter read
 * only after connecting): the key reaches the kernel only as rbd itself
 * passes it, from the keyring, through the kernel's key service. A key in
 * --map-options can then never map anything, and on rbd's argv it would
 * be in /proc/PID/cmdline for every local user while the CLI starts; so
 * it is refused before anything runs, and never put on an argv.
 */
int ccb_map_options_check(const char *given, char *err, size_t err_len)
{
	int r = 0;

	for (const char *p = given ? given : ""; *p && !r;) {
		size_t l = strcspn(p, ",");
		char *opt = strndup(p, l), *red = opt ? ccb_redact_text(opt) : NULL;

		if (!red) {
			r = -ENOMEM;
		} else if (strcmp(red, opt) != 0) {
			/* Named as redaction shows it: its key is never printed. */
			snprintf(
			    err, err_len,
			    "--map-options: %s carries key material, which `rbd device map` "
			    "takes no map option for (it refuses it) and would show on its "
			    "command line to every local user; give the key by its keyring "
			    "(-k/--keyring FILE, -n/--name or -i/--id), which rbd hands to the "
			    "kernel itself",
			    red);
			r = -EINVAL;
		}
		if (opt)
			explicit_bzero(opt, l);
		free(opt);
		free(red);
		p += l + (p[l] == ',');
	}
	return r;
}

/* Append ",KEY" to the options. */
static int add_opt(struct ccb_mapping *m, int n, const char *opt)
{
	size_t len = sizeof(m->options);

	if (n < 0 || (size_t)n >= len)
		return n;
	return n + snprintf(m->options + n, len - (size_t)n, "%s%s", m->options[0] ? "," : "", opt);
}

int ccb_map_kernel_options(const char *given, int mons, int rbd_major, bool udev_running,
                           struct ccb_mapping *m)
{
	bool v1 = mons >= 0 && (mons & CCB_MONS_V1), v2 = mons >= 0 && (mons & CCB_MONS_V2);
	bool msgr2_cli = rbd_major >= CCB_RBD_MSGR2_MAJOR;
	char val[64], cli[48];
	size_t len = sizeof(m->options);
	int n;

	given = given ? given : "";
	n = snprintf(m->options, len, "%s", given);
	m->noudev = false;
	m->ms_mode[0] = m->ms_mode_used[0] = '\0';
	if (!udev_running && !ccb_mountinfo_option(given, "udev", val, sizeof(val)) &&
	    !ccb_mountinfo_option(given, "noudev", val, sizeof(val))) {
		n = add_opt(m, n, "noudev");
		m->noudev = true;
	}
	if (rbd_major >= 0)
		snprintf(cli, sizeof(cli), "rbd %d here", rbd_major);
	else
		snprintf(cli, sizeof(cli), "the rbd CLI's version unknown");
	/*
	 * `rbd device map` picks the monitors' addresses of the mode's kind
	 * (v1 for legacy, v2 otherwise) and, since Tentacle 20, appends
	 * ms_mode=prefer-crc when none is given; before, the driver's default
	 * is legacy (msgr v1). ccbench passes what the cluster needs, and
	 * otherwise the CLI's own default, explicitly where the CLI adds one,
	 * so that map_options_used says the mode whichever release maps.
	 * Legacy is never passed to an older CLI: a kernel before 5.11 knows
	 * no ms_mode option at all.
	 */
	if (ccb_mountinfo_option(given, "ms_mode", val, sizeof(val))) {
		snprintf(m->ms_mode, sizeof(m->ms_mode), "%.*s", (int)sizeof(m->ms_mode) - 1, val);
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why), "given in --map-options");
	} else if (v2 && !v1) {
		n = add_opt(m, n, "ms_mode=prefer-crc");
		snprintf(m->ms_mode, sizeof(m->ms_mode), "prefer-crc");
		snprintf(
		    m->ms_mode_why, sizeof(m->ms_mode_why),
		    "chosen by ccbench: the monitors speak msgr v2 only, which legacy (msgr v1) "
		    "cannot");
	} else if (v1 && !v2 && msgr2_cli) {
		n = add_opt(m, n, "ms_mode=legacy");
		snprintf(m->ms_mode, sizeof(m->ms_mode), "legacy");
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "chosen by ccbench: the monitors speak msgr v1 only, and rbd device map "
		         "defaults to msgr v2 since Tentacle (%s)",
		         cli);
	} else if (msgr2_cli) {
		n = add_opt(m, n, "ms_mode=prefer-crc");
		snprintf(m->ms_mode, sizeof(m->ms_mode), "prefer-crc");
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "rbd device map's default since Tentacle (%s), passed explicitly", cli);
	} else if (rbd_major >= 0) {
		snprintf(m->ms_mode_used, sizeof(m->ms_mode_used), "legacy");
		snprintf(m->ms_mode_why, sizeof(m->ms_mode_why),
		         "the driver's default (legacy, msgr v1): rbd device map passes no ms_mode "
		         "before Tentacle (%s)%s",
		         cli,
		         mons < 0 ? "; the mon map could not be read to check for msgr v2-only "
		                    "monitors"
		                  : "");
	} else {
		snprintf(
		    m->ms_mode_why, sizeof(m->ms_mode_why),
		    "rbd device map's default (%s: legacy before Tentacle 20, prefer-crc since)%s",
		    cli,
		    mons < 0 ? "; the mon map could not be read to check for msgr v2-only "
		               "monitors"
		             : "");
	}
	if (m->ms_mode[0])
		snprintf(m->ms_mode_used, sizeof(m->ms_mode_used), "%s", m->ms_mode);
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

/* Options of rbd device map's that never reach the driver. */
static bool cli_only_option(const char *opt, size_t len)
{
	return (len == 6 && strncmp(opt, "noudev", 6) == 0) ||
	       (len == 4 && strncmp(opt, "udev", 4) == 0);
}

/* Whether the comma-separated @p list has @p item (@p len bytes) exactly. */
static bool has_option(const char *list, const char *item, size_t len)
{
	for (const char *p = list; *p;) {
		size_t l = strcspn(p, ",");

		if (l == len && strncmp(p, item, len) == 0)
			return true;
		p += l + (p[l] == ',');
	}
	return false;
}

bool ccb_map_krbd_is_ours(const char *root, unsigned id, const char *pool, const char *image,
                          const char *options, const char *entity, char *why, size_t why_len)
{
	char path[PATH_MAX], buf[4096], *opts, *save = NULL, name[160];
	const char *id_part = strncmp(entity, "client.", 7) == 0 ? entity + 7 : entity;
	bool ok = true;
	ssize_t n;
	int fd;

	if (!ccb_sysfs_rbd_maps(root, id, pool, image, "-")) {
		snprintf(why, why_len, "it does not map %s/%s at the head", pool, image);
		return false;
	}
	/* The very request the driver was given: "MONS OPTIONS POOL IMAGE
	 * SNAP". It holds the key, so it is read as root, parsed here and
	 * wiped, never shown. */
	snprintf(path, sizeof(path), "%s/bus/rbd/devices/%u/config_info", root, id);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		snprintf(why, why_len, "its config_info cannot be read");
		return false;
	}
	buf[n] = '\0';
	if (!strtok_r(buf, " \n", &save) || !(opts = strtok_r(NULL, " \n", &save))) {
		snprintf(why, why_len, "its config_info has no options");
		explicit_bzero(buf, sizeof(buf));
		return false;
	}
	/* Mapped read-only, by our entity, with every option ours had. */
	snprintf(name, sizeof(name), "name=%s", id_part);
	if (!has_option(opts, "ro", 2) && !has_option(opts, "read_only", 9)) {
		snprintf(why, why_len, "it is not mapped read-only");
		ok = false;
	} else if (!has_option(opts, name, strlen(name))) {
		snprintf(why, why_len, "it is not mapped by %s", entity);
		ok = false;
	}
	for (const char *p = options; ok && *p;) {
		size_t l = strcspn(p, ",");

		if (l && !cli_only_option(p, l) && !has_option(opts, p, l)) {
			snprintf(why, why_len, "its options lack %.*s", (int)l, p);
			ok = false;
		}
		p += l + (p[l] == ',');
	}
	explicit_bzero(buf, sizeof(buf));
	return ok;
}

/* After a map that did not report its device: a device of this image that
 * is not among @p before may be the map's (the kernel added it before rbd
 * was stopped or failed), or someone else's made meanwhile. It is taken
 * into the mapping and its record, so that the unwind unmaps it, only
 * when it is the one new device and the driver's own record of its
 * request (config_info) is ours: read-only, our entity, our options.
 * Anything else is left and named in @p note. */
static bool adopt_new_device(struct ccb_mapping *m, int h, const unsigned *before, int before_n,
                             const char *entity, char *note, size_t note_len)
{
	unsigned now[MAX_SAME_IMAGE], mine = 0;
	int n = ccb_sysfs_rbd_find(ccb_sysfs_root(), m->pool, m->image, "-", now, MAX_SAME_IMAGE),
	    fresh = 0;
	char why[160];

	note[0] = '\0';
	for (int i = 0; i < n && i < MAX_SAME_IMAGE; i++) {
		bool old = false;

		for (int j = 0; j < before_n; j++)
			old |= before[j] == now[i];
		if (!old) {
			mine = now[i];
			fresh++;
		}
	}
	if (fresh == 0)
		return false;
	if (fresh > 1) {
		snprintf(note, note_len,
		         "; %d devices of %s/%s appeared meanwhile, none known to be ours: left "
		         "(check with 'rbd device list')",
		         fresh, m->pool, m->image);
		return false;
	}
	if (!ccb_map_krbd_is_ours(ccb_sysfs_root(), mine, m->pool, m->image, m->options, entity,
	                          why, sizeof(why))) {
		snprintf(note, note_len,
		         "; /dev/rbd%u of %s/%s appeared meanwhile, not proven ours (%s): left "
		         "(rbd device unmap /dev/rbd%u if it is not in use)",
		         mine, m->pool, m->image, why, mine);
		return false;
	}
	snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", mine);
	ccb_undo_state_set(h, "dev", json_string(m->dev));
	snprintf(note, note_len, "; the device it had added (%s) will be unmapped", m->dev);
	return true;
}

int ccb_map_do_kernel(const struct ccb_opts *o, struct ccb_mapping *m, int mons, char *err,
                      size_t err_len)
{
	char spec[260], confbuf[PATH_MAX], out[sizeof(m->dev)], errtxt[512], what[320];
	char entity[256], note[1024], *ropts;
	uint64_t bound_msec;
	const char *conf = ccb_cluster_conf_path(o, confbuf, sizeof(confbuf));
	unsigned before[MAX_SAME_IMAGE], id;
	char *argv[12];
	char **env;
	json_t *rec, *pre;
	int n = 0, h, st, before_n, rbd_major;
	bool adopted;

	snprintf(spec, sizeof(spec), "%s/%s", m->pool, m->image);
	/* ccb_map_choose() refused a key already; never on rbd's argv. */
	if (ccb_map_options_check(CCB_KRBD_OPTS(o)->map_options, err, err_len) < 0) {
		ccb_mapping_free(m);
		return -EINVAL;
	}
	/* Its default ms_mode depends on its release. */
	rbd_major = ccb_map_rbd_cli_version(o, m->rbd_version, sizeof(m->rbd_version));
	if (ccb_map_kernel_options(CCB_KRBD_OPTS(o)->map_options, mons, rbd_major, udev_running(),
	                           m) < 0) {
		snprintf(err, err_len,
		         "--map-options: too long (at most %zu bytes with what "
		         "ccbench adds)",
		         sizeof(m->options) - 1);
		ccb_mapping_free(m);
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
		ccb_mapping_free(m);
		return before_n;
	}
	if (before_n > MAX_SAME_IMAGE) {
		snprintf(err, err_len, "%s is mapped %d times already; unmap some first", spec,
		         before_n);
		ccb_mapping_free(m);
		return -EBUSY;
	}
	pre = json_array();
	for (int i = 0; i < before_n; i++)
		json_array_append_new(pre, json_integer(before[i]));
	snprintf(what, sizeof(what), "unmap %s", spec);
	rec = json_pack("{s:s, s:s, s:s, s:s, s:s, s:o}", "kind", "krbd_map", "pool", m->pool,
	                "image", m->image, "snap", "-", "dev", "", "preexisting", pre);
	h = ccb_undo_push_state(what, undo_krbd, m, ccb_mapping_free, rec);
	if (h < 0) {
		snprintf(err, err_len, "record the mapping in %s: %s", ccb_undo_state_dir(),
		         strerror(-h));
		return h;
	}
	env = ccb_child_env(o);
	if (!env)
		return -ENOMEM;
	/* The CLI connects and reads the image (our timeouts, in CEPH_ARGS);
	 * then the driver connects on its own (mount_timeout, 60 s by
	 * default) and reads the header. */
	bound_msec = 2 * (o->connect_timeout_usec / 1000) + o->op_timeout_usec / 1000 + 65000;
	st = ccb_child_run_bounded(argv, env, bound_msec, out, sizeof(out), errtxt, sizeof(errtxt));
	ccb_child_env_free(env);
	if (st == 0 && ccb_map_parse_numbered(out, "/dev/rbd", &id) &&
	    ccb_sysfs_rbd_maps(ccb_sysfs_root(), id, m->pool, m->image, "-")) {
		snprintf(m->dev, sizeof(m->dev), "/dev/rbd%u", id);
		ccb_undo_state_set(h, "dev", json_string(m->dev));
		return 0;
	}
	/* Failed, interrupted, or printed something else: the kernel may have
	 * added the device all the same. The unwind must unmap it. */
	adopted =
	    adopt_new_device(m, h, before, before_n, ccb_cluster_entity(o, entity, sizeof(entity)),
	                     note, sizeof(note));
	(void)adopted;
	/* The options may carry a secret=: redacted as a list of their own,
	 * then the whole message (rbd may echo them). */
	ropts = ccb_redact_text(m->options);
	snprintf(err, err_len, "rbd device map --read-only %s%s%s: %s%s%s", spec,
	         m->options[0] ? " -o " : "", ropts ? ropts : "(withheld)",
	         st == 0 ? "printed no /dev/rbdN of this image: " : "",
	         st == 0     ? out
	         : st == 124 ? "no answer in time (killed)"
	         : errtxt[0] ? errtxt
	         : st < 0    ? strerror(-st)
	                     : "failed",
	         note);
	free(ropts);
	ccb_redact_in_place(err, err_len);
	return st < 0 ? st : st == 124 ? -ETIMEDOUT : -EIO;
}
