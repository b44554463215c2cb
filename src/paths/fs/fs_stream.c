/*
 * The fs stream workload: dd-style fs write and fs read, through
 * libcephfs (path_cephfs.c's table) or through a mount (path_posix.c's,
 * the same functions over POSIX calls): below both tables, which it never
 * names. fs meta is fs_meta.c; what both share, the run's directory, is
 * path_cephfs_common.c, the undo entries cephfs_remove.c; the calls go
 * through the run's struct ccb_fs_io.
 *
 * Every client has its own mount (a ceph_mount, a kernel mount, a
 * ceph-fuse), as two nodes would, and its own file DIR/client-N. The
 * calls are synchronous, one op at a time per client: submit plans the op
 * and the client kind runs its calls (libcephfs inline; a mount on a
 * thread of its own, so that a call stuck in the kernel cannot hold the
 * run) and completes the slot.
 *
 * Writes end with ceph_fsync inside the measured time, like dd
 * conv=fsync: the last call of each client is ceph_write followed by
 * ceph_fsync, timed as one op, so the client's buffered data cannot
 * inflate the figure. The engine ends the run at the end of its last op,
 * so the fsync is in the seconds. With -d the path keeps the deadline
 * itself (the engine would stop before the fsync could be issued): the
 * first op that starts after it is the final write + fsync.
 *
 * Reads open a fresh mount per client after the files were written and
 * closed (by a previous `fs write --keep`, or by the prefill on the
 * control mount), so no reader starts with cached data. On a mount that
 * the readers share (--mount DIR) the client kind drops the files' pages
 * and says how much was still cached (path_posix.c).
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/clock.h>
#include <ccbench/path.h>
#include <ccbench/stats.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fs_opts.h"

/* Prefill: set-up, not the measurement, so large calls. */
#define FILL_BYTES (4ull << 20)

/* ---- set-up -------------------------------------------------------------- */

static void client_file(const struct ccb_fsrun *fr, unsigned idx, char *buf, size_t len)
{
	snprintf(buf, len, "%s/client-%u", fr->dir, idx);
}

/* Write the files of an `fs read` without --dir (unmeasured). */
static int prefill(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_fs_io *io = fr->io;
	const char *where = io->where(fr->ctl);
	uint64_t chunk = fr->block_bytes > FILL_BYTES ? fr->block_bytes : FILL_BYTES;
	uint64_t t0 = ccb_now_nsec();
	char *buf = NULL, path[600];
	int r = 0;

	/* Aligned: a client kind may write it with O_DIRECT. */
	if (posix_memalign((void **)&buf, 4096, chunk))
		return -ENOMEM;
	for (uint64_t i = 0; i < chunk / 8; i++) {
		uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
		memcpy(buf + i * 8, &x, 8);
	}
	if (!run->opts->quiet)
		fprintf(stderr,
		        "ccbench: writing %u file(s) of %" PRIu64 " MiB in %s%s to read back "
		        "(not measured)\n",
		        run->n_clients, fr->file_bytes >> 20, where, fr->dir);
	for (unsigned c = 0; c < run->n_clients && !r; c++) {
		int fd;

		client_file(fr, c, path, sizeof(path));
		/* O_EXCL: only a file this run made is ever logged for removal. */
		fd = io->create(fr->ctl, path, &fr->layout);
		if (fd < 0) {
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_CREATE), where, path, strerror(-fd));
			r = fd;
			break;
		}
		if (!run->opts->keep &&
		    (r = ccb_fs_push_undo("remove a client's file", ccb_fs_undo_unlink, fr, fr->ctl,
		                          path, fd, "rm")) < 0) {
			io->close(fr->ctl, fd);
			io->unlink(fr->ctl, path);
			break;
		}
		ccb_fs_mark_made(run, fr, fr->ctl, path, fd);
		for (uint64_t off = 0; off < fr->file_bytes && !r; off += chunk) {
			uint64_t len = fr->file_bytes - off < chunk ? fr->file_bytes - off : chunk;
			int64_t w;

			if (ccb_signal_pending) {
				r = -EINTR;
				break;
			}
			w = io->pwrite(fr->ctl, fd, buf, len, off);
			if (w < 0 || (uint64_t)w != len) {
				r = w < 0 ? (int)w : -EIO;
				fprintf(stderr, "ccbench: %s(%s%s) at offset %" PRIu64 ": %s%s\n",
				        ccb_fs_call_name(fr, CCB_FS_WRITE), where, path, off,
				        strerror(-r),
				        r == -ENOSPC || r == -EDQUOT ? " (the data pool is full or "
				                                       "over its quota)"
				                                     : "");
			}
		}
		if (!r && (r = io->fsync(fr->ctl, fd)) < 0)
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_FSYNC), where, path, strerror(-r));
		io->close(fr->ctl, fd);
	}
	free(buf);
	if (!r && !run->opts->quiet)
		fprintf(stderr, "ccbench: written in %.1f s\n",
		        (double)(ccb_now_nsec() - t0) / 1e9);
	return r;
}

