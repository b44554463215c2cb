/*
 * The one clock of every measurement: monotonic, in nanoseconds. A file of
 * its own, below everything that times something (the engine, the open
 * loop's schedule, the mapping helpers' bounds), so none of them calls up.
 */
#include <ccbench/clock.h>

#include <time.h>

uint64_t ccb_now_nsec(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
