# --device on a loop device over a plain file: one pass by default, each
# pass read from the device (not the page cache, per /sys/block/DEV/stat),
# read_ahead_kb restored, streams, --direct at depth, randread.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

file_loop 64
dev=$LOOP
orig=$(ra "$dev")
for pass in 1 2; do
	s0=$(read_sectors "$dev")
	"$CCBENCH" krbd read --device "$dev" --read-ahead-kb 512 -q -f json >r$pass.json ||
		fail "pass $pass exit $?"
	s1=$(read_sectors "$dev")
	[ "$(jget r$pass.json 'd["bytes"]')" = $((64 << 20)) ] || fail "pass $pass bytes"
	# The second run would come from the page cache without the drop.
	[ $(((s1 - s0) * 512)) -ge $((64 << 20)) ] || fail "pass $pass read $(((s1 - s0) * 512)) bytes from $dev"
	[ "$(ra "$dev")" = "$orig" ] || fail "read_ahead_kb $(ra "$dev"), was $orig"
	[ "$(jget r$pass.json 'd["layout"]["read_ahead_kb"]["during"]')" = 512 ] || fail "during"
done

# Longer than a pass: every pass comes from the device.
s0=$(read_sectors "$dev")
"$CCBENCH" krbd read --device "$dev" --streams 2 -d 3s -q -f json >w.json || fail "wrap exit $?"
s1=$(read_sectors "$dev")
[ "$(jget w.json 'd["layout"]["passes"] > 1')" = True ] || fail "passes $(jget w.json 'd["layout"]["passes"]')"
python3 -c "import sys; b=$(jget w.json 'd["bytes"]'); r=($s1-$s0)*512; sys.exit(0 if r >= 0.9*b else 1)" ||
	fail "read $(((s1 - s0) * 512)) bytes from $dev for $(jget w.json 'd["bytes"]') bytes"

"$CCBENCH" krbd read --device "$dev" --offset 32M -q -f json >o.json || fail "offset exit $?"
[ "$(jget o.json 'd["bytes"]')" = $((32 << 20)) ] || fail "offset bytes"
"$CCBENCH" krbd read --device "$dev" --direct -t 8 -q -f json >d.json || fail "direct exit $?"
[ "$(jget d.json 'd["bytes"]')" = $((64 << 20)) ] || fail "direct bytes"
[ "$(jget d.json 'd["queue_depth"]')" = 8 ] || fail "direct depth"
"$CCBENCH" krbd randread --device "$dev" --io-size 4K --total 8M -q -f json >x.json || fail "randread exit $?"
[ "$(jget x.json 'd["ops"]')" = 2048 ] || fail "randread ops $(jget x.json 'd["ops"]')"
# No ceph.conf is needed for a plain device.
CEPH_CONF=/nonexistent "$CCBENCH" krbd read --device "$dev" --total 1M -q -f json >/dev/null ||
	fail "needs a ceph.conf"
[ "$(ra "$dev")" = "$orig" ] || fail "read_ahead_kb not restored"
[ -z "$(state_files)" ] || fail "state file left"
