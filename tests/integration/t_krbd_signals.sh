# Ctrl-C and SIGTERM mid-read restore read_ahead_kb and unmap (exit 130 /
# 143, partial result marked interrupted); an injected failure (rbd-fuse
# killed under the reads) still restores and cleans up.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

krbd_image sig 64M

# Ctrl-C on a mapped image.
"$CCBENCH" krbd read --map rbd/sig --read-ahead-kb 2048 -d 60s -f json >i.json 2>i.err &
pid=$!
dev=$(mapped_loop) || fail "no loop device appeared"
sleep 2
[ "$(ra "$dev")" = 2048 ] || fail "read_ahead_kb $(ra "$dev") during the run"
kill -INT $pid
timed wait $pid
[ "$RC" = 130 ] || fail "SIGINT: exit $RC: $(cat i.err)"
[ "$ELAPSED" -le 15 ] || fail "SIGINT: took $ELAPSED s"
[ "$(jget i.json 'd["status"]')" = interrupted ] || fail "status"
[ "$(jget i.json 'd["layout"]["read_ahead_kb"]["after"] == d["layout"]["read_ahead_kb"]["before"]')" = True ] ||
	fail "not restored in the result"
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left"

# SIGTERM on a device of our own: read_ahead_kb back to its value.
file_loop 32
orig=$(ra "$LOOP")
"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 4096 -d 60s -q -f json >t.json 2>t.err &
pid=$!
sleep 2
[ "$(ra "$LOOP")" = 4096 ] || fail "read_ahead_kb $(ra "$LOOP") during the run"
kill -TERM $pid
timed wait $pid
[ "$RC" = 143 ] || fail "SIGTERM: exit $RC: $(cat t.err)"
[ "$(ra "$LOOP")" = "$orig" ] || fail "SIGTERM: read_ahead_kb $(ra "$LOOP"), was $orig"

# Injected failure: rbd-fuse dies under the reads.
"$CCBENCH" krbd read --map rbd/sig --read-ahead-kb 2048 -d 60s -q -f json >e.json 2>e.err &
pid=$!
mapped_loop >/dev/null || fail "no loop device appeared"
sleep 2
fpid=$(our_fuse | awk '{print $1}' | head -1)
[ -n "$fpid" ] || fail "no rbd-fuse of ours"
kill -KILL "$fpid"
timed wait $pid
[ "$RC" = 1 ] || fail "injected failure: exit $RC: $(cat e.err)"
[ "$ELAPSED" -le 30 ] || fail "injected failure: took $ELAPSED s"
[ "$(jget e.json 'd["status"]')" = aborted ] || fail "status $(jget e.json 'd["status"]')"
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left: $(cat $(state_files))"
rbd rm rbd/sig >/dev/null 2>&1
