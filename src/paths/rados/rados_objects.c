/*
 * The rados path's objects: their names, the run's metadata object
 * (RUN.meta), and removing a run's objects, for the undo log and `ccbench
 * cleanup`. Below path_rados.c, which does the I/O: nothing here calls it.
 */
#include <ccbench/clock.h>
#include <ccbench/command.h>
#include <ccbench/cluster.h>
#include <ccbench/path.h>
#include "path_rados.h"
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <rados/librados.h>

#include "path_rados_int.h"

/* ---- names ------------------------------------------------------------- */

void ccb_rados_obj_name(char *buf, size_t len, const char *run, uint64_t obj)
{
	snprintf(buf, len, "%s.%08" PRIu64, run, obj);
}

uint64_t ccb_rados_claimed_objects(struct rrun *rr)
{
	uint64_t n = atomic_load(&rr->next);

	if (rr->max_objects && n > rr->max_objects)
		n = rr->max_objects;
	return n;
}

/* ---- metadata ---------------------------------------------------------- */

static json_t *meta_json(struct rrun *rr, bool complete)
{
	char host[256] = "";
	json_t *partial = json_array();

	gethostname(host, sizeof(host) - 1);
	for (size_t i = 0; i < rr->n_partial; i++)
		json_array_append_new(partial, json_integer((json_int_t)rr->partial[i]));
	uint64_t n = ccb_rados_claimed_objects(rr);
	if (rr->old_objects > n)
		n = rr->old_objects;
	return json_pack("{s:i, s:s, s:I, s:I, s:I, s:o, s:b, s:s, s:i, s:I}", "ccbench_meta", 1,
	                 "run", rr->run, "op_size", (json_int_t)rr->op_bytes, "object_size",
	                 (json_int_t)rr->obj_bytes, "objects", (json_int_t)n, "partial", partial,
	                 "complete", complete, "host", host, "pid", (int)getpid(), "time",
	                 (json_int_t)time(NULL));
}

int ccb_rados_meta_read(rados_ioctx_t io, const char *run, json_t **out)
{
	char name[96];
	char *buf = malloc(META_MAX_BYTES + 1);
	json_error_t jerr;
	int r;

	if (!buf)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%s.meta", run);
	r = rados_read(io, name, buf, META_MAX_BYTES, 0);
	if (r >= 0) {
		buf[r] = '\0';
		*out = json_loads(buf, 0, &jerr);
		if (!*out || !json_is_object(*out) || !json_object_get(*out, "ccbench_meta")) {
			json_decref(*out);
			*out = NULL;
			r = -EBADMSG;
		} else {
			r = 0;
		}
	}
	free(buf);
	return r;
}

int ccb_rados_meta_write(struct rrun *rr, bool complete, bool exclusive)
{
	char name[96];
	json_t *m = meta_json(rr, complete);
	char *s = m ? json_dumps(m, JSON_COMPACT) : NULL;
	rados_write_op_t op;
	int r;

	json_decref(m);
	if (!s)
		return -ENOMEM;
	snprintf(name, sizeof(name), "%s.meta", rr->run);
	op = rados_create_write_op();
	if (exclusive)
		rados_write_op_create(op, LIBRADOS_CREATE_EXCLUSIVE, NULL);
	rados_write_op_write_full(op, s, strlen(s));
	r = rados_write_op_operate(op, rr->io, name, NULL, 0);
	rados_release_write_op(op);
	free(s);
	return r;
}

/* ---- removal (shared by the undo log and `ccbench cleanup`) ------------- */

/*
 * Every removal of one cleanup is in flight at once (up to CLEANUP_WINDOW),
 * and the whole cleanup has one deadline (--op-timeout). Removing objects
 * in turn made a fault's end grow with what the machine had written: after
 * an OSD stopped, each of its objects waited out a timeout of its own.
 *
 * Completions are counted by a callback on librados' thread, under the
 * remover's lock. When the deadline passes with removals still in flight,
 * the remover is left to the last of them to free (a reference each), and
 * what was not removed is reported with the command that removes it.
 */
#define CLEANUP_WINDOW     4096
#define CLEANUP_SLACK_NSEC 3000000000ull

