# A monitor that speaks msgr2 only, on a cluster of the test's own (with
# an MDS): its mon map holds its v2 address alone (`ceph mon set-addrs`;
# the mon rebinds and no longer listens on v1), and the conf names only
# that. Every path connects: rados, librbd, CephFS, the cluster state and
# the OSD scheduler, krbd over fuse-loop (rbd-fuse); the kernel map asks
# the driver for msgr2 (ms_mode=prefer-crc, the v2 address) on every
# release, and the result says ccbench chose it. About 60 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

own_cluster v2 --mds
export CEPH_CONF=$OWN_CONF
mon=$(sed -n 's/^[[:space:]]*mon host = //p' "$OWN_CONF")
v2=$(echo "$mon" | grep -o 'v2:[0-9.]*:[0-9]*' | cut -d: -f2-)
v1=$(echo "$mon" | grep -o 'v1:[0-9.]*:[0-9]*' | cut -d: -f2-)
[ -n "$v2" ] && [ -n "$v1" ] || fail "mon host '$mon': no v2 and v1 address"
ceph_cli mon set-addrs a "[v2:$v2]" >/dev/null 2>&1 || fail "mon set-addrs a [v2:$v2]"
sed -i "s|^\([[:space:]]*mon host = \).*|\1[v2:$v2]|" "$OWN_CONF"
v1_gone() { ! ss -ltn | gq " ${v1} "; }
wait_for 60 "the mon to stop listening on v1 $v1" v1_gone
mons_v2_only() { ceph_cli mon dump -f json 2>/dev/null | python3 -c '
import json, sys
t = [a["type"] for m in json.load(sys.stdin)["mons"] for a in m["public_addrs"]["addrvec"]]
sys.exit(0 if t == ["v2"] else 1)'; }
wait_for 60 "a mon map of v2 addresses only" mons_v2_only
ceph_cli osd pool create v2p 16 >/dev/null 2>&1
ceph_cli osd pool application enable v2p rados >/dev/null 2>&1

# librados, and the mon and OSD queries beside the run.
"$CCBENCH" rados write -p v2p -b 64K -d 1s --no-cleanup --run-name v2 -q -f json >w.json || fail "rados write: exit $?"
"$CCBENCH" rados seq -p v2p --run-name v2 -q -f json >s.json || fail "rados seq: exit $?"
for f in w.json s.json; do
	jcheck "$f" "d['status'] == 'ok'" "'error' not in d['cluster_state']['start']" \
		"'error' not in d['cluster_state']['start']['osd_scheduler']" \
		"'release' in d['releases']['cluster']"
done
"$CCBENCH" cleanup -p v2p --run-name v2 -q || fail "cleanup: exit $?"
# librbd.
"$CCBENCH" rbd write --size 16M --io-size 1M -q -f json >rbd.json || fail "rbd write: exit $?"
jcheck rbd.json "d['status'] == 'ok'" "d['bytes'] == 16 << 20"
# libcephfs, and its own connection for the cluster state.
"$CCBENCH" fs write --file-size 4M --block-size 1M -q -f json >fs.json || fail "fs write: exit $?"
jcheck fs.json "d['status'] == 'ok'" "'error' not in d['cluster_state']['start']"
# rbd-fuse.
rbd create "rbd/v2img" --size 16M || fail "rbd create"
drop() { rbd rm rbd/v2img >/dev/null 2>&1 || true; }
on_exit drop
"$CCBENCH" krbd read --map rbd/v2img --map-via fuse-loop -q -f json >fl.json || fail "fuse-loop: exit $?"
jcheck fl.json "d['status'] == 'ok'" "d['bytes'] == 16 << 20"
# The kernel driver's request: msgr2, whatever the CLI's release.
map_request req "$CCBENCH" krbd read --map rbd/v2img --map-via kernel -q
echo "note: rbd $(rbd --version | awk '{print $3}'): $(cat req)"
grep -q "^$v2 name=admin,.*ms_mode=prefer-crc" req || fail "not msgr2 prefer-crc to $v2: $(cat req)"
[ "$(cat req.rc)" = 130 ] || fail "interrupted map: exit $(cat req.rc): $(cat req.err)"
[ -z "$(state_files)" ] || fail "state files left: $(state_files)"
