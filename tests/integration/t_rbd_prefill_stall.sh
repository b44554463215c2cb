# Every OSD frozen while ccbench fills its temporary image (before any
# measurement): librbd's own wait has no bound, so the fill polls; the
# writes time out (librados, --op-timeout) or, should librbd not return
# them, the poll gives up at --op-timeout + 5 s. Either way the run ends
# bounded with the cause said, and the image's removal (it cannot reach
# the OSDs either) says how to remove it later, naming its data objects:
# the OSDs carry out the timed-out removal in part once thawed (the image
# gone from `rbd ls`, data objects left). Done as said, nothing is left.
# (A fill hung like this once outlived the cluster it was filling: SIGTERM
# could not end it.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

T=3
pids=$(cat "$CLUSTER_DIR"/run/osd.*.pid)
thaw() { for p in $pids; do kill -CONT "$p" 2>/dev/null || true; done; }
on_exit thaw
# The fill must still be running 0.5 s after it starts, on any host: a fast
# one filled 2G in 2 s. A simulated OSD latency of 200 ms (on average, on
# each reply) caps the fill (16 writes of 4 MiB in flight) at about
# 320 MiB/s whatever the host, so 2G takes 6 s or more.
"$CCBENCH" rbd read --size 2G --op-timeout ${T}s --sim-osd-latency 200ms -f json >f.json 2>f.err &
pid=$!
wait_grep f.err "filling"
sleep 0.5
for p in $pids; do kill -STOP "$p"; done
t_stop=${EPOCHREALTIME/./}
# The fill's bound (T + 5 s), then the image's removal (mon and OSD ops,
# --op-timeout each) and the disconnect.
poll 60 exited $pid || {
	thaw
	fail "frozen OSDs during the fill: still running 60 s later: $(tail -5 f.err)"
}
rc=0
wait $pid || rc=$?
secs=$(((${EPOCHREALTIME/./} - t_stop) / 1000000))
thaw
[ $rc != 0 ] || fail "frozen OSDs during the fill: exit 0"
[ $rc -lt 128 ] || fail "frozen OSDs during the fill: killed by a signal ($rc): $(tail -5 f.err)"
grep -qE "filling rbd/ccbench-[^:]*: (a write outstanding for more than $((T + 5)) s|rbd_aio_write: Connection timed out)" f.err ||
	fail "the cause is not said: $(cat f.err)"
grep -qE "rbd_remove\(rbd/ccbench-[^)]*\): .*remove it with: rbd rm rbd/ccbench-.* its data objects are the rbd_data\.[0-9a-f]+\.\* objects" f.err ||
	fail "the removal's failure does not say how to remove what is left: $(cat f.err)"
img=$(sed -n 's/.*remove it with: rbd rm rbd\/\(ccbench-[^ ]*\) .*/\1/p' f.err | head -1)
prefix=$(sed -n 's/.*its data objects are the \(rbd_data\.[0-9a-f]*\)\.\* objects.*/\1/p' f.err | head -1)
wait_osds_up
sleep 2 # the OSDs carry out what reached them while frozen
# A user finishes once the cluster is healthy again: every PG active+clean
# (the freeze can leave one "laggy" for good; settle_pgs restarts its
# primary, as seen in CI on 2026-12-02, when restore's removal timed out).
settle_pgs "after the thaw" || fail "the cluster did not settle after the thaw"
# Done as the run said, as a user would: its record first (`ccbench
# restore` removes the image while the name holds the run's image, even
# when the timed-out removal had taken it out of `rbd ls`), then the data
# objects by their prefix. Bounded, so that a removal that hangs fails this
# test and not the run.
grep -q "(or ccbench restore, from its record)" f.err || fail "the record is not named: $(cat f.err)"
rc=0
timeout 120 "$CCBENCH" restore >rs.out 2>rs.err || rc=$?
[ $rc = 0 ] || fail "ccbench restore: exit $rc: $(cat rs.out rs.err)"
grep -qE "removed the temporary image rbd/$img|temporary image rbd/$img: no longer there" rs.out ||
	fail "restore said: $(cat rs.out rs.err)"
for o in $(timeout 60 rados -p rbd ls | grep "^$prefix\." || true); do
	timeout 30 rados -p rbd rm "$o" || fail "rados -p rbd rm $o failed or hung"
done
echo "note: frozen OSDs during the fill (--op-timeout ${T}s): ccbench exited $secs s after the freeze"