/* `ccbench cleanup`: one deadline for the whole command, whatever the runs
 * it removes (each remover's own otherwise). 0: none. */
static uint64_t command_deadline_nsec;

/*
 * The connections a cleanup gave up on with removals still in flight:
 * shutting one down under them trips librados' asserts (Objecter::op_cancel
 * on a timer), so it is left to the process exit instead. Only that one: a
 * process-wide flag also left every later run's connection of a sweep
 * (LeakSanitizer, one ioctx a run after the first fault, t_zz_chaos). They
 * are kept here, reachable: left on purpose, not lost. Beyond the table's
 * size every connection is left, as that flag did.
 */
#define ABANDONED_MAX 64
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static rados_ioctx_t abandoned[ABANDONED_MAX];
static unsigned n_abandoned;
static bool abandoned_full;

static void abandon(rados_ioctx_t io)
{
	pthread_mutex_lock(&abandoned_lock);
	if (n_abandoned < ABANDONED_MAX)
		abandoned[n_abandoned++] = io;
	else
		abandoned_full = true;
	pthread_mutex_unlock(&abandoned_lock);
}

static bool is_abandoned(rados_ioctx_t io)
{
	bool found;

	pthread_mutex_lock(&abandoned_lock);
	found = abandoned_full;
	for (unsigned i = 0; i < n_abandoned && !found; i++)
		found = abandoned[i] == io;
	pthread_mutex_unlock(&abandoned_lock);
	return found;
}

/* Close a connection, unless a cleanup left removals in flight on it. */
static void conn_close(rados_t ctl, rados_ioctx_t io)
{
	if (is_abandoned(io))
		return;
	rados_ioctx_destroy(io);
	rados_shutdown(ctl);
}

struct remover {
	rados_ioctx_t io;
	const struct ccb_opts *opts; /* pool and namespace for the message */
	pthread_mutex_t lock;
	pthread_cond_t cond; /* CLOCK_MONOTONIC: the deadline is a duration */
	unsigned refs;       /* the owner + one per removal in flight */
	unsigned in_flight;
	uint64_t removed, failed, skipped;
	int first_err;
	uint64_t deadline_nsec;
	bool expired;
	bool meta_sent;           /* the run's meta was sent last: not counted as an object */
	uint64_t objects_removed; /* removed before the meta was sent */
};

static void remover_put_locked(struct remover *rm)
{
	bool last = --rm->refs == 0;

	pthread_mutex_unlock(&rm->lock);
	if (last) {
		pthread_cond_destroy(&rm->cond);
		pthread_mutex_destroy(&rm->lock);
		free(rm);
	}
}

static struct remover *remover_new(rados_ioctx_t io, const struct ccb_opts *o)
{
	struct remover *rm = calloc(1, sizeof(*rm));
	pthread_condattr_t ca;

	if (!rm)
		return NULL;
	rm->io = io;
	rm->opts = o;
	rm->refs = 1;
	pthread_mutex_init(&rm->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&rm->cond, &ca);
	pthread_condattr_destroy(&ca);
	/* Each removal times out by itself after --op-timeout (rados_osd_op_timeout);
	 * the slack lets those answers arrive, so that no op is left in flight
	 * when the connection shuts down. */
	rm->deadline_nsec = ccb_now_nsec() + o->op_timeout_usec * 1000ull + CLEANUP_SLACK_NSEC;
	if (command_deadline_nsec && command_deadline_nsec < rm->deadline_nsec)
		rm->deadline_nsec = command_deadline_nsec;
	return rm;
}

static void remover_cb(rados_completion_t c, void *arg)
{
	struct remover *rm = arg;
	int r = rados_aio_get_return_value(c);

	/* librados thread: count, wake the owner, nothing more. The callback
	 * holds its own reference to c, so releasing ours here is safe. */
	rados_aio_release(c);
	pthread_mutex_lock(&rm->lock);
	if (r == 0)
		rm->removed++;
	else if (r != -ENOENT) {
		rm->failed++;
		if (!rm->first_err)
			rm->first_err = r;
	}
	rm->in_flight--;
	pthread_cond_broadcast(&rm->cond);
	remover_put_locked(rm);
}

