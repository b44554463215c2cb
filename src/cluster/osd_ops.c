/*
 * A run's slowest ops from the OSDs' historic ops, reduced to stages
 * (osd_ops.h). Every field comes from another process: descriptions and
 * event names are read with bounds, times must parse, and an op that does
 * not is skipped rather than guessed at.
 */
#include <ccbench/osd_ops.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_EVENTS 64

static const char *const stage_names[CCB_STAGE_N] = {
    [CCB_STAGE_RECEIVED] = "received", [CCB_STAGE_QUEUED] = "queued", [CCB_STAGE_IN_PG] = "in_pg",
    [CCB_STAGE_REPLICAS] = "replicas", [CCB_STAGE_COMMIT] = "commit", [CCB_STAGE_REPLY] = "reply",
};

const char *ccb_op_stage_name(unsigned s)
{
	return s < CCB_STAGE_N ? stage_names[s] : NULL;
}

/* "2026-12-06T05:25:09.478473+0000" (or "Z", or no zone) into seconds since the epoch. */
static bool parse_time(const char *s, double *out)
{
	struct tm tm = {0};
	int n = 0, zh = 0, zm = 0;
	char sign = 0;
	double frac = 0;
	time_t t;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
	                 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &n) != 6)
		return false;
	s += n;
	if (*s == '.') {
		double scale = 0.1;
		for (s++; *s >= '0' && *s <= '9'; s++, scale /= 10)
			frac += (*s - '0') * scale;
	}
	if (*s == '+' || *s == '-') {
		sign = *s;
		if (sscanf(s + 1, "%2d%2d", &zh, &zm) != 2)
			return false;
	}
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	t = timegm(&tm);
	if (t == (time_t)-1)
		return false;
	*out = (double)t + frac - (sign == '-' ? -1 : 1) * (zh * 3600 + zm * 60);
	return true;
}

/* Stage of the gap that event @p ev ends. */
static enum ccb_op_stage stage_of(const char *ev, bool repop, bool after_commit_sent,
                                  bool reached_pg)
{
	static const char *const received[] = {"throttled", "header_read", "all_read", "dispatched",
	                                       "queued_for_pg"};
	static const char *const commit[] = {"op_commit",
	                                     "op_applied",
	                                     "commit_queued_for_journal_write",
	                                     "write_thread_in_journal_buffer",
	                                     "journaled_completion_queued",
	                                     "sub_op_committed",
	                                     "sub_op_applied"};

	for (size_t i = 0; i < sizeof(received) / sizeof(received[0]); i++)
		if (strcmp(ev, received[i]) == 0)
			return CCB_STAGE_RECEIVED;
	if (strcmp(ev, "reached_pg") == 0)
		return CCB_STAGE_QUEUED;
	for (size_t i = 0; i < sizeof(commit) / sizeof(commit[0]); i++)
		if (strcmp(ev, commit[i]) == 0)
			return CCB_STAGE_COMMIT;
	if (strncmp(ev, "sub_op_commit_rec", 17) == 0 || strncmp(ev, "sub_op_applied_rec", 18) == 0)
		return CCB_STAGE_REPLICAS;
	/* A replica's commit_sent ends its own commit; a primary's, the reply. */
	if (strcmp(ev, "commit_sent") == 0)
		return repop ? CCB_STAGE_COMMIT : CCB_STAGE_REPLY;
	if (strcmp(ev, "done") == 0)
		return after_commit_sent ? CCB_STAGE_REPLY : CCB_STAGE_IN_PG;
	/* Anything else (started, waiting for ..., op must wait for map): in
	 * the PG once it reached it, before that still on its way in. */
	return reached_pg ? CCB_STAGE_IN_PG : CCB_STAGE_RECEIVED;
}

/* "waiting for subops from 1,2": the OSDs in @p op->waited_for. */
static void parse_waited(const char *ev, struct ccb_slow_op *op)
{
	const char *p = ev + strlen("waiting for subops from");

	op->n_waited = 0;
	while (*p && op->n_waited < CCB_SLOW_OP_REPLICAS) {
		char *end;
		long v;

		while (*p == ' ' || *p == ',')
			p++;
		v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > 1000000)
			break;
		op->waited_for[op->n_waited++] = (int)v;
		p = end;
	}
}

struct event {
	const char *name;
	double t;
};

static int by_time(const void *a, const void *b)
{
	const struct event *x = a, *y = b;
	return x->t < y->t ? -1 : x->t > y->t;
}

