/*
 * A fault schedule at work in one point: set up before the path prepares
 * anything (a connection of its own, the OSD ids checked against the map,
 * the settings explain names), then a thread of its own while the clients
 * run (struct ccb_run_watch), which every second asks the mon for the
 * cluster's state (one `status`, and `osd dump` when the map changed),
 * records what changed as events, fires each fault when it is due, and
 * ends a wait for a clean cluster at --recovery-timeout. A thread, so
 * that a slow mon never holds the progress line, the signals or a group's
 * heartbeat on the main thread. After the run, the phases (fault_phases.c)
 * go into the result.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/undo.h>

#include "fault_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Samples a run keeps at most (a day of them). */
#define MAX_SAMPLES 86400
/* A map change with no PG ever unclean after it counts as the fault's
 * effect once it held this long (production's PG stats may lag by
 * mgr_stats_period, 5 s by default). */
#define QUIET_MAP_S 5.0

/* What explain names, read from an OSD's running configuration. */
static const char *const setting_keys[] = {
    "osd_heartbeat_grace",
    "osd_heartbeat_interval",
    "osd_fast_fail_on_connection_refused",
    "mon_osd_down_out_interval",
    "mon_osd_min_down_reporters",
    "mon_osd_adjust_heartbeat_grace",
    "osd_op_queue",
    "osd_mclock_profile",
    "osd_recovery_sleep_hdd",
    "osd_recovery_sleep_ssd",
    "osd_max_backfills",
    "osd_recovery_max_active",
    "osd_recovery_max_active_hdd",
    "osd_recovery_max_active_ssd",
};

/* ---- the map: OSDs up and in, flags ---------------------------------------------- */

/* {"osd.N": {"up": 0|1, "in": 0|1, "up_from": EPOCH}, ..., "flags": "..."}
 * of an osd dump. up_from tells a down and up again between two samples
 * (osd-down contested within the second) from no change. */
static json_t *digest(const json_t *dump)
{
	json_t *d = json_object(), *o;
	size_t i;
	char name[24];

	json_array_foreach(json_object_get(dump, "osds"), i, o)
	{
		snprintf(name, sizeof(name), "osd.%lld",
		         (long long)json_integer_value(json_object_get(o, "osd")));
		json_object_set_new(
		    d, name,
		    json_pack("{s:I, s:I, s:I}", "up", json_integer_value(json_object_get(o, "up")),
		              "in", json_integer_value(json_object_get(o, "in")), "up_from",
		              json_integer_value(json_object_get(o, "up_from"))));
	}
	json_object_set(d, "flags",
	                json_object_get(dump, "flags") ? json_object_get(dump, "flags")
	                                               : json_string(""));
	return d;
}

static void diff_map(struct ccb_fault_point *fp, json_t *now, double t)
{
	const char *key, *f0 = json_string_value(json_object_get(fp->osds_prev, "flags"));
	const char *f1 = json_string_value(json_object_get(now, "flags"));
	json_t *v;

	json_object_foreach(now, key, v)
	{
		const json_t *was = json_object_get(fp->osds_prev, key);
		json_int_t up = json_integer_value(json_object_get(v, "up"));
		json_int_t in = json_integer_value(json_object_get(v, "in"));

		if (!json_is_object(v) || !json_is_object(was))
			continue;
		json_int_t from = json_integer_value(json_object_get(v, "up_from"));

		if (up != json_integer_value(json_object_get(was, "up"))) {
			ccb_fault_event(fp, t, up ? "osd-up" : "osd-down", -1, "%s %s", key,
			                up ? "up" : "marked down");
		} else if (up && from != json_integer_value(json_object_get(was, "up_from"))) {
			ccb_fault_event(fp, t, "osd-down", -1, "%s marked down", key);
			ccb_fault_event(fp, t, "osd-up", -1,
			                "%s up again (from epoch %lld: down and up between two "
			                "samples)",
			                key, (long long)from);
		}
		if (in != json_integer_value(json_object_get(was, "in")))
			ccb_fault_event(fp, t, in ? "osd-in" : "osd-out", -1, "%s marked %s", key,
			                in ? "in" : "out");
	}
	for (const char *const *fl =
	         (const char *const[]){"noout", "noin", "noup", "nodown", "norecover", "nobackfill",
	                               "norebalance", "noscrub", "nodeep-scrub", "pauserd",
	                               "pausewr", NULL};
	     *fl; fl++) {
		bool a = ccb_cluster_has_flag(f0, *fl), b = ccb_cluster_has_flag(f1, *fl);

		if (a != b)
			ccb_fault_event(fp, t, "flag", -1, "flag %s %s", *fl, b ? "set" : "unset");
	}
	json_decref(fp->osds_prev);
	fp->osds_prev = now;
}