/* fs read --dir: the files of an earlier `fs write --keep --dir D`. */
static int check_existing_files(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const struct ccb_opts *o = run->opts;
	const char *where = fr->io->where(fr->ctl);
	uint64_t smallest = UINT64_MAX;
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ccb_fs_stat st;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = fr->io->stat(fr->ctl, path, &st);
		if (r < 0 || !S_ISREG(st.mode)) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s: %s(%s%s): %s (write the files first: "
			        "ccbench fs write --keep --dir %s --clients %u)\n",
			        fr->dir, ccb_fs_call_name(fr, CCB_FS_STAT), where, path,
			        r < 0 ? strerror(-r) : "not a regular file", fr->dir,
			        run->n_clients);
			run->bad_input = true;
			return r < 0 ? r : -EINVAL;
		}
		if (ccb_opt_given(o, "file-size") &&
		    st.size_bytes < CCB_FS_OPTS(o)->file_size_bytes) {
			fprintf(
			    stderr,
			    "ccbench: fs read --dir %s: %s%s holds %" PRIu64 " bytes, less than "
			    "--file-size %" PRIu64 "\n",
			    fr->dir, where, path, st.size_bytes, CCB_FS_OPTS(o)->file_size_bytes);
			run->bad_input = true;
			return -EINVAL;
		}
		if (st.size_bytes < smallest)
			smallest = st.size_bytes;
	}
	/* Without --file-size, each reader reads its whole file (set in
	 * client_open); this is the figure the layout reports. */
	fr->file_bytes = ccb_opt_given(o, "file-size") ? CCB_FS_OPTS(o)->file_size_bytes : smallest;
	if (fr->file_bytes < fr->block_bytes) {
		fprintf(stderr,
		        "ccbench: fs read --dir %s: files of %" PRIu64
		        " bytes are smaller than --block-size\n",
		        fr->dir, fr->file_bytes);
		run->bad_input = true;
		return -EINVAL;
	}
	return 0;
}

/*
 * fs write --reuse into an existing directory: every DIR/client-N there
 * must be a file an earlier ccbench run wrote (it carries the marker), or
 * the run refuses now, before anything is changed.
 */
static int check_reused_files(struct ccb_run *run, struct ccb_fsrun *fr)
{
	const char *where = fr->io->where(fr->ctl);
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ccb_fs_stat st;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = fr->io->stat(fr->ctl, path, &st);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_STAT), where, path, strerror(-r));
			return r;
		}
		r = S_ISREG(st.mode) ? ccb_fs_is_marked(fr, fr->ctl, path) : 0;
		if (r < 0) {
			fprintf(stderr, "ccbench: %s(%s%s, %s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_GETXATTR), where, path,
			        CCB_FS_MARK_XATTR, strerror(-r));
			return r;
		}
		if (!r) {
			fprintf(
			    stderr,
			    "ccbench: --reuse: %s%s exists and was not written by ccbench (no %s "
			    "marker); refusing to replace it (move it away, or choose another "
			    "--dir)\n",
			    where, path, CCB_FS_MARK_XATTR);
			run->bad_input = true;
			return -EEXIST;
		}
	}
	return 0;
}

