# A member cut off mid-run, and back (issue 34): three members in network
# namespaces of their own (netns_lib.sh); about 1 s into their run, member
# 2's link is set down. The survivors finish normally (exit 0); `group
# report --wait` returns once member 2 has been silent past the report's
# patience (5 s): it is `lost`, out of the aggregate, "incomplete: 1 of 3
# lost", exit 3. Then its link comes back: its ops resume, it finishes and
# stores its result marked partial (how long the cluster heard nothing);
# the report keeps it lost and out of the aggregate, with that result
# beside it, and says it came back. Namespaces, veths, bridge and cluster
# are removed on every end.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/netns_lib.sh"
netns_up 3 10.78.0

G=glc$$
inm1() { ip netns exec $P-m1 "$@"; }
pids=()
for i in 1 2 3; do
	ip netns exec $P-m$i timeout -k 5 120 "$CCBENCH" rados write -c member.conf -p rbd -d 8s \
		-b 4K -t 1 --run-name "$G$i" --group "$G" --members 3 --group-timeout 60s \
		-q -f json >m$i.json 2>m$i.err &
	pids+=($!)
done
started() { inm1 rados -c member.conf -p rbd -N ccbench-groups listomapkeys "$G" 2>/dev/null | gq '^started$'; }
wait_for 30 "the group's start" started
beats() { [ "$(inm1 rados -c member.conf -p rbd -N ccbench-groups listomapkeys "$G.heartbeat" 2>/dev/null | wc -l)" -ge 3 ]; }
wait_for 15 "every member's first heartbeat" beats
sleep 1
ip -n $P-m2 link set eth0 down
cut_at=$(date +%s)

for i in 1 3; do
	rc=0
	wait "${pids[$((i - 1))]}" || rc=$?
	[ "$rc" = 0 ] || { cat m$i.err >&2; fail "surviving member $i exited $rc"; }
done
timed inm1 "$CCBENCH" group report "$G" -c member.conf -p rbd --wait 30s -f json >r1.json 2>r1.err
[ "$RC" = 3 ] || { cat r1.err >&2; fail "group report with member 2 cut off: exit $RC, not 3"; }
grep -q "incomplete: 1 of 3 lost" r1.err || fail "no 'incomplete: 1 of 3 lost': $(cat r1.err)"
jcheck r1.json 'd["status"] == "incomplete" and len(d["lost"]) == 1' \
	'd["aggregate"]["members"] == 2' \
	'[m["state"] for m in d["members"]].count("lost") == 1'

ip -n $P-m2 link set eth0 up
back_at=$(date +%s)
rc=0
wait "${pids[1]}" || rc=$?
[ "$rc" = 0 ] || { cat m2.err >&2; fail "member 2 exited $rc after its link came back"; }
grep -q "storing this result marked partial" m2.err || fail "member 2 did not say its result is partial: $(tail -3 m2.err)"
inm1 "$CCBENCH" group report "$G" -c member.conf -p rbd -f json >r2.json 2>r2.err && rc=0 || rc=$?
[ "$rc" = 3 ] || fail "group report after member 2 came back: exit $rc, not 3"
jcheck r2.json 'd["status"] == "incomplete" and len(d["lost"]) == 1 and d["aggregate"]["members"] == 2' \
	'[m for m in d["members"] if m["state"] == "lost"][0]["returned"] is True' \
	'5 < [m for m in d["members"] if m["state"] == "lost"][0]["partial"]["silent_s"] < 120' \
	'[m for m in d["members"] if m["state"] == "lost"][0]["bytes"] > 0'
inm1 "$CCBENCH" group report "$G" -c member.conf -p rbd >r2.txt 2>/dev/null || true
grep -q "^LOST .*came back and stored a partial result" r2.txt || fail "text: no LOST line for the member that came back: $(cat r2.txt)"
echo "note: $(grep '^LOST' r2.txt)"
echo "note: cut $((back_at - cut_at)) s; member 2 silent $(jget r2.json 'round([m for m in d["members"] if m["state"] == "lost"][0]["partial"]["silent_s"], 1)') s by its own account; stored its partial result; the report kept it lost (exit 3)"
inm1 "$CCBENCH" group rm "$G" -c member.conf -p rbd >/dev/null 2>&1 || true
