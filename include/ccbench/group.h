/**
 * @file group.h
 * Multi-host runs coordinated through RADOS itself: no daemon, no ssh.
 *
 * The modules, from the pure to the cluster-bound:
 *   - group_agg.h:    parameters, record checks, the aggregate (no cluster);
 *   - group_store.h:  the group object and the result objects in RADOS;
 *   - group_member.h: a run as a member (register, common start, publish);
 *   - group_report.h: text, CSV and SVG views of a group report;
 *   - group_cmd.h:    `group report | rm | ls`.
 *
 * The objects and how members race safely on them: group_store.h.
 */
#ifndef CCBENCH_GROUP_H
#define CCBENCH_GROUP_H

#include <ccbench/group_agg.h>
#include <ccbench/group_cmd.h>
#include <ccbench/group_member.h>
#include <ccbench/group_store.h>

#endif
