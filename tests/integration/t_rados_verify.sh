# Reads check each object's header: an overwritten object or a missing one
# is an error and a non-zero exit, not a fast result.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rados write -p "$POOL" --max-objects 6 -b 64K --run-name ver --no-cleanup -q >/dev/null
head -c 65536 /dev/urandom >junk
rados -p "$POOL" -N ccbench put ver.00000003 junk
expect_rc 1 "$CCBENCH" rados seq -p "$POOL" --run-name ver -q -f json >v.json
[ "$(jget v.json 'd["status"]')" = aborted ] || fail "status"
jget v.json 'd["error"]' | gq "verify ver.00000003" || fail "error names the object: $(jget v.json 'd.get("error")')"
# --no-verify reads it anyway.
"$CCBENCH" rados seq -p "$POOL" --run-name ver --no-verify -q >/dev/null

rados -p "$POOL" -N ccbench rm ver.00000002
expect_rc 1 "$CCBENCH" rados seq -p "$POOL" --run-name ver --no-verify -q -f json >m.json
jget m.json 'd["error"]' | gq "ver.00000002.*No such file" || fail "missing object: $(jget m.json 'd.get("error")')"

# A read of a run that does not exist is bad input.
expect_rc 2 "$CCBENCH" rados seq -p "$POOL" --run-name nosuchrun -q
"$CCBENCH" cleanup -p "$POOL" --run-name ver >/dev/null
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects)"
