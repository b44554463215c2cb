/*
 * zerocopy.h over librados' and librbd's C++ APIs: the only C++ in the tree
 * (cmake -DCCB_ZEROCOPY=ON, the default; src/paths/zerocopy_c.c otherwise).
 *
 * Writes hand the library a bufferlist over ccbench's memory
 * (buffer::create_static: no copy, and nothing freed when the library drops
 * its reference), in two pieces for rados: the slot's own header, then the
 * client's one shared body after it. Reads take the reply as the messenger
 * received it (a bufferlist kept in the op until ccb_zc_op_reset), where
 * the C calls copy it into the caller's buffer; the rados path verifies the
 * header from it with ccb_zc_read_copy.
 *
 * The C handles are bridged, not reopened: librados::IoCtx::from_rados_ioctx_t
 * takes a reference on the C ioctx's implementation. librbd has no such
 * bridge, so images are opened through the C++ API here.
 *
 * Nothing may throw into C: every entry point catches and returns -errno.
 */
#include "zerocopy.h"

#include <cerrno>
#include <cstring>
#include <new>
#include <string>

#include <rados/librados.hpp>
#include <rbd/librbd.hpp>

/* A chunk header, as path_rados.c writes it, fits here. */
#define HDR_MAX_BYTES 64

struct ccb_zc_op {
	ccb_zc_done_fn done;
	void *arg;
	librados::AioCompletion *rcomp;
	librbd::RBD::AioCompletion *bcomp;
	/* The bridged ioctx of the last rados op, and the C handle it came from. */
	librados::IoCtx ioctx;
	rados_ioctx_t ioctx_c;
	/* A read's reply (no copy); a write's pieces (static: no copy either). */
	ceph::bufferlist bl;
	char hdr[HDR_MAX_BYTES];
	/* The body of this slot's writes (static_body). */
	ceph::bufferptr body;
};

struct ccb_zc_image {
	librados::IoCtx ioctx;
	librbd::Image image;
	bool copy_writes;
	/* The body of this image's writes (static_body). */
	ceph::bufferptr body;
};

/*
 * One static buffer for every write of the same bytes. The messenger
 * checksums each message's data (ms_crc_data) and caches the crc32c on the
 * buffer::raw it read, per offset and length; a fresh create_static per op
 * made it checksum 4 MiB anew every op (perf: +0.07 CPU s/GiB in
 * libceph-common on rbd write 4M x 16 against rbd bench, which reuses one
 * bufferptr). The body is never written after the fill (path_rados.c,
 * path_rbd.c), so the cached value stays true; a header in front of it
 * only changes the crc's seed, which bufferlist::crc32c adjusts without
 * reading the data. The OSD still verifies every message.
 */
static const ceph::bufferptr &static_body(ceph::bufferptr &cached, const char *at, size_t len)
{
	if (!cached.have_raw() || cached.c_str() != at || cached.length() != len)
		cached = ceph::bufferptr(
		    ceph::buffer::create_static((unsigned)len, const_cast<char *>(at)));
	return cached;
}

/* The errno of an exception at the C boundary. */
static int caught(void)
{
	try {
		throw;
	} catch (const std::bad_alloc &) {
		return -ENOMEM;
	} catch (...) {
		return -EIO;
	}
}

bool ccb_zc_enabled(void)
{
	return true;
}

int ccb_zc_op_new(ccb_zc_done_fn done, void *arg, struct ccb_zc_op **op)
{
	*op = new (std::nothrow) ccb_zc_op();
	if (!*op)
		return -ENOMEM;
	(*op)->done = done;
	(*op)->arg = arg;
	return 0;
}

void ccb_zc_op_reset(struct ccb_zc_op *op)
{
	if (op->rcomp)
		op->rcomp->release();
	if (op->bcomp)
		op->bcomp->release();
	op->rcomp = nullptr;
	op->bcomp = nullptr;
	op->bl.clear();
}

void ccb_zc_op_free(struct ccb_zc_op *op)
{
	if (!op)
		return;
	ccb_zc_op_reset(op);
	delete op;
}

/* librados thread: the op's return value to the slot, nothing more. */
static void rados_done(librados::completion_t c, void *arg)
{
	auto *op = static_cast<ccb_zc_op *>(arg);

	(void)c;
	op->done(op->arg, op->rcomp->get_return_value());
}

static int rados_prepare(struct ccb_zc_op *op, rados_ioctx_t io)
{
	if (op->ioctx_c != io) {
		librados::IoCtx::from_rados_ioctx_t(io, op->ioctx);
		op->ioctx_c = io;
	}
	op->rcomp = librados::Rados::aio_create_completion(op, rados_done);
	return op->rcomp ? 0 : -ENOMEM;
}

