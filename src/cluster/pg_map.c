/*
 * Object -> PG -> acting primary, from the cluster's own PG map (pg_map.h).
 *
 * The two string hashes are Ceph's (src/common/ceph_hash.cc): rjenkins is
 * Bob Jenkins' public-domain lookup2 hash with initial value 0, linux the
 * dcache hash. A pool's osd dump names which one it uses ("object_hash").
 * They place an object within its pool; CRUSH, which places a PG on OSDs,
 * is never computed here: the PG map says where each PG is.
 */
#include <ccbench/cluster.h>
#include <ccbench/pg_map.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Highest OSD id taken from a reply: far above any real cluster's. */
#define OSD_ID_MAX     1000000
#define PG_NUM_MAX     (1u << 24)
#define NAME_MAX_BYTES 4096

#define MIX(a, b, c)                                                                               \
	do {                                                                                       \
		a -= b, a -= c, a ^= c >> 13;                                                      \
		b -= c, b -= a, b ^= a << 8;                                                       \
		c -= a, c -= b, c ^= b >> 13;                                                      \
		a -= b, a -= c, a ^= c >> 12;                                                      \
		b -= c, b -= a, b ^= a << 16;                                                      \
		c -= a, c -= b, c ^= b >> 5;                                                       \
		a -= b, a -= c, a ^= c >> 3;                                                       \
		b -= c, b -= a, b ^= a << 10;                                                      \
		c -= a, c -= b, c ^= b >> 15;                                                      \
	} while (0)

static uint32_t le32(const unsigned char *k)
{
	return (uint32_t)k[0] | (uint32_t)k[1] << 8 | (uint32_t)k[2] << 16 | (uint32_t)k[3] << 24;
}

uint32_t ccb_str_hash_rjenkins(const char *s, size_t length)
{
	const unsigned char *k = (const unsigned char *)s;
	uint32_t a = 0x9e3779b9, b = a, c = 0;
	size_t len = length;

	while (len >= 12) {
		a += le32(k);
		b += le32(k + 4);
		c += le32(k + 8);
		MIX(a, b, c);
		k += 12;
		len -= 12;
	}
	/* The last 11 bytes; the first byte of c holds the length. */
	c += (uint32_t)length;
	switch (len) {
	case 11:
		c += (uint32_t)k[10] << 24;
		/* fall through */
	case 10:
		c += (uint32_t)k[9] << 16;
		/* fall through */
	case 9:
		c += (uint32_t)k[8] << 8;
		/* fall through */
	case 8:
		b += (uint32_t)k[7] << 24;
		/* fall through */
	case 7:
		b += (uint32_t)k[6] << 16;
		/* fall through */
	case 6:
		b += (uint32_t)k[5] << 8;
		/* fall through */
	case 5:
		b += k[4];
		/* fall through */
	case 4:
		a += (uint32_t)k[3] << 24;
		/* fall through */
	case 3:
		a += (uint32_t)k[2] << 16;
		/* fall through */
	case 2:
		a += (uint32_t)k[1] << 8;
		/* fall through */
	case 1:
		a += k[0];
		/* fall through */
	default:
		break;
	}
	MIX(a, b, c);
	return c;
}

uint32_t ccb_str_hash_linux(const char *s, size_t len)
{
	/* Ceph computes it in an unsigned long and returns the low 32 bits. */
	uint64_t hash = 0;

	while (len--) {
		uint64_t c = (unsigned char)*s++;
		hash = (hash + (c << 4) + (c >> 4)) * 11;
	}
	return (uint32_t)hash;
}

uint32_t ccb_object_hash(int object_hash, const char *nspace, const char *name)
{
	char buf[NAME_MAX_BYTES];
	size_t nl = nspace ? strlen(nspace) : 0, kl = strlen(name), len;
	const char *key = name;

	/* pg_pool_t::hash_key(): the namespace, a unit separator, the name. */
	if (nl) {
		if (nl > sizeof(buf) - 1)
			nl = sizeof(buf) - 1;
		memcpy(buf, nspace, nl);
		buf[nl] = '\037';
		if (kl > sizeof(buf) - nl - 1)
			kl = sizeof(buf) - nl - 1;
		memcpy(buf + nl + 1, name, kl);
		key = buf;
		len = nl + 1 + kl;
	} else {
		len = kl;
	}
	return object_hash == CCB_STR_HASH_LINUX ? ccb_str_hash_linux(key, len)
	                                         : ccb_str_hash_rjenkins(key, len);
}

