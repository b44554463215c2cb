/*
 * A group member: clients on many hosts started together, with the
 * measured cluster itself as the coordinator (see group_store.h for the
 * objects, group_agg.c for how their results add up).
 *
 * A member's life:
 *   1. before any work, read the group: refuse (exit 2) when it already
 *      ran, is full, or wants other parameters;
 *   2. prepare and open the clients as any run does (point.c), then, in
 *      the engine's before_start hook, register: one guarded write op
 *      that only lands while "params" still holds what was checked and
 *      "started" is absent;
 *   3. watch the group object (a notify from an older ccbench, or a
 *      watch error, wakes the member) and poll it each second. Whoever
 *      sees N registrations writes "started" --
 *      a start instant CCB_GROUP_LEAD ahead and the N member ids -- in an
 *      op that also asserts every one of those registrations unchanged,
 *      so a member withdrawing at that moment cannot be started without
 *      it. The others learn it from their next poll, well within the
 *      lead (the winner sends no notify: see claim_start());
 *   4. sleep until the instant (CLOCK_REALTIME: hosts are assumed to be
 *      NTP-synchronised, and the measured skew shows it when not), return
 *      from the hook so the engine starts its clock, publish the measured
 *      start asynchronously, run;
 *   5. store the full result as its own object, then mark the
 *      registration done (group_leave.c).
 * A member that gives up (timeout, Ctrl-C before the start) removes its
 * registration with an op guarded by "started" being absent: if the start
 * was claimed meanwhile it cannot silently vanish from a started group.
 * The last one out removes the group object, so a group that never
 * started leaves nothing behind.
 */
#include <ccbench/redact.h>
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include "group_agg.h"
#include <ccbench/group_member.h>
#include "group_store.h"
#include <ccbench/path.h>
#include <ccbench/registry.h>
#include <ccbench/report.h>
#include <ccbench/result.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include "group_int.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <rados/librados.h>

/* How far ahead of the claim the common start lies: every member polls
 * every CCB_GROUP_POLL. */
#define CCB_GROUP_LEAD_NSEC 2000000000ll
#define CCB_GROUP_POLL_NSEC 1000000000ull
/* The waiter wakes at least this often to notice Ctrl-C. */
#define WAIT_TICK_NSEC 100000000ull

/* The common start is an instant on every host's CLOCK_REALTIME. */
static int64_t realtime_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static double realtime_s(void)
{
	return (double)realtime_nsec() / 1e9;
}

/* ---- a member ------------------------------------------------------------ */

