# An OSD stops answering mid-run (pool size 1, so its PGs have no other copy):
# the op timeout fires, the run ends bounded with status aborted, and what
# cleanup could not remove is reported and removable later.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

osd_pid=$(cat "$CLUSTER_DIR"/run/osd.1.pid)
"$CCBENCH" rados write -p "$POOL" -d 120s --op-timeout 5s -b 1M -t 8 --run-name down -f json >d.json 2>d.err &
pid=$!
sleep 3
kill -STOP "$osd_pid"
timed wait $pid
kill -CONT "$osd_pid"
[ "$RC" = 1 ] || fail "exit $RC"
[ "$ELAPSED" -le 30 ] || fail "took $ELAPSED s after the OSD stopped"
[ "$(jget d.json 'd["status"]')" = aborted ] || fail "status"
jget d.json 'd["error"]' | grep -q "timed out" || fail "error: $(jget d.json 'd.get("error")')"
wait_osds_up
"$CCBENCH" cleanup -p "$POOL" --run-name down >/dev/null
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects | head -3)"