/* The events of @p op_j into @p op's stages; false if they do not parse. */
static bool reduce_events(const json_t *events, struct ccb_slow_op *op)
{
	struct event ev[MAX_EVENTS];
	size_t n = 0, i;
	const json_t *e;
	bool after_cs = false, reached = false;
	int last_from = -1;

	json_array_foreach(events, i, e)
	{
		if (n == MAX_EVENTS)
			break;
		ev[n].name = json_string_value(json_object_get(e, "event"));
		if (!ev[n].name ||
		    !parse_time(json_string_value(json_object_get(e, "time")), &ev[n].t))
			return false;
		n++;
	}
	if (n < 2)
		return false;
	/* Stable enough: equal times keep their order in practice, and a gap
	 * of zero counts nowhere. header_read may be stamped before initiated. */
	qsort(ev, n, sizeof(ev[0]), by_time);
	op->initiated_s = ev[0].t;
	op->end_s = ev[n - 1].t;
	for (i = 1; i < n; i++) {
		const char *name = ev[i].name;
		enum ccb_op_stage s = stage_of(name, op->repop, after_cs, reached);

		op->stage_s[s] += ev[i].t - ev[i - 1].t;
		if (strcmp(name, "reached_pg") == 0)
			reached = true;
		if (strcmp(name, "commit_sent") == 0) {
			after_cs = true;
			op->commit_sent_s = ev[i].t;
			op->write = true;
		}
		if (s == CCB_STAGE_COMMIT)
			op->write = true;
		if (strncmp(name, "waiting for subops from", 23) == 0)
			parse_waited(name, op);
		if (strncmp(name, "sub_op_commit_rec from ", 23) == 0) {
			const char *f = name + 23;
			char *end;
			long v;

			if (strncmp(f, "osd.", 4) == 0)
				f += 4;
			v = strtol(f, &end, 10);
			if (end != f && v >= 0 && v <= 1000000)
				last_from = (int)v;
		}
	}
	op->last_replica = last_from;
	op->last_how = last_from >= 0 ? CCB_LAST_EVENT : CCB_LAST_UNKNOWN;
	return true;
}

/* "osd_op(client.4412.0:1 2.1 2:9fd5bd03:::rec0:head [...] ...)": kind,
 * reqid, gid, pgid and object; false when it is not an op of a client. */
static bool parse_description(const char *d, struct ccb_slow_op *op, uint64_t *gid)
{
	const char *p, *obj, *end;
	char *e;
	size_t len;
	int colons = 0;

	if (strncmp(d, "osd_op(", 7) == 0)
		p = d + 7;
	else if (strncmp(d, "osd_repop(", 10) == 0)
		p = d + 10, op->repop = true;
	else
		return false;
	if (strncmp(p, "client.", 7) != 0)
		return false;
	*gid = strtoull(p + 7, &e, 10);
	if (e == p + 7 || *e != '.')
		return false;
	len = strcspn(p, " ");
	if (len >= sizeof(op->reqid) || !p[len])
		return false;
	memcpy(op->reqid, p, len);
	op->reqid[len] = '\0';
	p += len + 1;
	len = strcspn(p, " ");
	if (len >= sizeof(op->pgid) || !p[len])
		return false;
	memcpy(op->pgid, p, len);
	op->pgid[len] = '\0';
	p += len + 1;
	/* POOL:HASH:NAMESPACE:KEY:NAME:SNAP, the name its fifth field: the
	 * first such word (a repop has its epochs "e58/57" before it). */
	for (;;) {
		len = strcspn(p, " )");
		colons = 0;
		for (obj = p; obj < p + len && colons < 4; obj++)
			colons += *obj == ':';
		if (colons == 4)
			break;
		if (!p[len] || p[len] == ')')
			return false;
		p += len + 1;
	}
	end = strchr(obj, ':');
	if (!end || (size_t)(end - obj) >= sizeof(op->object))
		return false;
	memcpy(op->object, obj, (size_t)(end - obj));
	op->object[end - obj] = '\0';
	return true;
}

static bool wanted(const struct ccb_ops_filter *f, uint64_t gid, const char *object)
{
	bool gid_ok = f->n_gids == 0;

	for (size_t i = 0; i < f->n_gids && !gid_ok; i++)
		gid_ok = f->gids[i] == gid;
	return gid_ok && (!f->prefix || strncmp(object, f->prefix, strlen(f->prefix)) == 0);
}

/* The same op from another of the OSD's lists (slowest, most recent). */
static bool listed(const struct ccb_slow_op *ops, size_t n, const struct ccb_slow_op *op)
{
	for (size_t i = 0; i < n; i++)
		if (ops[i].osd == op->osd && ops[i].repop == op->repop &&
		    strcmp(ops[i].reqid, op->reqid) == 0)
			return true;
	return false;
}

int ccb_osd_ops_parse(const json_t *dump, int osd, const struct ccb_ops_filter *f,
                      struct ccb_slow_op **ops, size_t *n)
{
	const json_t *list = json_object_get(dump, "ops"), *o;
	size_t i;
	int added = 0;

