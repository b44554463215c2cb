/*
 * fs meta: bonnie++-style small-file metadata rates through libcephfs
 * (bonnie++ -n N:MAX:MIN:DIRS). Two blocks of three phases, as bonnie's
 * Sequential Create and Random Create: create every file (open O_EXCL,
 * write its bytes, close), stat and read each, delete each; first in name
 * order, then in a fresh random order per phase. Each phase has its own
 * rate and latency histogram ("phases" in the result).
 *
 * One client, as one bonnie++ process (--group runs several). The files
 * live in DIR/meta, made by this run and removed whole at its end; the
 * mounts, the directory and the undo entries are path_cephfs_common.c's.
 */
/* libcephfs refuses a 32-bit off_t: its readdir results would be corrupt. */
#define _FILE_OFFSET_BITS 64

#include "path_cephfs_int.h"

#include <ccbench/hist.h>
#include <ccbench/path.h>
#include <ccbench/path_cephfs.h>
#include <ccbench/result.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
};

static void meta_release(struct ccb_fsrun *fr)
{
	struct fsmeta *fm = (struct fsmeta *)fr;

	for (int i = 0; i < PH_KINDS; i++)
		free(fm->perm[i]);
	free(fm->phases);
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
	r = ceph_mkdir(fr->ctl, path, 0755);
	if (r == -EEXIST) {
		int m = ccb_fs_is_marked(fr->ctl, path);

		fprintf(stderr,
		        "ccbench: fs meta --dir %s: %s exists (%s); refusing to write into it "
		        "(remove it, or choose another --dir)\n",
		        fr->dir, path,
		        m > 0 ? "left by an earlier ccbench fs meta --keep"
		              : "not made by ccbench");
		run->bad_input = true;
		return r;
	}
	if (r < 0) {
		fprintf(stderr, "ccbench: ceph_mkdir(%s): %s\n", path, strerror(-r));
		return r;
	}
	if (!run->opts->keep && (r = ccb_fs_push_undo("remove the run's files", ccb_fs_undo_rm_tree,
	                                              fr, path, "rm -r")) < 0) {
		ceph_rmdir(fr->ctl, path);
		return r;
	}
	ccb_fs_mark_made(run, fr, fr->ctl, path, -1);
	/* The directories are set-up, as in bonnie++: made before the clock starts. */
	for (uint64_t d = 0; fm->spec.dirs > 1 && d < fm->spec.dirs; d++) {
		snprintf(path, sizeof(path), "%s/meta/d%05" PRIu64, fr->dir, d);
		r = ceph_mkdir(fr->ctl, path, 0755);
		if (r < 0) {
			fprintf(stderr, "ccbench: ceph_mkdir(%s): %s\n", path, strerror(-r));
			return r;
		}
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

static int meta_prepare(struct ccb_run *run)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_fs_spec spec;
	struct ccb_fsrun *fr;
	struct fsmeta *fm;
	char err[1024];
	int r;

	/* The rules ccb_opts_validate() applies; repeated for sweeps and
	 * groups, which build their options elsewhere. Before any mount. */
	if (ccb_fs_validate(o, err, sizeof(err)) < 0 ||
	    ccb_fs_spec_parse(o->files_spec, &spec, err, sizeof(err)) < 0) {
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
	r = ccb_fs_run_open(run, sizeof(*fm), &fr);
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

static int meta_client_open(struct ccb_client *cl)
{
	struct ccb_fsclient *fc;

	return ccb_fs_client_mount(cl, &fc);
}

static void meta_finish(struct ccb_run *run)
{
	const struct ccb_fsrun *fr = run->path_data;

	if (fr)
		ccb_fs_say_kept(run, fr);
}

/* One metadata op of the current phase: create (open O_CREAT|O_EXCL,
 * write the file's bytes, close), stat+read (statx, then open, read,
 * close when the file has data), or delete (unlink). */
static int meta_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct ccb_run *run = cl->run;
	struct fsmeta *fm = run->path_data;
	struct ccb_fsrun *fr = &fm->fs;
	struct ccb_fsclient *fc = cl->path_data;
	struct ceph_statx stx;
	struct phase *ph;
	uint64_t idx, bytes, end;
	int kind, r, fd, c;

	if (fm->phase >= N_PHASES)
		return CCB_SUBMIT_END;
	ph = &fm->phases[fm->phase];
	kind = (int)(fm->phase % PH_KINDS);
	idx = fm->phase < PH_KINDS ? fm->step : fm->perm[kind][fm->step];
	meta_path(fm, idx, fc->path, sizeof(fc->path));
	bytes = meta_file_bytes(fm, idx);
	s->offset = 0;
	s->object = idx;
	s->len_bytes = kind == PH_DELETE ? 0 : bytes;
	switch (kind) {
	case PH_CREATE:
		fc->call = "ceph_open_layout";
		r = fd = ceph_open_layout(fc->cm, fc->path, O_CREAT | O_EXCL | O_WRONLY, 0644,
		                          fr->stripe_unit, fr->stripe_count, fr->object_size,
		                          fr->data_pool);
		if (fd < 0)
			break;
		if (bytes) {
			fc->call = "ceph_write";
			r = ceph_write(fc->cm, fd, s->buf, (int64_t)bytes, 0);
			if (r >= 0 && (uint64_t)r != bytes)
				r = -EIO;
		}
		c = ceph_close(fc->cm, fd);
		if (r >= 0 && c < 0) {
			fc->call = "ceph_close";
			r = c;
		}
		break;
	case PH_READ:
		fc->call = "ceph_statx";
		r = ceph_statx(fc->cm, fc->path, &stx, CEPH_STATX_BASIC_STATS, 0);
		if (r < 0)
			break;
		if (stx.stx_size != bytes) {
			ccb_fs_set_error(cl, s, -EIO, " (size differs from the one written)");
			r = -EIO;
			break;
		}
		if (!bytes)
			break;
		fc->call = "ceph_open";
		r = fd = ceph_open(fc->cm, fc->path, O_RDONLY, 0);
		if (fd < 0)
			break;
		fc->call = "ceph_read";
		r = ceph_read(fc->cm, fd, s->buf, (int64_t)bytes, 0);
		if (r >= 0 && (uint64_t)r != bytes)
			r = -EIO;
		ceph_close(fc->cm, fd);
		break;
	default:
		fc->call = "ceph_unlink";
		r = ceph_unlink(fc->cm, fc->path);
		break;
	}
	end = ccb_now_nsec();
	if (r >= 0) {
		r = (int)s->len_bytes;
		ccb_hist_record(&ph->hist, end - s->start_nsec);
		if (!ph->ops)
			ph->start_nsec = s->start_nsec;
		ph->end_nsec = end;
		ph->ops++;
		ph->bytes += s->len_bytes;
	} else {
		ccb_fs_set_error(cl, s, r, NULL);
	}
	if (++fm->step == fm->spec.files) {
		fm->phase++;
		fm->step = 0;
	}
	ccb_slot_done(s, r);
	return 0;
}

/* fs meta: the phases, bonnie's Sequential Create and Random Create blocks. */
static void meta_result(const struct ccb_run *run, json_t *res)
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
	json_object_set_new(res, "files",
	                    json_pack("{s:s, s:I, s:I, s:I, s:I}", "spec", run->opts->files_spec,
	                              "count", (json_int_t)fm->spec.files, "max_bytes",
	                              (json_int_t)fm->spec.max_bytes, "min_bytes",
	                              (json_int_t)fm->spec.min_bytes, "dirs",
	                              (json_int_t)fm->spec.dirs));
}

const struct ccb_path_ops ccb_path_cephfs_meta = {
    .name = "cephfs",
    .flags = CCB_PATH_ONE_PASS | CCB_PATH_SYNC | CCB_PATH_FILES,
    .cmd_bit = CCB_CMD_FS,
    .op_size_opt = "block-size",
    .validate = ccb_fs_validate,
    .prepare = meta_prepare,
    .client_open = meta_client_open,
    .submit = meta_submit,
    .describe = ccb_fs_describe,
    .client_close = ccb_fs_client_close,
    .finish = meta_finish,
    .result = meta_result,
};
