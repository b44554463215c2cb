/*
 * The rbd image layout rules, shared by the paths that make an image
 * (librbd, krbd) and by sweeps, which lay one image out for many points.
 */
#include <ccbench/rbd_layout.h>
#include <ccbench/units.h>

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "rbd_opts.h"

int ccb_rbd_features_parse(const char *list, uint64_t *mask, char *err, size_t err_len)
{
	static const struct {
		const char *name;
		uint64_t bit;
	} names[] = {
	    {"layering", 1ull << 0},   {"striping", 1ull << 1},  {"exclusive-lock", 1ull << 2},
	    {"object-map", 1ull << 3}, {"fast-diff", 1ull << 4}, {"deep-flatten", 1ull << 5},
	    {"journaling", 1ull << 6}, {"data-pool", 1ull << 7},
	};
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t l = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
			if (strlen(names[i].name) == l && strncmp(names[i].name, p, l) == 0) {
				*mask |= names[i].bit;
				found = true;
			}
		}
		if (!found) {
			snprintf(
			    err, err_len,
			    "--image-features '%s': unknown feature '%.*s' (layering, striping, "
			    "exclusive-lock, object-map, fast-diff, deep-flatten, journaling, "
			    "data-pool)",
			    list, (int)l, p);
			return -EINVAL;
		}
		p += l;
		if (*p == ',')
			p++;
	}
	return 0;
}

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

uint64_t ccb_opts_rbd_object_bytes(const struct ccb_opts *o)
{
	if (o->order)
		return 1ull << o->order;
	if (o->object_size_bytes)
		return o->object_size_bytes;
	return 4ull << 20; /* librbd's default order 22 */
}

int ccb_rbd_validate(const struct ccb_opts *o, char *err, size_t err_len)
{
	uint64_t obj = ccb_opts_rbd_object_bytes(o);
	char a[32], b[32];

	if (CCB_RBD_OPTS(o)->image) {
		const char *temp = ccb_opts_first_given(o, CCB_OPTF_TEMP);
		if (temp) {
			snprintf(err, err_len,
			         "--%s: applies to the temporary image, not to --image %s", temp,
			         CCB_RBD_OPTS(o)->image);
			return -EINVAL;
		}
		const char *slash = strchr(CCB_RBD_OPTS(o)->image, '/');
		if (slash &&
		    (slash == CCB_RBD_OPTS(o)->image || !slash[1] || strchr(slash + 1, '/'))) {
			snprintf(err, err_len, "--image '%s': expected POOL/NAME or NAME",
			         CCB_RBD_OPTS(o)->image);
			return -EINVAL;
		}
	}
	if (o->order && ccb_opt_given(o, "object-size")) {
		snprintf(err, err_len, "--order and --object-size: give one of them");
		return -EINVAL;
	}
	if (ccb_opt_given(o, "object-size") &&
	    (!is_pow2(o->object_size_bytes) || o->object_size_bytes < 4096 ||
	     o->object_size_bytes > (32u << 20))) {
		ccb_format_bytes(o->object_size_bytes, a, sizeof(a));
		snprintf(err, err_len, "--object-size %s: must be a power of two from 4K to 32M",
		         a);
		return -EINVAL;
	}
	if (o->stripe_unit_bytes && obj % o->stripe_unit_bytes) {
		ccb_format_bytes(o->stripe_unit_bytes, a, sizeof(a));
		ccb_format_bytes(obj, b, sizeof(b));
		snprintf(err, err_len, "--stripe-unit %s: does not divide the object size %s", a,
		         b);
		return -EINVAL;
	}
	if (!CCB_RBD_OPTS(o)->image && o->op_size_bytes > o->image_size_bytes) {
		ccb_format_bytes(o->op_size_bytes, a, sizeof(a));
		ccb_format_bytes(o->image_size_bytes, b, sizeof(b));
		snprintf(err, err_len, "--io-size %s: larger than the image (--size %s)", a, b);
		return -EINVAL;
	}
	if (o->image_features) {
		uint64_t mask;
		if (ccb_rbd_features_parse(o->image_features, &mask, err, err_len) < 0)
			return -EINVAL;
	}
	if (CCB_RBD_OPTS(o)->no_cache &&
	    (CCB_RBD_OPTS(o)->cache_policy || ccb_opt_given(o, "cache-size") ||
	     ccb_opt_given(o, "readahead"))) {
		snprintf(err, err_len,
		         "--no-cache: conflicts with --cache-policy, --cache-size and --readahead");
		return -EINVAL;
	}
	return 0;
}

/*
 * Ceph's file striping (Striper::file_to_extents): the image is cut into
 * stripe units of @p su bytes, dealt round @p sc objects at a time; once
 * each of those objects holds obj_bytes, the next set of sc objects
 * starts. Without striping (su = object size, sc = 1) it is offset /
 * object size.
 */
static uint64_t object_of_block(uint64_t blockno, uint64_t units_per_obj, uint64_t sc)
{
	uint64_t stripeno = blockno / sc, stripepos = blockno % sc;

	return stripeno / units_per_obj * sc + stripepos;
}

uint64_t ccb_rbd_object_of(uint64_t off, uint64_t len, uint64_t obj_bytes, uint64_t su, uint64_t sc,
                           unsigned *n_objects)
{
	uint64_t upo, first, last, obj, seen[CCB_RBD_SPAN_MAX];
	unsigned n = 1;

	if (!obj_bytes)
		obj_bytes = 4ull << 20;
	if (!su || !sc || su > obj_bytes || obj_bytes % su)
		su = obj_bytes, sc = 1;
	upo = obj_bytes / su;
	first = off / su;
	last = (off + (len ? len : 1) - 1) / su;
	seen[0] = obj = object_of_block(first, upo, sc);
	/* The distinct objects of the blocks the op covers (an op within one
	 * stripe unit, the usual case, looks at none). */
	for (uint64_t b = first + 1; b <= last && n < CCB_RBD_SPAN_MAX; b++) {
		uint64_t o = object_of_block(b, upo, sc);
		unsigned k = 0;

		while (k < n && seen[k] != o)
			k++;
		if (k == n)
			seen[n++] = o;
	}
	if (n_objects)
		*n_objects = n;
	return obj;
}
