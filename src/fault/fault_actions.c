/*
 * The faults' actions and their undo. Each change is registered in the
 * undo log before it is made: a mon command's undo with a crash record
 * kept on the cluster too (ccb_undo_push_cluster), a command's undo with
 * a record in this host's state directory only (an argv read back from
 * the cluster's config-key store is never run: anyone with mon access
 * could have written it). An undo acts only where the cluster still holds
 * what ccbench set; what was never ccbench's (an OSD already out, a flag
 * already set) is left alone and never registered.
 *
 * Everything here runs on the watching thread while the clients run (the
 * one thread that touches the undo log then: the paths register theirs
 * before the clients start), and at the unwind or in `ccbench restore`.
 */
#include <ccbench/cluster.h>
#include <ccbench/engine.h>
#include <ccbench/restore.h>
#include <ccbench/spawn.h>
#include <ccbench/undo.h>
#include <ccbench/units.h>

#include "fault_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static json_t *osd_dump(rados_t cl, char *err, size_t len)
{
	json_t *d = NULL;

	ccb_fault_mon(cl, json_pack("{s:s, s:s}", "prefix", "osd dump", "format", "json"), &d, err,
	              len);
	return d;
}

/* Whether the map holds @p flag ("pause" is pauserd and pausewr). */
static bool map_flag(const json_t *dump, const char *flag)
{
	const char *flags = json_string_value(json_object_get(dump, "flags"));

	if (strcmp(flag, "pause") == 0)
		return ccb_cluster_has_flag(flags, "pauserd") &&
		       ccb_cluster_has_flag(flags, "pausewr");
	return ccb_cluster_has_flag(flags, flag);
}

static int osd_cmd(rados_t cl, const char *prefix, int osd, char *err, size_t len)
{
	char id[16];

	snprintf(id, sizeof(id), "%d", osd);
	return ccb_fault_mon(cl, json_pack("{s:s, s:[s]}", "prefix", prefix, "ids", id), NULL, err,
	                     len);
}

static int flag_cmd(rados_t cl, const char *prefix, const char *flag, char *err, size_t len)
{
	return ccb_fault_mon(cl, json_pack("{s:s, s:s}", "prefix", prefix, "key", flag), NULL, err,
	                     len);
}

/* The value set in the configuration database exactly at @p who / @p name
 * (NULL: none there): *@p out (new reference, a string or null). */
static int config_at(rados_t cl, const char *who, const char *name, json_t **out, char *err,
                     size_t len)
{
	json_t *dump = NULL, *e;
	size_t i;
	int r =
	    ccb_fault_mon(cl, json_pack("{s:s, s:s}", "prefix", "config dump", "format", "json"),
	                  &dump, err, len);

	*out = NULL;
	if (r < 0)
		return r;
	json_array_foreach(dump, i, e)
	{
		const char *sec = json_string_value(json_object_get(e, "section"));
		const char *nm = json_string_value(json_object_get(e, "name"));

		if (sec && nm && strcmp(sec, who) == 0 && strcmp(nm, name) == 0 &&
		    json_is_string(json_object_get(e, "value"))) {
			*out = json_incref(json_object_get(e, "value"));
			break;
		}
	}
	if (!*out)
		*out = json_null();
	json_decref(dump);
	return 0;
}

/* ---- putting back ------------------------------------------------------------------ */

/*
 * Undo what record @p rec says ccbench did, on @p cl, only where the
 * cluster still holds it; what was done or left goes into @p msg.
 * @return 0, or -errno of the mon (the record is then kept).
 */
