# Bad rbd input: one message, exit 2, nothing created.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

before=$(rbd ls rbd | md5sum)
chk() { expect_refused --one "$1" "$CCBENCH" "${@:2}"; }
chk "order '26'" rbd read --order 26
chk "order '11'" rbd read --order 11
chk "power of two" rbd read --object-size 3M
chk "does not divide" rbd read --object-size 1M --stripe-unit 3M
chk "larger than the image" rbd read --size 1M --io-size 2M
chk "no such image" rbd read --image rbd/nonexistent
chk "no such pool" rbd read -p nosuchpool
chk "no such pool" rbd read --image nosuchpool/img
chk "unknown feature" rbd write --image-features layering,warp-drive
chk "not to --image" rbd read --image rbd/x --order 20
chk "expected one of" rbd read --cache-policy sometimes
chk "conflicts" rbd read --no-cache --readahead 1M
rbd create rbd/mine --size 8M
chk "allow-write-existing" rbd write --image rbd/mine
chk "larger than image" rbd read --image rbd/mine --io-size 16M
rbd rm rbd/mine >/dev/null 2>&1
[ "$(rbd ls rbd | md5sum)" = "$before" ] || fail "an image was created or removed"
