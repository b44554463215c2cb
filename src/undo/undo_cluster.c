/*
 * Crash records kept on the cluster too. A record of a cluster-side change
 * (an OSD delay, a temporary image) in /run dies with the client host,
 * while the change stays on the cluster. So the undo log also keeps a copy
 * in the mon's config-key store, one key per record:
 *
 *     ccbench/run/BOOT_ID/PID-STARTTIME-HANDLE
 *
 * holding {"ccbench_cluster_record": 1, "run": {host, boot_id, pid_ns,
 * pid, starttime, command, time}, "record": {...}} (redacted), written
 * before the change is made and removed once its undo succeeded. `ccbench
 * restore -c CONF` lists the prefix on any host and undoes the records of
 * runs that are gone (src/undo/restore.c). Mon commands go through the run's
 * own connection, so they are bounded by its rados_mon_op_timeout.
 */
#include <ccbench/redact.h>
#include <ccbench/undo.h>

#include "undo_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static unsigned long long own_starttime(void)
{
	return ccb_undo_proc_starttime((long)getpid());
}

int ccb_undo_cluster_key(char *buf, size_t len, int handle)
{
	int n = snprintf(buf, len, "%s%s/%ld-%llu-%d", CCB_UNDO_CLUSTER_PREFIX, ccb_undo_boot_id(),
	                 (long)getpid(), own_starttime(), handle);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* One mon command, its status text kept for the message. */
static int mon_cmd(rados_t cl, json_t *cmd, const char *in, size_t in_len, char **out,
                   size_t *out_len, char *err, size_t err_len)
{
	char *text = json_dumps(cmd, JSON_COMPACT), *st = NULL, *o = NULL;
	const char *cmds[1];
	size_t st_len = 0, o_len = 0;
	int r;

	json_decref(cmd);
	if (!text) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	cmds[0] = text;
	r = rados_mon_command(cl, cmds, 1, in, in_len, &o, &o_len, &st, &st_len);
	if (r < 0)
		snprintf(err, err_len, "mon command %s: %s%s%.*s", text, strerror(-r),
		         st_len ? ": " : "", (int)(st_len > 200 ? 200 : st_len), st ? st : "");
	free(text);
	if (r >= 0 && out) {
		*out = malloc(o_len + 1);
		if (!*out) {
			r = -ENOMEM;
			snprintf(err, err_len, "out of memory");
		} else {
			memcpy(*out, o, o_len);
			(*out)[o_len] = '\0';
			*out_len = o_len;
		}
	}
	rados_buffer_free(o);
	rados_buffer_free(st);
	return r < 0 ? r : 0;
}

int ccb_undo_cluster_put(rados_t cl, const char *key, const json_t *record, const json_t *command,
                         char *err, size_t err_len)
{
	json_t *rec = json_deep_copy(record), *doc;
	char *text;
	int r;

	if (!rec || ccb_redact_json(rec) < 0) {
		json_decref(rec);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	doc = json_pack("{s:i, s:{s:s, s:s, s:s, s:I, s:I, s:O?, s:I}, s:o}",
	                "ccbench_cluster_record", 1, "run", "host", ccb_undo_host(), "boot_id",
	                ccb_undo_boot_id(), "pid_ns", ccb_undo_pid_ns(), "pid",
	                (json_int_t)getpid(), "starttime", (json_int_t)own_starttime(), "command",
	                command, "time", (json_int_t)time(NULL), "record", rec);
	text = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	if (!text) {
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	if (strlen(text) > CCB_UNDO_CLUSTER_MAX) {
		snprintf(err, err_len, "record of %zu bytes: over %d", strlen(text),
		         CCB_UNDO_CLUSTER_MAX);
		free(text);
		return -E2BIG;
	}
	r = mon_cmd(cl, json_pack("{s:s, s:s}", "prefix", "config-key set", "key", key), text,
	            strlen(text), NULL, NULL, err, err_len);
	free(text);
	return r;
}

int ccb_undo_cluster_rm(rados_t cl, const char *key, char *err, size_t err_len)
{
	int r = mon_cmd(cl, json_pack("{s:s, s:s}", "prefix", "config-key rm", "key", key), NULL, 0,
	                NULL, NULL, err, err_len);

	return r == -ENOENT ? 0 : r;
}

int ccb_undo_cluster_parse(const char *text, size_t len, json_t **out, char *err, size_t err_len)
{
	json_t *all = json_loadb(text, len, 0, NULL);

	*out = NULL;
	if (!json_is_object(all)) {
		json_decref(all);
		snprintf(err, err_len, "config-key dump %s: not a JSON object",
		         CCB_UNDO_CLUSTER_PREFIX);
		return -EBADMSG;
	}
	/* A mon that ignores the prefix lists everything: keep only ours. */
	const char *k;
	json_t *v, *mine = json_object();
	void *tmp;
	if (!mine) {
		json_decref(all);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	json_object_foreach_safe(all, tmp, k, v)
	{
		if (strncmp(k, CCB_UNDO_CLUSTER_PREFIX, strlen(CCB_UNDO_CLUSTER_PREFIX)) == 0)
			json_object_set(mine, k, v);
	}
	json_decref(all);
	*out = mine;
	return 0;
}

int ccb_undo_cluster_list(rados_t cl, json_t **out, char *err, size_t err_len)
{
	char *text = NULL;
	size_t len = 0;
	int r;

	*out = NULL;
	r = mon_cmd(cl,
	            json_pack("{s:s, s:s, s:s}", "prefix", "config-key dump", "key",
	                      CCB_UNDO_CLUSTER_PREFIX, "format", "json"),
	            NULL, 0, &text, &len, err, err_len);
	if (r < 0)
		return r;
	r = ccb_undo_cluster_parse(text, len, out, err, err_len);
	free(text);
	return r;
}