int ccb_fs_stream_prepare(struct ccb_run *run, const struct ccb_fs_io *io)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fsrun *fr;
	char err[1024];
	int r;

	/* The rules ccb_opts_validate() applies; repeated for sweeps and
	 * groups, which build their options elsewhere. Before any mount. */
	if (run->ops->validate && run->ops->validate(o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = true;
		return -EINVAL;
	}
	r = ccb_fs_run_open(run, io, sizeof(*fr), &fr);
	if (r < 0)
		return r;
	fr->existing_files = run->mode == CCB_MODE_SEQ && CCB_FS_OPTS(o)->dir;
	if (fr->existing_files) {
		struct ccb_fs_stat st;

		r = io->stat(fr->ctl, fr->dir, &st);
		if (r < 0 || !S_ISDIR(st.mode)) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s%s: %s (write it first: ccbench fs "
			        "write --keep --dir %s)\n",
			        io->where(fr->ctl), fr->dir,
			        r < 0 ? strerror(-r) : "not a directory", fr->dir);
			run->bad_input = true;
			return r < 0 ? r : -ENOTDIR;
		}
		r = check_existing_files(run, fr);
		if (r < 0)
			return r;
	} else {
		r = ccb_fs_claim_dir(run, fr);
		if (r < 0)
			return r;
		/* The client files' removals are logged as each is made (client_open, prefill). */
		if (!fr->created_dir && run->is_write && (r = check_reused_files(run, fr)) < 0)
			return r;
		if (run->mode == CCB_MODE_SEQ)
			r = prefill(run, fr);
		if (r < 0)
			return r;
	}

	/* Kept here, not by the engine: see the top of the file. */
	if (run->duration_usec && run->mode == CCB_MODE_SEQ)
		ccb_run_warn(run, "-d: a reader that reaches the end of its file starts over; "
		                  "later passes may be served from the client's cache");
	ccb_fs_take_deadline(run, fr);
	/* Without -d each client streams its file once: that is the run's end. */
	if (!fr->deadline_nsec)
		run->pass_bytes = fr->file_bytes * run->n_clients;
	run->buf_bytes = fr->block_bytes;
	ccb_fs_layout(run, fr);
	json_object_set_new(run->layout, "file_size", json_integer((json_int_t)fr->file_bytes));
	json_object_set_new(run->layout, "block_size", json_integer((json_int_t)fr->block_bytes));
	/* One op at a time per client: only more clients put more in flight. */
	json_object_set_new(run->layout, "more_in_flight", json_string("add --clients"));
	if (run->is_write)
		json_object_set_new(run->layout, "fsync_in_time", json_true());
	else
		json_object_set_new(run->layout, "fresh_mount_per_reader", json_true());
	return 0;
}

/* ---- clients and ops ----------------------------------------------------- */

/* The layout the file system gave the file, read back rather than assumed. */
static void record_layout(struct ccb_run *run, struct ccb_fsrun *fr, struct ccb_fsclient *fc)
{
	char why[256] = "";
	json_t *j = fr->io->file_layout(fc->m, fc->fd, why, sizeof(why));
	const char *pool;

	if (!j) {
		if (why[0])
			ccb_run_warn(run, "%s%s: %s", fr->io->where(fc->m), fc->path, why);
		return;
	}
	json_object_set_new(run->layout, "file_layout", j);
	pool = json_string_value(json_object_get(j, "pool"));
	if ((fr->layout.object_size &&
	     json_integer_value(json_object_get(j, "object_size")) != fr->layout.object_size) ||
	    (fr->layout.stripe_unit &&
	     json_integer_value(json_object_get(j, "stripe_unit")) != fr->layout.stripe_unit) ||
	    (fr->layout.stripe_count &&
	     json_integer_value(json_object_get(j, "stripe_count")) != fr->layout.stripe_count) ||
	    (fr->layout.data_pool[0] && (!pool || strcmp(pool, fr->layout.data_pool) != 0)))
		ccb_run_warn(run,
		             "%s%s: layout differs from the one asked for (an existing file keeps "
		             "its layout)",
		             fr->io->where(fc->m), fc->path);
}

