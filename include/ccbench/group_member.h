/**
 * @file group_member.h
 * A run as one member of a group: register, the common start, publish.
 */
#ifndef CCBENCH_GROUP_MEMBER_H
#define CCBENCH_GROUP_MEMBER_H

#include <jansson.h>

#include <ccbench/point.h>

/**
 * Run @p pt as a member of --group: register, wait for the other
 * members, start at the common instant, store the result in the cluster.
 * Refused (nothing run) when the group's parameters differ, it is full or
 * it already ran; gives up when the group is not complete within
 * --group-timeout, withdrawing its registration.
 *
 * @param result  the member's own result with a "group" object added
 *                (new reference), or NULL when nothing was measured
 * @return the exit status: 0 ok, 1 failed or timed out, 2 refused or bad
 *         input, 128+N after signal N.
 */
int ccb_group_run(const struct ccb_point *pt, json_t **result);

#endif