/* ---- sampling ------------------------------------------------------------------------ */

static void pg_events(struct ccb_fault_point *fp, const struct ccb_fault_sample *s, bool first)
{
	bool clean = ccb_fault_sample_clean(s), moving = ccb_fault_sample_moving(s);

	if (first) {
		if (!clean)
			ccb_fault_event(fp, s->t_s, "pgs", -1,
			                "PGs not active+clean at the start: %s", s->states);
	} else {
		if (fp->was_clean && !clean)
			ccb_fault_event(fp, s->t_s, "pgs", -1, "PGs not active+clean: %s",
			                s->states);
		if (!fp->was_clean && clean)
			ccb_fault_event(fp, s->t_s, "pgs", -1, "every PG active+clean");
		if (!fp->was_moving && moving)
			ccb_fault_event(fp, s->t_s, "recovery", -1,
			                "recovery began: %u PGs recovering, %u backfilling",
			                s->recovering, s->backfilling);
		if (fp->was_moving && !moving)
			ccb_fault_event(fp, s->t_s, "recovery", -1,
			                "no PG recovers or backfills now");
	}
	fp->was_clean = clean;
	fp->was_moving = moving;
}

/* What WHEN clean waits for, from this sample on. */
static void track_clean(struct ccb_fault_point *fp, const struct ccb_fault_sample *s,
                        uint32_t last_epoch)
{
	bool fired = fp->prev_s >= 0, met;

	if (fired && !ccb_fault_sample_clean(s))
		fp->seen_unclean = true;
	if (fired && s->epoch != last_epoch && s->epoch != fp->prev_epoch)
		fp->epoch_changed_s = s->t_s;
	met = ccb_fault_sample_clean(s) && !ccb_fault_running(fp) &&
	      (!fired || fp->seen_unclean ||
	       (fp->epoch_changed_s >= 0 && s->t_s - fp->epoch_changed_s >= QUIET_MAP_S));
	if (!met)
		fp->clean_met_s = -1;
	else if (fp->clean_met_s < 0)
		fp->clean_met_s = s->t_s;
}

static void take_sample(struct ccb_fault_point *fp, double t)
{
	struct ccb_fault_sample s = {.t_s = t};
	uint32_t last_epoch = fp->n_samples ? fp->samples[fp->n_samples - 1].epoch : 0;
	bool first = fp->n_samples == 0;
	char err[512];
	json_t *st = NULL, *dump;
	int r;

	r = ccb_fault_mon(fp->cl, json_pack("{s:s, s:s}", "prefix", "status", "format", "json"),
	                  &st, err, sizeof(err));
	if (r < 0 || !ccb_fault_parse_status(st, &s)) {
		s.ok = false;
		s.t_s = t;
		if (!fp->mon_silent)
			ccb_fault_event(fp, t, "mon", -1, "no answer from the mon: %s",
			                r < 0 ? err : "status: not the reply expected");
		fp->mon_silent = true;
	} else {
		if (fp->mon_silent)
			ccb_fault_event(fp, t, "mon", -1, "the mon answers again");
		fp->mon_silent = false;
		if (s.epoch != last_epoch) {
			dump = NULL;
			if (ccb_fault_mon(
			        fp->cl,
			        json_pack("{s:s, s:s}", "prefix", "osd dump", "format", "json"),
			        &dump, err, sizeof(err)) == 0)
				diff_map(fp, digest(dump), t);
			json_decref(dump);
		}
		pg_events(fp, &s, first);
		track_clean(fp, &s, last_epoch);
	}
	json_decref(st);
	if (fp->n_samples == fp->cap_samples && fp->cap_samples < MAX_SAMPLES) {
		size_t cap = fp->cap_samples ? fp->cap_samples * 2 : 128;
		struct ccb_fault_sample *n = realloc(fp->samples, cap * sizeof(*n));

		if (n) {
			fp->samples = n;
			fp->cap_samples = cap;
		}
	}
	if (fp->n_samples < fp->cap_samples)
		fp->samples[fp->n_samples++] = s;
}

