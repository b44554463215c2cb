/*
 * The run loop. Each client thread owns a fixed array of queue-depth slots
 * and keeps them full: submit, wait for completions, record, resubmit.
 * Library threads only stamp and queue completed slots (ccb_slot_done), so
 * all statistics are written by exactly one thread and merged after join.
 * An open loop (--rate) hooks in at three points: fill() takes only due
 * arrivals, reap() records the response time, the wait ends at the next
 * arrival (openloop.c has the schedule and the backlog).
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/cluster_sched.h>
#include <ccbench/cluster_state.h>
#include <ccbench/release.h>
#include <ccbench/engine.h>
#include <ccbench/run_pools.h>
#include <ccbench/openloop.h>
#include <ccbench/path.h>
#include <ccbench/progress.h>
#include <ccbench/undo.h>

#include "thread_cpu.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h> /* malloc_trim */
#include <sys/prctl.h>
#endif

volatile sig_atomic_t ccb_signal_pending;

/* How often a waiting client wakes to check stop conditions and the watchdog. */
#define TICK_NSEC 100000000ull

uint64_t ccb_client_rand(struct ccb_client *cl)
{
	cl->rng ^= cl->rng >> 12;
	cl->rng ^= cl->rng << 25;
	cl->rng ^= cl->rng >> 27;
	return cl->rng * 0x2545f4914f6cdd1dull;
}

/* Terminating signals so far, the one that stopped the run included. */
static volatile sig_atomic_t n_signals;

/*
 * The first signal stops the run and sticks (its number gives the exit
 * status, 128 + N). SIGPIPE is a reader that went away (`ccbench | head`,
 * a closed stderr): it stops the run like the others, but never counts
 * as a repeat -- the unwind's own messages may raise it again. Further
 * SIGINT/SIGTERM/SIGHUP go to the undo log: the 2nd says what is still
 * being undone, the 3rd gives up (see ccb_undo_on_signal).
 */
static void on_signal(int signo)
{
	if (!ccb_signal_pending) {
		ccb_signal_pending = signo;
		n_signals = 1;
		return;
	}
	if (signo == SIGPIPE)
		return;
	n_signals++;
	ccb_undo_on_signal(n_signals, ccb_signal_pending);
}

void ccb_signals_install(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE};
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	/* No signal interrupts the handler: the count and the texts stay whole. */
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	/* SIGPIPE is caught, not ignored: the failing write still returns
	 * EPIPE, the run learns of it, and the programs ccbench starts (rbd,
	 * rbd-fuse) get the default disposition back at exec, as an ignored
	 * signal would not. */
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

void ccb_slot_done(struct ccb_slot *s, int ret)
{
	struct ccb_client *cl = s->cl;
	uint64_t now = ccb_now_nsec();

	/* Signalled after the unlock: a client woken under the lock would
	 * block on it at once (one more context switch per op, measured at
	 * 4K x 1). The count keeps the client alive until the signal is out:
	 * its thread waits for it before it ends. */
	atomic_fetch_add_explicit(&cl->signalling, 1, memory_order_relaxed);
	pthread_mutex_lock(&cl->lock);
	s->end_nsec = now;
	s->ret = ret;
	s->next_done = NULL;
	if (cl->done_tail)
		cl->done_tail->next_done = s;
	else
		cl->done_head = s;
	cl->done_tail = s;
	if (cl->polling)
		atomic_store_explicit(&cl->done_ready, true, memory_order_release);
	pthread_mutex_unlock(&cl->lock);
	pthread_cond_signal(&cl->cond);
	atomic_fetch_sub_explicit(&cl->signalling, 1, memory_order_release);
}

void ccb_run_stop(struct ccb_run *run, enum ccb_stop why, int err, const char *fmt, ...)
{
	int expected = CCB_STOP_NONE;
	va_list ap;

	/* The first reason sticks, except that an op failing while the run
	 * drains after a normal end still makes it a failed run. */
	if (!atomic_compare_exchange_strong(&run->stop, &expected, (int)why)) {
		expected = CCB_STOP_DONE;
		if ((why != CCB_STOP_ERROR && why != CCB_STOP_TIMEOUT) ||
		    !atomic_compare_exchange_strong(&run->stop, &expected, (int)why))
			return;
	}
	pthread_mutex_lock(&run->reason_lock);
	run->error_ret = err;
	va_start(ap, fmt);
	vsnprintf(run->reason, sizeof(run->reason), fmt, ap);
	va_end(ap);
	pthread_mutex_unlock(&run->reason_lock);
}

