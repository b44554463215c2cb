/**
 * @file explain.h
 * What limited a result, and whether it can be trusted: a list of
 * {kind, severity, text, figures} derived from the result document alone
 * (plus what the run can add), so `ccbench explain RESULT.json` re-derives
 * the same lines from a saved result. Kinds and thresholds: docs/explain.md.
 */
#ifndef CCBENCH_EXPLAIN_H
#define CCBENCH_EXPLAIN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Little's law: measured at or above this share of the bound is latency-bound. */
#define CCB_EXPLAIN_LITTLE_NEAR 0.85
/* ... above this share something else counted (the bound is not a bound). */
#define CCB_EXPLAIN_LITTLE_OVER 1.15
/* ... below this share: too few in flight on average (ops x mean latency /
 * seconds below this share of the nominal depth, and more than the run's
 * ramp-up and drain, one mean plus the slowest latency per slot, explain),
 * or ops smaller than asked. */
#define CCB_EXPLAIN_LITTLE_FAR 0.50
/* ... and when each slot idled no more than this between ops, the
 * client's own per-op work, not a stall. */
#define CCB_EXPLAIN_LITTLE_GAP_US 100.0
/* Client CPU: share of all online CPUs busy in this process. */
#define CCB_EXPLAIN_CPU_WARN     0.85
#define CCB_EXPLAIN_CPU_DISTRUST 0.95
/* The whole host this busy while the client kept fewer than LITTLE_NEAR
 * of its ops in flight. */
#define CCB_EXPLAIN_HOST_BUSY 0.90
/* One client or client-library thread busy this share of one CPU. */
#define CCB_EXPLAIN_THREAD_BUSY 0.90
/* Network: share of the (slowest) link's speed the run used. */
#define CCB_EXPLAIN_LINK_WARN 0.80
/* Group: members this unequal (Jain's index below) or started this far
 * apart (a share of the window in which all ran). */
#define CCB_EXPLAIN_GROUP_JAIN 0.90
#define CCB_EXPLAIN_GROUP_SKEW 0.10
/* An emulated client (qemu without KVM) this busy: the emulation, not the
 * cluster, sets the figure. Measured in the krbd-vm guest (1 CPU, TCG):
 * 30-45 % busy while a read waits on 50 ms of OSD latency at read_ahead_kb
 * 128, 75-90 % once larger readaheads make it move data. */
#define CCB_EXPLAIN_EMULATED_BUSY 0.60
/* Per-second bandwidth coefficient of variation. */
#define CCB_EXPLAIN_COV_INFO 0.25
#define CCB_EXPLAIN_COV_WARN 0.50
/* Cache: share of the bytes served that the device did not read. */
#define CCB_EXPLAIN_CACHE_WARN     0.20
#define CCB_EXPLAIN_CACHE_DISTRUST 0.50
/* krbd: sequential requests below this share of the readahead (or of
 * max_sectors_kb, the smaller) say it did not reach the device... */
#define CCB_EXPLAIN_RA_REQ_SHARE 0.5
/* ... random reads with the device reading this many times what was served. */
#define CCB_EXPLAIN_RA_WASTE 1.5
/* Below this many bytes served, device counters say nothing about a cache. */
#define CCB_EXPLAIN_CACHE_MIN_BYTES (4ull << 20)

/* Per OSD (kind "osd", explain_osd.c; docs/attribution.md). OSDs with fewer
 * than CCB_ATTR_MIN_OPS (100, attr_json.h) ops are not compared. One OSD
 * sets the tail when its ops' p99 is at least this many times the median
 * of the other OSDs' p99 ... */
#define CCB_EXPLAIN_OSD_P99_RATIO 2.5
/* ... and this much above it (a 200 µs tail against 60 µs is noise) ... */
#define CCB_EXPLAIN_OSD_P99_MIN_US 1000.0
/* ... and its mean at least this many times theirs: a slow OSD moves both,
 * a busy moment on a shared host mostly the tail. */
#define CCB_EXPLAIN_OSD_MEAN_RATIO 1.5
/* Or slow throughout: its ops' median at least this many times the median
 * of the other OSDs' medians, this much above it, and its mean at least
 * CCB_EXPLAIN_OSD_MEAN_RATIO times theirs. A shared host's brief stalls
 * hold every OSD's ops in flight at that moment, and raise every OSD's p99
 * (from a few hundred ops, 4 ops are the p99); the median they leave. */
