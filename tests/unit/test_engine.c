/*
 * Unit tests for src/engine.c, driven through a fake path: an ops table
 * defined here that completes ops inline, from its own "library" threads
 * (as librados does), or never. No cluster is involved.
 *
 * The whole suite takes about 10 s: the stranded-op case has to wait out
 * the engine's drain backstop (op timeout + 5 s).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <ccbench/commands.h>
#include "ccbench/clock.h"
#include "ccbench/engine.h"
#include "ccbench/options.h"
#include "ccbench/path.h"
#include "ccbench/result.h"
#include <ccbench/cli.h>

#define MAX_CLIENTS    4
#define QCAP           1024 /* >= clients x queue depth of any test */
#define MAX_COMPLETERS 2
#define SEC            1000000000ull
#define MSEC           1000000ull

enum fake_mode {
	FAKE_INLINE, /* ccb_slot_done() inside submit */
	FAKE_ASYNC,  /* completed by the fake's own threads */
	FAKE_STUCK,  /* queued, completed only when the test says so */
};

struct fake_client {
	long submitted; /* client thread only */
	bool open;      /* main thread only */
};

struct fake {
	enum fake_mode mode;
	uint64_t op_bytes;    /* bytes per op; 0 = the slot's buffer */
	long end_after;       /* per client: ops before CCB_SUBMIT_END; 0 = never */
	long fail_submit_at;  /* the n-th submit (all clients) returns -EIO; 0 = never */
	long fail_done_at;    /* the n-th async completion reports -ENOSPC; 0 = never */
	long bad_complete_at; /* the n-th complete() returns -EBADMSG; 0 = never */
	int fail_open_idx;    /* client whose open fails; -1 = none */
	unsigned n_completers;

	atomic_long submits;    /* submit() calls */
	atomic_long submit_ok;  /* ops started */
	atomic_long done_calls; /* async completions delivered */
	atomic_long completes;  /* complete() calls */
	atomic_long releases;   /* release() calls */
	atomic_long opens, closes;
	atomic_long overlaps;              /* a slot submitted again before its release */
	atomic_long bad_ret;               /* complete() saw a ret or timestamps that are wrong */
	atomic_long bad_client;            /* a callback saw another client's state */
	atomic_long quiesces;              /* quiesce() calls */
	atomic_long quiesce_early;         /* quiesce() before its client's last op was reaped */
	_Atomic uint64_t quiesce_end_nsec; /* when the last quiesce() returned */
	int quiesce_ret;                   /* what quiesce() returns */

	struct fake_client cl[MAX_CLIENTS];

	/* The "library": submitted slots, and threads that complete them. */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	struct ccb_slot *q[QCAP];
	size_t q_head, q_len;
	bool quit;
	bool up; /* fake_init() ran; fake_fini() not yet */
	pthread_t threads[MAX_COMPLETERS];
};

static struct fake *fake_of(struct ccb_client *cl)
{
	return cl->run->path_data;
}

static void enqueue(struct fake *f, struct ccb_slot *s)
{
	pthread_mutex_lock(&f->lock);
	/* Not a cmocka assert: this runs on a client thread. */
	if (f->q_len >= QCAP)
		abort();
	f->q[(f->q_head + f->q_len) % QCAP] = s;
	f->q_len++;
	pthread_cond_signal(&f->cond);
	pthread_mutex_unlock(&f->lock);
}

/* Pop one slot, or NULL when the queue is empty. Caller holds f->lock. */
static struct ccb_slot *dequeue_locked(struct fake *f)
{
	struct ccb_slot *s;

	if (!f->q_len)
		return NULL;
	s = f->q[f->q_head];
	f->q_head = (f->q_head + 1) % QCAP;
	f->q_len--;
	return s;
}

