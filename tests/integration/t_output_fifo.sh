# A FIFO at a sweep's --json never holds the sweep's cluster-wide OSD
# delay (--osd-latency) in place (issue 31):
# - a FIFO there before the sweep: refused before anything runs (exit 2),
#   no OSD touched;
# - a FIFO made at that name while the sweep runs: the sweep puts the OSD
#   delay back first, then finds the FIFO at the write, refuses it (exit 1,
#   one message) and ends; nothing blocks, the FIFO stays a FIFO.
# Checked on the OSDs themselves (`tell osd.N config diff`). About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

no_osd_delay || fail "the OSDs inject delays before the test"

cat >cfg.json <<EOF
{"command": "rados write", "params": {"op-size": "64K", "duration": "3s", "pool": "$POOL"},
 "matrix": {"clients": [1]}}
EOF

# ---- before the run ------------------------------------------------------------
mkfifo early.json
expect_refused --within 10 "a FIFO" "$CCBENCH" sweep cfg.json --osd-latency 5ms --json early.json -q
no_osd_delay || fail "a sweep refused for its --json FIFO changed the OSDs"
[ -p early.json ] || fail "early.json is no longer a FIFO"

# ---- made mid-run --------------------------------------------------------------
"$CCBENCH" sweep cfg.json --osd-latency 5ms --json late.json >late.out 2>late.err &
pid=$!
on_exit kill -KILL "$pid"
# Once the OSDs delay (the sweep set it), the FIFO takes the output's name.
wait_for 30 "the sweep's OSD delay" eval '! no_osd_delay'
mkfifo late.json
poll 60 exited "$pid" || fail "the sweep still runs 60 s after the FIFO appeared: $(tail -3 late.err)"
rc=0
wait "$pid" || rc=$?
[ "$rc" = 1 ] || fail "sweep with a FIFO made at its --json: exit $rc, want 1: $(tail -5 late.err)"
grep -q -- "--json 'late.json': a FIFO" late.err || fail "no message naming the FIFO: $(tail -5 late.err)"
no_osd_delay || fail "the OSDs still delay after the sweep: $(tail -5 late.err)"
[ -p late.json ] || fail "late.json is no longer a FIFO"
[ -z "$(ns_objects)" ] || fail "objects left: $(ns_objects | head -3)"
rm -f early.json late.json
