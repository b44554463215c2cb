/*
 * What an erasure-coded data pool does to a run (result "pools.data",
 * "space", "cluster_state"): a write smaller than a full stripe is a
 * read-modify-write on classic EC, a parity-delta write with FastEC; a
 * read smaller than a chunk touches k shards on classic EC, one with
 * FastEC; reads while PGs are degraded are decoded from the surviving
 * shards; and what the write cost in space.
 */
#include "explain_int.h"

#include <stdbool.h>
#include <string.h>

static json_int_t inum(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static bool mode_is(const json_t *r, const char *const *modes)
{
	const char *m = str(r, "mode");

	for (; m && *modes; modes++)
		if (strcmp(m, *modes) == 0)
			return true;
	return false;
}

/* Writes: a partial stripe costs a read of the rest of it first. */
static void ec_write(const json_t *r, const json_t *e, json_int_t k, json_int_t m, double op,
                     bool fast, json_t *list)
{
	double stripe = (double)inum(e, "stripe_width"), su = (double)inum(e, "stripe_unit");
	char ob[32], sb[32], ub[32];

	ccb_explain_fmt_bytes(op, ob, sizeof(ob));
	ccb_explain_fmt_bytes(stripe, sb, sizeof(sb));
	ccb_explain_fmt_bytes(su, ub, sizeof(ub));
	/* rados writes whole objects: full stripes but the object's tail,
	 * which the pool pads to a whole stripe (STORED and USED count it). */
	if (strcmp(str_or(r, "path", ""), "rados") == 0 && stripe > 0 &&
	    (long long)op % (long long)stripe != 0) {
		double padded =
		    (double)(((long long)op + (long long)stripe - 1) / (long long)stripe) * stripe;
		char pb[32];

		ccb_explain_fmt_bytes(padded, pb, sizeof(pb));
		ccb_explain_add(
		    list, "ec", padded >= 1.5 * op ? "warn" : "info",
		    json_pack("{s:f, s:f, s:f}", "op_bytes", op, "stripe_bytes", stripe,
		              "padded_bytes", padded),
		    "%s objects in an erasure-coded %lld+%lld pool: each is padded to whole "
		    "stripes of %s, so it stores %s plus %lld parity chunks: %.2f raw bytes "
		    "per byte written, where whole stripes cost %.2f (objects of a multiple "
		    "of %s avoid it)",
		    ob, (long long)k, (long long)m, sb, pb, (long long)m,
		    padded * (double)(k + m) / (double)k / op, (double)(k + m) / (double)k, sb);
		return;
	}
	if (strcmp(str_or(r, "path", ""), "rados") == 0) {
		ccb_explain_add(
		    list, "ec", "info",
		    json_pack("{s:f, s:f}", "op_bytes", op, "stripe_bytes", stripe),
		    "whole-object writes to an erasure-coded %lld+%lld pool: full "
		    "stripes of %s, no read before the write; each byte costs %lld+%lld "
		    "chunks' worth of space",
		    (long long)k, (long long)m, sb, (long long)k, (long long)m);
		return;
	}
	if (op < stripe || (long long)op % (long long)stripe != 0) {
		if (fast)
			ccb_explain_add(
			    list, "ec", "info",
			    json_pack("{s:f, s:f, s:b}", "op_bytes", op, "stripe_bytes", stripe,
			              "fastec", 1),
			    "%s writes on a %lld+%lld pool with FastEC: a write smaller than a "
			    "full stripe (%lld x %s = %s) is a parity-delta write (the changed "
			    "chunks and the %lld parity chunks read and written, not the "
			    "whole stripe)",
			    ob, (long long)k, (long long)m, (long long)k, ub, sb, (long long)m);
		else
			ccb_explain_add(
			    list, "ec", "warn",
			    json_pack("{s:f, s:f, s:b}", "op_bytes", op, "stripe_bytes", stripe,
			              "fastec", 0),
			    "%s writes on a classic erasure-coded %lld+%lld pool: each is "
			    "smaller than a full stripe (%lld x %s = %s), so the primary "
			    "reads the stripe's other chunks, recomputes the parity and "
			    "writes %lld chunks: a read-modify-write per op; writes of whole "
			    "stripes (%s-aligned) or FastEC (allow_ec_optimizations, "
			    "Tentacle) avoid it",
			    ob, (long long)k, (long long)m, (long long)k, ub, sb,
			    (long long)(k + m), sb);
	} else {
		ccb_explain_add(
		    list, "ec", "info",
		    json_pack("{s:f, s:f}", "op_bytes", op, "stripe_bytes", stripe),
		    "%s writes on an erasure-coded %lld+%lld pool: whole stripes of %s, "
		    "no read before the write",
		    ob, (long long)k, (long long)m, sb);
	}
}

/* Reads: classic EC reads whole stripes' data chunks. */
static void ec_read(json_int_t k, json_int_t m, double op, double su, bool fast, json_t *list)
{
	char ob[32], ub[32];

	ccb_explain_fmt_bytes(op, ob, sizeof(ob));
	ccb_explain_fmt_bytes(su, ub, sizeof(ub));
	if (op > su)
		return;
	if (fast)
		ccb_explain_add(list, "ec", "info",
		                json_pack("{s:f, s:f, s:i}", "op_bytes", op, "stripe_unit", su,
		                          "shards_per_read", 1),
		                "%s reads on a %lld+%lld pool with FastEC: a read within one chunk "
		                "(stripe_unit %s) touches one shard (a partial read)",
		                ob, (long long)k, (long long)m, ub);
	else
		ccb_explain_add(
		    list, "ec", "info",
		    json_pack("{s:f, s:f, s:I}", "op_bytes", op, "stripe_unit", su,
		              "shards_per_read", (json_int_t)k),
		    "%s reads on a classic erasure-coded %lld+%lld pool: a read smaller "
		    "than a chunk (stripe_unit %s) still touches the stripe's %lld data "
		    "shards; FastEC (Tentacle) reads only the one that holds it",
		    ob, (long long)k, (long long)m, ub, (long long)k);
}

/* Degraded PGs at either end: reads of their objects were decoded. */
static void ec_degraded(const json_t *r, json_int_t k, json_int_t m, bool reads, json_t *list)
{
	const json_t *cs = json_object_get(r, "cluster_state");
	json_int_t a = inum(json_object_get(cs, "start"), "pgs_degraded");
	json_int_t b = inum(json_object_get(cs, "end"), "pgs_degraded");
	const json_t *d = json_object_get(json_object_get(r, "pools"), "data");

	if (a <= 0 && b <= 0)
		return;
	ccb_explain_add(
	    list, "ec", "warn",
	    json_pack("{s:I, s:I, s:I}", "pgs_degraded_start", a, "pgs_degraded_end", b, "min_size",
	              inum(d, "min_size")),
	    "%lld PGs degraded at the start, %lld at the end, on a cluster whose data pool is "
	    "erasure-coded %lld+%lld (min_size %lld): %s",
	    (long long)a, (long long)b, (long long)k, (long long)m, (long long)inum(d, "min_size"),
	    reads ? "degraded reads: a chunk on a missing OSD is rebuilt from k surviving shards "
	            "(decoded), so the figure is of a degraded pool, not a healthy one"
	          : "writes to degraded PGs go to fewer shards and are recovered later: the figure "
	            "is of a degraded pool");
}

/* What the write cost in space (result "space"). */
static void ec_space(const json_t *r, json_t *list)
{
	const json_t *s = json_object_get(r, "space");
	char wb[32], sb[32];

	if (!json_is_object(s) || str(s, "error"))
		return;
	if (json_is_false(json_object_get(s, "reliable"))) {
		ccb_explain_add(list, "space", "warn", NULL, "space amplification not reliable: %s",
		                str_or(s, "why", "?"));
		return;
	}
	ccb_explain_fmt_bytes(num(s, "bytes_written"), wb, sizeof(wb));
	ccb_explain_fmt_bytes(num(s, "stored_delta"), sb, sizeof(sb));
	ccb_explain_add(
	    list, "space", "info",
	    json_pack("{s:f, s:f}", "amplification", num(s, "amplification"), "raw_per_stored",
	              num(s, "raw_per_stored")),
	    "space: pool %s gained %s stored for %s written, %.2f raw bytes per byte stored "
	    "(amplification %.2f of what was written%s)%s",
	    str_or(s, "pool", "?"), sb, wb, num(s, "raw_per_stored"), num(s, "amplification"),
	    num(s, "stored_delta") < num(s, "bytes_written") ? "; the run wrote over its own data"
	    : num(s, "stored_delta") > 1.5 * num(s, "bytes_written")
	        ? "; small writes into fresh objects count the objects' whole length"
	        : "",
	    strcmp(str_or(s, "amplification_of", ""), "stored_raw") == 0
	        ? "; the OSDs keep no per-pool usage (memstore), so raw is the mon's STORED x the "
	          "pool's rate, not a measure"
	        : "");
}

void ccb_explain_ec(const json_t *r, json_t *list)
{
	static const char *const writes[] = {"write", "randwrite", "rw", NULL};
	static const char *const reads[] = {"seq", "rand", "rw", NULL};
	const json_t *d = json_object_get(json_object_get(r, "pools"), "data");
	const json_t *e = json_object_get(d, "erasure");
	json_int_t k = inum(e, "k"), m = inum(e, "m");
	double op = num(r, "op_bytes");
	bool fast = json_is_true(json_object_get(e, "allow_ec_optimizations"));

	ec_space(r, list);
	if (!json_is_object(e) || k <= 0 || m <= 0 || op <= 0)
		return;
	if (mode_is(r, writes) && inum(e, "stripe_width") > 0)
		ec_write(r, e, k, m, op, fast, list);
	if (mode_is(r, reads) && inum(e, "stripe_unit") > 0)
		ec_read(k, m, op, (double)inum(e, "stripe_unit"), fast, list);
	ec_degraded(r, k, m, mode_is(r, reads), list);
}
