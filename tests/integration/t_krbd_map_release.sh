# What `rbd device map` asks the driver for, as ccbench runs it, on this
# release: the request the CLI writes to /sys/bus/rbd/add_single_major,
# caught in a fake sysfs (map_request). Tentacle's (20) CLI defaults to
# msgr2 (ms_mode=prefer-crc, the mons' v2 addresses): ccbench passes it
# itself, so the result names it; older CLIs get no ms_mode (legacy, the
# v1 addresses). A given ms_mode goes through on every release. The run,
# interrupted while rbd waits for a device, leaves nothing, and its
# message shows the map options redacted; a key in them is refused and
# never on rbd's argv. About 20 s.
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
grep -c "ms_mode=" given | gq -x 1 || fail "two ms_mode options: $(cat given)"
# A key in --map-options never reaches `rbd device map`'s argv, which any
# local user reads in /proc/PID/cmdline. No rbd CLI takes one: this one
# refuses secret= as an unknown map option, in -o and (probed here, a note)
# in rbd_default_map_options alike, so the environment is no way to pass
# it either. ccbench refuses it with exit 2 before anything runs, the
# option redacted in its message. A fake rbd first on PATH records every
# argv and CEPH_ARGS it is given; a watcher greps every other process's
# cmdline meanwhile. Options without a key still reach rbd's -o.
fb=$PWD/fakerbd-$$
rm -rf "$fb" && mkdir "$fb" || fail "mkdir $fb"
on_exit rm -rf "$fb"
real_rbd=$(command -v rbd)
cat >"$fb/rbd" <<SH
#!/bin/bash
printf '%s\n' "\$@" >>"$fb/argv"
printf '%s\n' "\${CEPH_ARGS-}" >>"$fb/env"
[ "\${1-}" = --version ] && exec "$real_rbd" --version
sleep 2
echo "rbd: map failed: (22) Invalid argument (fake)" >&2
exit 22
SH
chmod 755 "$fb/rbd"
echo SEKRET0123 >"$fb/needle"
# Every process's argv holding the key, bar the ones the test itself gave
# it to (ccbench, its timeout and shell, which the user's own command line
# is): found lines go to $fb/seen. The needle comes from a file, so that
# grep's own argv does not hold it.
watch_cmdlines() {
	local f
	while [ ! -e "$fb/stop" ]; do
		# One grep a pass (a loop per process would miss a short one).
		for f in $(grep -laF -f "$fb/needle" /proc/[0-9]*/cmdline 2>/dev/null); do
			tr '\0' ' ' 2>/dev/null <"$f" | grep -vF "$CCBENCH" >>"$fb/seen" || true
		done
		sleep 0.02
	done
}
watch_cmdlines &
watcher=$!
rc=0
PATH="$fb:$PATH" fake_rbd_sysfs "$CCBENCH" krbd read --map "rbd/mr$$" --map-via kernel \
	--map-options rw,secret=SEKRET0123 -q >sec.out 2>sec.err || rc=$?
# The control: the same fake, options without a key, reach its -o.
ctl=0
PATH="$fb:$PATH" fake_rbd_sysfs "$CCBENCH" krbd read --map "rbd/mr$$" --map-via kernel \
	--map-options ms_mode=crc,noshare -q >ctl.out 2>ctl.err || ctl=$?
touch "$fb/stop"
wait "$watcher" || fail "the cmdline watcher failed"
[ ! -s "$fb/seen" ] || fail "the key in another process's cmdline: $(head -3 "$fb/seen")"
! grep -q SEKRET0123 "$fb/argv" 2>/dev/null || fail "the key on rbd's argv: $(tr '\n' ' ' <"$fb/argv")"
! grep -q SEKRET0123 "$fb/env" 2>/dev/null || fail "the key in rbd's CEPH_ARGS (refused, it goes nowhere)"
[ "$rc" = 2 ] || fail "map with secret=: exit $rc, not 2: $(cat sec.err)"
grep -q "secret=<redacted> carries key material" sec.err || fail "no refusal naming the option: $(cat sec.err)"
! grep -q SEKRET0123 sec.err sec.out || fail "the key in ccbench's output: $(cat sec.err)"
[ "$ctl" != 0 ] && [ "$ctl" != 90 ] || fail "control map: exit $ctl: $(cat ctl.err)"
grep -qx "ms_mode=crc,noshare.*" "$fb/argv" || fail "the fake rbd never got the control's -o: $(tr '\n' ' ' <"$fb/argv" 2>/dev/null)"
grep -q -- "--client_mount_timeout" "$fb/env" || fail "the fake rbd never got ccbench's CEPH_ARGS: $(cat "$fb/env")"
# Why not CEPH_ARGS: the real CLI with the key in rbd_default_map_options.
prc=0
fake_rbd_sysfs timeout 20 env CEPH_ARGS="--rbd_default_map_options=ms_mode=crc,secret=SEKRET0123" \
	rbd device map --read-only "rbd/mr$$" >probe.out 2>probe.err || prc=$?
echo "note: rbd $major, secret= in rbd_default_map_options: exit $prc," \
	"$(grep -o -e "unknown map option '[a-z_]*'" -e "couldn't parse default map options" probe.err | tr '\n' ' ')"
# Nothing of either run is left: no state record, no rbd process.
[ -z "$(state_files)" ] || fail "state files left: $(state_files)"
! pgrep -af "rbd device map.*mr$$" | grep -v pgrep || fail "an rbd device map is left"
