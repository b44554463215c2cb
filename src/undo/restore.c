/*
 * Restore: undo what killed runs left (the command is src/cli/restore_cmd.c).
 *
 * Two sources of records. The state directory (src/undo/undo.c): records of
 * runs that are gone, newest first, each through the undo function of its
 * kind, which the code that writes such records registers
 * (ccb_undo_kinds_add(): the cluster's and each path's, at start-up). The cluster (`-c CONF`): the
 * copies of cluster-side records (an OSD delay, a temporary image) each run kept in the mon's
 * config-key store (src/undo/undo_cluster.c), for a client host whose /run was lost. Which runs are
 * gone (ccb_undo_judge()):
 *   - this host, this boot, this PID namespace: its pid is not alive with
 *     its start time;
 *   - this host, an earlier boot: gone (its processes died with the boot);
 *   - another PID namespace of this boot, or another host: it may be
 *     alive; left and named, unless --force says the operator knows it
 *     is gone.
 * Every undo checks its target is still what ccbench set before it acts
 * (the OSD values, the image id); a record of the wrong shape, or of
 * another cluster than -c connects to, is named and left alone.
 */
#include <ccbench/clock.h>
#include <ccbench/restore.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* The kinds, as registered: a few groups of a few rows each. */
#define MAX_KIND_GROUPS 16
static const struct ccb_undo_kind *kind_groups[MAX_KIND_GROUPS];
static size_t n_kind_groups;

int ccb_undo_kinds_add(const struct ccb_undo_kind *kinds)
{
	for (size_t i = 0; i < n_kind_groups; i++)
		if (kind_groups[i] == kinds)
			return 0;
	if (n_kind_groups == MAX_KIND_GROUPS)
		return -E2BIG;
	kind_groups[n_kind_groups++] = kinds;
	return 0;
}

const struct ccb_undo_kind *ccb_undo_kind_find(const char *name)
{
	for (size_t g = 0; name && g < n_kind_groups; g++)
		for (const struct ccb_undo_kind *k = kind_groups[g]; k->name; k++)
			if (strcmp(k->name, name) == 0)
				return k;
	return NULL;
}

static const struct ccb_undo_kind *kind_of(const json_t *rec)
{
	return ccb_undo_kind_find(json_string_value(json_object_get(rec, "kind")));
}

/* One record through its kind's undo; an unknown kind is kept. */
static int undo_record(const json_t *e, const struct ccb_opts *o, const char *where, char *msg,
                       size_t len)
{
	const struct ccb_undo_kind *k = kind_of(e);
	const char *name = json_string_value(json_object_get(e, "kind"));

	msg[0] = '\0';
	if (k)
		return k->undo(e, o, msg, len);
	snprintf(msg, len, "%s: unknown record kind '%s'; kept", where,
	         name && ccb_is_printable(name) && strlen(name) < 64 ? name : "?");
	return -ENOTSUP;
}

struct restore {
	const struct ccb_opts *o;
	const char *only_disk; /* "" or a disk: only its read_ahead_kb */
	ccb_restore_connect_fn connect;
	json_t *done_keys; /* {cluster_key: record} undone from the state directory */
	int first, done, left;
	uint64_t deadline_nsec; /* one bound for the whole command (--op-timeout) */
};

/* Past the command's bound: what is not undone yet is kept, and named. */
static bool past_bound(struct restore *rs, const char *what)
{
	if (ccb_now_nsec() < rs->deadline_nsec)
		return false;
	printf("left: %s: restore's bound (--op-timeout %.0f s) passed; kept for the next "
	       "restore\n",
	       what, (double)rs->o->op_timeout_usec / 1e6);
	rs->left++;
	if (!rs->first)
		rs->first = -ETIMEDOUT;
	return true;
}

static void note_first(struct restore *rs, int r)
{
	if (r < 0 && !rs->first)
		rs->first = r;
}

/* ---- the state directory ----------------------------------------------------------- */

