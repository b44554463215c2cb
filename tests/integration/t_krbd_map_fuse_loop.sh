# --map via fuse-loop: reads the whole image once, read_ahead_kb set during
# the run (seen by a sidecar reading sysfs) and put back, the image layout
# in the result, and nothing of the mapping left afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

krbd_image fl 128M
"$CCBENCH" krbd read --map rbd/fl --map-via auto --read-ahead-kb 1024 -f json >r.json 2>r.err &
pid=$!
dev=$(mapped_loop) || fail "no loop device appeared"
seen=""
while kill -0 $pid 2>/dev/null; do
	v=$(ra "$dev" 2>/dev/null || true)
	[ "$v" = 1024 ] && seen=1024
	sleep 0.05
done
wait $pid || fail "exit $?: $(cat r.err)"
[ "$seen" = 1024 ] || fail "sidecar never saw read_ahead_kb 1024 on $dev"
[ "$(jget r.json 'd["status"]')" = ok ] || fail "status"
[ "$(jget r.json 'd["bytes"]')" = $((128 << 20)) ] || fail "bytes $(jget r.json 'd["bytes"]')"
[ "$(jget r.json 'd["layout"]["map_via"]')" = fuse-loop ] || fail "map_via"
[ "$(jget r.json 'd["layout"]["read_ahead_kb"]["during"]')" = 1024 ] || fail "during"
[ "$(jget r.json 'd["layout"]["read_ahead_kb"]["after"] == d["layout"]["read_ahead_kb"]["before"]')" = True ] ||
	fail "after != before"
[ "$(jget r.json 'd["layout"]["cache_dropped"]')" = True ] || fail "cache_dropped"
[ "$(jget r.json 'd["layout"]["image"]["order"]')" = 22 ] || fail "image order"
[ "$(jget r.json 'd["layout"]["queue"]["logical_block_size"]')" = 512 ] || fail "queue"
# The warning itself, not "map_via": "fuse-loop" (checked above).
jcheck r.json 'any(w.startswith("fuse-loop: ") and " over rbd-fuse " in w for w in d["warnings"])'
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left: $(state_files)"

# --direct at depth and randread through the same mapping.
"$CCBENCH" krbd read --map rbd/fl --direct -t 8 -q -f json >d.json || fail "direct exit $?"
[ "$(jget d.json 'd["bytes"]')" = $((128 << 20)) ] || fail "direct bytes"
[ "$(jget d.json 'd["layout"]["readahead_applies"]')" = False ] || fail "readahead_applies"
"$CCBENCH" krbd randread --map rbd/fl --io-size 4K -d 2s -q -f json >x.json || fail "randread exit $?"
[ "$(jget x.json 'd["ops"] > 0 and d["errors"] == 0')" = True ] || fail "randread ops"
assert_unmapped
rbd rm rbd/fl >/dev/null 2>&1
