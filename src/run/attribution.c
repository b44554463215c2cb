/*
 * Where the time went (attribution.h): the PG map and the OSDs' counters
 * around a run, each client's per-OSD array on the hot path, and the
 * result's "attribution". Everything asked of the cluster is read-only and
 * goes through one connection of this module's own, whose mon and OSD
 * commands give up after --connect-timeout; whatever fails is said in the
 * result, and the run goes on.
 */
#include <ccbench/attr_json.h>
#include <ccbench/attribution.h>
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/hist_json.h>
#include <ccbench/osd_ops.h>
#include <ccbench/osd_perf.h>
#include <ccbench/osd_query.h>
#include <ccbench/path.h>
#include <ccbench/pg_map.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ccb_attr {
	rados_t r;   /* the module's own connection (NULL: none) */
	bool per_op; /* each op is resolved to its OSD */
	struct ccb_attr_target target;
	const struct ccb_pg_pool *pool; /* the target's pool, in before */
	struct ccb_pg_map before, after;
	bool have_map;    /* before was read */
	int32_t *pg_slot; /* per PG of the target pool: its primary's slot */
	int *slot_osd;    /* per slot: the OSD */
	unsigned n_slots, n_hist;
	int *ask; /* the OSDs asked for their counters */
	size_t n_ask;
	struct ccb_osd_answer *perf0;
	double query_s[2];   /* before, after */
	json_t *unavailable; /* [{what, why, cap}] */
	json_t *notes;       /* [text] */
};

static void unavailable(struct ccb_attr *a, const char *what, int err, const char *cap,
                        const char *instead)
{
	json_t *u = json_pack("{s:s, s:s}", "what", what, "why",
	                      err == -EACCES || err == -EPERM ? "access denied" : strerror(-err));

	if (cap)
		json_object_set_new(u, "cap", json_string(cap));
	if (instead)
		json_object_set_new(u, "instead", json_string(instead));
	json_array_append_new(a->unavailable, u);
}

static bool is_on(const struct ccb_run *run)
{
	const struct ccb_path_ops *ops = run->ops;

	if (run->opts->attribution && strcmp(run->opts->attribution, "off") == 0)
		return false;
	return !ops->needs_cluster || ops->needs_cluster(run->opts);
}

/* The pools whose PGs the run's ops reach: the per-op target's, else the
 * data pool the path described (run->extra "pools"). */
static size_t run_pools(const struct ccb_run *run, const struct ccb_attr *a, int64_t *ids)
{
	const json_t *pools = json_object_get(run->extra, "pools"), *d;
	size_t n = 0;

	if (a->per_op)
		ids[n++] = a->target.pool_id;
	d = json_object_get(pools, "data");
	if (json_is_integer(json_object_get(d, "id")) &&
	    (!n || json_integer_value(json_object_get(d, "id")) != ids[0]))
		ids[n++] = json_integer_value(json_object_get(d, "id"));
	return n;
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;
	return a < b ? -1 : a > b;
}

/* Add @p osd to the sorted-later list @p list of *@p n, at most @p max. */
static void add_osd(int *list, size_t *n, size_t max, int osd)
{
	if (osd < 0)
		return;
	for (size_t i = 0; i < *n; i++)
		if (list[i] == osd)
			return;
	if (*n < max)
		list[(*n)++] = osd;
}

/* The OSDs to ask: every OSD in the acting sets of the map's PGs; without
 * a map, every OSD the osdmap says is up. */
static void pick_osds(struct ccb_attr *a, const json_t *osd_dump)
{
	const json_t *o;
	size_t i;

	a->ask = calloc(CCB_ATTR_MAX_OSDS, sizeof(*a->ask));
	if (!a->ask)
		return;
	for (i = 0; a->have_map && i < a->before.n_pools; i++) {
		const struct ccb_pg_pool *p = &a->before.pools[i];

		for (size_t k = 0; k < (size_t)p->pg_num * CCB_PG_ACTING_MAX; k++)
			add_osd(a->ask, &a->n_ask, CCB_ATTR_MAX_OSDS, p->acting[k]);
	}
	if (!a->n_ask)
		json_array_foreach(json_object_get(osd_dump, "osds"), i,
		                   o) if (json_integer_value(json_object_get(o, "up")) == 1)
		    add_osd(a->ask, &a->n_ask, CCB_ATTR_MAX_OSDS,
		            (int)json_integer_value(json_object_get(o, "osd")));
	qsort(a->ask, a->n_ask, sizeof(*a->ask), cmp_int);
}

