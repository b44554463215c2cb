# A full cluster (an OSD past the full ratio), with the default --op-timeout:
# the osdmap flags the pool full, the OSD answers ENOSPC to FULL_TRY writes
# at once, and the run ends within 10 s of the flag with a clear reason and
# its objects removed. The full ratio is lowered below what the OSDs hold
# after a few seconds of writes, so the test fills the cluster at any speed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

restore_ratios() {
	ceph_cli osd set-nearfull-ratio .99 >/dev/null 2>&1
	ceph_cli osd set-backfillfull-ratio .99 >/dev/null 2>&1
	ceph_cli osd set-full-ratio .99 >/dev/null 2>&1
}
on_exit restore_ratios
is_full() { ceph_cli osd pool ls detail 2>/dev/null | grep "'$POOL'" | gq -E 'flags [^ ]*full'; }

"$CCBENCH" rados write -p "$POOL" -d 120s -b 4M -t 8 -f json >f.json 2>f.err &
pid=$!
sleep 3
ratio=$(ceph_cli osd df -f json | python3 -c '
import json, sys
u = max(n["utilization"] for n in json.load(sys.stdin)["nodes"]) / 100
print("%.4f" % max(u / 2, 0.0001))')
echo "note: full ratio lowered to $ratio"
ceph_cli osd set-nearfull-ratio "$ratio" >/dev/null
ceph_cli osd set-backfillfull-ratio "$ratio" >/dev/null
ceph_cli osd set-full-ratio "$ratio" >/dev/null
flagged=""
for _ in $(seq 1 300); do
	if is_full; then flagged=$(date +%s.%N); break; fi
	kill -0 $pid 2>/dev/null || break
	sleep 0.2
done
rc=0
wait $pid || rc=$?
end=$(date +%s.%N)
cat f.err
[ -n "$flagged" ] || [ "$rc" = 1 ] || fail "the pool was never flagged full (exit $rc)"
[ "$rc" = 1 ] || fail "exit $rc"
if [ -n "$flagged" ]; then
	after=$(python3 -c "print(round($end - $flagged, 1))")
	echo "note: ended $after s after the pool was flagged full (--op-timeout 60 s)"
	python3 -c "import sys; sys.exit(0 if $after <= 10 else 1)" || fail "ended $after s after the flag"
fi
[ "$(jget f.json 'd["status"]')" = aborted ] || fail "status"
jget f.json 'd["reason"]' | gq "is full" || fail "reason: $(jget f.json 'd["reason"]')"
grep -q "is full" f.err || fail "no message on stderr"
restore_ratios
for _ in $(seq 1 60); do is_full || break; sleep 1; done
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