/* ---- the schedule ------------------------------------------------------------------------ */

static const char *latest_state(const struct ccb_fault_point *fp, char *buf, size_t len)
{
	const struct ccb_fault_sample *s = fp->n_samples ? &fp->samples[fp->n_samples - 1] : NULL;

	if (!s || !s->ok)
		snprintf(buf, len, "the mon did not say");
	else
		snprintf(buf, len, "%u of %u PGs active+clean (%s), %u of %u OSDs up, %u in",
		         s->clean, s->pgs, s->states[0] ? s->states : "-", s->up, s->osds, s->in);
	return buf;
}

static void fire_due(struct ccb_fault_point *fp, double t)
{
	struct ccb_run *run = fp->run;

	while (fp->next < fp->sched.n && atomic_load(&run->stop) == CCB_STOP_NONE) {
		const struct ccb_fault *f = &fp->sched.f[fp->next];
		double at = (double)f->at_usec / 1e6;

		if (f->when == CCB_FAULT_UNWIND) {
			fp->next++;
			continue;
		}
		if (f->when == CCB_FAULT_AT && t < at)
			return;
		if (f->when == CCB_FAULT_CLEAN &&
		    (fp->clean_met_s < 0 || t - fp->clean_met_s < at)) {
			double since = fp->prev_s >= 0 ? fp->prev_s : 0;
			char state[300];

			if (fp->clean_met_s < 0 &&
			    t - since > (double)fp->opts->recovery_timeout_usec / 1e6) {
				latest_state(fp, state, sizeof(state));
				ccb_fault_event(fp, t, "timeout", (int)fp->next,
				                "not clean %.0f s after the fault before: %s",
				                t - since, state);
				ccb_run_stop(
				    run, CCB_STOP_ERROR, -ETIMEDOUT,
				    "--fault %s: the cluster was not clean %.0f s after the fault "
				    "before (--recovery-timeout): %s",
				    f->text, t - since, state);
			}
			return;
		}
		ccb_fault_fire(fp, fp->next, t);
		if (f->kind != CCB_FAULT_END) {
			fp->prev_s = t;
			fp->prev_epoch = fp->n_samples ? fp->samples[fp->n_samples - 1].epoch : 0;
			fp->seen_unclean = false;
			fp->epoch_changed_s = -1;
			fp->clean_met_s = -1;
		}
		fp->next++;
	}
}

static void *watch_main(void *arg)
{
	struct ccb_fault_point *fp = arg;
	struct ccb_run *run = fp->run;
	uint64_t next_sample = run->start_nsec;

	pthread_mutex_lock(&fp->lock);
	while (!fp->done) {
		uint64_t now, until;
		double t;
		struct timespec ts;

		pthread_mutex_unlock(&fp->lock);
		now = ccb_now_nsec();
		t = (double)(now - run->start_nsec) / 1e9;
		if (now >= next_sample) {
			take_sample(fp, t);
			next_sample = now + 1000000000ull;
			now = ccb_now_nsec();
			t = (double)(now - run->start_nsec) / 1e9;
		}
		ccb_fault_reap(fp, t, false);
		fire_due(fp, t);
		pthread_mutex_lock(&fp->lock);
		if (fp->done)
			break;
		until = now + 100000000ull < next_sample ? now + 100000000ull : next_sample;
		ts.tv_sec = (time_t)(until / 1000000000ull);
		ts.tv_nsec = (long)(until % 1000000000ull);
		pthread_cond_timedwait(&fp->cond, &fp->lock, &ts);
	}
	pthread_mutex_unlock(&fp->lock);
	return NULL;
}

