# A device whose I/O hangs (here: rbd-fuse stopped with SIGSTOP under a
# fuse-loop mapping; with the kernel driver, a dead cluster) blocks a
# pread in the kernel for good. The run must still end at --op-timeout
# with a partial, aborted result that says a reader may still be blocked,
# and Ctrl-C must still end it; once the I/O resumes (SIGCONT), the
# mapping, the loop device and read_ahead_kb are all put back.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

krbd_image stall 256M
T=4 # --op-timeout, seconds

# wait_for_line FILE PATTERN SECONDS: sets WAITED (seconds, float) or fails.
wait_for_line() {
	local s i
	s=$(date +%s.%N)
	for i in $(seq 1 $(($3 * 10))); do
		if grep -q "$2" "$1" 2>/dev/null; then
			WAITED=$(python3 -c "print(round($(date +%s.%N) - $s, 1))")
			return 0
		fi
		sleep 0.1
	done
	return 1
}

# stop_fuse_mid_read: SIGSTOP our rbd-fuse once reads are flowing; sets
# FPID and DEV (found first: losetup itself hangs on the stalled device).
stop_fuse_mid_read() {
	DEV=$(mapped_loop) || fail "no loop device appeared"
	sleep 2
	FPID=$(our_fuse | awk '{print $1}' | head -1)
	[ -n "$FPID" ] || fail "no rbd-fuse of ours"
	kill -STOP "$FPID"
}
cont() { [ -n "${FPID:-}" ] && kill -CONT "$FPID" 2>/dev/null || true; }
trap 'cont; detach_file_loops' EXIT

# 1. --op-timeout fires although the pread never returns.
"$CCBENCH" krbd read --map rbd/stall --map-via fuse-loop --read-ahead-kb 1024 -d 120s \
	--op-timeout ${T}s -q -f json >s.json 2>s.err &
pid=$!
stop_fuse_mid_read
# The stop reason is printed when the run has ended, before the unwind.
wait_for_line s.err "op-timeout" $((T + 40)) ||
	{ cont; wait $pid || true; fail "no --op-timeout stop within $((T + 40)) s: $(cat s.err)"; }
echo "ended ${WAITED} s after SIGSTOP (--op-timeout ${T}s)"
python3 -c "import sys; sys.exit(0 if $WAITED <= $T + 6 else 1)" ||
	fail "the run ended ${WAITED} s after the stall, --op-timeout is ${T} s"
cont
timed wait $pid
[ "$RC" = 1 ] || fail "stall: exit $RC: $(cat s.err)"
[ "$(jget s.json 'd["status"]')" = aborted ] || fail "status $(jget s.json 'd["status"]')"
# A partial result: what was read before the stall, and the one failed op.
[ "$(jget s.json 'd["bytes"] > 0 and d["errors"] >= 1')" = True ] ||
	fail "not a partial result: bytes $(jget s.json 'd["bytes"]'), errors $(jget s.json 'd["errors"]')"
jget s.json '"\n".join(d.get("warnings", []))' | gq "blocked in the kernel" ||
	fail "no warning about the blocked reader: $(jget s.json 'd.get("warnings")')"
[ "$(jget s.json 'd["layout"]["read_ahead_kb"]["after"] == d["layout"]["read_ahead_kb"]["before"]')" = True ] ||
	fail "read_ahead_kb not restored in the result"
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left: $(cat $(state_files))"
FPID=

# 2. Ctrl-C ends a stalled run too, without waiting for --op-timeout.
# The end of the run shows as read_ahead_kb put back (before the unwind,
# which needs rbd-fuse: the result is written after it).
"$CCBENCH" krbd read --map rbd/stall --map-via fuse-loop --read-ahead-kb 1024 -d 120s \
	--op-timeout 60s -q -f json >i.json 2>i.err &
pid=$!
stop_fuse_mid_read
dev=$DEV
during=$(ra "$dev")
[ "$during" = 1024 ] || fail "read_ahead_kb $during during the run"
# Ctrl-C once a read is blocked in the kernel (a task of the run in state
# D), so that there is a read to abandon: in CI run G the signal came while
# the reader still had cached pages to read, and the run ended clean.
blocked() { grep -l '^State:[[:space:]]*D' /proc/$pid/task/*/status 2>/dev/null | head -1; }
for i in $(seq 1 100); do
	[ -n "$(blocked)" ] && break
	sleep 0.1
done
[ -n "$(blocked)" ] || { cont; wait $pid || true; fail "no task of the run blocked within 10 s of SIGSTOP"; }
kill -INT $pid
for i in $(seq 1 100); do
	[ "$(ra "$dev")" != 1024 ] && break
	sleep 0.1
done
[ "$(ra "$dev")" != 1024 ] || { cont; wait $pid || true; fail "Ctrl-C: the run did not end within 10 s"; }
cont
timed wait $pid
[ "$RC" = 130 ] || fail "Ctrl-C on a stall: exit $RC: $(cat i.err)"
[ "$(jget i.json 'd["status"]')" = interrupted ] || fail "status $(jget i.json 'd["status"]')"
jget i.json '"\n".join(d.get("warnings", []))' | gq "interrupted" ||
	fail "no warning about the abandoned read: $(jget i.json 'd.get("warnings")')"
assert_unmapped
[ -z "$(state_files)" ] || fail "state file left: $(cat $(state_files))"
FPID=
rbd rm rbd/stall >/dev/null 2>&1
