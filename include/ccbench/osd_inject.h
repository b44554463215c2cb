/**
 * @file osd_inject.h
 * OSD-side injected latency (--osd-latency DUR). Every up OSD delays each
 * message it receives from a client by a uniform 0 to 2 x DUR, about DUR
 * on average: Ceph's ms_inject_delay_type=client, ms_inject_delay_max and
 * ms_inject_delay_probability=1, set at run time with `tell osd.N config
 * set`. The delay is the cluster's, so librbd and the kernel rbd client see
 * the same latency, which the client-side --sim-osd-latency (a librados
 * setting) cannot give a kernel client. It applies to connections made
 * after it is set: each run's own, fresh ones.
 *
 * A change outside ccbench, and one that slows every client of the
 * cluster: refused unless the cluster looks like a throwaway one (every
 * mon and OSD on a loopback address) or --osd-latency-cluster names its
 * fsid; refused where it could not be put back (no permission to tell the
 * OSDs, an injection already set, no OSD up). Each OSD's earlier values
 * (config diff: whether a run-time override existed, and which) are
 * recorded in the undo log and the crash state file before anything is
 * set; they go back on every end (normal, error, Ctrl-C, SIGTERM, SIGHUP),
 * and `ccbench krbd restore` puts them back after a crash. An OSD that
 * restarted loses the setting: ccb_osd_inject_check() finds it (its own
 * values are no longer the ones set; a new up_from alone says nothing, an
 * OSD marked down and up again keeps them) and the result says so.
 */
#ifndef CCBENCH_OSD_INJECT_H
#define CCBENCH_OSD_INJECT_H

#include <ccbench/restore.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <ccbench/options.h>

/**
 * Set the latency of @p o (osd_latency_usec) on every up OSD, after the
 * checks above, with its undo logged (and recorded for a crash) before the
 * first OSD is told. At most one injection per process: a second call
 * while one is active fails with -EALREADY.
 *
 * @return 0; -EPERM (not a throwaway cluster, or --osd-latency-cluster
 *         names another one), -EACCES (the OSDs refuse our commands),
 *         -EBUSY (an OSD already injects delays), -ENODEV (no OSD up):
 *         refusals, nothing changed; another -errno (the cluster could not
 *         be reached or an OSD did not take the setting: what was set is
 *         in the undo log). The reason is in @p err.
 */
int ccb_osd_inject_start(const struct ccb_opts *o, char *err, size_t err_len);

/** An injection of this process is set. */
bool ccb_osd_inject_active(void);

/** The latency asked of the active injection (0: none). */
uint64_t ccb_osd_inject_usec(void);

/**
 * Whether the OSDs still hold the setting: `config diff` of each up OSD
 * of the injection (one that restarted has its earlier values back; one
 * that is down now cannot say and is not counted), and `osd dump` for
 * OSDs that came up since (they never had it). New array of texts ("osd.1
 * no longer delays: its ms_inject_delay_max is (default), not 0.040000
 * (restarted?)"), empty when every OSD asked holds it or none is active;
 * each new text is also printed once on stderr. NULL only on ENOMEM.
 */
json_t *ccb_osd_inject_check(void);

/**
 * Record in @p result which side its latency was injected on:
 * "latency_injection": {side: "osd" | "client" | "both" | "none", osd_us,
 * client_us, settings?, osds?, lost?}. @p client_us is the run's
 * --sim-osd-latency; @p lost (stolen, may be NULL) what
 * ccb_osd_inject_check() said after the run.
 */
void ccb_osd_inject_annotate(json_t *result, uint64_t client_us, json_t *lost);

/**
 * The policy, pure: may latency be injected into the cluster @p fsid whose
 * mons and OSDs advertise the hosts in @p hosts (a JSON array of strings,
 * "127.0.0.1", "::1", "10.1.2.3")? Yes when every host is a loopback
 * address, or when @p confirm_fsid (--osd-latency-cluster, may be NULL)
 * equals @p fsid. A @p confirm_fsid that names another cluster is refused
 * even on a loopback cluster: it says the user meant another one.
 *
 * @return 0, or -EPERM with the reason in @p why.
 */
int ccb_osd_inject_policy(const json_t *hosts, const char *fsid, const char *confirm_fsid,
                          char *why, size_t why_len);

/** A loopback address: 127.0.0.0/8, ::1, or ::ffff:127.x.y.z. Pure. */
bool ccb_host_is_loopback(const char *host);

/**
 * Check that @p record has the only shape ccb_osd_inject_start() writes
 * (kind osd_inject, an fsid, the settings it sets, OSD ids, up_from
 * epochs, earlier values of the three keys, a conf path, an entity name).
 * Pure. @return 0, or -EINVAL with the reason in @p why.
 */
int ccb_osd_inject_check_record(const json_t *record, char *why, size_t why_len);

/**
 * `ccbench krbd restore` of an "osd_inject" record: validate it, connect
 * (with -c / -n / -k as given to restore, else as the record says), check
 * the cluster is the record's (fsid), then put back each OSD's earlier
 * values where the OSD still holds what the run set; an OSD that
 * restarted since, or whose values changed, is left as it is and named.
 *
 * @return 0 (done, or nothing left to do), -EINVAL (an invalid record or
 *         another cluster: nothing touched), another -errno (the cluster
 *         or an OSD did not answer: kept for a retry), with a message.
 */
int ccb_osd_inject_restore(const json_t *record, const struct ccb_opts *o, char *msg,
                           size_t msg_len);

/** The crash record kind of an OSD delay, for restore (ccb_undo_kinds_add()). */
extern const struct ccb_undo_kind ccb_osd_inject_undo_kinds[];

#endif
