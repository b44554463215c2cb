# The capacity search against a real server-side limit, on any release
# (issue 33; meant for the release stages, whose Reef and Tentacle have
# it): on a cluster of the test's own (1 OSD), where the release's mClock
# gives one (Reef 18 and later), the custom profile with a client limit of
# about 100 IOPS (osd_mclock_scheduler_client_lim, in the release's unit,
# as t_explain_scheduler sets it); where it does not (Pacific 16), every
# OSD delays each client message by about D = 100 ms (--osd-latency) and
# the client keeps M = 8 in flight: about M / D = 80 ops/s (a loaded host
# adds its own service time to D: 20 ms more is 67 ops/s, within the 0.7
# below; with D = 50 ms and M = 4 it was 55.9, CI of stop 37). Either way
# the cluster enforces the limit, whatever this machine's speed:
# - the search (--slo p99<=500ms) finds a capacity within 0.7 to 1.1 of it;
# - explain names what set it: the OSD scheduler and its setting, or the
#   simulated latency and M / D.
# About 60 s with the cluster's start.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

own_cluster capsched
export CEPH_CONF=$OWN_CONF
ceph_cli osd pool create capsched 16 >/dev/null 2>&1
ceph_cli osd pool application enable capsched rados >/dev/null 2>&1

"$CCBENCH" rados write -p capsched -b 4K -t 16 -d 2s -q -f json >probe.json || fail "probe: exit $?"
major=$(jget probe.json 'd["releases"]["cluster"]["ceph_versions"][0].split(".")[0]')
if [ "$major" -ge 17 ]; then
	lim=$(jget probe.json '(lambda m: "%.6f" % (100 / m["capacity_iops"]) if m["qos_unit"] == "capacity_share" else str(max(1, round(100 / m["shards"]))))(d["cluster_state"]["start"]["osd_scheduler"]["mclock"])')
	ceph_cli config set osd osd_op_queue mclock_scheduler
	ceph_cli config set osd osd_mclock_profile custom
	ceph_cli config set osd osd_mclock_scheduler_client_lim "$lim"
	own_osd_restart
	"$CCBENCH" rados write -p capsched -b 4K -t 16 -d 2s -q -f json >limited.json ||
		fail "limited: exit $?"
	LIMIT=$(jget limited.json 'd["cluster_state"]["start"]["osd_scheduler"]["mclock"]["client_limit_iops"]')
	args=(--max-in-flight 16)
	want="the OSD scheduler set the capacity: mClock profile custom"
else
	LIMIT=80
	args=(--max-in-flight 8 --osd-latency 100ms)
	want="simulated latency set the capacity"
fi
# Exit 1 is a search that found no capacity (its document says why):
# judged by in_range below, after once more if the search distrusted its
# own figures (trixie's stage beside forky's, CI of 2026-12-06: the
# lowest rate missed on a host whose 2 CPUs were busy).
search() {
	local rc=0
	"$CCBENCH" capacity rados write -p capsched -b 4K "${args[@]}" --slo 'p99<=500ms' \
		--step-time 2s --precision 10% -q -f json >cap.json || rc=$?
	[ "$rc" = 0 ] || [ "$rc" = 1 ] || fail "capacity: exit $rc"
}
in_range() { [ "$(jget cap.json "0.7 * $LIMIT <= (d['capacity_ops_s'] or 0) <= 1.1 * $LIMIT")" = True ]; }
search
once_more_if_distrusted cap.json in_range search
in_range || fail "capacity not within 0.7 to 1.1 of $LIMIT: $(jget cap.json '"capacity %s; " % d["capacity_ops_s"] + "; ".join("%s %s: %s" % (s["phase"], s["target_ops_s"], s["verdict"]) for s in d["steps"])'); distrust: $(distrusts cap.json)"
jcheck cap.json 'd["status"] == "ok"'
[ "$(jget cap.json "any(e['kind'] == 'capacity-limit' and '$want' in e['text'] for e in d['explain'])")" = True ] ||
	fail "explain does not say '$want': $(jget cap.json '" | ".join("%s: %s" % (e["kind"], e["text"]) for e in d["explain"])')"
echo "note: release $major: capacity $(jget cap.json 'round(d["capacity_ops_s"], 1)') ops/s of a limit of $LIMIT; $(jget cap.json '[e["text"] for e in d["explain"] if e["kind"] == "capacity-limit"][-1]')"
# The steps as the search saw them: a rate over the limit leaves more
# not completed at the step's end (waiting or in flight) than Little's law
# gives a carried rate (ccb_cap_carried).
echo "note: steps: $(jget cap.json '"; ".join("%s %.1f %s (%d of %d open at the end, service mean %.1f ms)" % (s["phase"], s["target_ops_s"], s["verdict"], s["arrivals_total"] - s["completed"] + s.get("in_flight_at_end", 0), s["arrivals_total"], s["service_time_us"].get("mean", 0) / 1e3) for s in d["steps"])')"