void ccb_run_warn(struct ccb_run *run, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pthread_mutex_lock(&run->reason_lock);
	if (!run->warnings)
		run->warnings = json_array();
	json_array_append_new(run->warnings, json_string(msg));
	pthread_mutex_unlock(&run->reason_lock);
}

/* Describe an op failure once per client; the run stops on the first one. */
static void op_failed(struct ccb_client *cl, struct ccb_slot *s, int ret, const char *what)
{
	struct ccb_run *run = cl->run;

	cl->errors++;
	if (!cl->first_error) {
		cl->first_error = ret;
		if (!cl->first_error_msg[0]) {
			char target[160];
			if (run->ops->describe)
				run->ops->describe(cl, s, target, sizeof(target));
			else
				snprintf(target, sizeof(target), "%s (object %llu)", what,
				         (unsigned long long)s->object);
			snprintf(cl->first_error_msg, sizeof(cl->first_error_msg),
			         "%s at offset %llu, client %u: %s%s", target,
			         (unsigned long long)s->offset, cl->idx, strerror(-ret),
			         ret == -ETIMEDOUT ? " (--op-timeout)" : "");
		}
	}
	if (ret == -ETIMEDOUT)
		ccb_run_stop(run, CCB_STOP_TIMEOUT, ret, "%s", cl->first_error_msg);
	else
		ccb_run_stop(run, CCB_STOP_ERROR, ret, "%s", cl->first_error_msg);
}

static void reap(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	const struct ccb_path_ops *ops = run->ops;
	uint64_t lat = s->end_nsec - s->start_nsec;
	int ret = s->ret;

	cl->in_flight--;
	atomic_store_explicit(&cl->in_flight_now, cl->in_flight, memory_order_relaxed);
	s->busy = false;
	if (ret < 0) {
		op_failed(cl, s, ret, run->is_write ? "write" : "read");
	} else if (ops->complete && (ret = ops->complete(cl, s)) < 0) {
		op_failed(cl, s, ret, "verify");
	} else {
		size_t sec = (size_t)((s->end_nsec - run->start_nsec) / 1000000000ull);

		ccb_hist_record(&cl->hist, lat);
		if (cl->ol)
			ccb_openloop_done(cl->ol, s->intended_nsec, s->end_nsec,
			                  cl->in_flight + 1 == cl->n_slots);
		if (ccb_series_add(&cl->series, sec, s->len_bytes, lat) < 0)
			op_failed(cl, s, -ENOMEM, "record");
		if (!cl->first_op_nsec)
			cl->first_op_nsec = s->start_nsec;
		cl->last_op_nsec = s->end_nsec;
		atomic_fetch_add_explicit(&cl->bytes_done, s->len_bytes, memory_order_relaxed);
		atomic_fetch_add_explicit(&cl->ops_done, 1, memory_order_relaxed);
		atomic_fetch_add_explicit(&cl->lat_sum_nsec, lat, memory_order_relaxed);
	}
	if (ops->release)
		ops->release(cl, s);
}

/* Fill every free slot unless a stop condition holds; in an open loop,
 * only with the arrivals that are due. */
static void fill(struct ccb_client *cl, bool *path_end)
{
	struct ccb_run *run = cl->run;

	for (unsigned i = 0; i < cl->n_slots && !*path_end; i++) {
		struct ccb_slot *s = &cl->slots[i];
		uint64_t now;
		int r;

		if (s->busy)
			continue;
		if (atomic_load(&run->stop) != CCB_STOP_NONE)
			return;
		now = ccb_now_nsec();
		if (cl->ol && !ccb_openloop_take(cl->ol, now, cl->in_flight + 1 == cl->n_slots,
		                                 &s->intended_nsec))
			return;
		if (run->total_bytes &&
		    atomic_fetch_add(&run->issued_bytes, run->buf_bytes) >= run->total_bytes) {
			ccb_run_stop(run, CCB_STOP_DONE, 0, "--total reached");
			return;
		}
		s->start_nsec = now;
		s->busy = true;
		cl->in_flight++;
		r = run->ops->submit(cl, s);
		if (r == CCB_SUBMIT_END) {
			s->busy = false;
			cl->in_flight--;
			*path_end = true;
		} else if (r < 0) {
			s->busy = false;
			cl->in_flight--;
			op_failed(cl, s, r, "submit");
			return;
		}
		atomic_store_explicit(&cl->in_flight_now, cl->in_flight, memory_order_relaxed);
	}
}

