/**
 * @file attribution.h
 * Where the time went: a run's latency per OSD, from the client's own ops
 * and from the OSDs' own counters (docs/attribution.md).
 *
 * Client side (paths whose table has op_object: rados, librbd): before the
 * clients start, the PG map of the run's data pool is read once
 * (pg_map.h), and each PG's acting primary gets a slot in a compact table
 * of the OSDs the run's PGs map to. An op's first object is named by its
 * path at submit time and resolved to that slot on the client thread
 * (hash, stable mod, one index: no lock, no allocation); at completion the
 * client adds its latency to its own array at that slot (ccb_attr_record()).
 * The arrays merge after join as the histograms do, and across a group's
 * members by addition (attr_json.h).
 *
 * OSD side (every path with a cluster): `perf dump` of each OSD in the
 * run's PGs' acting sets just before the clients start and after the last
 * completion, and each one's slowest recent ops of this run
 * (osd_perf.h, osd_ops.h), on a connection of its own whose OSD commands
 * time out after --connect-timeout. An OSD that does not answer is named
 * and left out; a key that may not ask the OSDs or the mgr gets what it
 * may, and the result says which cap gives the rest. Nothing is changed
 * on the cluster, and the run never fails for any of it.
 *
 * Result "attribution": docs/results.md.
 */
#ifndef CCBENCH_ATTRIBUTION_H
#define CCBENCH_ATTRIBUTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ccbench/hist.h>

struct ccb_run;
struct ccb_client;
struct ccb_slot;
struct ccb_attr;

/** The per-OSD histograms of all clients together stay within this many bytes;
 *  OSDs past it keep counts, sums and maxima, and share one histogram. */
#define CCB_ATTR_HIST_BYTES (64u << 20)
/** ... but at least this many OSDs per client get their own. */
#define CCB_ATTR_HIST_MIN 8
/** OSDs asked for their counters and slow ops, at most. */
#define CCB_ATTR_MAX_OSDS 256
/** Slow ops of the run listed in the result (the stage sums count all found). */
#define CCB_ATTR_SLOW_OPS_LISTED 10
/** PGs that moved listed in the result (all are counted). */
#define CCB_ATTR_MOVED_LISTED 20

/** An op's slot that names no OSD (its PG had no primary in the map). */
#define CCB_ATTR_NONE (-1)

/** Where a run's data objects are, as its path says (struct ccb_path_ops.attr_target). */
struct ccb_attr_target {
	int64_t pool_id;  /**< the pool the ops' objects are in */
	char nspace[128]; /**< their RADOS namespace ("" for none) */
	char prefix[128]; /**< every object name of the run starts with it (its slow ops are matched
	                     by it) */
};

/** One OSD's ops, in one client's array. */
struct ccb_attr_stat {
	uint64_t ops, bytes, sum_nsec, max_nsec;
};

/** A client's per-OSD figures: written by its thread only, read after join. */
struct ccb_attr_client {
	unsigned n_osds;            /**< slots 0 .. n_osds - 1 are OSDs; n_osds: unmapped */
	unsigned n_hist;            /**< slots below this have their own histogram */
	struct ccb_attr_stat *stat; /**< [n_osds + 1] */
	struct ccb_hist *hist;      /**< [n_hist + 1]: the last is shared by the rest */
	uint64_t spanning;          /**< ops that spanned more than one object */
};

/**
 * Add one completed op of @p bytes and @p lat_nsec at slot @p slot to
 * client array @p a: a few additions and one histogram record, on the
 * client's own thread.
 */
static inline void ccb_attr_record(struct ccb_attr_client *a, int32_t slot, uint64_t lat_nsec,
                                   uint64_t bytes)
{
	unsigned i = slot >= 0 && (unsigned)slot < a->n_osds ? (unsigned)slot : a->n_osds;
	struct ccb_attr_stat *st = &a->stat[i];

	st->ops++;
	st->bytes += bytes;
	st->sum_nsec += lat_nsec;
	if (lat_nsec > st->max_nsec)
		st->max_nsec = lat_nsec;
	ccb_hist_record(&a->hist[i < a->n_hist ? i : a->n_hist], lat_nsec);
}

/**
 * Before the clients start (they are open): read the PG map and the OSDs'
 * counters, set up each client's array (cl->attr) when the path names its
 * ops' objects. Does nothing with --attribution off, or for a path that
 * does not talk to a cluster. Never fails the run: what could not be
 * read is said in the result.
 */
void ccb_attr_start(struct ccb_run *run);

/**
 * On the client thread, after submit() started the op of @p s: the slot
 * of the OSD it went to (its first object's primary), or CCB_ATTR_NONE.
 */
int32_t ccb_attr_resolve(struct ccb_client *cl, const struct ccb_slot *s);

/**
 * After the last completion (clients joined): the OSDs' counters and slow
 * ops, the PG map again, the clients' arrays merged; result
 * "attribution" in run->extra.
 */
void ccb_attr_finish(struct ccb_run *run);

/** Release what ccb_attr_start() made (safe when it made nothing). */
void ccb_attr_free(struct ccb_run *run);

#endif
