# fs: bad input is refused with exit 2 before anything is mounted or made
# (bad -n spec, block size over file size, stripe unit not dividing the
# object size, ...), and with a clear message naming the option.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# A cluster nobody answers for: a mount attempt would wait out the 60 s
# --connect-timeout, so a quick exit 2 shows the input was refused first.
printf '[global]\n\tmon host = 127.0.0.1:1\n' >nomon.conf

# refuse PATTERN ARGS...: exit 2, one message with PATTERN, without mounting.
nomon() { "$CCBENCH" "$@" -q -c nomon.conf --connect-timeout 60s; }
refuse() { expect_refused --within 20 --one "$1" nomon "${@:2}"; }
# refuse_live PATTERN ARGS...: the same against the test cluster, for the
# mistakes only the cluster can tell (no such pool, directory).
refuse_live() { expect_refused --one "$1" "$CCBENCH" "${@:2}" -q; }

refuse "MAX 'x'" fs meta -n 1:x
refuse "N must be" fs meta -n 0
refuse "N must be" fs meta -n 99999
refuse "MIN larger than MAX" fs meta -n 1:4k:8k
refuse "at most 4 fields" fs meta -n 1:4k:0:1:2
refuse "is empty" fs meta -n 1::0
refuse "is empty" fs meta --files :4k
refuse "larger than --file-size" fs write --block-size 8M --file-size 4M
refuse "larger than --file-size" fs read --block-size 8M --file-size 4M
refuse "does not divide the object size" fs write --object-size 4M --stripe-unit 3M
refuse "does not divide the object size" fs write --object-size 1M --stripe-unit 4M
refuse "does not divide the object size" fs write --stripe-unit 3M
refuse "multiple of 64K" fs write --stripe-unit 32K
refuse "multiple of 64K" fs write --object-size 100K
refuse "--dir 'rel'" fs write --dir rel
refuse "--dir '/a/../b'" fs write --dir /a/../b
refuse "--block-size '1K'" fs write --block-size 1K
refuse "--clients must be 1" fs meta --clients 2
refuse "not an option of this command" fs write --queue-depth 4
# These need the cluster to tell, but are still the user's mistake.
refuse_live "no such pool" fs write --data-pool ccbt-nosuchpool --file-size 4M
refuse_live "write it first" fs read --dir /ccbt-nosuchdir
refuse_live "parent directory does not exist" fs write --dir /ccbt-nosuchdir/sub --file-size 4M
echo "fs bad input: ok"