/* A librados finisher thread: completes ops in whatever order it gets them. */
static void *completer_main(void *arg)
{
	struct fake *f = arg;
	unsigned n = 0;

	pthread_mutex_lock(&f->lock);
	for (;;) {
		struct ccb_slot *s;
		int ret;

		while (!f->q_len && !f->quit)
			pthread_cond_wait(&f->cond, &f->lock);
		s = dequeue_locked(f);
		if (!s)
			break;
		pthread_mutex_unlock(&f->lock);
		/* Vary the interleaving with the client threads. */
		if (++n % 7 == 0)
			sched_yield();
		ret = (int)s->len_bytes;
		if (f->fail_done_at && atomic_fetch_add(&f->done_calls, 1) + 1 == f->fail_done_at)
			ret = -ENOSPC;
		ccb_slot_done(s, ret);
		/* From here on the slot belongs to the client again: do not touch it. */
		pthread_mutex_lock(&f->lock);
	}
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static int fake_prepare(struct ccb_run *run)
{
	(void)run;
	return 0;
}

static int fake_client_open(struct ccb_client *cl)
{
	struct fake *f = fake_of(cl);

	if ((int)cl->idx == f->fail_open_idx)
		return -ECONNREFUSED;
	assert_true(cl->idx < MAX_CLIENTS);
	f->cl[cl->idx].open = true;
	f->cl[cl->idx].submitted = 0;
	cl->path_data = &f->cl[cl->idx];
	atomic_fetch_add(&f->opens, 1);
	return 0;
}

static void fake_client_close(struct ccb_client *cl)
{
	struct fake *f = fake_of(cl);

	if (cl->path_data != &f->cl[cl->idx] || !f->cl[cl->idx].open)
		atomic_fetch_add(&f->bad_client, 1);
	f->cl[cl->idx].open = false;
	atomic_fetch_add(&f->closes, 1);
}

static int fake_submit(struct ccb_client *cl, struct ccb_slot *s)
{
	struct fake *f = fake_of(cl);
	struct fake_client *fc = cl->path_data;
	long n = atomic_fetch_add(&f->submits, 1) + 1;

	if (fc != &f->cl[cl->idx] || s->cl != cl)
		atomic_fetch_add(&f->bad_client, 1);
	if (f->end_after && fc->submitted >= f->end_after)
		return CCB_SUBMIT_END;
	s->object = (uint64_t)fc->submitted;
	s->offset = 0;
	if (f->fail_submit_at && n == f->fail_submit_at)
		return -EIO;
	if (s->io)
		atomic_fetch_add(&f->overlaps, 1);
	s->io = f; /* the op handle; release() clears it */
	s->len_bytes = f->op_bytes ? f->op_bytes : s->buf_bytes;
	fc->submitted++;
	atomic_fetch_add(&f->submit_ok, 1);
	if (f->mode == FAKE_INLINE)
		ccb_slot_done(s, (int)s->len_bytes);
	else
		enqueue(f, s);
	return 0;
}

static int fake_complete(struct ccb_client *cl, struct ccb_slot *s)
{
	struct fake *f = fake_of(cl);
	long n = atomic_fetch_add(&f->completes, 1) + 1;

	if (s->ret != (int)s->len_bytes || s->end_nsec < s->start_nsec)
		atomic_fetch_add(&f->bad_ret, 1);
	if (f->bad_complete_at && n == f->bad_complete_at)
		return -EBADMSG;
	return 0;
}

static void fake_describe(struct ccb_client *cl, struct ccb_slot *s, char *buf, size_t len)
{
	(void)cl;
	snprintf(buf, len, "fake_op(obj %llu)", (unsigned long long)s->object);
}

static void fake_release(struct ccb_client *cl, struct ccb_slot *s)
{
	struct fake *f = fake_of(cl);

	if (s->io != f)
		atomic_fetch_add(&f->bad_ret, 1);
	s->io = NULL;
	atomic_fetch_add(&f->releases, 1);
}

/* No cluster: the engine would connect for the cluster state otherwise. */
static bool fake_needs_cluster(const struct ccb_opts *o)
{
	(void)o;
	return false;
}

static const struct ccb_path_ops fake_ops = {
    .name = "fake",
    .needs_cluster = fake_needs_cluster,
    .prepare = fake_prepare,
    .client_open = fake_client_open,
    .submit = fake_submit,
    .complete = fake_complete,
    .describe = fake_describe,
    .release = fake_release,
    .client_close = fake_client_close,
};

/* As librbd's flush: takes a while, after every op of the client is in. */
static int fake_quiesce(struct ccb_client *cl)
{
	struct fake *f = fake_of(cl);
	struct timespec ts = {0, 100 * (long)MSEC};

	atomic_fetch_add(&f->quiesces, 1);
	if (cl->in_flight || atomic_load(&cl->ops_done) != (uint64_t)f->end_after)
		atomic_fetch_add(&f->quiesce_early, 1);
	nanosleep(&ts, NULL);
	atomic_store(&f->quiesce_end_nsec, ccb_now_nsec());
	if (f->quiesce_ret)
		snprintf(cl->first_error_msg, sizeof(cl->first_error_msg), "fake flush failed");
	return f->quiesce_ret;
}

static const struct ccb_path_ops fake_ops_quiesce = {
    .name = "fake",
    .prepare = fake_prepare,
    .client_open = fake_client_open,
    .submit = fake_submit,
    .complete = fake_complete,
    .describe = fake_describe,
    .release = fake_release,
    .quiesce = fake_quiesce,
    .client_close = fake_client_close,
};

static void fake_init(struct fake *f, enum fake_mode mode, unsigned n_completers)
{
	memset(f, 0, sizeof(*f));
	f->mode = mode;
	f->fail_open_idx = -1;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->n_completers = 0;
	f->up = true;
	for (unsigned i = 0; mode == FAKE_ASYNC && i < n_completers; i++) {
		assert_int_equal(pthread_create(&f->threads[i], NULL, completer_main, f), 0);
		f->n_completers++;
	}
}

static void fake_fini(struct fake *f)
{
	if (!f->up)
		return;
	f->up = false;
	pthread_mutex_lock(&f->lock);
	f->quit = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	for (unsigned i = 0; i < f->n_completers; i++)
		pthread_join(f->threads[i], NULL);
	pthread_cond_destroy(&f->cond);
	pthread_mutex_destroy(&f->lock);
}

/* Complete every queued (stuck) op with @p ret; returns how many. */
static unsigned complete_stuck(struct fake *f, int ret)
{
	unsigned n = 0;

	pthread_mutex_lock(&f->lock);
	for (struct ccb_slot *s; (s = dequeue_locked(f)); n++)
		ccb_slot_done(s, ret);
	pthread_mutex_unlock(&f->lock);
	return n;
}

static void run_init(struct ccb_run *run, struct ccb_opts *o, struct fake *f, unsigned n_clients,
                     uint64_t queue_depth, uint64_t buf_bytes)
{
	memset(run, 0, sizeof(*run));
	ccb_opts_defaults(o);
	o->quiet = true;
	run->opts = o;
	run->ops = &fake_ops;
	run->command = "fake write";
	run->mode = CCB_MODE_WRITE;
	run->is_write = true;
	run->path_data = f;
	run->n_clients = n_clients;
	run->queue_depth = queue_depth;
	run->buf_bytes = buf_bytes;
	atomic_init(&run->stop, CCB_STOP_NONE);
	atomic_init(&run->issued_bytes, 0);
}

/*
 * Each test's state lives on the heap, not on its stack, and the teardown
 * stops the fake's threads and frees the run whatever the test did: a
 * failed assertion longjmps out of the test, and threads left waiting on a
 * condition variable in a dead stack frame would corrupt the next tests.
 */
struct fixture {
	struct fake f;
	struct ccb_opts o;
	struct ccb_run run;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	*state = fx;
	return fx ? 0 : -1;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;
	struct ccb_client *clients = fx->run.clients;
	unsigned n_clients = fx->run.n_clients;
	bool stranded = false;

	/* The "library" goes first: no callback can come after this. */
	fake_fini(&fx->f);
	for (unsigned i = 0; clients && i < n_clients; i++)
		stranded |= clients[i].stranded;
	ccb_run_free(&fx->run);
	/*
	 * ccb_run_free() deliberately leaks stranded clients (library threads
	 * may still write into them, and the process is about to exit). Here
	 * the client threads are joined and the fake is stopped, so the test
	 * frees them and the suite stays leak-clean under ASan.
	 */
	if (stranded) {
		for (unsigned i = 0; i < n_clients; i++) {
			if (!clients[i].stranded)
				continue;
			for (unsigned j = 0; clients[i].slots && j < clients[i].n_slots; j++)
				if (clients[i].slots[j].buf != clients[i].shared_buf)
					free(clients[i].slots[j].buf);
			free(clients[i].shared_buf);
			free(clients[i].slots);
			ccb_series_free(&clients[i].series);
		}
		free(clients);
	}
	free(fx);
	ccb_signal_pending = 0;
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	return 0;
}

struct totals {
	uint64_t bytes, ops, hist_n, series_bytes, series_ops, errors;
};

/*
 * Every op the fake started was reaped exactly once, and every successful
 * one is in the counters, the histogram and the series alike.
 */
static struct totals check_accounting(struct ccb_run *run, struct fake *f)
{
	struct totals t = {0};

	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];
		uint64_t sb = 0, so = 0, sl = 0;

		assert_false(cl->stranded);
		assert_int_equal(cl->in_flight, 0);
		assert_int_equal(atomic_load(&cl->in_flight_now), 0);
		assert_null(cl->done_head);
		for (unsigned j = 0; j < cl->n_slots; j++) {
			assert_false(cl->slots[j].busy);
			assert_null(cl->slots[j].io);
		}
		for (size_t s = 0; s < cl->series.n_secs; s++) {
			sb += cl->series.bytes[s];
			so += cl->series.ops[s];
			sl += cl->series.lat_sum_nsec[s];
		}
		assert_true(so == atomic_load(&cl->ops_done));
		assert_true(sb == atomic_load(&cl->bytes_done));
		assert_true(sl == atomic_load(&cl->lat_sum_nsec));
		assert_true(cl->hist.count == atomic_load(&cl->ops_done));
		if (cl->hist.count) {
			assert_true(cl->first_op_nsec >= run->start_nsec);
			assert_true(cl->last_op_nsec <= run->end_nsec);
			assert_true((double)sl == cl->hist.sum_nsec);
		}
		t.bytes += atomic_load(&cl->bytes_done);
		t.ops += atomic_load(&cl->ops_done);
		t.hist_n += cl->hist.count;
		t.series_bytes += sb;
		t.series_ops += so;
		t.errors += cl->errors;
	}
	assert_true(run->end_nsec >= run->start_nsec);
	assert_int_equal(atomic_load(&f->overlaps), 0);
	assert_int_equal(atomic_load(&f->bad_ret), 0);
	assert_int_equal(atomic_load(&f->bad_client), 0);
	/* Each started op was reaped (released) once; each success counted once. */
	assert_int_equal(atomic_load(&f->releases), atomic_load(&f->submit_ok));
	assert_int_equal(atomic_load(&f->opens), atomic_load(&f->closes));
	return t;
}

