/*
 * fs meta: bonnie++-style small-file metadata rates (bonnie++ -n
 * N:MAX:MIN:DIRS), through libcephfs (path_cephfs.c's table) or a mount
 * (path_posix.c's table, the same functions over POSIX calls), below both
 * tables, which it never names. Two blocks of three phases, as
 * bonnie's Sequential Create and Random Create: create every file (open O_EXCL, write its bytes,
 * close), stat and read each, delete each; first in name order, then in a fresh random order per
 * phase. Each phase has its own rate and latency histogram ("phases" in the result).
 *
 * One client, as one bonnie++ process (--group runs several). The files
 * live in DIR/meta, made by this run and removed whole at its end; the
 * directory is path_cephfs_common.c's, the undo entries cephfs_remove.c's, the calls
 * the run's struct ccb_fs_io. Submit plans each op; the client kind runs
 * its calls (meta_exec); the phase's figures are recorded on the client
 * thread once the op completed (ccb_fs_meta_complete).
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/clock.h>
#include <ccbench/hist.h>
#include <ccbench/path.h>
#include <ccbench/result.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "fs_opts.h"
#include "fs_spec.h"

/* bonnie's two blocks of three phases. */
enum { PH_CREATE, PH_READ, PH_DELETE, PH_KINDS };
#define N_PHASES (2 * PH_KINDS)

struct phase {
	struct ccb_hist hist;
	uint64_t ops, bytes;
	uint64_t start_nsec, end_nsec;
};

/* The run's state: the CephFS run's, then the workload's. */
struct fsmeta {
	struct ccb_fsrun fs; /* first: run->path_data is both */
	struct ccb_fs_spec spec;
	uint32_t *perm[PH_KINDS]; /* random order of each phase of the random block */
	unsigned phase;
	uint64_t step;
	struct phase *phases;
	/* libcephfs: the inodes of the directories the files are in (DIR/meta,
	 * or its d00000 ...), which deletes go through; NULL on a mount. */
	uint64_t *dir_ino;
};

