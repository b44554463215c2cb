/*
 * What the explain modules share (explain.c, explain_state.c,
 * explain_sched.c, explain_group.c, explain_fs.c, explain_steady.c): reading
 * figures that may be missing, appending an entry and formatting its text
 * (explain_list.c, below them all), and the kinds explain.c runs.
 * Internal: the interface is include/ccbench/explain.h.
 */
#ifndef CCBENCH_EXPLAIN_INT_H
#define CCBENCH_EXPLAIN_INT_H

#include <jansson.h>
#include <stddef.h>

/* A number, string of @p o, 0 or NULL when missing: each kind then says nothing. */
static inline double num(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static inline const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The string @p v, else @p dflt (an array element of a crafted document). */
static inline const char *string_or(const json_t *v, const char *dflt)
{
	const char *s = json_string_value(v);
	return s ? s : dflt;
}

static inline const char *str_or(const json_t *o, const char *key, const char *dflt)
{
	const char *s = str(o, key);
	return s ? s : dflt;
}

/* Appends {kind, severity, text, figures} to @p list; @p figures is stolen
 * (explain_list.c, like the two formatters below). */
void ccb_explain_add(json_t *list, const char *kind, const char *severity, json_t *figures,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* "4M", "1.5G": @p b bytes. */
void ccb_explain_fmt_bytes(double b, char *buf, size_t len);

/* "osd.1, osd.2" of @p a (a JSON array of names), at most a few. */
void ccb_explain_names(const json_t *a, char *buf, size_t len);

/* Seconds with no completion, and what the stall check found. */
void ccb_explain_stall(const json_t *r, json_t *list);
/* The cluster's state at start and end. */
void ccb_explain_cluster(const json_t *r, json_t *list);
/* The route to the cluster and its link speed. */
void ccb_explain_network(const json_t *r, json_t *list);
/* What --until-steady found (explain_steady.c). */
void ccb_explain_steady(const json_t *r, json_t *list);
/* The OSD op scheduler and what its mClock profile gives clients (explain_sched.c). */
void ccb_explain_sched(const json_t *r, json_t *list);
/* An open-loop run not held: by how much, and what limited it (explain_capacity.c). */
void ccb_explain_open_loop(const json_t *r, json_t *list);
/* An fs run through a mount: the client's limits, the page cache (explain_fs.c). */
void ccb_explain_fs(const json_t *r, json_t *list);
/* An erasure-coded data pool: stripes, shards, degraded reads; the space a write cost
 * (explain_ec.c). */
void ccb_explain_ec(const json_t *r, json_t *list);
/* Where the time went, per OSD: the result's "attribution" (explain_osd.c). */
void ccb_explain_osd(const json_t *r, json_t *list);
/* A capacity search's steps: which OSD's latency rose first as the rate went up (explain_osd.c). */
void ccb_explain_capacity_osd(const json_t *steps, json_t *list);

/* What a --fault schedule cost the client: the pause, the slowdown, the
 * way back to clean, what an exec: left (explain_fault.c). */
void ccb_explain_fault(const json_t *r, json_t *list);

#endif
