/**
 * @file release.h
 * Which Ceph releases a result was measured with: the client libraries
 * this process runs with (their runtime versions, not the headers'), and
 * the cluster's daemons as the mon reports them (`ceph versions`). A
 * result's "releases" object:
 *
 *     {"client":  {"ceph_version": "18.2.7", "release": "reef",
 *                  "librados": "3.0.0", "librbd": "1.18.0",
 *                  "libcephfs": "18.2.7", "kernel": "6.1.0-30-amd64"},
 *      "cluster": {"release": "reef", "ceph_versions": ["18.2.7"],
 *                  "versions": {the mon's "versions" reply}}}
 *
 * and a summary of many (a sweep, a group report) has the same "release"
 * and "ceph_versions" on each side, over all of them. A release is named
 * by the major version (16 pacific ... 21 umbrella); a cluster or a set of
 * results that mixes releases names them all, "pacific+reef".
 */
#ifndef CCBENCH_RELEASE_H
#define CCBENCH_RELEASE_H

#include <jansson.h>
#include <stddef.h>

#include <rados/librados.h>

/** The release name of Ceph major version @p major ("reef" for 18), NULL if unknown. */
const char *ccb_release_name(int major);

/**
 * The version in @p text: a bare "18.2.7", or a daemon's "ceph version
 * 18.2.7 (SHA1) reef (stable)". The version token goes into @p version
 * ("18.2.7", "20.3.0-12-gabcdef", "Development"), the release name into
 * @p name: from the major version, else the name the text gives, else
 * "unknown".
 *
 * @return the major version, or -EINVAL when @p text holds no numeric
 *         version (@p version then holds a development build's token
 *         such as "Development", or is empty; @p name is still set when
 *         the text names one).
 */
int ccb_release_parse(const char *text, char *version, size_t version_len, char *name,
                      size_t name_len);

/**
 * This process's client side: the Ceph version libcephfs reports
 * (ceph_version(); librados and librbd report only their API versions),
 * its release, rados_version(), rbd_version(), and the kernel (uname -r:
 * the client of the krbd path). New reference, NULL on ENOMEM.
 */
json_t *ccb_release_client(void);

/**
 * The cluster side from the mon's "versions" reply @p versions
 * ({"mon": {"ceph version ...": N}, "osd": {...}, "overall": {...}}).
 * New reference; {"error"} when @p versions names no daemon.
 */
json_t *ccb_release_cluster_parse(const json_t *versions);

/**
 * ccb_release_cluster_parse() of the mon's answer to "versions" on @p r,
 * a read-only mon command bounded by --connect-timeout. {"error"} names
 * the reason when the mon did not answer. New reference.
 */
json_t *ccb_release_cluster(rados_t r);

/**
 * Add the releases of @p releases (a result's "releases", or a summary)
 * to the summary @p acc (an object; made into {"client": {release,
 * ceph_versions}, "cluster": {...}}). A side @p releases does not name
 * stays as it was. @return 0 or -ENOMEM.
 */
int ccb_release_add(json_t *acc, const json_t *releases);

/**
 * The releases a saved document names, as a summary (ccb_release_add()):
 * a result's own, a sweep's over the runs of all its points, a group
 * report's over its members' results. New reference: {} when it names
 * none (a document saved before ccbench recorded them); NULL on ENOMEM.
 */
json_t *ccb_release_of_doc(const json_t *doc);

/** How the releases of two documents compare (ccb_release_compare()). */
enum ccb_release_diff {
	CCB_RELEASE_SAME,     /**< both name the same releases and versions */
	CCB_RELEASE_VERSIONS, /**< same releases, other versions (16.2.14, 16.2.15) */
	CCB_RELEASE_CHANGED,  /**< a side (client or cluster) names another release */
	CCB_RELEASE_UNKNOWN,  /**< a side is named in one document only: no check */
};

/**
 * Compare the summaries @p base and @p cur (ccb_release_add()), side by
 * side: a side named in both is checked, the most telling difference
 * wins (CHANGED over VERSIONS over SAME); UNKNOWN only when no side is
 * named in both. @p why says what differs or what is missing
 * ("cluster: pacific 16.2.15 -> reef 18.2.7").
 */
enum ccb_release_diff ccb_release_compare(const json_t *base, const json_t *cur, char *why,
                                          size_t why_len);

/**
 * One line for the text views: "cluster reef (18.2.7), client reef
 * (18.2.7: librados 3.0.0, librbd 1.18.0)" of @p releases (a result's or
 * a summary); "" when it names none.
 */
void ccb_release_text(const json_t *releases, char *buf, size_t len);

#endif