int ccb_fs_stream_client_open(struct ccb_client *cl)
{
	struct ccb_run *run = cl->run;
	struct ccb_fsrun *fr = run->path_data;
	const struct ccb_fs_io *io = fr->io;
	struct ccb_fsclient *fc;
	int r = ccb_fs_client_mount(cl, &fc);

	if (r < 0)
		return r;
	client_file(fr, cl->idx, fc->path, sizeof(fc->path));
	fc->file_bytes = fr->file_bytes;
	if (run->is_write) {
		struct ccb_fs_stat st;

		/* A reused directory may hold this file from an earlier run: it is
		 * made anew, since an existing file keeps its old layout. Only a
		 * file with ccbench's marker goes (checked in prepare, and again
		 * here, just before); O_EXCL then makes sure the file is ours. */
		r = ccb_fs_is_marked(fr, fc->m, fc->path);
		if (r > 0)
			r = io->unlink(fc->m, fc->path);
		else if (r == 0 && io->stat(fc->m, fc->path, &st) == 0)
			r = -EEXIST;
		fc->call = ccb_fs_call_name(fr, CCB_FS_CREATE);
		fc->fd = r < 0 && r != -ENOENT ? r : io->create(fc->m, fc->path, &fr->layout);
		if (fc->fd >= 0 && !run->opts->keep &&
		    (r = ccb_fs_push_undo("remove a client's file", ccb_fs_undo_unlink, fr, fc->m,
		                          fc->path, fc->fd, "rm")) < 0) {
			io->close(fc->m, fc->fd);
			io->unlink(fc->m, fc->path);
			fc->fd = r;
		}
		if (fc->fd >= 0)
			ccb_fs_mark_made(run, fr, fc->m, fc->path, fc->fd);
	} else {
		fc->call = ccb_fs_call_name(fr, CCB_FS_OPEN);
		fc->fd = io->open(fc->m, fc->path, O_RDONLY);
	}
	if (fc->fd < 0) {
		r = fc->fd;
		fprintf(stderr, "ccbench: client %u: %s(%s%s): %s\n", cl->idx, fc->call,
		        io->where(fc->m), fc->path, strerror(-r));
		io->unmount(fc->m);
		free(fc);
		cl->path_data = NULL;
		return r;
	}
	if (fr->existing_files && !ccb_opt_given(run->opts, "file-size")) {
		struct ccb_fs_stat st;

		if (io->fstat(fc->m, fc->fd, &st) == 0)
			fc->file_bytes = st.size_bytes;
	}
	/* A reader starts cold: what the client kind can drop from a page
	 * cache goes, and what stays is said (explain's cache kind). */
	if (!run->is_write && io->drop_cache) {
		int64_t left = io->drop_cache(fc->m, fc->fd, fc->file_bytes);

		if (left < 0) {
			ccb_run_warn(run, "client %u: %s%s: the page cache check failed: %s",
			             cl->idx, io->where(fc->m), fc->path, strerror((int)-left));
		} else {
			fr->cache_checked = true;
			fr->cache_resident_bytes += (uint64_t)left;
			fr->cache_file_bytes += fc->file_bytes;
		}
	}
	if (cl->idx == 0)
		record_layout(run, fr, fc);
	return 0;
}

/* The calls of the op ccb_fs_stream_submit planned: a write (and, for
 * the last, the fsync that makes the whole file durable inside the time),
 * or a read. Only @p op is used (see struct ccb_fs_op). */
static int stream_exec(struct ccb_fs_op *op)
{
	const struct ccb_fs_io *io = op->io;
	int64_t n;

	if (op->write) {
		op->call = io->calls[CCB_FS_WRITE];
		n = io->pwrite(op->m, op->fd, op->buf, op->len_bytes, op->offset);
		if (n >= 0 && (uint64_t)n != op->len_bytes) {
			snprintf(op->extra, sizeof(op->extra), " (short write)");
			return -EIO;
		}
		if (n >= 0 && op->last) {
			int f;

			op->call = io->calls[CCB_FS_FSYNC];
			f = io->fsync(op->m, op->fd);
			if (f < 0)
				return f;
		}
	} else {
		/* A later pass (-d) starts cold too, where the client kind can. */
		if (op->rewind && io->drop_cache)
			io->drop_cache(op->m, op->fd, 0);
		op->call = io->calls[CCB_FS_READ];
		n = io->pread(op->m, op->fd, op->buf, op->len_bytes, op->offset);
		if (n >= 0 && (uint64_t)n != op->len_bytes) {
			snprintf(op->extra, sizeof(op->extra),
			         " (%lld of %" PRIu64 " bytes: file shorter?)", (long long)n,
			         op->len_bytes);
			return -EIO;
		}
	}
	return n < 0 ? (int)n : (int)op->len_bytes;
}