/* The slots: each distinct acting primary of the target pool's PGs, in
 * OSD order; the PGs point at them. */
static int make_slots(struct ccb_attr *a)
{
	const struct ccb_pg_pool *p = a->pool;

	a->pg_slot = malloc(p->pg_num * sizeof(*a->pg_slot));
	a->slot_osd = malloc(p->pg_num * sizeof(*a->slot_osd));
	if (!a->pg_slot || !a->slot_osd)
		return -ENOMEM;
	for (uint32_t g = 0; g < p->pg_num; g++) {
		size_t n = a->n_slots;
		add_osd(a->slot_osd, &n, p->pg_num, p->primary[g]);
		a->n_slots = (unsigned)n;
	}
	qsort(a->slot_osd, a->n_slots, sizeof(*a->slot_osd), cmp_int);
	for (uint32_t g = 0; g < p->pg_num; g++) {
		a->pg_slot[g] = CCB_ATTR_NONE;
		for (unsigned s = 0; s < a->n_slots; s++)
			if (a->slot_osd[s] == p->primary[g])
				a->pg_slot[g] = (int32_t)s;
	}
	return 0;
}

/* Each client's array; histograms for as many OSDs as the budget holds. */
static int make_arrays(struct ccb_run *run, struct ccb_attr *a)
{
	size_t per =
	    CCB_ATTR_HIST_BYTES / (run->n_clients ? run->n_clients : 1) / sizeof(struct ccb_hist);

	if (per < CCB_ATTR_HIST_MIN)
		per = CCB_ATTR_HIST_MIN;
	a->n_hist = a->n_slots < per ? a->n_slots : (unsigned)per;
	for (unsigned i = 0; i < run->n_clients; i++) {
		struct ccb_client *cl = &run->clients[i];
		struct ccb_attr_client *ac = calloc(1, sizeof(*ac));

		if (!ac)
			return -ENOMEM;
		cl->attr = ac;
		ac->n_osds = a->n_slots;
		ac->n_hist = a->n_hist;
		ac->stat = calloc(a->n_slots + 1, sizeof(*ac->stat));
		ac->hist = malloc((a->n_hist + 1) * sizeof(*ac->hist));
		if (!ac->stat || !ac->hist)
			return -ENOMEM;
		for (unsigned h = 0; h <= a->n_hist; h++)
			ccb_hist_init(&ac->hist[h]);
	}
	return 0;
}

/* The PG map of the pools the run uses, and what follows from it. */
static void read_map(struct ccb_run *run, struct ccb_attr *a, const json_t *osd_dump)
{
	int64_t ids[2];
	size_t n = run_pools(run, a, ids);
	char err[256];
	int r = 0;

	for (size_t i = 0; i < n && r == 0; i++)
		r = ccb_pg_map_add_pool(&a->before, osd_dump, ids[i]);
	if (r == 0 && n)
		r = ccb_pg_map_read(a->r, &a->before, err, sizeof(err));
	if (r < 0 || !n) {
		if (n)
			unavailable(a, "the PG map", r, "mgr 'allow r' (or mon 'allow r')", NULL);
		a->per_op = false;
		return;
	}
	a->have_map = true;
	if (strcmp(a->before.source, "mgr pg dump") != 0)
		unavailable(a, "the mgr's PG map", -EACCES, "mgr 'allow r'",
		            "the mon's pg map, PG by PG");
	a->pool = a->per_op ? ccb_pg_map_pool(&a->before, a->target.pool_id) : NULL;
	if (a->per_op && (!a->pool || make_slots(a) < 0 || make_arrays(run, a) < 0)) {
		a->per_op = false;
		json_array_append_new(a->notes, json_string("no memory for the per-OSD arrays"));
	}
}

/* The OSDs' counters before the run, and who could not answer. */
static void read_perf_before(struct ccb_attr *a)
{
	if (!a->n_ask)
		return;
	a->perf0 = calloc(a->n_ask, sizeof(*a->perf0));
	if (!a->perf0)
		return;
	ccb_osd_query(a->r, a->ask, a->n_ask, "{\"prefix\": \"perf dump\", \"format\": \"json\"}",
	              a->perf0);
}