static void restore_file(struct restore *rs, const json_t *f)
{
	const json_t *entries = json_object_get(f, "entries");
	const char *file = json_string_value(json_object_get(f, "file"));
	const char *maybe = json_string_value(json_object_get(f, "maybe_alive"));
	long long pid = (long long)json_integer_value(json_object_get(f, "pid"));
	char msg[PATH_MAX + 512];
	json_t *left;
	int r;

	if (maybe && !rs->o->force) {
		printf("left: %s: %s (pid %lld) may still be running; nothing touched (--force "
		       "once you know it is gone)\n",
		       file, maybe, pid);
		rs->left++;
		return;
	}
	left = json_array();
	/* Newest first, as the unwind would have: loop before mount before process. */
	for (size_t j = json_array_size(entries); j-- > 0;) {
		json_t *e = json_array_get(entries, j);
		const char *kind = json_string_value(json_object_get(e, "kind"));
		const char *disk = json_string_value(json_object_get(e, "disk"));
		const char *ckey = json_string_value(json_object_get(e, "cluster_key"));

		/* --device DEV: only its read_ahead_kb. */
		if (rs->only_disk[0] && (!kind || strcmp(kind, "read_ahead_kb") != 0 ||
		                         (disk && strcmp(disk, rs->only_disk) != 0))) {
			json_array_insert(left, 0, e);
			continue;
		}
		if (past_bound(rs, json_string_value(json_object_get(e, "what"))
		                       ? json_string_value(json_object_get(e, "what"))
		                       : file)) {
			json_array_insert(left, 0, e);
			continue;
		}
		r = undo_record(e, rs->o, file, msg, sizeof(msg));
		if (r < 0) {
			fprintf(stderr, "ccbench: restore: %s\n", msg);
			json_array_insert(left, 0, e);
			note_first(rs, r);
			continue;
		}
		printf("restored (run pid %lld): %s\n", pid, msg);
		rs->done++;
		if (ckey)
			json_object_set(rs->done_keys, ckey, e);
	}
	r = ccb_undo_state_resolve(file, left);
	if (r < 0) {
		fprintf(stderr, "ccbench: rewrite %s: %s\n", file, strerror(-r));
		note_first(rs, r);
	}
	json_decref(left);
}

/* ---- the cluster --------------------------------------------------------------------- */

static bool only_fields(const json_t *obj, const char *const *fields)
{
	const char *k;
	json_t *v;

	json_object_foreach((json_t *)obj, k, v)
	{
		bool known = false;

		for (size_t i = 0; fields[i] && !known; i++)
			known = strcmp(k, fields[i]) == 0;
		if (!known)
			return false;
	}
	return true;
}

static bool short_printable(const json_t *v, size_t max)
{
	const char *s = json_string_value(v);

	return s && strlen(s) <= max && ccb_is_printable(s);
}

/* A copy as ccb_undo_cluster_put() writes it, of this cluster, or why not:
 * pure (no I/O), for the fuzz target (tests/fuzz/fuzz_restore.c). */
