# Ctrl-C in a sweep: the partial results file is written (status
# interrupted), the shared image is removed, exit 130.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

cat >long.json <<'CFG'
{"name": "long", "command": "rbd read", "params": {"size": "16M", "duration": "30s"},
 "matrix": {"readahead": ["128K", "1M", "4M"]}}
CFG
"$CCBENCH" sweep long.json --json part.json 2>err.txt >/dev/null &
pid=$!
for i in $(seq 1 150); do grep -q "run 1 of 3" err.txt 2>/dev/null && break; sleep 0.1; done
sleep 3
kill -INT $pid
timed wait $pid
[ "$RC" = 130 ] || fail "exit $RC"
[ "$ELAPSED" -le 15 ] || fail "took $ELAPSED s"
[ "$(jget part.json 'd["status"]')" = interrupted ] || fail "status"
[ "$(jget part.json 'd["runs_done"]')" = 1 ] || fail "runs_done"
[ "$(jget part.json 'd["points"][0]["runs"][0]["status"]')" = interrupted ] || fail "partial run"
[ -z "$(rbd ls rbd)" ] || fail "image left: $(rbd ls rbd)"
