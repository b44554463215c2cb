# A group member whose cluster goes away while it runs (every OSD stopped
# once the group started) ends bounded: status 1 within 20 s of the stop
# (--op-timeout 5 s for the run's own abort, 5 s for storing the result,
# unwinding), naming the call it gave up, and skipping the group ops after it
# (CI: a member hung > 3 min in rados_write_full storing its result; here the
# unfixed member, one op timeout after another, ended 24 s after the stop,
# the fixed one 10 s). The OSDs are always started again, and what the member
# could not remove is removed once they are back.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mc=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/minicluster.sh
osds=$(ceph_cli osd ls)
pid=
back() {
	[ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
	for id in $osds; do
		"$mc" osd-start "$id" "$CLUSTER_DIR" >/dev/null 2>&1 || echo "note: osd.$id did not come back up"
	done
	wait_osds_up || true
	settle_pgs "after the OSDs came back" || true
	timeout 60 rados -p "$POOL" purge "$POOL" --yes-i-really-really-mean-it >/dev/null 2>&1 || true
}
on_exit back

G=glost$$
# `timeout` bounds the test itself should the member hang.
timeout -k 5 100 "$CCBENCH" rados write -p "$POOL" -d 4s -b 64K -t 2 --op-timeout 5s \
	--group "$G" --members 1 --group-timeout 20s -q -f json >l.json 2>l.err &
pid=$!
started() { rados -p "$POOL" -N ccbench-groups listomapkeys "$G" 2>/dev/null | gq '^started$'; }
wait_for 20 "the group's start" started
sleep 1
for id in $osds; do
	"$mc" osd-stop "$id" "$CLUSTER_DIR" >/dev/null 2>&1
done
timed wait $pid
pid=
cat l.err
echo "note: the member ended $ELAPSED s after the OSDs stopped (exit $RC)"
if [ "$RC" = 124 ] || [ "$RC" = 137 ]; then
	fail "the member hung: killed by timeout after $ELAPSED s"
fi
[ "$RC" = 1 ] || fail "exit $RC"
[ "$ELAPSED" -le 20 ] || fail "took $ELAPSED s after the OSDs stopped (bound: 2 x --op-timeout 5 s + 10 s)"
grep -Eq "rados_write_full\($G\.result\..*timed out" l.err || fail "no message naming the store's call"
grep -q "gave up storing the result" l.err || fail "the member did not give up the group after the store"
