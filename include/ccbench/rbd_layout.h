/**
 * @file rbd_layout.h
 * The layout of an rbd image made by ccbench (the librbd path's temporary
 * image, krbd's prefilled one, a sweep's shared one): the rules its
 * options follow, checked before anything connects, and the librbd
 * values they give.
 */
#ifndef CCBENCH_RBD_LAYOUT_H
#define CCBENCH_RBD_LAYOUT_H

#include <stddef.h>
#include <stdint.h>

#include <ccbench/options.h>

/** Object size of the temporary rbd image: 2^--order, --object-size, or 4M. */
uint64_t ccb_opts_rbd_object_bytes(const struct ccb_opts *o);

/**
 * Parse an rbd feature list ("layering,exclusive-lock") into librbd's bits.
 * @return 0, or -EINVAL naming the unknown feature in @p err.
 */
int ccb_rbd_features_parse(const char *list, uint64_t *mask, char *err, size_t err_len);

/**
 * The librbd path's option rules (its ops table's validate): the layout
 * options only for a temporary image, --image POOL/NAME, --order or a
 * power-of-two --object-size, the stripe unit dividing the object size,
 * --io-size within --size, known features, --no-cache alone.
 *
 * @return 0, or -EINVAL with the reason in @p err.
 */
int ccb_rbd_validate(const struct ccb_opts *o, char *err, size_t err_len);

/** ccb_rbd_object_of() counts the objects an op spans up to this many. */
#define CCB_RBD_SPAN_MAX 64

/**
 * The data object (its number, the suffix of rbd_data.ID.%016x) that holds
 * image offset @p off under Ceph's striping: stripe units of @p su bytes
 * dealt round @p sc objects of @p obj_bytes each (su 0, sc 0 or 1: no
 * striping). *@p n_objects (may be NULL) gets how many objects the @p len
 * bytes from @p off touch, at most CCB_RBD_SPAN_MAX. Pure.
 */
uint64_t ccb_rbd_object_of(uint64_t off, uint64_t len, uint64_t obj_bytes, uint64_t su, uint64_t sc,
                           unsigned *n_objects);

#endif
