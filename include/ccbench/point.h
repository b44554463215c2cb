/**
 * @file point.h
 * One point of work, start to finish: prepare through the path, run the
 * engine, finish, build the result, undo what the point changed. A plain
 * command runs one point; a sweep runs many; a group member runs one in
 * step with the others.
 */
#ifndef CCBENCH_POINT_H
#define CCBENCH_POINT_H

#include <jansson.h>

#include <ccbench/engine.h>
#include <ccbench/options.h>

struct ccb_path_ops;

struct ccb_point {
	const char *command;            /**< "rbd read" */
	const char *path;               /**< path name for ccb_path_find() */
	const struct ccb_path_ops *ops; /**< the path's table (NULL: found by path and mode) */
	uint64_t cmd_mask;
	enum ccb_mode mode;
	const struct ccb_opts *opts;
	int argc; /**< recorded in the result */
	char **argv;
	/**
	 * Called after the clients are open, just before the clock starts
	 * (group members wait here for their common start). A negative
	 * return ends the point without measuring.
	 */
	int (*before_start)(struct ccb_run *run, void *arg);
	void *before_start_arg;
	/**
	 * Called on the main thread every supervisor tick while the clients
	 * run (a group member's heartbeat); must not block: the progress line,
	 * signals and stall checks share the thread.
	 */
	void (*on_tick)(struct ccb_run *run, void *arg);
	void *on_tick_arg;
	/**
	 * Called on the main thread once the clients stopped, before the
	 * path's finish and the cleanup (a group member waits for its last
	 * heartbeat here: the seconds its cleanup takes are not time the
	 * cluster did not hear from it). Not called when the clients did not
	 * start.
	 */
	void (*after_run)(struct ccb_run *run, void *arg);
	void *after_run_arg;
	/**
	 * Do not read the data pool's space around a write run: a capacity
	 * step's few seconds of writes say nothing of the pool's amplification,
	 * and reading it waits up to 8 s for the mon's figures to move.
	 */
	bool no_space;
};

/**
 * Run @p pt. On return *@p result holds the result (new reference) when
 * the point measured anything, else NULL.
 *
 * @return the exit status the point deserves: 0 ok, 1 failed or aborted,
 *         2 bad input, 128+N after signal N.
 */
int ccb_point_run(const struct ccb_point *pt, json_t **result);

#endif
