/*
 * A client's own admin socket: librbd's ObjectCacher counts what its
 * cache served and what it fetched, and says so only through the
 * process's admin socket (counter dump; perf dump before Reef). Its
 * set-up, the counters read at the end, and the socket protocol.
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
 * Send the command @p prefix ("perf dump") to the admin socket at @p path
 * and parse the reply, a JSON object. Bounded: gives up after
 * @p timeout_ms in all (connect, send, read).
 *
 * @return 0 with *@p out (the caller's), or -errno (-ETIMEDOUT; -EPROTO
 *         for a reply that is not a JSON object, such as an older
 *         release's "ERROR: unknown command").
 */
int ccb_rbd_asok_command(const char *path, const char *prefix, int timeout_ms, json_t **out);

/**
 * A `counter dump` reply ({SECTION: [{labels: {}, counters: {}}]}) in the
 * shape of `perf dump` ({SECTION: {counters}}); a labeled instance is
 * "SECTION{label=value,...}". New reference, or NULL when @p counters is
 * not of that shape.
 */
json_t *ccb_rbd_asok_flatten(const json_t *counters);

/**
 * The client's counters in perf dump's shape: `counter dump` (Reef 18
 * and later; `perf dump` is deprecated there and misses labeled
 * counters), else `perf dump` (Pacific 16 has no counter dump), within
 * @p timeout_ms in all. *@p source names the command that answered.
 *
 * @return 0 with *@p out (the caller's), or -errno.
 */
int ccb_rbd_asok_counters(const char *path, int timeout_ms, json_t **out, const char **source);

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
