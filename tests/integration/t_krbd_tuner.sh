# One tuner per device, and restores that put back only what is still
# ccbench's: a second run tuning a device another run holds is refused
# (exit 2, naming the holder's pid and command) and changes nothing; the
# first puts the original back when it ends; an operator's write to
# read_ahead_kb during a run, or after a run was killed, survives the
# restore (in process and `ccbench restore`), which says it left it. On a
# loop device over a file and on a fuse-loop mapping of a real image.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

file_loop 16
orig=$(ra "$LOOP")
locks() { ls "$CCB_STATE_DIR"/dev-*.lock 2>/dev/null || true; }

# A holds LOOP at 3072; B, started while A runs, is refused.
"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 3072 -d 3s -q -f json >a.json 2>a.err &
a=$!
wait_for 20 "read_ahead_kb 3072 on $LOOP" eval '[ "$(ra "$LOOP")" = 3072 ]'
expect_refused "being tuned by another ccbench run: pid $a (.*krbd read --device $LOOP --read-ahead-kb 3072" \
	"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 1024 --total 1M -q -f json
[ "$(ra "$LOOP")" = 3072 ] || fail "the refused run changed read_ahead_kb: $(ra "$LOOP")"
wait $a || fail "A exit $?: $(cat a.err)"
[ "$(ra "$LOOP")" = "$orig" ] || fail "read_ahead_kb $(ra "$LOOP") after A, was $orig"
[ -z "$(locks)" ] || fail "lock left: $(locks)"

# An operator's write mid-run survives the run's own restore.
"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 3072 -d 3s -q -f json >o.json 2>o.err &
a=$!
wait_for 20 "read_ahead_kb 3072 on $LOOP" eval '[ "$(ra "$LOOP")" = 3072 ]'
echo 768 >"/sys/block/$(basename "$LOOP")/queue/read_ahead_kb"
wait $a || fail "exit $?: $(cat o.err)"
[ "$(ra "$LOOP")" = 768 ] || fail "the operator's 768 overwritten: $(ra "$LOOP")"
grep -q "changed by someone else since ccbench set it: now 768, ccbench set 3072, was $orig; left as is" o.err ||
	fail "not said: $(cat o.err)"
[ "$(jget o.json 'd["layout"]["read_ahead_kb"]["after"]')" = 768 ] || fail "after"

# Killed, then changed by the operator: `ccbench restore` leaves it too,
# and takes the dead run's lock file with the record.
echo "$orig" >"/sys/block/$(basename "$LOOP")/queue/read_ahead_kb"
"$CCBENCH" krbd read --device "$LOOP" --read-ahead-kb 3072 -d 60s -q -f json >/dev/null 2>&1 &
a=$!
wait_for 20 "read_ahead_kb 3072 on $LOOP" eval '[ "$(ra "$LOOP")" = 3072 ]'
kill -KILL $a
wait $a 2>/dev/null || true
[ -n "$(locks)" ] || fail "no lock file of the killed run"
echo 640 >"/sys/block/$(basename "$LOOP")/queue/read_ahead_kb"
"$CCBENCH" restore >rs.out 2>rs.err || fail "restore exit $?: $(cat rs.err)"
grep -q "now 640, ccbench set 3072, was $orig; left as is" rs.out || fail "restore: $(cat rs.out rs.err)"
[ "$(ra "$LOOP")" = 640 ] || fail "restore overwrote 640: $(ra "$LOOP")"
[ -z "$(state_files)" ] || fail "state file left after restore"
[ -z "$(locks)" ] || fail "lock left after restore: $(locks)"
echo "$orig" >"/sys/block/$(basename "$LOOP")/queue/read_ahead_kb"

# A fuse-loop mapping of a real image: the same refusal of a second tuner.
krbd_image tn 16M
"$CCBENCH" krbd read --map rbd/tn --read-ahead-kb 2048 -d 3s -q -f json >m.json 2>m.err &
a=$!
dev=$(mapped_loop) || fail "no loop device appeared (the run: $(kill -0 $a 2>/dev/null && echo running || echo ended); $(cat m.err))"
wait_for 20 "read_ahead_kb 2048 on $dev" eval '[ "$(ra "$dev" 2>/dev/null)" = 2048 ]'
expect_refused "pid $a (.*krbd read --map rbd/tn" \
	"$CCBENCH" krbd read --device "$dev" --read-ahead-kb 1024 --total 1M -q -f json
wait $a || fail "mapped run exit $?: $(cat m.err)"
[ "$(jget m.json 'd["layout"]["read_ahead_kb"]["after"] == d["layout"]["read_ahead_kb"]["before"]')" = True ] ||
	fail "mapped run: after != before"
assert_unmapped
[ -z "$(locks)" ] || fail "lock left: $(locks)"