void ccb_attr_start(struct ccb_run *run)
{
	struct ccb_attr *a;
	char err[512], timeout[32];
	json_t *dump;
	int e = 0;
	uint64_t t0 = ccb_now_nsec();

	if (!is_on(run) || run->attr)
		return;
	a = calloc(1, sizeof(*a));
	if (!a)
		return;
	run->attr = a;
	a->unavailable = json_array();
	a->notes = json_array();
	/* librados takes whole seconds here. */
	snprintf(timeout, sizeof(timeout), "%llu",
	         (unsigned long long)((run->opts->connect_timeout_usec + 999999) / 1000000));
	if (ccb_cluster_connect_bounded(run->opts, timeout, &a->r, err, sizeof(err)) < 0) {
		a->r = NULL;
		json_array_append_new(a->notes, json_string(err));
		return;
	}
	a->per_op = run->ops->op_object && run->ops->attr_target &&
	            run->ops->attr_target(run, &a->target) == 0;
	dump = ccb_cluster_mon_json(a->r, "{\"prefix\": \"osd dump\", \"format\": \"json\"}", &e);
	if (!dump) {
		unavailable(a, "the osdmap", e, "mon 'allow r'", NULL);
		a->per_op = false;
	} else {
		read_map(run, a, dump);
		pick_osds(a, dump);
		json_decref(dump);
	}
	read_perf_before(a);
	a->query_s[0] = (double)(ccb_now_nsec() - t0) / 1e9;
}

int32_t ccb_attr_resolve(struct ccb_client *cl, const struct ccb_slot *s)
{
	const struct ccb_attr *a = cl->run->attr;
	char name[256];
	unsigned n = cl->run->ops->op_object(cl, s, name, sizeof(name));
	uint32_t pg;

	if (!n)
		return CCB_ATTR_NONE;
	if (n > 1)
		cl->attr->spanning++;
	pg = ccb_stable_mod(ccb_object_hash(a->pool->object_hash, a->target.nspace, name),
	                    a->pool->pg_num, a->pool->pg_num_mask);
	return a->pg_slot[pg];
}

/* ---- after the run ------------------------------------------------------ */

/* The clients' arrays merged into per-slot figures (stat[n_slots]: unmapped). */
static int merge_clients(const struct ccb_run *run, const struct ccb_attr *a,
                         struct ccb_attr_client *m)
{
	m->n_osds = a->n_slots;
	m->n_hist = a->n_hist;
	m->stat = calloc(a->n_slots + 1, sizeof(*m->stat));
	m->hist = malloc((a->n_hist + 1) * sizeof(*m->hist));
	if (!m->stat || !m->hist)
		return -ENOMEM;
	for (unsigned h = 0; h <= a->n_hist; h++)
		ccb_hist_init(&m->hist[h]);
	for (unsigned i = 0; i < run->n_clients; i++) {
		const struct ccb_attr_client *c = run->clients[i].attr;

		if (!c)
			continue;
		for (unsigned s = 0; s <= a->n_slots; s++) {
			m->stat[s].ops += c->stat[s].ops;
			m->stat[s].bytes += c->stat[s].bytes;
			m->stat[s].sum_nsec += c->stat[s].sum_nsec;
			if (c->stat[s].max_nsec > m->stat[s].max_nsec)
				m->stat[s].max_nsec = c->stat[s].max_nsec;
		}
		for (unsigned h = 0; h <= a->n_hist; h++)
			ccb_hist_merge(&m->hist[h], &c->hist[h]);
		m->spanning += c->spanning;
	}
	return 0;
}

/* PGs of the target pool whose primary is @p osd. */
static unsigned primary_pgs(const struct ccb_attr *a, int osd)
{
	unsigned n = 0;

	for (uint32_t g = 0; a->pool && g < a->pool->pg_num; g++)
		n += a->pool->primary[g] == osd;
	return n;
}

/* The client side of each OSD (per-op runs), into @p osds keyed "osd.N". */
static json_t *client_side(const struct ccb_run *run, const struct ccb_attr *a, json_t *osds)
{
	struct ccb_attr_client m = {0};
	uint64_t total = 0;
	json_t *cs;

	if (merge_clients(run, a, &m) < 0) {
		free(m.stat);
		free(m.hist);
		return NULL;
	}
	for (unsigned s = 0; s <= a->n_slots; s++)
		total += m.stat[s].ops;
	for (unsigned s = 0; s < a->n_slots; s++) {
		json_t *e = ccb_attr_osd_entry(osds, a->slot_osd[s]);

		ccb_attr_client_json(e, &m.stat[s], s < a->n_hist ? &m.hist[s] : NULL, total);
		json_object_set_new(e, "primary_pgs", json_integer(primary_pgs(a, a->slot_osd[s])));
	}
	cs = json_pack("{s:s, s:I, s:I, s:I, s:I}", "by", "primary", "ops", (json_int_t)total,
	               "unmapped_ops", (json_int_t)m.stat[a->n_slots].ops, "spanning_ops",
	               (json_int_t)m.spanning, "osds_with_histogram", (json_int_t)a->n_hist);
	if (a->n_hist < a->n_slots && m.hist[a->n_hist].count)
		json_object_set_new(cs, "shared_hist", ccb_hist_to_json(&m.hist[a->n_hist]));
	free(m.stat);
	free(m.hist);
	return cs;
}