const char *ccb_restore_check_copy(const char *key, const char *text, const char *fsid,
                                   json_t **doc_out)
{
	static const char *const top[] = {"ccbench_cluster_record", "run", "record", NULL};
	static const char *const run_f[] = {"host",      "boot_id", "pid_ns", "pid",
	                                    "starttime", "command", "time",   NULL};
	const json_t *run, *rec;
	const struct ccb_undo_kind *k;
	char want[256];
	json_t *doc;

	*doc_out = NULL;
	if (!key || !fsid)
		return "no key or no cluster fsid";
	if (!text || strlen(text) > CCB_UNDO_CLUSTER_MAX)
		return "not a string of at most 64 KiB";
	doc = json_loads(text, JSON_REJECT_DUPLICATES, NULL);
	run = json_object_get(doc, "run");
	rec = json_object_get(doc, "record");
	if (!json_is_object(doc) || !only_fields(doc, top) ||
	    json_integer_value(json_object_get(doc, "ccbench_cluster_record")) != 1 ||
	    !json_is_object(run) || !json_is_object(rec)) {
		json_decref(doc);
		return "not a ccbench record";
	}
	if (!only_fields(run, run_f) || !short_printable(json_object_get(run, "host"), 255) ||
	    !short_printable(json_object_get(run, "boot_id"), 64) ||
	    !short_printable(json_object_get(run, "pid_ns"), 64) ||
	    !json_is_integer(json_object_get(run, "pid")) ||
	    json_integer_value(json_object_get(run, "pid")) <= 0 ||
	    !json_is_integer(json_object_get(run, "starttime")) ||
	    json_integer_value(json_object_get(run, "starttime")) < 0) {
		json_decref(doc);
		return "its run is not host, boot_id, pid_ns, pid, starttime";
	}
	/* Exactly the key ccb_undo_cluster_key() makes for this run,
	 * PREFIX BOOT/PID-START-HANDLE: any other key (its tail is printed,
	 * and names what is removed) is not this record's. */
	snprintf(want, sizeof(want), "%s%s/%lld-%lld-", CCB_UNDO_CLUSTER_PREFIX,
	         json_string_value(json_object_get(run, "boot_id")),
	         (long long)json_integer_value(json_object_get(run, "pid")),
	         (long long)json_integer_value(json_object_get(run, "starttime")));
	const char *handle = strncmp(key, want, strlen(want)) == 0 ? key + strlen(want) : "";
	if (!*handle || strlen(handle) > 10 || strspn(handle, "0123456789") != strlen(handle) ||
	    (json_object_get(rec, "cluster_key") &&
	     !(json_string_value(json_object_get(rec, "cluster_key")) &&
	       strcmp(json_string_value(json_object_get(rec, "cluster_key")), key) == 0))) {
		json_decref(doc);
		return "its key does not match its run";
	}
	k = kind_of(rec);
	if (!k || !k->cluster_fields || !only_fields(rec, k->cluster_fields)) {
		json_decref(doc);
		return "not an osd_inject, rbd_image or fault record of the fields ccbench writes";
	}
	if (!json_is_string(json_object_get(rec, "fsid")) ||
	    strcasecmp(json_string_value(json_object_get(rec, "fsid")), fsid) != 0) {
		json_decref(doc);
		return "of another cluster than this one";
	}
	*doc_out = doc;
	return NULL;
}

static void restore_copy(struct restore *rs, rados_t cl, const char *key, const json_t *val,
                         const char *fsid)
{
	char msg[PATH_MAX + 512], err[512];
	const char *why, *alive;
	const json_t *run;
	json_t *doc;
	bool maybe;
	int r;

	why = ccb_restore_check_copy(key, json_string_value(val), fsid, &doc);
	if (why) {
		/* The key is ours by its prefix but not its contents: left, named. */
		fprintf(stderr, "ccbench: restore: config-key %s: %s; nothing touched\n",
		        ccb_is_printable(key) ? key : "(unprintable)", why);
		note_first(rs, -EINVAL);
		return;
	}
	run = json_object_get(doc, "run");
	alive = ccb_undo_judge(run, &maybe);
	if (alive && (!maybe || !rs->o->force)) {
		printf("left: config-key %s: %s (pid %lld on %s)%s\n", key, alive,
		       (long long)json_integer_value(json_object_get(run, "pid")),
		       json_string_value(json_object_get(run, "host")),
		       maybe ? "; nothing touched (--force once you know it is gone)" : "");
		rs->left++;
		json_decref(doc);
		return;
	}
	r = undo_record(json_object_get(doc, "record"), rs->o, key, msg, sizeof(msg));
	if (r < 0) {
		fprintf(stderr, "ccbench: restore: %s (config-key %s kept)\n", msg, key);
		note_first(rs, r);
	} else {
		printf("restored (run pid %lld on %s, from its record on the cluster): %s\n",
		       (long long)json_integer_value(json_object_get(run, "pid")),
		       json_string_value(json_object_get(run, "host")), msg);
		rs->done++;
		r = ccb_undo_cluster_rm(cl, key, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: restore: config-key %s: %s\n", key, err);
			note_first(rs, r);
		}
	}
	json_decref(doc);
}

static int newest_first(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	const char *dx = strrchr(x, '-'), *dy = strrchr(y, '-');
	size_t lx = dx ? (size_t)(dx - x) : strlen(x), ly = dy ? (size_t)(dy - y) : strlen(y);
	int c = strncmp(x, y, lx < ly ? lx : ly);

	if (c || lx != ly)
		return c ? c : lx < ly ? -1 : 1;
	long hx = dx ? strtol(dx + 1, NULL, 10) : 0, hy = dy ? strtol(dy + 1, NULL, 10) : 0;
	return hx > hy ? -1 : hx < hy;
}