static int put_back(rados_t cl, const json_t *rec, char *msg, size_t len)
{
	const char *undo = json_string_value(json_object_get(rec, "undo"));
	const char *flag = json_string_value(json_object_get(rec, "flag"));
	int osd = (int)json_integer_value(json_object_get(rec, "osd"));
	char err[512];
	json_t *dump = NULL;
	int r = 0;

	if (strcmp(undo, "config") == 0) {
		const char *who = json_string_value(json_object_get(rec, "who"));
		const char *name = json_string_value(json_object_get(rec, "name"));
		const char *set = json_string_value(json_object_get(rec, "value"));
		const json_t *before = json_object_get(rec, "before");
		json_t *now = NULL;

		r = config_at(cl, who, name, &now, err, sizeof(err));
		if (r < 0) {
			snprintf(msg, len, "%s/%s: %s; kept", who, name, err);
			return r;
		}
		if (!json_is_string(now) || strcmp(json_string_value(now), set) != 0) {
			snprintf(msg, len,
			         "%s/%s is %s%s%s, not the %s ccbench set: changed since, left",
			         who, name, json_is_string(now) ? "'" : "",
			         json_is_string(now) ? json_string_value(now) : "unset",
			         json_is_string(now) ? "'" : "", set);
		} else if (json_is_string(before)) {
			r = ccb_fault_mon(cl,
			                  json_pack("{s:s, s:s, s:s, s:s}", "prefix", "config set",
			                            "who", who, "name", name, "value",
			                            json_string_value(before)),
			                  NULL, err, sizeof(err));
			snprintf(msg, len, "%s/%s back to '%s'%s%s", who, name,
			         json_string_value(before), r < 0 ? ": " : "", r < 0 ? err : "");
		} else {
			r = ccb_fault_mon(cl,
			                  json_pack("{s:s, s:s, s:s}", "prefix", "config rm", "who",
			                            who, "name", name),
			                  NULL, err, sizeof(err));
			snprintf(msg, len, "%s/%s removed again (it was not set)%s%s", who, name,
			         r < 0 ? ": " : "", r < 0 ? err : "");
		}
		json_decref(now);
		return r;
	}
	dump = osd_dump(cl, err, sizeof(err));
	if (!dump) {
		snprintf(msg, len, "%s; kept", err);
		return -EIO;
	}
	if (strcmp(undo, "osd-in") == 0 || strcmp(undo, "osd-out") == 0) {
		const json_t *o = ccb_cluster_dump_osd(dump, osd);
		bool want_in = strcmp(undo, "osd-in") == 0;

		if (!o)
			snprintf(msg, len, "osd.%d is no longer in the map: nothing to put back",
			         osd);
		else if ((json_integer_value(json_object_get(o, "in")) != 0) == want_in)
			snprintf(msg, len, "osd.%d is %s already (changed since): left as it is",
			         osd, want_in ? "in" : "out");
		else if ((r = osd_cmd(cl, want_in ? "osd in" : "osd out", osd, err, sizeof(err))) <
		         0)
			snprintf(msg, len, "%s; kept", err);
		else
			snprintf(msg, len, "osd.%d marked %s again", osd, want_in ? "in" : "out");
	} else {
		bool want_set = strcmp(undo, "set") == 0;

		if (map_flag(dump, flag) == want_set)
			snprintf(msg, len, "flag %s is %s already (changed since): left as it is",
			         flag, want_set ? "set" : "unset");
		else if ((r = flag_cmd(cl, want_set ? "osd set" : "osd unset", flag, err,
		                       sizeof(err))) < 0)
			snprintf(msg, len, "%s; kept", err);
		else
			snprintf(msg, len, "flag %s %s again", flag, want_set ? "set" : "unset");
	}
	json_decref(dump);
	return r;
}

/* The words of @p argv joined, for messages. */
static void join_argv(char *const *argv, char *buf, size_t len)
{
	ccb_spawn_describe(argv, buf, len);
}

