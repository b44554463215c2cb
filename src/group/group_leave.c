/*
 * A member's way out of its group: its registration updated, marked
 * withdrawn or removed (whatever the group's state), and after the run its
 * result stored (see group_member.c for a member's life).
 */
#include "group_agg.h"
#include "group_store.h"
#include <ccbench/report.h>

#include "group_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void ccb_group_err(const struct ccb_group_ctx *g, const char *call, const char *what, int r)
{
	fprintf(stderr, "ccbench: group %s: %s(%s, pool %s namespace %s): %s\n", g->name, call,
	        what, ccb_group_pool(g->o), CCB_GROUP_NAMESPACE, strerror(-r));
}

char *ccb_group_record_dump(struct ccb_group_ctx *g)
{
	return json_dumps(g->record, JSON_COMPACT | JSON_SORT_KEYS);
}

/* Overwrite this member's registration (after the start), never recreating
 * a group that `group rm` removed meanwhile. */
static int record_update(struct ccb_group_ctx *g)
{
	char *s = ccb_group_record_dump(g);
	rados_write_op_t op;

	if (!s)
		return -ENOMEM;
	op = rados_create_write_op();
	rados_write_op_assert_exists(op);
	ccb_gstate_op_set(op, g->key, s);
	free(s);
	return ccb_gstate_write_op(g->io, g->name, op);
}

/*
 * Remove this member's registration unless the group started meanwhile.
 * The last member out removes the group object: a group that never started
 * leaves nothing behind.
 *
 * @return 0 withdrawn (or nothing to withdraw), 1 the group has started
 *         (nothing removed), -errno.
 */
int ccb_group_withdraw_unstarted(struct ccb_group_ctx *g)
{
	rados_write_op_t op = rados_create_write_op();
	const char *keys[] = {g->key};
	struct ccb_gstate st;
	bool others = false;
	json_t *v;
	const char *k;
	int r;

	rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0, NULL);
	rados_write_op_omap_rm_keys(op, keys, 1);
	r = ccb_gstate_remove_op(g->io, g->name, op);
	if (r == -ECANCELED)
		return 1;
	if (r == -ENOENT) {
		g->registered = false;
		return 0;
	}
	if (r < 0) {
		ccb_group_err(g, "rados_write_op_omap_rm_keys", g->key, r);
		return r;
	}
	g->registered = false;
	if (ccb_gstate_read(g->io, g->name, &st) < 0 || !st.exists)
		goto out;
	json_object_foreach(st.raw, k, v) others |= strcmp(k, "params") != 0;
	if (!others) {
		/* Only if nobody registered since: the version says so. */
		op = rados_create_write_op();
		rados_write_op_assert_version(op, st.version);
		rados_write_op_remove(op);
		r = ccb_gstate_remove_op(g->io, g->name, op);
		if (r < 0 && r != -ERANGE && r != -EOVERFLOW && r != -ENOENT)
			ccb_group_err(g, "rados_write_op_remove", g->name, r);
	}
out:
	ccb_gstate_free(&st);
	return 0;
}

int ccb_group_mark_withdrawn(struct ccb_group_ctx *g, const char *reason)
{
	int r;

	json_object_set_new(g->record, "state", json_string("withdrawn"));
	json_object_set_new(g->record, "reason", json_string(reason));
	r = record_update(g);
	if (r < 0 && r != -ENOENT)
		ccb_group_err(g, "rados_write_op_omap_set", g->key, r);
	return r;
}

/* Drop this member's registration whatever the group's state. */
void ccb_group_remove_registration(struct ccb_group_ctx *g)
{
	const char *keys[] = {g->key};
	rados_write_op_t op = rados_create_write_op();
	int r;

	rados_write_op_assert_exists(op);
	rados_write_op_omap_rm_keys(op, keys, 1);
	r = ccb_gstate_remove_op(g->io, g->name, op);
	if (r < 0 && r != -ENOENT)
		ccb_group_err(g, "rados_write_op_omap_rm_keys", g->key, r);
	g->registered = false;
}

/* @return 1 when the group's start claim names this member, 0 when not, -errno. */
static int started_with_me(struct ccb_group_ctx *g)
{
	struct ccb_gstate st;
	json_t *started, *v;
	size_t i;
	int r = ccb_gstate_read(g->io, g->name, &st);

	if (r < 0) {
		ccb_gstate_free(&st);
		return r;
	}
	started = ccb_gstate_get(&st, "started");
	r = 0;
	json_array_foreach(json_object_get(started, "members"), i, v) r |=
	    json_is_string(v) && strcmp(json_string_value(v), g->member) == 0;
	json_decref(started);
	ccb_gstate_free(&st);
	return r;
}

/* Withdraw however far the member got: before the start its registration
 * goes; once in a started group it stays, marked withdrawn, so the report
 * says why the member has no result. */
void ccb_group_withdraw(struct ccb_group_ctx *g, const char *reason)
{
	if (!g->registered)
		return;
	if (!g->started) {
		if (ccb_group_withdraw_unstarted(g) != 1)
			return;
		/* Started meanwhile: with this member, or complete without it. */
		if (started_with_me(g) != 1) {
			ccb_group_remove_registration(g);
			return;
		}
	}
	ccb_group_mark_withdrawn(g, reason);
	g->registered = false;
}

/* The undo log's entry for the registration (a safety net: the waiting
 * code withdraws explicitly on each of its exits). */
