# The temporary image is gone after success, after Ctrl-C in the run and in
# the prefill, and after SIGTERM.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rbd write --size 16M -q >/dev/null
[ -z "$(new_images)" ] || fail "left after success"
for sig in INT TERM; do
	"$CCBENCH" rbd read --size 64M -d 60s --sim-osd-latency 1ms -f json >s.json 2>s.err &
	pid=$!
	wait_grep s.err "sec"
	sleep 1
	signal_wait $pid $sig "$([ $sig = INT ] && echo 130 || echo 143)" 10 s.err
	[ "$(jget s.json 'd["status"]')" = interrupted ] || fail "status"
	[ -z "$(new_images)" ] || fail "SIG$sig left $(new_images)"
done
# Interrupted while filling the image, before any measurement.
"$CCBENCH" rbd read --size 1G -q 2>p.err &
pid=$!
wait_for 60 "the temporary image" eval 'new_images | gq ccbench'
sleep 0.5
signal_wait $pid INT 130 60 p.err
[ -z "$(new_images)" ] || fail "prefill SIGINT left $(new_images)"