/* Run @p argv in @p dir to its end, bounded by CCB_FAULT_EXEC_TIMEOUT_S. */
static int run_command(char *const *argv, const char *dir, char *msg, size_t len)
{
	char what[1024];
	int st = 0, r;
	pid_t pid;

	join_argv(argv, what, sizeof(what));
	pid = ccb_spawn_at(argv, environ, dir, -1, STDERR_FILENO, STDERR_FILENO);
	if (pid < 0) {
		snprintf(msg, len, "`%s`: fork: %s; kept", what, strerror(-pid));
		return (int)pid;
	}
	r = ccb_spawn_reap(pid, CCB_FAULT_EXEC_TIMEOUT_S * 1000, &st);
	if (r == -ETIMEDOUT) {
		ccb_spawn_stop(pid, true, 2000, 2000, what, &st);
		snprintf(msg, len, "`%s` still ran after %d s: stopped; kept", what,
		         CCB_FAULT_EXEC_TIMEOUT_S);
		return -ETIMEDOUT;
	}
	if (r < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(msg, len, "`%s` %s %d; kept", what,
		         r == 0 && WIFSIGNALED(st) ? "was killed by signal" : "exited",
		         r < 0             ? r
		         : WIFSIGNALED(st) ? WTERMSIG(st)
		                           : WEXITSTATUS(st));
		return -EIO;
	}
	snprintf(msg, len, "ran `%s`", what);
	return 0;
}

/* The argv of an exec record, NULL-terminated into @p argv (pointing into @p rec). */
static void record_argv(const json_t *rec, char **argv)
{
	size_t i, n = 0;
	const json_t *w;

	json_array_foreach(json_object_get(rec, "argv"), i, w) if (n < CCB_FAULT_ARGV_MAX)
	    argv[n++] = (char *)json_string_value(w);
	argv[n] = NULL;
}

struct fault_undo {
	struct ccb_fault_point *fp;
	json_t *rec;
};

static int undo_entry(void *arg)
{
	struct fault_undo *u = arg;
	char msg[1200], *argv[CCB_FAULT_ARGV_MAX + 1];
	int r;

	if (strcmp(json_string_value(json_object_get(u->rec, "undo")), "exec") == 0) {
		record_argv(u->rec, argv);
		r = run_command(argv, json_string_value(json_object_get(u->rec, "dir")), msg,
		                sizeof(msg));
	} else {
		r = u->fp->connected ? put_back(u->fp->cl, u->rec, msg, sizeof(msg)) : -ENOTCONN;
		if (r == -ENOTCONN)
			snprintf(msg, sizeof(msg), "no connection; kept");
	}
	if (u->fp->undone)
		json_array_append_new(u->fp->undone,
		                      json_pack("{s:s, s:s, s:b, s:s}", "fault",
		                                json_string_value(json_object_get(u->rec, "fault")),
		                                "text", msg, "ok", r == 0, "when",
		                                u->fp->ended ? "unwind" : "run"));
	if (r < 0)
		fprintf(stderr, "ccbench: --fault: undo: %s\n", msg);
	return r;
}

static void free_undo(void *arg)
{
	struct fault_undo *u = arg;

	json_decref(u->rec);
	ccb_fault_unref(u->fp);
	free(u);
}

