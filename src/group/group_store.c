/*
 * The group object in RADOS (see group_store.h for its keys): consistent
 * readings of its omap, guarded write ops, and the members' result
 * objects, written and read in chunks the OSDs accept.
 */
#include <ccbench/clock.h>
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include "group_agg.h"
#include "group_store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define OMAP_PAGE    256
#define RESULT_CHUNK (8u << 20)
#define RESULT_MAX   (256u << 20)

/* The longest one group op may take: --op-timeout, set by ccb_group_connect
 * (one group connection per process, used by the main thread only). */
static uint64_t op_bound_nsec = 60000000000ull;
/* One bound for a whole command (group rm, group report): every op past it
 * is given up at once, so a command of many ops on a cluster that does not
 * answer ends at its bound, not at one --op-timeout per op. 0: none. */
static uint64_t command_deadline_nsec;
#define AIO_TICK_NSEC 10000000l

/*
 * Wait for an aio op at most op_bound_nsec, and give it up at once on a
 * signal that arrives meanwhile. rados_osd_op_timeout is set on the group's
 * connection, yet a member whose cluster had gone waited over 3 minutes in
 * rados_write_full (CI), and rados_aio_wait_for_complete has no timeout:
 * poll, then cancel (after rados_aio_cancel returns no reply handler runs,
 * so the caller's buffers are free again) and release.
 *
 * @return the op's value, -ETIMEDOUT, or -EINTR.
 */
/* Wait for @p c within the op bound; its object version into *@p ver
 * (when not NULL), which an aio op reports through its completion, not
 * through rados_get_last_version(). */
static int aio_bounded_ver(rados_ioctx_t io, rados_completion_t c, uint64_t *ver)
{
	uint64_t deadline = ccb_now_nsec() + op_bound_nsec;

	if (command_deadline_nsec && command_deadline_nsec < deadline)
		deadline = command_deadline_nsec;
	bool signalled = ccb_signal_pending != 0;
	/* From 50 us up to the tick: most ops answer within a millisecond, and
	 * a report reads two objects per member, so a fixed 10 ms tick made it
	 * 20 ms per member. */
	long wait_nsec = 50000;
	int r;

	while (!rados_aio_is_complete(c)) {
		struct timespec tick = {0, wait_nsec};
		bool late = ccb_now_nsec() >= deadline;

		/* A run stopped by a signal still stores its result; a signal
		 * during the wait ends it. */
		if (late || (!signalled && ccb_signal_pending)) {
			rados_aio_cancel(io, c);
			rados_aio_release(c);
			return late ? -ETIMEDOUT : -EINTR;
		}
		nanosleep(&tick, NULL);
		wait_nsec = wait_nsec * 2 < AIO_TICK_NSEC ? wait_nsec * 2 : AIO_TICK_NSEC;
	}
	r = rados_aio_get_return_value(c);
	if (ver)
		*ver = rados_aio_get_version(c);
	rados_aio_release(c);
	return r;
}

static int aio_bounded(rados_ioctx_t io, rados_completion_t c)
{
	return aio_bounded_ver(io, c, NULL);
}

int ccb_group_aio_wait(rados_ioctx_t io, rados_completion_t c)
{
	return aio_bounded(io, c);
}

bool ccb_group_gave_up(int r)
{
	return r == -ETIMEDOUT || r == -EINTR;
}

static int new_completion(rados_completion_t *c)
{
	return rados_aio_create_completion2(NULL, NULL, c);
}

void ccb_gstate_free(struct ccb_gstate *st)
{
	json_decref(st->raw);
	st->raw = NULL;
}

int ccb_gstate_read(rados_ioctx_t io, const char *oid, struct ccb_gstate *st)
{
	char *after = NULL;
	int r = 0;

	st->exists = false;
	st->raw = json_object();
	if (!st->raw)
		return -ENOMEM;
	/* Pages must come from one version of the object, else start over. */
	for (int attempt = 0; attempt < CCB_GROUP_MAX_ATTEMPTS; attempt++) {
		bool first = true, again = false;

		json_object_clear(st->raw);
		free(after);
		after = NULL;
		for (;;) {
			rados_read_op_t op = rados_create_read_op();
			rados_omap_iter_t it;
			unsigned char more = 0;
			int prval = 0;
			char *key, *val;
			size_t key_len, val_len;
			uint64_t ver = 0;
			rados_completion_t c;

			rados_read_op_omap_get_vals2(op, after ? after : "", "", OMAP_PAGE, &it,
			                             &more, &prval);
			r = new_completion(&c);
			if (r == 0) {
				r = rados_aio_read_op_operate(op, io, c, oid, 0);
				r = r < 0 ? (rados_aio_release(c), r)
				          : aio_bounded_ver(io, c, &ver);
			}
			if (r == 0)
				r = prval;
			while (r == 0 &&
			       rados_omap_get_next2(it, &key, &val, &key_len, &val_len) == 0 &&
			       key) {
				json_t *s = json_stringn(val, val_len);
				/* Values that are not text are not ours: leave them out. */
				if (s)
					json_object_set_new(st->raw, key, s);
				free(after);
				after = strndup(key, key_len);
				if (!after)
					r = -ENOMEM;
			}
			rados_omap_get_end(it);
			rados_release_read_op(op);
			if (r == -ENOENT) {
				free(after);
				json_object_clear(st->raw);
				return 0;
			}
			if (r < 0)
				goto out;
			if (!first && ver != st->version) {
				again = true;
				break;
			}
			st->exists = true;
			st->version = ver;
			first = false;
			if (!more)
				goto out;
		}
		if (!again)
			break;
	}
	r = -EAGAIN;
out:
	free(after);
	return r;
}

