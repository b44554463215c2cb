/**
 * @file sweep_space.h
 * A sweep's space figures: the text table and the CSV's columns. Per point that wrote to a
 * described data pool, the pool's kind, the amplification and the raw bytes per byte stored, mean
 * over its runs.
 */
#ifndef CCBENCH_SWEEP_SPACE_H
#define CCBENCH_SWEEP_SPACE_H

#include <jansson.h>
#include <stdio.h>

/** What a point's writes cost its data pool, mean over the runs that say. */
struct ccb_sweep_space {
	double amplification;  /**< raw bytes added / bytes written */
	double raw_per_stored; /**< raw bytes per byte stored */
	unsigned runs;         /**< runs with a space record */
	unsigned unreliable;   /**< of them, runs other clients wrote beside */
	const json_t *pool;    /**< the data pool's description (the last run's) */
};

/** Fill @p out for sweep point @p p; the number of runs with a space record (0: none). */
unsigned ccb_sweep_space_mean(const json_t *p, struct ccb_sweep_space *out);

/** Print sweep document @p doc's space table to @p out; nothing when no point has one. */
void ccb_sweep_space_table(const json_t *doc, FILE *out);

#endif