	/* Older replies call the list "Ops". */
	if (!json_is_array(list))
		list = json_object_get(dump, "Ops");
	json_array_foreach(list, i, o)
	{
		struct ccb_slow_op op = {.osd = osd, .last_replica = -1};
		const char *d = json_string_value(json_object_get(o, "description"));
		uint64_t gid = 0;
		struct ccb_slow_op *grown;

		if (!d || !parse_description(d, &op, &gid) || !wanted(f, gid, op.object) ||
		    !reduce_events(json_object_get(json_object_get(o, "type_data"), "events"),
		                   &op) ||
		    listed(*ops, *n, &op))
			continue;
		grown = realloc(*ops, (*n + 1) * sizeof(**ops));
		if (!grown)
			return -ENOMEM;
		*ops = grown;
		(*ops)[(*n)++] = op;
		added++;
	}
	return added;
}

void ccb_osd_ops_last_replica(struct ccb_slow_op *ops, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct ccb_slow_op *op = &ops[i];
		double best = -1;

		if (op->repop || !op->n_waited || op->last_how != CCB_LAST_UNKNOWN)
			continue;
		for (size_t j = 0; j < n; j++) {
			const struct ccb_slow_op *r = &ops[j];
			bool waited = false;

			if (!r->repop || !r->commit_sent_s || strcmp(r->reqid, op->reqid) != 0)
				continue;
			for (unsigned k = 0; k < op->n_waited; k++)
				waited |= op->waited_for[k] == r->osd;
			if (waited && r->commit_sent_s > best) {
				best = r->commit_sent_s;
				op->last_replica = r->osd;
				op->last_how = CCB_LAST_REPLICA;
			}
		}
		if (op->last_how == CCB_LAST_UNKNOWN && op->n_waited == 1) {
			op->last_replica = op->waited_for[0];
			op->last_how = CCB_LAST_ONLY;
		}
	}
}

static double duration(const struct ccb_slow_op *op)
{
	return op->end_s - op->initiated_s;
}

static int slowest_first(const void *a, const void *b)
{
	double x = duration(*(const struct ccb_slow_op *const *)a);
	double y = duration(*(const struct ccb_slow_op *const *)b);

	return x > y ? -1 : x < y;
}

static json_t *stages_json(const double *s)
{
	json_t *j = json_object();

	for (unsigned k = 0; k < CCB_STAGE_N; k++)
		json_object_set_new(j, stage_names[k], json_real(s[k] * 1e6));
	return j;
}

static json_t *op_json(const struct ccb_slow_op *op)
{
	static const char *const how[] = {"unknown", "event", "replica", "only"};
	json_t *w = json_array();

	for (unsigned k = 0; k < op->n_waited; k++)
		json_array_append_new(w, json_integer(op->waited_for[k]));
	return json_pack("{s:i, s:s, s:s, s:s, s:s, s:f, s:o, s:o, s:o, s:s}", "osd", op->osd,
	                 "kind", op->repop ? "repop" : "op", "reqid", op->reqid, "object",
	                 op->object, "pgid", op->pgid, "duration_us", duration(op) * 1e6,
	                 "stages_us", stages_json(op->stage_s), "waited_for", w, "last_replica",
	                 op->last_replica >= 0 ? json_integer(op->last_replica) : json_null(),
	                 "last_replica_how", how[op->last_how]);
}

json_t *ccb_osd_ops_json(const struct ccb_slow_op *ops, size_t n, size_t max_listed)
{
	double sum[CCB_STAGE_N] = {0}, total = 0;
	const struct ccb_slow_op **order = calloc(n ? n : 1, sizeof(*order));
	json_t *j, *list, *last = json_object(), *share = json_object();
	size_t primaries = 0, waited = 0;

	if (!order) {
		json_decref(last);
		json_decref(share);
		return NULL;
	}
	for (size_t i = 0; i < n; i++) {
		order[i] = &ops[i];
		if (ops[i].repop)
			continue;
		primaries++;
		total += duration(&ops[i]);
		for (unsigned k = 0; k < CCB_STAGE_N; k++)
			sum[k] += ops[i].stage_s[k];
		if (ops[i].n_waited)
			waited++;
		if (ops[i].last_replica >= 0) {
			char name[24];
			snprintf(name, sizeof(name), "osd.%d", ops[i].last_replica);
			json_object_set_new(
			    last, name,
			    json_integer(json_integer_value(json_object_get(last, name)) + 1));
		}
	}
	for (unsigned k = 0; k < CCB_STAGE_N; k++)
		json_object_set_new(share, stage_names[k],
		                    json_real(total > 0 ? sum[k] / total : 0));
	qsort(order, n, sizeof(*order), slowest_first);
	list = json_array();
	for (size_t i = 0; i < n && i < max_listed; i++)
		json_array_append_new(list, op_json(order[i]));
	free(order);
	j = json_pack("{s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "found", (json_int_t)n, "primary_ops",
	              (json_int_t)primaries, "waited_on_replicas", (json_int_t)waited, "stages_us",
	              stages_json(sum), "stage_share", share, "last_replica", last, "ops", list);
	if (j)
		json_object_set_new(j, "seconds", json_real(total));
	return j;
}
