# Ctrl-C and SIGTERM: stop issuing, drain, partial result marked interrupted,
# own objects removed, exit 130 / 143.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for sig in INT TERM; do
	"$CCBENCH" rados write -p "$POOL" -d 60s -b 1M -t 8 -f json >s.json 2>s.err &
	pid=$!
	sleep 3
	signal_wait $pid $sig "$([ $sig = INT ] && echo 130 || echo 143)" 10 s.err
	[ "$(jget s.json 'd["status"]')" = interrupted ] || fail "status"
	[ "$(jget s.json 'd["ops"] > 0')" = True ] || fail "partial result empty"
	[ -z "$(ns_objects)" ] || fail "SIG$sig left objects"
done