json_t *ccb_fault_undo_record(const struct ccb_opts *o, const char *fsid, const char *cwd,
                              const struct ccb_fault_schedule *s, size_t i, const json_t *before)
{
	const struct ccb_fault *f = &s->f[i];
	json_t *rec = json_pack("{s:s, s:s}", "kind", "fault", "fault", f->text), *argv;

	if (!rec)
		return NULL;
	switch (f->kind) {
	case CCB_FAULT_OSD_OUT:
	case CCB_FAULT_OSD_IN:
		json_object_set_new(
		    rec, "undo", json_string(f->kind == CCB_FAULT_OSD_OUT ? "osd-in" : "osd-out"));
		json_object_set_new(rec, "osd", json_integer(f->osd));
		break;
	case CCB_FAULT_SET:
	case CCB_FAULT_UNSET:
		json_object_set_new(rec, "undo",
		                    json_string(f->kind == CCB_FAULT_SET ? "unset" : "set"));
		json_object_set_new(rec, "flag", json_string(f->flag));
		break;
	case CCB_FAULT_CONFIG:
		json_object_set_new(rec, "undo", json_string("config"));
		json_object_set_new(rec, "who", json_string(f->who));
		json_object_set_new(rec, "name", json_string(f->name));
		json_object_set_new(rec, "value", json_string(f->value));
		json_object_set(rec, "before",
		                before && json_is_string(before) ? (json_t *)before : json_null());
		break;
	case CCB_FAULT_EXEC:
		if (f->pair < 0)
			goto fail;
		argv = json_array();
		for (int k = 0; s->f[f->pair].argv[k]; k++)
			json_array_append_new(argv, json_string(s->f[f->pair].argv[k]));
		json_object_set_new(rec, "undo", json_string("exec"));
		json_object_set_new(rec, "argv", argv);
		json_object_set_new(rec, "dir", json_string(cwd));
		/* Run from this host's state only: no cluster, no connection. */
		return rec;
	default:
		goto fail;
	}
	json_object_set_new(rec, "fsid", json_string(fsid));
	if (ccb_cluster_record_conn(o, rec) == 0)
		return rec;
fail:
	json_decref(rec);
	return NULL;
}

/*
 * Register the undo of fault @p i before it is made (its record from
 * ccb_fault_undo_record()). @return the handle, or -errno (nothing may be
 * changed then).
 */
static int register_undo(struct ccb_fault_point *fp, size_t i, const json_t *before,
                         const char *what, const char *hint)
{
	json_t *rec = ccb_fault_undo_record(fp->opts, fp->fsid, fp->cwd, &fp->sched, i, before);
	struct fault_undo *u = calloc(1, sizeof(*u));
	int h;

	if (!rec || !u || !(u->rec = json_deep_copy(rec))) {
		json_decref(rec);
		free(u);
		return -ENOMEM;
	}
	u->fp = fp;
	fp->refs++;
	if (fp->sched.f[i].kind == CCB_FAULT_EXEC)
		h = ccb_undo_push_state(what, undo_entry, u, free_undo, rec);
	else
		h = ccb_undo_push_cluster(what, undo_entry, u, free_undo, rec, fp->cl);
	if (h > 0 && hint)
		ccb_undo_set_hint(h, "%s", hint);
	return h;
}

/* ---- firing ------------------------------------------------------------------------ */

static void result(struct ccb_fault_point *fp, size_t i, double t, bool failed, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));

static void result(struct ccb_fault_point *fp, size_t i, double t, bool failed, const char *fmt,
                   ...)
{
	struct ccb_fault_state *st = &fp->st[i];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(st->result, sizeof(st->result), fmt, ap);
	va_end(ap);
	st->failed = failed;
	ccb_fault_event(fp, t, "fault", (int)i, "%s%s: %s", failed ? "FAILED " : "",
	                fp->sched.f[i].text, st->result);
	if (failed && !fp->opts->quiet)
		fprintf(stderr, "\nccbench: --fault '%s': %s\n", fp->sched.f[i].text, st->result);
}

/* Register fault @p i's undo before its change (its handle in st[i].undo);
 * when that cannot be done the fault fails, unchanged. @return true when
 * registered. */
static bool undo_first(struct ccb_fault_point *fp, size_t i, double t, const json_t *before,
                       const char *what, const char *hint)
{
	int h = register_undo(fp, i, before, what, hint);

	if (h < 0) {
		result(fp, i, t, true, "its undo could not be recorded (%s): not done",
		       strerror(-h));
		return false;
	}
	fp->st[i].undo = h;
	return true;
}

/* An earlier fault of the same target whose undo is still pending (an
 * osd-in after ccbench's osd-out: its undo is the osd-in). */
