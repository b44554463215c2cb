/*
 * The CephFS stream path through libcephfs: dd-style fs write and fs
 * read (fs meta is path_cephfs_meta.c; what both share, the mounts, the
 * directory and the undo entries, is path_cephfs_common.c).
 *
 * Every client has its own ceph_mount, as two nodes would, and its own
 * file DIR/client-N. libcephfs calls are synchronous, so the path is
 * inline: submit makes the call and completes the slot before returning,
 * and the engine runs it at queue depth 1 per client.
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
 * control mount), so no reader starts with cached data.
 *
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/path.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/stats.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
	uint64_t chunk = fr->block_bytes > FILL_BYTES ? fr->block_bytes : FILL_BYTES;
	uint64_t t0 = ccb_now_nsec();
	char *buf = malloc(chunk), path[600];
	int r = 0;

	if (!buf)
		return -ENOMEM;
	for (uint64_t i = 0; i < chunk / 8; i++) {
		uint64_t x = (i + 1) * 0x9e3779b97f4a7c15ull;
		memcpy(buf + i * 8, &x, 8);
	}
	if (!run->opts->quiet)
		fprintf(stderr,
		        "ccbench: writing %u file(s) of %" PRIu64 " MiB in %s to read back "
		        "(not measured)\n",
		        run->n_clients, fr->file_bytes >> 20, fr->dir);
	for (unsigned c = 0; c < run->n_clients && !r; c++) {
		int fd;

		client_file(fr, c, path, sizeof(path));
		/* O_EXCL: only a file this run made is ever logged for removal. */
		fd = ceph_open_layout(fr->ctl, path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                      fr->stripe_unit, fr->stripe_count, fr->object_size,
		                      fr->data_pool);
		if (fd < 0) {
			fprintf(stderr, "ccbench: ceph_open_layout(%s): %s\n", path, strerror(-fd));
			r = fd;
			break;
		}
		if (!run->opts->keep &&
		    (r = ccb_fs_push_undo("remove a client's file", ccb_fs_undo_unlink, fr, path,
		                          "rm")) < 0) {
			ceph_close(fr->ctl, fd);
			ceph_unlink(fr->ctl, path);
			break;
		}
		ccb_fs_mark_made(run, fr, fr->ctl, path, fd);
		for (uint64_t off = 0; off < fr->file_bytes && !r; off += chunk) {
			uint64_t len = fr->file_bytes - off < chunk ? fr->file_bytes - off : chunk;
			int w;

			if (ccb_signal_pending) {
				r = -EINTR;
				break;
			}
			w = ceph_write(fr->ctl, fd, buf, (int64_t)len, (int64_t)off);
			if (w < 0 || (uint64_t)w != len) {
				r = w < 0 ? w : -EIO;
				fprintf(stderr,
				        "ccbench: ceph_write(%s) at offset %" PRIu64 ": %s%s\n",
				        path, off, strerror(-r),
				        r == -ENOSPC || r == -EDQUOT ? " (the data pool is full or "
				                                       "over its quota)"
				                                     : "");
			}
		}
		if (!r && (r = ceph_fsync(fr->ctl, fd, 0)) < 0)
			fprintf(stderr, "ccbench: ceph_fsync(%s): %s\n", path, strerror(-r));
		ceph_close(fr->ctl, fd);
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
	uint64_t smallest = UINT64_MAX;
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ceph_statx stx;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = ceph_statx(fr->ctl, path, &stx, CEPH_STATX_SIZE | CEPH_STATX_MODE, 0);
		if (r < 0 || !S_ISREG(stx.stx_mode)) {
			fprintf(
			    stderr,
			    "ccbench: fs read --dir %s: ceph_statx(%s): %s (write the files first: "
			    "ccbench fs write --keep --dir %s --clients %u)\n",
			    fr->dir, path, r < 0 ? strerror(-r) : "not a regular file", fr->dir,
			    run->n_clients);
			run->bad_input = true;
			return r < 0 ? r : -EINVAL;
		}
		if (ccb_opt_given(o, "file-size") && stx.stx_size < o->file_size_bytes) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s: %s holds %" PRIu64 " bytes, less than "
			        "--file-size %" PRIu64 "\n",
			        fr->dir, path, (uint64_t)stx.stx_size, o->file_size_bytes);
			run->bad_input = true;
			return -EINVAL;
		}
		if (stx.stx_size < smallest)
			smallest = stx.stx_size;
	}
	/* Without --file-size, each reader reads its whole file (set in
	 * client_open); this is the figure the layout reports. */
	fr->file_bytes = ccb_opt_given(o, "file-size") ? o->file_size_bytes : smallest;
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
	char path[600];

	for (unsigned c = 0; c < run->n_clients; c++) {
		struct ceph_statx stx;
		int r;

		client_file(fr, c, path, sizeof(path));
		r = ceph_statx(fr->ctl, path, &stx, CEPH_STATX_MODE, AT_SYMLINK_NOFOLLOW);
		if (r == -ENOENT)
			continue;
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_statx(%s): %s\n", path, strerror(-r));
			return r;
		}
		r = S_ISREG(stx.stx_mode) ? ccb_fs_is_marked(fr->ctl, path) : 0;
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_getxattr(%s, %s): %s\n", path,
			        CCB_FS_MARK_XATTR, strerror(-r));
			return r;
		}
		if (!r) {
			fprintf(stderr,
			        "ccbench: --reuse: %s exists and was not written by ccbench (no %s "
			        "marker); refusing to replace it (move it away, or choose another "
			        "--dir)\n",
			        path, CCB_FS_MARK_XATTR);
			run->bad_input = true;
			return -EEXIST;
		}
	}
	return 0;
}

