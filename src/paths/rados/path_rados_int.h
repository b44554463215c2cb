/*
 * The rados path's internals: the run state path_rados.c (prepare and the
 * I/O) keeps, and what rados_objects.c (object names, the run's metadata
 * object, removing a run's objects for the undo log and `ccbench cleanup`)
 * gives it.
 */
#ifndef CCBENCH_PATH_RADOS_INT_H
#define CCBENCH_PATH_RADOS_INT_H

#include <ccbench/engine.h>

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>
#include <rados/librados.h>

#define HDR_MAGIC      "CCBENCH1"
#define META_MAX_BYTES (1u << 20)

struct chunk_hdr {
	char magic[8];
	uint64_t run_hash;
	uint64_t object;
	uint64_t offset;
	uint64_t op_bytes;
};

struct rrun {
	rados_t ctl; /* control connection: meta, cleanup */
	rados_ioctx_t io;
	char run[65];
	uint64_t run_hash;
	uint64_t op_bytes, obj_bytes, chunks;
	uint64_t max_objects;      /* write: 0 = no limit */
	uint64_t n_objects;        /* read: objects the write left */
	uint64_t old_objects;      /* write --reuse: objects of the run it overwrites */
	atomic_uint_fast64_t next; /* write: next object to claim; seq: next chunk */
	pthread_mutex_t lock;
	uint64_t *partial; /* objects not fully written */
	size_t n_partial, cap_partial;
	/* write: ops abandoned at --op-timeout. An OSD that answers later may
	 * still apply them, after the cleanup removed their objects. */
	atomic_uint_fast64_t timed_out;
	bool meta_claimed;
	bool keep;
	const struct ccb_opts *opts;
};

struct rclient {
	rados_t cluster;
	rados_ioctx_t io;
	uint64_t cur_obj, next_chunk;
	bool have_obj;
};

/* ---- rados_objects.c (path_rados.c uses it; it never calls back) ---- */

/** The name of object @p obj of run @p run: RUN.NNNNNNNN. */
void ccb_rados_obj_name(char *buf, size_t len, const char *run, uint64_t obj);
/** Objects the run has claimed so far (written or being written). */
uint64_t ccb_rados_claimed_objects(struct rrun *rr);

/** Read and check RUN.meta. @return 0, -ENOENT, -EBADMSG (not ours) or -errno. */
int ccb_rados_meta_read(rados_ioctx_t io, const char *run, json_t **out);
/** Write RUN.meta (@p exclusive: refuse an existing one). */
int ccb_rados_meta_write(struct rrun *rr, bool complete, bool exclusive);
/** Undo: remove the run's objects (then its RUN.meta). */
int ccb_rados_undo_remove_objects(void *arg);
/** Undo: close the pool and the control connection, free the run state. */
int ccb_rados_undo_close_ctl(void *arg);

#endif
