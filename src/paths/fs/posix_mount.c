/*
 * The POSIX path's mounts and the threads their calls run on: the run's
 * directory (--mount DIR) or the mounts ccbench makes itself
 * (--mount-via, through fs_mount.c), and on a CephFS mount one worker
 * thread per client with a monitor that abandons a call past
 * --op-timeout, or a second after Ctrl-C.
 *
 * Its own file: the threads and their locking are the one concurrent part
 * of the path, and the calls of path_posix.c never see them (they run on
 * whichever thread this file hands them to).
 */
#define _FILE_OFFSET_BITS 64

#include <ccbench/clock.h>
#include <ccbench/fs_mount.h>
#include "path_posix_int.h"

#include "../mountinfo.h"
#include <ccbench/path.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "fs_opts.h"

/* A client's worker thread and the op handed to it. */
struct pworker {
	struct ccb_client *cl;
	struct ccb_fsclient *fc; /* kept while a call is stuck: the worker's then */
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ccb_slot *op; /* handed over, not completed (NULL once abandoned) */
	struct ccb_fs_op work;
	ccb_fs_exec_fn exec;
	char *buf;    /* its own: a stuck call may write into it after the run */
	bool taken;   /* the worker has started @c op */
	bool in_call; /* ... and is inside its calls */
	bool quit;
	struct pworker *next;
};

/* ---- the worker threads and their monitor -------------------------------------- */

static void worker_free(struct pworker *w)
{
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w->buf);
	free(w);
}

/* One client's calls, one op at a time, on the worker's own copy of it. */
static void *worker_main(void *arg)
{
	struct pworker *w = arg;

	for (;;) {
		struct ccb_slot *mine;
		struct ccb_fs_op op;
		bool orphan;
		int r;

		pthread_mutex_lock(&w->lock);
		while (!w->quit && (!w->op || w->taken))
			pthread_cond_wait(&w->cond, &w->lock);
		if (w->quit) {
			pthread_mutex_unlock(&w->lock);
			return NULL;
		}
		mine = w->op;
		op = w->work;
		w->taken = w->in_call = true;
		pthread_mutex_unlock(&w->lock);

		r = w->exec(&op);

		pthread_mutex_lock(&w->lock);
		w->in_call = false;
		/* Not abandoned by the monitor meanwhile: completed under the
		 * lock, so the monitor cannot take it now. */
		if (w->op == mine) {
			w->op = NULL;
			ccb_fs_complete_op(w->cl, mine, r, &op);
		}
		orphan = w->quit;
		pthread_mutex_unlock(&w->lock);
		if (orphan) {
			/* The client was closed while this call hung: its file, mount
			 * and state were left to this thread, the last to use them. */
			struct ccb_fsclient *fc = w->fc;

			if (fc->fd >= 0)
				op.io->close(fc->m, fc->fd);
			op.io->unmount(fc->m);
			free(fc);
			worker_free(w);
			return NULL;
		}
	}
}

static int worker_submit(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                         const struct ccb_fs_op *op)
{
	struct ccb_fsclient *fc = cl->path_data;
	struct pworker *w = fc->io_client;

	pthread_mutex_lock(&w->lock);
	w->op = s;
	w->work = *op;
	w->work.buf = w->buf;
	w->exec = exec;
	w->taken = false;
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	return 0;
}

int ccb_posix_submit(struct ccb_client *cl, struct ccb_slot *s, ccb_fs_exec_fn exec,
                     const struct ccb_fs_op *op)
{
	struct ccb_fsclient *fc = cl->path_data;

	return fc->io_client ? worker_submit(cl, s, exec, op)
	                     : ccb_fs_submit_inline(cl, s, exec, op);
}

/* Abandon the ops no call will complete in time: past --op-timeout, or
 * (after Ctrl-C) started before the signal and still running a second
 * later. Checked every 100 ms. */