/* Wait (with the lock held) until at most @p keep removals are in flight or
 * the deadline passed. @return false once the deadline has passed. */
static bool remover_wait_locked(struct remover *rm, unsigned keep)
{
	while (rm->in_flight > keep && !rm->expired) {
		struct timespec ts = {.tv_sec = (time_t)(rm->deadline_nsec / 1000000000ull),
		                      .tv_nsec = (long)(rm->deadline_nsec % 1000000000ull)};

		if (pthread_cond_timedwait(&rm->cond, &rm->lock, &ts) == ETIMEDOUT)
			rm->expired = true;
	}
	return !rm->expired;
}

static void remover_add(struct remover *rm, const char *name)
{
	rados_completion_t c;
	rados_write_op_t op;
	int r;

	pthread_mutex_lock(&rm->lock);
	if (!remover_wait_locked(rm, CLEANUP_WINDOW - 1)) {
		rm->skipped++;
		pthread_mutex_unlock(&rm->lock);
		return;
	}
	rm->in_flight++;
	rm->refs++;
	pthread_mutex_unlock(&rm->lock);

	r = rados_aio_create_completion2(rm, remover_cb, &c);
	if (r == 0) {
		/* FULL_TRY: a pool over quota or full blocks plain removals, and
		 * removing is exactly what gets it out of that state. */
		op = rados_create_write_op();
		rados_write_op_remove(op);
		r = rados_aio_write_op_operate(op, rm->io, c, name, NULL,
		                               LIBRADOS_OPERATION_FULL_TRY);
		rados_release_write_op(op);
		if (r < 0)
			rados_aio_release(c);
	}
	if (r < 0) {
		pthread_mutex_lock(&rm->lock);
		rm->in_flight--;
		rm->failed++;
		if (!rm->first_err)
			rm->first_err = r;
		remover_put_locked(rm);
	}
}

/* Wait for every removal in flight (until the deadline). @return true when
 * all of them were removed (or already gone). */
static bool remover_drain(struct remover *rm)
{
	bool clean;

	pthread_mutex_lock(&rm->lock);
	remover_wait_locked(rm, 0);
	clean = !rm->in_flight && !rm->failed && !rm->skipped;
	pthread_mutex_unlock(&rm->lock);
	return clean;
}

/* Report, drop the owner's reference. @return 0, or -errno when anything
 * is left. */
static int remover_finish(struct remover *rm, const char *run, uint64_t *removed)
{
	const struct ccb_opts *o = rm->opts;
	uint64_t left;
	int r = 0;

	pthread_mutex_lock(&rm->lock);
	remover_wait_locked(rm, 0);
	*removed = rm->meta_sent ? rm->objects_removed : rm->removed;
	left = rm->failed + rm->skipped + rm->in_flight;
	if (rm->in_flight)
		abandon(rm->io);
	if (left) {
		bool ns = strcmp(o->rados_namespace, "ccbench") != 0;
		char why[256] = "";

		r = rm->first_err ? rm->first_err : -ETIMEDOUT;
		/* `ccbench cleanup`: the cluster's own word on why, where the map
		 * has one (a pool full or over its quota, OSDs down). */
		if (!command_deadline_nsec ||
		    (ccb_cluster_diagnose(rados_ioctx_get_cluster(rm->io), o->pool, NULL, why,
		                          sizeof(why)) >= 0 &&
		     !strstr(why, "down")))
			why[0] = '\0';
		if (why[0])
			fprintf(stderr, "ccbench: pool %s: %s\n", o->pool, why);
		fprintf(stderr,
		        "ccbench: %" PRIu64
		        " objects of run %s not removed (%s%s); remove them with: "
		        "ccbench cleanup -p %s%s%s --run-name %s\n",
		        left, run, rm->first_err ? strerror(-rm->first_err) : "",
		        rm->expired ? (rm->first_err ? "; cleanup deadline (--op-timeout) passed"
		                                     : "cleanup deadline (--op-timeout) passed")
		                    : "",
		        o->pool, ns ? " -N " : "", ns ? o->rados_namespace : "", run);
	}
	remover_put_locked(rm);
	return r;
}

