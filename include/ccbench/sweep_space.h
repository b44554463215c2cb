/**
 * @file sweep_space.h
 * A sweep's space table (text): per point that wrote to a described data
 * pool, the pool's kind, the amplification and the raw bytes per byte
 * stored, mean over its runs.
 */
#ifndef CCBENCH_SWEEP_SPACE_H
#define CCBENCH_SWEEP_SPACE_H

#include <jansson.h>
#include <stdio.h>

/** Print sweep document @p doc's space table to @p out; nothing when no point has one. */
void ccb_sweep_space_table(const json_t *doc, FILE *out);

#endif
