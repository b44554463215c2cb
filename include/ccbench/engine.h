/**
 * @file engine.h
 * The run loop: clients x queue-depth slots, stop conditions, watchdog,
 * drain. It drives any path through struct ccb_path_ops and never asks
 * which path it is.
 *
 * Threads: one thread per client owns its slots, histogram and series.
 * Async paths complete on library threads (librados, librbd), which call
 * ccb_slot_done(): it stamps the end time and queues the slot under the
 * client's lock, nothing else. The main thread only reads atomics (for
 * progress) and sets the stop flag.
 *
 * With --rate the same loop runs open: a client fills a free slot only
 * with an arrival that is due by its schedule, and sleeps until the next
 * one (openloop.h). Without it, one predictable branch per op is the cost.
 */
#ifndef CCBENCH_ENGINE_H
#define CCBENCH_ENGINE_H

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/hist.h>
#include <ccbench/options.h>
#include <ccbench/stats.h>
#include <ccbench/steady.h>
#include <ccbench/timeline.h>

struct ccb_path_ops;
struct ccb_client;
struct ccb_openloop;
struct ccb_openloop_run;
struct ccb_attr;
struct ccb_attr_client;

/** Why a run stopped issuing ops (first reason wins). */
enum ccb_stop {
	CCB_STOP_NONE = 0,
	CCB_STOP_DONE,    /**< duration, total or the path's work ran out */
	CCB_STOP_SIGNAL,  /**< SIGINT / SIGTERM */
	CCB_STOP_TIMEOUT, /**< an op outlived --op-timeout */
	CCB_STOP_ERROR,   /**< an op failed with an error that ends the run */
};

/** What a run does; each path maps these onto its own calls. */
enum ccb_mode {
	CCB_MODE_WRITE,     /**< sequential writes (rados: whole objects) */
	CCB_MODE_SEQ,       /**< sequential reads */
	CCB_MODE_RAND,      /**< random reads */
	CCB_MODE_RANDWRITE, /**< random writes */
	CCB_MODE_RW,        /**< mixed, --rw-mix-read and --pattern */
};

/** One in-flight op and its buffer, allocated once per client. */
struct ccb_slot {
	struct ccb_client *cl;
	unsigned idx;
	char *buf;
	uint64_t buf_bytes; /**< capacity of buf */
	uint64_t len_bytes; /**< bytes of the current op */
	uint64_t offset;    /**< path-defined position (object offset, device offset) */
	uint64_t object;    /**< path-defined target (object index) */
	uint64_t start_nsec;
	uint64_t intended_nsec; /**< open loop: the op's intended start (openloop.h) */
	uint64_t end_nsec;      /**< written by ccb_slot_done() */
	int ret;                /**< written by ccb_slot_done(): bytes or -errno */
	bool busy;
	int32_t osd_slot; /**< attribution: the slot of the OSD the op went to (attribution.h) */
	void *io;         /**< the path's per-op handle (a completion) */
	struct ccb_slot *next_done;
};

struct ccb_client {
	struct ccb_run *run;
	unsigned idx;
	void *path_data; /**< the path's per-client state (connection, handle) */
	struct ccb_slot *slots;
	unsigned n_slots;
	unsigned in_flight;

	/* Completion queue, fed by library threads. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ccb_slot *done_head, *done_tail;
	atomic_uint signalling; /**< ccb_slot_done() calls past the lock, not yet returned */
	bool polling;           /**< --busy-poll: set before the thread starts, then read-only */
	atomic_bool done_ready; /**< polling: done_head is not empty (set and cleared under lock) */

	/* Owned by the client thread; read by others only after join. */
	struct ccb_hist hist;
	struct ccb_series series;
	uint64_t errors;
	int first_error; /**< -errno of the first failed op */
	char first_error_msg[256];
	bool stranded; /**< ops still in flight after the drain deadline */
	uint64_t first_op_nsec, last_op_nsec;

	/* Read by the progress printer. */
	atomic_uint_fast64_t bytes_done;
	atomic_uint_fast64_t ops_done;
	atomic_uint_fast64_t lat_sum_nsec;
	atomic_uint in_flight_now;

	pthread_t thread;
	bool joined;      /**< main thread only */
	char *shared_buf; /**< the one write buffer of all slots (run->shared_buf) */
	uint64_t rng;     /**< random state for the path's offsets (client thread only) */
	/** The client thread's own CPU time, set as it ends. */
	uint64_t cpu_nsec;
	/** --rate: this client's schedule, backlog and latencies; NULL: closed loop. */
	struct ccb_openloop *ol;
	/** Its share of the run's timeline (run->timeline set), else NULL. */
	struct ccb_tl_client *tl;
	/** Per-OSD figures (attribution.h), client thread only; NULL: not kept. */
	struct ccb_attr_client *attr;
	/** The client's librados instance id (client.ID in the OSDs' op
	 *  descriptions), set by a path's client_open; 0: none. */
	uint64_t instance_id;
};

struct ccb_run;

/**
 * A watcher of a run from a wing above the engine (the fault schedule,
 * src/fault/), so that the engine calls up through this table, never by
 * name. Both on the main thread.
 */
struct ccb_run_watch {
	/** The clients run and the clock started (run->start_nsec). A negative
	 *  return has stopped the run (the watcher gave the reason). */
	int (*start)(struct ccb_run *run, void *arg);
	/** Every client ended (before the cluster's state at the end is read). */
	void (*stop)(struct ccb_run *run, void *arg);
};