#define CCB_EXPLAIN_OSD_P50_RATIO  3.0
#define CCB_EXPLAIN_OSD_P50_MIN_US 1000.0
/* An OSD's own op latency (its perf counters) at or above this share of the
 * client's mean for the same ops: the time is inside the OSD ... */
#define CCB_EXPLAIN_OSD_INSIDE 0.5
/* ... below this share: outside it (network, messengers, the client). */
#define CCB_EXPLAIN_OSD_OUTSIDE 0.3
/* A stage (the op queue's wait; a stage of the slowest ops) named when it
 * holds at least this share of the time. */
#define CCB_EXPLAIN_OSD_STAGE_SHARE 0.5
/* ... the op queue's wait only when it is at least this long on average
 * (memstore OSDs take tens of µs to do an op: any wait is most of it). */
#define CCB_EXPLAIN_OSD_QUEUE_MIN_US 1000.0
/* A replica named when its own writes (subop_w_latency) took at least this
 * many times the other replicas' median ... */
#define CCB_EXPLAIN_OSD_REPLICA_RATIO 3.0
/* ... and at least this long on average ... */
#define CCB_EXPLAIN_OSD_REPLICA_MIN_US 1000.0
/* ... over at least this many replica writes each. */
#define CCB_EXPLAIN_OSD_MIN_SUBOPS 20
/* The slowest ops' stages: at least this many of the run's primaries' ops
 * found, and the same replica last to answer in this share of them. */
#define CCB_EXPLAIN_OSD_MIN_SLOW_OPS 3
#define CCB_EXPLAIN_OSD_LAST_SHARE   0.8
/* A capacity search: an OSD's latency rose at a step when its ops' mean
 * there is at least this many times the median OSD's at the lowest rate
 * and at that step (so it rose apart from the rest), and
 * CCB_EXPLAIN_OSD_P99_MIN_US above the first, from at least
 * CCB_EXPLAIN_OSD_MIN_STEP_OPS ops at that step. */
#define CCB_EXPLAIN_OSD_RISE         2.0
#define CCB_EXPLAIN_OSD_MIN_STEP_OPS 20

/** What the run can add that the result document does not hold (yet). */
struct ccb_explain_ctx {
	bool have_cpu;     /**< the CPU figures below are set */
	double cpu_user_s; /**< this process's user CPU over the run */
	double cpu_sys_s;  /**< this process's system CPU over the run */
	double wall_s;     /**< wall time over which they were taken */
	int online_cpus;   /**< sysconf(_SC_NPROCESSORS_ONLN) */
	/** What emulates this machine's CPU, when one does ("qemu-tcg"), else NULL. */
	const char *emulated;
};

/**
 * The explain list of @p result (a single run's result object). Figures
 * come from the document; @p ctx (may be NULL) supplies the CPU figures
 * where the document has no "client_cpu". Returns a new array (empty when
 * nothing is to be said), or NULL on ENOMEM.
 */
json_t *ccb_explain(const json_t *result, const struct ccb_explain_ctx *ctx);

/**
 * The explain list of a capacity search's document (capacity.h): what set
 * the capacity (the cluster, the OSD scheduler, simulated latency, the
 * client, or too few samples for the SLO's percentile), and by how much
 * and why the next step up fell short. New array, or NULL on ENOMEM.
 */
json_t *ccb_explain_capacity(const json_t *doc);

/**
 * The explain list of a group report's aggregate (ccb_group_aggregate()'s
 * document): distrusted members, members' warnings, fairness, start skew
 * against the window, missing members, members sharing a host. New array.
 */
json_t *ccb_explain_group(const json_t *report);

/**
 * A saved group report's lists, re-derived (`ccbench explain GROUP.json`):
 * [{point: "member NAME", explain}] for each member with a result, from
 * its figures (ccb_explain()), then {point: "aggregate", explain}, by
 * ccb_explain_group() over those lists, so a report saved before a kind
 * existed gets it too. @p report is not changed. New array, or NULL on
 * ENOMEM.
 */
json_t *ccb_explain_group_rederive(const json_t *report);

/** The "client_cpu" object of @p ctx (new reference), or NULL. */
json_t *ccb_explain_cpu_json(const struct ccb_explain_ctx *ctx);

/** @p explain has an entry of severity @p severity; its first text in *text. */
bool ccb_explain_has(const json_t *explain, const char *severity, const char **text);

/** "kind:severity;kind:severity" of @p explain into @p buf (empty for none). */
void ccb_explain_summary(const json_t *explain, char *buf, size_t len);

/** One "why" line per entry of @p explain. */
void ccb_explain_write_text(const json_t *explain, FILE *out);

#endif