int ccb_zc_rados_read(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, char *buf,
                      size_t len, uint64_t off)
{
	(void)buf;
	try {
		int r = rados_prepare(op, io);
		if (r < 0)
			return r;
		op->bl.clear();
		r = op->ioctx.aio_read(oid, op->rcomp, &op->bl, len, off);
		if (r < 0)
			ccb_zc_op_reset(op);
		return r;
	} catch (...) {
		ccb_zc_op_reset(op);
		return caught();
	}
}

int ccb_zc_rados_write(struct ccb_zc_op *op, rados_ioctx_t io, const char *oid, const void *hdr,
                       size_t hdr_len, char *body, size_t len, uint64_t off, bool full)
{
	if (hdr_len > sizeof(op->hdr) || hdr_len > len)
		return -EINVAL;
	try {
		int r = rados_prepare(op, io);
		if (r < 0)
			return r;
		op->bl.clear();
		if (hdr_len) {
			memcpy(op->hdr, hdr, hdr_len);
			op->bl.append(ceph::buffer::create_static((unsigned)hdr_len, op->hdr));
		}
		if (len > hdr_len)
			op->bl.append(static_body(op->body, body + hdr_len, len - hdr_len));
		librados::ObjectWriteOperation wop;
		if (full)
			wop.write_full(op->bl);
		else
			wop.write(off, op->bl);
		r = op->ioctx.aio_operate(oid, op->rcomp, &wop, librados::OPERATION_FULL_TRY);
		if (r < 0)
			ccb_zc_op_reset(op);
		return r;
	} catch (...) {
		ccb_zc_op_reset(op);
		return caught();
	}
}

size_t ccb_zc_read_copy(struct ccb_zc_op *op, char *buf, void *dst, size_t len)
{
	(void)buf;
	if (len > op->bl.length())
		len = op->bl.length();
	op->bl.begin().copy((unsigned)len, static_cast<char *>(dst));
	return len;
}

int ccb_zc_rbd_open(rados_ioctx_t io, const char *name, bool read_only, bool copy_writes,
                    struct ccb_zc_image **img)
{
	ccb_zc_image *im = new (std::nothrow) ccb_zc_image();

	if (!im)
		return -ENOMEM;
	try {
		librbd::RBD rbd;
		int r;

		librados::IoCtx::from_rados_ioctx_t(io, im->ioctx);
		r = read_only ? rbd.open_read_only(im->ioctx, im->image, name, nullptr)
		              : rbd.open(im->ioctx, im->image, name);
		if (r < 0) {
			delete im;
			return r;
		}
		im->copy_writes = copy_writes;
		*img = im;
		return 0;
	} catch (...) {
		delete im;
		return caught();
	}
}

void ccb_zc_rbd_close(struct ccb_zc_image *img)
{
	if (!img)
		return;
	img->image.close();
	delete img;
}

int ccb_zc_rbd_invalidate_cache(struct ccb_zc_image *img)
{
	return img->image.invalidate_cache();
}

int ccb_zc_rbd_flush(struct ccb_zc_image *img)
{
	try {
		return img->image.flush();
	} catch (...) {
		return caught();
	}
}

/* librbd thread: the op's return value to the slot, nothing more. */
static void rbd_done(librbd::completion_t c, void *arg)
{
	auto *op = static_cast<ccb_zc_op *>(arg);

	(void)c;
	op->done(op->arg, (int)op->bcomp->get_return_value());
}

static int rbd_prepare(struct ccb_zc_op *op)
{
	op->bcomp = new librbd::RBD::AioCompletion(op, rbd_done);
	op->bl.clear();
	return 0;
}

int ccb_zc_rbd_read(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                    char *buf)
{
	(void)buf;
	try {
		int r = rbd_prepare(op);
		if (r < 0)
			return r;
		r = img->image.aio_read(off, len, op->bl, op->bcomp);
		if (r < 0)
			ccb_zc_op_reset(op);
		return r;
	} catch (...) {
		ccb_zc_op_reset(op);
		return caught();
	}
}

int ccb_zc_rbd_write(struct ccb_zc_op *op, struct ccb_zc_image *img, uint64_t off, size_t len,
                     const char *buf)
{
	try {
		int r = rbd_prepare(op);
		if (r < 0)
			return r;
		if (img->copy_writes)
			op->bl.append(buf, (unsigned)len);
		else
			op->bl.append(static_body(img->body, buf, len));
		r = img->image.aio_write(off, len, op->bl, op->bcomp);
		if (r < 0)
			ccb_zc_op_reset(op);
		return r;
	} catch (...) {
		ccb_zc_op_reset(op);
		return caught();
	}
}