static int fs_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fsrun *fr;
	char err[1024];
	int r;

	/* The rules ccb_opts_validate() applies; repeated for sweeps and
	 * groups, which build their options elsewhere. Before any mount. */
	if (ccb_fs_validate(o, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = true;
		return -EINVAL;
	}
	r = ccb_fs_run_open(run, sizeof(*fr), &fr);
	if (r < 0)
		return r;
	fr->existing_files = run->mode == CCB_MODE_SEQ && o->dir;
	if (fr->existing_files) {
		struct ceph_statx stx;

		r = ceph_statx(fr->ctl, fr->dir, &stx, CEPH_STATX_MODE, 0);
		if (r < 0 || !S_ISDIR(stx.stx_mode)) {
			fprintf(stderr,
			        "ccbench: fs read --dir %s: %s (write it first: ccbench fs "
			        "write --keep --dir %s)\n",
			        fr->dir, r < 0 ? strerror(-r) : "not a directory", fr->dir);
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

/* The layout CephFS gave the file, read back rather than assumed. */
static void record_layout(struct ccb_run *run, struct ccb_fsrun *fr, struct ccb_fsclient *fc)
{
	int su = 0, sc = 0, os = 0, pool = 0, r;
	char pool_name[256] = "";
	json_t *j;

	r = ceph_get_file_layout(fc->cm, fc->fd, &su, &sc, &os, &pool);
	if (r < 0) {
		ccb_run_warn(run, "ceph_get_file_layout(%s): %s", fc->path, strerror(-r));
		return;
	}
	ceph_get_file_pool_name(fc->cm, fc->fd, pool_name, sizeof(pool_name));
	j = json_pack("{s:i, s:i, s:i, s:s, s:i, s:i}", "object_size", os, "stripe_unit", su,
	              "stripe_count", sc, "pool", pool_name, "pool_id", pool, "replication",
	              ceph_get_file_replication(fc->cm, fc->fd));
	json_object_set_new(run->layout, "file_layout", j);
	if ((fr->object_size && os != fr->object_size) ||
	    (fr->stripe_unit && su != fr->stripe_unit) ||
	    (fr->stripe_count && sc != fr->stripe_count) ||
	    (fr->data_pool && strcmp(pool_name, fr->data_pool) != 0))
		ccb_run_warn(run,
		             "%s: layout differs from the one asked for (an existing file keeps "
		             "its layout)",
		             fc->path);
}

static int fs_client_open(struct ccb_client *cl)
{
	struct ccb_run *run = cl->run;
	struct ccb_fsrun *fr = run->path_data;
	struct ccb_fsclient *fc;
	int r = ccb_fs_client_mount(cl, &fc);

	if (r < 0)
		return r;
	client_file(fr, cl->idx, fc->path, sizeof(fc->path));
	fc->file_bytes = fr->file_bytes;
	if (run->is_write) {
		/* A reused directory may hold this file from an earlier run: it is
		 * made anew, since an existing file keeps its old layout. Only a
		 * file with ccbench's marker goes (checked in prepare, and again
		 * here, just before); O_EXCL then makes sure the file is ours. */
		r = ccb_fs_is_marked(fc->cm, fc->path);
		if (r > 0)
			r = ceph_unlink(fc->cm, fc->path);
		else if (r == 0 && ceph_statx(fc->cm, fc->path, &(struct ceph_statx){0}, 0,
		                              AT_SYMLINK_NOFOLLOW) == 0)
			r = -EEXIST;
		fc->call = "ceph_open_layout";
		fc->fd = r < 0 && r != -ENOENT
		             ? r
		             : ceph_open_layout(fc->cm, fc->path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                                fr->stripe_unit, fr->stripe_count, fr->object_size,
		                                fr->data_pool);
		if (fc->fd >= 0 && !run->opts->keep &&
		    (r = ccb_fs_push_undo("remove a client's file", ccb_fs_undo_unlink, fr,
		                          fc->path, "rm")) < 0) {
			ceph_close(fc->cm, fc->fd);
			ceph_unlink(fc->cm, fc->path);
			fc->fd = r;
		}
		if (fc->fd >= 0)
			ccb_fs_mark_made(run, fr, fc->cm, fc->path, fc->fd);
	} else {
		fc->call = "ceph_open";
		fc->fd = ceph_open(fc->cm, fc->path, O_RDONLY, 0);
	}
	if (fc->fd < 0) {
		r = fc->fd;
		fprintf(stderr, "ccbench: client %u: %s(%s): %s\n", cl->idx, fc->call, fc->path,
		        strerror(-r));
		ccb_fs_unmount(fc->cm);
		free(fc);
		cl->path_data = NULL;
		return r;
	}
	if (fr->existing_files && !ccb_opt_given(run->opts, "file-size")) {
		struct ceph_statx stx;

		if (ceph_fstatx(fc->cm, fc->fd, &stx, CEPH_STATX_SIZE, 0) == 0)
			fc->file_bytes = stx.stx_size;
	}
	if (cl->idx == 0)
		record_layout(run, fr, fc);
	return 0;
}

static int stream_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct ccb_fsrun *fr = run->path_data;
	struct ccb_fsclient *fc = cl->path_data;
	bool last = false;
	uint64_t len;
	int r;

	if (fc->done)
		return CCB_SUBMIT_END;
	if (fr->deadline_nsec) {
		if (fc->pos >= fc->file_bytes)
			fc->pos = 0;
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
	if (run->is_write) {
		fc->call = "ceph_write";
		r = ceph_write(fc->cm, fc->fd, s->buf, (int64_t)len, (int64_t)fc->pos);
		if (r >= 0 && (uint64_t)r != len) {
			ccb_fs_set_error(cl, s, -EIO, " (short write)");
			r = -EIO;
		}
		if (r >= 0 && last) {
			int f;

			fc->call = "ceph_fsync";
			f = ceph_fsync(fc->cm, fc->fd, 0);
			if (f < 0)
				r = f;
		}
	} else {
		fc->call = "ceph_read";
		r = ceph_read(fc->cm, fc->fd, s->buf, (int64_t)len, (int64_t)fc->pos);
		if (r >= 0 && (uint64_t)r != len) {
			char extra[96];

			snprintf(extra, sizeof(extra), " (%d of %" PRIu64 " bytes: file shorter?)",
			         r, len);
			ccb_fs_set_error(cl, s, -EIO, extra);
			r = -EIO;
		}
	}
	fc->pos += len;
	if (last)
		fc->done = true;
	if (r < 0)
		ccb_fs_set_error(cl, s, r, NULL);
	ccb_slot_done(s, r);
	return 0;
}

/* Each client's share of the aggregate and Jain's fairness index: a run
 * cannot measure one client alone and all together at once, so the
 * single-client figure comes from a --clients 1 run (or a sweep). */
static void fs_finish(struct ccb_run *run)
{
	struct ccb_fsrun *fr = run->path_data;
	double total = 0, *bw;
	json_t *shares, *own;

	if (!fr)
		return;
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
static uint64_t fs_estimate_bytes(const struct ccb_opts *o, enum ccb_mode mode, bool one_pass,
                                  uint64_t image_bytes, const char **bound)
{
	(void)mode;
	(void)one_pass;
	(void)image_bytes;
	(void)bound;
	return o->clients * o->file_size_bytes;
}

const struct ccb_path_ops ccb_path_cephfs = {
    .name = "cephfs",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES,
    .cmd_bit = CCB_CMD_FS,
    .op_size_opt = "block-size",
    .validate = ccb_fs_validate,
    .estimate_bytes = fs_estimate_bytes,
    .prepare = fs_prepare,
    .client_open = fs_client_open,
    .submit = stream_submit,
    .describe = ccb_fs_describe,
    .client_close = ccb_fs_client_close,
    .finish = fs_finish,
};
