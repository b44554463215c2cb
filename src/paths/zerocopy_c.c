/*
 * The C fallback of zerocopy.h (cmake -DCCB_ZEROCOPY=OFF): the plain C
 * calls of librados and librbd, which copy write data at submit time
 * (librados always, librbd unless rbd_disable_zero_copy_writes=false) and
 * reads into the caller's buffer. Built instead of src/paths/zerocopy.cc.
 */
#include "zerocopy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <rbd/librbd.h>

struct ccb_zc_op {
	ccb_zc_done_fn done;
	void *arg;
	rados_completion_t rcomp;
	rbd_completion_t bcomp;
};

struct ccb_zc_image {
	rbd_image_t img;
};

bool ccb_zc_enabled(void)
{
	return false;
}

int ccb_zc_op_new(ccb_zc_done_fn done, void *arg, struct ccb_zc_op **op)
{
	*op = calloc(1, sizeof(**op));
	if (!*op)
		return -ENOMEM;
	(*op)->done = done;
	(*op)->arg = arg;
	return 0;
}

void ccb_zc_op_reset(struct ccb_zc_op *op)
{
	if (op->rcomp)
		rados_aio_release(op->rcomp);
	if (op->bcomp)
		rbd_aio_release(op->bcomp);
	op->rcomp = NULL;
	op->bcomp = NULL;
}

void ccb_zc_op_free(struct ccb_zc_op *op)
{
	if (!op)
		return;
	ccb_zc_op_reset(op);
	free(op);
}

static void rados_done(rados_completion_t c, void *arg)
{
	struct ccb_zc_op *op = arg;

	op->done(op->arg, rados_aio_get_return_value(c));
}

int ccb_zc_rados_read(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, char *buf,
                      size_t len, uint64_t off)
{
	int r = rados_aio_create_completion2(op, rados_done, &op->rcomp);

	if (r < 0)
		return r;
	r = rados_aio_read(io, oid, op->rcomp, buf, len, off);
	if (r < 0)
		ccb_zc_op_reset(op);
	return r;
}

int ccb_zc_rados_write(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, const void *hdr,
                       size_t hdr_len, char *body, size_t len, uint64_t off, bool full)
{
	rados_write_op_t wop;
	int r = rados_aio_create_completion2(op, rados_done, &op->rcomp);

	if (r < 0)
		return r;
	/* librados copies the buffer inside rados_write_op_write*, before
	 * operate returns: the next op's header cannot reach this one. */
	if (hdr_len)
		memcpy(body, hdr, hdr_len);
	wop = rados_create_write_op();
	if (full)
		rados_write_op_write_full(wop, body, len);
	else
		rados_write_op_write(wop, body, len, off);
	r = rados_aio_write_op_operate(wop, io, op->rcomp, oid, NULL, LIBRADOS_OPERATION_FULL_TRY);
	rados_release_write_op(wop);
	if (r < 0)
		ccb_zc_op_reset(op);
	return r;
}

size_t ccb_zc_read_copy(struct ccb_zc_op *op, char *buf, void *dst, size_t len)
{
	(void)op;
	memcpy(dst, buf, len);
	return len;
}

int ccb_zc_rbd_open(rados_ioctx_t io, const char *name, bool read_only, bool copy_writes,
                    struct ccb_zc_image **img)
{
	struct ccb_zc_image *im = calloc(1, sizeof(*im));
	int r;

	(void)copy_writes; /* librbd's C API reads rbd_disable_zero_copy_writes itself */
	if (!im)
		return -ENOMEM;
	r = read_only ? rbd_open_read_only(io, name, &im->img, NULL)
	              : rbd_open(io, name, &im->img, NULL);
	if (r < 0) {
		free(im);
		return r;
	}
	*img = im;
	return 0;
}

void ccb_zc_rbd_close(struct ccb_zc_image *img)
{
	if (!img)
		return;
	rbd_close(img->img);
	free(img);
}

int ccb_zc_rbd_invalidate_cache(struct ccb_zc_image *img)
{
	return rbd_invalidate_cache(img->img);
}

int ccb_zc_rbd_flush(struct ccb_zc_image *img)
{
	return rbd_flush(img->img);
}

static void rbd_done(rbd_completion_t c, void *arg)
{
	struct ccb_zc_op *op = arg;

	op->done(op->arg, (int)rbd_aio_get_return_value(c));
}

int ccb_zc_rbd_read(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                    char *buf)
{
	int r = rbd_aio_create_completion(op, rbd_done, &op->bcomp);

	if (r < 0)
		return r;
	r = rbd_aio_read(img->img, off, len, buf, op->bcomp);
	if (r < 0)
		ccb_zc_op_reset(op);
	return r;
}

int ccb_zc_rbd_write(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                     const char *buf)
{
	int r = rbd_aio_create_completion(op, rbd_done, &op->bcomp);

	if (r < 0)
		return r;
	r = (int)rbd_aio_write(img->img, off, len, buf, op->bcomp);
	if (r < 0)
		ccb_zc_op_reset(op);
	return r;
}
