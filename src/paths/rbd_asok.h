/*
 * A client's own admin socket: librbd's ObjectCacher counts what its
 * cache served and what it fetched, and says so only through the
 * process's admin socket (perf dump).
 */
#ifndef CCBENCH_RBD_ASOK_H
#define CCBENCH_RBD_ASOK_H

#include <jansson.h>

/**
 * Send `perf dump` to the admin socket at @p path and parse the reply.
 * Bounded: gives up after @p timeout_ms in all (connect, send, read).
 *
 * @return 0 with *@p out (the caller's), or -errno (-ETIMEDOUT, -EPROTO).
 */
int ccb_rbd_asok_perf_dump(const char *path, int timeout_ms, json_t **out);

#endif
