# An OSD stops answering mid-run (pool size 1, so its PGs have no other copy)
# after 3 s of writes at full speed with 1M objects (thousands of objects on
# a fast machine): the op timeout fires, the run ends with status aborted,
# and its cleanup (every removal in flight at once, one deadline) ends too,
# all within --op-timeout + 15 s of the stop whatever the machine managed to
# write. What cleanup could not remove is reported with the exact command,
# and that command removes it once the OSD is back.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

osd_pid=$(cat "$CLUSTER_DIR"/run/osd.1.pid)
resume() { kill -CONT "$osd_pid" 2>/dev/null || true; }
on_exit resume
"$CCBENCH" rados write -p "$POOL" -d 120s --op-timeout 5s -b 1M -t 16 --run-name down -f json \
	>d.json 2>d.err &
pid=$!
sleep 3
kill -STOP "$osd_pid"
timed wait $pid
resume
cat d.err
[ "$RC" = 1 ] || fail "exit $RC"
[ "$ELAPSED" -le 20 ] || fail "took $ELAPSED s after the OSD stopped (bound: --op-timeout 5 s + 15 s)"
[ "$(jget d.json 'd["status"]')" = aborted ] || fail "status"
jget d.json 'd["error"]' | gq "timed out" || fail "error: $(jget d.json 'd.get("error")')"
echo "note: wrote $(jget d.json 'd["layout"]["objects"]') objects before the stop; ended $ELAPSED s after it"
wait_osds_up
if grep -q 'not removed' d.err; then
	cmd=$(grep -o 'remove them with: ccbench cleanup .*' d.err | head -1 | sed 's/remove them with: ccbench //')
	[ -n "$cmd" ] || fail "no cleanup command in: $(grep 'not removed' d.err)"
	# shellcheck disable=SC2086
	"$CCBENCH" $cmd >/dev/null
fi
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects | head -3)"