static void *monitor_main(void *arg)
{
	struct prun *pr = arg;
	struct ccb_run *run = pr->run;
	uint64_t limit = run->opts->op_timeout_usec * 1000ull, stop_seen = 0;

	pthread_mutex_lock(&pr->lock);
	while (!pr->mon_quit) {
		struct timespec ts;
		uint64_t now = ccb_now_nsec();
		int stop = atomic_load(&run->stop);

		if (stop != CCB_STOP_NONE && !stop_seen)
			stop_seen = now;
		for (struct pworker *w = pr->list; w; w = w->next) {
			struct ccb_fsclient *fc = w->cl->path_data;
			struct ccb_fsrun *fr = run->path_data;
			struct ccb_slot *s;
			uint64_t age;
			char extra[200];
			int ret;

			pthread_mutex_lock(&w->lock);
			s = w->op;
			age = s && now > s->start_nsec ? now - s->start_nsec : 0;
			if (!s || (age <= limit &&
			           !(stop == CCB_STOP_SIGNAL && s->start_nsec < stop_seen &&
			             now - stop_seen > 1000000000ull))) {
				pthread_mutex_unlock(&w->lock);
				continue;
			}
			w->op = NULL;
			ret = age > limit ? -ETIMEDOUT : -EINTR;
			snprintf(extra, sizeof(extra),
			         " (had not returned after %.1f s, %s: abandoned; %s)",
			         (double)age / 1e9,
			         ret == -ETIMEDOUT ? "--op-timeout" : "the run was interrupted",
			         w->in_call
			             ? "its thread may still wait in the kernel on the cluster"
			             : "it had not started");
			ccb_fs_set_error(w->cl, s, ret, extra);
			ccb_run_warn(run, "client %u: %s%s: an op at offset %" PRIu64 "%s",
			             w->cl->idx, fr->io->where(fc->m), fc->path, s->offset, extra);
			ccb_slot_done(s, ret);
			pthread_mutex_unlock(&w->lock);
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += 100000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&pr->cond, &pr->lock, &ts);
	}
	pthread_mutex_unlock(&pr->lock);
	return NULL;
}

static int undo_monitor(void *arg)
{
	struct prun *pr = arg;

	pthread_mutex_lock(&pr->lock);
	pr->mon_quit = true;
	pthread_cond_signal(&pr->cond);
	pthread_mutex_unlock(&pr->lock);
	pthread_join(pr->monitor, NULL);
	pr->monitor_started = false;
	return 0;
}

static int start_monitor(struct prun *pr)
{
	pthread_condattr_t ca;
	int r;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&pr->cond, &ca);
	pthread_condattr_destroy(&ca);
	r = pthread_create(&pr->monitor, NULL, monitor_main, pr);
	if (r)
		return -r;
	pr->monitor_started = true;
	r = ccb_undo_push("stop the fs call monitor", undo_monitor, pr, NULL);
	if (r < 0) {
		undo_monitor(pr);
		return r;
	}
	return 0;
}

static int start_worker(struct prun *pr, struct ccb_client *cl, struct ccb_fsclient *fc)
{
	struct ccb_run *run = cl->run;
	struct pworker *w = calloc(1, sizeof(*w));
	int r;

	if (!w)
		return -ENOMEM;
	/* Its own buffer (aligned for O_DIRECT): what a write sends is the
	 * slots' pattern, filled by the engine before the clients open. */
	if (posix_memalign((void **)&w->buf, 4096, run->buf_bytes ? run->buf_bytes : 4096)) {
		free(w);
		return -ENOMEM;
	}
	if (run->buf_bytes && cl->slots && cl->slots[0].buf)
		memcpy(w->buf, cl->slots[0].buf, run->buf_bytes);
	w->cl = cl;
	w->fc = fc;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	r = pthread_create(&w->thread, NULL, worker_main, w);
	if (r) {
		worker_free(w);
		return -r;
	}
	fc->io_client = w;
	pthread_mutex_lock(&pr->lock);
	w->next = pr->list;
	pr->list = w;
	pthread_mutex_unlock(&pr->lock);
	return 0;
}

/* Stop @p fc's worker. @return true when it is inside a call that was
 * abandoned: then it, the client's state and its mount stay (the call may
 * still return into them), and the unwind's unmount ends the call. */
static bool stop_worker(struct prun *pr, struct ccb_fsclient *fc)
{
	struct pworker *w = fc->io_client;
	bool stuck;

	if (!w)
		return false;
	pthread_mutex_lock(&pr->lock);
	for (struct pworker **p = &pr->list; *p; p = &(*p)->next) {
		if (*p == w) {
			*p = w->next;
			break;
		}
	}
	pthread_mutex_unlock(&pr->lock);
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	stuck = w->in_call;
	/* Under the lock: a stuck worker that returns now frees w itself
	 * (worker_main), but only once it holds this lock. */
	if (stuck)
		pthread_detach(w->thread);
	pthread_cond_signal(&w->cond);
	pthread_mutex_unlock(&w->lock);
	if (stuck)
		return true;
	pthread_join(w->thread, NULL);
	worker_free(w);
	fc->io_client = NULL;
	return false;
}

/* ---- mounts ------------------------------------------------------------------ */

