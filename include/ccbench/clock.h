/**
 * @file clock.h
 * The monotonic clock every measurement and bound uses.
 */
#ifndef CCBENCH_CLOCK_H
#define CCBENCH_CLOCK_H

#include <stdint.h>

/** Monotonic clock (CLOCK_MONOTONIC) in nanoseconds. */
uint64_t ccb_now_nsec(void);

#endif