static int pending_twin(struct ccb_fault_point *fp, size_t i, enum ccb_fault_kind twin)
{
	const struct ccb_fault *f = &fp->sched.f[i];

	for (int j = (int)i - 1; j >= 0; j--) {
		const struct ccb_fault *g = &fp->sched.f[j];

		if (g->kind == twin && fp->st[j].undo > 0 &&
		    (twin == CCB_FAULT_OSD_OUT || twin == CCB_FAULT_OSD_IN
		         ? g->osd == f->osd
		         : strcmp(g->flag, f->flag) == 0))
			return j;
	}
	return -1;
}

static void fire_osd(struct ccb_fault_point *fp, size_t i, double t)
{
	const struct ccb_fault *f = &fp->sched.f[i];
	bool out = f->kind == CCB_FAULT_OSD_OUT;
	char err[512], what[160], hint[64];
	const json_t *o;
	json_t *dump;
	int j, r;

	if (f->kind == CCB_FAULT_OSD_DOWN) {
		r = osd_cmd(fp->cl, "osd down", f->osd, err, sizeof(err));
		if (r < 0)
			result(fp, i, t, true, "%s", err);
		else
			result(fp, i, t, false, "osd.%d marked down (a live OSD contests it)",
			       f->osd);
		return;
	}
	j = pending_twin(fp, i, out ? CCB_FAULT_OSD_IN : CCB_FAULT_OSD_OUT);
	if (j >= 0) {
		r = ccb_undo_run(fp->st[j].undo);
		fp->st[j].undo = 0;
		result(fp, i, t, r < 0, "osd.%d marked %s: the undo of '%s'%s", f->osd,
		       out ? "out" : "in", fp->sched.f[j].text, r < 0 ? " failed (see above)" : "");
		return;
	}
	dump = osd_dump(fp->cl, err, sizeof(err));
	o = dump ? ccb_cluster_dump_osd(dump, f->osd) : NULL;
	if (!o) {
		result(fp, i, t, true, "%s", dump ? "no such OSD in the map" : err);
	} else if ((json_integer_value(json_object_get(o, "in")) == 0) == out) {
		result(fp, i, t, false, "osd.%d was %s already: nothing changed", f->osd,
		       out ? "out" : "in");
	} else {
		snprintf(what, sizeof(what), "mark osd.%d %s again (--fault %s)", f->osd,
		         out ? "in" : "out", f->text);
		snprintf(hint, sizeof(hint), "ceph osd %s %d", out ? "in" : "out", f->osd);
		if (undo_first(fp, i, t, NULL, what, hint)) {
			r = osd_cmd(fp->cl, out ? "osd out" : "osd in", f->osd, err, sizeof(err));
			if (r < 0)
				result(fp, i, t, true, "%s", err);
			else
				result(fp, i, t, false, "osd.%d marked %s", f->osd,
				       out ? "out" : "in");
		}
	}
	json_decref(dump);
}

static void fire_flag(struct ccb_fault_point *fp, size_t i, double t)
{
	const struct ccb_fault *f = &fp->sched.f[i];
	bool set = f->kind == CCB_FAULT_SET;
	char err[512], what[160], hint[64];
	json_t *dump;
	int j, r;

	j = pending_twin(fp, i, set ? CCB_FAULT_UNSET : CCB_FAULT_SET);
	if (j >= 0) {
		r = ccb_undo_run(fp->st[j].undo);
		fp->st[j].undo = 0;
		result(fp, i, t, r < 0, "flag %s %s: the undo of '%s'%s", f->flag,
		       set ? "set" : "unset", fp->sched.f[j].text,
		       r < 0 ? " failed (see above)" : "");
		return;
	}
	dump = osd_dump(fp->cl, err, sizeof(err));
	if (!dump) {
		result(fp, i, t, true, "%s", err);
		return;
	}
	if (map_flag(dump, f->flag) == set) {
		result(fp, i, t, false, "flag %s was %s already: nothing changed", f->flag,
		       set ? "set" : "unset");
		json_decref(dump);
		return;
	}
	json_decref(dump);
	snprintf(what, sizeof(what), "%s the flag %s again (--fault %s)", set ? "unset" : "set",
	         f->flag, f->text);
	snprintf(hint, sizeof(hint), "ceph osd %s %s", set ? "unset" : "set", f->flag);
	if (!undo_first(fp, i, t, NULL, what, hint))
		return;
	r = flag_cmd(fp->cl, set ? "osd set" : "osd unset", f->flag, err, sizeof(err));
	if (r < 0)
		result(fp, i, t, true, "%s", err);
	else
		result(fp, i, t, false, "flag %s %s", f->flag, set ? "set" : "unset");
}

