/*
 * A client's own admin socket: librbd's ObjectCacher counts what its
 * cache served and what it fetched, and says so only through the
 * process's admin socket (perf dump). Its set-up, the counters read at
 * the end, and the socket protocol.
 */
#ifndef CCBENCH_RBD_ASOK_H
#define CCBENCH_RBD_ASOK_H

#include <ccbench/engine.h>
#include <ccbench/options.h>

#include <jansson.h>
#include <rados/librados.h>
#include <stdbool.h>
#include <stddef.h>

/**
 * Send `perf dump` to the admin socket at @p path and parse the reply.
 * Bounded: gives up after @p timeout_ms in all (connect, send, read).
 *
 * @return 0 with *@p out (the caller's), or -errno (-ETIMEDOUT, -EPROTO).
 */
int ccb_rbd_asok_perf_dump(const char *path, int timeout_ms, json_t **out);

/**
 * Give the reader on handle @p r (before it connects) an admin socket of
 * its own, @p asok = DIR/c<idx>.asok, when rbd_cache is on and the user set
 * no admin_socket. The first call makes @p dir (mkdtemp; the undo log
 * removes it and the sockets in it). Failing leaves @p asok empty: it costs
 * only the figures.
 */
void ccb_rbd_asok_setup(const struct ccb_opts *o, rados_t r, unsigned idx, char *dir,
                        size_t dir_len, char *asok, size_t asok_len);

/**
 * Add the figures read from @p asok to the run's layout.librbd.cache (on
 * the run's thread, one client after another). A client whose counters
 * cannot be read sets *@p failed and drops the figures of all: a share from
 * some clients only would be wrong.
 */
void ccb_rbd_asok_collect(struct ccb_run *run, const char *asok, bool *failed);

#endif
