# Objects larger than the op size take op-size writes at offsets; reads of
# such a run read every chunk and check each header.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rados write -p "$POOL" --object-size 4M -b 1M --max-objects 5 -t 4 --run-name big --no-cleanup -q -f json >w.json
[ "$(jget w.json 'd["ops"]')" = 20 ] || fail "write ops $(jget w.json 'd["ops"]')"
[ "$(rados -p "$POOL" -N ccbench stat big.00000004 | grep -o 'size [0-9]*')" = "size 4194304" ] || fail "object size"
"$CCBENCH" rados seq -p "$POOL" --run-name big -q -f json >s.json
[ "$(jget s.json 'd["ops"]')" = 20 ] || fail "seq ops"
[ "$(jget s.json 'd["layout"]["op_size"]')" = 1048576 ] || fail "seq takes the run's op size"
expect_rc 2 "$CCBENCH" rados seq -p "$POOL" --run-name big -b 2M -q
# A write stopped mid-object leaves it short: reads skip it.
"$CCBENCH" rados write -p "$POOL" --object-size 16M -b 1M -t 2 -d 2s --run-name part --no-cleanup -q -f json >p.json
"$CCBENCH" rados seq -p "$POOL" --run-name part -q -f json >ps.json
[ "$(jget ps.json 'd["errors"]')" = 0 ] || fail "read a partial object"
"$CCBENCH" cleanup -p "$POOL" --run-name big >/dev/null
"$CCBENCH" cleanup -p "$POOL" --run-name part >/dev/null
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects | head -3)"