static void on_notify(void *arg, uint64_t notify_id, uint64_t handle, uint64_t notifier_id,
                      void *data, size_t data_len)
{
	struct ccb_group_ctx *g = arg;

	(void)notifier_id;
	(void)data;
	(void)data_len;
	/* librados thread: acknowledge (librados only queues the message), count
	 * and wake the waiter, which reads the group itself. */
	rados_notify_ack(g->watch_io, g->name, notify_id, handle, NULL, 0);
	pthread_mutex_lock(&g->lock);
	g->notifies++;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

static void on_watch_error(void *arg, uint64_t cookie, int err)
{
	struct ccb_group_ctx *g = arg;

	(void)cookie;
	/* Notifies may have been lost: wake the waiter to poll now. */
	pthread_mutex_lock(&g->lock);
	g->watch_err = err;
	g->notifies++;
	pthread_cond_signal(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/* Refusals common to the early check and the registration. */
static int check_joinable(struct ccb_group_ctx *g, const struct ccb_gstate *st)
{
	json_t *gp = ccb_gstate_get(st, "params"), *members;
	char why[256];
	int r = 0;

	if (json_object_get(st->raw, "started")) {
		fprintf(
		    stderr,
		    "ccbench: group %s: already started (a group runs once); choose another "
		    "--group name, or look at it with `ccbench group report %s --group-pool %s` "
		    "and remove it with `ccbench group rm %s --group-pool %s`\n",
		    g->name, g->name, ccb_group_pool(g->o), g->name, ccb_group_pool(g->o));
		r = -EEXIST;
	} else if (gp && ccb_group_params_check(gp, g->params, why, sizeof(why)) < 0) {
		fprintf(
		    stderr,
		    "ccbench: group %s: parameters conflict with the group's: %s (members must "
		    "agree on command, --members, --duration or --total, and op size); refused\n",
		    g->name, why);
		r = -EINVAL;
	} else if ((members = ccb_gstate_members(st)) != NULL) {
		size_t n = json_object_size(members);
		if (!json_object_get(members, g->member) && n >= g->o->members) {
			fprintf(stderr, "ccbench: group %s: already has its %zu members; refused\n",
			        g->name, n);
			r = -EUSERS;
		}
		json_decref(members);
	}
	json_decref(gp);
	return r;
}

/* Register: one guarded op, so the params checked are the group's and the
 * group has not started when the registration lands. */
static int do_register(struct ccb_group_ctx *g)
{
	int r = -EAGAIN;

	json_object_set_new(g->record, "registered_at", json_real(realtime_s()));
	for (int attempt = 0; attempt < CCB_GROUP_MAX_ATTEMPTS; attempt++) {
		struct ccb_gstate st;
		rados_write_op_t op;
		char *rec = ccb_group_record_dump(g), *params = NULL;

		if (!rec)
			return -ENOMEM;
		r = ccb_gstate_read(g->io, g->name, &st);
		if (r < 0) {
			ccb_group_err(g, "rados_read_op_omap_get_vals2", g->name, r);
			free(rec);
			ccb_gstate_free(&st);
			return r;
		}
		op = rados_create_write_op();
		if (!st.exists) {
			/* The first member creates the group with its parameters. */
			params = json_dumps(g->params, JSON_COMPACT | JSON_SORT_KEYS);
			rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE, NULL);
			ccb_gstate_op_set(op, "params", params ? params : "{}");
		} else {
			r = check_joinable(g, &st);
			if (r < 0) {
				g->refused = true;
				rados_release_write_op(op);
				free(rec);
				ccb_gstate_free(&st);
				return r;
			}
			ccb_gstate_op_cmp(op, &st, "params");
			rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0,
			                        NULL);
		}
		ccb_gstate_op_set(op, g->key, rec);
		r = ccb_gstate_write_op(g->io, g->name, op);
		free(params);
		free(rec);
		ccb_gstate_free(&st);
		if (r == 0) {
			g->registered = true;
			return 0;
		}
		/* Created, changed or removed under us: read again. */
		if (r != -EEXIST && r != -ECANCELED && r != -ENOENT) {
			ccb_group_err(g, "rados_write_op_omap_set", g->key, r);
			return r;
		}
	}
	fprintf(stderr, "ccbench: group %s: the group kept changing; could not register\n",
	        g->name);
	return r;
}

/* The start claim is known: join it, or learn that it left this member out. */
static int adopt_start(struct ccb_group_ctx *g, const json_t *started)
{
	const json_t *members = json_object_get(started, "members"), *v;
	size_t i;

	json_array_foreach(members, i, v)
	{
		if (json_is_string(v) && strcmp(json_string_value(v), g->member) == 0) {
			double t = ccb_report_num(started, "start_realtime");
			/* A claim lies CCB_GROUP_LEAD ahead of its writer's clock;
			 * one far beyond (or no instant at all) would have this
			 * member sleep for ever: not a start, whoever wrote it. */
			if (!ccb_group_valid_instant(json_object_get(started, "start_realtime")) ||
			    t > realtime_s() + (double)CCB_GROUP_LEAD_NSEC / 1e9 +
			            CCB_GROUP_MAX_CLOCK_SKEW_S) {
				fprintf(
				    stderr,
				    "ccbench: group %s: the start claim's start_realtime is not "
				    "an instant within %.0f s from now; refused\n",
				    g->name,
				    (double)CCB_GROUP_LEAD_NSEC / 1e9 + CCB_GROUP_MAX_CLOCK_SKEW_S);
				ccb_group_mark_withdrawn(
				    g, "the start claim held no plausible instant");
				g->registered = false;
				g->refused = true;
				return 1;
			}
			g->started = true;
			g->planned_start = t;
			return 1;
		}
	}
	fprintf(stderr,
	        "ccbench: group %s: started with its %zu members before this one registered; "
	        "refused\n",
	        g->name, json_array_size(members));
	g->refused = true;
	ccb_group_remove_registration(g);
	return 1;
}

/*
 * Write the start claim when the N first registrations are all there. The
 * op asserts each of those registrations unchanged, so none can have been
 * withdrawn in between.
 *
 * @return 1 claimed (and adopted), 0 not (someone else did, or the group
 *         changed: read it again), -errno.
 */
static int claim_start(struct ccb_group_ctx *g, const struct ccb_gstate *st, const json_t *regs)
{
	json_t *ids = ccb_group_ids_in_order(regs), *chosen = json_array(), *started = NULL, *v;
	rados_write_op_t op;
	char *s = NULL;
	size_t i;
	int r = -ENOMEM;

	if (!ids || !chosen)
		goto out;
	json_array_foreach(ids, i, v)
	{
		if (i < g->o->members)
			json_array_append(chosen, v);
	}
	started = json_pack("{s:f, s:f, s:s, s:O}", "start_realtime",
	                    (double)(realtime_nsec() + CCB_GROUP_LEAD_NSEC) / 1e9, "claimed_at",
	                    realtime_s(), "by", g->member, "members", chosen);
	s = started ? json_dumps(started, JSON_COMPACT) : NULL;
	if (!s)
		goto out;
	op = rados_create_write_op();
	rados_write_op_omap_cmp(op, "started", LIBRADOS_CMPXATTR_OP_EQ, "", 0, NULL);
	json_array_foreach(chosen, i, v)
	{
		char key[192];
		snprintf(key, sizeof(key), CCB_GROUP_MEMBER_PREFIX "%s", json_string_value(v));
		ccb_gstate_op_cmp(op, st, key);
	}
	ccb_gstate_op_set(op, "started", s);
	r = ccb_gstate_write_op(g->io, g->name, op);
	if (r == -ECANCELED || r == -ENOENT) {
		r = 0;
		goto out;
	}
	if (r < 0) {
		ccb_group_err(g, "rados_write_op_omap_set", "started", r);
		goto out;
	}
	/*
	 * No notify: the others learn the claim from their next poll, each
	 * second, well within the lead. A notify woke them sooner, but went
	 * with a crash in rados_shutdown() as members exited (SIGSEGV on a
	 * librados thread: 8 of 640 members of 64 on one host; none of 640
	 * without it). The watch stays: it still wakes a member at once on a
	 * notify from an older ccbench or on a watch error.
	 */
	r = adopt_start(g, started);
out:
	free(s);
	json_decref(started);
	json_decref(chosen);
	json_decref(ids);
	return r;
}

/*
 * Look at the group: adopt a start, or claim it when complete.
 * @return 1 when the start is settled (g->started or g->refused), 0 to
 *         keep waiting, -errno.
 */
static int poll_group(struct ccb_group_ctx *g)
{
	struct ccb_gstate st;
	json_t *started, *regs;
	int r = ccb_gstate_read(g->io, g->name, &st);

	if (r < 0) {
		ccb_group_err(g, "rados_read_op_omap_get_vals2", g->name, r);
		ccb_gstate_free(&st);
		return r;
	}
	if (!st.exists || !json_object_get(st.raw, g->key)) {
		ccb_gstate_free(&st);
		fprintf(stderr,
		        "ccbench: group %s: this member's registration is gone (group rm?); "
		        "giving up\n",
		        g->name);
		g->registered = false;
		return -ENOENT;
	}
	started = ccb_gstate_get(&st, "started");
	regs = ccb_gstate_members(&st);
	if (started) {
		r = adopt_start(g, started);
	} else if (regs && json_object_size(regs) >= g->o->members) {
		r = claim_start(g, &st, regs);
	} else {
		size_t n = json_object_size(regs);
		if (n != g->members_seen && !g->o->quiet) {
			char t[32];
			ccb_format_duration(g->o->group_timeout_usec, t, sizeof(t));
			fprintf(stderr,
			        "ccbench: group %s: %zu of %llu members, waiting (--group-timeout "
			        "%s)\n",
			        g->name, n, (unsigned long long)g->o->members, t);
		}
		g->members_seen = n;
		r = 0;
	}
	json_decref(started);
	json_decref(regs);
	ccb_gstate_free(&st);
	return r;
}

/*
 * --group-timeout counts from the member's launch, its preparation
 * included: that is the wait the user sees, and it bounds the whole
 * command. The group is still looked at once after registering.
 *
 * @return 0 when this member is in the started group, -errno otherwise
 * (message printed, registration withdrawn).
 */
static int wait_for_start(struct ccb_group_ctx *g)
{
	uint64_t deadline = g->launch_nsec + g->o->group_timeout_usec * 1000ull, next_poll = 0;
	unsigned seen = 0;

	for (;;) {
		uint64_t now = ccb_now_nsec(), wake;
		bool poke;
		int r;

		if (ccb_signal_pending) {
			ccb_group_withdraw(g, "interrupted before the start");
			fprintf(stderr, "ccbench: group %s: interrupted while waiting; withdrew\n",
			        g->name);
			return -EINTR;
		}
		pthread_mutex_lock(&g->lock);
		poke = g->notifies != seen;
		seen = g->notifies;
		pthread_mutex_unlock(&g->lock);
		if (poke || now >= next_poll) {
			r = poll_group(g);
			if (r == 1)
				return g->refused ? -EPERM : 0;
			if (r == -ENOENT)
				return r;
			next_poll = ccb_now_nsec() + CCB_GROUP_POLL_NSEC;
		}
		if (now >= deadline) {
			char t[32];
			r = ccb_group_withdraw_unstarted(g);
			if (r == 1) {
				/* Claimed at the last moment: it may include us. */
				if (poll_group(g) == 1)
					return g->refused ? -EPERM : 0;
			}
			ccb_format_duration(g->o->group_timeout_usec, t, sizeof(t));
			fprintf(
			    stderr,
			    "ccbench: group %s: timed out: %zu of %llu members registered within "
			    "--group-timeout %s (pool %s namespace %s); gave up%s, no member "
			    "starts alone\n",
			    g->name, g->members_seen, (unsigned long long)g->o->members, t,
			    ccb_group_pool(g->o), CCB_GROUP_NAMESPACE,
			    r == 0 ? " and withdrew" : " (its registration could not be removed)");
			g->timed_out = true;
			return -ETIMEDOUT;
		}
		wake = now + WAIT_TICK_NSEC;
		if (next_poll < wake)
			wake = next_poll;
		if (deadline < wake)
			wake = deadline;
		pthread_mutex_lock(&g->lock);
		if (g->notifies == seen && wake > now) {
			struct timespec ts = {(time_t)(wake / 1000000000ull),
			                      (long)(wake % 1000000000ull)};
			pthread_cond_timedwait(&g->cond, &g->lock, &ts);
		}
		pthread_mutex_unlock(&g->lock);
	}
}

static void publish_start(struct ccb_group_ctx *g)
{
	rados_write_op_t op;
	char *s;

	json_object_set_new(g->record, "state", json_string("running"));
	json_object_set_new(g->record, "planned_start_realtime", json_real(g->planned_start));
	json_object_set_new(g->record, "start_realtime", json_real(g->measured_start));
	s = ccb_group_record_dump(g);
	if (!s || rados_aio_create_completion2(NULL, NULL, &g->publish_comp) < 0) {
		g->publish_comp = NULL;
		free(s);
		return;
	}
	/* Asynchronous: the clock is running, this must not delay the clients. */
	op = rados_create_write_op();
	rados_write_op_assert_exists(op);
	ccb_gstate_op_set(op, g->key, s);
	if (rados_aio_write_op_operate(op, g->io, g->publish_comp, g->name, NULL, 0) < 0) {
		rados_aio_release(g->publish_comp);
		g->publish_comp = NULL;
	}
	rados_release_write_op(op);
	free(s);
}

/* The engine's before_start hook: the common start. */
static int group_barrier(struct ccb_run *run, void *arg)
{
	struct ccb_group_ctx *g = arg;
	int r = ccb_undo_push("withdraw from the group", ccb_group_undo_registration, g, NULL);

	if (r < 0)
		return r;
	r = do_register(g);
	if (r < 0)
		return -ECANCELED;
	/* Failing to watch only costs latency: the poll still sees the start. */
	r = rados_watch3(g->watch_io, g->name, &g->watch_cookie, on_notify, on_watch_error,
	                 (uint32_t)((g->o->op_timeout_usec + 999999) / 1000000), g);
	if (r < 0)
		ccb_group_err(g, "rados_watch3", g->name, r);
	g->watching = r == 0;
	r = wait_for_start(g);
	if (r < 0)
		return -ECANCELED;

	/* Coarse sleeps while Ctrl-C must be noticed, then one absolute sleep. */
	for (;;) {
		int64_t left = (int64_t)(g->planned_start * 1e9) - realtime_nsec();
		struct timespec ts;

		if (ccb_signal_pending) {
			ccb_group_withdraw(g, "interrupted before the start");
			fprintf(stderr,
			        "ccbench: group %s: interrupted before the start; withdrew\n",
			        g->name);
			return -ECANCELED;
		}
		if (left <= 0)
			break;
		if (left > (int64_t)WAIT_TICK_NSEC) {
			ts.tv_sec = 0;
			ts.tv_nsec = (long)WAIT_TICK_NSEC / 2;
			nanosleep(&ts, NULL);
			continue;
		}
		ts.tv_sec = (time_t)floor(g->planned_start);
		ts.tv_nsec = (long)((g->planned_start - floor(g->planned_start)) * 1e9);
		clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &ts, NULL);
	}
	g->measured_start = realtime_s();
	if (g->measured_start - g->planned_start > 0.05)
		ccb_run_warn(run,
		             "group %s: started %.0f ms after the common instant (the start "
		             "reached this member late)",
		             g->name, (g->measured_start - g->planned_start) * 1000.0);
	publish_start(g);
	return 0;
}