/* The OSDs' side: counter deltas into @p osds, and who did not answer. */
static void osd_side(const struct ccb_attr *a, const struct ccb_osd_answer *after, json_t *osds,
                     json_t *silent)
{
	for (size_t i = 0; i < a->n_ask; i++) {
		const struct ccb_osd_answer *b = &a->perf0[i], *f = &after[i];
		struct ccb_osd_perf pb, pa;
		json_t *e = ccb_attr_osd_entry(osds, a->ask[i]);

		if (b->err || f->err || ccb_osd_perf_parse(b->reply, &pb) < 0 ||
		    ccb_osd_perf_parse(f->reply, &pa) < 0) {
			const struct ccb_osd_answer *bad = b->err ? b : f;
			char name[24];

			snprintf(name, sizeof(name), "osd.%d", a->ask[i]);
			json_array_append_new(
			    silent, json_pack("{s:s, s:s, s:s, s:f}", "osd", name, "when",
			                      b->err ? "before" : "after", "error",
			                      bad->err ? strerror(-bad->err) : "not a perf dump",
			                      "seconds", bad->seconds));
			json_object_set_new(e, "answered", json_false());
			continue;
		}
		json_object_set_new(e, "answered", json_true());
		json_object_set_new(e, "perf", ccb_osd_perf_delta(&pb, &pa));
	}
}

#define HISTORIC_SLOWEST "{\"prefix\": \"dump_historic_ops_by_duration\", \"format\": \"json\"}"

/* The run's slow ops from the OSDs that answered. */
static json_t *slow_ops(const struct ccb_run *run, const struct ccb_attr *a,
                        const struct ccb_osd_answer *after)
{
	int *live = calloc(a->n_ask ? a->n_ask : 1, sizeof(*live));
	struct ccb_osd_answer *hist = calloc(a->n_ask ? a->n_ask : 1, sizeof(*hist));
	uint64_t *gids = calloc(run->n_clients ? run->n_clients : 1, sizeof(*gids));
	struct ccb_ops_filter f = {.gids = gids};
	struct ccb_slow_op *ops = NULL;
	size_t n_live = 0, n = 0;
	json_t *j = NULL;

	if (!live || !hist || !gids)
		goto out;
	for (size_t i = 0; i < a->n_ask; i++)
		if (!after[i].err)
			live[n_live++] = a->ask[i];
	for (unsigned i = 0; i < run->n_clients; i++)
		if (run->clients[i].instance_id)
			gids[f.n_gids++] = run->clients[i].instance_id;
	f.prefix = a->target.prefix[0] ? a->target.prefix : NULL;
	/* Without the clients' ids or a name prefix, nothing tells this run's
	 * ops from anyone else's. */
	if (!f.n_gids && !f.prefix)
		goto out;
	/* An OSD keeps the osd_op_history_size (20) slowest ops of the last
	 * osd_op_history_duration (600 s), whichever list is asked for:
	 * a run's ops are there when they are among them. */
	ccb_osd_query(a->r, live, n_live, HISTORIC_SLOWEST, hist);
	for (size_t i = 0; i < n_live; i++)
		if (hist[i].reply)
			ccb_osd_ops_parse(hist[i].reply, live[i], &f, &ops, &n);
	ccb_osd_ops_last_replica(ops, n);
	j = ccb_osd_ops_json(ops, n, CCB_ATTR_SLOW_OPS_LISTED);
out:
	ccb_osd_answers_free(hist, n_live);
	free(hist);
	free(live);
	free(gids);
	free(ops);
	return j;
}

/* The PG map again, and what moved. */
static json_t *map_json(struct ccb_attr *a)
{
	char err[256];
	size_t moved = 0;
	size_t pgs = 0;
	json_t *j, *list = NULL;

	for (size_t i = 0; i < a->before.n_pools; i++)
		pgs += a->before.pools[i].pg_num;
	j = json_pack("{s:s, s:I, s:I}", "source", a->before.source, "pgs", (json_int_t)pgs,
	              "missing", (json_int_t)a->before.missing);
	if (ccb_pg_map_clone_pools(&a->before, &a->after) < 0 ||
	    ccb_pg_map_read(a->r, &a->after, err, sizeof(err)) < 0) {
		json_object_set_new(j, "after", json_pack("{s:s}", "error", err));
		return j;
	}
	list = ccb_pg_map_moved(&a->before, &a->after, CCB_ATTR_MOVED_LISTED, &moved);
	json_object_set_new(j, "moved", json_integer((json_int_t)moved));
	if (list)
		json_object_set_new(j, "moved_pgs", list);
	return j;
}