static uint64_t elapsed_since(uint64_t t0)
{
	return ccb_now_nsec() - t0;
}

/* (a) Inline completions, stopped by --total. */
static void test_inline_total(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	const uint64_t buf = 4096, total = 1000 * 4096 + 1;
	struct totals t;
	json_t *res;

	fake_init(f, FAKE_INLINE, 0);
	run_init(run, o, f, 2, 4, buf);
	run->total_bytes = total;
	assert_int_equal(ccb_run_execute(run), 0);

	assert_int_equal(atomic_load(&run->stop), CCB_STOP_DONE);
	assert_string_equal(run->reason, "--total reached");
	assert_string_equal(ccb_result_status(run), "ok");
	t = check_accounting(run, f);
	/* An op is issued while less than the total was issued: ceil(total / op). */
	assert_int_equal(t.ops, (total + buf - 1) / buf);
	assert_true(t.bytes >= total && t.bytes < total + buf);
	assert_true(t.bytes <= total + run->n_clients * run->queue_depth * buf);
	assert_int_equal(t.errors, 0);
	assert_int_equal(atomic_load(&f->completes), t.ops);
	assert_int_equal(atomic_load(&f->opens), 2);

	/* Slots own aligned, filled, distinct buffers. */
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];

		assert_int_equal(cl->n_slots, 4);
		for (unsigned j = 0; j < cl->n_slots; j++) {
			static const char zero[64];
			assert_true(((uintptr_t)cl->slots[j].buf & 4095) == 0);
			assert_true(cl->slots[j].buf_bytes == buf);
			assert_true(memcmp(cl->slots[j].buf, zero, sizeof(zero)) != 0);
			if (j)
				assert_true(memcmp(cl->slots[j].buf, cl->slots[j - 1].buf, 64) !=
				            0);
		}
	}
	assert_true(memcmp(run->clients[0].slots[0].buf, run->clients[1].slots[0].buf, 64) != 0);

	/* The result sees what the engine counted. */
	res = ccb_result_build(run, ccb_cli_command_find("rados write")->mask, 0, NULL);
	assert_non_null(res);
	assert_true(json_integer_value(json_object_get(res, "bytes")) == (json_int_t)t.bytes);
	assert_true(json_integer_value(json_object_get(res, "ops")) == (json_int_t)t.ops);
	assert_string_equal(json_string_value(json_object_get(res, "status")), "ok");
	json_decref(res);

	ccb_run_free(run);
}