static void meta_release(struct ccb_fsrun *fr)
{
	struct fsmeta *fm = (struct fsmeta *)fr;

	for (int i = 0; i < PH_KINDS; i++)
		free(fm->perm[i]);
	free(fm->phases);
	free(fm->dir_ino);
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* Size of meta file @p idx: uniform in [min, max], the same at create and read. */
static uint64_t meta_file_bytes(const struct fsmeta *fm, uint64_t idx)
{
	uint64_t span = fm->spec.max_bytes - fm->spec.min_bytes + 1;

	return fm->spec.min_bytes + mix64(idx + 1) % span;
}

static void meta_path(const struct fsmeta *fm, uint64_t idx, char *buf, size_t len)
{
	if (fm->spec.dirs > 1)
		snprintf(buf, len, "%s/meta/d%05" PRIu64 "/f%08" PRIu64, fm->fs.dir,
		         idx % fm->spec.dirs, idx);
	else
		snprintf(buf, len, "%s/meta/f%08" PRIu64, fm->fs.dir, idx);
}

static int make_tree(struct ccb_run *run, struct fsmeta *fm)
{
	struct ccb_fsrun *fr = &fm->fs;
	char path[600];
	uint64_t rng = mix64((uint64_t)getpid() ^ ccb_now_nsec());
	int r;

	snprintf(path, sizeof(path), "%s/meta", fr->dir);
	/* The tree is removed whole at the end, so it must be this run's:
	 * logged only once mkdir made it. An existing DIR/meta is refused,
	 * even an earlier run's (--keep): by now it may hold others' files. */
	r = fr->io->mkdir(fr->ctl, path);
	if (r == -EEXIST) {
		int m = ccb_fs_is_marked(fr, fr->ctl, path);

		fprintf(stderr,
		        "ccbench: fs meta --dir %s: %s%s exists (%s); refusing to write into it "
		        "(remove it, or choose another --dir)\n",
		        fr->dir, fr->io->where(fr->ctl), path,
		        m > 0 ? "left by an earlier ccbench fs meta --keep"
		              : "not made by ccbench");
		run->bad_input = true;
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: %s(%s%s): %s\n", ccb_fs_call_name(fr, CCB_FS_MKDIR),
		        fr->io->where(fr->ctl), path, strerror(-r));
		return r;
	}
	if (!run->opts->keep && (r = ccb_fs_push_undo("remove the run's files", ccb_fs_undo_rm_tree,
	                                              fr, fr->ctl, path, -1, "rm -r")) < 0) {
		fr->io->rmdir(fr->ctl, path);
		return r;
	}
	ccb_fs_mark_made(run, fr, fr->ctl, path, -1);
	if (fr->made) {
		fm->dir_ino = calloc(fm->spec.dirs > 1 ? fm->spec.dirs : 1, sizeof(*fm->dir_ino));
		if (!fm->dir_ino)
			return -ENOMEM;
		if (fm->spec.dirs <= 1 &&
		    (r = ccb_fs_record(fr, fr->ctl, path, -1, &fm->dir_ino[0], NULL)) < 0)
			return r;
	}
	/* The directories are set-up, as in bonnie++: made before the clock starts. */
	for (uint64_t d = 0; fm->spec.dirs > 1 && d < fm->spec.dirs; d++) {
		snprintf(path, sizeof(path), "%s/meta/d%05" PRIu64, fr->dir, d);
		r = fr->io->mkdir(fr->ctl, path);
		if (r < 0) {
			fprintf(stderr, "ccbench: %s(%s%s): %s\n",
			        ccb_fs_call_name(fr, CCB_FS_MKDIR), fr->io->where(fr->ctl), path,
			        strerror(-r));
			return r;
		}
		if ((r = ccb_fs_record(fr, fr->ctl, path, -1, fm->dir_ino ? &fm->dir_ino[d] : NULL,
		                       NULL)) < 0)
			return r;
		if (ccb_signal_pending)
			return -EINTR;
	}
	/* The random block visits the files in a fresh order per phase; the
	 * orders are drawn now so shuffling is not timed. */
	for (int k = 0; k < PH_KINDS; k++) {
		uint32_t *p = malloc(fm->spec.files * sizeof(*p));

		if (!p)
			return -ENOMEM;
		fm->perm[k] = p;
		for (uint64_t i = 0; i < fm->spec.files; i++)
			p[i] = (uint32_t)i;
		for (uint64_t i = fm->spec.files - 1; i > 0; i--) {
			uint64_t j = (rng = mix64(rng + i)) % (i + 1);
			uint32_t t = p[i];
			p[i] = p[j];
			p[j] = t;
		}
	}
	fm->phases = calloc(N_PHASES, sizeof(*fm->phases));
	if (!fm->phases)
		return -ENOMEM;
	for (int i = 0; i < N_PHASES; i++)
		ccb_hist_init(&fm->phases[i].hist);
	return 0;
}

int ccb_fs_meta_prepare(struct ccb_run *run, const struct ccb_fs_io *io)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fs_spec spec;
	struct ccb_fsrun *fr;
	struct fsmeta *fm;
	char err[1024];
	int r;

	/* The rules ccb_opts_validate() applies; repeated for sweeps and
	 * groups, which build their options elsewhere. Before any mount. */
	if ((run->ops->validate && run->ops->validate(o, err, sizeof(err)) < 0) ||
	    ccb_fs_spec_parse(CCB_FS_OPTS(o)->files_spec, &spec, err, sizeof(err)) < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		run->bad_input = true;
		return -EINVAL;
	}
	if (run->n_clients > 1) {
		fprintf(stderr, "ccbench: fs meta: --clients must be 1 (one bonnie++ process); run "
		                "several ccbench fs meta with --group for concurrent clients\n");
		run->bad_input = true;
		return -EINVAL;
	}
	/* Its files have any size between MIN and MAX: O_DIRECT wants whole
	 * blocks. */
	if (o->direct) {
		fprintf(stderr, "ccbench: fs meta: --direct: not for files of any size (-n "
		                "N:MAX:MIN); fs write and fs read take it\n");
		run->bad_input = true;
		return -EINVAL;
	}
	r = ccb_fs_run_open(run, io, sizeof(*fm), &fr);
	if (r < 0)
		return r;
	fm = (struct fsmeta *)fr;
	fm->spec = spec;
	fr->release = meta_release;
	r = ccb_fs_claim_dir(run, fr);
	if (r < 0)
		return r;
	r = make_tree(run, fm);
	if (r < 0)
		return r;
	ccb_fs_take_deadline(run, fr);
	run->buf_bytes = fm->spec.max_bytes > 4096 ? fm->spec.max_bytes : 4096;
	ccb_fs_layout(run, fr);
	return 0;
}

