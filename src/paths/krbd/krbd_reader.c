/*
 * The krbd path's buffered reads: one reader thread per stream and the
 * monitor that abandons a read stuck in the kernel (see path_krbd.c).
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include "mapping.h"
#include <ccbench/path.h>
#include <ccbench/path_rbd.h>
#include <ccbench/sysfs.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <linux/fs.h>
#include <linux/loop.h>
#include <liburing.h>
#include <rbd/librbd.h>

#include "path_krbd_int.h"

/* ---- buffered reads: reader threads and their monitor ---------------------- */

void ccb_krbd_free_reader_state(struct kclient *kc)
{
	close(kc->fd);
	free(kc->rbuf);
	pthread_mutex_destroy(&kc->lock);
	pthread_cond_destroy(&kc->cond);
	free(kc);
}

/* One stream's reads, one at a time. */
static void *reader_main(void *arg)
{
	struct kclient *kc = arg;

	for (;;) {
		struct ccb_slot *mine;
		uint64_t off, len;
		bool done, orphan;
		ssize_t n;
		int e = 0;

		pthread_mutex_lock(&kc->lock);
		while (!kc->quit && (!kc->op || kc->taken))
			pthread_cond_wait(&kc->cond, &kc->lock);
		if (kc->quit) {
			pthread_mutex_unlock(&kc->lock);
			return NULL; /* closed after the engine drained: no op is left */
		}
		mine = kc->op;
		kc->taken = kc->in_read = true;
		off = mine->offset;
		len = mine->len_bytes;
		pthread_mutex_unlock(&kc->lock);

		do
			n = pread(kc->fd, kc->rbuf, len, (off_t)off);
		while (n < 0 && errno == EINTR);
		if (n < 0)
			e = errno;

		pthread_mutex_lock(&kc->lock);
		kc->in_read = false;
		done = kc->op == mine; /* not abandoned by the monitor meanwhile */
		if (done)
			kc->op = NULL;
		orphan = kc->quit;
		pthread_mutex_unlock(&kc->lock);
		if (done) {
			if (n > 0)
				mine->len_bytes = (uint64_t)n;
			/* 0 bytes inside the device is an error: the device shrank under us. */
			ccb_slot_done(mine, n > 0 ? (int)n : n == 0 ? -EIO : -e);
		}
		if (orphan) {
			/* The stream was closed while this read hung: nobody else
			 * will free what it used. */
			ccb_krbd_free_reader_state(kc);
			return NULL;
		}
	}
}

/* Abandon the ops no read will complete in time: past --op-timeout, or
 * (after Ctrl-C) started before the signal and still running a second
 * later. Checked every 100 ms. */
static void *monitor_main(void *arg)
{
	struct krun *kr = arg;
	struct ccb_run *run = kr->run;
	uint64_t limit = run->opts->op_timeout_usec * 1000ull, stop_seen = 0;

	pthread_mutex_lock(&kr->mon_lock);
	while (!kr->mon_quit) {
		struct timespec ts;
		uint64_t now = ccb_now_nsec();
		int stop = atomic_load(&run->stop);

		if (stop != CCB_STOP_NONE && !stop_seen)
			stop_seen = now;
		for (struct kclient *kc = kr->readers; kc; kc = kc->next) {
			struct ccb_slot *s = NULL;
			uint64_t age = 0;
			bool in_read = false;

			pthread_mutex_lock(&kc->lock);
			if (kc->op) {
				uint64_t t = ccb_now_nsec(), st = kc->op->start_nsec;

				/* Taken under the lock the submit hands the op over with: never
				 * before start. */
				age = t > st ? t - st : 0;
				if (age > limit ||
				    (stop == CCB_STOP_SIGNAL && kc->op->start_nsec < stop_seen &&
				     now - stop_seen > 1000000000ull)) {
					s = kc->op;
					kc->op = NULL;
					kc->taken = false;
					in_read = kc->in_read;
				}
			}
			pthread_mutex_unlock(&kc->lock);
			if (!s)
				continue;
			ccb_run_warn(run,
			             "stream %u: pread(%s, %" PRIu64 " bytes at offset %" PRIu64
			             ") had not returned after %.1f s (%s): abandoned, counted as "
			             "failed; %s",
			             kc->idx, kr->dev, s->len_bytes, s->offset, (double)age / 1e9,
			             age > limit ? "--op-timeout" : "the run was interrupted",
			             in_read
			                 ? "its reader thread may still be blocked in the kernel "
			                   "(the device's I/O hangs: cluster or rbd-fuse gone; "
			                   "krbd's osd_request_timeout is 0 by default)"
			                 : "it had not started");
			ccb_slot_done(s, age > limit ? -ETIMEDOUT : -EINTR);
		}
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += 100000000L;
		if (ts.tv_nsec >= 1000000000L) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&kr->mon_cond, &kr->mon_lock, &ts);
	}
	pthread_mutex_unlock(&kr->mon_lock);
	return NULL;
}

static int undo_monitor(void *arg)
{
	struct krun *kr = arg;

	pthread_mutex_lock(&kr->mon_lock);
	kr->mon_quit = true;
	pthread_cond_signal(&kr->mon_cond);
	pthread_mutex_unlock(&kr->mon_lock);
	pthread_join(kr->monitor, NULL);
	return 0;
}

int ccb_krbd_start_monitor(struct krun *kr)
{
	int r;

	pthread_mutex_init(&kr->mon_lock, NULL);
	pthread_cond_init(&kr->mon_cond, NULL);
	r = pthread_create(&kr->monitor, NULL, monitor_main, kr);
	if (r)
		return -r;
	/* Pushed after the krun's own entry: joined before the krun is freed. */
	r = ccb_undo_push("stop the krbd read monitor", undo_monitor, kr, NULL);
	if (r < 0) {
		undo_monitor(kr);
		return r;
	}
	return 0;
}

int ccb_krbd_start_reader(struct krun *kr, struct kclient *kc, uint64_t buf_bytes)
{
	int r;

	if (posix_memalign((void **)&kc->rbuf, 4096, buf_bytes))
		return -ENOMEM;
	pthread_mutex_init(&kc->lock, NULL);
	pthread_cond_init(&kc->cond, NULL);
	r = pthread_create(&kc->reader, NULL, reader_main, kc);
	if (r) {
		pthread_mutex_destroy(&kc->lock);
		pthread_cond_destroy(&kc->cond);
		free(kc->rbuf);
		kc->rbuf = NULL;
		return -r;
	}
	kc->reader_started = true;
	pthread_mutex_lock(&kr->mon_lock);
	kc->next = kr->readers;
	kr->readers = kc;
	pthread_mutex_unlock(&kr->mon_lock);
	return 0;
}

/* Stop @p kc's reader. @return true when it is stuck in an abandoned read
 * and now owns @p kc (it frees it when the read returns). */
bool ccb_krbd_stop_reader(struct krun *kr, struct kclient *kc)
{
	bool stuck;

	pthread_mutex_lock(&kr->mon_lock);
	for (struct kclient **p = &kr->readers; *p; p = &(*p)->next) {
		if (*p == kc) {
			*p = kc->next;
			break;
		}
	}
	pthread_mutex_unlock(&kr->mon_lock);
	pthread_mutex_lock(&kc->lock);
	kc->quit = true;
	stuck = kc->in_read;
	pthread_cond_signal(&kc->cond);
	pthread_mutex_unlock(&kc->lock);
	if (stuck) {
		pthread_detach(kc->reader);
		return true;
	}
	pthread_join(kc->reader, NULL);
	return false;
}
