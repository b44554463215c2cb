# A pool over quota: Pacific's librados waits instead of returning EDQUOT, so
# the run must end at --op-timeout with a clear message, a partial result,
# and its objects removed (removal works on a full pool).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ceph_cli osd pool create quota 8 >/dev/null 2>&1
ceph_cli osd pool application enable quota rados >/dev/null 2>&1
ceph_cli osd pool set-quota quota max_bytes $((40 * 1048576)) >/dev/null
timed "$CCBENCH" rados write -p quota -d 120s --op-timeout 6s -b 4M -t 8 -f json -q >q.json 2>q.err
[ "$RC" = 1 ] || fail "exit $RC"
[ "$ELAPSED" -le 40 ] || fail "took $ELAPSED s"
[ "$(jget q.json 'd["status"]')" = aborted ] || fail "status"
jget q.json 'd["reason"]' | grep -q "over its quota" || fail "reason: $(jget q.json 'd["reason"]')"
[ "$(jget q.json 'd["ops"] > 0')" = True ] || fail "no partial result"
grep -q "over its quota" q.err || fail "no message on stderr"
[ -z "$(ns_objects ccbench quota)" ] || fail "objects left in the full pool"
# Once the osdmap flags the pool full, a new write is refused at once. The
# run above removed its objects, so fill the pool by hand and keep it full.
head -c $((48 * 1048576)) /dev/urandom >filler
rados -p quota put filler filler
for i in $(seq 1 30); do
	ceph_cli osd pool ls detail | grep "'quota'" | grep -q full_quota && break
	sleep 1
done
timed "$CCBENCH" rados write -p quota -d 5s --op-timeout 6s -q
[ "$RC" = 1 ] && [ "$ELAPSED" -le 3 ] || fail "write to a full pool: exit $RC after $ELAPSED s"
rados -p quota rm filler --force-full
ceph_cli osd pool set-quota quota max_bytes 0 >/dev/null
