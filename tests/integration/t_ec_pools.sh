# Erasure-coded pools (issue 35) on the throwaway cluster: the test makes
# an EC 2+1 pool ($POOL-ec, crush-failure-domain osd: the 3 OSDs share one
# host), an EC pool without overwrites ($POOL-noow) and a replicated size 3
# pool ($POOL-r3, the images' metadata: a size-1 pool would lose its
# headers with the OSD this test stops), and removes them all at the end.
# 1. The result describes the pools: rbd's metadata and EC data pool, rados's.
# 2. Space: amplification from k/m arithmetic, (k+m)/k for whole-stripe
#    writes and 3 for size 3, never from speed.
# 3. explain: partial-stripe writes are read-modify-writes, small reads
#    touch k shards (no FastEC on this release).
# 4. Bad input: exit 2 and no image made.
# 5. Degraded reads: one OSD stopped, the image read, the OSD back.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mc=$(cd "$(dirname "$0")/../.." && pwd)/scripts/minicluster.sh
ec=$POOL-ec r3=$POOL-r3 noow=$POOL-noow img=ec-img

# Registered first, so run last: the pools (and their CRUSH rules and
# profiles) after everything in them.
on_exit "$mc" pool-rm "$ec" "$CLUSTER_DIR"
on_exit "$mc" pool-rm "$r3" "$CLUSTER_DIR"
on_exit "$mc" pool-rm "$noow" "$CLUSTER_DIR"
"$mc" pool-create "$ec" --ec 2+1 "$CLUSTER_DIR" 2>/dev/null || fail "pool-create $ec"
"$mc" pool-create "$r3" --size 3 "$CLUSTER_DIR" 2>/dev/null || fail "pool-create $r3"
# Without allow_ec_overwrites: what rbd cannot write to.
ceph_cli osd pool create "$noow" 8 8 erasure "$ec-profile" >/dev/null 2>&1 || fail "create $noow"

echo "== 1, 2: rados on the EC pool and on a replicated size 3 one"
"$CCBENCH" rados write -p "$ec" -b 64K -t 4 --total 16M -q -f json >ra.json
jcheck ra.json 'd["status"] == "ok" and d["pools"]["data"]["erasure"]["k"] == 2' \
	'"metadata" not in d["pools"] and d["space"]["reliable"] is True' \
	'1.45 <= d["space"]["amplification"] <= 1.55'
"$CCBENCH" rados write -p "$r3" -b 64K -t 4 --total 8M -q -f json >r3.json
jcheck r3.json 'd["pools"]["data"]["type"] == "replicated" and "erasure" not in d["pools"]["data"]' \
	'2.9 <= d["space"]["amplification"] <= 3.1'
echo "note: rados 16M (x3: 8M) in 64K objects: EC 2+1 $(jget ra.json 'round(d["space"]["amplification"], 3)'), replicated x3 $(jget r3.json 'round(d["space"]["amplification"], 3)')"

# The mon's df lags the OSDs by a stats period: a run's figures are
# only its own once the removals of the run before have been counted
# (the run would rightly call them another client's).
empty() {
	ceph_cli df detail -f json | python3 -c 'import json,sys; sys.exit(0 if [p for p in json.load(sys.stdin)["pools"] if p["name"] == sys.argv[1]][0]["stats"]["objects"] == 0 else 1)' "$1"
}
wait_for 30 "$ec to be empty" empty "$ec"
echo "== 1, 2: rbd on an EC data pool, one pass of whole stripes"
# The release's default plugin (Pacific jerasure, Tentacle isa), as the CLI reads the profile.
ceph_cli osd erasure-code-profile get "$ec-profile" -f json >profile.json
plugin=$(jget profile.json 'd.get("plugin", "")') technique=$(jget profile.json 'd.get("technique", "")')
"$CCBENCH" rbd write -p "$r3" --data-pool "$ec" --size 32M --io-size 64K -t 4 -q -f json >w.json
jcheck w.json \
	'd["status"] == "ok" and d["bytes"] == 32 << 20' \
	'd["pools"]["metadata"]["name"] == "'"$r3"'" and d["pools"]["metadata"]["type"] == "replicated"' \
	'd["pools"]["metadata"]["size"] == 3 and d["pools"]["metadata"]["min_size"] == 2' \
	'd["pools"]["data"]["name"] == "'"$ec"'" and d["pools"]["data"]["type"] == "erasure"' \
	'd["pools"]["data"]["pg_num"] == 8 and d["pools"]["data"]["application"] == ["rbd"]' \
	'd["pools"]["data"]["erasure"]["k"] == 2 and d["pools"]["data"]["erasure"]["m"] == 1' \
	'd["pools"]["data"]["erasure"]["plugin"] == "'"$plugin"'" and d["pools"]["data"]["erasure"].get("technique", "") == "'"$technique"'"' \
	'd["pools"]["data"]["erasure"]["crush_failure_domain"] == "osd"' \
	'd["pools"]["data"]["erasure"]["stripe_unit"] == 4096 and d["pools"]["data"]["erasure"]["stripe_width"] == 8192' \
	'd["pools"]["data"]["erasure"]["allow_ec_overwrites"] is True' \
	'd["pools"]["data"]["erasure"]["allow_ec_optimizations"] in ("not on this release", False)' \
	'd["space"]["pool"] == "'"$ec"'" and d["space"]["reliable"] is True' \
	'd["space"]["bytes_written"] == 32 << 20' \
	'abs(d["space"]["raw_per_stored"] - 1.5) < 0.01' \
	'1.45 <= d["space"]["amplification"] <= 1.55' \
	'any(e["kind"] == "ec" and "whole stripes" in e["text"] for e in d["explain"])' \
	'not any("read-modify-write" in e["text"] for e in d["explain"])'