static int undo_let_go_ctl(void *arg)
{
	struct ccb_fsrun *fr = arg;
	struct pmount *pm = fr->ctl;

	/* Before the unmount, which our open root would keep busy. Not while
	 * a removal that got no answer may still resolve paths through it
	 * (it holds a reference to the run): its number could be reused for
	 * another directory. The unmount is then a lazy one, and the root is
	 * closed with the last reference. */
	if (pm && pm->root >= 0 && atomic_load(&fr->refs) == 1) {
		close(pm->root);
		pm->root = -1;
	}
	return 0;
}

static void release_run(struct ccb_fsrun *fr)
{
	struct prun *pr = fr->io_run;

	if (!pr)
		return;
	if (pr->monitor_started)
		undo_monitor(pr);
	pthread_mutex_destroy(&pr->lock);
	pthread_cond_destroy(&pr->cond);
	free(pr);
	fr->io_run = NULL;
}

int ccb_posix_mount(struct ccb_run *run, struct ccb_fsrun *fr, int idx, void **m, char *err,
                    size_t err_len)
{
	const struct ccb_opts *o = run->opts;
	struct ccb_mountinfo mi;
	struct pmount *pm;
	struct prun *pr = fr->io_run;
	const char *where = CCB_FS_OPTS(o)->mount;
	int r;

	*m = NULL;
	if (idx < 0 && !pr) {
		pr = calloc(1, sizeof(*pr));
		if (!pr)
			return -ENOMEM;
		pr->run = run;
		pr->via = CCB_FS_OPTS(o)->mount                              ? VIA_DIR
		          : strcmp(CCB_FS_OPTS(o)->mount_via, "kernel") == 0 ? VIA_KERNEL
		                                                             : VIA_FUSE;
		pthread_mutex_init(&pr->lock, NULL);
		pthread_cond_init(&pr->cond, NULL);
		fr->io_run = pr;
		fr->io_release = release_run;
	}
	pm = calloc(1, sizeof(*pm));
	if (!pm)
		return -ENOMEM;
	pm->root = -1;
	pm->direct = o->direct;
	if (pr->via != VIA_DIR) {
		struct ccb_fsmount *mnt;
		char who[32];

		if (idx < 0)
			snprintf(who, sizeof(who), "the control mount");
		else
			snprintf(who, sizeof(who), "client %d", idx);
		if (!o->quiet && idx < 0)
			fprintf(stderr, "ccbench: mounting the CephFS through %s\n",
			        pr->via == VIA_FUSE ? "ceph-fuse" : "the kernel client");
		r = ccb_fsmount(o, pr->via == VIA_FUSE ? CCB_FSMOUNT_FUSE : CCB_FSMOUNT_KERNEL, who,
		                &mnt, err, err_len);
		if (r < 0) {
			free(pm);
			return r;
		}
		where = mnt->mountpoint;
	}
	snprintf(pm->where, sizeof(pm->where), "%s", where);
	pm->root = open(where, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (pm->root < 0) {
		r = -errno;
		snprintf(err, err_len, "--mount %s: %s", where, strerror(errno));
		free(pm);
		run->bad_input = pr->via == VIA_DIR;
		return r;
	}
	pm->cephfs = ccb_mountinfo_of(where, &mi) == 0 &&
	             (strcmp(mi.fstype, "ceph") == 0 || strcmp(mi.fstype, "fuse.ceph-fuse") == 0);
	*m = pm;
	if (idx < 0) {
		/* A CephFS call may hang in the kernel: each client's on a thread
		 * the monitor can give up on. A local file system's cannot. */
		pr->workers = pm->cephfs || pr->via != VIA_DIR;
		r = ccb_undo_push("let go of the control mount's root", undo_let_go_ctl, fr, NULL);
		if (r < 0)
			return r;
		if (pr->workers && (r = start_monitor(pr)) < 0) {
			snprintf(err, err_len, "start the call monitor: %s", strerror(-r));
			return r;
		}
	}
	return 0;
}

int ccb_posix_client_opened(struct ccb_client *cl)
{
	struct ccb_fsrun *fr = cl->run->path_data;
	struct prun *pr = fr->io_run;
	int r;

	if (!pr->workers)
		return 0;
	r = start_worker(pr, cl, cl->path_data);
	if (r < 0)
		fprintf(stderr, "ccbench: client %u: start its call thread: %s\n", cl->idx,
		        strerror(-r));
	return r;
}

bool ccb_posix_client_closing(struct ccb_client *cl)
{
	struct ccb_fsrun *fr = cl->run->path_data;

	return stop_worker(fr->io_run, cl->path_data);
}

void ccb_posix_unmount(void *m)
{
	struct pmount *pm = m;

	if (!pm)
		return;
	if (pm->root >= 0)
		close(pm->root);
	free(pm);
}