/* Write slots of a path that copies at submit share one filled buffer per client. */
static void test_shared_write_buffer(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	static const char zero[64];
	struct totals t;

	fake_init(f, FAKE_ASYNC, 2);
	run_init(run, o, f, 2, 8, 8192);
	run->shared_buf = true;
	run->total_bytes = 400 * 8192;
	assert_int_equal(ccb_run_execute(run), 0);
	t = check_accounting(run, f);
	assert_int_equal(t.ops, 400);
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];

		assert_non_null(cl->shared_buf);
		assert_true(((uintptr_t)cl->shared_buf & 4095) == 0);
		assert_true(memcmp(cl->shared_buf, zero, sizeof(zero)) != 0);
		for (unsigned j = 0; j < cl->n_slots; j++)
			assert_ptr_equal(cl->slots[j].buf, cl->shared_buf);
	}
	/* Still one pattern per client. */
	assert_true(memcmp(run->clients[0].shared_buf, run->clients[1].shared_buf, 64) != 0);
}

/* (b) The path runs out of work: exactly its ops, and the run is not an error. */
static void test_submit_end_inline(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;

	fake_init(f, FAKE_INLINE, 0);
	f->end_after = 37;
	run_init(run, o, f, 1, 8, 1024);
	run->duration_usec = 20000000; /* only a backstop: the path ends first */
	assert_int_equal(ccb_run_execute(run), 0);
	t = check_accounting(run, f);
	assert_int_equal(t.ops, 37);
	assert_int_equal(t.bytes, 37 * 1024);
	assert_int_equal(t.errors, 0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_NONE);
	assert_string_equal(ccb_result_status(run), "ok");
	assert_int_equal(run->error_ret, 0);
	ccb_run_free(run);
}

