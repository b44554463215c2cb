# Where the time went on a size-3 pool (docs/attribution.md):
#   - replication: an image of one object; a replica of it (not its
#     primary) delays what it gets from other OSDs by up to 20 ms
#     (ms_inject_delay_type osd, then `osd down` so that its peers connect
#     again and meet the delay). rbd randwrite without the cache, depth 1:
#     explain says the writes waited for a replica and names that OSD (its
#     own replica writes, subop_w_latency, against the other replica's);
#     when the OSDs kept the run's slowest ops, their largest stage is the
#     wait for replicas.
#   - balanced reads: rbd_read_from_replica_policy=balance on the same
#     image (after three more writes to its PG, so that the replicas know
#     its data is committed and serve it): the OSDs' own read counters show
#     reads served by the replicas, while the client-side figures count
#     every op on the primary, and explain says so.
# The pool goes back to size 1 with the test's pool; the delay is put back
# on every end. About 50 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

no_osd_delay || fail "an OSD injects delays before the test"
ceph_cli osd pool set "$POOL" size 3 --yes-i-really-mean-it >/dev/null 2>&1 ||
	fail "pool $POOL: size 3"
pgs_clean_within 60 || fail "PGs not clean after size 3: $(unclean_primaries 2>&1)"
IMG=attr$$
on_exit sh -c 'timeout 60 rbd rm "$0" >/dev/null 2>&1' "$POOL/$IMG"
rbd create "$POOL/$IMG" --size 4M >/dev/null
rbd bench --io-type write --io-size 4M --io-total 4M "$POOL/$IMG" >/dev/null 2>&1 ||
	fail "rbd bench write of $POOL/$IMG"
obj=$(rbd info "$POOL/$IMG" --format json | jq -r .block_name_prefix).0000000000000000
read -r pg P R OTHER < <(ceph_cli osd map "$POOL" "$obj" -f json |
	python3 -c 'import json,sys; d=json.load(sys.stdin); a=d["acting"]; print(d["pgid"], d["acting_primary"], a[1], a[2])')
echo "note: $obj in PG $pg: primary osd.$P, replicas osd.$R (delayed) and osd.$OTHER"

on_exit osd_delay_clear "$R"
osd_delay "$R" osd 0.02 || fail "could not set the delay on osd.$R"
ceph_cli osd down "$R" >/dev/null 2>&1
sleep 2
wait_osds_up
# Its PGs peer and recover again, with every message of osd.R delayed: on a
# loaded host other pools' PGs (an earlier test's objects) took more than
# 60 s (CI: pool 1 active+recovery_wait+remapped). Then wait while they
# recover (no OSD restart: it would drop the delay).
if ! pgs_clean_within 60; then
	recovering_objects >/dev/null && echo "note: PGs recovering after 60 s ($(recovering_objects) objects); waiting while they move"
	recovered_within 180 || fail "PGs not clean after osd.$R came back: $(unclean_primaries 2>&1)"
fi
[ "$(ceph_cli osd map "$POOL" "$obj" -f json | jq -r .acting_primary)" = "$P" ] ||
	fail "the primary of $obj moved"

"$CCBENCH" rbd randwrite --image "$POOL/$IMG" --allow-write-existing --no-cache --io-size 4K \
	-t 1 -d 4s -f json >rep.json 2>rep.err || fail "randwrite: exit $?: $(tail -3 rep.err)"
"$CCBENCH" explain rep.json >rep.why
grep -q "writes waited for a replica: osd\.$R's own replica writes took" rep.why ||
	fail "no replica named: $(grep why rep.why)"
jcheck rep.json \
	"[o for o in d['attribution']['osds'] if o['osd'] == $P][0]['ops'] == d['attribution']['client']['ops']" \
	"(lambda s: s[$R] >= 3 * s[$OTHER])({o['osd']: o['perf']['counters']['subop_w_latency']['mean_us'] for o in d['attribution']['osds'] if o['osd'] != $P})"
# The slowest ops, when the OSDs kept enough of this run's among theirs.
python3 - rep.json "$R" <<'PY' || fail "slow ops: the replicas' wait is not their largest stage"
import json, sys
so = json.load(open(sys.argv[1]))["attribution"]["slow_ops"]
if so["primary_ops"] >= 3:
    share = so["stage_share"]
    assert max(share, key=share.get) == "replicas", share
    last = so["last_replica"]
    assert not last or max(last, key=last.get) == "osd." + sys.argv[2], last
PY
echo "note: replica: $(grep -o "writes waited for a replica.*" rep.why); slow ops: $(jget rep.json '(lambda s: "%d of the run, replicas %.0f %%, last %s" % (s["primary_ops"], 100 * s["stage_share"]["replicas"], s["last_replica"]))(d["attribution"]["slow_ops"])')"
osd_delay_clear "$R"

# More writes to the object's PG: the replicas learn that the image's
# data is committed, and may serve it (Pacific: after one; Reef: after two,
# measured in its release image; three for any).
bumps=0
for i in $(seq 0 1000); do
	[ "$(ceph_cli osd map "$POOL" "bump$i" -f json | jq -r .pgid)" = "$pg" ] || continue
	on_exit rados -p "$POOL" rm "bump$i"
	rados -p "$POOL" put "bump$i" /etc/hostname
	bumps=$((bumps + 1))
	[ "$bumps" = 3 ] && break
done
[ "$bumps" = 3 ] || fail "no 3 object names in PG $pg"
"$CCBENCH" rbd randread --image "$POOL/$IMG" --io-size 4K -t 4 --total 4M \
	-o rbd_read_from_replica_policy=balance -f json >bal.json 2>bal.err ||
	fail "balanced randread: exit $?: $(tail -3 bal.err)"
jcheck bal.json \
	"d['layout']['librbd']['rbd_read_from_replica_policy'] == 'balance'" \
	"[o for o in d['attribution']['osds'] if o['osd'] == $P][0]['ops'] == d['ops']" \
	"sum(o['perf']['op_r'] for o in d['attribution']['osds'] if o['osd'] != $P) >= d['ops'] // 10" \
	"any(e['kind'] == 'osd' and 'rbd_read_from_replica_policy=balance' in e['text'] and 'on its PG' in e['text'] and 'primary' in e['text'] for e in d['explain'])"
echo "note: balance: $(jget bal.json '", ".join("osd.%d served %d reads" % (o["osd"], o["perf"]["op_r"]) for o in d["attribution"]["osds"])') of $(jget bal.json 'd["ops"]') ops"