static void check_watchdog(struct ccb_client *cl, uint64_t now)
{
	struct ccb_run *run = cl->run;
	uint64_t limit = run->opts->op_timeout_usec * 1000ull;

	for (unsigned i = 0; i < cl->n_slots; i++) {
		struct ccb_slot *s = &cl->slots[i];

		if (s->busy && now - s->start_nsec > limit) {
			ccb_run_stop(
			    run, CCB_STOP_TIMEOUT, -ETIMEDOUT,
			    "op outstanding for more than %.1f s (--op-timeout) on client %u "
			    "(object %llu, offset %llu)",
			    (double)limit / 1e9, cl->idx, (unsigned long long)s->object,
			    (unsigned long long)s->offset);
			return;
		}
	}
}

/*
 * --busy-poll: spin until @p until or a completion, never sleeping. A
 * sleeping thread wakes when the kernel (on a VM, the hypervisor) gets
 * round to it: measured on the 2-core development VM with nothing else
 * running, a thread sleeping to 1000 deadlines a second woke p99 0.7 to
 * 2 ms late, a polling one 7 us (docs/capacity.md). The price: a CPU.
 */
static void poll_until(struct ccb_client *cl, uint64_t until)
{
	while (ccb_now_nsec() < until &&
	       !atomic_load_explicit(&cl->done_ready, memory_order_acquire) &&
	       atomic_load_explicit(&cl->run->stop, memory_order_relaxed) == CCB_STOP_NONE) {
#if defined(__x86_64__) || defined(__i386__)
		__builtin_ia32_pause();
#elif defined(__aarch64__)
		__asm__ __volatile__("yield");
#endif
	}
}