static void test_submit_end_async(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;

	fake_init(f, FAKE_ASYNC, 2);
	f->end_after = 500;
	f->op_bytes = 100; /* shorter than the buffer: the path decides */
	run_init(run, o, f, 2, 8, 4096);
	run->duration_usec = 20000000; /* only a backstop: the path ends first */
	assert_int_equal(ccb_run_execute(run), 0);
	t = check_accounting(run, f);
	assert_int_equal(t.ops, 1000);
	assert_int_equal(t.bytes, 1000 * 100);
	for (unsigned i = 0; i < 2; i++)
		assert_int_equal(atomic_load(&run->clients[i].ops_done), 500);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_NONE);
	assert_string_equal(ccb_result_status(run), "ok");
	ccb_run_free(run);
}

/* quiesce() runs once per client after its last op, and the run's end (its
 * elapsed time, its bandwidth) is after it, as rbd bench counts its flush. */
static void test_quiesce_counted(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;

	fake_init(f, FAKE_ASYNC, 2);
	f->end_after = 50;
	run_init(run, o, f, 2, 4, 4096);
	run->ops = &fake_ops_quiesce;
	run->duration_usec = 20000000; /* only a backstop: the path ends first */
	assert_int_equal(ccb_run_execute(run), 0);
	t = check_accounting(run, f);
	assert_int_equal(t.ops, 100);
	assert_int_equal(atomic_load(&f->quiesces), 2);
	assert_int_equal(atomic_load(&f->quiesce_early), 0);
	assert_true(run->end_nsec >= atomic_load(&f->quiesce_end_nsec) - MSEC);
	assert_true(run->end_nsec - run->start_nsec >= 100 * MSEC);
	assert_string_equal(ccb_result_status(run), "ok");
	ccb_run_free(run);
}

/* A failed quiesce (a flush that failed) fails the run with its message. */
static void test_quiesce_error(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;

	fake_init(f, FAKE_ASYNC, 1);
	f->end_after = 10;
	f->quiesce_ret = -EIO;
	run_init(run, o, f, 1, 2, 4096);
	run->ops = &fake_ops_quiesce;
	run->duration_usec = 20000000;
	assert_int_equal(ccb_run_execute(run), 0);
	assert_int_equal(atomic_load(&f->quiesces), 1);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_ERROR);
	assert_int_equal(run->error_ret, -EIO);
	assert_non_null(strstr(run->reason, "fake flush failed"));
	assert_string_equal(ccb_result_status(run), "aborted");
	ccb_run_free(run);
}

/* (c) Completions from two "library" threads, two clients of eight slots. */
static void test_async_total(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	const uint64_t buf = 4096, n_ops = 5000;
	struct totals t;

	fake_init(f, FAKE_ASYNC, 2);
	run_init(run, o, f, 2, 8, buf);
	run->total_bytes = n_ops * buf;
	assert_int_equal(ccb_run_execute(run), 0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_DONE);
	t = check_accounting(run, f);
	assert_int_equal(t.ops, n_ops);
	assert_int_equal(t.bytes, n_ops * buf);
	assert_int_equal(t.hist_n, n_ops);
	assert_int_equal(t.series_ops, n_ops);
	assert_int_equal(t.errors, 0);
	assert_int_equal(atomic_load(&f->submit_ok), n_ops);
	assert_int_equal(atomic_load(&f->completes), n_ops);
	ccb_run_free(run);
}

static void test_async_duration(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;
	uint64_t t0, took;

	fake_init(f, FAKE_ASYNC, 2);
	run_init(run, o, f, 2, 8, 512);
	run->duration_usec = 300000;
	t0 = ccb_now_nsec();
	assert_int_equal(ccb_run_execute(run), 0);
	took = elapsed_since(t0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_DONE);
	assert_string_equal(run->reason, "--duration reached");
	assert_true(took >= 300 * MSEC);
	assert_true(took < 3 * SEC);
	t = check_accounting(run, f);
	assert_true(t.ops > 0);
	assert_int_equal(t.ops, atomic_load(&f->submit_ok));
	/* The run ends with its last op, which is about when the duration ran out. */
	assert_true(run->end_nsec - run->start_nsec >= 200 * MSEC);
	ccb_run_free(run);
}

/* (d) submit() fails: the run stops with an error naming the op. */
static void test_submit_error(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;

	fake_init(f, FAKE_INLINE, 0);
	f->fail_submit_at = 10;
	run_init(run, o, f, 1, 4, 4096);
	run->duration_usec = 30000000; /* would run 30 s if the error did not stop it */
	assert_int_equal(ccb_run_execute(run), 0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_ERROR);
	assert_string_equal(ccb_result_status(run), "aborted");
	assert_int_equal(run->error_ret, -EIO);
	t = check_accounting(run, f);
	assert_int_equal(t.errors, 1);
	assert_int_equal(t.ops, 9);
	assert_int_equal(atomic_load(&f->submits), 10);
	assert_int_equal(run->clients[0].first_error, -EIO);
	assert_non_null(strstr(run->reason, strerror(EIO)));
	assert_non_null(strstr(run->reason, "fake_op(obj 9)"));
	assert_string_equal(run->reason, run->clients[0].first_error_msg);
	ccb_run_free(run);
}