static void fire_config(struct ccb_fault_point *fp, size_t i, double t)
{
	const struct ccb_fault *f = &fp->sched.f[i];
	char err[512], what[512];
	json_t *before = NULL;
	int r;

	r = config_at(fp->cl, f->who, f->name, &before, err, sizeof(err));
	if (r < 0) {
		result(fp, i, t, true, "%s", err);
		return;
	}
	if (json_is_string(before) && strcmp(json_string_value(before), f->value) == 0) {
		result(fp, i, t, false, "%s/%s was %s already: nothing changed", f->who, f->name,
		       f->value);
		json_decref(before);
		return;
	}
	snprintf(what, sizeof(what), "put %s/%s back (--fault %s)", f->who, f->name, f->text);
	r = undo_first(fp, i, t, before, what, NULL) ? 0 : -1;
	json_decref(before);
	if (r < 0)
		return;
	r = ccb_fault_mon(fp->cl,
	                  json_pack("{s:s, s:s, s:s, s:s}", "prefix", "config set", "who", f->who,
	                            "name", f->name, "value", f->value),
	                  NULL, err, sizeof(err));
	if (r < 0)
		result(fp, i, t, true, "%s", err);
	else
		result(fp, i, t, false, "%s/%s set to %s", f->who, f->name, f->value);
}

static void start_command(struct ccb_fault_point *fp, size_t i, double t, char *const *argv)
{
	char what[1024];
	pid_t pid;

	join_argv(argv, what, sizeof(what));
	pid = ccb_spawn_at(argv, environ, fp->cwd, -1, STDERR_FILENO, STDERR_FILENO);
	if (pid < 0) {
		result(fp, i, t, true, "`%s`: fork: %s", what, strerror(-pid));
		return;
	}
	fp->st[i].pid = pid;
	fp->st[i].pid_start_nsec = (uint64_t)(t * 1e9);
	result(fp, i, t, false, "started `%s` (pid %d)", what, (int)pid);
}

static void fire_exec(struct ccb_fault_point *fp, size_t i, double t)
{
	const struct ccb_fault *f = &fp->sched.f[i];
	char what[1200], hint[1100];

	if (f->kind == CCB_FAULT_UNDO) {
		if (fp->st[f->pair].undo <= 0) {
			result(fp, i, t, false, "nothing to undo ('%s' did not run)",
			       fp->sched.f[f->pair].text);
			return;
		}
		start_command(fp, i, t, f->argv);
		return;
	}
	if (f->pair >= 0) {
		join_argv(fp->sched.f[f->pair].argv, hint, sizeof(hint));
		snprintf(what, sizeof(what), "run `%.1000s` (the undo: of --fault %.100s)", hint,
		         f->text);
		if (!undo_first(fp, i, t, NULL, what, hint))
			return;
	}
	start_command(fp, i, t, f->argv);
}

void ccb_fault_fire(struct ccb_fault_point *fp, size_t i, double t_s)
{
	const struct ccb_fault *f = &fp->sched.f[i];

	fp->st[i].fired = true;
	fp->st[i].fired_s = t_s;
	switch (f->kind) {
	case CCB_FAULT_OSD_DOWN:
	case CCB_FAULT_OSD_OUT:
	case CCB_FAULT_OSD_IN:
		fire_osd(fp, i, t_s);
		break;
	case CCB_FAULT_SET:
	case CCB_FAULT_UNSET:
		fire_flag(fp, i, t_s);
		break;
	case CCB_FAULT_CONFIG:
		fire_config(fp, i, t_s);
		break;
	case CCB_FAULT_EXEC:
	case CCB_FAULT_UNDO:
		fire_exec(fp, i, t_s);
		break;
	case CCB_FAULT_END:
		result(fp, i, t_s, false, "the run ends here");
		ccb_run_stop(fp->run, CCB_STOP_DONE, 0, "--fault %s: the schedule ended the run",
		             f->text);
		break;
	}
}

