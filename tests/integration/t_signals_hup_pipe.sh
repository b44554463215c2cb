# SIGHUP (a dropped ssh session) stops a run like SIGTERM: exit 129, the
# temporary image removed. A closed stdout or stderr (`ccbench | head`)
# stops it too: SIGPIPE is caught, the run unwinds, exit 141, nothing left.
# A second Ctrl-C during a slow cleanup says what is still being undone; a
# third gives up, prints what is left with the command that removes it,
# and that command works.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

no_images() {
	[ -z "$(new_images)" ] || fail "$1 left image(s): $(new_images)"
}
no_objects() {
	[ -z "$(ns_objects)" ] || fail "$1 left objects: $(ns_objects | head -3)"
}

# SIGHUP in the middle of an rbd read of a temporary prefilled image.
"$CCBENCH" rbd read --size 64M -d 60s --sim-osd-latency 1ms -f json >h.json 2>h.err &
pid=$!
wait_grep h.err "sec"
sleep 1
signal_wait $pid HUP 129 20 h.err
[ "$(jget h.json 'd["status"]')" = interrupted ] || fail "SIGHUP: status"
[ "$(jget h.json 'd["reason"]')" = "interrupted by SIGHUP" ] || fail "SIGHUP: reason $(jget h.json 'd["reason"]')"
no_images "SIGHUP in the run"

# SIGHUP while the image is being filled, before any measurement.
"$CCBENCH" rbd read --size 1G -q 2>hp.err &
pid=$!
wait_for 60 "the temporary image" eval 'new_images | gq ccbench'
sleep 0.5
signal_wait $pid HUP 129 60 hp.err
no_images "SIGHUP in the prefill"

# stdout into `head -c 1`: the reader may be gone before the last bytes.
# Either way the objects go and the run ends (0, or 141 if a write met
# the closed pipe).
(
	timeout 120 "$CCBENCH" rados write -p "$POOL" -d 2s -b 64K -t 4 -f json 2>c.err &&
		echo 0 >c.rc || echo $? >c.rc
) | head -c 1 >c.first
[ "$(cat c.first)" = "{" ] || fail "head got '$(cat c.first)'"
case $(cat c.rc) in 0 | 141) ;; *) fail "| head -c 1: exit $(cat c.rc): $(tail -3 c.err)" ;; esac
no_objects "| head -c 1"

# A reader gone before the result is written: the write fails with EPIPE,
# the process says so and exits 141 instead of dying of SIGPIPE.
(
	timeout 120 "$CCBENCH" rados write -p "$POOL" -d 2s -b 64K -t 4 -q -f json 2>d.err &&
		echo 0 >d.rc || echo $? >d.rc
) | true
[ "$(cat d.rc)" = 141 ] || fail "| true: exit $(cat d.rc): $(tail -3 d.err)"
grep -q "writing the result to stdout: Broken pipe" d.err || fail "no EPIPE message: $(cat d.err)"
no_objects "| true"

# stderr (the progress) into a closed pipe: the first progress line meets
# EPIPE; the run stops, writes its partial result, removes its objects.
s=$(date +%s)
(
	timeout 120 "$CCBENCH" rados write -p "$POOL" -d 60s -b 64K -t 4 -f json >e.json &&
		echo 0 >e.rc || echo $? >e.rc
) 2>&1 | true
ELAPSED=$(($(date +%s) - s))
[ "$(cat e.rc)" = 141 ] || fail "stderr closed: exit $(cat e.rc)"
[ "$ELAPSED" -le 40 ] || fail "stderr closed: $ELAPSED s to stop"
[ "$(jget e.json 'd["status"]')" = interrupted ] || fail "stderr closed: status"
jget e.json 'd["reason"]' | gq SIGPIPE || fail "stderr closed: reason $(jget e.json 'd["reason"]')"
no_objects "stderr closed"

# The same during an rbd prefill: the temporary image goes.
(
	timeout 120 "$CCBENCH" rbd read --size 256M -f json >f.json &&
		echo 0 >f.rc || echo $? >f.rc
) 2>&1 | true
[ "$(cat f.rc)" = 141 ] || fail "rbd, stderr closed: exit $(cat f.rc)"
no_images "rbd, stderr closed"

# A slow cleanup: 2048 objects of an earlier run to remove (--reuse takes
# them on), each removal's reply delayed by up to 2 s on the client
# (ms_inject_delay_*), 128 in flight: at least some 16 s whatever the
# machine. The 2nd Ctrl-C names what is being undone, the 3rd gives up.
"$CCBENCH" rados write -p "$POOL" --run-name slowrm -b 4K -t 32 --total 8M --no-cleanup -q \
	-f json >g0.json || fail "write the objects"
[ "$(ns_objects | wc -l)" -ge 2048 ] || fail "wrote $(ns_objects | wc -l) objects"
"$CCBENCH" rados write -p "$POOL" --run-name slowrm --reuse -d 60s -b 4K -t 1 \
	-o ms_inject_delay_type=osd -o ms_inject_delay_max=2 -o ms_inject_delay_probability=1 \
	-f json >g.json 2>g.err &
pid=$!
wait_grep g.err "sec"
kill -INT $pid
wait_grep g.err "removing [0-9]+ objects of run slowrm"
kill -INT $pid
wait_grep g.err "signal again: still cleaning up" 10
wait_grep g.err "now: remove the run's objects" 10
grep -q "then: close the control connection" g.err || fail "2nd: $(cat g.err)"
signal_wait $pid INT 130 10 g.err # the 3rd
grep -q "giving up the cleanup" g.err || fail "3rd: $(cat g.err)"
cmd=$(grep -o "remove the run's objects (was running): ccbench cleanup .*" g.err | sed 's/.*: ccbench //')
[ "$cmd" = "cleanup -p $POOL -N ccbench --run-name slowrm" ] || fail "what is left: $(cat g.err)"
[ -n "$(ns_objects)" ] || fail "the cleanup was not slow: nothing left to give up"
# shellcheck disable=SC2086
"$CCBENCH" $cmd -q >/dev/null || fail "the printed command: ccbench $cmd"
no_objects "the printed cleanup command"
echo "signals hup pipe: ok"