/* (d) The library reports an op failure; ops still in flight drain. */
static void test_async_op_error(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;
	json_t *res;

	fake_init(f, FAKE_ASYNC, 2);
	f->fail_done_at = 200;
	run_init(run, o, f, 2, 8, 4096);
	run->duration_usec = 30000000;
	assert_int_equal(ccb_run_execute(run), 0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_ERROR);
	assert_int_equal(run->error_ret, -ENOSPC);
	t = check_accounting(run, f);
	assert_int_equal(t.errors, 1);
	assert_true(t.ops >= 199);
	assert_int_equal(t.ops + 1, atomic_load(&f->submit_ok));
	assert_non_null(strstr(run->reason, strerror(ENOSPC)));
	assert_non_null(strstr(run->reason, "fake_op(obj "));
	res = ccb_result_build(run, ccb_cli_command_find("rados write")->mask, 0, NULL);
	assert_string_equal(json_string_value(json_object_get(res, "status")), "aborted");
	assert_int_equal(json_integer_value(json_object_get(res, "errors")), 1);
	assert_non_null(strstr(json_string_value(json_object_get(res, "error")), strerror(ENOSPC)));
	json_decref(res);
	ccb_run_free(run);
}

/* (f) complete() (verification) fails: an op error, the run is aborted. */
static void test_complete_error(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct totals t;

	fake_init(f, FAKE_INLINE, 0);
	f->bad_complete_at = 20;
	run_init(run, o, f, 1, 4, 4096);
	run->duration_usec = 30000000;
	assert_int_equal(ccb_run_execute(run), 0);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_ERROR);
	assert_int_equal(run->error_ret, -EBADMSG);
	assert_string_equal(ccb_result_status(run), "aborted");
	t = check_accounting(run, f);
	assert_int_equal(t.errors, 1);
	/* The failed op is not counted as done; the others are. */
	assert_int_equal(t.ops, atomic_load(&f->completes) - 1);
	assert_int_equal(t.ops, atomic_load(&f->submit_ok) - 1);
	assert_true(t.ops >= 19);
	assert_non_null(strstr(run->reason, strerror(EBADMSG)));
	ccb_run_free(run);
}

struct watcher {
	struct ccb_run *run;
	struct fake *f;
	uint64_t t0, stop_after_nsec;
	int stop_seen;
	unsigned completed;
};

/* Waits for the run to stop, then plays librados timing out the stuck ops. */
static void *watcher_main(void *arg)
{
	struct watcher *w = arg;
	struct timespec ts = {0, 5000000L};

	while (atomic_load(&w->run->stop) == CCB_STOP_NONE && elapsed_since(w->t0) < 9 * SEC)
		nanosleep(&ts, NULL);
	w->stop_after_nsec = elapsed_since(w->t0);
	w->stop_seen = atomic_load(&w->run->stop);
	ts.tv_nsec = 200000000L;
	nanosleep(&ts, NULL);
	w->completed = complete_stuck(w->f, -ETIMEDOUT);
	return NULL;
}

/* (e) Ops that hang: the watchdog aborts after --op-timeout, the late completions drain. */
static void test_op_timeout_drained(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct watcher w;
	pthread_t th;
	uint64_t took;
	int r;

	fake_init(f, FAKE_STUCK, 0);
	run_init(run, o, f, 2, 2, 4096);
	o->op_timeout_usec = 1000000;
	run->duration_usec = 15000000; /* bounds the test if the watchdog never fires */
	memset(&w, 0, sizeof(w));
	w.run = run;
	w.f = f;
	w.t0 = ccb_now_nsec();
	assert_int_equal(pthread_create(&th, NULL, watcher_main, &w), 0);
	r = ccb_run_execute(run);
	took = elapsed_since(w.t0);
	/* Joined before any assertion: the watcher points into this frame. */
	pthread_join(th, NULL);
	assert_int_equal(r, 0);

	assert_int_equal(w.stop_seen, CCB_STOP_TIMEOUT);
	assert_int_equal(atomic_load(&run->stop), CCB_STOP_TIMEOUT);
	/* The watchdog fires after the timeout, and not much later. */
	assert_true(w.stop_after_nsec >= 1 * SEC);
	assert_true(w.stop_after_nsec < 2500 * MSEC);
	/* Drained as soon as the stuck ops completed, not at the backstop. */
	assert_true(took < 4 * SEC);
	assert_int_equal(w.completed, 4);
	assert_int_equal(run->error_ret, -ETIMEDOUT);
	assert_non_null(strstr(run->reason, "--op-timeout"));
	assert_string_equal(ccb_result_status(run), "aborted");
	check_accounting(run, f);
	for (unsigned i = 0; i < run->n_clients; i++) {
		assert_false(run->clients[i].stranded);
		assert_int_equal(run->clients[i].errors, 2); /* both its ops timed out */
		assert_int_equal(atomic_load(&run->clients[i].ops_done), 0);
	}
	ccb_run_free(run);
}

