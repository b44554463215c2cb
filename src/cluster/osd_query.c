/*
 * Many OSDs asked at once (osd_query.h). A librados handle serves
 * concurrent commands, so a few threads share the caller's handle and
 * take the next OSD from one counter; each command is bounded by the
 * handle's own rados_osd_op_timeout, so the threads always end.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/osd_query.h>

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

struct query {
	rados_t r;
	const int *osds;
	size_t n;
	const char *cmd;
	struct ccb_osd_answer *out;
	atomic_size_t next;
};

static void *worker(void *arg)
{
	struct query *q = arg;
	size_t i;

	while ((i = atomic_fetch_add(&q->next, 1)) < q->n) {
		struct ccb_osd_answer *a = &q->out[i];
		uint64_t t0 = ccb_now_nsec();

		a->osd = q->osds[i];
		a->err = 0;
		a->reply = ccb_cluster_osd_json_lenient(q->r, a->osd, q->cmd, &a->err);
		a->seconds = (double)(ccb_now_nsec() - t0) / 1e9;
	}
	return NULL;
}

void ccb_osd_query(rados_t r, const int *osds, size_t n, const char *cmd,
                   struct ccb_osd_answer *out)
{
	struct query q = {.r = r, .osds = osds, .n = n, .cmd = cmd, .out = out};
	pthread_t th[CCB_OSD_QUERY_THREADS];
	size_t started = 0, want = n < CCB_OSD_QUERY_THREADS ? n : CCB_OSD_QUERY_THREADS;

	atomic_init(&q.next, 0);
	memset(out, 0, n * sizeof(*out));
	for (size_t i = 0; i < n; i++) {
		out[i].osd = osds[i];
		out[i].err = -ECANCELED;
	}
	/* One thread fewer is only slower: the caller's thread works too. */
	for (; started + 1 < want; started++)
		if (pthread_create(&th[started], NULL, worker, &q) != 0)
			break;
	worker(&q);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

void ccb_osd_answers_free(struct ccb_osd_answer *a, size_t n)
{
	for (size_t i = 0; a && i < n; i++) {
		json_decref(a[i].reply);
		a[i].reply = NULL;
	}
}
