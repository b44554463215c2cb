# The temporary image is gone after success, after Ctrl-C in the run and in
# the prefill, and after SIGTERM.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rbd write --size 16M -q >/dev/null
[ -z "$(rbd ls rbd)" ] || fail "left after success"
for sig in INT TERM; do
	"$CCBENCH" rbd read --size 64M -d 60s --sim-osd-latency 1ms -f json >s.json 2>s.err &
	pid=$!
	for i in $(seq 1 100); do grep -q "sec" s.err 2>/dev/null && break; sleep 0.1; done
	sleep 1
	kill -$sig $pid
	timed wait $pid
	want=$([ $sig = INT ] && echo 130 || echo 143)
	[ "$RC" = "$want" ] || fail "SIG$sig: exit $RC"
	[ "$ELAPSED" -le 10 ] || fail "SIG$sig: $ELAPSED s"
	[ "$(jget s.json 'd["status"]')" = interrupted ] || fail "status"
	[ -z "$(rbd ls rbd)" ] || fail "SIG$sig left $(rbd ls rbd)"
done
# Interrupted while filling the image, before any measurement.
"$CCBENCH" rbd read --size 1G -q 2>p.err &
pid=$!
for i in $(seq 1 100); do rbd ls rbd | grep -q ccbench && break; sleep 0.1; done
sleep 0.5
kill -INT $pid
timed wait $pid
[ "$RC" = 130 ] || fail "prefill SIGINT: exit $RC"
[ -z "$(rbd ls rbd)" ] || fail "prefill SIGINT left $(rbd ls rbd)"
