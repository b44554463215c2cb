# --order 20 / 22 make images with 1 MiB / 4 MiB objects; the result records
# the layout and the librbd settings read back.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for order in 20 22; do
	"$CCBENCH" rbd write --size 32M --order $order --io-size 1M -t 4 --keep -q -f json >o$order.json
	img=$(jget o$order.json 'd["layout"]["image"]')
	want=$((1 << order))
	got=$(rbd info --format json "rbd/$img" | python3 -c 'import json,sys; print(json.load(sys.stdin)["object_size"])')
	[ "$got" = "$want" ] || fail "order $order: object_size $got"
	[ "$(jget o$order.json 'd["layout"]["object_size"]')" = "$want" ] || fail "result layout"
	[ "$(jget o$order.json 'd["bytes"]')" = $((32 << 20)) ] || fail "one pass writes the image once"
	rbd rm "rbd/$img" >/dev/null 2>&1
done
"$CCBENCH" rbd write --size 16M --object-size 1M --stripe-unit 64K --stripe-count 4 --io-size 64K --keep -q -f json >s.json
img=$(jget s.json 'd["layout"]["image"]')
rbd info --format json "rbd/$img" >info.json
[ "$(jget info.json 'd["stripe_unit"]')" = 65536 ] && [ "$(jget info.json 'd["stripe_count"]')" = 4 ] || fail "striping"
rbd rm "rbd/$img" >/dev/null 2>&1
"$CCBENCH" rbd read --size 16M --readahead 1M --readahead-trigger 4 --cache-size 8M -q -f json >r.json
[ "$(jget r.json 'd["layout"]["librbd"]["rbd_readahead_max_bytes"]')" = 1048576 ] || fail "readahead read back"
[ "$(jget r.json 'd["layout"]["librbd"]["rbd_readahead_trigger_requests"]')" = 4 ] || fail "trigger"
[ "$(jget r.json 'd["layout"]["librbd"]["rbd_cache_size"]')" = 8388608 ] || fail "cache size"
[ "$(jget r.json 'd["layout"]["librbd"]["rbd_readahead_disable_after_bytes"]')" = 0 ] || fail "disable-after default 0"
[ "$(jget r.json 'd["layout"]["librbd"]["rbd_cache_policy"]')" = writeback ] || fail "readahead implies writeback"
[ "$(jget r.json 'd["bytes"]')" = $((16 << 20)) ] || fail "one read pass"
[ -z "$(new_images)" ] || fail "images left: $(new_images)"