void ccb_attr_finish(struct ccb_run *run)
{
	struct ccb_attr *a = run->attr;
	struct ccb_osd_answer *after = NULL;
	json_t *res, *osds, *silent;
	uint64_t t0 = ccb_now_nsec();

	if (!a || !run->extra)
		return;
	res = json_object();
	osds = json_array();
	silent = json_array();
	json_object_set_new(res, "mode", json_string(a->per_op ? "per-op" : "osd-side"));
	if (!run->ops->op_object)
		json_array_append_new(
		    a->notes,
		    json_string("the client hides each op's object (the kernel's or libcephfs' "
		                "own I/O): the OSDs' own counters only, no figures by op"));
	if (a->per_op) {
		json_object_set_new(res, "client", client_side(run, a, osds));
		json_object_set_new(res, "pool",
		                    json_pack("{s:I, s:s, s:I, s:i, s:b}", "id",
		                              (json_int_t)a->pool->id, "name", a->pool->name,
		                              "pg_num", (json_int_t)a->pool->pg_num, "size",
		                              (int)a->pool->size, "erasure", a->pool->erasure));
	}
	/* Interrupted: the user wants out, not up to --connect-timeout more of
	 * queries (an OSD frozen by the fault being measured would take it). */
	if (atomic_load(&run->stop) == CCB_STOP_SIGNAL || ccb_signal_pending) {
		json_array_append_new(
		    a->notes, json_string("interrupted: the OSDs were not asked after the run"));
	} else if (a->r && a->n_ask && a->perf0 && (after = calloc(a->n_ask, sizeof(*after)))) {
		ccb_osd_query(a->r, a->ask, a->n_ask,
		              "{\"prefix\": \"perf dump\", \"format\": \"json\"}", after);
		osd_side(a, after, osds, silent);
		json_object_set_new(res, "slow_ops", slow_ops(run, a, after));
		for (size_t i = 0; i < a->n_ask; i++)
			if (after[i].err == -EACCES || after[i].err == -EPERM) {
				unavailable(a, "the OSDs' own counters and slow ops", after[i].err,
				            "osd 'allow *'", NULL);
				break;
			}
	}
	if (a->have_map && !after)
		json_object_set_new(res, "pg_map",
		                    json_pack("{s:s, s:I}", "source", a->before.source, "missing",
		                              (json_int_t)a->before.missing));
	else if (a->have_map)
		json_object_set_new(res, "pg_map", map_json(a));
	a->query_s[1] = (double)(ccb_now_nsec() - t0) / 1e9;
	ccb_attr_sort_osds(osds);
	json_object_set_new(res, "osds", osds);
	json_object_set_new(res, "not_answering", silent);
	json_object_set_new(res, "unavailable", json_incref(a->unavailable));
	json_object_set_new(res, "notes", json_incref(a->notes));
	json_object_set_new(res, "query_seconds",
	                    json_pack("{s:f, s:f, s:I}", "before", a->query_s[0], "after",
	                              a->query_s[1], "osds", (json_int_t)a->n_ask));
	json_object_set_new(run->extra, "attribution", res);
	ccb_osd_answers_free(after, after ? a->n_ask : 0);
	free(after);
}

void ccb_attr_free(struct ccb_run *run)
{
	struct ccb_attr *a = run->attr;

	for (unsigned i = 0; run->clients && i < run->n_clients; i++) {
		struct ccb_attr_client *c = run->clients[i].attr;

		/* A stranded client's thread has ended: only the library's
		 * threads may still touch its slots, never this array. */
		if (c) {
			free(c->stat);
			free(c->hist);
			free(c);
			run->clients[i].attr = NULL;
		}
	}
	if (!a)
		return;
	if (a->perf0)
		ccb_osd_answers_free(a->perf0, a->n_ask);
	free(a->perf0);
	if (a->r)
		rados_shutdown(a->r);
	ccb_pg_map_free(&a->before);
	ccb_pg_map_free(&a->after);
	free(a->pg_slot);
	free(a->slot_osd);
	free(a->ask);
	json_decref(a->unavailable);
	json_decref(a->notes);
	free(a);
	run->attr = NULL;
}