static int remove_by_count(rados_ioctx_t io, const struct ccb_opts *o, const char *run,
                           uint64_t n_objects, uint64_t *removed)
{
	struct remover *rm = remover_new(io, o);
	char name[96];

	if (!rm)
		return -ENOMEM;
	for (uint64_t i = 0; i < n_objects; i++) {
		ccb_rados_obj_name(name, sizeof(name), run, i);
		remover_add(rm, name);
	}
	/* The meta goes last: while any object remains, it still names the run. */
	if (remover_drain(rm)) {
		snprintf(name, sizeof(name), "%s.meta", run);
		rm->objects_removed = rm->removed; /* drained: the meta is not an object */
		rm->meta_sent = true;
		remover_add(rm, name);
	}
	return remover_finish(rm, run, removed);
}

/* True for names ccbench writes for @p run: RUN.meta and RUN.<digits>. */
static bool is_run_object(const char *name, const char *run)
{
	size_t l = strlen(run);

	if (strncmp(name, run, l) != 0 || name[l] != '.')
		return false;
	name += l + 1;
	if (strcmp(name, "meta") == 0)
		return true;
	if (!*name)
		return false;
	return strspn(name, "0123456789") == strlen(name);
}

/* For runs whose meta never got its final count (a crash): list the namespace. */
static int remove_by_listing(rados_ioctx_t io, const struct ccb_opts *o, const char *run,
                             uint64_t *removed)
{
	struct remover *rm;
	rados_list_ctx_t ctx;
	const char *entry;
	char meta[96];
	bool have_meta = false;
	int r = rados_nobjects_list_open(io, &ctx);

	if (r < 0)
		return r;
	rm = remover_new(io, o);
	if (!rm) {
		rados_nobjects_list_close(ctx);
		return -ENOMEM;
	}
	while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
		if (!is_run_object(entry, run))
			continue;
		if (strcmp(entry + strlen(run), ".meta") == 0) {
			have_meta = true;
			continue;
		}
		remover_add(rm, entry);
	}
	rados_nobjects_list_close(ctx);
	if (r != -ENOENT) {
		fprintf(stderr, "ccbench: rados_nobjects_list(pool %s): %s\n", o->pool,
		        strerror(-r));
		remover_finish(rm, run, removed);
		return r;
	}
	if (remover_drain(rm) && have_meta) {
		snprintf(meta, sizeof(meta), "%s.meta", run);
		rm->objects_removed = rm->removed; /* drained: the meta is not an object */
		rm->meta_sent = true;
		remover_add(rm, meta);
	}
	return remover_finish(rm, run, removed);
}

int ccb_rados_undo_remove_objects(void *arg)
{
	struct rrun *rr = arg;
	uint64_t n = ccb_rados_claimed_objects(rr), removed = 0;

	if (rr->old_objects > n)
		n = rr->old_objects;
	uint64_t late = atomic_load(&rr->timed_out);
	const struct ccb_opts *o = rr->opts;
	bool ns = strcmp(o->rados_namespace, "ccbench") != 0;
	int r;

	if (!o->quiet)
		fprintf(stderr, "ccbench: removing %" PRIu64 " objects of run %s\n", n, rr->run);
	r = remove_by_count(rr->io, o, rr->run, n, &removed);
	/* RADOS has no cancel: a write the client stopped waiting for can
	 * still be applied once its OSD answers, after its object was removed
	 * here (seen: an OSD frozen past --op-timeout). Named, with the command
	 * that finds them by name once the OSD is back (no meta is left). */
	if (late)
		fprintf(stderr,
		        "ccbench: %" PRIu64 " writes of run %s timed out (--op-timeout); an OSD "
		        "that answers later may still apply them and leave their objects; if any "
		        "%s.<n> objects appear, remove them with: ccbench cleanup -p %s%s%s "
		        "--run-name %s --force\n",
		        late, rr->run, rr->run, o->pool, ns ? " -N " : "",
		        ns ? o->rados_namespace : "", rr->run);
	return r;
}

int ccb_rados_undo_close_ctl(void *arg)
{
	struct rrun *rr = arg;

	conn_close(rr->ctl, rr->io);
	pthread_mutex_destroy(&rr->lock);
	free(rr->partial);
	free(rr);
	return 0;
}

/* ---- ccbench cleanup ---------------------------------------------------- */

