/**
 * @file path_rbd.h
 * What the librbd path offers beyond its ops table.
 */
#ifndef CCBENCH_PATH_RBD_H
#define CCBENCH_PATH_RBD_H

#include <ccbench/restore.h>
#include <stddef.h>

#include <jansson.h>

#include <ccbench/command.h>
#include <stdbool.h>
#include <stdint.h>

#include <ccbench/options.h>
#include <ccbench/path.h>

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

/**
 * `ccbench restore` of a crash record of kind "rbd_image": the temporary
 * image of a run that died, removed when the recorded cluster, pool and
 * name still hold the image of the recorded id (else left alone).
 *
 * @return 0 (removed, or nothing of the run's left: @p msg says which),
 *         -EINVAL (a record that is not what ccbench writes, or another
 *         cluster), or another -errno (the record is kept).
 */
int ccb_rbd_image_restore(const json_t *rec, const struct ccb_opts *given, char *msg,
                          size_t msg_len);

/** The crash record kind of a temporary image, for restore. */
extern const struct ccb_undo_kind ccb_rbd_undo_kinds[];

/** The librbd path's table (path_rbd.c), a row of src/paths/registry.c. */
extern const struct ccb_path_ops ccb_path_rbd;

/** rbd read|randread|write|randwrite|rw, ending in a row with no name (rbd_commands.c). */
extern const struct ccb_command ccb_rbd_commands[];

/** The options only this path's commands take, ending in a row with no name
 * (rbd_commands.c); ccb_opt_table_build() puts them in the table. */
extern const struct ccb_opt_desc ccb_rbd_options[];

#endif
