/*
 * The librbd path's private declarations, shared by its three files:
 * path_rbd.c (the clients and their ops, the path's table), rbd_image.c
 * (the image the run works on: set-up, the temporary image, its crash
 * record) and rbd_settings.c (the per-client librbd settings). Only these
 * files include it.
 */
#ifndef CCBENCH_PATH_RBD_INT_H
#define CCBENCH_PATH_RBD_INT_H

#include <ccbench/path.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>
#include <rados/librados.h>

/* The run's: where the image is, what it is, how the clients share it. */
struct rbdrun {
	/* A copy: a sweep's shared image outlives the options it was made
	 * from, and its undo entries read this. */
	bool quiet;
	rados_t ctl;
	rados_ioctx_t io;
	char pool[128];
	char image[128];
	char data_pool[128]; /**< an existing image's data pool ("": its own pool) */
	bool temporary;
	bool existing_ro; /* an existing image: open read-only */
	uint64_t image_bytes, io_bytes;
	uint64_t region_bytes; /* per client, for sequential patterns */
	bool one_pass;
	char asok_dir[64]; /* the clients' admin sockets (ours, mkdtemp) */
	bool asok_failed;  /* a client's counters could not be read */
	/* The temporary image's data objects' prefix (rbd_data.ID), known
	 * from the fill: what a half-done removal leaves is named by it. */
	char data_prefix[64];
	bool recorded; /* the image is in the state file: `ccbench restore` removes it */
	/* Where the image's data objects are, for per-op attribution
	 * (read with the layout): their pool, name prefix and striping. */
	int64_t data_pool_id;
	char block_prefix[64];
	uint64_t obj_bytes, stripe_unit, stripe_count;
};

/* Whether @p m reads (set-up fills the image for it; clients open it
 * read-only for the read-only modes). */
static inline bool mode_reads(enum ccb_mode m)
{
	return m == CCB_MODE_SEQ || m == CCB_MODE_RAND || m == CCB_MODE_RW;
}

/*
 * Create (temporary) or look up (--image) the run's image and lay the run
 * out on it (rbd_image.c): the path's prepare, and the set-up of a sweep's
 * shared image.
 *
 * @return 0, or -errno (the reason printed; run->bad_input for a mistake
 *         of the user's).
 */
int ccb_rbd_prepare(struct ccb_run *run);

/*
 * Set the per-client librbd settings of the run's options on handle @p r,
 * before it connects (rbd_settings.c). @p warn: say what a setting implies
 * (once per run: client 0).
 *
 * @return 0, or the -errno of rados_conf_set (@p err names the key).
 */
int ccb_rbd_apply_settings(struct ccb_run *run, rados_t r, bool warn, char *err, size_t err_len);

/*
 * The settings librbd really uses on handle @p r, read back, and whether
 * readahead is active under them (rbd_settings.c). @p simulated: include
 * the injected-latency settings.
 */
json_t *ccb_rbd_effective_settings(rados_t r, bool simulated);

#endif
