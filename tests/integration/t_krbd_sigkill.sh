# SIGKILL cannot be caught: the run's state file stays, the next run
# reports it, and `ccbench krbd restore` puts read_ahead_kb back and takes
# a fuse-loop mapping down.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

file_loop 32
orig=$(ra "$LOOP")
"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 3072 -d 60s -q -f json >/dev/null 2>&1 &
pid=$!
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null || true
[ "$(ra "$LOOP")" = 3072 ] || fail "read_ahead_kb $(ra "$LOOP") after SIGKILL"
[ -n "$(state_files)" ] || fail "no state file after SIGKILL"

# The next run reports it (and leaves it alone).
"$CCBENCH" krbd read --device "$LOOP" --total 1M -q -f json >/dev/null 2>n.err || fail "next run failed"
grep -q "died without undoing: read_ahead_kb of $(basename "$LOOP")" n.err || fail "not reported: $(cat n.err)"
grep -q "ccbench restore" n.err || fail "no hint: $(cat n.err)"
[ "$(ra "$LOOP")" = 3072 ] || fail "the next run changed read_ahead_kb"

"$CCBENCH" krbd restore >rs.out || fail "restore exit $?"
grep -q "restored $orig" rs.out || fail "restore output: $(cat rs.out)"
[ "$(ra "$LOOP")" = "$orig" ] || fail "read_ahead_kb $(ra "$LOOP") after restore, was $orig"
[ -z "$(state_files)" ] || fail "state file left after restore"
"$CCBENCH" krbd restore >rs2.out || fail "second restore exit $?"
grep -q "nothing to restore" rs2.out || fail "second restore: $(cat rs2.out)"

# A mapped image: restore unmounts and stops rbd-fuse.
krbd_image kill 64M
"$CCBENCH" krbd read --map rbd/kill --read-ahead-kb 2048 -d 60s -q -f json >/dev/null 2>&1 &
pid=$!
mapped_loop >/dev/null || fail "no loop device appeared"
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null || true
[ -n "$(our_mounts)" ] || fail "expected the fuse mount to outlive SIGKILL"
"$CCBENCH" krbd restore >rm.out || fail "restore exit $?: $(cat rm.out)"
grep -q "rbd-fuse unmounted" rm.out || fail "restore output: $(cat rm.out)"
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left after restore"
rbd rm rbd/kill >/dev/null 2>&1
