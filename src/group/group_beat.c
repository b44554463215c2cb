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
#include "group_agg.h"
#include "group_store.h"

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

/* The silence up to @p now (monotonic), kept if the longest; @p acked: a
 * beat was taken at @p now, the silence ends there. */
static void silence(struct ccb_group_ctx *g, uint64_t now, bool acked)
{
	uint64_t gap = now > g->last_ack_nsec ? now - g->last_ack_nsec : 0;

	if (gap > g->silent_max_nsec) {
		g->silent_max_nsec = gap;
		g->silent_from = realtime_s() - (double)gap / 1e9;
	}
	if (acked)
		g->last_ack_nsec = now;
}

void ccb_group_beat_tick(struct ccb_run *run, void *arg)
{
	struct ccb_group_ctx *g = arg;
	uint64_t now = ccb_now_nsec();
	struct ccb_run_totals t;
	rados_write_op_t op;
	char oid[256], *s;
	json_t *rec;

	if (g->lost || !g->started)
		return;
	if (!g->last_ack_nsec)
		g->last_ack_nsec = now;
	if (g->beat_comp && rados_aio_is_complete(g->beat_comp)) {
		silence(g, now, rados_aio_get_return_value(g->beat_comp) == 0);
		rados_aio_release(g->beat_comp);
		g->beat_comp = NULL;
	}
	/* The cluster has not answered the last one: no second op. */
	if (g->beat_comp || now < g->next_beat_nsec)
		return;
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

	if (!g->beat_comp)
		return 0;
	r = ccb_group_aio_wait(g->io, g->beat_comp);
	g->beat_comp = NULL;
	/* A beat still in flight at the end: the silence lasted until its
	 * answer (or the bounded wait's end). With none in flight the last
	 * one was answered, and the time since is the run's end, not silence.
	 * Called as the clients stop (ccb_group_beat_after_run): called after
	 * the run's cleanup, seconds of deletes counted as silence, and 6 of
	 * 16 members stored results marked partial (CI of 2026-12-04). */
	if (g->last_ack_nsec)
		silence(g, ccb_now_nsec(), r == 0);
	return r;
}

void ccb_group_beat_after_run(struct ccb_run *run, void *arg)
{
	struct ccb_group_ctx *g = arg;

	(void)run;
	g->beat_end_r = ccb_group_beat_end(g);
}

json_t *ccb_group_beat_partial(const struct ccb_group_ctx *g)
{
	double s = (double)g->silent_max_nsec / 1e9;

	if (s <= CCB_GROUP_LOST_AFTER_S)
		return NULL;
	return json_pack("{s:f, s:o, s:f, s:s}", "silent_s", s, "silent_from_realtime_us",
	                 ccb_group_json_us(g->silent_from), "lost_after_s", CCB_GROUP_LOST_AFTER_S,
	                 "why",
	                 "the cluster took no heartbeat for longer than the report waits "
	                 "(a link cut, a cluster that stalled): the report counted this member "
	                 "lost, and its figures are not the group's window");
}