echo "note: EC 2+1, 32M written in 64K: amplification $(jget w.json 'round(d["space"]["amplification"], 3)') ($(jget w.json 'd["space"]["amplification_of"]'))"
"$CCBENCH" report w.json >w.txt
grep -q "^pool data          $ec: EC 2+1 ($plugin $technique, failure domain osd), stripe_unit 4K, overwrites on" w.txt ||
	fail "text: no pool line: $(grep pool w.txt)"
grep -q "^space              $ec: STORED +" w.txt || fail "text: no space line"

echo "== 3: partial stripes and small reads"
"$CCBENCH" rbd randwrite -p "$r3" --data-pool "$ec" --size 32M --io-size 4K -d 1s -q -f json >rw.json
jcheck rw.json 'd["status"] == "ok"' \
	'any(e["kind"] == "ec" and e["severity"] == "warn" and "read-modify-write" in e["text"] and "2 x 4K = 8K" in e["text"] for e in d["explain"])'
"$CCBENCH" rbd randread -p "$r3" --data-pool "$ec" --size 32M --io-size 4K -d 1s -q -f json >rr.json
jcheck rr.json 'd["status"] == "ok" and "space" not in d' \
	'any(e["kind"] == "ec" and "2 data shards" in e["text"] for e in d["explain"])'

# FastEC where the release has it (Tentacle): the same pool with
# allow_ec_optimizations, and the explain lines it changes.
if ceph_cli osd pool get "$ec" allow_ec_optimizations >/dev/null 2>&1; then
	echo "== 3: FastEC"
	fast=$POOL-fast
	on_exit "$mc" pool-rm "$fast" "$CLUSTER_DIR"
	"$mc" pool-create "$fast" --ec 2+1 --fastec "$CLUSTER_DIR" 2>/dev/null || fail "pool-create $fast"
	"$CCBENCH" rbd randwrite -p "$r3" --data-pool "$fast" --fastec-pool "$fast" --size 32M --io-size 4K -d 1s -q -f json >fw.json
	jcheck fw.json 'd["status"] == "ok"' \
		'd["pools"]["data"]["erasure"]["allow_ec_optimizations"] is True' \
		'any(e["kind"] == "ec" and "parity-delta" in e["text"] for e in d["explain"])' \
		'not any("read-modify-write" in e["text"] for e in d["explain"])'
	"$CCBENCH" rbd randread -p "$r3" --data-pool "$fast" --size 32M --io-size 4K -d 1s -q -f json >fr.json
	jcheck fr.json 'any(e["kind"] == "ec" and "one shard" in e["text"] for e in d["explain"])'
	jcheck w.json 'd["pools"]["data"]["erasure"]["allow_ec_optimizations"] is False'
	echo "note: FastEC 4K randwrite $(jget fw.json 'round(d["bandwidth_mib_s"], 1)') MiB/s, classic $(jget rw.json 'round(d["bandwidth_mib_s"], 1)') MiB/s"
else
	jcheck w.json 'd["pools"]["data"]["erasure"]["allow_ec_optimizations"] == "not on this release"'
fi

echo "== 4: bad input, refused before any image is made"
expect_refused "no such pool" "$CCBENCH" rbd write -p "$r3" --data-pool "$POOL-nope" --size 16M -d 1s
expect_refused "is replicated, not erasure-coded (--data-pool-type)" \
	"$CCBENCH" rbd write -p "$r3" --data-pool "$r3" --data-pool-type erasure --size 16M -d 1s