int ccb_fs_meta_client_open(struct ccb_client *cl)
{
	struct ccb_fsclient *fc;

	return ccb_fs_client_mount(cl, &fc);
}

void ccb_fs_meta_finish(struct ccb_run *run)
{
	const struct ccb_fsrun *fr = run->path_data;

	if (fr)
		ccb_fs_say_kept(run, fr);
}

/* One metadata op (planned by ccb_fs_meta_submit: the file in op->path,
 * its bytes in op->len_bytes): create (open O_CREAT|O_EXCL, write the
 * file's bytes, close), stat+read (stat, then open, read, close when the
 * file has data), or delete (unlink). Only @p op is used. */
static int meta_exec(struct ccb_fs_op *op)
{
	const struct ccb_fs_io *io = op->io;
	struct ccb_fs_stat st;
	uint64_t bytes = op->len_bytes;
	int64_t n;
	int r, fd, c;

	switch (op->kind) {
	case CCB_FS_META_CREATE:
		op->call = io->calls[CCB_FS_CREATE];
		r = fd = io->create(op->m, op->path, &op->layout);
		if (fd < 0)
			break;
		/* Its inode, for the removal's record (libcephfs): a local call
		 * on the open file, which holds its caps. */
		if (op->want_ino && io->file_ino(op->m, NULL, fd, &op->ino) < 0)
			op->ino = 0;
		if (bytes) {
			op->call = io->calls[CCB_FS_WRITE];
			n = io->pwrite(op->m, fd, op->buf, bytes, 0);
			r = n < 0 ? (int)n : (uint64_t)n != bytes ? -EIO : 0;
		}
		c = io->close(op->m, fd);
		if (r >= 0 && c < 0) {
			op->call = io->calls[CCB_FS_CLOSE];
			r = c;
		}
		break;
	case CCB_FS_META_READ:
		op->call = io->calls[CCB_FS_STAT];
		r = io->stat(op->m, op->path, &st);
		if (r < 0)
			break;
		if (st.size_bytes != bytes) {
			snprintf(op->extra, sizeof(op->extra),
			         " (size differs from the one written)");
			r = -EIO;
			break;
		}
		if (!bytes)
			break;
		op->call = io->calls[CCB_FS_OPEN];
		r = fd = io->open(op->m, op->path, O_RDONLY);
		if (fd < 0)
			break;
		op->call = io->calls[CCB_FS_READ];
		n = io->pread(op->m, fd, op->buf, bytes, 0);
		r = n < 0 ? (int)n : (uint64_t)n != bytes ? -EIO : 0;
		io->close(op->m, fd);
		break;
	default:
		/* libcephfs follows a link on the way: a DIR/meta another
		 * client swapped for one would have an unlink by path take
		 * someone else's file of the same name. Only a file this run
		 * made goes, unlinked from its directory's inode. */
		op->call = io->calls[CCB_FS_UNLINK];
		/* Through its directory's inode, the window closed (CI of
		 * 2026-12-04: a link retargeted between the check below and the
		 * unlink by path took one of another tree's files). */
		if (op->made && op->dir_ino) {
			op->call = "ceph_ll_unlink";
			r = ccb_fs_ll_unlink_made(op->m, op->made, op->dir_ino,
			                          strrchr(op->path, '/') + 1);
			if (r == -EEXIST)
				snprintf(op->extra, sizeof(op->extra),
				         " (not the file this run made: another client replaced it "
				         "or a directory on the way; left)");
			break;
		}
		if (op->made) {
			uint64_t ino = 0;

			r = io->file_ino(op->m, op->path, -1, &ino);
			if (r == 0 && ccb_fs_made_find(op->made, ino) != 0) {
				snprintf(op->extra, sizeof(op->extra),
				         " (not the file this run made: another client replaced it "
				         "or a directory on the way; left)");
				r = -EEXIST;
			}
			if (r < 0)
				break;
		}
		r = io->unlink(op->m, op->path);
		break;
	}
	return r < 0 ? r : (int)op->len_bytes;
}

