# What a failure costs the client (issue 42): an OSD process killed mid-run
# (SIGKILL, through --fault exec:) on a size-3 pool, with undo: restarting
# it. In a throwaway cluster of this test's own (3 memstore OSDs; every
# pool 2 copies or more, so the killed OSD, which loses what memstore held,
# recovers from its peers; the lanes' clusters keep single-copy pools a
# kill would lose). Its OSDs do not fail a refused connection at once
# (osd_fast_fail_on_connection_refused false), as when a whole host dies:
# the mon marks the OSD down after osd_heartbeat_grace (6 s, minicluster's),
# and that sets the pause.
#
# 1. Closed loop, kill at 3 s, restart at 15 s, end 2 s after the cluster is
#    clean again. The pause: at least the grace less a second (every PG of
#    the pool holds the OSD, so writes stop until it is marked down) and
#    within the grace + 20 s: the mark-down comes up to a heartbeat
#    interval after the grace, then peering; and when the OSD comes back,
#    writes to objects it lacks wait for their recovery (up to 12 s seen on
#    a loaded 2-core host). The kill's own stall lies within the grace + 10
#    s; the mon marks the OSD down within the grace + 8 s (to the second of
#    the samples; 10 s seen on a loaded host). The phases in order: before (to the kill), degraded and stalled
#    until the restart, recovering only after it, clean only at the end.
#    The OSD is up at the end, every PG active+clean, nothing recorded left.
# 2. Open loop, the same kill under --rate (ends at 14 s; the unwind
#    restarts the OSD): arrivals during the pause wait for its end, so the
#    response time's p99 is at least 0.9 of the pause (the pause holds about
#    half the arrivals: the top 1 % waited at least (1 - 0.01 / 0.5) of it)
#    and its max at least the pause, while the service time's p99 stays
#    under a tenth of it (4 ops in flight at most: under 1 % of the ops
#    waited through it).
# Checked that it fails: the pause measured as half the stretch
# (fault_phases.c), "pause 3.94 s not within [grace - 1, grace + 20]".
# About 90 s (its cluster 15-30 s, the runs 30 and 15 s, recovery).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

own_cluster fault-kill --osds 3 --size 2 --osd-mem 256M
export CEPH_CONF=$OWN_CONF
# lib.sh's helpers (settle_pgs restarts OSDs) act on this cluster, not the lane's.
CLUSTER_DIR=$OWN_DIR
cq() { timeout 60 ceph --connect-timeout 10 "$@"; }
cq config set osd osd_fast_fail_on_connection_refused false >/dev/null
# Memstore counts as rotational: hdd recovery sleeps 0.1 s an object.
cq config set osd osd_recovery_sleep_hdd 0 >/dev/null
cq osd pool create kp 16 >/dev/null 2>&1
cq osd pool set kp size 3 >/dev/null 2>&1
cq osd pool set kp min_size 2 >/dev/null 2>&1
cq osd pool application enable kp rados >/dev/null 2>&1
pgs_clean_within 60 || fail "the own cluster's PGs did not settle: $stuck"

# osd_df_check: memstore can miscount after a kill (FACTS.md): an OSD with
# more used than its size. Named, not failed on: the test cluster's fault.
osd_df_check() {
	cq osd df -f json | python3 -c '
import json, sys
for n in json.load(sys.stdin).get("nodes", []):
    if n.get("kb", 0) and n.get("kb_used", 0) > n["kb"]:
        print("note: osd.%d reports %d KiB used of %d: memstore miscount (FACTS.md)" % (n["id"], n["kb_used"], n["kb"]))'
}
osd1_up() { cq osd dump -f json | python3 -c 'import json,sys; sys.exit(0 if [o for o in json.load(sys.stdin)["osds"] if o["osd"] == 1 and o["up"] == 1] else 1)'; }

echo "== 1. closed loop: osd.1 killed at 3 s, restarted at 15 s"
pid=$(cat "$OWN_DIR/run/osd.1.pid")
timed "$CCBENCH" rados write -p kp -b 4K --object-size 4M -t 8 -d 150s \
	--fault "3s:exec:kill -KILL $pid" --fault "15s:undo:$OWN_MC osd-start 1 $OWN_DIR" \
	--fault clean+2s:end --recovery-timeout 90s --allow-cluster-changes -q -f json \
	--output kill.json 2>kill.err
[ "$RC" = 0 ] || fail "exit $RC: $(tail -5 kill.err)"
python3 - kill.json <<'PY' 2>checks.err || fail "kill.json: $(tail -5 checks.err) (the run: $(tail -2 kill.err))"
import json, sys
d = json.load(open(sys.argv[1]))
f = d["fault"]; fig = f["figures"]; ph = f["phases"]
grace = float(f["settings"]["values"]["osd_heartbeat_grace"])
kill, undo = [e["fired_s"] for e in f["schedule"][:2]]
names = [p["phase"] for p in ph]
bad = []
def check(ok, what):
    if not ok:
        bad.append(what)
check(d["status"] == "ok", "status %s: %s" % (d["status"], d["reason"]))
check(grace == 6, "grace %s, not minicluster's 6" % grace)
check(grace - 1 <= fig["pause_s"] <= grace + 20,
      "pause %.2f s not within [grace - 1, grace + 20]" % fig["pause_s"])
stalls = [p for p in ph if p["phase"] == "stalled" and kill <= p["from_s"] < undo]
check(stalls and stalls[0]["from_s"] - kill < 1.0 and grace - 1 <= stalls[0]["seconds"] <= grace + 10,
      "the kill's stall: %s" % stalls[:1])
