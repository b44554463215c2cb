# What `rbd device map` asks the driver for, as ccbench runs it, on this
# release: the request the CLI writes to /sys/bus/rbd/add_single_major,
# caught in a fake sysfs (map_request). Tentacle's (20) CLI defaults to
# msgr2 (ms_mode=prefer-crc, the mons' v2 addresses): ccbench passes it
# itself, so the result names it; older CLIs get no ms_mode (legacy, the
# v1 addresses). A given ms_mode goes through on every release. The run,
# interrupted while rbd waits for a device, leaves nothing, and its
# message shows the map options redacted. About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

rbd create "rbd/mr$$" --size 16M || fail "rbd create"
drop() { rbd rm "rbd/mr$$" >/dev/null 2>&1 || true; }
on_exit drop
major=$(rbd --version | awk '{print $3}' | cut -d. -f1)
mon=$(sed -n 's/^[[:space:]]*mon host = //p' "$CEPH_CONF")
v2=$(echo "$mon" | grep -o 'v2:[0-9.]*:[0-9]*' | cut -d: -f2-)
v1=$(echo "$mon" | grep -o 'v1:[0-9.]*:[0-9]*' | cut -d: -f2-)

map_request req "$CCBENCH" krbd read --map "rbd/mr$$" --map-via kernel -q
echo "note: rbd $major: $(cat req)"
[ "$(cat req.rc)" = 130 ] || fail "interrupted map: exit $(cat req.rc), not 130: $(cat req.err)"
if [ "$major" -ge 20 ]; then
	grep -q "^$v2 name=admin,.*ms_mode=prefer-crc" req || fail "rbd $major: not msgr2 prefer-crc to $v2: $(cat req)"
else
	grep -q "^$v1 name=admin," req || fail "rbd $major: not the v1 address $v1: $(cat req)"
	grep -q "ms_mode" req && fail "rbd $major: an ms_mode passed: $(cat req)"
fi
# Read-only, the image and its head.
grep -q ",ro rbd mr$$ -$" req || fail "not a read-only map of rbd/mr$$: $(cat req)"

# A given ms_mode: the v2 addresses, on every release.
map_request given "$CCBENCH" krbd read --map "rbd/mr$$" --map-via kernel --map-options ms_mode=crc -q
grep -q "^$v2 name=admin,.*ms_mode=crc" given || fail "given ms_mode=crc: $(cat given)"
grep -c "ms_mode=" given | grep -qx 1 || fail "two ms_mode options: $(cat given)"
# Map options in ccbench's messages are redacted: a secret= given in
# --map-options (which this CLI refuses at once) never reaches its stderr.
rc=0
fake_rbd_sysfs "$CCBENCH" krbd read --map "rbd/mr$$" --map-via kernel --map-options ms_mode=crc,secret=SEKRET0123 -q \
	>sec.out 2>sec.err || rc=$?
[ "$rc" != 0 ] && [ "$rc" != 90 ] || fail "map with secret=: exit $rc: $(cat sec.err)"
grep -q "secret=<redacted>" sec.err || fail "map options not in the message: $(cat sec.err)"
! grep -q SEKRET0123 sec.err || fail "the secret in the message: $(cat sec.err)"
# Nothing of either run is left: no state record, no rbd process.
[ -z "$(state_files)" ] || fail "state files left: $(state_files)"
! pgrep -af "rbd device map.*mr$$" | grep -v pgrep || fail "an rbd device map is left"
