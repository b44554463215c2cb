# Space from the mon's USED, on OSDs that keep it (issue 35): a cluster of
# the test's own with 3 bluestore OSDs on sparse files (minicluster
# --bluestore; the lanes' memstore OSDs report USED as STORED, where
# ccbench falls back to STORED x the pool's rate and says so). An EC 2+1
# pool (4K stripe units) and a replicated size 3 one.
# - 64K objects: amplification of "used", about 1.5 on EC and 3 on size 3,
#   and USED itself grew by that much over STORED;
# - 4K objects on EC: each is padded to the 8K stripe, so 3.0 raw bytes
#   per byte written; the run still counts as reliable (its padding is its
#   own: before the fix it was called another client's), and explain says
#   why;
# - rbd on an EC data pool (overwrites on, as bluestore allows without the
#   mon's debug switch): 1M sequential writes cost about 1.5.
# About 40 s with the cluster's start.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

own_cluster ecused --osds 3 --bluestore
export CEPH_CONF=$OWN_CONF
"$OWN_MC" pool-create ec --ec 2+1 "$OWN_DIR" 2>/dev/null || fail "pool-create ec"
"$OWN_MC" pool-create r3 --size 3 "$OWN_DIR" 2>/dev/null || fail "pool-create r3"

# The mon's pool figures trail a run's cleanup by a stats period: a run
# started before they show the pool empty sees the last run's objects go
# ("the pool lost objects": not reliable). Each run on ec waits for that.
empty_stats() { # empty_stats POOL: the mon counts no object in POOL
	[ "$(ceph_cli df -f json 2>/dev/null | jq --arg p "$1" '.pools[] | select(.name == $p) | .stats.objects')" = 0 ]
}
settled() { wait_for 60 "pool $1 empty in the mon's figures" empty_stats "$1"; }

used() { # used FILE LOW HIGH: amplification from USED within [LOW, HIGH], reliable
	jcheck "$1" 'd["status"] == "ok" and d["space"]["amplification_of"] == "used"' \
		'd["space"]["reliable"] is True' \
		"$2 <= d['space']['amplification'] <= $3" \
		"$2 <= d['space']['used_delta'] / d['space']['bytes_written'] <= $3"
}

"$CCBENCH" rados write -p ec -b 64K -t 4 --total 16M -q -f json >ec64.json || fail "ec 64K: exit $?"
used ec64.json 1.4 1.65
jcheck ec64.json '1.4 <= d["space"]["used_delta"] / d["space"]["stored_delta"] <= 1.65'
"$CCBENCH" rados write -p r3 -b 64K -t 4 --total 16M -q -f json >r364.json || fail "r3 64K: exit $?"
used r364.json 2.85 3.2

settled ec
"$CCBENCH" rados write -p ec -b 4K -t 8 --total 4M -q -f json >ec4.json || fail "ec 4K: exit $?"
used ec4.json 2.8 3.25
[ "$(jget ec4.json 'any("padded to whole stripes of 8K" in e["text"] for e in d["explain"])')" = True ] ||
	fail "explain does not say the 4K objects were padded: $(jget ec4.json '" | ".join(e["text"] for e in d["explain"] if e["kind"] in ("ec", "space"))')"

ceph_cli osd pool create meta 8 >/dev/null 2>&1 || fail "create meta"
ceph_cli osd pool application enable meta rbd >/dev/null 2>&1
settled ec
"$CCBENCH" rbd write -p meta --data-pool ec --size 16M --io-size 1M -q -f json >rbd.json ||
	fail "rbd on ec: exit $?"
used rbd.json 1.4 1.7
echo "note: amplification from USED on bluestore: EC 2+1 64K objects $(jget ec64.json 'round(d["space"]["amplification"], 3)'), 4K objects $(jget ec4.json 'round(d["space"]["amplification"], 3)'); size 3 $(jget r364.json 'round(d["space"]["amplification"], 3)'); rbd 1M on EC $(jget rbd.json 'round(d["space"]["amplification"], 3)')"
