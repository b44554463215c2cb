/**
 * @file path_rbd.h
 * What the librbd path offers beyond its ops table.
 */
#ifndef CCBENCH_PATH_RBD_H
#define CCBENCH_PATH_RBD_H

#include <stddef.h>

#include <ccbench/options.h>

/**
 * Create and fill a temporary image with the layout of @p o (--size,
 * --order / --object-size, --stripe-*, --image-features, --data-pool),
 * for several points to share. Its removal is in the undo log (unless
 * --keep), so it goes when the caller unwinds past this call.
 *
 * @param spec receives "POOL/NAME"
 * @return 0, or -errno (the reason printed).
 */
int ccb_rbd_shared_image(const struct ccb_opts *o, char *spec, size_t spec_len);

#endif