/* The parsed value of omap key @p key, or NULL. New reference. */
json_t *ccb_gstate_get(const struct ccb_gstate *st, const char *key)
{
	const char *s = json_string_value(json_object_get(st->raw, key));

	return s ? json_loads(s, 0, NULL) : NULL;
}

/* The registrations, parsed: {ID: record}. New reference. */
json_t *ccb_gstate_members(const struct ccb_gstate *st)
{
	json_t *m = json_object(), *v;
	const char *key;
	size_t pl = strlen(CCB_GROUP_MEMBER_PREFIX);

	json_object_foreach(st->raw, key, v)
	{
		json_t *rec;
		if (strncmp(key, CCB_GROUP_MEMBER_PREFIX, pl) != 0)
			continue;
		rec = json_loads(json_string_value(v), 0, NULL);
		if (json_is_object(rec))
			json_object_set_new(m, key + pl, rec);
		else
			json_decref(rec);
	}
	return m;
}

void ccb_gstate_op_set(rados_write_op_t op, const char *key, const char *val)
{
	size_t len = strlen(val);

	rados_write_op_omap_set(op, &key, &val, &len, 1);
}

/* Assert that omap key @p key holds exactly what @p st read ("" = absent). */
void ccb_gstate_op_cmp(rados_write_op_t op, const struct ccb_gstate *st, const char *key)
{
	const json_t *v = json_object_get(st->raw, key);

	rados_write_op_omap_cmp(op, key, LIBRADOS_CMPXATTR_OP_EQ, v ? json_string_value(v) : "",
	                        v ? json_string_length(v) : 0, NULL);
}

void ccb_group_set_deadline(uint64_t deadline_nsec)
{
	command_deadline_nsec = deadline_nsec;
}

static int write_op_flags(rados_ioctx_t io, const char *oid, rados_write_op_t op, int flags)
{
	rados_completion_t c;
	int r = new_completion(&c);

	if (r == 0) {
		/* The op is copied when submitted: it may be released before the reply. */
		r = rados_aio_write_op_operate(op, io, c, oid, NULL, flags);
		r = r < 0 ? (rados_aio_release(c), r) : aio_bounded(io, c);
	}
	rados_release_write_op(op);
	return r;
}

int ccb_gstate_write_op(rados_ioctx_t io, const char *oid, rados_write_op_t op)
{
	return write_op_flags(io, oid, op, 0);
}

/* FULL_TRY: a full pool (or one over its quota) answers a removal at once
 * instead of holding it, and removing is what gets the pool out of it. */
int ccb_gstate_remove_op(rados_ioctx_t io, const char *oid, rados_write_op_t op)
{
	return write_op_flags(io, oid, op, LIBRADOS_OPERATION_FULL_TRY);
}

static int stat_bounded(rados_ioctx_t io, const char *oid, uint64_t *size)
{
	rados_completion_t c;
	time_t mtime;
	int r = new_completion(&c);

	if (r < 0)
		return r;
	r = rados_aio_stat(io, oid, c, size, &mtime);
	return r < 0 ? (rados_aio_release(c), r) : aio_bounded(io, c);
}

static int read_bounded(rados_ioctx_t io, const char *oid, char *buf, size_t len, uint64_t off)
{
	rados_completion_t c;
	int r = new_completion(&c);

	if (r < 0)
		return r;
	r = rados_aio_read(io, oid, c, buf, len, off);
	return r < 0 ? (rados_aio_release(c), r) : aio_bounded(io, c);
}

/* The buffer is copied when the op is submitted. */
static int write_bounded(rados_ioctx_t io, const char *oid, const char *buf, size_t len,
                         uint64_t off)
{
	rados_completion_t c;
	int r = new_completion(&c);

	if (r < 0)
		return r;
	r = off == 0 ? rados_aio_write_full(io, oid, c, buf, len)
	             : rados_aio_write(io, oid, c, buf, len, off);
	return r < 0 ? (rados_aio_release(c), r) : aio_bounded(io, c);
}