static void *client_main(void *arg)
{
	struct ccb_client *cl = arg;
	struct ccb_run *run = cl->run;
	uint64_t duration_nsec = run->duration_usec * 1000ull;
	/* In-flight ops get this long to finish once the run stops. librados
	 * times them out itself after --op-timeout, so this bound is a backstop. */
	uint64_t drain_nsec = run->opts->op_timeout_usec * 1000ull + 5000000000ull;
	uint64_t stop_seen = 0;
	bool path_end = false;
	struct timespec cpu0, cpu1;

	/* An open loop sleeps until each arrival's time: the kernel's default
	 * timer slack (50 us) may add up to that to every wake, all of it the
	 * issuer's lag. This thread's slack only; the closed loop keeps it. */
	if (cl->ol)
		prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu0);
	for (;;) {
		uint64_t now = ccb_now_nsec();
		struct ccb_slot *done;

		if (duration_nsec && now - run->start_nsec >= duration_nsec)
			ccb_run_stop(run, CCB_STOP_DONE, 0, "--duration reached");
		fill(cl, &path_end);
		if (atomic_load(&run->stop) != CCB_STOP_NONE && !stop_seen)
			stop_seen = now;
		if (cl->in_flight == 0 && (stop_seen || path_end))
			break;
		if (stop_seen && now - stop_seen > drain_nsec) {
			cl->stranded = true;
			break;
		}

		pthread_mutex_lock(&cl->lock);
		/* An open loop also sleeps with nothing in flight: until its next
		 * arrival, when a slot is free for it. */
		if (!cl->done_head && (cl->in_flight || cl->ol)) {
			uint64_t until = ccb_now_nsec() + TICK_NSEC;
			struct timespec ts;

			if (cl->ol && cl->in_flight < cl->n_slots && !stop_seen)
				until = ccb_openloop_wake(cl->ol, until);
			if (cl->polling) {
				pthread_mutex_unlock(&cl->lock);
				poll_until(cl, until);
				pthread_mutex_lock(&cl->lock);
			} else {
				ts.tv_sec = (time_t)(until / 1000000000ull);
				ts.tv_nsec = (long)(until % 1000000000ull);
				pthread_cond_timedwait(&cl->cond, &cl->lock, &ts);
			}
		}
		done = cl->done_head;
		cl->done_head = cl->done_tail = NULL;
		if (cl->polling)
			atomic_store_explicit(&cl->done_ready, false, memory_order_relaxed);
		pthread_mutex_unlock(&cl->lock);

		while (done) {
			struct ccb_slot *next = done->next_done;
			reap(cl, done);
			done = next;
		}
		if (cl->in_flight)
			check_watchdog(cl, ccb_now_nsec());
	}
	/* The arrivals that count are those before the run's end: its duration,
	 * or when this client saw it stop. */
	if (cl->ol) {
		uint64_t end = stop_seen ? stop_seen : ccb_now_nsec();

		if (duration_nsec && end > run->start_nsec + duration_nsec)
			end = run->start_nsec + duration_nsec;
		ccb_openloop_finish(cl->ol, end);
	}
	/* Every op was reaped, so every ccb_slot_done() of this client is past
	 * its increment: wait for their signals to be out. */
	while (atomic_load_explicit(&cl->signalling, memory_order_acquire))
		sched_yield();
	/* What the path acknowledged early (librbd's cache) reaches the cluster
	 * inside the measured time: the run's end is after it. */
	if (run->ops->quiesce && !cl->stranded && !cl->first_error && cl->last_op_nsec) {
		int r = run->ops->quiesce(cl);
		if (r < 0)
			op_failed(cl, &cl->slots[0], r, "flush");
		else
			cl->last_op_nsec = ccb_now_nsec();
	}
	/* Its own CPU: a client thread near one full CPU is the bottleneck. */
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu1);
	cl->cpu_nsec =
	    (uint64_t)((cpu1.tv_sec - cpu0.tv_sec) * 1000000000ll + (cpu1.tv_nsec - cpu0.tv_nsec));
	return NULL;
}

/* A non-zero, non-repeating fill, so compression or zero detection on the
 * way cannot flatter a write result. */
static void fill_pattern(char *buf, uint64_t bytes, uint64_t seed)
{
	uint64_t x = 0x9e3779b97f4a7c15ull ^ seed;

	for (uint64_t off = 0; off + 8 <= bytes; off += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		memcpy(buf + off, &x, 8);
	}
}

/*
 * The diagnosis thread: once no op has completed for CCB_STALL_CHECK_SEC
 * while ops are in flight, ask the path why (read-only mon queries, which
 * may block up to the mon op timeout: hence a thread of its own, so that
 * neither progress nor signals wait for the answer). A full pool ends the
 * run at once: Pacific's clients would wait on it until --op-timeout.
 */
struct diag {
	struct ccb_run *run;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
};

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
	struct diag *d = arg;
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

/* Supervisor: note when completions stop while ops are in flight. */
static void watch_stall(struct ccb_run *run, uint64_t now, uint64_t *last_ops)
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
static int steady_setup(struct ccb_run *run)
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
 * Supervisor: the run's counters to the steady-state detector, which is
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
static void steady_tick(struct ccb_run *run, uint64_t now)
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

/* ---- what explain needs: the cluster's state, the threads' CPU ---------- */

