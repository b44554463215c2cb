/**
 * @file cluster.h
 * Connecting the way the ceph CLIs do: conf file, cluster name, entity
 * name, keyring, CEPH_ARGS, -o KEY=VALUE, with bounded timeouts.
 */
#ifndef CCBENCH_CLUSTER_H
#define CCBENCH_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>

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
 * Connect a handle from ccb_cluster_configure() (after the caller's own
 * rados_conf_set calls). On failure the handle stays the caller's.
 *
 * @return 0, -ETIMEDOUT, or another -errno, with the reason in @p err.
 */
int ccb_cluster_connect_handle(rados_t r, const struct ccb_opts *o, char *err, size_t err_len);

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

#endif