static void member_id(struct ccb_group_ctx *g)
{
	unsigned char rnd[2] = {0, 0};
	char *p;

	gethostname(g->host, sizeof(g->host) - 1);
	if (!g->host[0])
		snprintf(g->host, sizeof(g->host), "host");
	/* The host name goes into object names: keep it to safe characters. */
	for (p = g->host; *p; p++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", *p))
			*p = '-';
	g->host[40] = '\0';
	/* Containers on different hosts may share host name and pid. */
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		uint64_t x = (uint64_t)realtime_nsec();
		rnd[0] = (unsigned char)x;
		rnd[1] = (unsigned char)(x >> 8);
	}
	snprintf(g->member, sizeof(g->member), "%s.%d.%02x%02x", g->host, (int)getpid(), rnd[0],
	         rnd[1]);
	snprintf(g->key, sizeof(g->key), CCB_GROUP_MEMBER_PREFIX "%s", g->member);
}

int ccb_group_run(const struct ccb_point *pt, json_t **result)
{
	struct ccb_group_ctx g;
	struct ccb_point mine = *pt;
	const struct ccb_path_ops *ops;
	pthread_condattr_t ca;
	struct ccb_gstate st;
	json_t *args;
	bool bad_input;
	int r, status;

	*result = NULL;
	memset(&g, 0, sizeof(g));
	g.launch_nsec = ccb_now_nsec();
	g.o = pt->opts;
	g.pt = pt;
	g.name = pt->opts->group;
	member_id(&g);
	ops = pt->ops ? pt->ops : ccb_path_find(pt->path ? pt->path : "", pt->mode);
	g.params = ops ? ccb_group_params(g.o, pt->command, ops) : NULL;
	/* The registration is readable by every client of the cluster: no key material. */
	args = ccb_redact_argv(pt->argc, pt->argv);
	g.record = json_pack("{s:s, s:s, s:i, s:s, s:O, s:o, s:s}", "member", g.member, "host",
	                     g.host, "pid", (int)getpid(), "command", pt->command, "params",
	                     g.params, "argv", args ? args : json_array(), "state", "registered");
	if (!g.params || !g.record) {
		json_decref(g.params);
		json_decref(g.record);
		return 1;
	}
	pthread_mutex_init(&g.lock, NULL);
	/* The waiter's deadlines are monotonic; so is its condition variable. */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&g.cond, &ca);
	pthread_condattr_destroy(&ca);

	r = ccb_group_connect(g.o, &g.cluster, &g.io, &bad_input);
	if (r < 0) {
		status = bad_input ? 2 : 1;
		goto out_sync;
	}
	r = rados_ioctx_create(g.cluster, ccb_group_pool(g.o), &g.watch_io);
	if (r < 0) {
		ccb_group_err(&g, "rados_ioctx_create", ccb_group_pool(g.o), r);
		status = 1;
		goto out_io;
	}
	rados_ioctx_set_namespace(g.watch_io, CCB_GROUP_NAMESPACE);

	/* Refuse before any work (image prefill, objects) when joining cannot work. */
	r = ccb_gstate_read(g.io, g.name, &st);
	if (r < 0) {
		ccb_group_err(&g, "rados_read_op_omap_get_vals2", g.name, r);
		ccb_gstate_free(&st);
		status = 1;
		goto out_watch_io;
	}
	r = st.exists ? check_joinable(&g, &st) : 0;
	ccb_gstate_free(&st);
	if (r < 0) {
		status = 2;
		goto out_watch_io;
	}
	/* The client's address as the cluster sees it: members on many hosts
	 * (or network namespaces) are told apart by it in the report. Read
	 * after the first op: the messenger learns it from its first
	 * connections. */
	{
		char *addrs = NULL;

		if (rados_getaddrs(g.cluster, &addrs) == 0 && addrs)
			json_object_set_new(g.record, "addr", json_string(addrs));
		rados_buffer_free(addrs);
	}

	mine.before_start = group_barrier;
	mine.before_start_arg = &g;
	mine.on_tick = ccb_group_beat_tick;
	mine.on_tick_arg = &g;
	mine.after_run = ccb_group_beat_after_run;
	mine.after_run_arg = &g;
	status = ccb_point_run(&mine, result);
	if (g.refused)
		status = 2;
	if (g.started) {
		r = ccb_group_finish(&g, *result);
		if (r < 0 && status == 0)
			status = 1;
	}

	if (g.watching && !g.lost) {
		rados_completion_t c;

		r = rados_aio_create_completion2(NULL, NULL, &c);
		if (r == 0) {
			r = rados_aio_unwatch(g.watch_io, g.watch_cookie, c);
			r = r < 0 ? (rados_aio_release(c), r) : ccb_group_aio_wait(g.watch_io, c);
		}
		if (r < 0 && r != -ENOENT && r != -ENOTCONN)
			ccb_group_err(&g, "rados_unwatch2", g.name, r);
	}
	/* No callback may run once the context is gone. */
	rados_watch_flush(g.cluster);
out_watch_io:
	rados_ioctx_destroy(g.watch_io);
out_io:
	rados_ioctx_destroy(g.io);
	rados_shutdown(g.cluster);
out_sync:
	pthread_cond_destroy(&g.cond);
	pthread_mutex_destroy(&g.lock);
	json_decref(g.params);
	json_decref(g.record);
	return status;
}