uint32_t ccb_stable_mod(uint32_t x, uint32_t pg_num, uint32_t pg_num_mask)
{
	/* A PG split in half keeps its lower half's objects where they were. */
	if ((x & pg_num_mask) < pg_num)
		return x & pg_num_mask;
	return x & (pg_num_mask >> 1);
}

uint32_t ccb_pg_num_mask(uint32_t pg_num)
{
	uint32_t v = pg_num ? pg_num - 1 : 0, bits = 0;

	while (v) {
		bits++;
		v >>= 1;
	}
	return bits ? (uint32_t)((1ull << bits) - 1) : 0;
}

const struct ccb_pg_pool *ccb_pg_map_pool(const struct ccb_pg_map *map, int64_t pool_id)
{
	for (size_t i = 0; map && i < map->n_pools; i++)
		if (map->pools[i].id == pool_id)
			return &map->pools[i];
	return NULL;
}

static struct ccb_pg_pool *pool_mut(struct ccb_pg_map *map, int64_t pool_id)
{
	return (struct ccb_pg_pool *)ccb_pg_map_pool(map, pool_id);
}

/* Room for @p p's acting sets, all unknown. */
static int pool_alloc(struct ccb_pg_pool *p)
{
	p->primary = malloc(p->pg_num * sizeof(*p->primary));
	p->acting = malloc((size_t)p->pg_num * CCB_PG_ACTING_MAX * sizeof(*p->acting));
	if (!p->primary || !p->acting) {
		free(p->primary);
		free(p->acting);
		p->primary = p->acting = NULL;
		return -ENOMEM;
	}
	memset(p->primary, 0xff, p->pg_num * sizeof(*p->primary));
	memset(p->acting, 0xff, (size_t)p->pg_num * CCB_PG_ACTING_MAX * sizeof(*p->acting));
	return 0;
}

static int append_pool(struct ccb_pg_map *map, const struct ccb_pg_pool *src)
{
	struct ccb_pg_pool *pools = realloc(map->pools, (map->n_pools + 1) * sizeof(*pools));
	struct ccb_pg_pool *p;
	int r;

	if (!pools)
		return -ENOMEM;
	map->pools = pools;
	p = &pools[map->n_pools];
	*p = *src;
	p->primary = p->acting = NULL;
	r = pool_alloc(p);
	if (r < 0)
		return r;
	map->n_pools++;
	return 0;
}

int ccb_pg_map_add_pool(struct ccb_pg_map *map, const json_t *osd_dump, int64_t pool_id)
{
	const json_t *pools = json_object_get(osd_dump, "pools"), *p;
	size_t i;

	if (ccb_pg_map_pool(map, pool_id))
		return 0;
	json_array_foreach(pools, i, p)
	{
		struct ccb_pg_pool np = {.id = pool_id};
		json_int_t pg = json_integer_value(json_object_get(p, "pg_num"));
		json_int_t hash = json_integer_value(json_object_get(p, "object_hash"));
		json_int_t size = json_integer_value(json_object_get(p, "size"));
		const char *name = json_string_value(json_object_get(p, "pool_name"));

		if (!json_is_integer(json_object_get(p, "pool")) ||
		    json_integer_value(json_object_get(p, "pool")) != pool_id)
			continue;
		if (pg < 1 || pg > PG_NUM_MAX ||
		    (hash != CCB_STR_HASH_LINUX && hash != CCB_STR_HASH_RJENKINS) || size < 0 ||
		    size > CCB_PG_ACTING_MAX)
			return -EBADMSG;
		np.pg_num = (uint32_t)pg;
		np.pg_num_mask = ccb_pg_num_mask(np.pg_num);
		np.object_hash = (int)hash;
		np.size = (unsigned)size;
		/* osd dump's pool type: 1 replicated, 3 erasure. */
		np.erasure = json_integer_value(json_object_get(p, "type")) == 3;
		snprintf(np.name, sizeof(np.name), "%s", name ? name : "");
		return append_pool(map, &np);
	}
	return -ENOENT;
}

int ccb_pg_map_clone_pools(const struct ccb_pg_map *src, struct ccb_pg_map *dst)
{
	for (size_t i = 0; i < src->n_pools; i++) {
		int r = append_pool(dst, &src->pools[i]);
		if (r < 0)
			return r;
	}
	return 0;
}

