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

#endif
