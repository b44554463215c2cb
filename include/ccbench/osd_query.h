/**
 * @file osd_query.h
 * One read-only admin command (`perf dump`, `dump_historic_ops_by_duration`)
 * to many OSDs at once, as `ceph tell osd.N` sends it (rados_osd_command),
 * a few threads in parallel. Each command is bounded by the handle's
 * rados_osd_op_timeout: the caller connects with the bound it wants
 * (ccb_cluster_connect_bounded() with --connect-timeout), so an OSD that
 * does not answer costs at most that, and is named in the answers.
 */
#ifndef CCBENCH_OSD_QUERY_H
#define CCBENCH_OSD_QUERY_H

#include <stddef.h>

#include <jansson.h>
#include <rados/librados.h>

/** Threads that ask OSDs at once. */
#define CCB_OSD_QUERY_THREADS 8

/** One OSD's answer. */
struct ccb_osd_answer {
	int osd;
	json_t *reply;  /**< the parsed reply (the caller's), or NULL */
	int err;        /**< 0, or the -errno of the command (-ETIMEDOUT, -EACCES) */
	double seconds; /**< how long the OSD took to answer (or to fail) */
};

/**
 * Send @p cmd (its JSON text) to each OSD of @p osds (@p n of them) on
 * @p r, at most CCB_OSD_QUERY_THREADS at a time; answers in @p out (@p n of
 * them, in the order of @p osds). Never fails as a whole: each OSD's
 * outcome is in its answer.
 */
void ccb_osd_query(rados_t r, const int *osds, size_t n, const char *cmd,
                   struct ccb_osd_answer *out);

/** Release the replies of @p a (@p n answers). */
void ccb_osd_answers_free(struct ccb_osd_answer *a, size_t n);

#endif