int ccb_fs_stream_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct ccb_fsrun *fr = run->path_data;
	struct ccb_fsclient *fc = cl->path_data;
	struct ccb_fs_op op;
	bool last = false, rewind = false;
	uint64_t len;

	if (fc->done)
		return CCB_SUBMIT_END;
	if (fr->deadline_nsec) {
		if (fc->pos >= fc->file_bytes) {
			fc->pos = 0;
			rewind = true;
		}
		last = s->start_nsec - run->start_nsec >= fr->deadline_nsec;
	} else if (fc->pos >= fc->file_bytes) {
		return CCB_SUBMIT_END;
	}
	len =
	    fc->file_bytes - fc->pos < fr->block_bytes ? fc->file_bytes - fc->pos : fr->block_bytes;
	if (!fr->deadline_nsec && fc->pos + len >= fc->file_bytes)
		last = true;
	s->offset = fc->pos;
	s->len_bytes = len;
	s->object = run->is_write;
	ccb_fs_op_init(&op, cl);
	op.write = run->is_write;
	op.offset = s->offset;
	op.len_bytes = len;
	op.last = last;
	op.rewind = rewind;
	fc->pos += len;
	if (last)
		fc->done = true;
	return fr->io->submit(cl, s, stream_exec, &op);
}

/* Each client's share of the aggregate and Jain's fairness index: a run
 * cannot measure one client alone and all together at once, so the
 * single-client figure comes from a --clients 1 run (or a sweep). */
void ccb_fs_stream_finish(struct ccb_run *run)
{
	struct ccb_fsrun *fr = run->path_data;
	double total = 0, *bw;
	json_t *shares, *own;

	if (!fr)
		return;
	if (fr->cache_checked)
		json_object_set_new(run->layout, "page_cache",
		                    json_pack("{s:b, s:I, s:I}", "dropped_at_open", true,
		                              "resident_at_start_bytes",
		                              (json_int_t)fr->cache_resident_bytes, "file_bytes",
		                              (json_int_t)fr->cache_file_bytes));
	if (run->n_clients > 1 && run->clients && (bw = calloc(run->n_clients, sizeof(*bw)))) {
		for (unsigned i = 0; i < run->n_clients; i++) {
			const struct ccb_client *cl = &run->clients[i];
			uint64_t ns = cl->last_op_nsec > run->start_nsec
			                  ? cl->last_op_nsec - run->start_nsec
			                  : 0;

			/* Over the client's own time, so an early finisher is not
			 * diluted by the others' tail. */
			bw[i] = ns ? (double)atomic_load(&((struct ccb_client *)cl)->bytes_done) /
			                 1048576.0 / ((double)ns / 1e9)
			           : 0;
			total += (double)atomic_load(&((struct ccb_client *)cl)->bytes_done);
		}
		shares = json_array();
		own = json_array();
		for (unsigned i = 0; i < run->n_clients; i++) {
			double b = (double)atomic_load(&run->clients[i].bytes_done);

			json_array_append_new(shares, json_real(total > 0 ? b / total : 0.0));
			json_array_append_new(own, json_real(bw[i]));
		}
		json_object_set_new(run->layout, "client_share", shares);
		json_object_set_new(run->layout, "client_own_time_mib_s", own);
		json_object_set_new(run->layout, "fairness_jain",
		                    json_real(ccb_jain_index(bw, run->n_clients)));
		free(bw);
	}
	ccb_fs_say_kept(run, fr);
}

/* The files bound fs runs whether or not a duration does. */
uint64_t ccb_fs_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                               uint64_t image_bytes, const char **bound)
{
	(void)mode;
	(void)one_pass;
	(void)image_bytes;
	(void)bound;
	return o->clients * CCB_FS_OPTS(o)->file_size_bytes;
}
