/*
 * A member's heartbeat while it runs: its bytes and ops so far, at most
 * once a second, into the omap of the group's heartbeat object (see
 * group_store.h), so that `group report` can tell a member still running
 * from one that was killed or cut off, and say how far it got.
 *
 * It runs on the engine's supervisor tick (the main thread), so it must
 * not block: each beat is an aio op, and a beat still in flight when the
 * next one is due is not joined by another. At most one op per member is
 * ever outstanding, whatever the cluster does; the last one is waited for
 * (bounded by --op-timeout) before the result is stored.
 */
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include <ccbench/group_store.h>

#include "group_int.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double realtime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ccb_group_beat_tick(struct ccb_run *run, void *arg)
{
	struct ccb_group_ctx *g = arg;
	uint64_t now = ccb_now_nsec();
	struct ccb_run_totals t;
	rados_write_op_t op;
	char oid[256], *s;
	json_t *rec;

	if (g->lost || !g->started || now < g->next_beat_nsec)
		return;
	if (g->beat_comp) {
		/* The cluster has not answered the last one: no second op. */
		if (!rados_aio_is_complete(g->beat_comp))
			return;
		rados_aio_release(g->beat_comp);
		g->beat_comp = NULL;
	}
	g->next_beat_nsec = now + CCB_GROUP_BEAT_NSEC;
	ccb_run_totals(run, &t);
	rec = json_pack("{s:f, s:I, s:I, s:f, s:I}", "at", realtime_s(), "bytes",
	                (json_int_t)t.bytes, "ops", (json_int_t)t.ops, "seconds",
	                (double)(now - run->start_nsec) / 1e9, "beat", (json_int_t)++g->beats);
	s = rec ? json_dumps(rec, JSON_COMPACT) : NULL;
	json_decref(rec);
	if (!s || rados_aio_create_completion2(NULL, NULL, &g->beat_comp) < 0) {
		g->beat_comp = NULL;
		free(s);
		return;
	}
	ccb_group_heartbeat_oid(oid, sizeof(oid), g->name);
	op = rados_create_write_op();
	ccb_gstate_op_set(op, g->member, s);
	/* The op is copied when submitted. */
	if (rados_aio_write_op_operate(op, g->io, g->beat_comp, oid, NULL, 0) < 0) {
		rados_aio_release(g->beat_comp);
		g->beat_comp = NULL;
	}
	rados_release_write_op(op);
	free(s);
}

int ccb_group_beat_end(struct ccb_group_ctx *g)
{
	int r = 0;

	if (g->beat_comp)
		r = ccb_group_aio_wait(g->io, g->beat_comp);
	g->beat_comp = NULL;
	return r;
}
