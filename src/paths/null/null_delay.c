/*
 * --complete-after DUR: each null op completes DUR after its submission,
 * on a thread of the client's own, as a library's callback thread would
 * complete it. A path with a known, fixed service time and no cluster:
 * N in flight carry N / DUR ops per second (M/D/N, Little's law), so the
 * engine, the open loop and the capacity search can be checked against
 * an answer known in advance.
 *
 * The delay is the same for every op, so ops complete in the order they
 * were submitted: one queue in that order, whose head is always the next
 * due, and one timed wait at a time.
 */
#include <ccbench/clock.h>
#include <ccbench/engine.h>

#include "path_null.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

struct null_delay {
	pthread_mutex_t lock;
	pthread_cond_t cond; /* on CLOCK_MONOTONIC, the clock of the due times */
	pthread_t thread;
	uint64_t delay_nsec;
	struct ccb_slot **slots; /* submission order, a ring of n_slots */
	uint64_t *due_nsec;
	unsigned cap, head, n;
	bool stop;
};

static void *completer(void *arg)
{
	struct null_delay *nd = arg;

	pthread_mutex_lock(&nd->lock);
	for (;;) {
		if (!nd->n) {
			if (nd->stop)
				break;
			pthread_cond_wait(&nd->cond, &nd->lock);
			continue;
		}
		uint64_t due = nd->due_nsec[nd->head], now = ccb_now_nsec();
		if (now < due) {
			struct timespec ts = {.tv_sec = (time_t)(due / 1000000000ull),
			                      .tv_nsec = (long)(due % 1000000000ull)};
			pthread_cond_timedwait(&nd->cond, &nd->lock, &ts);
			continue;
		}
		struct ccb_slot *s = nd->slots[nd->head];
		nd->head = (nd->head + 1) % nd->cap;
		nd->n--;
		/* As a library's callback: the slot goes back outside our lock. */
		pthread_mutex_unlock(&nd->lock);
		ccb_slot_done(s, (int)s->len_bytes);
		pthread_mutex_lock(&nd->lock);
	}
	pthread_mutex_unlock(&nd->lock);
	return NULL;
}

int ccb_null_delay_open(struct ccb_client *cl, uint64_t delay_usec)
{
	struct null_delay *nd = calloc(1, sizeof(*nd));
	pthread_condattr_t ca;
	int r = -ENOMEM;

	if (!nd)
		return -ENOMEM;
	nd->cap = cl->n_slots ? cl->n_slots : 1;
	nd->delay_nsec = delay_usec * 1000ull;
	nd->slots = calloc(nd->cap, sizeof(*nd->slots));
	nd->due_nsec = calloc(nd->cap, sizeof(*nd->due_nsec));
	if (!nd->slots || !nd->due_nsec)
		goto fail_alloc;
	pthread_mutex_init(&nd->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&nd->cond, &ca);
	pthread_condattr_destroy(&ca);
	r = -pthread_create(&nd->thread, NULL, completer, nd);
	if (r < 0)
		goto fail_thread;
	cl->path_data = nd;
	return 0;

fail_thread:
	pthread_cond_destroy(&nd->cond);
	pthread_mutex_destroy(&nd->lock);
fail_alloc:
	free(nd->due_nsec);
	free(nd->slots);
	free(nd);
	return r;
}

int ccb_null_delay_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct null_delay *nd = cl->path_data;

	pthread_mutex_lock(&nd->lock);
	if (nd->n == nd->cap) {
		/* More in flight than slots: the engine never does this. */
		pthread_mutex_unlock(&nd->lock);
		return -EOVERFLOW;
	}
	unsigned tail = (nd->head + nd->n) % nd->cap;
	nd->slots[tail] = s;
	nd->due_nsec[tail] = ccb_now_nsec() + nd->delay_nsec;
	if (nd->n++ == 0)
		pthread_cond_signal(&nd->cond);
	pthread_mutex_unlock(&nd->lock);
	return 0;
}

void ccb_null_delay_close(struct ccb_client *cl)
{
	struct null_delay *nd = cl->path_data;

	if (!nd)
		return;
	/* The ops still queued complete at their time first: the engine has
	 * drained them, so there are none but after a stranded drain. */
	pthread_mutex_lock(&nd->lock);
	nd->stop = true;
	pthread_cond_signal(&nd->cond);
	pthread_mutex_unlock(&nd->lock);
	pthread_join(nd->thread, NULL);
	pthread_cond_destroy(&nd->cond);
	pthread_mutex_destroy(&nd->lock);
	free(nd->due_nsec);
	free(nd->slots);
	free(nd);
	cl->path_data = NULL;
}