bool ccb_fault_running(const struct ccb_fault_point *fp)
{
	for (size_t i = 0; i < fp->sched.n; i++)
		if (fp->st[i].pid > 0 && !fp->st[i].exited)
			return true;
	return false;
}

void ccb_fault_reap(struct ccb_fault_point *fp, double t_s, bool all)
{
	for (size_t i = 0; i < fp->sched.n; i++) {
		struct ccb_fault_state *st = &fp->st[i];
		const struct ccb_fault *f = &fp->sched.f[i];
		char what[1024];
		int status = 0, r;

		if (st->pid <= 0 || st->exited)
			continue;
		join_argv(f->argv, what, sizeof(what));
		r = ccb_spawn_reap(st->pid, 0, &status);
		if (r == -ETIMEDOUT && (all || t_s - st->fired_s > CCB_FAULT_EXEC_TIMEOUT_S)) {
			r = ccb_spawn_stop(st->pid, true, 2000, 2000, what, &status);
			ccb_fault_event(fp, t_s, "exec", (int)i, "`%s` stopped %s", what,
			                all ? "as the run ended" : "after its bound (60 s)");
			st->exited = true;
			st->failed = true;
			continue;
		}
		if (r == -ETIMEDOUT)
			continue;
		st->exited = true;
		st->status = status;
		if (r < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
			st->failed = true;
			ccb_fault_event(fp, t_s, "exec", (int)i, "`%s` %s %d", what,
			                r == 0 && WIFSIGNALED(status) ? "was killed by signal"
			                                              : "exited",
			                r < 0                 ? r
			                : WIFSIGNALED(status) ? WTERMSIG(status)
			                                      : WEXITSTATUS(status));
			continue;
		}
		ccb_fault_event(fp, t_s, "exec", (int)i, "`%s` exited 0 after %.1f s", what,
		                t_s - st->fired_s);
		/* An undo: that did its work: the unwind does not run it again. */
		if (f->kind == CCB_FAULT_UNDO && fp->st[f->pair].undo > 0) {
			ccb_undo_drop(fp->st[f->pair].undo);
			fp->st[f->pair].undo = 0;
		}
	}
}

/* ---- records and restore ------------------------------------------------------------ */

static bool short_string(const json_t *v, size_t max)
{
	const char *s = json_string_value(v);

	return s && *s && strlen(s) <= max && ccb_is_printable(s);
}

static int bad_record(char *why, size_t len, const char *what)
{
	snprintf(why, len, "invalid record (fault): %s; nothing touched", what);
	return -EINVAL;
}

