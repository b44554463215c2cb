/**
 * @file osd_ops.h
 * A run's slowest ops as the OSDs saw them: the entries of each OSD's
 * `dump_historic_ops_by_duration` that belong to this run (matched by the
 * clients' librados instance ids and the run's object name prefix), each
 * reduced from its events to stages:
 *
 *   received   the message read and throttled, dispatched, queued
 *              (events throttled, header_read, all_read, dispatched, queued_for_pg)
 *   queued     waiting in the OSD's op queue for its PG (ends at reached_pg)
 *   in_pg      in the PG: started, waiting for a map, a lock, readable
 *              objects; a read's execution and reply
 *   replicas   waiting for the replicas' commits (ends at sub_op_commit_rec)
 *   commit     the OSD's own commit (op_commit, op_applied; a replica's
 *              commit_sent)
 *   reply      the reply sent (commit_sent, done)
 *
 * Each gap between two events (in time order) counts to the stage of the
 * event that ends it, so the stages add up to the op's duration. For a
 * write that waited on replicas, the one that answered last is named from
 * the event ("sub_op_commit_rec from N", where a release says it), else
 * from the replicas' own entries of the same request (osd_repop with the
 * same client.GID.INC:TID): the latest to send its commit. Pacific, Reef
 * and Tentacle write the event without the OSD.
 */
#ifndef CCBENCH_OSD_OPS_H
#define CCBENCH_OSD_OPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

/** The stages (struct ccb_slow_op.stage_s). */
enum ccb_op_stage {
	CCB_STAGE_RECEIVED,
	CCB_STAGE_QUEUED,
	CCB_STAGE_IN_PG,
	CCB_STAGE_REPLICAS,
	CCB_STAGE_COMMIT,
	CCB_STAGE_REPLY,
	CCB_STAGE_N
};

/** Replicas one op can wait for. */
#define CCB_SLOW_OP_REPLICAS 16

/** How the last replica to answer was known (struct ccb_slow_op.last_how). */
enum ccb_last_how {
	CCB_LAST_UNKNOWN,
	CCB_LAST_EVENT,   /**< the primary's event names it */
	CCB_LAST_REPLICA, /**< the replicas' own entries of the request */
	CCB_LAST_ONLY,    /**< it waited for that one replica alone */
};

/** One op of the run, reduced. */
struct ccb_slow_op {
	int osd;        /**< the OSD that listed it */
	bool repop;     /**< a replica's part of a write (osd_repop) */
	bool write;     /**< it waited for a commit */
	char reqid[64]; /**< client.GID.INC:TID */
	char object[160];
	char pgid[24];
	double initiated_s;   /**< wall clock, seconds since the epoch (the OSD's clock) */
	double end_s;         /**< its last event */
	double commit_sent_s; /**< a replica's commit sent (0: none) */
	double stage_s[CCB_STAGE_N];
	int waited_for[CCB_SLOW_OP_REPLICAS];
	unsigned n_waited;
	int last_replica; /**< -1: unknown or none */
	enum ccb_last_how last_how;
};

/** Which ops are the run's. */
struct ccb_ops_filter {
	const uint64_t *gids; /**< the clients' librados instance ids (may be none) */
	size_t n_gids;
	const char *prefix; /**< the run's object names start with it ("" or NULL: any) */
};

/** The result's name of stage @p s ("replicas"), or NULL past the end. */
const char *ccb_op_stage_name(unsigned s);

/**
 * Append the run's ops of OSD @p osd's `dump_historic_ops_by_duration` (or
 * `dump_historic_ops`) reply @p dump to *@p ops (*@p n of them, realloc'd).
 * An op matches when its client is one of @p f's gids (if any are given)
 * and its object name starts with @p f's prefix (if one is given); an op
 * whose description or events do not parse is skipped, and so is one
 * already in *@p ops from the same OSD (its other list).
 * @return how many were appended, or -ENOMEM (what was appended stays).
 */
int ccb_osd_ops_parse(const json_t *dump, int osd, const struct ccb_ops_filter *f,
                      struct ccb_slow_op **ops, size_t *n);

/**
 * Name the last replica to answer of each primary write in @p ops that
 * waited on replicas and whose events do not name it: the replicas' own
 * entries of the same request in @p ops (CCB_LAST_REPLICA), or the one
 * replica it waited for (CCB_LAST_ONLY).
 */
void ccb_osd_ops_last_replica(struct ccb_slow_op *ops, size_t n);

/**
 * The run's slow ops in the result: {found, primary_ops, stages_us {STAGE:
 * sum over the primaries' ops}, stage_share {STAGE: share of their time},
 * last_replica {"osd.N": ops}, replica_wait_share, ops: [the @p max_listed
 * slowest: {osd, kind: op|repop, reqid, object, pgid, duration_us,
 * stages_us, waited_for, last_replica, last_replica_how}]}. New reference.
 */
json_t *ccb_osd_ops_json(const struct ccb_slow_op *ops, size_t n, size_t max_listed);

#endif