static int watch_start(struct ccb_run *run, void *arg)
{
	struct ccb_fault_point *fp = arg;
	pthread_condattr_t ca;
	int r;

	fp->run = run;
	fp->prev_s = -1;
	fp->epoch_changed_s = -1;
	fp->clean_met_s = -1;
	pthread_mutex_init(&fp->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&fp->cond, &ca);
	pthread_condattr_destroy(&ca);
	r = pthread_create(&fp->thread, NULL, watch_main, fp);
	if (r) {
		ccb_run_stop(run, CCB_STOP_ERROR, -r, "--fault: pthread_create: %s", strerror(r));
		return -r;
	}
	pthread_setname_np(fp->thread, "ccb-fault");
	fp->started = true;
	return 0;
}

/* An exec: with no undo: that ran: the OSDs up at the start and down now. */
static void name_left(struct ccb_fault_point *fp)
{
	char err[512], down[256] = "";
	json_t *dump = NULL, *v;
	size_t i, used = 0;

	ccb_fault_mon(fp->cl, json_pack("{s:s, s:s}", "prefix", "osd dump", "format", "json"),
	              &dump, err, sizeof(err));
	json_t *now = dump ? digest(dump) : NULL;
	json_array_foreach(fp->up_start, i, v)
	{
		const json_t *o = json_object_get(now, json_string_value(v));

		if (o && !json_integer_value(json_object_get(o, "up")) && used < sizeof(down) - 16)
			used += (size_t)snprintf(down + used, sizeof(down) - used, "%s%s",
			                         used ? ", " : "", json_string_value(v));
	}
	for (i = 0; i < fp->sched.n; i++) {
		const struct ccb_fault *f = &fp->sched.f[i];
		char t[1200];

		if (f->kind != CCB_FAULT_EXEC || f->pair >= 0 || !fp->st[i].fired || !fp->st[i].pid)
			continue;
		if (!dump)
			snprintf(t, sizeof(t),
			         "'%s' had no undo: (whether it left a daemon stopped is "
			         "unknown: %s)",
			         f->text, err);
		else if (down[0])
			snprintf(t, sizeof(t),
			         "%s down at the end, up at the start: '%s' had no undo:, "
			         "so it is left stopped",
			         down, f->text);
		else
			snprintf(t, sizeof(t),
			         "'%s' had no undo: (no OSD up at the start is down "
			         "at the end)",
			         f->text);
		json_array_append_new(fp->left, json_string(t));
	}
	json_decref(now);
	json_decref(dump);
}

static void watch_stop(struct ccb_run *run, void *arg)
{
	struct ccb_fault_point *fp = arg;
	double t;

	if (!fp->started)
		return;
	pthread_mutex_lock(&fp->lock);
	fp->done = true;
	pthread_cond_signal(&fp->cond);
	pthread_mutex_unlock(&fp->lock);
	pthread_join(fp->thread, NULL);
	fp->started = false;
	fp->ended = true;
	pthread_cond_destroy(&fp->cond);
	pthread_mutex_destroy(&fp->lock);
	/* A command still running (an OSD restarting) is waited for, within
	 * its bound: stopping it half way could leave worse than either end. */
	for (;;) {
		t = (double)(ccb_now_nsec() - run->start_nsec) / 1e9;
		ccb_fault_reap(fp, t, false);
		if (!ccb_fault_running(fp))
			break;
		usleep(100000);
	}
	take_sample(fp, t);
	name_left(fp);
}

static const struct ccb_run_watch watch_ops = {.start = watch_start, .stop = watch_stop};

/* ---- before the run -------------------------------------------------------------------- */

