# Without --no-cleanup a write removes all it wrote; --total and --max-objects stop it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rados write -p "$POOL" --total 40M -b 4M -t 4 -q -f json >t.json
[ "$(jget t.json 'd["bytes"]')" = $((40 * 1048576)) ] || fail "--total 40M wrote $(jget t.json 'd["bytes"]')"
[ "$(jget t.json 'd["reason"]')" = "--total reached" ] || fail "reason"
"$CCBENCH" rados write -p "$POOL" --max-objects 7 -b 64K -q -f json >m.json
[ "$(jget m.json 'd["ops"]')" = 7 ] || fail "--max-objects 7"
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head)"
