/*
 * Private to the engine: the threads' CPU for explain (thread_cpu.c).
 */
#ifndef CCBENCH_THREAD_CPU_H
#define CCBENCH_THREAD_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct ccb_run;

/* One thread of this process: its name and user+system CPU in clock ticks. */
struct ccb_task_cpu {
	int tid;
	char name[16];
	uint64_t ticks;
};

#define CCB_MAX_TASKS 512

/** Every thread of this process from /proc/self/task, up to @p max; how many were read. */
size_t ccb_tasks_read(struct ccb_task_cpu *t, size_t max);

/** This host's CPU ticks from /proc/stat: busy (not idle, not iowait) and all. */
bool ccb_host_ticks(uint64_t *busy, uint64_t *all);

/**
 * The CPU of each client thread and of the busiest other threads since
 * @p t0 (@p n0 threads) over @p wall_s, and the host's busy share since
 * @p host0 (busy, all; all 0: unknown). NULL when out of memory.
 */
json_t *ccb_thread_cpu(const struct ccb_run *run, const struct ccb_task_cpu *t0, size_t n0,
                       double wall_s, const uint64_t host0[2]);

#endif
