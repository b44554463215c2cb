/*
 * What every file of src/fault/ uses: the events of the timeline, a mon
 * command, and the reference count of a point's schedule (its undo
 * entries hold one each, so its connection outlives the unwind).
 */
#include "fault_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Events a run keeps at most. */
#define MAX_EVENTS 10000

int ccb_fault_mon(rados_t cl, json_t *cmd, json_t **out, char *err, size_t err_len)
{
	char *text = json_dumps(cmd, JSON_COMPACT), *ob = NULL, *st = NULL;
	const char *cmds[] = {text};
	const char *prefix = json_string_value(json_object_get(cmd, "prefix"));
	size_t ob_len = 0, st_len = 0;
	int r;

	if (out)
		*out = NULL;
	if (!text) {
		json_decref(cmd);
		snprintf(err, err_len, "out of memory");
		return -ENOMEM;
	}
	r = rados_mon_command(cl, cmds, 1, NULL, 0, &ob, &ob_len, &st, &st_len);
	if (r == 0 && out && !(*out = json_loadb(ob, ob_len, 0, NULL)))
		r = -EBADMSG;
	if (r < 0)
		snprintf(err, err_len, "mon command %s: %s%s%.*s", prefix ? prefix : "?",
		         strerror(-r), st_len ? ": " : "", (int)(st_len > 200 ? 200 : st_len),
		         st ? st : "");
	rados_buffer_free(ob);
	rados_buffer_free(st);
	free(text);
	json_decref(cmd);
	return r;
}

void ccb_fault_event(struct ccb_fault_point *fp, double t_s, const char *kind, int fault,
                     const char *fmt, ...)
{
	struct ccb_fault_event *e;
	va_list ap;

	if (fp->n_events == fp->cap_events) {
		size_t cap = fp->cap_events ? fp->cap_events * 2 : 64;
		struct ccb_fault_event *n;

		if (cap > MAX_EVENTS || !(n = realloc(fp->events, cap * sizeof(*n))))
			return;
		fp->events = n;
		fp->cap_events = cap;
	}
	e = &fp->events[fp->n_events++];
	e->t_s = t_s;
	e->fault = fault;
	snprintf(e->kind, sizeof(e->kind), "%s", kind);
	va_start(ap, fmt);
	vsnprintf(e->text, sizeof(e->text), fmt, ap);
	va_end(ap);
}

void ccb_fault_unref(struct ccb_fault_point *fp)
{
	if (!fp || --fp->refs > 0)
		return;
	if (fp->connected)
		rados_shutdown(fp->cl);
	ccb_timeline_free(&fp->timeline);
	json_decref(fp->settings);
	json_decref(fp->osds_prev);
	json_decref(fp->up_start);
	json_decref(fp->left);
	json_decref(fp->undone);
	free(fp->samples);
	free(fp->events);
	free(fp);
}
