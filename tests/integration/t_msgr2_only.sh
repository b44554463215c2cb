# A mon that speaks msgr2 only (ms_bind_msgr1 = false, as clusters set up
# for Tentacle's msgr2 defaults are): scripts/minicluster.sh --msgr2-only
# makes one (its own one-OSD cluster, beside run.sh's), its monmap has no v1
# address and nothing listens on a v1 port, and ccbench's rados path writes
# to it and cleans up.  About 20 s (most of it the second cluster's start).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
top=$(cd "$(dirname "$0")/../.." && pwd)

c=$WORK/msgr2-$$
stop_c() { "$top/scripts/minicluster.sh" stop "$c" >/dev/null 2>&1 || true; }
on_exit stop_c
"$top/scripts/minicluster.sh" start --msgr2-only --osds 1 --osd-mem 256M "$c" >/dev/null 2>start.err ||
	fail "minicluster --msgr2-only did not start: $(tail -3 start.err)"
conf=$c/ceph.conf
grep -q '^[[:space:]]*ms bind msgr1 = false$' "$conf" || fail "conf: no 'ms bind msgr1 = false'"
timeout 60 ceph -c "$conf" --connect-timeout 10 mon dump -f json >monmap.json 2>/dev/null || fail "mon dump"
jcheck monmap.json '[a["type"] for a in d["mons"][0]["public_addrs"]["addrvec"]] == ["v2"]'
# Bounded by bytes too: a fast host fills the 256M OSD in 2 s (forky: ENOSPC).
"$CCBENCH" rados write -c "$conf" -p rbd -d 2s --total 32M -b 64K -t 4 -q -f json >w.json || fail "rados write exit $?"
[ "$(jget w.json 'd["status"]')" = ok ] || fail "status $(jget w.json 'd["status"]')"
[ "$(jget w.json 'd["ops"] > 0')" = True ] || fail "no ops"
[ -z "$(timeout 60 rados -c "$conf" -p rbd --all ls 2>/dev/null | grep -v '^	rbd_')" ] || fail "objects left in the msgr2-only cluster"