/** One point of work: a plain run, or one point of a sweep. */
struct ccb_run {
	const struct ccb_opts *opts;
	const struct ccb_path_ops *ops;
	const char *command; /**< "rados write", ... */
	enum ccb_mode mode;
	bool is_write;
	bool no_space;   /**< the data pool's space is not read around the run (run_pools.c) */
	void *path_data; /**< the path's per-run state */
	struct ccb_client *clients;
	unsigned n_clients;
	uint64_t queue_depth;
	uint64_t op_bytes;      /**< bytes of one op: the path's op size option (-b,
	                         *   --io-size, --block-size); set before prepare() */
	uint64_t buf_bytes;     /**< per-slot buffer size */
	bool shared_buf;        /**< set by prepare(): write slots may share one buffer,
	                         *   because the library copies it at submit or only reads it */
	uint64_t total_bytes;   /**< stop after this many bytes issued; 0 = no limit */
	uint64_t duration_usec; /**< 0 = no limit */
	uint64_t pass_bytes;    /**< set by prepare(): the bytes after which the path's
	                         *   own work runs out (one pass over an image), 0 = none */

	uint64_t start_nsec, end_nsec;
	atomic_int stop; /**< enum ccb_stop */
	atomic_uint_fast64_t issued_bytes;
	pthread_mutex_t reason_lock;
	char reason[256];
	int error_ret; /**< -errno that ended the run (CCB_STOP_ERROR/TIMEOUT) */
	int signal;    /**< signal number for CCB_STOP_SIGNAL */
	char fsid[64];
	int (*before_start)(struct ccb_run *run, void *arg); /**< see struct ccb_point */
	void *before_start_arg;
	/** Called by the supervisor (main thread) every tick while the clients
	 *  run, about 20 times a second; it must not block (see struct ccb_point). */
	void (*on_tick)(struct ccb_run *run, void *arg);
	void *on_tick_arg;
	bool bad_input; /**< prepare() failed on the user's input: exit 2 */
	/** Supervisor: when completions stopped with ops in flight (0: they did not). */
	atomic_uint_fast64_t stalled_since_nsec;
	char stall_why[160]; /**< the path's word on the stall (under reason_lock) */
	json_t *warnings;    /**< array of strings */
	json_t *layout;      /**< object: path-specific description */
	/** A rados_t the path's prepare() lends for read-only mon queries
	 *  (the cluster state at start and end), or NULL. */
	void *mon;
	/** Object: what the engine measured for explain (cluster_state,
	 *  network, thread_cpu, stall_diagnosis); top-level result fields. */
	json_t *extra;
	/** --until-steady's detector, fed by the supervisor (NULL: not asked). */
	struct ccb_steady *steady;
	/** --rate: the open loop's parameters (NULL: closed loop), see openloop.h. */
	struct ccb_openloop_run *openloop;
	/** Per-second latency and completion ticks (timeline.h), owned by whoever
	 *  set it before ccb_run_execute(); NULL: not kept. */
	struct ccb_timeline *timeline;
	/** See struct ccb_run_watch; NULL: none. */
	const struct ccb_run_watch *watch;
	void *watch_arg;
	/** Where the time went (attribution.h); NULL: off or not started. */
	struct ccb_attr *attr;
};

/** Seconds without a completion (ops in flight) before the path is asked why. */
#define CCB_STALL_CHECK_SEC 2

/** Value returned by ccb_path_ops.submit when the path has no work left. */
#define CCB_SUBMIT_END 1

/**
 * Next pseudo-random number of client @p cl (xorshift64*): cheap and good
 * enough to pick objects and offsets. Seeded per client and process.
 */
uint64_t ccb_client_rand(struct ccb_client *cl);

/** A run's counters so far, summed over its clients. */
struct ccb_run_totals {
	uint64_t bytes, ops, lat_sum_nsec, in_flight;
};

/**
 * Sum the clients' counters of @p run into @p t: relaxed reads of what
 * the client threads publish, for the progress line and the supervisor
 * (each counter only grows; the sum is not one instant's). In
 * src/run/engine_totals.c, below both.
 */
void ccb_run_totals(const struct ccb_run *run, struct ccb_run_totals *t);

/**
 * Called by an async path when an op completes, from any thread. Stamps
 * the end time, stores @p ret (bytes or -errno) and wakes the client.
 */
void ccb_slot_done(struct ccb_slot *s, int ret);

/**
 * Ask a run to stop issuing (from any thread). The first reason sticks;
 * @p fmt describes it for the result.
 */
void ccb_run_stop(struct ccb_run *run, enum ccb_stop why, int err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/** Add a warning string to the result. */
void ccb_run_warn(struct ccb_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * Run: open clients, start them together, supervise (progress, signals),
 * drain, close. The path's prepare() must have run already.
 *
 * @return 0 when the run produced a result (check run->stop for how it
 *         ended), -errno when no client could be opened.
 */
int ccb_run_execute(struct ccb_run *run);

/** Release what ccb_run_execute() allocated (safe on stranded clients). */
void ccb_run_free(struct ccb_run *run);

/** Set by the signal handler; the supervisor turns it into CCB_STOP_SIGNAL. */
extern volatile sig_atomic_t ccb_signal_pending;

/** Install SIGINT/SIGTERM/SIGHUP/SIGPIPE handlers: the first sets ccb_signal_pending,
 *  repeats go to ccb_undo_on_signal(). */
void ccb_signals_install(void);

#endif
