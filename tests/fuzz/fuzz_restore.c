/*
 * Fuzz target: the copies of crash records that `ccbench restore -c CONF`
 * reads back from the mon's config-key store (prefix ccbench/run/). Any
 * client with mon caps can write those keys, so each one is hostile
 * input until ccb_restore_check_copy() (src/undo/restore.c) accepts it: the
 * fields and kinds ccbench writes, its run's identity, its key under its
 * run's boot id, this cluster's fsid, the size bound.
 *
 * Two shapes of input:
 *   - `{...}`: a whole `config-key dump` answer, as the mon sends it;
 *     filtered to the prefix by ccb_undo_cluster_parse() (src/undo/undo_cluster.c),
 *     then every string value checked under its key;
 *   - otherwise `KEY\nTEXT`: one key and its value (the whole input is the
 *     key when there is no newline, and the value empty).
 * A copy accepted is then judged as restore judges it (ccb_undo_judge:
 * reads /proc only) and, for osd_inject, given the check its undo makes
 * before it connects (ccb_osd_inject_check_record). What an accepted copy
 * must be is asserted here: a violation aborts, and libFuzzer keeps the
 * input. Nothing connects: the sandbox (sandbox.c) aborts on any attempt.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <ccbench/commands.h>
#include <ccbench/path.h>
#include <ccbench/osd_inject.h>
#include <ccbench/fault.h>
#include <ccbench/restore.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include "sandbox.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The cluster restore is connected to, in every input of the seed corpus. */
static const char fsid[] = "5f2d2b53-9a7e-4c1e-8d3a-1b2c3d4e5f60";

static void check_one(const char *key, const char *text)
{
	json_t *doc = NULL;
	const char *why = ccb_restore_check_copy(key, text, fsid, &doc);
	const json_t *run, *rec;
	const char *kind, *boot, *rfsid;
	char why2[512];
	bool maybe;

	if (why) {
		if (doc || !*why)
			abort(); /* refused: no document, and a reason to print */
		return;
	}
	/* Accepted: exactly what ccb_undo_cluster_put() writes, of this cluster,
	 * under a key that prints as it is (restore names it). */
	run = json_object_get(doc, "run");
	rec = json_object_get(doc, "record");
	kind = json_string_value(json_object_get(rec, "kind"));
	boot = json_string_value(json_object_get(run, "boot_id"));
	rfsid = json_string_value(json_object_get(rec, "fsid"));
	if (!json_is_object(doc) || !json_is_object(run) || !json_is_object(rec) || !kind ||
	    (strcmp(kind, "osd_inject") != 0 && strcmp(kind, "rbd_image") != 0 &&
	     strcmp(kind, "fault") != 0) ||
	    !boot || strncmp(key, CCB_UNDO_CLUSTER_PREFIX, strlen(CCB_UNDO_CLUSTER_PREFIX)) != 0 ||
	    strncmp(key + strlen(CCB_UNDO_CLUSTER_PREFIX), boot, strlen(boot)) != 0 ||
	    key[strlen(CCB_UNDO_CLUSTER_PREFIX) + strlen(boot)] != '/' || !ccb_is_printable(key) ||
	    !rfsid || strcasecmp(rfsid, fsid) != 0 || strlen(text) > CCB_UNDO_CLUSTER_MAX ||
	    json_integer_value(json_object_get(run, "pid")) <= 0)
		abort();
	/* What restore_copy() does next, short of connecting. */
	(void)ccb_undo_judge(run, &maybe);
	if (strcmp(kind, "osd_inject") == 0)
		(void)ccb_osd_inject_check_record(rec, why2, sizeof(why2));
	/* A command to run never comes from the cluster: only this host's state. */
	if (strcmp(kind, "fault") == 0 &&
	    (json_object_get(rec, "argv") || json_object_get(rec, "dir") ||
	     (ccb_fault_check_record(rec, why2, sizeof(why2)) == 0 &&
	      strcmp(json_string_value(json_object_get(rec, "undo")), "exec") == 0)))
		abort();
	json_decref(doc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *in = malloc(size + 1), *nl;
	char err[256];
	json_t *all = NULL, *v;
	const char *key;

	/* Once; later calls return at once (the option table is built). */
	if (ccb_commands_init() < 0)
		abort();
	if (!in)
		return 0;
	memcpy(in, data, size);
	in[size] = '\0';
	if (size && in[0] == '{') {
		if (ccb_undo_cluster_parse(in, size, &all, err, sizeof(err)) == 0) {
			json_object_foreach(all, key, v)
			{
				if (strncmp(key, CCB_UNDO_CLUSTER_PREFIX,
				            strlen(CCB_UNDO_CLUSTER_PREFIX)) != 0)
					abort(); /* the filter let another key through */
				check_one(key, json_string_value(v));
			}
		} else if (all || !err[0]) {
			abort();
		}
		json_decref(all);
	} else {
		nl = memchr(in, '\n', size);
		if (nl)
			*nl = '\0';
		check_one(in, nl ? nl + 1 : in + size);
	}
	free(in);
	return 0;
}
