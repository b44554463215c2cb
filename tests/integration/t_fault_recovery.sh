# A fault's undo on every end (issue 42), in a throwaway cluster of this
# test's own (3 OSDs, pools of 2 copies: an OSD marked out recovers to
# clean on the other two; the lanes' clusters keep a 3-copy ballast that
# would stay undersized):
# 1. osd-out, then osd-in at clean, then the end 2 s after clean again:
#    the recovery is measured (the cluster left clean and came back, the
#    time to clean), the OSD is in at the end.
# 2. Ctrl-C in the middle of a fault (an OSD out, noout set, an exec:
#    whose undo: removes its marker file): the OSD is marked in, the flag
#    unset, undo: has run, nothing of the run is left (objects, crash
#    records here, copies on the cluster).
# 3. SIGKILL in the middle of the same fault: everything stays changed, with
#    its records; `ccbench restore` from another shell (another directory)
#    puts everything back and removes the records.
# 4. The same, with this host's records lost: `restore -c CONF` puts back
#    the OSD and the flag from their copies on the cluster, and never runs
#    a command from there (the marker stays; a config-key is anyone's with
#    mon access), which is named.
# 5. A cluster that does not recover (backfill and recovery held by their
#    flags, an OSD out): the wait for clean ends the run at
#    --recovery-timeout (5 s) with status aborted and the cluster's state,
#    never a hang; the flags and the OSD are put back.
# About 90 s (its cluster 15-30 s, the runs about 10 s each).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

own_cluster fault-rec --osds 3 --size 2 --osd-mem 256M
export CEPH_CONF=$OWN_CONF
CLUSTER_DIR=$OWN_DIR # lib.sh's helpers act on this cluster
cq() { timeout 60 ceph --connect-timeout 10 "$@"; }
cq osd pool create rp 16 >/dev/null 2>&1
cq osd pool application enable rp rados >/dev/null 2>&1
pgs_clean_within 60 || fail "the own cluster's PGs did not settle: $stuck"
# Something for the out to move, and a recovery that lasts: the run's own
# writes (4K into 4M objects) make a dozen objects, which memstore moves
# in less than the mgr's stats period (1 s here), so that no sample saw a
# PG unclean (CI of 2026-12-06: no time to clean). 1000 objects of 4K in
# a namespace of their own, moved with 10 ms between recovery ops (wpq;
# the OSDs count as hdd): a few seconds of backfill.
"$CCBENCH" rados write -p rp -N fill -b 4K --object-size 4K -t 8 --rate 1000 -d 1s \
	--no-cleanup -q >/dev/null 2>fill.err || fail "prefill: $(tail -3 fill.err)"
cq config set osd osd_recovery_sleep_hdd 0.01 >/dev/null

osd2_in() { cq osd dump -f json | python3 -c 'import json,sys; sys.exit(0 if [o for o in json.load(sys.stdin)["osds"] if o["osd"] == 2 and o["in"] == 1] else 1)'; }
noout() { cq osd dump | gq '^flags.*noout'; }
keys() { cq config-key ls | grep -c '"ccbench/run/' || true; }
records() { ls "$CCB_STATE_DIR" 2>/dev/null | grep -c '^run-' || true; }
objs() { rados -p rp -N ccbench ls 2>/dev/null | wc -l; }

echo "== 1. osd-out at 3 s, osd-in at clean, the end 2 s after clean"
timed "$CCBENCH" rados write -p rp -b 4K --object-size 4M -t 8 -d 150s \
	--fault 3s:osd-out:2 --fault clean:osd-in:2 --fault clean+2s:end --recovery-timeout 90s \
	--allow-cluster-changes -q -f json --output out.json 2>out.err
[ "$RC" = 0 ] || fail "exit $RC: $(tail -5 out.err)"
jcheck out.json 'd["status"] == "ok"' \
	'all(e["fired"] and not e.get("failed") for e in d["fault"]["schedule"])' \
	'd["fault"]["schedule"][1]["fired_s"] > d["fault"]["schedule"][0]["fired_s"]' \
	'd["fault"]["figures"]["time_to_clean_s"] is not None' \
	'd["fault"]["figures"]["degraded_s"] + d["fault"]["figures"]["recovering_s"] > 0' \
	'any(e["kind"] == "pgs" and "not active+clean" in e["text"] for e in d["fault"]["events"])' \
	'any(e["kind"] == "osd-out" for e in d["fault"]["events"]) and any(e["kind"] == "osd-in" for e in d["fault"]["events"])' \
	'[p["phase"] for p in d["fault"]["phases"]][0] == "before" and [p["phase"] for p in d["fault"]["phases"]][-1] == "clean"'
echo "note: osd-out/in: osd-in $(jget out.json 'round(d["fault"]["schedule"][1]["fired_s"] - d["fault"]["schedule"][0]["fired_s"], 1)') s after the out, clean again $(jget out.json 'round(d["fault"]["figures"]["time_to_clean_s"], 1)') s after it; phases $(jget out.json '" ".join(p["phase"] for p in d["fault"]["phases"])')"
osd2_in || fail "osd.2 is not in at the end"

# The faults of 2 to 4, started in the background; returns once they are
# all applied (the OSD out, the flag set, the marker made).
rm -f marker
start_faulted() {
	"$CCBENCH" rados write -p rp -b 4K -t 4 -d 120s --fault 2s:osd-out:2 \
		--fault 2s:set:noout --fault "2s:exec:touch marker" --fault "undo:rm marker" \
		--allow-cluster-changes -q -f json --output "$1.json" 2>"$1.err" &
	pid=$!
	wait_for 60 "the faults applied ($1)" eval '[ -e marker ] && noout && ! osd2_in'
}