/* "5.1f" into its pool and PG; false when it is not POOL.HEX. */
static bool parse_pgid(const char *s, int64_t *pool, uint32_t *pg)
{
	char *end;
	long long p;
	unsigned long long g;

	if (!s)
		return false;
	p = strtoll(s, &end, 10);
	if (end == s || *end != '.' || p < 0)
		return false;
	s = end + 1;
	g = strtoull(s, &end, 16);
	if (end == s || *end || g >= PG_NUM_MAX)
		return false;
	*pool = p;
	*pg = (uint32_t)g;
	return true;
}

static bool osd_id_ok(const json_t *v)
{
	return json_is_integer(v) && json_integer_value(v) >= -1 &&
	       json_integer_value(v) <= OSD_ID_MAX;
}

/* Store one PG's acting set and primary; false when the entry is malformed. */
static bool set_pg(struct ccb_pg_pool *p, uint32_t pg, const json_t *acting, const json_t *primary)
{
	int32_t *a;
	const json_t *v;
	size_t i;

	if (pg >= p->pg_num || !json_is_array(acting) ||
	    json_array_size(acting) > CCB_PG_ACTING_MAX)
		return false;
	json_array_foreach(acting, i, v) if (!osd_id_ok(v)) return false;
	if (primary && !osd_id_ok(primary))
		return false;
	a = &p->acting[(size_t)pg * CCB_PG_ACTING_MAX];
	for (i = 0; i < CCB_PG_ACTING_MAX; i++)
		a[i] = i < json_array_size(acting)
		           ? (int32_t)json_integer_value(json_array_get(acting, i))
		           : -1;
	/* A release without acting_primary in its reply: replicated pools put
	 * the primary first (EC pools may not: an approximation there). */
	p->primary[pg] = primary ? (int32_t)json_integer_value(primary) : a[0];
	/* CRUSH_ITEM_NONE (2147483647) is refused above; -1 marks a hole. */
	return true;
}

static size_t count_missing(const struct ccb_pg_map *map)
{
	size_t n = 0;

	for (size_t i = 0; i < map->n_pools; i++)
		for (uint32_t g = 0; g < map->pools[i].pg_num; g++)
			n += map->pools[i].primary[g] < 0;
	return n;
}

int ccb_pg_map_parse_brief(struct ccb_pg_map *map, const json_t *reply)
{
	const json_t *list = json_is_array(reply) ? reply : json_object_get(reply, "pg_stats"), *e;
	size_t i;

	if (!json_is_array(list))
		return -EBADMSG;
	json_array_foreach(list, i, e)
	{
		int64_t pool;
		uint32_t pg;
		struct ccb_pg_pool *p;

		if (!parse_pgid(json_string_value(json_object_get(e, "pgid")), &pool, &pg) ||
		    !(p = pool_mut(map, pool)))
			continue;
		set_pg(p, pg, json_object_get(e, "acting"), json_object_get(e, "acting_primary"));
	}
	map->missing = count_missing(map);
	return 0;
}

int ccb_pg_map_parse_pg_map(struct ccb_pg_map *map, const json_t *reply)
{
	int64_t pool;
	uint32_t pg;
	struct ccb_pg_pool *p;

	if (!parse_pgid(json_string_value(json_object_get(reply, "pgid")), &pool, &pg))
		return -EBADMSG;
	if (!(p = pool_mut(map, pool)) || pg >= p->pg_num)
		return -ENOENT;
	if (!set_pg(p, pg, json_object_get(reply, "acting"),
	            json_object_get(reply, "acting_primary")))
		return -EBADMSG;
	map->missing = count_missing(map);
	return 0;
}

int32_t ccb_pg_map_locate(const struct ccb_pg_pool *p, const char *nspace, const char *name,
                          uint32_t *pg)
{
	uint32_t g;

	if (!p || !p->primary)
		return -1;
	g = ccb_stable_mod(ccb_object_hash(p->object_hash, nspace, name), p->pg_num,
	                   p->pg_num_mask);
	if (pg)
		*pg = g;
	return p->primary[g];
}

static json_t *acting_json(const struct ccb_pg_pool *p, uint32_t pg)
{
	const int32_t *a = &p->acting[(size_t)pg * CCB_PG_ACTING_MAX];
	json_t *arr = json_array();

	for (unsigned i = 0; i < CCB_PG_ACTING_MAX && a[i] >= 0; i++)
		json_array_append_new(arr, json_integer(a[i]));
	return json_pack("{s:o, s:i}", "acting", arr, "primary", p->primary[pg]);
}

