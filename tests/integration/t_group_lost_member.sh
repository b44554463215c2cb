# A member lost mid-run: one of three members is killed with SIGKILL while
# running. The survivors finish normally (exit 0); `group report --wait`
# waits for it, bounded, and reports it `lost` with when it was last heard
# and how far it got (its heartbeats), out of the aggregate, which says
# "incomplete: 1 of 3 lost", with exit status 3. --wait takes a duration
# (exit 2 before the cluster). group rm removes the heartbeat object too,
# and the killed member's own objects are removed by cleanup --run-name.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

G=glm$$
pids=()
cleanup() {
	local p i
	for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
	"$CCBENCH" group rm "$G" --group-pool "$POOL" >/dev/null 2>&1 || true
	for i in 1 2 3; do
		"$CCBENCH" cleanup -p "$POOL" --run-name "$G$i" >/dev/null 2>&1 || true
	done
}
on_exit cleanup

expect_rc 2 "$CCBENCH" group report "$G" --group-pool "$POOL" --wait soon
expect_rc 2 "$CCBENCH" group report "$G" --group-pool "$POOL" --wait 2d

for i in 1 2 3; do
	timeout -k 5 60 "$CCBENCH" rados write -p "$POOL" -d 5s -b 64K -t 2 --run-name "$G$i" \
		--group "$G" --members 3 --group-timeout 30s -q -f json >m$i.json 2>m$i.err &
	pids+=($!)
done
started() { rados -p "$POOL" -N ccbench-groups listomapkeys "$G" 2>/dev/null | gq '^started$'; }
wait_for 30 "the group's start" started
# ccbench itself under member 2's timeout (its pid is in its member id).
victim=$(pgrep -P "${pids[1]}" -x "$(basename "$CCBENCH" | cut -c1-15)") ||
	fail "no ccbench under member 2's timeout (pid ${pids[1]})"
# The start lies 2 s after the claim: kill member 2 about 1 s into the run,
# once it has beaten (its heartbeat key is there).
beat2() { rados -p "$POOL" -N ccbench-groups listomapkeys "$G.heartbeat" 2>/dev/null | gq "\.$victim\."; }
wait_for 10 "member 2's first heartbeat" beat2
sleep 1
kill -KILL "$victim"
killed_at=$(date +%s.%N)
rc2=0
wait "${pids[1]}" || rc2=$?
[ "$rc2" = 137 ] || fail "member 2 exited $rc2, not killed"
for i in 1 3; do
	rc=0
	wait "${pids[$((i - 1))]}" || rc=$?
	cat m$i.err >&2
	[ "$rc" = 0 ] || fail "surviving member $i exited $rc"
	jget m$i.json 'd["status"]' | gq -x ok || fail "member $i status"
done

timed "$CCBENCH" group report "$G" --group-pool "$POOL" --wait 30s -f json >r.json 2>r.err
cat r.err >&2
echo "note: group report --wait returned after $ELAPSED s with exit $RC"
[ "$RC" = 3 ] || fail "group report exited $RC, not 3 (a member lost)"
grep -q "incomplete: 1 of 3 lost" r.err || fail "no 'incomplete: 1 of 3 lost' on stderr"
python3 - r.json m1.json m3.json "$victim" "$killed_at" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
mine = [json.load(open(f)) for f in sys.argv[2:4]]
killed_pid, killed_at = sys.argv[4], float(sys.argv[5])
assert r["status"] == "incomplete", r["status"]
assert len(r["lost"]) == 1, r["lost"]
lost = [m for m in r["members"] if m["state"] == "lost"]
assert len(lost) == 1 and lost[0]["member"] == r["lost"][0], lost
l = lost[0]
assert ".%s." % killed_pid in l["member"], (l["member"], killed_pid)
# Last heard between its start and the kill; it had written something.
heard_at = l["last_heard_realtime_us"] / 1e6
assert l["start_realtime_us"] / 1e6 <= heard_at <= killed_at + 0.01, (heard_at, killed_at)
assert l["heard"]["bytes"] > 0 and l["heard"]["ops"] > 0, l["heard"]
assert 0 < l["heard"]["seconds"] < 5, l["heard"]
done = [m for m in r["members"] if m["state"] == "done"]
assert len(done) == 2, [m["state"] for m in r["members"]]
assert sorted(m["member"] for m in done) == sorted(m["group"]["member"] for m in mine)
# Out of the aggregate: two members, its bytes in no sum, the window theirs.
agg = r["aggregate"]
assert agg["members"] == 2, agg["members"]
total = sum(m["window_bytes"] for m in done)
assert abs(agg["bytes"] - total) < 1, (agg["bytes"], total)
assert agg["latency_members"] == 2, agg["latency_members"]
assert agg["latency_us"]["n"] == sum(m["latency_us"]["n"] for m in done)
w = r["window"]
for m in done:
    assert m["start_realtime_us"] <= w["start_realtime_us"]
    assert m["start_realtime_us"] + m["seconds"] * 1e6 >= w["end_realtime_us"] - 1
assert w["seconds"] > 4, w
PY
"$CCBENCH" group report "$G" --group-pool "$POOL" >r.txt 2>/dev/null || true
grep -q "^aggregate .*incomplete: 1 of 3 lost" r.txt || fail "text: the aggregate does not say 1 of 3 lost"
grep -q "^LOST .*last heard" r.txt || fail "text: no LOST line"

expect_rc 0 "$CCBENCH" group rm "$G" --group-pool "$POOL"
! ns_objects ccbench-groups | gq "^$G" || fail "group rm left objects: $(ns_objects ccbench-groups | grep "^$G")"
