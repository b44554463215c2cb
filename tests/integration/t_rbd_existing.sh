# An existing image is read read-only and left byte-identical; write modes on
# it are refused (exit 2) unless --allow-write-existing; it is never removed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

rbd create rbd/keepme --size 32M
rbd bench --io-type write --io-size 1M --io-total 32M rbd/keepme >/dev/null
sum() { rbd export rbd/keepme - 2>/dev/null | md5sum; }
before=$(sum)
"$CCBENCH" rbd read --image rbd/keepme -q -f json >r.json
[ "$(jget r.json 'd["bytes"]')" = $((32 << 20)) ] || fail "read one pass"
[ "$(jget r.json 'd["layout"]["temporary"]')" = False ] || fail "temporary flag"
"$CCBENCH" rbd randread --image keepme -p rbd -d 2s -t 4 -q >/dev/null
"$CCBENCH" rbd read --image rbd/keepme -d 2s --readahead 1M -q >/dev/null
expect_rc 2 "$CCBENCH" rbd write --image rbd/keepme -q
expect_rc 2 "$CCBENCH" rbd randwrite --image rbd/keepme -q
expect_rc 2 "$CCBENCH" rbd rw --image rbd/keepme -q
expect_rc 2 "$CCBENCH" rbd read --image rbd/keepme --size 1G -q
[ "$(sum)" = "$before" ] || fail "existing image changed"
rbd info rbd/keepme >/dev/null || fail "existing image removed"
[ "$(rbd snap ls rbd/keepme | wc -l)" = 0 ] || fail "snapshot taken"
# Explicitly allowed, a write goes into it (and it is still not removed).
"$CCBENCH" rbd write --image rbd/keepme --allow-write-existing --total 4M -q >/dev/null
rbd info rbd/keepme >/dev/null || fail "removed after an allowed write"
rbd rm rbd/keepme >/dev/null 2>&1
