# Bad input: one message, exit 2, nothing changed (read_ahead_kb as it
# was, nothing mapped).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

file_loop 8
orig=$(ra "$LOOP")
check() { # check PATTERN ARGS...
	expect_refused --one "$1" "$CCBENCH" "${@:2}"
	[ "$(ra "$LOOP")" = "$orig" ] || fail "read_ahead_kb changed by: ${*:2}"
}
check "No such file" krbd read --device /dev/no-such-device --read-ahead-kb 1024
check "not a block device" krbd read --device /etc/hostname --read-ahead-kb 1024
check "read-ahead-kb '-1'" krbd read --device "$LOOP" --read-ahead-kb -1
check "read-ahead-kb 'lots'" krbd read --device "$LOOP" --read-ahead-kb lots
check "out of range" krbd read --device "$LOOP" --read-ahead-kb 2000000
check "beyond the end" krbd read --device "$LOOP" --offset 8M --read-ahead-kb 1024
check "multiple of 512" krbd read --device "$LOOP" --direct --io-size 1000
check "logical block size" krbd read --device "$LOOP" --direct --offset 100 --read-ahead-kb 64
check "applies to the temporary image" krbd read --device "$LOOP" --order 20
check "give one of --device" krbd read --device "$LOOP" --map rbd/x
check "expected POOL/IMAGE" krbd read --map nopool
check "buffered reads are one per stream" krbd read --device "$LOOP" -t 4
check "too small" krbd read --device "$LOOP" --streams 256 --io-size 1M
check "no such image" krbd read --map rbd/no-such-image --read-ahead-kb 1024
check "no such pool" krbd read --map no-such-pool/img
check "no rbd driver" krbd read --map rbd/x --map-via kernel
expect_refused --one "rbd-fuse is not in PATH" env PATH=/nonexistent "$CCBENCH" krbd read --map rbd/x --map-via fuse-loop
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left"
