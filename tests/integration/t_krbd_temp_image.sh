# krbd without --device or --map reads a temporary prefilled image laid out
# by the rbd flags, mapped for the run and removed after; with --keep the
# same image serves `rbd read --image`. Layout flags with --device/--map: exit 2.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

"$CCBENCH" krbd read --size 32M --order 20 --read-ahead-kb 512 --map-via fuse-loop -q -f json >k.json
[ "$(jget k.json 'd["bytes"]')" = $((32 << 20)) ] || fail "one pass over the image"
[ "$(jget k.json 'd["layout"]["image"]["object_size"]')" = 1048576 ] || fail "order 20"
[ "$(jget k.json 'd["layout"]["read_ahead_kb"]["after"] == d["layout"]["read_ahead_kb"]["before"]')" = True ] || fail "restore"
[ -z "$(new_images)" ] || fail "temporary image left: $(new_images)"
# Only ours: other tests on this machine attach and detach loop devices too.
assert_unmapped

"$CCBENCH" krbd read --size 16M --keep --map-via fuse-loop -q -f json >kk.json
img=$(jget kk.json 'd["layout"]["image"]["image"]')
"$CCBENCH" rbd read --image "rbd/$img" -q -f json >r.json
[ "$(jget r.json 'd["bytes"]')" = $((16 << 20)) ] || fail "rbd read of the kept image"
rbd rm "rbd/$img" >/dev/null 2>&1

expect_rc 2 "$CCBENCH" krbd read --map rbd/x --order 20 -q
expect_rc 2 "$CCBENCH" krbd read --device /dev/loop0 --size 1G -q