/* Read a whole object (a stored result) into a NUL-terminated buffer. */
int ccb_group_read_object(rados_ioctx_t io, const char *oid, char **out, size_t *out_len)
{
	uint64_t size;
	char *buf;
	size_t got = 0;
	int r = stat_bounded(io, oid, &size);

	if (r < 0)
		return r;
	if (size > RESULT_MAX)
		return -EFBIG;
	buf = malloc(size + 1);
	if (!buf)
		return -ENOMEM;
	while (got < size) {
		size_t want = size - got < RESULT_CHUNK ? size - got : RESULT_CHUNK;
		r = read_bounded(io, oid, buf + got, want, got);
		if (r < 0) {
			free(buf);
			return r;
		}
		if (r == 0)
			break;
		got += (size_t)r;
	}
	buf[got] = '\0';
	*out = buf;
	*out_len = got;
	return 0;
}

int ccb_group_remove_object(rados_ioctx_t io, const char *oid)
{
	rados_write_op_t op = rados_create_write_op();

	rados_write_op_remove(op);
	return ccb_gstate_remove_op(io, oid, op);
}

/* Write a whole object in chunks the OSDs accept (osd_max_write_size). */
int ccb_group_write_object(rados_ioctx_t io, const char *oid, const char *buf, size_t len)
{
	size_t first = len < RESULT_CHUNK ? len : RESULT_CHUNK;
	int r = write_bounded(io, oid, buf, first, 0);

	for (size_t off = first; r == 0 && off < len; off += RESULT_CHUNK)
		r = write_bounded(io, oid, buf + off,
		                  len - off < RESULT_CHUNK ? len - off : RESULT_CHUNK, off);
	return r;
}

const char *ccb_group_pool(const struct ccb_opts *o)
{
	return o->group_pool ? o->group_pool : o->pool ? o->pool : "rbd";
}

int ccb_group_connect(const struct ccb_opts *o, rados_t *cluster, rados_ioctx_t *io,
                      bool *bad_input)
{
	char err[512];
	int r = ccb_cluster_connect(o, cluster, err, sizeof(err));

	*bad_input = false;
	if (r < 0) {
		fprintf(stderr, "ccbench: group: %s\n", err);
		*bad_input = r == -EINVAL;
		return r;
	}
	r = rados_ioctx_create(*cluster, ccb_group_pool(o), io);
	if (r < 0) {
		fprintf(stderr, "ccbench: group: --group-pool '%s': %s\n", ccb_group_pool(o),
		        r == -ENOENT ? "no such pool" : strerror(-r));
		*bad_input = r == -ENOENT;
		rados_shutdown(*cluster);
		return r;
	}
	rados_ioctx_set_namespace(*io, CCB_GROUP_NAMESPACE);
	op_bound_nsec = o->op_timeout_usec * 1000ull;
	return 0;
}

void ccb_group_heartbeat_oid(char *buf, size_t len, const char *group)
{
	snprintf(buf, len, "%s" CCB_GROUP_HEARTBEAT_SUFFIX, group);
}

/* Each beat is one key's own record: pages need not come from one version. */
int ccb_group_read_heartbeats(rados_ioctx_t io, const char *group, json_t *out)
{
	char oid[256], *after = NULL;
	int r = 0;

	ccb_group_heartbeat_oid(oid, sizeof(oid), group);
	for (size_t page = 0; page < 2 * CCB_GROUP_MAX_MEMBERS / OMAP_PAGE; page++) {
		rados_read_op_t op = rados_create_read_op();
		rados_omap_iter_t it;
		unsigned char more = 0;
		int prval = 0;
		char *key, *val;
		size_t key_len, val_len;
		rados_completion_t c;

		rados_read_op_omap_get_vals2(op, after ? after : "", "", OMAP_PAGE, &it, &more,
		                             &prval);
		r = new_completion(&c);
		if (r == 0) {
			r = rados_aio_read_op_operate(op, io, c, oid, 0);
			r = r < 0 ? (rados_aio_release(c), r) : aio_bounded(io, c);
		}
		if (r == 0)
			r = prval;
		while (r == 0 && rados_omap_get_next2(it, &key, &val, &key_len, &val_len) == 0 &&
		       key) {
			json_t *rec = val_len <= 4096 ? json_loadb(val, val_len, 0, NULL) : NULL;

			if (json_is_object(rec))
				json_object_set_new(out, key, rec);
			else
				json_decref(rec);
			free(after);
			after = strndup(key, key_len);
			if (!after)
				r = -ENOMEM;
		}
		rados_omap_get_end(it);
		rados_release_read_op(op);
		if (r < 0 || !more)
			break;
	}
	free(after);
	return r == -ENOENT ? 0 : r;
}

void ccb_group_result_oid(char *buf, size_t len, const char *group, const char *member)
{
	snprintf(buf, len, "%s" CCB_GROUP_RESULT_INFIX "%s", group, member);
}
