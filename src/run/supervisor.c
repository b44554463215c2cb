/*
 * What the supervising thread of a run (ccb_run_execute in engine.c) does
 * beside joining the clients and drawing progress: it watches for a stall
 * and has the diagnosis thread ask the path why, feeds the steady-state
 * detector, trims malloc's arenas (--malloc-trim), and takes the cluster's
 * state at the start and the end for explain. The client threads never
 * call in here.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/cluster_sched.h>
#include <ccbench/cluster_state.h>
#include <ccbench/engine.h>
#include <ccbench/path.h>
#include <ccbench/release.h>
#include <ccbench/run_pools.h>
#include <ccbench/steady.h>

#include "supervisor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#endif

/*
 * Keep what the stall check found, for the result (stall_diagnosis): each
 * distinct answer once, with the second of the run the stall began in, so
 * the explain line names the OSD. Under reason_lock.
 */
static void record_stall(struct ccb_run *run, const char *why, uint64_t since)
{
	json_t *list, *e;
	size_t i;

	if (!why[0] || !run->extra)
		return;
	list = json_object_get(run->extra, "stall_diagnosis");
	if (!list) {
		list = json_array();
		if (json_object_set_new(run->extra, "stall_diagnosis", list) < 0)
			return;
	}
	json_array_foreach(
	    list, i, e) if (strcmp(json_string_value(json_object_get(e, "why")), why) == 0) return;
	if (json_array_size(list) < 8)
		json_array_append_new(list, json_pack("{s:s, s:f}", "why", why, "since_s",
		                                      since > run->start_nsec
		                                          ? (double)(since - run->start_nsec) / 1e9
		                                          : 0.0));
}

