/**
 * @file osd_perf.h
 * The OSD's own counters that place an op's time (`perf dump`, read
 * before and after a run), and their deltas. Each figure has one name in
 * ccbench's results and the names the releases use for it; a counter a
 * release or an object store does not have is left out (memstore has no
 * BlueStore section).
 *
 *   op_r_latency, op_w_latency, op_rw_latency   an op, received to reply
 *   op_r_process_latency, op_w_process_latency  from the op queue to reply
 *   op_before_queue_op_lat                      received to queued
 *   op_before_dequeue_op_lat                    received to taken off the queue
 *   subop_w_latency                             a replica's write (on the replica)
 *   store_commit_latency                        BlueStore: a transaction's commit
 *                                               (commit_lat; txc_commit_lat since Quincy)
 */
#ifndef CCBENCH_OSD_PERF_H
#define CCBENCH_OSD_PERF_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

/** The latency counters kept (index into struct ccb_osd_perf). */
enum ccb_osd_counter {
	CCB_OSDC_OP_R,
	CCB_OSDC_OP_W,
	CCB_OSDC_OP_RW,
	CCB_OSDC_OP_R_PROCESS,
	CCB_OSDC_OP_W_PROCESS,
	CCB_OSDC_BEFORE_QUEUE,
	CCB_OSDC_BEFORE_DEQUEUE,
	CCB_OSDC_SUBOP_W,
	CCB_OSDC_STORE_COMMIT,
	CCB_OSDC_N
};

/** The plain counts kept (index into struct ccb_osd_perf.ops). */
enum ccb_osd_count {
	CCB_OSDN_OP_R,         /**< reads served (osd.op_r) */
	CCB_OSDN_OP_W,         /**< writes (osd.op_w) */
	CCB_OSDN_OP_RW,        /**< read-modify-writes (osd.op_rw) */
	CCB_OSDN_SUBOP_W,      /**< replica writes done for a primary (osd.subop_w) */
	CCB_OSDN_OP_IN_BYTES,  /**< client bytes in (osd.op_in_bytes) */
	CCB_OSDN_OP_OUT_BYTES, /**< client bytes out (osd.op_out_bytes) */
	CCB_OSDN_N
};

/** One `perf dump`'s figures. */
struct ccb_osd_perf {
	bool have[CCB_OSDC_N];
	uint64_t count[CCB_OSDC_N];
	double sum_s[CCB_OSDC_N];
	bool have_n[CCB_OSDN_N];
	uint64_t n[CCB_OSDN_N];
};

/** The result's name of counter @p c ("op_w_latency"), or NULL past the end. */
const char *ccb_osd_counter_name(unsigned c);

/** The result's name of count @p c ("op_r"), or NULL past the end. */
const char *ccb_osd_count_name(unsigned c);

/**
 * Read the figures of a `perf dump` reply @p dump into @p p, under any of
 * the names the releases use; a counter that is missing, or not a
 * {avgcount, sum} of sane values, is left out (have false).
 * @return 0, or -EBADMSG when @p dump has no "osd" section.
 */
int ccb_osd_perf_parse(const json_t *dump, struct ccb_osd_perf *p);

/**
 * What happened between two dumps of one OSD: {counters: {NAME: {n,
 * mean_us}}, NAME_OF_COUNT: delta, ...}, counters with no op between them
 * left out. An OSD whose counters went back (it restarted between the
 * dumps) gives {restarted: true} alone. New reference, NULL on ENOMEM.
 */
json_t *ccb_osd_perf_delta(const struct ccb_osd_perf *before, const struct ccb_osd_perf *after);

#endif
