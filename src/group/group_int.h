/*
 * Private to src/group: a member's context, shared by its life
 * (group_member.c) and its way out (group_leave.c).
 */
#ifndef CCBENCH_GROUP_INT_H
#define CCBENCH_GROUP_INT_H

#include <ccbench/engine.h>
#include <ccbench/options.h>
#include <ccbench/point.h>

#include <jansson.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rados/librados.h>

struct ccb_group_ctx {
	const struct ccb_opts *o;
	const struct ccb_point *pt;
	const char *name; /* also the group object's name */
	char member[128];
	char key[160]; /* CCB_GROUP_MEMBER_PREFIX + member */
	char host[64];
	json_t *params; /* this member's */
	json_t *record; /* this member's registration */
	rados_t cluster;
	rados_ioctx_t io;       /* main thread only: state ops */
	rados_ioctx_t watch_io; /* watch, notify and acks (librados threads) */
	uint64_t watch_cookie;
	bool watching;
	rados_completion_t publish_comp;

	/* Written by librados threads in the watch callbacks, under lock. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned notifies;
	int watch_err;

	bool registered, started, refused, timed_out;
	bool lost;            /* an op was given up (cluster gone, signal): skip the rest */
	uint64_t launch_nsec; /* monotonic: --group-timeout counts from here */
	double planned_start, measured_start; /* realtime seconds */
	size_t members_seen;

	/* The heartbeat (group_beat.c), main thread only. */
	rados_completion_t beat_comp; /* the beat in flight, or NULL */
	uint64_t next_beat_nsec;      /* monotonic */
	uint64_t beats;
	int beat_end_r; /* the last beat's wait at the run's end (0 none) */
	/* The longest time the cluster took no beat, and from when: past
	 * CCB_GROUP_LOST_AFTER_S the report counted this member lost (a link
	 * cut, a stalled cluster), so its result is stored marked partial. */
	uint64_t last_ack_nsec;   /* monotonic: the last beat acked (or the start) */
	uint64_t silent_max_nsec; /* the longest gap between acks */
	double silent_from;       /* realtime seconds: its start */
};

/* How often a running member beats: at most once a second. */
#define CCB_GROUP_BEAT_NSEC 1000000000ull

/* "ccbench: group NAME: CALL(WHAT, pool P namespace N): reason" on stderr. */
void ccb_group_err(const struct ccb_group_ctx *g, const char *call, const char *what, int r);
/* The registration record as stored (malloc'd). */
char *ccb_group_record_dump(struct ccb_group_ctx *g);
/* Remove the registration unless the group started: 0 withdrawn, 1 started, -errno. */
int ccb_group_withdraw_unstarted(struct ccb_group_ctx *g);
/* Mark the registration withdrawn, giving @p reason. @return 0 or -errno. */
int ccb_group_mark_withdrawn(struct ccb_group_ctx *g, const char *reason);
/* Drop the registration whatever the group's state. */
void ccb_group_remove_registration(struct ccb_group_ctx *g);
/* Withdraw however far the member got. */
void ccb_group_withdraw(struct ccb_group_ctx *g, const char *reason);
/* The undo log's entry for the registration. */
int ccb_group_undo_registration(void *arg);
/* The engine's tick while the member runs: a heartbeat when one is due
 * and none is in flight. Never blocks. */
void ccb_group_beat_tick(struct ccb_run *run, void *arg);
/* Wait (bounded) for the beat in flight. @return its value, -ETIMEDOUT,
 * -EINTR; 0 with none in flight. */
int ccb_group_beat_end(struct ccb_group_ctx *g);
/* The point's after_run: the beat in flight is waited for as soon as the
 * clients stop, not after the run's cleanup; its value kept in
 * beat_end_r. */
void ccb_group_beat_after_run(struct ccb_run *run, void *arg);
/* The result's "partial" record when the cluster took no beat for longer
 * than the report waits (CCB_GROUP_LOST_AFTER_S), else NULL (new reference). */
json_t *ccb_group_beat_partial(const struct ccb_group_ctx *g);
/* After the run: store the result, mark the registration, learn the skew. */
int ccb_group_finish(struct ccb_group_ctx *g, json_t *res);

#endif
