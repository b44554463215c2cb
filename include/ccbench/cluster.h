/**
 * @file cluster.h
 * Connecting the way the ceph CLIs do: conf file, cluster name, entity
 * name, keyring, CEPH_ARGS, -o KEY=VALUE, with bounded timeouts.
 */
#ifndef CCBENCH_CLUSTER_H
#define CCBENCH_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <rados/librados.h>

#include <ccbench/options.h>

/**
 * Build a configured but unconnected handle: checks the conf file, every
 * -o key and value, CEPH_ARGS. Sends nothing to the cluster, so bad input
 * can be refused before the cluster is touched.
 *
 * @return 0, or -EINVAL (bad input; message in @p err), or another
 *         -errno from librados.
 */
int ccb_cluster_configure(const struct ccb_opts *o, rados_t *out, char *err, size_t err_len);

/**
 * Configure and connect. Bounded by --connect-timeout.
 *
 * @return 0, -EINVAL (bad input), -ETIMEDOUT, or another -errno, with the
 *         reason in @p err.
 */
int ccb_cluster_connect(const struct ccb_opts *o, rados_t *out, char *err, size_t err_len);

/**
 * Configure and connect a handle of one's own for a few bounded calls (a
 * restore, an undo): every OSD op times out after @p op_timeout_s seconds
 * (a string, as librados takes it).
 *
 * @return as ccb_cluster_connect(); on failure nothing is left to shut down.
 */
int ccb_cluster_connect_bounded(const struct ccb_opts *o, const char *op_timeout_s, rados_t *out,
                                char *err, size_t err_len);

/**
 * Add to crash record @p rec how this run connects ("entity", "conf" and
 * "keyring" as absolute paths), so that `ccbench restore` can connect the
 * same way from another process. @return 0 or -ENOMEM.
 */
int ccb_cluster_record_conn(const struct ccb_opts *o, json_t *rec);

/**
 * Whether the connection fields of crash record @p rec are what
 * ccb_cluster_record_conn() writes (absolute printable paths, an entity
 * TYPE.ID): else false, and @p what says which is not.
 */
bool ccb_cluster_record_conn_valid(const json_t *rec, const char **what);

/**
 * Connect as the run of crash record @p rec did, for `ccbench restore`:
 * the options of restore's own command line @p given first, else the
 * record's (its conf only while that file is still readable); every OSD op
 * bounded by @p op_timeout_s; and only to the cluster of the record's
 * "fsid". @p what names the record's change in @p msg ("OSD-side latency
 * of cluster F").
 *
 * @return 0 (connected: @p out is the caller's), or -errno with @p msg
 *         saying why, the record kept: -EINVAL another cluster, -EIO (or
 *         another) no connection.
 */
int ccb_cluster_connect_record(const json_t *rec, const struct ccb_opts *given,
                               const char *op_timeout_s, const char *what, rados_t *out, char *msg,
                               size_t msg_len);

/**
 * Connect a handle from ccb_cluster_configure() (after the caller's own
 * rados_conf_set calls). On failure the handle stays the caller's.
 *
 * @return 0, -ETIMEDOUT, or another -errno, with the reason in @p err.
 */
int ccb_cluster_connect_handle(rados_t r, const struct ccb_opts *o, char *err, size_t err_len);

/**
 * Simulated OSD latency on the unconnected handle @p r, on this client only
 * (--sim-osd-latency): librados delays each message from an OSD by a
 * uniform 0 to 2 x @p usec (ms_inject_delay_type=osd), about @p usec on
 * average. A kernel client cannot get it: see osd_inject.h for the
 * OSD-side latency both get.
 *
 * @return 0, or -errno of rados_conf_set with the key in @p err.
 */
int ccb_cluster_set_sim_latency(rados_t r, uint64_t usec, char *err, size_t err_len);

/**
 * Open an io context on --pool / --namespace.
 *
 * @return 0, -ENOENT when the pool does not exist, or another -errno.
 */
int ccb_cluster_ioctx(rados_t r, const struct ccb_opts *o, rados_ioctx_t *out, char *err,
                      size_t err_len);

/**
 * Split a --set KEY=VALUE into @p key and @p value (pointing into
 * @p setting), for rados_conf_set and ceph_conf_set alike.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_cluster_split_set(const char *setting, char *key, size_t key_len, const char **value,
                          char *err, size_t err_len);

/**
 * How one library takes its configuration, so that each connection rule
 * is written once (ccb_cluster_conf_apply()) for librados and libcephfs.
 */