static void *diag_main(void *arg)
{
	struct ccb_diag *d = arg;
	struct ccb_run *run = d->run;
	uint64_t period = CCB_STALL_CHECK_SEC * 1000000000ull, last_check = 0;

	pthread_mutex_lock(&d->lock);
	while (!d->done) {
		struct timespec ts;
		uint64_t now, since;
		char why[sizeof(run->stall_why)];
		int r;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 250000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&d->cond, &d->lock, &ts);
		if (d->done)
			break;
		now = ccb_now_nsec();
		since = atomic_load(&run->stalled_since_nsec);
		if (!since || now - since < period || now - last_check < period ||
		    atomic_load(&run->stop) != CCB_STOP_NONE)
			continue;
		pthread_mutex_unlock(&d->lock);
		why[0] = '\0';
		r = run->ops->stalled(run, why, sizeof(why));
		last_check = ccb_now_nsec();
		pthread_mutex_lock(&run->reason_lock);
		snprintf(run->stall_why, sizeof(run->stall_why), "%s", why);
		record_stall(run, why, since);
		pthread_mutex_unlock(&run->reason_lock);
		if (r < 0 && why[0]) {
			ccb_run_stop(run, CCB_STOP_ERROR, r, "%s; measured until then", why);
			if (!run->opts->quiet)
				fprintf(
				    stderr,
				    "\nccbench: %s: stopping; ops already in flight may wait in "
				    "the client library until --op-timeout\n",
				    why);
		}
		pthread_mutex_lock(&d->lock);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

void ccb_diag_start(struct ccb_diag *d, struct ccb_run *run)
{
	pthread_condattr_t ca;

	*d = (struct ccb_diag){.run = run};
	if (!run->ops->stalled)
		return;
	pthread_mutex_init(&d->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&d->cond, &ca);
	pthread_condattr_destroy(&ca);
	d->inited = true;
	d->started = pthread_create(&d->thread, NULL, diag_main, d) == 0;
}

void ccb_diag_stop(struct ccb_diag *d)
{
	if (d->started) {
		/* Bounded: a mon query in progress ends within the mon op timeout. */
		pthread_mutex_lock(&d->lock);
		d->done = true;
		pthread_cond_signal(&d->cond);
		pthread_mutex_unlock(&d->lock);
		pthread_join(d->thread, NULL);
		d->started = false;
	}
	if (d->inited) {
		pthread_cond_destroy(&d->cond);
		pthread_mutex_destroy(&d->lock);
		d->inited = false;
	}
}

/* Note when completions stop while ops are in flight. */
void ccb_run_watch_stall(struct ccb_run *run, uint64_t now, uint64_t *last_ops)
{
	struct ccb_run_totals t;

	ccb_run_totals(run, &t);
	if (t.ops != *last_ops || !t.in_flight) {
		*last_ops = t.ops;
		atomic_store(&run->stalled_since_nsec, 0);
	} else if (!atomic_load(&run->stalled_since_nsec)) {
		atomic_store(&run->stalled_since_nsec, now);
	}
}

/*
 * --until-steady. The ramp: --steady-ramp as given, else a second and
 * whatever bytes the path says must pass first (a readahead window
 * growing to its size, a cache filling). Set up with the clients open, so
 * the path can read what it learnt (the image's order, librbd's settings).
 */
int ccb_run_steady_setup(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	bool given = ccb_opt_given(o, "steady-ramp");
	uint64_t ramp_bytes = 0;
	char basis[128] = "";
	int r;

	if (!o->until_steady.on)
		return 0;
	run->steady = calloc(1, sizeof(*run->steady));
	if (!run->steady)
		return -ENOMEM;
	if (!given && run->ops->steady_ramp_bytes)
		ramp_bytes = run->ops->steady_ramp_bytes(run, basis, sizeof(basis));
	r = ccb_steady_init(run->steady, &o->until_steady,
	                    (given ? o->steady_ramp_usec : CCB_STEADY_RAMP_MIN_USEC) * 1000ull,
	                    ramp_bytes, !given, given ? "--steady-ramp" : basis);
	if (r < 0) {
		free(run->steady);
		run->steady = NULL;
	}
	return r;
}

/*
 * Seconds until the run would end by itself (its --duration, --total or
 * one pass), at @p rate bytes/s from @p done bytes at @p now; a negative
 * value when no bound is known.
 */
static double seconds_to_end(const struct ccb_run *run, uint64_t now, uint64_t done, double rate)
{
	uint64_t bound = run->total_bytes;
	double left = -1;

	if (run->pass_bytes && (!bound || run->pass_bytes < bound))
		bound = run->pass_bytes;
	if (bound && rate > 0)
		left = bound > done ? (double)(bound - done) / rate : 0;
	if (run->duration_usec) {
		uint64_t end = run->start_nsec + run->duration_usec * 1000ull;
		double t = end > now ? (double)(end - now) / 1e9 : 0;

		if (left < 0 || t < left)
			left = t;
	}
	return left;
}

/*
 * The run's counters to the steady-state detector, which is
 * path-independent; once its window holds, the run stops like at its
 * duration (drained, flushed, measured to its last op).
 *
 * Unless the run's own end is less than a window away: stopping then saves
 * under a window, and the window leaves out the ramp that a whole pass
 * reports (on a short pass that slows as it goes, the first second is the
 * fastest: seed 002's fuse-loop 512K points read 18 % lower settled than
 * whole). So the run reads on to its end and its whole figure counts, the
 * same measurement as the full-length run's.
 */
void ccb_run_steady_tick(struct ccb_run *run, uint64_t now)
{
	struct ccb_steady *d = run->steady;
	struct ccb_run_totals t;
	double left;

	if (!d || d->read_to_end || atomic_load(&run->stop) != CCB_STOP_NONE ||
	    now <= run->start_nsec)
		return;
	ccb_run_totals(run, &t);
	if (!ccb_steady_feed(d, now - run->start_nsec, t.bytes, t.ops, t.lat_sum_nsec))
		return;
	left = seconds_to_end(run, now, t.bytes, d->band.bw_mib_s * 1048576.0);
	if (left >= 0 && left < (double)d->window_n) {
		d->read_to_end = true;
		d->read_to_end_left_s = left;
		return;
	}
	ccb_run_stop(run, CCB_STOP_DONE, 0,
	             "steady state (--until-steady %s): %.1f %s within %.1f %% for %zu s, from "
	             "%.1f s",
	             d->spec.text, d->band.mean,
	             d->spec.metric == CCB_STEADY_BW     ? "MiB/s"
	             : d->spec.metric == CCB_STEADY_IOPS ? "IOPS"
	                                                 : "µs mean latency",
	             d->spec.slope ? d->band.trend_pct : d->band.max_deviation_pct, d->window_n,
	             d->band.from_s);
}

/* ---- what explain needs: the cluster's state ---------------------------- */

bool ccb_run_explain_on(const struct ccb_run *run)
{
	return !run->opts->explain || strcmp(run->opts->explain, "off") != 0;
}

/*
 * The cluster's state at "start" or "end" (and at the start the route to
 * it and the OSD scheduler), and at the start the cluster's releases,
 * which every result names, --explain=off or not. On the connection the
 * path lent, else (krbd, CephFS) on one of their own for a path that
 * talks to the cluster at all, made and shut down here.
 */
void ccb_run_cluster_state(struct ccb_run *run, const char *when)
{
	const struct ccb_path_ops *ops = run->ops;
	bool start = strcmp(when, "start") == 0, explain = ccb_run_explain_on(run);
	rados_t r = (rados_t)run->mon, own = NULL;
	char err[512] = "";
	json_t *cs, *st;

	if (!run->extra || (!explain && !start) ||
	    (!run->mon && ops->needs_cluster && !ops->needs_cluster(run->opts)))
		return;
	if (!r && ccb_cluster_connect(run->opts, &own, err, sizeof(err)) == 0)
		r = own;
	if (start)
		json_object_set_new(
		    run->extra, "releases",
		    json_pack("{s:o}", "cluster",
		              r ? ccb_release_cluster(r) : json_pack("{s:s}", "error", err)));
	if (explain) {
		cs = json_object_get(run->extra, "cluster_state");
		if (!cs) {
			cs = json_object();
			if (json_object_set_new(run->extra, "cluster_state", cs) < 0)
				goto out;
		}
		st = r ? ccb_cluster_state(r) : json_pack("{s:s}", "error", err);
		if (!st)
			goto out;
		if (start && r) {
			json_object_set_new(run->extra, "network", ccb_cluster_network(st));
			json_object_set_new(st, "osd_scheduler", ccb_cluster_sched(r));
		}
		json_object_set_new(cs, when, st);
		/* The data pool's space around a write run (run_pools.h). */
		ccb_run_space(run, r, start, &ccb_signal_pending);
	}
out:
	if (own)
		rados_shutdown(own);
}

/*
 * --malloc-trim. The messenger receives each reply into a buffer of its
 * own (4 MiB for a 4M read), malloc'ed on a library thread and freed on
 * ours. glibc keeps the freed chunks in its per-thread arenas, fragmented:
 * the peak RSS of a 4M x 16 read reaches 140-308 MiB for 64 MiB in flight.
 * A fixed mmap threshold at or below 4 MiB bounds it at 2.5x the CPU (each
 * buffer mapped and faulted in anew). malloc_trim(0) every 100 ms hands
 * back the freed pages of all arenas: peak RSS a quarter to a half lower,
 * for up to twice the page faults and 5-12 % more CPU on 4M reads
 * (bench/peers.sh, docs/performance.md). Off by default: the CPU is the figure a
 * benchmark client must not spend; memory-capped containers can ask.
 */
void ccb_run_trim_tick(struct ccb_run *run, uint64_t now, uint64_t *last, unsigned *n)
{
#ifdef __GLIBC__
	uint64_t every = run->opts->malloc_trim_usec * 1000;

	if (!every || now - *last < every)
		return;
	malloc_trim(0);
	*last = now;
	++*n;
#else
	(void)run;
	(void)now;
	(void)last;
	(void)n;
#endif
}