int ccb_fault_check_record(const json_t *rec, char *why, size_t why_len)
{
	static const char *const undos[] = {"osd-in", "osd-out", "set", "unset", "config", "exec"};
	const char *kind = json_string_value(json_object_get(rec, "kind"));
	const char *undo = json_string_value(json_object_get(rec, "undo"));
	const json_t *w, *osd = json_object_get(rec, "osd");
	const char *what;
	bool known = false;
	size_t i;

	if (!json_is_object(rec) || !kind || strcmp(kind, "fault") != 0)
		return bad_record(why, why_len, "kind is not fault");
	for (i = 0; undo && i < sizeof(undos) / sizeof(undos[0]); i++)
		known |= strcmp(undo, undos[i]) == 0;
	if (!known)
		return bad_record(why, why_len, "undo is not one ccbench writes");
	if (strcmp(undo, "exec") == 0) {
		const json_t *argv = json_object_get(rec, "argv");
		const char *dir = json_string_value(json_object_get(rec, "dir"));

		if (!json_is_array(argv) || !json_array_size(argv) ||
		    json_array_size(argv) > CCB_FAULT_ARGV_MAX)
			return bad_record(why, why_len, "argv is not a command");
		json_array_foreach(argv, i, w)
		{
			/* An empty word is a word (an empty argument); the program is not. */
			bool empty_ok = i > 0 && json_is_string(w) && !*json_string_value(w);

			if (!empty_ok && !short_string(w, CCB_FAULT_TEXT_MAX - 1))
				return bad_record(why, why_len, "argv holds other than text");
		}
		if (!dir || dir[0] != '/' || strlen(dir) >= 4096 || !ccb_is_printable(dir))
			return bad_record(why, why_len, "dir is not an absolute path");
		return 0;
	}
	if (!ccb_is_fsid(json_string_value(json_object_get(rec, "fsid"))))
		return bad_record(why, why_len, "fsid is not a cluster fsid");
	if (strncmp(undo, "osd-", 4) == 0 &&
	    (!json_is_integer(osd) || json_integer_value(osd) < 0 ||
	     json_integer_value(osd) > 65535))
		return bad_record(why, why_len, "osd is not an OSD id");
	if ((strcmp(undo, "set") == 0 || strcmp(undo, "unset") == 0) &&
	    !ccb_fault_known_flag(json_string_value(json_object_get(rec, "flag"))))
		return bad_record(why, why_len, "flag is not one ccbench sets");
	if (strcmp(undo, "config") == 0) {
		const json_t *before = json_object_get(rec, "before");

		if (!short_string(json_object_get(rec, "who"), 63) ||
		    !short_string(json_object_get(rec, "name"), 127) ||
		    !short_string(json_object_get(rec, "value"), 255) ||
		    !(json_is_null(before) || short_string(before, 255) ||
		      (json_is_string(before) && !*json_string_value(before))))
			return bad_record(why, why_len, "who, name, value or before is not text");
	}
	if (!ccb_cluster_record_conn_valid(rec, &what))
		return bad_record(why, why_len, what);
	return 0;
}

int ccb_fault_restore(const json_t *rec, const struct ccb_opts *given, char *msg, size_t msg_len)
{
	const char *undo = json_string_value(json_object_get(rec, "undo"));
	const char *fsid = json_string_value(json_object_get(rec, "fsid"));
	char what[1200], *argv[CCB_FAULT_ARGV_MAX + 1];
	rados_t cl;
	int r;

	if (ccb_fault_check_record(rec, msg, msg_len) < 0)
		return -EINVAL;
	if (strcmp(undo, "exec") == 0) {
		record_argv(rec, argv);
		r = run_command(argv, json_string_value(json_object_get(rec, "dir")), what,
		                sizeof(what));
		snprintf(msg, msg_len, "--fault undo: %s", what);
		return r;
	}
	snprintf(what, sizeof(what), "a fault's change to cluster %s", fsid);
	r = ccb_cluster_connect_record(rec, given, "10", what, &cl, msg, msg_len);
	if (r < 0)
		return r;
	r = put_back(cl, rec, what, sizeof(what));
	rados_shutdown(cl);
	snprintf(msg, msg_len, "--fault on cluster %s: %s", fsid, what);
	return r;
}

/* A fault's undo on the cluster: never "argv" nor "dir", so a command to
 * run is never taken from the cluster (only from this host's state). */
static const char *const fault_fields[] = {
    "kind",   "undo",  "fsid",   "osd",  "flag",    "who",  "name",        "value",
    "before", "fault", "entity", "conf", "keyring", "what", "cluster_key", NULL};

const struct ccb_undo_kind ccb_fault_undo_kinds[] = {
    {.name = "fault", .undo = ccb_fault_restore, .cluster_fields = fault_fields},
    {0},
};