/* (e) Ops that never complete: the drain gives up at its backstop, clients are stranded. */
static void test_op_timeout_stranded(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	uint64_t t0, took;

	fake_init(f, FAKE_STUCK, 0);
	run_init(run, o, f, 2, 2, 4096);
	o->op_timeout_usec = 1000000;
	run->duration_usec = 15000000; /* bounds the test if the watchdog never fires */
	t0 = ccb_now_nsec();
	assert_int_equal(ccb_run_execute(run), 0);
	took = elapsed_since(t0);

	assert_int_equal(atomic_load(&run->stop), CCB_STOP_TIMEOUT);
	assert_non_null(strstr(run->reason, "--op-timeout"));
	/* Watchdog at ~1 s, then the op timeout + 5 s backstop: bounded, well under 10 s. */
	assert_true(took >= 6 * SEC);
	assert_true(took < 10 * SEC);
	for (unsigned i = 0; i < run->n_clients; i++) {
		assert_true(run->clients[i].stranded);
		assert_int_equal(run->clients[i].in_flight, 2);
	}
	/* A stranded client's connection stays open: a callback may still come. */
	assert_int_equal(atomic_load(&f->opens), 2);
	assert_int_equal(atomic_load(&f->closes), 0);

	/* The library calls back late: the engine must have kept the slots alive. */
	assert_int_equal(complete_stuck(f, -ETIMEDOUT), 4);
	/* The teardown frees what ccb_run_free() leaves of stranded clients. */
}

struct killer {
	pthread_t target;
	unsigned delay_ms;
	int signo;
};

static void *killer_main(void *arg)
{
	struct killer *k = arg;
	struct timespec ts = {k->delay_ms / 1000, (long)(k->delay_ms % 1000) * 1000000L};

	nanosleep(&ts, NULL);
	/* Deliver to the supervising thread, as a terminal's ^C usually lands. */
	pthread_kill(k->target, k->signo);
	return NULL;
}

/* (g) SIGINT during a long run: stops promptly as "interrupted". */
static void test_signal(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	struct killer k = {pthread_self(), 300, SIGINT};
	pthread_t th;
	uint64_t t0, took;
	struct totals t;
	int r;

	ccb_signal_pending = 0;
	ccb_signals_install();
	fake_init(f, FAKE_ASYNC, 2);
	run_init(run, o, f, 2, 4, 4096);
	run->duration_usec = 20000000; /* the signal must end it long before */
	t0 = ccb_now_nsec();
	assert_int_equal(pthread_create(&th, NULL, killer_main, &k), 0);
	r = ccb_run_execute(run);
	took = elapsed_since(t0);
	pthread_join(th, NULL);
	assert_int_equal(r, 0);

	assert_int_equal(atomic_load(&run->stop), CCB_STOP_SIGNAL);
	assert_int_equal(run->signal, SIGINT);
	assert_non_null(strstr(run->reason, "SIGINT"));
	assert_string_equal(ccb_result_status(run), "interrupted");
	assert_true(took >= 300 * MSEC);
	assert_true(took < 2 * SEC);
	t = check_accounting(run, f);
	assert_true(t.ops > 0);
	assert_int_equal(t.errors, 0);
	ccb_run_free(run);
}

/* A signal that arrived before the run: nothing is opened. */
static void test_signal_before_start(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;

	fake_init(f, FAKE_INLINE, 0);
	run_init(run, o, f, 2, 4, 4096);
	ccb_signal_pending = SIGTERM;
	assert_int_equal(ccb_run_execute(run), -EINTR);
	assert_int_equal(atomic_load(&f->opens), 0);
	assert_int_equal(atomic_load(&f->submits), 0);
	ccb_run_free(run);
}

/* A client that cannot connect: the error comes back, opened clients are closed. */
static void test_open_failure(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;

	fake_init(f, FAKE_INLINE, 0);
	f->fail_open_idx = 1;
	run_init(run, o, f, 3, 4, 4096);
	assert_int_equal(ccb_run_execute(run), -ECONNREFUSED);
	assert_int_equal(atomic_load(&f->opens), 1);
	assert_int_equal(atomic_load(&f->closes), 1);
	assert_int_equal(atomic_load(&f->submits), 0);
	assert_int_equal(atomic_load(&f->bad_client), 0);
	ccb_run_free(run);
}