expect_refused "is replicated, not erasure-coded" \
	"$CCBENCH" rados write -p "$r3" --data-pool-type erasure -d 1s
expect_refused "erasure-coded without allow_ec_overwrites" \
	"$CCBENCH" rbd write -p "$r3" --data-pool "$noow" --size 16M -d 1s
expect_refused "has no FastEC" "$CCBENCH" rbd write -p "$r3" --data-pool "$ec" --fastec-pool "$ec" --size 16M -d 1s
expect_refused "metadata needs a replicated pool" "$CCBENCH" rbd write -p "$ec" --size 16M -d 1s
expect_refused "data-pool-type" "$CCBENCH" rbd write --data-pool-type mirrored --size 16M -d 1s
# The shipped config's FastEC points: planned with a note by a dry run
# (which asks no cluster), refused when run on a pool without FastEC.
top=$(cd "$(dirname "$0")/../.." && pwd)
printf '[global]\nmon host = 127.0.0.1:1\n' >dead.conf
env -u CEPH_CONF "$CCBENCH" -c dead.conf sweep "$top/configs/ec-vs-replicated.json" --dry-run >dry.txt ||
	fail "dry run: exit $?"
grep -q "^FastEC: 15 points need a data pool with allow_ec_optimizations" dry.txt || fail "dry run: no FastEC note"
# (On Tentacle, $ec is a classic EC pool: FastEC off, refused all the same.)
expect_refused "has no FastEC" "$CCBENCH" sweep "$top/configs/ec-vs-replicated.json" -p "$r3" \
	--param "data-pool=[\"$ec\"]" --param fastec-pool="$ec" --param io-size=4K \
	--param 'command=["rbd write"]' --param size=16M --param duration=1s -q
[ -z "$(rbd ls "$r3")" ] || fail "an image was made: $(rbd ls "$r3")"

echo "== 5: degraded reads"
# An EC pool's min_size is k+1 (3 here): with one of the 3 OSDs down its
# PGs keep 2 shards and go inactive, and every read waits. min_size k lets
# them serve reads from the 2 left, decoding what the missing one held.
ceph_cli osd pool set "$ec" min_size 2 >/dev/null 2>&1 || fail "min_size"
on_exit rbd rm "$r3/$img"
rbd create "$r3/$img" --size 16M --data-pool "$ec" || fail "rbd create"
"$CCBENCH" rbd write --image "$r3/$img" --allow-write-existing --io-size 1M -q -f json >fill.json
"$CCBENCH" rbd read --image "$r3/$img" --io-size 1M -d 1s -q -f json >healthy.json
jcheck healthy.json 'd["status"] == "ok"' \
	'not any("degraded" in e["text"] for e in d["explain"] if e["kind"] == "ec")'
on_exit "$mc" osd-start 2 "$CLUSTER_DIR"
"$mc" osd-stop 2 "$CLUSTER_DIR" 2>/dev/null
# Degraded as the monitor's status says it, which ccbench's cluster_state
# reads: the mgr's own PG list (pg ls-by-pool) is ahead of the digest it
# sends the monitor by up to a few seconds (CI run M: degraded in the
# list, pgs_degraded 0 in the run's start).
degraded() {
	ceph_cli status -f json 2>/dev/null | python3 -c '
import json, sys
d = json.load(sys.stdin)
sys.exit(0 if any("degraded" in s["state_name"] for s in d["pgmap"].get("pgs_by_state", [])) else 1)'
}
wait_for 30 "the PGs of $ec degraded" degraded
timed "$CCBENCH" rbd read --image "$r3/$img" --io-size 1M -d 1s --op-timeout 10s -q -f json >deg.json
[ "$RC" = 0 ] || fail "degraded read: exit $RC"
jcheck deg.json 'd["status"] == "ok" and d["bytes"] > 0' \
	'd["cluster_state"]["start"]["pgs_degraded"] > 0' \
	'any(e["kind"] == "ec" and "degraded reads" in e["text"] and "min_size 2" in e["text"] for e in d["explain"])'
"$mc" osd-start 2 "$CLUSTER_DIR" 2>/dev/null
wait_osds_up
echo "note: 1M reads, healthy $(jget healthy.json 'round(d["bandwidth_mib_s"])') MiB/s, one OSD down $(jget deg.json 'round(d["bandwidth_mib_s"])') MiB/s ($(jget deg.json 'd["cluster_state"]["start"]["pgs_degraded"]') PGs degraded)"
