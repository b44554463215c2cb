# Where the time went when the cluster does not answer everything
# (docs/attribution.md):
#   - a least-privilege key (the `profile rbd` caps a CSI driver gets) runs
#     rbd randread with exit 0: the per-OSD client figures come from the
#     mon's PG map (the mgr refuses it pg dump), and an info line says what
#     was not available (the OSDs' own counters and slow ops, the mgr's PG
#     map) and which cap gives it;
#   - an OSD stopped mid-run (SIGSTOP, as t_rados_osd_down): the run ends
#     bounded as before (op timeout 5 s, the OSDs' queries after it bounded
#     by --connect-timeout 5 s), and the stopped OSD is named as not
#     answering;
#   - --attribution off: no attribution in the result;
#   - a group of 3 members with osd.1 slow (client messages delayed up to
#     60 ms): the group report merges the members' per-OSD figures (their
#     ops added) and its aggregate names osd.1.
# About 60 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

no_osd_delay || fail "an OSD injects delays before the test"

# ---- a profile rbd key -------------------------------------------------------
K=client.attr$$
on_exit ceph --connect-timeout 10 auth rm "$K"
ceph_cli auth get-or-create "$K" mon 'profile rbd' osd "profile rbd pool=$POOL" \
	mgr "profile rbd pool=$POOL" >csi.keyring
chmod 600 csi.keyring
"$CCBENCH" rbd randread -p "$POOL" -n "$K" -k csi.keyring --size 16M --io-size 4K -t 4 -d 2s \
	-f json >csi.json 2>csi.err || fail "profile rbd key: exit $?: $(tail -3 csi.err)"
jcheck csi.json \
	'd["status"] == "ok"' \
	'd["attribution"]["mode"] == "per-op"' \
	'd["attribution"]["pg_map"]["source"] == "mon pg map"' \
	'd["attribution"]["client"]["ops"] == d["ops"] and d["attribution"]["client"]["unmapped_ops"] == 0' \
	'not any("perf" in o for o in d["attribution"]["osds"])' \
	'any(e["kind"] == "osd" and e["severity"] == "info" and "not available: the OSDs'"'"' own counters and slow ops" in e["text"] and "osd '"'"'allow *'"'"'" in e["text"] for e in d["explain"])' \
	'any(e["kind"] == "osd" and "mgr '"'"'allow r'"'"'" in e["text"] for e in d["explain"])'
echo "note: profile rbd: $(jget csi.json '"; ".join(e["text"] for e in d["explain"] if e["kind"] == "osd" and "not available" in e["text"])')"

# ---- --attribution off: none of it --------------------------------------------
"$CCBENCH" rados write -p "$POOL" -b 4K -t 4 -d 1s --attribution off -f json >off.json 2>off.err ||
	fail "--attribution off: exit $?: $(tail -3 off.err)"
jcheck off.json '"attribution" not in d' 'not any(e["kind"] == "osd" for e in d["explain"])' \
	'd["parameters"]["attribution"] == "off"'

# ---- an OSD stopped mid-run --------------------------------------------------
osd_pid=$(cat "$CLUSTER_DIR"/run/osd.1.pid)
resume() { kill -CONT "$osd_pid" 2>/dev/null || true; }
on_exit resume
"$CCBENCH" rados write -p "$POOL" -d 60s --op-timeout 5s --connect-timeout 5s -b 64K -t 8 \
	--run-name adown -f json >down.json 2>down.err &
pid=$!
sleep 3
kill -STOP "$osd_pid"
timed wait $pid
resume
[ "$RC" = 1 ] || fail "exit $RC: $(tail -3 down.err)"
[ "$ELAPSED" -le 30 ] || fail "took $ELAPSED s after the OSD stopped (bound: --op-timeout 5 s, the queries 5 s, the cleanup)"
jcheck down.json \
	'd["status"] == "aborted"' \
	'any(n["osd"] == "osd.1" for n in d["attribution"]["not_answering"])' \
	'any(e["kind"] == "osd" and "osd.1 did not answer" in e["text"] for e in d["explain"])'
echo "note: osd.1 stopped: ended $ELAPSED s after; $(jget down.json '"; ".join("%s %s (%s, %.1f s)" % (n["osd"], n["error"], n["when"], n["seconds"]) for n in d["attribution"]["not_answering"])')"
wait_osds_up
settle_pgs "after osd.1 came back" 60 || fail "PGs did not settle"
if grep -q 'not removed' down.err; then
	cmd=$(grep -o 'remove them with: ccbench cleanup .*' down.err | head -1 | sed 's/remove them with: ccbench //')
	[ -n "$cmd" ] || fail "no cleanup command in: $(grep 'not removed' down.err)"
	# shellcheck disable=SC2086
	"$CCBENCH" $cmd >/dev/null
fi
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects | head -3)"

# ---- a group of three, osd.1 slow --------------------------------------------
S=1
G=gattr$$
on_exit sh -c '"$0" group rm "$1" --group-pool "$2" >/dev/null 2>&1' "$CCBENCH" "$G" "$POOL"
on_exit osd_delay_clear $S
osd_delay $S client 0.06 || fail "could not set the delay on osd.$S"
group_members 3 m "$CCBENCH" rados write -p "$POOL" -d 3s -b 4K -t 4 --group "$G" --members 3 \
	--group-timeout 30s -q -f json
rc=$RC
[ "$rc" = 0 ] || fail "a member exited $rc: $(tail -3 m1.err m2.err m3.err)"
osd_delay_clear $S
"$CCBENCH" group report "$G" --group-pool "$POOL" -f json >g.json
"$CCBENCH" group report "$G" --group-pool "$POOL" >g.txt
python3 - g.json m1.json m2.json m3.json "$S" <<'PY' || fail "group: per-OSD figures not merged"
import json, sys
g = json.load(open(sys.argv[1]))
members = [json.load(open(f)) for f in sys.argv[2:5]]
s = int(sys.argv[5])
agg = g["aggregate"]["attribution"]
assert agg["members"] == 3, agg.get("members")
per = {o["osd"]: o for o in agg["osds"]}
for osd, e in per.items():
    want = sum(o.get("ops", 0) for m in members for o in m["attribution"]["osds"] if o["osd"] == osd)
    assert e.get("ops", 0) == want, (osd, e.get("ops"), want)
    assert e["hist"]["count"] == want, (osd, e["hist"]["count"], want)
assert agg["client"]["ops"] == sum(m["ops"] for m in members)
assert any(x["kind"] == "osd" and ("osd.%d was the primary" % s) in x["text"] for x in g["explain"]), g["explain"]
PY
grep -q "^why *aggregate: warning: osd\.$S was the primary" g.txt || fail "group text: $(grep why g.txt)"
echo "note: group: $(grep -o "osd\.$S was the primary.*" g.txt | head -1)"