int ccb_group_undo_registration(void *arg)
{
	struct ccb_group_ctx *g = arg;

	if (g->registered && !g->started)
		ccb_group_withdraw(g, "gave up before the start");
	return 0;
}

/* After the run: store the result, mark the registration, learn the skew. */
int ccb_group_finish(struct ccb_group_ctx *g, json_t *res)
{
	char oid[256], *s = NULL;
	json_t *info, *doc = NULL, *partial;
	struct ccb_gstate st;
	bool interrupted = res && strcmp(ccb_report_str(res, "status"), "interrupted") == 0;
	double end;
	int r;

	if (g->publish_comp) {
		r = ccb_group_aio_wait(g->io, g->publish_comp);
		g->publish_comp = NULL;
		if (ccb_group_gave_up(r)) {
			ccb_group_err(g, "rados_aio_write_op_operate", g->key, r);
			g->lost = true;
		}
	}
	/* No beat may land after the result: the report would not care, but
	 * the op must not outlive the member's connection either. */
	r = ccb_group_beat_end(g);
	if (r == 0)
		r = g->beat_end_r;
	if (ccb_group_gave_up(r) && !g->lost) {
		ccb_group_err(g, "rados_aio_write_op_operate", "heartbeat", r);
		g->lost = true;
	}
	if (!res) {
		ccb_group_mark_withdrawn(g, "the run produced no result");
		return -EIO;
	}
	end = g->measured_start + ccb_report_num(res, "seconds");
	info = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o}", "name", g->name, "member", g->member,
	                 "members", (json_int_t)g->o->members, "planned_start_realtime_us",
	                 ccb_group_json_us(g->planned_start), "start_realtime_us",
	                 ccb_group_json_us(g->measured_start), "end_realtime_us",
	                 ccb_group_json_us(end));
	/* Cut off past the report's patience and back: stored, but marked,
	 * and the report keeps it lost and out of the aggregate. */
	partial = ccb_group_beat_partial(g);
	if (info && partial) {
		fprintf(stderr,
		        "ccbench: group %s: the cluster took no heartbeat for %.1f s (the report "
		        "counts a member lost after %.0f s): storing this result marked partial\n",
		        g->name, ccb_report_num(partial, "silent_s"), CCB_GROUP_LOST_AFTER_S);
		json_object_set_new(info, "partial", partial);
	} else {
		json_decref(partial);
	}
	json_object_set_new(res, "group", info);
	ccb_group_result_oid(oid, sizeof(oid), g->name, g->member);
	doc = json_pack("{s:s, s:s, s:i, s:f, s:f, s:O}", "member", g->member, "host", g->host,
	                "pid", (int)getpid(), "start_realtime", g->measured_start, "end_realtime",
	                end, "result", res);
	s = doc ? json_dumps(doc, JSON_COMPACT) : NULL;
	json_decref(doc);
	if (!s)
		return -ENOMEM;
	/* A cluster that did not answer the publish will not take the result:
	 * one bounded wait is enough (the CI hang was here). */
	r = g->lost ? -ETIMEDOUT : ccb_group_write_object(g->io, oid, s, strlen(s));
	free(s);
	if (r < 0) {
		ccb_group_err(g, "rados_write_full", oid, r);
		if (ccb_group_gave_up(r)) {
			fprintf(stderr,
			        "ccbench: group %s: gave up storing the result after --op-timeout "
			        "or a signal; its registration stays as it was\n",
			        g->name);
			g->lost = true;
		} else {
			ccb_group_mark_withdrawn(g, "its result could not be stored");
		}
		return r;
	}
	json_object_set_new(g->record, "state", json_string(interrupted ? "withdrawn" : "done"));
	if (interrupted)
		json_object_set_new(g->record, "reason", json_string("interrupted while running"));
	json_object_set_new(g->record, "end_realtime", json_real(end));
	json_object_set_new(g->record, "status", json_string(ccb_report_str(res, "status")));
	json_object_set_new(g->record, "result_object", json_string(oid));
	r = record_update(g);
	if (r == -ENOENT) {
		fprintf(stderr,
		        "ccbench: group %s: removed while this member ran; result not kept\n",
		        g->name);
		ccb_group_remove_object(g->io, oid);
		ccb_group_heartbeat_oid(oid, sizeof(oid), g->name);
		ccb_group_remove_object(g->io, oid);
		return r;
	}
	if (r < 0) {
		ccb_group_err(g, "rados_write_op_omap_set", g->key, r);
		return r;
	}
	g->registered = false;

	/* The skew is known once every member has published its start. */
	if (ccb_gstate_read(g->io, g->name, &st) == 0 && st.exists) {
		json_t *started = ccb_gstate_get(&st, "started"), *regs = ccb_gstate_members(&st),
		       *v;
		size_t n = json_array_size(json_object_get(started, "members")), k = 0, i;
		double *starts = calloc(n ? n : 1, sizeof(*starts));

		json_array_foreach(json_object_get(started, "members"), i, v)
		{
			const char *id = json_string_value(v);
			const json_t *at =
			    json_object_get(json_object_get(regs, id ? id : ""), "start_realtime");
			if (starts && ccb_group_valid_instant(at))
				starts[k++] = json_number_value(at);
		}
		if (starts && n && k == n)
			json_object_set_new(info, "start_skew_ms",
			                    json_real(ccb_group_skew_ms(starts, n)));
		free(starts);
		json_decref(started);
		json_decref(regs);
	}
	ccb_gstate_free(&st);
	return 0;
}