json_t *ccb_pg_map_moved(const struct ccb_pg_map *before, const struct ccb_pg_map *after,
                         size_t max, size_t *n_moved)
{
	json_t *list = json_array();

	*n_moved = 0;
	if (!list)
		return NULL;
	for (size_t i = 0; i < before->n_pools; i++) {
		const struct ccb_pg_pool *b = &before->pools[i], *a = ccb_pg_map_pool(after, b->id);

		if (!a || a->pg_num != b->pg_num) {
			/* A split or merge moves every PG: say it once for the pool. */
			*n_moved += b->pg_num;
			if (json_array_size(list) < max)
				json_array_append_new(
				    list,
				    json_pack("{s:s, s:I, s:I}", "pool", b->name, "pg_num_before",
				              (json_int_t)b->pg_num, "pg_num_after",
				              (json_int_t)(a ? a->pg_num : 0)));
			continue;
		}
		for (uint32_t g = 0; g < b->pg_num; g++) {
			const size_t off = (size_t)g * CCB_PG_ACTING_MAX;
			char id[48];

			if (b->primary[g] == a->primary[g] &&
			    memcmp(&b->acting[off], &a->acting[off],
			           CCB_PG_ACTING_MAX * sizeof(*b->acting)) == 0)
				continue;
			++*n_moved;
			if (json_array_size(list) >= max)
				continue;
			snprintf(id, sizeof(id), "%" PRId64 ".%" PRIx32, b->id, g);
			json_array_append_new(list, json_pack("{s:s, s:o, s:o}", "pgid", id,
			                                      "before", acting_json(b, g), "after",
			                                      acting_json(a, g)));
		}
	}
	return list;
}

/* The fallback for a key the mgr refuses: the mon's `pg map`, PG by PG. */
static int read_from_mon(rados_t r, struct ccb_pg_map *map, char *err, size_t err_len)
{
	size_t total = 0;
	int first = 0;

	for (size_t i = 0; i < map->n_pools; i++)
		total += map->pools[i].pg_num;
	if (total > CCB_PG_MAP_MON_MAX) {
		snprintf(
		    err, err_len,
		    "the mgr refused pg dump, and %zu PGs are too many to ask the mon one by one",
		    total);
		return -EACCES;
	}
	for (size_t i = 0; i < map->n_pools; i++) {
		for (uint32_t g = 0; g < map->pools[i].pg_num; g++) {
			char cmd[128];
			int e = 0;
			json_t *j;

			snprintf(cmd, sizeof(cmd),
			         "{\"prefix\": \"pg map\", \"pgid\": \"%" PRId64 ".%" PRIx32
			         "\", \"format\": \"json\"}",
			         map->pools[i].id, g);
			j = ccb_cluster_mon_json(r, cmd, &e);
			if (j)
				e = ccb_pg_map_parse_pg_map(map, j);
			json_decref(j);
			if (e < 0 && !first) {
				first = e;
				snprintf(err, err_len,
				         "mon command pg map %" PRId64 ".%" PRIx32 ": %s",
				         map->pools[i].id, g, strerror(-e));
			}
			/* A mon that times out would time out for every PG. */
			if (e == -ETIMEDOUT)
				return e;
		}
	}
	map->source = "mon pg map";
	map->missing = count_missing(map);
	return 0;
}

int ccb_pg_map_read(rados_t r, struct ccb_pg_map *map, char *err, size_t err_len)
{
	int ret = 0;
	json_t *j = ccb_cluster_mgr_json(
	    r, "{\"prefix\": \"pg dump\", \"dumpcontents\": [\"pgs_brief\"], \"format\": \"json\"}",
	    &ret);

	if (j) {
		ret = ccb_pg_map_parse_brief(map, j);
		json_decref(j);
		if (ret == 0) {
			map->source = "mgr pg dump";
			return 0;
		}
		snprintf(err, err_len, "mgr command pg dump pgs_brief: not a PG list");
		return ret;
	}
	if (ret == -EACCES || ret == -EPERM)
		return read_from_mon(r, map, err, err_len);
	snprintf(err, err_len, "mgr command pg dump pgs_brief: %s", strerror(-ret));
	return ret;
}

void ccb_pg_map_free(struct ccb_pg_map *map)
{
	for (size_t i = 0; i < map->n_pools; i++) {
		free(map->pools[i].primary);
		free(map->pools[i].acting);
	}
	free(map->pools);
	memset(map, 0, sizeof(*map));
}
