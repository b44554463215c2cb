#!/usr/bin/env bash
# The capacity search against a service time known in advance, with no
# cluster: the null path's --complete-after 10ms keeps each op 10 ms, so 4
# in flight carry at most 4 / 10 ms = 400 ops/s (M/D/4). The search, with
# an SLO far above 10 ms (p99<=250ms: the slots, not the SLO, set the
# capacity), must find that: a capacity within 0.75 to 1.05 of 400 ops/s
# (a loaded host lengthens each op's time, never shortens it), with no
# conf file read (CEPH_CONF names none). A search that missed and said why
# (the client lagged: the other lanes' clusters hold the CPUs) runs once
# more. About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

lane_conf=${CEPH_CONF:-}
export CEPH_CONF=/nonexistent/ceph.conf
# Exit 1 (no capacity found) still writes the search, which says why.
search() {
	local rc=0
	"$CCBENCH" capacity null write --complete-after 10ms --max-in-flight 4 -b 4K \
		--slo 'p99<=250ms' --step-time 2s --precision 5% -q -f json >cap.json || rc=$?
	[ "$rc" -le 1 ] && [ -s cap.json ] || fail "capacity null write: exit $rc"
}
in_range() {
	jget cap.json 'd["capacity_ops_s"] is not None and 300 <= d["capacity_ops_s"] <= 420' |
		grep -qx True
}
search
once_more_if_distrusted cap.json in_range search
in_range || fail "capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s, want 400 (300 to 420): $(jget cap.json '[(s["target_ops_s"], s["verdict"]) for s in d["steps"]]')"
echo "capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s of M/D/4 = 400"
# Nothing of a cluster in a run that has none.
jget cap.json 'json.dumps(d["explain"])' | grep -qi 'osd\|cluster state' &&
	fail "explain speaks of a cluster: $(jget cap.json 'json.dumps(d["explain"])')"
# Its option is the null path's own: refused elsewhere, before anything connects.
rc=0
CEPH_CONF=$lane_conf "$CCBENCH" capacity rados write -p rbd --complete-after 10ms --slo 'p99<=250ms' 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q -- "--complete-after: not an option of this command" err.txt ||
	fail "rados write --complete-after: exit $rc, $(cat err.txt)"
echo "ok"
