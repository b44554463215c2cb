#!/usr/bin/env bash
# The capacity search against a service time known in advance, with no
# cluster: the null path's --complete-after 10ms keeps each op 10 ms, so 4
# in flight carry at most 4 / 10 ms = 400 ops/s (M/D/4). The search, with
# an SLO far above 10 ms (p99<=250ms: the slots, not the SLO, set the
# capacity), must find that: a capacity within 0.75 to 1.05 of 400 ops/s
# (a loaded host lengthens each op's time, never shortens it), with no
# conf file read (CEPH_CONF names none). A search that missed and said why
# (the client lagged: the other lanes' clusters hold the CPUs) runs once
# more; so does one that missed, which is then judged by Little's law on
# its own service time (below). About 20 s.
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
# Little's law on the search's own figures: the capacity within 0.75 to
# 1.05 of 4 slots over the mean service time at the step it reports. A
# host that stretched each op (the timer's wake-up, beside three lanes'
# clusters starting: CI of 2026-12-06 found 219 ops/s) moves the capacity
# with the service time; a search that misjudged its steps does not.
little() {
	jget cap.json '(lambda c, s: bool(s) and 0.75 <= c * s[0]["service_time_us"]["mean"] / 4e6 <= 1.05)(d["capacity_ops_s"] or 0, [s for s in d["steps"] if s["target_ops_s"] == d["capacity_ops_s"] and s["service_time_us"].get("mean")])' |
		grep -qx True
}
steps() { jget cap.json '"; ".join("%.1f %s (service mean %.1f ms)" % (s["target_ops_s"], s["verdict"], s["service_time_us"].get("mean", 0) / 1e3) for s in d["steps"])'; }
search
once_more_if_distrusted cap.json in_range search
if ! in_range; then
	echo "note: capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s: $(steps); once more"
	search
fi
in_range || little ||
	fail "capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s, want 400 (300 to 420) or 4 / the service mean: $(steps)"
in_range || echo "note: capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s, by Little's law on a stretched service time: $(steps)"
echo "capacity $(jget cap.json 'd["capacity_ops_s"]') ops/s of M/D/4 = 400"
# Nothing of a cluster in a run that has none.
jget cap.json 'json.dumps(d["explain"])' | gq -i 'osd\|cluster state' &&
	fail "explain speaks of a cluster: $(jget cap.json 'json.dumps(d["explain"])')"
# Its option is the null path's own: refused elsewhere, before anything connects.
rc=0
CEPH_CONF=$lane_conf "$CCBENCH" capacity rados write -p rbd --complete-after 10ms --slo 'p99<=250ms' 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q -- "--complete-after: not an option of this command" err.txt ||
	fail "rados write --complete-after: exit $rc, $(cat err.txt)"
echo "ok"
