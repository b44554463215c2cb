/**
 * @file group_store.h
 * The group object in RADOS, how members coordinate without a daemon.
 *
 * A group NAME is one object in the group pool, namespace
 * CCB_GROUP_NAMESPACE, whose omap holds:
 *   - "params":          the parameters every member must share (the first
 *                        member's, see ccb_group_params());
 *   - "member.<ID>":     one registration per member {host, pid, command,
 *                        params, registered_at, state, start_realtime...};
 *   - "started":         the start claim {start_realtime, members[], by},
 *                        written once, by whoever saw the N-th member.
 * Beside it, "<NAME>.result.<ID>" holds each member's full result (results
 * outgrow what omap values are meant for). A group with no member left
 * and no start is removed altogether: the empty group is no object.
 *
 * Every change is one atomic RADOS write op guarded by omap comparisons
 * (or the object version), so members racing to register, claim the
 * start, or withdraw cannot lose each other's updates.
 */
#ifndef CCBENCH_GROUP_STORE_H
#define CCBENCH_GROUP_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <rados/librados.h>

#include <ccbench/options.h>

/** RADOS namespace of the group objects, in --group-pool. */
#define CCB_GROUP_NAMESPACE "ccbench-groups"

/** Omap key prefix of a registration: "member.<ID>". */
#define CCB_GROUP_MEMBER_PREFIX "member."

/** After the group name: the object whose omap holds each running
 * member's heartbeat {at, bytes, ops, seconds, beat}, keyed by member id.
 * Beside the group object, not in it: the group object's version then
 * stays still while members run, so its consistent multi-page reads do
 * not restart at every beat of a thousand members. */
#define CCB_GROUP_HEARTBEAT_SUFFIX ".heartbeat"

/** Between the group name and the member id in a result object's name. */
#define CCB_GROUP_RESULT_INFIX ".result."

/** Optimistic updates retry when another member changed the group first. */
#define CCB_GROUP_MAX_ATTEMPTS 200

/** One consistent reading of the group object's omap. */
struct ccb_gstate {
	bool exists;
	uint64_t version;
	json_t *raw; /**< omap key -> its value as a string, byte for byte (for omap_cmp) */
};

/**
 * Read the omap of group object @p oid, every page from one version of
 * the object. A missing object is st->exists false, not an error.
 * ccb_gstate_free() @p st whatever the return.
 *
 * @return 0, -EAGAIN when the object kept changing, or -errno.
 */
int ccb_gstate_read(rados_ioctx_t io, const char *oid, struct ccb_gstate *st);

void ccb_gstate_free(struct ccb_gstate *st);

/** The parsed value of omap key @p key, or NULL. New reference. */
json_t *ccb_gstate_get(const struct ccb_gstate *st, const char *key);

/** The registrations, parsed: {ID: record}. New reference. */
json_t *ccb_gstate_members(const struct ccb_gstate *st);

/** Add "set omap @p key to @p val" to @p op. */
void ccb_gstate_op_set(rados_write_op_t op, const char *key, const char *val);

/** Assert in @p op that omap key @p key holds exactly what @p st read ("" = absent). */
void ccb_gstate_op_cmp(rados_write_op_t op, const struct ccb_gstate *st, const char *key);

/*
 * Every op below is bounded: it is given up after --op-timeout (as set by
 * ccb_group_connect), or at once on a signal that arrives while it waits
 * (a signal already pending does not cut it short: an interrupted run still
 * stores its result).
 */

/** Wait for @p c (an op on @p io) within the bound above, then release it.
 * @return the op's value, -ETIMEDOUT or -EINTR. */
int ccb_group_aio_wait(rados_ioctx_t io, rados_completion_t c);

/** True for the two ways a bounded op is given up: the cluster did not
 * answer in time, or a signal came. */
bool ccb_group_gave_up(int r);

/** Run @p op on @p oid and release it.
 * @return 0, -ETIMEDOUT after --op-timeout, -EINTR on a signal, or -errno. */
int ccb_gstate_write_op(rados_ioctx_t io, const char *oid, rados_write_op_t op);

/** ccb_gstate_write_op() of an op that removes (omap keys, the object),
 * with LIBRADOS_OPERATION_FULL_TRY: a full pool answers it at once. */
int ccb_gstate_remove_op(rados_ioctx_t io, const char *oid, rados_write_op_t op);

/**
 * One bound for the rest of a command (group rm, group report): every op
 * is given up at @p deadline_nsec (ccb_now_nsec()), or its own
 * --op-timeout if sooner. 0: each op its own bound only.
 */
void ccb_group_set_deadline(uint64_t deadline_nsec);

/** Read a whole object (a stored result) into a NUL-terminated buffer
 * (free() it). @return 0, -EFBIG beyond 256 MiB, or -errno. */
int ccb_group_read_object(rados_ioctx_t io, const char *oid, char **out, size_t *out_len);

/** Remove @p oid (FULL_TRY). @return 0, -ETIMEDOUT, -EINTR or -errno (-ENOENT: absent). */
int ccb_group_remove_object(rados_ioctx_t io, const char *oid);

/** Write a whole object in chunks the OSDs accept (osd_max_write_size).
 * @return 0, -ETIMEDOUT after --op-timeout, -EINTR on a signal, or -errno. */
int ccb_group_write_object(rados_ioctx_t io, const char *oid, const char *buf, size_t len);

/** The name of the object holding @p member's result in @p group. */
void ccb_group_result_oid(char *buf, size_t len, const char *group, const char *member);

/** The name of group @p group's heartbeat object. */
void ccb_group_heartbeat_oid(char *buf, size_t len, const char *group);

/**
 * The heartbeats of group @p group, into @p out {ID: record} (values that
 * are not JSON objects left out, at most 2 * CCB_GROUP_MAX_MEMBERS keys
 * read). No heartbeat object is no heartbeat, not an error.
 *
 * @return 0, -ETIMEDOUT after --op-timeout, -EINTR on a signal, or -errno.
 */
int ccb_group_read_heartbeats(rados_ioctx_t io, const char *group, json_t *out);

/** --group-pool, else --pool, else "rbd". */
const char *ccb_group_pool(const struct ccb_opts *o);

/**
 * Connect and open the group pool in CCB_GROUP_NAMESPACE. On failure a
 * message is printed and @p bad_input says whether it was the user's
 * (bad options, no such pool).
 *
 * @return 0, or -errno.
 */
int ccb_group_connect(const struct ccb_opts *o, rados_t *cluster, rados_ioctx_t *io,
                      bool *bad_input);

#endif