static bool explain_on(const struct ccb_run *run)
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
static void cluster_state(struct ccb_run *run, const char *when)
{
	const struct ccb_path_ops *ops = run->ops;
	bool start = strcmp(when, "start") == 0, explain = explain_on(run);
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
static void trim_tick(struct ccb_run *run, uint64_t now, uint64_t *last, unsigned *n)
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

static int client_init(struct ccb_run *run, struct ccb_client *cl, unsigned idx)
{
	char *shared = NULL;

	cl->run = run;
	cl->idx = idx;
	cl->n_slots = (unsigned)run->queue_depth;
	cl->rng =
	    0x2545f4914f6cdd1dull ^ ((uint64_t)getpid() << 16) ^ (idx + 1) * 0x9e3779b97f4a7c15ull;
	pthread_mutex_init(&cl->lock, NULL);
	{
		/* The tick is a duration: a clock step must not stretch it. */
		pthread_condattr_t ca;

		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&cl->cond, &ca);
		pthread_condattr_destroy(&ca);
	}
	ccb_hist_init(&cl->hist);
	ccb_series_init(&cl->series);
	cl->slots = calloc(cl->n_slots, sizeof(*cl->slots));
	if (!cl->slots)
		return -ENOMEM;
	/* Writes through a library that copies the data at submit time (or only
	 * reads it) can all come from one buffer: queue depth x op size less
	 * memory, and no fill per slot. Reads need a buffer per slot, and no fill. */
	if (run->is_write && run->shared_buf) {
		if (posix_memalign((void **)&shared, 4096, run->buf_bytes))
			return -ENOMEM;
		fill_pattern(shared, run->buf_bytes, (uint64_t)idx << 32);
		cl->shared_buf = shared;
	}
	for (unsigned i = 0; i < cl->n_slots; i++) {
		struct ccb_slot *s = &cl->slots[i];

		s->cl = cl;
		s->idx = i;
		s->buf_bytes = run->buf_bytes;
		if (shared) {
			s->buf = shared;
			continue;
		}
		/* 4K alignment keeps O_DIRECT paths (io_uring) on the same buffers. */
		if (posix_memalign((void **)&s->buf, 4096, run->buf_bytes))
			return -ENOMEM;
		if (run->is_write || run->mode == CCB_MODE_RW)
			fill_pattern(s->buf, run->buf_bytes, ((uint64_t)idx << 32) ^ i);
	}
	return 0;
}