static int cleanup_one(rados_ioctx_t io, const char *run, const struct ccb_opts *o)
{
	json_t *m = NULL;
	uint64_t removed = 0;
	int r = ccb_rados_meta_read(io, run, &m);

	if (r == 0 && json_is_true(json_object_get(m, "complete"))) {
		uint64_t n = (uint64_t)json_integer_value(json_object_get(m, "objects"));
		r = remove_by_count(io, o, run, n, &removed);
	} else if (r == 0 || (r == -ENOENT && o->force)) {
		/* No final count (a crash mid-write; or no meta, and --force): list
		 * the namespace for RUN.<digits>. */
		r = remove_by_listing(io, o, run, &removed);
	} else if (r == -ENOENT) {
		/* Without the meta's header nothing says these objects are ccbench's:
		 * RUN.<digits> is a name anyone could use. */
		fprintf(
		    stderr,
		    "ccbench: cleanup: no %s.meta in pool %s namespace %s, so nothing shows that "
		    "objects named %s.<digits> are a ccbench run's; not touching them (--force "
		    "removes them anyway)\n",
		    run, o->pool, o->rados_namespace, run);
		json_decref(m);
		return -EPERM; /* exit 1: a refusal, not bad input */
	} else {
		fprintf(stderr, "ccbench: %s.meta: %s; not touching run %s\n", run,
		        r == -EBADMSG ? "not a ccbench run header" : strerror(-r), run);
	}
	json_decref(m);
	printf("run %s: removed %" PRIu64 " objects from pool %s namespace %s\n", run, removed,
	       o->pool, o->rados_namespace);
	return r;
}

int ccb_rados_cleanup(const struct ccb_opts *o)
{
	rados_t cluster;
	rados_ioctx_t io;
	char err[512];
	int r = ccb_cluster_connect(o, &cluster, err, sizeof(err));

	/* One bound for the command: --op-timeout (and the slack that lets the
	 * last answers in), however many runs --all-runs finds. */
	command_deadline_nsec = ccb_now_nsec() + o->op_timeout_usec * 1000ull + CLEANUP_SLACK_NSEC;

	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		return r;
	}
	r = ccb_cluster_ioctx(cluster, o, &io, err, sizeof(err));
	if (r < 0) {
		fprintf(stderr, "ccbench: %s\n", err);
		rados_shutdown(cluster);
		return r;
	}
	if (o->run_name) {
		r = cleanup_one(io, o->run_name, o);
	} else {
		/* --all-runs: every RUN that has a RUN.meta carrying our header. */
		rados_list_ctx_t ctx;
		const char *entry;
		json_t *runs = json_array();
		size_t i;
		json_t *v;

		r = rados_nobjects_list_open(io, &ctx);
		if (r == 0) {
			while ((r = rados_nobjects_list_next(ctx, &entry, NULL, NULL)) == 0) {
				size_t l = strlen(entry);
				if (l > 5 && strcmp(entry + l - 5, ".meta") == 0)
					json_array_append_new(runs, json_stringn(entry, l - 5));
			}
			rados_nobjects_list_close(ctx);
		}
		if (r == -ENOENT)
			r = 0;
		else if (r < 0)
			fprintf(stderr, "ccbench: rados_nobjects_list(pool %s): %s\n", o->pool,
			        strerror(-r));
		json_array_foreach(runs, i, v)
		{
			json_t *m = NULL;
			const char *run = json_string_value(v);
			if (ccb_rados_meta_read(io, run, &m) < 0)
				continue; /* not ours */
			json_decref(m);
			int rr = cleanup_one(io, run, o);
			if (rr < 0 && !r)
				r = rr;
		}
		if (!json_array_size(runs))
			printf("no ccbench runs in pool %s namespace %s\n", o->pool,
			       o->rados_namespace);
		json_decref(runs);
	}
	conn_close(cluster, io);
	return r;
}

int ccb_rados_cleanup_run(const struct ccb_cli *cli, int argc, char **argv)
{
	int r = ccb_rados_cleanup(&cli->opts);

	(void)argc;
	(void)argv;
	return r == 0 ? 0 : (r == -EINVAL || r == -ENOENT) ? 2 : 1;
}