static json_t *read_settings(rados_t cl, const json_t *dump)
{
	json_t *cfg = NULL, *vals = json_object(), *o;
	int osd = -1, err = 0;
	size_t i;
	char src[32];

	json_array_foreach(json_object_get(dump, "osds"), i, o)
	{
		if (json_integer_value(json_object_get(o, "up")) == 1) {
			osd = (int)json_integer_value(json_object_get(o, "osd"));
			break;
		}
	}
	if (osd < 0)
		return json_pack("{s:s, s:o}", "error", "no OSD up to ask", "values", vals);
	cfg = ccb_cluster_osd_json(cl, osd, "{\"prefix\": \"config show\", \"format\": \"json\"}",
	                           &err);
	snprintf(src, sizeof(src), "osd.%d", osd);
	for (i = 0; i < sizeof(setting_keys) / sizeof(setting_keys[0]); i++) {
		const json_t *v = json_object_get(cfg, setting_keys[i]);

		if (json_is_string(v))
			json_object_set(vals, setting_keys[i], (json_t *)v);
	}
	json_decref(cfg);
	if (!json_object_size(vals))
		return json_pack("{s:s, s:s, s:o}", "source", src, "error",
		                 err ? strerror(-err) : "config show: no values", "values", vals);
	return json_pack("{s:s, s:o}", "source", src, "values", vals);
}

/* Every OSD the schedule names is in the map: bad input otherwise. */
static int check_osds(struct ccb_fault_point *fp, const json_t *dump, char *err, size_t len)
{
	for (size_t i = 0; i < fp->sched.n; i++) {
		const struct ccb_fault *f = &fp->sched.f[i];
		char have[256] = "";
		size_t used = 0, j;
		const json_t *o;
		bool found = false;

		if (f->kind != CCB_FAULT_OSD_DOWN && f->kind != CCB_FAULT_OSD_OUT &&
		    f->kind != CCB_FAULT_OSD_IN)
			continue;
		json_array_foreach(json_object_get(dump, "osds"), j, o)
		{
			json_int_t id = json_integer_value(json_object_get(o, "osd"));

			found |= id == f->osd;
			if (used < sizeof(have) - 16)
				used += (size_t)snprintf(have + used, sizeof(have) - used, "%s%lld",
				                         used ? ", " : "", (long long)id);
		}
		if (!found) {
			snprintf(err, len,
			         "--fault '%s': osd.%d: no such OSD (the cluster's: %s); "
			         "nothing was changed",
			         f->text, f->osd, used ? have : "none");
			return -EINVAL;
		}
	}
	return 0;
}

int ccb_fault_point_begin(const struct ccb_opts *o, struct ccb_run *run,
                          struct ccb_fault_point **out, char *err, size_t err_len)
{
	struct ccb_fault_point *fp = calloc(1, sizeof(*fp));
	json_t *dump = NULL, *v;
	const char *key;
	int r;

	*out = NULL;
	if (!fp) {
		snprintf(err, err_len, "--fault: out of memory");
		return -ENOMEM;
	}
	fp->refs = 1;
	fp->opts = o;
	fp->left = json_array();
	fp->undone = json_array();
	fp->up_start = json_array();
	ccb_timeline_init(&fp->timeline);
	r = ccb_fault_parse(&o->faults, &fp->sched, err, err_len);
	if (r < 0)
		goto fail;
	if (!getcwd(fp->cwd, sizeof(fp->cwd))) {
		r = -errno;
		snprintf(err, err_len, "--fault: getcwd: %s", strerror(-r));
		goto fail;
	}
	r = ccb_cluster_connect_bounded(o, "10", &fp->cl, err, err_len);
	if (r < 0)
		goto fail;
	fp->connected = true;
	if (rados_cluster_fsid(fp->cl, fp->fsid, sizeof(fp->fsid)) < 0)
		fp->fsid[0] = '\0';
	r = ccb_fault_mon(fp->cl, json_pack("{s:s, s:s}", "prefix", "osd dump", "format", "json"),
	                  &dump, err, err_len);
	if (r < 0)
		goto fail;
	r = check_osds(fp, dump, err, err_len);
	if (r < 0)
		goto fail;
	fp->osds_prev = digest(dump);
	json_object_foreach(fp->osds_prev, key, v) if (json_is_object(v) &&
	                                               json_integer_value(json_object_get(v, "up")))
	    json_array_append_new(fp->up_start, json_string(key));
	fp->settings = read_settings(fp->cl, dump);
	json_decref(dump);
	run->timeline = &fp->timeline;
	run->watch = &watch_ops;
	run->watch_arg = fp;
	*out = fp;
	return 0;
fail:
	json_decref(dump);
	ccb_fault_unref(fp);
	return r;
}
