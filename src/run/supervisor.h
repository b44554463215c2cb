/*
 * Private to the engine: what the supervising thread of a run does beside
 * joining its clients (supervisor.c). Each is called by ccb_run_execute()
 * only.
 */
#ifndef CCBENCH_SUPERVISOR_H
#define CCBENCH_SUPERVISOR_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ccb_run;

/*
 * The diagnosis thread: once no op has completed for CCB_STALL_CHECK_SEC
 * while ops are in flight, ask the path why (read-only mon queries, which
 * may block up to the mon op timeout: hence a thread of its own, so that
 * neither progress nor signals wait for the answer). A full pool ends the
 * run at once: Pacific's clients would wait on it until --op-timeout.
 */
struct ccb_diag {
	struct ccb_run *run;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool done;
	bool inited;  /* lock and cond made (the path can say why it stalled) */
	bool started; /* the thread runs */
};

/** Start the diagnosis thread of @p run, if its path can say why it stalled. */
void ccb_diag_start(struct ccb_diag *d, struct ccb_run *run);
/** Stop and join it (bounded by the mon op timeout); safe if never started. */
void ccb_diag_stop(struct ccb_diag *d);

/** A tick: note when completions stop while ops are in flight (for the diagnosis). */
void ccb_run_watch_stall(struct ccb_run *run, uint64_t now, uint64_t *last_ops);

/** --until-steady: set up the detector with the clients open. 0 or -errno. */
int ccb_run_steady_setup(struct ccb_run *run);
/** A tick: feed the detector; stop the run once its window holds. */
void ccb_run_steady_tick(struct ccb_run *run, uint64_t now);

/** A tick: --malloc-trim every so often; @p n counts the trims. */
void ccb_run_trim_tick(struct ccb_run *run, uint64_t now, uint64_t *last, unsigned *n);

/** Whether explain is on for @p run (not --explain=off). */
bool ccb_run_explain_on(const struct ccb_run *run);
/** The cluster's state at @p when, "start" or "end", into the run's extra. */
void ccb_run_cluster_state(struct ccb_run *run, const char *when);

#endif /* CCBENCH_SUPERVISOR_H */
