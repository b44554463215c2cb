# A fault schedule on the paths besides rados (issue 42: any workload):
# rbd write (librbd), krbd randread (a kernel block device: here the
# fuse-loop mapping, rbd-fuse under a loop device, as the other krbd tests)
# and fs write (libcephfs), each with noscrub set at 1 s, an OSD marked
# down at 2 s (a live OSD contests it: a peering blip, no data moves) and
# noscrub unset at 4 s, the run ending at 8 s. The fs writes go at 2000
# 4K ops a second, so that no machine ends the file before the schedule;
# through libcephfs' buffer they may see no pause at all (explain then
# says so: "no pause: a completion in every 10 ms ..."). Each result has the
# schedule fired, a timeline row a second with the path's own ops, the
# phases from "before", the OSD's down and up as events, the pause as a
# figure, and explain's fault line; noscrub is not set afterwards, and an
# OSD is up again. Then a schedule with no unset: the same fs write ends
# with noscrub unset by the undo log (the result lists it as undone).
# About 50 s on a lane's cluster.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

cq() { timeout 60 ceph --connect-timeout 10 "$@"; }
noscrub() { cq osd dump | gq '^flags.*noscrub'; }
osds_up() { cq osd dump -f json | python3 -c 'import json,sys; print(sum(o["up"] for o in json.load(sys.stdin)["osds"]))'; }
noscrub && fail "noscrub is set before the test"
up0=$(osds_up)
on_exit cq osd unset noscrub
sched=(--fault 1s:set:noscrub --fault 2s:osd-down:0 --fault 4s:unset:noscrub --fault 8s:end
	--allow-cluster-changes -q -f json)

# fault_said FILE: the pause's figures and explain's fault lines, for a failure
fault_said() {
	jget "$1" '"pause %r from %r; explain: %s" % (d["fault"]["figures"].get("pause_s"), d["fault"]["figures"].get("pause_from_s"), " | ".join(e["kind"] + ": " + e["text"] for e in d["explain"] if e["kind"].startswith("fault")))' 2>&1
}

# checks FILE PATH: what every path's result says of its schedule
checks() {
	(jcheck "$1" 'd["status"] == "ok"' "d[\"path\"] == \"$2\"" \
		'all(e["fired"] and not e.get("failed") for e in d["fault"]["schedule"])' \
		'len(d["series"]) >= 5 and all(r.get("phase") for r in d["series"])' \
		'd["series"][0]["ops"] > 0 and any(r["ops"] > 0 for r in d["series"][3:])' \
		'd["fault"]["phases"][0]["phase"] == "before"' \
		'any(e["kind"] == "osd-down" and "osd.0" in e["text"] for e in d["fault"]["events"])' \
		'isinstance(d["fault"]["figures"]["pause_s"], (int, float))') ||
		fail "$2: $(fault_said "$1")"
	# explain's pause line, also when there was no pause at all (a CI run's
	# libcephfs writes: not one 10 ms tick without a completion).
	(jcheck "$1" 'any(e["kind"] == "fault-pause" for e in d["explain"])') ||
		fail "$2: no fault-pause line: $(fault_said "$1")"
	noscrub && fail "$2: noscrub left set"
	wait_for 30 "$2: the OSDs up again" eval '[ "$(osds_up)" = "$up0" ]'
	echo "note: $2: $(jget "$1" '"%d ops, pause %.2f s, phases %s" % (d["ops"], d["fault"]["figures"]["pause_s"], " ".join(p["phase"] for p in d["fault"]["phases"]))')"
}

timed "$CCBENCH" rbd write -p "$POOL" --size 64M --io-size 64K -t 4 -d 30s "${sched[@]}" \
	>rbd.json 2>rbd.err
[ "$RC" = 0 ] || fail "rbd write: exit $RC: $(tail -3 rbd.err)"
checks rbd.json librbd

krbd_image ccbt-fault-paths 64M
timed "$CCBENCH" krbd randread --map rbd/ccbt-fault-paths --direct --io-size 4K -t 4 -d 30s "${sched[@]}" \
	>krbd.json 2>krbd.err
[ "$RC" = 0 ] || fail "krbd randread: exit $RC: $(tail -3 krbd.err)"
checks krbd.json krbd
assert_unmapped

timed "$CCBENCH" fs write --file-size 1G --block-size 4K --rate 2000 -d 30s "${sched[@]}" >fs.json 2>fs.err
[ "$RC" = 0 ] || fail "fs write: exit $RC: $(tail -3 fs.err)"
checks fs.json cephfs

# No unset in the schedule: the flag is put back at the end by the undo log.
timed "$CCBENCH" fs write --file-size 1G --block-size 4K --rate 2000 -d 30s --fault 1s:set:noscrub \
	--fault 3s:end --allow-cluster-changes -q -f json >left.json 2>left.err
[ "$RC" = 0 ] || fail "fs write, noscrub left to the undo log: exit $RC: $(tail -3 left.err)"
noscrub && fail "noscrub left set by a schedule without its unset"
jcheck left.json 'any(u["fault"] == "1s:set:noscrub" and u["ok"] for u in d["fault"]["undone"])'
settle_pgs "after the faults" || fail "PGs not active+clean at the end"
