/**
 * @file progress.h
 * Live progress on stderr, once a second: one redrawn line on a TTY, one
 * line per second otherwise. Reads only the clients' atomics.
 */
#ifndef CCBENCH_PROGRESS_H
#define CCBENCH_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include <ccbench/engine.h>

struct ccb_progress {
	bool enabled;
	bool tty;
	uint64_t last_nsec;
	uint64_t last_bytes, last_ops, last_lat_nsec;
	unsigned lines;
	bool stall_shown; /**< the last line carried a stall note */
};

void ccb_progress_init(struct ccb_progress *p, bool quiet);

/** Print a line if a second has passed since the last one. */
void ccb_progress_tick(struct ccb_progress *p, struct ccb_run *run, uint64_t now_nsec);

/** End the redrawn line (newline on a TTY). */
void ccb_progress_done(struct ccb_progress *p);

#endif