struct ccb_conf_ops {
	const char *lib; /**< "rados", "ceph": names the calls in messages */
	int (*read_file)(void *h, const char *path);
	int (*parse_env)(void *h, const char *var);
	int (*set)(void *h, const char *key, const char *value);
	bool op_timeouts; /**< also rados_mon_op_timeout, rados_osd_op_timeout */
};

/**
 * Apply the connection options to the unconnected handle @p h, in this
 * order: the conf file (-c, $CEPH_CONF, /etc/ceph/$cluster.conf; required
 * unless -o mon_host is given), CEPH_ARGS, -k, the timeouts
 * (client_mount_timeout from --connect-timeout; with op_timeouts the
 * librados monitor and OSD op timeouts too), then every -o KEY=VALUE, so
 * -o overrides the rest.
 *
 * @return 0, or -EINVAL (bad input) or another -errno, the reason in @p err.
 */
int ccb_cluster_conf_apply(const struct ccb_opts *o, const struct ccb_conf_ops *ops, void *h,
                           char *err, size_t err_len);

/** The entity to connect as: -n NAME, else client.ID (-i, default admin). */
const char *ccb_cluster_entity(const struct ccb_opts *o, char *buf, size_t buf_len);

/** The conf path that will be read (from -c, $CEPH_CONF or /etc/ceph/$cluster.conf). */
const char *ccb_cluster_conf_path(const struct ccb_opts *o, char *buf, size_t buf_len);

/**
 * Fold CEPH_ARGS into @p o: the connection options ccbench itself knows
 * (-c, --cluster, -n, -i, -k) are taken when the command line did not give
 * them; the rest is left for librados (rados_conf_parse_env).
 * The strings are kept for the life of the process.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_cluster_apply_ceph_args(struct ccb_opts *o, char *err, size_t err_len);

/**
 * One read-only mon command @p cmd (its JSON text, with "format": "json")
 * and its parsed reply, bounded by the handle's rados_mon_op_timeout
 * (--connect-timeout).
 *
 * @return the reply (the caller's), or NULL with -errno in *@p err when
 *         *@p err was 0 (so a chain of queries keeps its first error):
 *         the mon's, or -EBADMSG for a reply that is not JSON.
 */
json_t *ccb_cluster_mon_json(rados_t r, const char *cmd, int *err);

/**
 * ccb_cluster_mon_json() for a command to the mgr (rados_mgr_command:
 * `pg dump`), bounded by the handle's rados_mon_op_timeout.
 */
json_t *ccb_cluster_mgr_json(rados_t r, const char *cmd, int *err);

/**
 * ccb_cluster_mon_json() for a command to OSD @p osd (`ceph tell osd.N`,
 * through rados_osd_command), bounded by the handle's
 * rados_osd_op_timeout (--op-timeout).
 */
json_t *ccb_cluster_osd_json(rados_t r, int osd, const char *cmd, int *err);

/**
 * ccb_cluster_osd_json() for a reply of counters: when one holds an
 * integer past 64 bits signed (a counter that went below zero prints as
 * 18446744073709551610), it is read again with every integer as a real,
 * so the other counters still count. Its readers take numbers either way.
 */
json_t *ccb_cluster_osd_json_lenient(rados_t r, int osd, const char *cmd, int *err);

/**
 * Whether the osdmap flags text @p flags ("hashpspool,nearfull") holds
 * the flag @p flag as a whole word: "full" is not in "nearfull" nor in
 * "full_quota".
 */
bool ccb_cluster_has_flag(const char *flags, const char *flag);

/**
 * Why I/O to @p pool (or @p pool2, may be NULL) may not progress, from the
 * osdmap alone (one read-only mon command): the pool's full flags, and
 * which OSDs are down. For the engine's stall check: Pacific's clients
 * wait on a full pool instead of failing, so only the map says why.
 *
 * @return -EDQUOT (pool over its quota) or -ENOSPC (pool full), with the
 *         reason in @p why; 0 when nothing in the map stops I/O (@p why
 *         then names down OSDs, or is empty); another -errno when the mon
 *         could not be asked.
 */
int ccb_cluster_diagnose(rados_t r, const char *pool, const char *pool2, char *why, size_t len);

/** osd.@p id's entry of an `osd dump` reply @p dump, or NULL. */
const json_t *ccb_cluster_dump_osd(const json_t *dump, json_int_t id);

#endif