int ccb_run_execute(struct ccb_run *run)
{
	struct ccb_progress prog;
	struct diag diag = {.run = run};
	bool diag_started = false;
	unsigned opened = 0, started = 0;
	uint64_t last_ops = 0, last_trim = 0;
	unsigned trims = 0;
	int r = 0;

	struct ccb_task_cpu *tasks0 = NULL;
	size_t n_tasks0 = 0;
	uint64_t tasks_nsec = 0, host0[2] = {0, 0};

	pthread_mutex_init(&run->reason_lock, NULL);
	run->clients = calloc(run->n_clients, sizeof(*run->clients));
	if (!run->clients)
		return -ENOMEM;
	if (!run->extra)
		run->extra = json_object();
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];

		r = client_init(run, cl, i);
		if (r < 0)
			goto close;
		if (ccb_signal_pending) {
			r = -EINTR;
			goto close;
		}
		r = run->ops->client_open(cl);
		if (r < 0)
			goto close;
		opened++;
	}

	/* Before a group's barrier, so its members still start together. */
	cluster_state(run, "start");
	if (run->before_start) {
		r = run->before_start(run, run->before_start_arg);
		if (r < 0)
			goto close;
	}
	r = steady_setup(run);
	if (r < 0)
		goto close;
	if (explain_on(run) && (tasks0 = calloc(CCB_MAX_TASKS, sizeof(*tasks0)))) {
		n_tasks0 = ccb_tasks_read(tasks0, CCB_MAX_TASKS);
		if (!ccb_host_ticks(&host0[0], &host0[1]))
			host0[1] = 0;
	}
	r = ccb_openloop_setup(run, run->reason, sizeof(run->reason));
	if (r < 0)
		goto close;
	tasks_nsec = ccb_now_nsec();
	run->start_nsec = ccb_now_nsec();
	ccb_openloop_start(run);
	for (unsigned i = 0; i < run->n_clients; i++) {
		char name[16];

		r = pthread_create(&run->clients[i].thread, NULL, client_main, &run->clients[i]);
		if (r) {
			ccb_run_stop(run, CCB_STOP_ERROR, -r, "pthread_create: %s", strerror(r));
			break;
		}
		/* Named, so that the threads' CPU tells client threads apart. */
		snprintf(name, sizeof(name), "ccb-client-%u", i % 10000);
		pthread_setname_np(run->clients[i].thread, name);
		started++;
	}

	if (run->ops->stalled) {
		pthread_condattr_t ca;

		pthread_mutex_init(&diag.lock, NULL);
		pthread_condattr_init(&ca);
		pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
		pthread_cond_init(&diag.cond, &ca);
		pthread_condattr_destroy(&ca);
		diag_started = pthread_create(&diag.thread, NULL, diag_main, &diag) == 0;
	}
	ccb_progress_init(&prog, run->opts->quiet);
	for (;;) {
		struct timespec ts = {0, 50000000L};
		unsigned active = 0;

		if (ccb_signal_pending && atomic_load(&run->stop) == CCB_STOP_NONE) {
			run->signal = ccb_signal_pending;
			ccb_run_stop(run, CCB_STOP_SIGNAL, -EINTR, "interrupted by %s",
			             run->signal == SIGINT    ? "SIGINT"
			             : run->signal == SIGHUP  ? "SIGHUP"
			             : run->signal == SIGPIPE ? "SIGPIPE (stdout or stderr closed)"
			                                      : "SIGTERM");
		}
		for (unsigned i = 0; i < started; i++) {
			struct ccb_client *cl = &run->clients[i];

			if (!cl->joined && pthread_tryjoin_np(cl->thread, NULL) == 0)
				cl->joined = true;
			active += !cl->joined;
		}
		if (!active)
			break;
		watch_stall(run, ccb_now_nsec(), &last_ops);
		steady_tick(run, ccb_now_nsec());
		trim_tick(run, ccb_now_nsec(), &last_trim, &trims);
		ccb_progress_tick(&prog, run, ccb_now_nsec());
		if (run->on_tick)
			run->on_tick(run, run->on_tick_arg);
		nanosleep(&ts, NULL);
	}
	ccb_progress_done(&prog);
	if (diag_started) {
		/* Bounded: a mon query in progress ends within the mon op timeout. */
		pthread_mutex_lock(&diag.lock);
		diag.done = true;
		pthread_cond_signal(&diag.cond);
		pthread_mutex_unlock(&diag.lock);
		pthread_join(diag.thread, NULL);
	}
	if (run->ops->stalled) {
		pthread_cond_destroy(&diag.cond);
		pthread_mutex_destroy(&diag.lock);
	}
	/* The run ends when its last op completed, not when the loop noticed. */
	run->end_nsec = run->start_nsec;
	for (unsigned i = 0; i < run->n_clients; i++)
		if (run->clients[i].last_op_nsec > run->end_nsec)
			run->end_nsec = run->clients[i].last_op_nsec;
	if (run->end_nsec == run->start_nsec)
		run->end_nsec = ccb_now_nsec();
	/* Before the clients close: the library's threads are still there. */
	if (tasks0 && run->extra)
		json_object_set_new(run->extra, "thread_cpu",
		                    ccb_thread_cpu(run, tasks0, n_tasks0,
		                                   (double)(ccb_now_nsec() - tasks_nsec) / 1e9,
		                                   host0));
	cluster_state(run, "end");
	/* What --malloc-trim did, beside the figures it may have changed. */
	if (run->opts->malloc_trim_usec && run->extra)
		json_object_set_new(run->extra, "malloc_trims", json_integer(trims));
	r = 0;

close:
	for (unsigned i = 0; i < opened; i++)
		if (!run->clients[i].stranded)
			run->ops->client_close(&run->clients[i]);
	free(tasks0);
	return r;
}

void ccb_run_free(struct ccb_run *run)
{
	ccb_openloop_free(run);
	if (run->clients) {
		bool stranded = false;

		for (unsigned i = 0; i < run->n_clients; i++) {
			struct ccb_client *cl = &run->clients[i];

			/* Library threads may still write into a stranded client's slots:
			 * leaking them is the only safe choice, and the process exits soon. */
			if (cl->stranded) {
				stranded = true;
				continue;
			}
			for (unsigned j = 0; cl->slots && !cl->shared_buf && j < cl->n_slots; j++)
				free(cl->slots[j].buf);
			free(cl->shared_buf);
			free(cl->slots);
			ccb_series_free(&cl->series);
		}
		if (!stranded)
			free(run->clients);
		run->clients = NULL;
	}
	if (run->steady) {
		ccb_steady_free(run->steady);
		free(run->steady);
		run->steady = NULL;
	}
	json_decref(run->warnings);
	json_decref(run->layout);
	json_decref(run->extra);
	run->warnings = run->layout = run->extra = NULL;
}