/*
 * With -c CONF: every copy on that cluster. Without: only the copies of
 * what was just undone from the state directory (through the connection
 * its record names), so they do not outlive it.
 */
static void restore_cluster(struct restore *rs)
{
	bool scan = rs->o->conf != NULL;
	char fsid[64] = "", err[512], msg[1024];
	json_t *all = NULL, *v;
	const char *key;
	rados_t cl;
	int r;

	if (!scan && !json_object_size(rs->done_keys))
		return;
	if (scan) {
		r = rs->connect(rs->o, NULL, &cl, err, sizeof(err));
		if (r < 0) {
			fprintf(stderr, "ccbench: restore: records on the cluster: %s\n", err);
			note_first(rs, r == -EINVAL ? -EIO : r);
			return;
		}
	} else {
		void *it = json_object_iter(rs->done_keys);
		r = rs->connect(rs->o, json_object_iter_value(it), &cl, msg, sizeof(msg));
		if (r < 0) {
			fprintf(stderr, "ccbench: restore: %s\n", msg);
			return; /* undone already; the copies go with `restore -c CONF` */
		}
	}
	if (rados_cluster_fsid(cl, fsid, sizeof(fsid)) < 0)
		fsid[0] = '\0';
	r = ccb_undo_cluster_list(cl, &all, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: restore: records on the cluster %s: %s\n", fsid, err);
		note_first(rs, r);
		rados_shutdown(cl);
		return;
	}
	/* Newest first within a run, as its unwind would have: by the handle
	 * that ends each key (config-key lists them in text order). */
	size_t n = json_object_size(all), i = 0;
	const char **keys = calloc(n ? n : 1, sizeof(*keys));
	if (!keys) {
		note_first(rs, -ENOMEM);
		json_decref(all);
		rados_shutdown(cl);
		return;
	}
	json_object_foreach(all, key, v) keys[i++] = key;
	qsort(keys, n, sizeof(*keys), newest_first);
	for (i = 0; i < n; i++) {
		key = keys[i];
		v = json_object_get(all, key);
		json_t *rec = json_object_get(rs->done_keys, key);

		if (rec) {
			/* Undone from the state directory just now. */
			const char *rf = json_string_value(json_object_get(rec, "fsid"));

			if (rf && strcasecmp(rf, fsid) == 0 &&
			    ccb_undo_cluster_rm(cl, key, err, sizeof(err)) < 0)
				fprintf(stderr, "ccbench: restore: config-key %s: %s\n", key, err);
			continue;
		}
		if (scan && !past_bound(rs, key))
			restore_copy(rs, cl, key, v, fsid);
	}
	free(keys);
	json_decref(all);
	rados_shutdown(cl);
}

int ccb_restore(const struct ccb_opts *o, const char *only_disk, ccb_restore_connect_fn connect)
{
	struct restore rs = {.o = o,
	                     .only_disk = only_disk ? only_disk : "",
	                     .connect = connect,
	                     .done_keys = json_object(),
	                     .deadline_nsec = ccb_now_nsec() + o->op_timeout_usec * 1000ull};
	char msg[PATH_MAX + 256];
	json_t *files = NULL, *f;
	size_t i;

	if (!rs.done_keys)
		return -ENOMEM;
	/* Records are acted on as root: only from a directory nobody else
	 * could have written them into. */
	if (ccb_undo_state_dir_check(msg, sizeof(msg)) < 0) {
		fprintf(stderr, "ccbench: restore: %s\n", msg);
		json_decref(rs.done_keys);
		return -EINVAL;
	}
	if (ccb_undo_state_stranded(&files) < 0) {
		json_decref(files);
		json_decref(rs.done_keys);
		return -EPERM;
	}
	json_array_foreach(files, i, f) restore_file(&rs, f);
	json_decref(files);
	if (!rs.only_disk[0])
		restore_cluster(&rs);
	if (!rs.done && !rs.left && !rs.first && !o->quiet)
		printf("nothing to restore (no state of a dead run in %s%s)\n",
		       ccb_undo_state_dir(), o->conf ? " or on the cluster" : "");
	json_decref(rs.done_keys);
	return rs.first;
}
