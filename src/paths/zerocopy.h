/**
 * @file zerocopy.h
 * The data calls of the rados and rbd paths, without the copies librados'
 * and librbd's C APIs make.
 *
 * librados' C write calls copy the caller's buffer into a new bufferlist,
 * and librbd's rbd_aio_read assembles the reply into the caller's buffer:
 * one memcpy of every byte moved, plus the page faults of the library's
 * fresh buffers. Their C++ APIs take a bufferlist instead: one built over
 * ccbench's own (static, immutable while in flight) memory for writes, and
 * the reply's own buffers for reads. src/paths/zerocopy.cc, the only C++ in the
 * tree, makes those calls behind this C interface; src/paths/zerocopy_c.c is the
 * C fallback with the same interface over the C calls (cmake
 * -DCCB_ZEROCOPY=OFF). The paths never know which one they run on.
 *
 * Lifetimes: an op handle belongs to one slot and carries one op at a
 * time. Its done function runs on a library thread once that op completed;
 * ccb_zc_op_reset() (on the client thread, after the done function ran)
 * readies it for the next op. Write buffers must stay unchanged until the
 * op completed, and allocated until the image or connection is closed (a
 * library may still hold a reference until then).
 */
#ifndef CCBENCH_ZEROCOPY_H
#define CCBENCH_ZEROCOPY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <rados/librados.h>

#ifdef __cplusplus
extern "C" {
#endif

/** One slot's op: its completion and, for a zero-copy read, the reply's data. */
struct ccb_zc_op;

/** An open librbd image. */
struct ccb_zc_image;

/** Called on a library thread when an op completes: @p ret is bytes or -errno. */
typedef void (*ccb_zc_done_fn)(void *arg, int ret);

/** True when built with the C++ zero-copy calls, false for the C fallback. */
bool ccb_zc_enabled(void);

/** A new op handle whose completions call @p done(@p arg, ret). @return 0 or -ENOMEM. */
int ccb_zc_op_new(ccb_zc_done_fn done, void *arg, struct ccb_zc_op **op);

/** After the op's done function ran: release its completion and data. */
void ccb_zc_op_reset(struct ccb_zc_op *op);

/** Free @p op (NULL is fine). Its op must have completed (or never started). */
void ccb_zc_op_free(struct ccb_zc_op *op);

/**
 * Read @p len bytes at @p off of object @p oid. The fallback reads into
 * @p buf; the zero-copy build keeps the reply's buffers in @p op instead
 * (ccb_zc_read_copy). @return 0 or -errno from librados.
 */
int ccb_zc_rados_read(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, char *buf,
                      size_t len, uint64_t off);

/**
 * Write @p len bytes at @p off of object @p oid (@p full: the whole object,
 * write_full), with LIBRADOS_OPERATION_FULL_TRY. The first @p hdr_len bytes
 * (0 for none) come from @p hdr, which may change once this returns; the
 * rest from @p body + @p hdr_len, which must not change until the op
 * completed (the fallback copies @p hdr into @p body before librados
 * copies it all). @return 0 or -errno from librados.
 */
int ccb_zc_rados_write(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, const void *hdr,
                       size_t hdr_len, char *body, size_t len, uint64_t off, bool full);

/**
 * Copy the first @p len bytes of the completed read's data to @p dst.
 * @return the bytes copied (fewer when the read returned fewer).
 */
size_t ccb_zc_read_copy(struct ccb_zc_op *op, char *buf, void *dst, size_t len);

/**
 * Open image @p name of the pool of @p io (read-only: no exclusive lock).
 * @p copy_writes: copy write data first (rbd_disable_zero_copy_writes;
 * the fallback's librbd reads the setting itself). @return 0 or -errno.
 */
int ccb_zc_rbd_open(rados_ioctx_t io, const char *name, bool read_only, bool copy_writes,
                    struct ccb_zc_image **img);

/** Close an image opened by ccb_zc_rbd_open() (NULL is fine). */
void ccb_zc_rbd_close(struct ccb_zc_image *img);

/** rbd_invalidate_cache(). @return 0 or -errno. */
int ccb_zc_rbd_invalidate_cache(struct ccb_zc_image *img);

/** rbd_flush(): every write acknowledged so far is on the cluster. @return 0 or -errno. */
int ccb_zc_rbd_flush(struct ccb_zc_image *img);

/**
 * Read @p len bytes at @p off: into @p buf in the fallback, into the reply's
 * own buffers (kept in @p op) in the zero-copy build. @return 0 or -errno.
 */
int ccb_zc_rbd_read(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                    char *buf);

/** Write @p len bytes of @p buf at @p off. @return 0 or -errno. */
int ccb_zc_rbd_write(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                     const char *buf);

#ifdef __cplusplus
}
#endif

#endif