echo "== 2. Ctrl-C in the middle of the fault"
start_faulted int
signal_wait "$pid" INT 130 45 int.err
! osd2_in && fail "Ctrl-C: osd.2 is still out"
noout && fail "Ctrl-C: noout is still set"
[ -e marker ] && fail "Ctrl-C: the undo: did not run (marker left)"
[ "$(records)" = 0 ] || fail "Ctrl-C: crash records left: $(ls "$CCB_STATE_DIR")"
[ "$(keys)" = 0 ] || fail "Ctrl-C: config-keys left on the cluster: $(cq config-key ls)"
[ "$(objs)" = 0 ] || fail "Ctrl-C: $(objs) objects left"
jcheck int.json 'd["status"] == "interrupted"' \
	'sorted(u["fault"] for u in d["fault"]["undone"] if u["ok"] and u["when"] == "unwind") == ["2s:exec:touch marker", "2s:osd-out:2", "2s:set:noout"]'

echo "== 3. SIGKILL in the middle of the fault, then restore from another shell"
start_faulted kill
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
[ -e marker ] && noout && ! osd2_in || fail "SIGKILL: something was put back by a dead run"
[ "$(records)" = 1 ] || fail "SIGKILL: no crash record in $CCB_STATE_DIR"
[ "$(keys)" = 2 ] || fail "SIGKILL: $(keys) copies on the cluster, not 2 (osd-out, noout)"
(cd / && env -u CEPH_CONF "$CCBENCH" restore) >restore.out 2>restore.err ||
	fail "restore: $(cat restore.out restore.err)"
cat restore.out
grep -q "ran \`rm marker\`" restore.out || fail "restore did not run the undo:"
grep -q "flag noout unset again" restore.out || fail "restore: noout"
grep -q "osd.2 marked in again" restore.out || fail "restore: osd.2"
[ -e marker ] && fail "restore: marker left"
noout && fail "restore: noout still set"
osd2_in || fail "restore: osd.2 still out"
[ "$(records)" = 0 ] && [ "$(keys)" = 0 ] || fail "restore: records $(records), keys $(keys) left"
"$CCBENCH" cleanup -p rp --all-runs >/dev/null

echo "== 4. SIGKILL, this host's records lost: restore -c CONF"
start_faulted lost
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
rm -f "$CCB_STATE_DIR"/run-*.json
(cd / && "$CCBENCH" restore -c "$OWN_CONF") >restore2.out 2>restore2.err || true
cat restore2.out
grep -q "from its record on the cluster.*flag noout unset again" restore2.out || fail "restore -c: noout"
grep -q "from its record on the cluster.*osd.2 marked in again" restore2.out || fail "restore -c: osd.2"
noout && fail "restore -c: noout still set"
osd2_in || fail "restore -c: osd.2 still out"
[ "$(keys)" = 0 ] || fail "restore -c: config-keys left"
# The command's undo lived on this host only: never run from the cluster.
[ -e marker ] || fail "restore -c ran a command (the marker is gone)"
rm -f marker
"$CCBENCH" cleanup -p rp --all-runs >/dev/null

echo "== 5. a cluster that does not recover: --recovery-timeout"
timed "$CCBENCH" rados write -p rp -b 4K --object-size 4M -t 4 -d 120s \
	--fault "1s:set:nobackfill;1s:set:norecover;2s:osd-out:2;clean:osd-in:2" \
	--recovery-timeout 5s --allow-cluster-changes -q -f json --output stuck.json 2>stuck.err
[ "$RC" = 1 ] && [ "$ELAPSED" -le 40 ] || fail "recovery timeout: exit $RC after $ELAPSED s: $(tail -3 stuck.err)"
jcheck stuck.json 'd["status"] == "aborted"' \
	'"the cluster was not clean" in d["reason"] and "(--recovery-timeout)" in d["reason"] and "PGs active+clean" in d["reason"]' \
	'not d["fault"]["schedule"][3]["fired"]' \
	'any(e["kind"] == "timeout" for e in d["fault"]["events"])'
osd2_in || fail "recovery timeout: osd.2 still out"
cq osd dump | gq -E '^flags.*(nobackfill|norecover)' && fail "recovery timeout: flags left"
echo "note: a cluster that did not recover ended the run in $ELAPSED s: $(jget stuck.json 'd["reason"][:160]')"
# The shipped fault config (configs/fault-mclock-profile.json), shrunk, end
# to end on this cluster of its own: it marks an OSD out, which the lanes'
# clusters (single-copy pools, a ballast of one copy per OSD) do not
# weather (memstore's counters wrapped and flagged the pool full, seen
# after the merge of issues 41 and 42). 4K at 2 in flight keeps its bytes
# well under this cluster's 3 x 256 MiB (64K at 4 in flight filled it on a
# quiet host: ENOSPC).
timed "$CCBENCH" sweep fault-mclock-profile --repeat 1 --param pool=rp --param op-size=4K \
	--param queue-depth=2 --param 'fault=["0s:config:osd/osd_mclock_profile=high_client_ops;1s:osd-out:0;5s:osd-in:0;clean+1s:end"]' \
	-q --json cfg.json >cfg.txt 2>cfg.err
[ "$RC" = 0 ] || fail "fault-mclock-profile: sweep exit $RC: $(tail -3 cfg.err)"
jcheck cfg.json 'd["status"] == "ok" and d["runs_done"] == 1' \
	'"fault_pause_s" in d["points"][0]["aggregate"]'
grep -q 'I/O pause' cfg.txt || fail "fault-mclock-profile: no pause table: $(head -20 cfg.txt)"
echo "note: the shipped fault config, shrunk, on this cluster: $ELAPSED s"
settle_pgs "after the faults" || fail "PGs not active+clean at the end"