/* Warnings are collected in order, from any thread. */
static void test_warn(void **state)
{
	struct fixture *fx = *state;
	struct ccb_opts *o = &fx->o;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;

	fake_init(f, FAKE_INLINE, 0);
	run_init(run, o, f, 1, 1, 64);
	f->end_after = 1;
	assert_int_equal(ccb_run_execute(run), 0);
	ccb_run_warn(run, "first %d", 1);
	ccb_run_warn(run, "second %s", "two");
	assert_int_equal(json_array_size(run->warnings), 2);
	assert_string_equal(json_string_value(json_array_get(run->warnings, 0)), "first 1");
	assert_string_equal(json_string_value(json_array_get(run->warnings, 1)), "second two");
	/* The first stop reason sticks. */
	ccb_run_stop(run, CCB_STOP_SIGNAL, -EINTR, "first");
	ccb_run_stop(run, CCB_STOP_SIGNAL, -EINTR, "second");
	assert_string_equal(run->reason, "first");
	ccb_run_free(run);
	assert_null(run->warnings);
}

/* --until-steady bw:50%/2s with no ramp: steady at the second sample. */
static void steady_opts(struct ccb_opts *o)
{
	char err[256];

	assert_int_equal(
	    ccb_opt_set(o, ccb_opt_find("until-steady"), "bw:50%/2s", err, sizeof(err)), 0);
	assert_int_equal(ccb_opt_set(o, ccb_opt_find("steady-ramp"), "0", err, sizeof(err)), 0);
}

/* The level a sweep would take from this run's result. */
static double level_of(struct ccb_run *run, bool *stopped)
{
	json_t *r =
	    json_pack("{s:o, s:f}", "steady_state", ccb_steady_json(run->steady, run->reason, 0),
	              "bandwidth_mib_s", -1.0);
	double v;

	assert_non_null(r);
	*stopped = ccb_result_stopped_steady(r);
	assert_true(
	    json_is_boolean(json_object_get(json_object_get(r, "steady_state"), "read_to_end")));
	v = ccb_result_level(r, "bandwidth_mib_s");
	json_decref(r);
	return v;
}

/* Steady state with the run's end a whole window away: it stops there, and
 * its level is the window's. */
static void test_steady_stops(void **state)
{
	struct fixture *fx = *state;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	bool stopped;
	uint64_t t0;

	fake_init(f, FAKE_INLINE, 0);
	run_init(run, &fx->o, f, 1, 1, 4096);
	steady_opts(&fx->o);
	run->duration_usec = 6000000;
	t0 = ccb_now_nsec();
	assert_int_equal(ccb_run_execute(run), 0);
	assert_true(elapsed_since(t0) < 5 * SEC);
	assert_non_null(run->steady);
	assert_true(run->steady->attained);
	assert_false(run->steady->read_to_end);
	assert_true(strncmp(run->reason, "steady state", 12) == 0);
	assert_true(level_of(run, &stopped) > 0);
	assert_true(stopped);
	ccb_run_free(run);
}

/* Steady state with the run's end under a window away (its duration, or a
 * pass at the window's rate): it reads on to that end, and its level is
 * the whole run's, as a full-length run's would be. */
static void test_steady_reads_to_end(void **state)
{
	struct fixture *fx = *state;
	struct ccb_run *run = &fx->run;
	struct fake *f = &fx->f;
	bool stopped;
	uint64_t t0;

	fake_init(f, FAKE_INLINE, 0);
	run_init(run, &fx->o, f, 1, 1, 4096);
	steady_opts(&fx->o);
	run->duration_usec = 3000000;
	t0 = ccb_now_nsec();
	assert_int_equal(ccb_run_execute(run), 0);
	assert_true(elapsed_since(t0) >= 3 * SEC);
	assert_true(run->steady->attained);
	assert_true(run->steady->read_to_end);
	assert_true(run->steady->read_to_end_left_s < 2.0);
	assert_string_equal(run->reason, "--duration reached");
	assert_true(level_of(run, &stopped) == -1.0); /* the whole run's figure */
	assert_false(stopped);
	ccb_run_free(run);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_inline_total),        T(test_shared_write_buffer), T(test_submit_end_inline),
	    T(test_submit_end_async),    T(test_async_total),         T(test_async_duration),
	    T(test_submit_error),        T(test_async_op_error),      T(test_complete_error),
	    T(test_op_timeout_drained),  T(test_op_timeout_stranded), T(test_signal),
	    T(test_signal_before_start), T(test_open_failure),        T(test_warn),
	    T(test_quiesce_counted),     T(test_quiesce_error),       T(test_steady_stops),
	    T(test_steady_reads_to_end),
	};

	/* A broken engine tends to hang rather than fail: bound the whole suite. */
	alarm(120);
	if (ccb_commands_init() < 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
