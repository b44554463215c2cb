# A member whose parameters differ from the group's is refused (exit 2)
# and registers nothing; a group that already ran refuses newcomers; a
# member interrupted mid-run shows as withdrawn in the report, outside the
# aggregate.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

G=gconflict$$
"$CCBENCH" rados write -p "$POOL" -d 4s -b 64K --group "$G" --members 2 --group-timeout 20s \
	-q -f json >a.json 2>a.err &
registered() { rados -p "$POOL" -N ccbench-groups listomapkeys "$G" 2>/dev/null | gq '^member\.'; }
wait_for 20 "the first member's registration" registered
keys_before=$(rados -p "$POOL" -N ccbench-groups listomapkeys "$G")
expect_refused --one "conflict" "$CCBENCH" rados write -p "$POOL" -d 3s -b 64K --group "$G" --members 2 -q
grep -q -- "--duration" refused.err || fail "message: $(cat refused.err)"
expect_rc 2 "$CCBENCH" rados write -p "$POOL" -d 4s -b 4M --group "$G" --members 2 -q
expect_rc 2 "$CCBENCH" rados write -p "$POOL" -d 4s -b 64K --group "$G" --members 3 -q
[ "$(rados -p "$POOL" -N ccbench-groups listomapkeys "$G")" = "$keys_before" ] ||
	fail "a refused member changed the group"

# The matching member completes the group; interrupt it mid-run.
"$CCBENCH" rados write -p "$POOL" -d 4s -b 64K --group "$G" --members 2 -q >b.json 2>b.err &
pid=$!
sleep 4.5 # 2 s to the common start, then into the run
signal_wait $pid INT 130 30 b.err
rc=0
wait %1 || rc=$?
[ "$rc" = 0 ] || fail "the other member: exit $rc"

rc=0
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >r.json || rc=$?
[ "$rc" = 1 ] || fail "report of an incomplete group: expected 1, got $rc"
python3 - r.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "incomplete"
states = sorted(m["state"] for m in r["members"])
assert states == ["done", "withdrawn"], states
assert r["aggregate"]["members"] == 1
PY

# A group runs once.
expect_rc 2 "$CCBENCH" rados write -p "$POOL" -d 4s -b 64K --group "$G" --members 2 -q
expect_rc 1 "$CCBENCH" group report "$G" --group-pool "$POOL" --group-cleanup -q
[ -z "$(ns_objects ccbench-groups | grep "^$G" || true)" ] || fail "--group-cleanup left objects"
