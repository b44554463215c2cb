/*
 * The run loop. Each client thread owns a fixed array of queue-depth slots
 * and keeps them full: submit, wait for completions, record, resubmit.
 * Library threads only stamp and queue completed slots (ccb_slot_done), so
 * all statistics are written by exactly one thread and merged after join.
 * An open loop (--rate) hooks in at three points: fill() takes only due
 * arrivals, reap() records the response time, the wait ends at the next
 * arrival (openloop.c has the schedule and the backlog).
 */
#include <ccbench/attribution.h>
#include <ccbench/clock.h>
#include <ccbench/engine.h>
#include "openloop.h"
#include <ccbench/path.h>
#include "progress.h"
#include <ccbench/steady.h>

#include "supervisor.h"
#include "thread_cpu.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <sys/prctl.h>
#endif

/* How often a waiting client wakes to check stop conditions and the watchdog. */
#define TICK_NSEC 100000000ull

uint64_t ccb_client_rand(struct ccb_client *cl)
{
	cl->rng ^= cl->rng >> 12;
	cl->rng ^= cl->rng << 25;
	cl->rng ^= cl->rng >> 27;
	return cl->rng * 0x2545f4914f6cdd1dull;
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

/* Describe an op failure once per client; the run stops on the first one. */
static void op_failed(struct ccb_client *cl, struct ccb_slot *s, int ret, const char *what)
{
	struct ccb_run *run = cl->run;

	cl->errors++;
	if (cl->tl)
		ccb_timeline_error(run->timeline, cl->tl, ccb_now_nsec() - run->start_nsec);
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
		if (cl->tl)
			ccb_timeline_op(run->timeline, cl->tl, s->start_nsec - run->start_nsec,
			                s->end_nsec - run->start_nsec, lat);
		if (cl->attr)
			ccb_attr_record(cl->attr, s->osd_slot, lat, s->len_bytes);
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
		} else if (cl->attr) {
			/* Its completion is reaped on this thread, after this. */
			s->osd_slot = ccb_attr_resolve(cl, s);
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
	if (cl->tl)
		ccb_timeline_client_end(run->timeline, cl->tl);
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
	if (run->timeline && !(cl->tl = calloc(1, sizeof(*cl->tl))))
		return -ENOMEM;
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
	struct ccb_diag diag;
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
	ccb_run_cluster_state(run, "start");
	ccb_attr_start(run);
	if (run->before_start) {
		r = run->before_start(run, run->before_start_arg);
		if (r < 0)
			goto close;
	}
	r = ccb_run_steady_setup(run);
	if (r < 0)
		goto close;
	if (ccb_run_explain_on(run) && (tasks0 = calloc(CCB_MAX_TASKS, sizeof(*tasks0)))) {
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

	ccb_diag_start(&diag, run);
	/* A watcher that cannot start has stopped the run: the clients drain. */
	if (run->watch && started)
		run->watch->start(run, run->watch_arg);
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
		ccb_run_watch_stall(run, ccb_now_nsec(), &last_ops);
		ccb_run_steady_tick(run, ccb_now_nsec());
		ccb_run_trim_tick(run, ccb_now_nsec(), &last_trim, &trims);
		ccb_progress_tick(&prog, run, ccb_now_nsec());
		if (run->on_tick)
			run->on_tick(run, run->on_tick_arg);
		nanosleep(&ts, NULL);
	}
	ccb_progress_done(&prog);
	ccb_diag_stop(&diag);
	if (run->watch && started)
		run->watch->stop(run, run->watch_arg);
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
	ccb_run_cluster_state(run, "end");
	ccb_attr_finish(run);
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
	ccb_attr_free(run);
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
			if (cl->tl)
				ccb_tl_client_free(cl->tl);
			free(cl->tl);
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
