/**
 * @file pg_map.h
 * Where a RADOS object lives, as the cluster says: the object's PG from
 * the pool's own hash of its name (Ceph's rjenkins or linux string hash,
 * over "NAMESPACE\037NAME" in a namespace) and ceph_stable_mod() over the
 * pool's pg_num, then the PG's acting set and acting primary from the
 * cluster's PG map (the mgr's `pg dump pgs_brief`, or the mon's `pg map
 * PGID` for a key without mgr caps). No CRUSH is computed here: the map is
 * the cluster's answer, read once before a run and once after it.
 *
 * The lookup (ccb_pg_map_locate()) touches no lock and allocates nothing,
 * so a client thread may call it per op.
 */
#ifndef CCBENCH_PG_MAP_H
#define CCBENCH_PG_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <rados/librados.h>

/** osd dump's "object_hash" values (Ceph's CEPH_STR_HASH_*). */
#define CCB_STR_HASH_LINUX    1
#define CCB_STR_HASH_RJENKINS 2

/** Most OSDs in one PG's acting set that the map keeps (EC 16+4 fits). */
#define CCB_PG_ACTING_MAX 24

/** The mon's `pg map` is asked PG by PG; beyond this many PGs it is not asked. */
#define CCB_PG_MAP_MON_MAX 4096

/** One pool's placement: pg_num and each PG's acting set. */
struct ccb_pg_pool {
	int64_t id;
	char name[128];
	uint32_t pg_num;      /**< PGs (pg ids 0 .. pg_num - 1) */
	uint32_t pg_num_mask; /**< (1 << bits(pg_num - 1)) - 1, as Ceph keeps it */
	int object_hash;      /**< CCB_STR_HASH_* */
	unsigned size;        /**< replicas (or k + m) */
	bool erasure;
	/** Per PG: the acting primary (-1: not in the map). */
	int32_t *primary;
	/** Per PG: CCB_PG_ACTING_MAX OSDs of its acting set, -1 after the last. */
	int32_t *acting;
};

/** The PG map of the pools a run uses. */
struct ccb_pg_map {
	struct ccb_pg_pool *pools;
	size_t n_pools;
	/** "mgr pg dump" or "mon pg map": where the acting sets came from. */
	const char *source;
	/** PGs of these pools the answer did not name (not yet created, or a
	 *  mon that did not answer for them). */
	size_t missing;
};

/** Ceph's ceph_str_hash_rjenkins() (Bob Jenkins' lookup2, initial value 0). */
uint32_t ccb_str_hash_rjenkins(const char *s, size_t len);

/** Ceph's ceph_str_hash_linux() (the dcache hash). */
uint32_t ccb_str_hash_linux(const char *s, size_t len);

/**
 * The pool's hash of object @p name in namespace @p nspace (NULL or "":
 * none), as pg_pool_t::hash_key() makes it: the raw PG seed that `ceph osd
 * map` prints as the pool id's suffix ("5.8d396601"). @p object_hash is a
 * CCB_STR_HASH_* value. Names longer than 4 KiB (with the namespace) hash
 * as their first 4 KiB: no RADOS object name is that long.
 */
uint32_t ccb_object_hash(int object_hash, const char *nspace, const char *name);

/** Ceph's ceph_stable_mod(): the PG of raw seed @p x in a pool of @p pg_num PGs. */
uint32_t ccb_stable_mod(uint32_t x, uint32_t pg_num, uint32_t pg_num_mask);

/** The pg_num_mask of a pool of @p pg_num PGs (0 for 0 or 1 PG). */
uint32_t ccb_pg_num_mask(uint32_t pg_num);

/**
 * Add pool @p pool_id to @p map from the mon's `osd dump` reply @p osd_dump
 * (its pg_num, object_hash, size, type, name); its PGs' acting sets are
 * unknown (-1) until a PG map is read into it. Adding a pool twice is a
 * no-op. Figures are checked: pg_num 1 to 2^24, a known object_hash.
 * @return 0, -ENOENT (no such pool in the reply), -EBADMSG (bad figures),
 *         -ENOMEM.
 */
int ccb_pg_map_add_pool(struct ccb_pg_map *map, const json_t *osd_dump, int64_t pool_id);

/**
 * Read the mgr's `pg dump pgs_brief` reply @p reply ({"pg_stats": [...]},
 * or the bare array older releases give) into the pools of @p map: each
 * PG's acting set and acting_primary. PGs of other pools are skipped;
 * entries that do not parse (a pgid that is not POOL.HEX, an OSD id out of
 * range) are skipped and counted in map->missing with the PGs never named.
 * @return 0, or -EBADMSG when @p reply has no list of PGs.
 */
int ccb_pg_map_parse_brief(struct ccb_pg_map *map, const json_t *reply);

/**
 * Read one mon `pg map PGID` reply ({"pgid", "acting": [...]}, with
 * "acting_primary" where the release gives it, else the first of acting)
 * into @p map. @return 0, -ENOENT (a pool or PG @p map does not hold),
 * -EBADMSG.
 */
int ccb_pg_map_parse_pg_map(struct ccb_pg_map *map, const json_t *reply);

/** The pool @p pool_id of @p map, or NULL. */
const struct ccb_pg_pool *ccb_pg_map_pool(const struct ccb_pg_map *map, int64_t pool_id);

/**
 * Where object @p name (in @p nspace) of pool @p p lives: its PG in *@p pg
 * (may be NULL) and the PG's acting primary, or -1 when the map does not
 * name it. No lock, no allocation.
 */
int32_t ccb_pg_map_locate(const struct ccb_pg_pool *p, const char *nspace, const char *name,
                          uint32_t *pg);

/**
 * The PGs of @p before's pools whose acting set or primary differs in
 * @p after (or that only one of them names): [{pgid, before: {acting,
 * primary}, after: {...}}], at most @p max of them listed; *@p n_moved gets
 * how many differ in all. New array, NULL on ENOMEM.
 */
json_t *ccb_pg_map_moved(const struct ccb_pg_map *before, const struct ccb_pg_map *after,
                         size_t max, size_t *n_moved);

/**
 * Read @p map's PGs from the cluster on @p r: the mgr's `pg dump pgs_brief`
 * (mgr cap `allow r`), else, when the mgr refuses (EACCES) and the pools
 * hold at most CCB_PG_MAP_MON_MAX PGs, the mon's `pg map` for each PG
 * (mon cap `profile rbd` or `allow r` has it). Each command is bounded by
 * the handle's rados_mon_op_timeout. map->source says which answered.
 * @return 0 (map->missing may still count PGs not named), or the -errno of
 *         the mgr's command (-EACCES when neither may be asked), with the
 *         reason in @p err.
 */
int ccb_pg_map_read(rados_t r, struct ccb_pg_map *map, char *err, size_t err_len);

/** A copy of @p src's pools (names, pg_num, hash) with no acting sets, for a second read. */
int ccb_pg_map_clone_pools(const struct ccb_pg_map *src, struct ccb_pg_map *dst);

/** Release what @p map holds (it may be partly filled); it is then empty. */
void ccb_pg_map_free(struct ccb_pg_map *map);

#endif
