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
wait_grep err.txt "run 1 of 3"
sleep 3
signal_wait $pid INT 130 15 err.txt
[ "$(jget part.json 'd["status"]')" = interrupted ] || fail "status"
[ "$(jget part.json 'd["runs_done"]')" = 1 ] || fail "runs_done"
[ "$(jget part.json 'd["points"][0]["runs"][0]["status"]')" = interrupted ] || fail "partial run"
[ -z "$(new_images)" ] || fail "image left: $(new_images)"
