# --fault's bad input (issue 42): exit 2 with one message, before the
# cluster is touched. Against a mon nobody answers for: bad schedules
# (unknown action, an OSD id that is no number, a time past the run,
# undo: without exec:, a flag ccbench does not set, key material in a
# command, WHEN out of order), and a schedule without
# --allow-cluster-changes, whose message says what would change; the
# workloads that take --fault (rbd, fs too) and those that do not. Then
# against the real cluster: without --allow-cluster-changes, and with an
# OSD id the map does not have (checked once connected, before any change):
# exit 2, the osdmap's epoch unchanged, nothing written. About 10 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dead_conf
refused_fast "unknown action" rados write -p x --fault 5s:reboot:1 --allow-cluster-changes
refused_fast "OSD id 'x'" rados write -p x --fault 5s:osd-out:x --allow-cluster-changes
refused_fast "40.0 s is not within the run (--duration 10.0 s)" \
	rados write -p x -d 10s --fault 40s:osd-out:1 --allow-cluster-changes
refused_fast "undo: without an exec: before it" rados write -p x --fault undo:true \
	--allow-cluster-changes
refused_fast "flag 'sortbitwise'" rados write -p x --fault 5s:unset:sortbitwise \
	--allow-cluster-changes
refused_fast "carries key material" rados write -p x --allow-cluster-changes \
	--fault "5s:exec:rbd map --key AQBsn5tjAAAAABAAbzDrTnJqbsrFy4j0j3Kx8g== x"
grep -q AQBsn5tj refused.err && fail "the refused key is repeated: $(cat refused.err)"
refused_fast "earlier than '9s:set:noout'" rados write -p x --allow-cluster-changes \
	--fault "9s:set:noout;5s:unset:noout"
refused_fast "no such program" rados write -p x --allow-cluster-changes \
	--fault "5s:exec:/nonexistent/ccbench-kill"
refused_fast "end must be the last fault" rados write -p x --allow-cluster-changes \
	--fault 5s:end --fault 6s:set:noout
# Without --allow-cluster-changes: refused, naming every change.
refused_fast "needs --allow-cluster-changes to: mark osd.1 out at 5.0 s (data moves off it); mark osd.1 in once the cluster is clean; run \`true\` on this host at 6.0 s; run \`echo back\` when the run ends (nothing was changed)" \
	rados write -p x --fault "5s:osd-out:1;clean:osd-in:1" --fault 6s:exec:true \
	--fault "undo:echo back"
# Every workload takes it (the schedule hooks in at the run, not a path).
refused_fast "needs --allow-cluster-changes" rbd read --fault 5s:set:noout
refused_fast "needs --allow-cluster-changes" fs write --fault 5s:set:noout
refused_fast "needs --allow-cluster-changes" krbd read --device /dev/null --fault 5s:set:noout
refused_fast "not for a capacity search" capacity rados write -p x --slo 'p99<=10ms' \
	--fault 5s:set:noout --allow-cluster-changes
refused_fast "not with --until-steady" rados write -p x --until-steady 5% \
	--fault 5s:set:noout --allow-cluster-changes
refused_fast "recovery-timeout '0'" rados write -p x --fault clean:set:noout \
	--allow-cluster-changes --recovery-timeout 0

# The real cluster: refused before anything changes. The map's epoch moves
# with any OSD, flag or pool change; the pool holds what a run wrote.
epoch() { ceph_cli osd dump -f json | python3 -c 'import json,sys; print(json.load(sys.stdin)["epoch"])'; }
e0=$(epoch)
expect_refused --one "needs --allow-cluster-changes" "$CCBENCH" rados write -p "$POOL" -d 5s \
	--fault 2s:set:noout
expect_refused --one "osd.99: no such OSD (the cluster's: 0, 1, 2); nothing was changed" \
	"$CCBENCH" rados write -p "$POOL" -d 5s --fault 2s:osd-out:99 --allow-cluster-changes
[ "$(epoch)" = "$e0" ] || fail "the osdmap changed: epoch $e0 -> $(epoch)"
[ -z "$(ns_objects)" ] || fail "objects written: $(ns_objects | head -3)"
ceph_cli osd dump | gq '^flags.*noout' && fail "noout set"
echo "note: refused before any change; osdmap epoch $e0 before and after"