check(fig["marked_down_after_s"] is not None and grace - 1 <= fig["marked_down_after_s"] <= grace + 8,
      "marked down after %s s" % fig["marked_down_after_s"])
check(names[0] == "before" and abs(ph[0]["to_s"] - kill) < 0.05, "first phase %s" % ph[0])
check(names[-1] == "clean" and names.count("clean") == 1, "clean: %s" % names)
check(all(p["from_s"] >= undo for p in ph if p["phase"] == "recovering"), "recovering before the restart: %s" % names)
check(any(p["phase"] == "degraded" and kill <= p["from_s"] < undo for p in ph), "no degraded phase: %s" % names)
check(set(names) <= {"before", "stalled", "degraded", "recovering", "clean"}, "phases %s" % names)
check(fig["time_to_clean_s"] is not None and fig["time_to_clean_s"] > fig["pause_s"], "time to clean %s" % fig["time_to_clean_s"])
check(all(s["phase"] and "p99_us" in s for s in d["series"]), "series without phase or p99")
kinds = {e["kind"] for e in d["explain"]}
check("fault-pause" in kinds and "fault-clean" in kinds, "explain: %s" % kinds)
pause_text = [e["text"] for e in d["explain"] if e["kind"] == "fault-pause"]
# The longest stretch is the kill's (the mark-down, after the grace), or,
# on a loaded host, the restart's: writes to objects osd.1 lacks wait for
# their recovery (Reef beside another release stage: 12 s). Each is
# explained as what it was.
if fig["pause_from_s"] is None or fig["pause_from_s"] < undo:
    check(pause_text and "osd_heartbeat_grace (6 s)" in pause_text[0] and "osd.1" in pause_text[0],
          "the kill's pause explained as: %s" % pause_text)
else:
    check(pause_text and "osd.1 up" in pause_text[0] and "recovery" in pause_text[0],
          "the restart's pause explained as: %s" % pause_text)
check([u for u in f["undone"]] == [], "undone at the end: %s (the undo: ran in the run)" % f["undone"])
for b in bad:
    print("kill.json: %s" % (b,), file=sys.stderr)
print("note: closed loop: pause %.2f s (grace %g s), marked down after %.0f s, the kill's stall %.2f s, clean again %.1f s after the kill; phases %s"
      % (fig["pause_s"], grace, fig["marked_down_after_s"], stalls[0]["seconds"] if stalls else -1,
         fig["time_to_clean_s"] or -1, " ".join(names)))
sys.exit(1 if bad else 0)
PY
osd1_up || fail "osd.1 is not up at the end"
pgs_clean_within 60 || fail "PGs not active+clean at the end: $stuck"
osd_df_check
# The views of the saved result.
"$CCBENCH" report kill.json --svg kill.svg >kill.txt
grep -q '^phase .*p99 ms' kill.txt || fail "no phase table: $(head -40 kill.txt)"
grep -q '^  stalled ' kill.txt || fail "no stalled row in the table"
grep -q '^pause ' kill.txt || fail "no pause line"
grep -q 'F2' kill.svg && grep -q 'stalled' kill.svg || fail "the SVG lacks the faults or phases"
"$CCBENCH" report kill.json -f csv >kill.csv
head -1 kill.csv | gq '^t,bandwidth_mib_s,ops,p50_us,p99_us,max_us,errors,phase,' ||
	fail "CSV header: $(head -1 kill.csv)"
grep -q ',stalled,' kill.csv || fail "no stalled second in the CSV"

echo "== 2. open loop: the same kill under --rate"
pid=$(cat "$OWN_DIR/run/osd.1.pid")
timed "$CCBENCH" rados write -p kp -b 4K --object-size 4M --rate 100 --max-in-flight 4 \
	--max-backlog 100000 -d 60s --fault "2s:exec:kill -KILL $pid" \
	--fault "undo:$OWN_MC osd-start 1 $OWN_DIR" --fault 14s:end --allow-cluster-changes -q \
	-f json --output ol.json 2>ol.err
[ "$RC" = 0 ] || fail "open loop: exit $RC: $(tail -5 ol.err)"
python3 - ol.json <<'PY' 2>checks-ol.err || fail "ol.json: $(tail -5 checks-ol.err)"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["fault"]["figures"]["pause_s"] * 1e6
rt, st = d["open_loop"]["response_time_us"], d["open_loop"]["service_time_us"]
bad = []
if not p >= 5e6: bad.append("pause %.0f us: the kill did not stop the I/O" % p)
if not rt["p99"] >= 0.9 * p: bad.append("response p99 %.0f us < 0.9 x pause %.0f us" % (rt["p99"], p))
if not rt["max"] >= p: bad.append("response max %.0f us < pause %.0f us" % (rt["max"], p))
if not st["p99"] < 0.1 * p: bad.append("service p99 %.0f us >= 0.1 x pause %.0f us" % (st["p99"], p))
if d["open_loop"]["dropped"]: bad.append("%d arrivals dropped" % d["open_loop"]["dropped"])
for b in bad:
    print("ol.json: " + b, file=sys.stderr)
print("note: open loop: pause %.2f s, response p99 %.2f s (max %.2f), service p99 %.3f s"
      % (p / 1e6, rt["p99"] / 1e6, rt["max"] / 1e6, st["p99"] / 1e6))
sys.exit(1 if bad else 0)
PY
wait_for 60 "osd.1 up again after the unwind" osd1_up
settle_pgs "after the open-loop kill" || fail "PGs not active+clean after the open-loop kill"
osd_df_check
[ -z "$(ls "$CCB_STATE_DIR" 2>/dev/null | grep '^run-')" ] || fail "state records left: $(ls "$CCB_STATE_DIR")"