/* The next op of the current phase: which file, in which order. */
int ccb_fs_meta_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct fsmeta *fm = run->path_data;
	struct ccb_fsclient *fc = cl->path_data;
	struct ccb_fs_op op;
	uint64_t idx;
	int kind;

	if (fm->phase >= N_PHASES)
		return CCB_SUBMIT_END;
	kind = (int)(fm->phase % PH_KINDS);
	idx = fm->phase < PH_KINDS ? fm->step : fm->perm[kind][fm->step];
	meta_path(fm, idx, fc->path, sizeof(fc->path));
	s->offset = 0;
	s->object = idx;
	s->len_bytes = kind == PH_DELETE ? 0 : meta_file_bytes(fm, idx);
	fc->op_phase = fm->phase;
	if (++fm->step == fm->spec.files) {
		fm->phase++;
		fm->step = 0;
	}
	ccb_fs_op_init(&op, cl);
	op.kind = kind == PH_CREATE ? CCB_FS_META_CREATE
	          : kind == PH_READ ? CCB_FS_META_READ
	                            : CCB_FS_META_DELETE;
	op.len_bytes = s->len_bytes;
	if (op.kind == CCB_FS_META_DELETE && op.made && fm->dir_ino)
		op.dir_ino = fm->dir_ino[fm->spec.dirs > 1 ? idx % fm->spec.dirs : 0];
	return fm->fs.io->submit(cl, s, meta_exec, &op);
}

/* On the client thread, once the op completed: its phase's figures. */
int ccb_fs_meta_complete(struct ccb_client *cl, struct ccb_slot *s)
{
	struct fsmeta *fm = cl->run->path_data;
	struct ccb_fsclient *fc = cl->path_data;
	struct phase *ph = &fm->phases[fc->op_phase];

	ccb_hist_record(&ph->hist, s->end_nsec - s->start_nsec);
	if (!ph->ops)
		ph->start_nsec = s->start_nsec;
	ph->end_nsec = s->end_nsec;
	ph->ops++;
	ph->bytes += s->len_bytes;
	return 0;
}

/* fs meta: the phases, bonnie's Sequential Create and Random Create blocks. */
void ccb_fs_meta_result(const struct ccb_run *run, json_t *res)
{
	static const char *const names[PH_KINDS] = {"create", "read", "delete"};
	const struct fsmeta *fm = run->path_data;
	json_t *phases;

	if (!fm || !fm->phases)
		return;
	phases = json_array();
	for (int i = 0; i < N_PHASES; i++) {
		const struct phase *ph = &fm->phases[i];
		double secs = (double)(ph->end_nsec - ph->start_nsec) / 1e9;

		json_array_append_new(
		    phases,
		    json_pack("{s:s, s:s, s:I, s:I, s:b, s:f, s:f, s:o}", "name",
		              names[i % PH_KINDS], "order", i < PH_KINDS ? "sequential" : "random",
		              "ops", (json_int_t)ph->ops, "bytes", (json_int_t)ph->bytes,
		              "complete", ph->ops == fm->spec.files, "seconds", secs, "ops_per_s",
		              secs > 0 ? (double)ph->ops / secs : 0.0, "latency_us",
		              ccb_result_latency(&ph->hist)));
	}
	json_object_set_new(res, "phases", phases);
	json_object_set_new(
	    res, "files",
	    json_pack("{s:s, s:I, s:I, s:I, s:I}", "spec", CCB_FS_OPTS(run->opts)->files_spec,
	              "count", (json_int_t)fm->spec.files, "max_bytes",
	              (json_int_t)fm->spec.max_bytes, "min_bytes", (json_int_t)fm->spec.min_bytes,
	              "dirs", (json_int_t)fm->spec.dirs));
}
