# The kernel path against the real rbd driver; runs inside the krbd-vm
# guest (tests/krbd-vm/run-in-guest.sh), started by
# tests/integration/t_krbd_vm.sh with CCBENCH and CEPH_CONF set.
#
# usage: guest-krbd.sh POOL/IMAGE   (an image of 64 MiB, written through)
#
# Asserts counts, never speeds (TCG times vary by 10-20 % and say nothing
# about real hardware): what was mapped and unmapped, read_ahead_kb set and
# put back (also after SIGTERM, and after SIGKILL via `ccbench krbd
# restore`), the bytes each pass read from the device equal the pass size
# (no page-cache hits), and the average request size grows with
# read_ahead_kb.
set -euo pipefail
spec=$1
size=$((64 << 20))
export CCB_STATE_DIR=/run/ccbench-vm-test
mkdir -p "$CCB_STATE_DIR"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
step() { echo "== $(date +%T) $*"; }
mapped() { ls /sys/bus/rbd/devices 2>/dev/null | tr '\n' ' '; }
state_files() { ls "$CCB_STATE_DIR"/run-*.json 2>/dev/null || true; }
j() { jq -r "$2" "$1"; }
# stat fields: 1 reads completed, 3 sectors read.
stat_of() { awk '{print $1, $3}' "/sys/block/$1/stat"; }

[ -z "$(mapped)" ] || fail "mapped before the test: $(mapped)"

# ---- 1. ccbench maps through the kernel driver itself -----------------------
step "ccbench krbd read --map $spec --map-via kernel --read-ahead-kb 4096"
"$CCBENCH" krbd read --map "$spec" --map-via kernel --read-ahead-kb 4096 --io-size 1M -q -f json \
	>m.json 2>m.err &
pid=$!
seen_ra="" seen_dev=""
while kill -0 $pid 2>/dev/null; do
	for d in /sys/bus/rbd/devices/*; do
		[ -e "$d" ] || continue
		seen_dev=rbd${d##*/}
		v=$(cat "/sys/block/$seen_dev/queue/read_ahead_kb" 2>/dev/null || true)
		[ "$v" = 4096 ] && seen_ra=4096
	done
	sleep 0.2
done
wait $pid || fail "ccbench --map exit $?: $(cat m.err)"
cat m.err
[ "$(j m.json .status)" = ok ] || fail "status $(j m.json .status)"
[ "$(j m.json .bytes)" = $size ] || fail "bytes $(j m.json .bytes)"
[ "$(j m.json .layout.map_via)" = kernel ] || fail "map_via $(j m.json .layout.map_via)"
[[ "$(j m.json .layout.device)" == /dev/rbd* ]] || fail "device $(j m.json .layout.device)"
[ "$(j m.json .layout.read_ahead_kb.during)" = 4096 ] || fail "during"
[ "$(j m.json .layout.read_ahead_kb.before)" = 128 ] || fail "driver default read_ahead_kb $(j m.json .layout.read_ahead_kb.before), expected 128"
[ "$(j m.json '.layout.read_ahead_kb.after == .layout.read_ahead_kb.before')" = true ] || fail "after != before"
[ "$(j m.json .layout.image.noudev)" = true ] || fail "noudev not added (no udev in the guest)"
j m.json .layout.image.ms_mode.why | grep -q . || fail "no ms_mode reason in the result"
echo "   ms_mode: $(j m.json .layout.image.ms_mode.value) ($(j m.json .layout.image.ms_mode.why)); options: $(j m.json .layout.image.map_options_used)"
echo "   queue at map time: $(jq -c .layout.queue m.json)"
[ "$(j m.json .layout.queue.max_sectors_kb)" -ge 1024 ] || fail "max_sectors_kb"
[ "$seen_ra" = 4096 ] || fail "the sidecar never saw read_ahead_kb 4096 on ${seen_dev:-no device}"
# ccbench's own count from the device's stat: exactly the pass.
[ "$(j m.json .layout.device_reads.bytes)" = $size ] ||
	fail "$seen_dev read $(j m.json .layout.device_reads.bytes) bytes for a pass of $size"
echo "   $seen_dev: $(j m.json .layout.device_reads.requests) requests, $(($(j m.json .layout.device_reads.bytes) / $(j m.json .layout.device_reads.requests) / 1024)) KiB each at read_ahead_kb 4096"
[ -z "$(mapped)" ] || fail "left mapped: $(mapped)"
[ -z "$(state_files)" ] || fail "state file left: $(state_files)"

# ---- 2. rbd device map, then ccbench --device --------------------------------
step "rbd device map --read-only -o noudev $spec"
dev=$(rbd device map --read-only -o noudev "$spec") || fail "rbd device map"
name=${dev#/dev/}
[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 128 ] ||
	fail "read_ahead_kb at map time $(cat /sys/block/$name/queue/read_ahead_kb), expected 128"
unmap_dev() { echo "${name#rbd}" >/sys/bus/rbd/remove_single_major; }
trap 'unmap_dev 2>/dev/null || true' EXIT
declare -A avg
for ra in 128 128 4096; do
	step "pass at read_ahead_kb $ra on $dev"
	read -r r0 s0 < <(stat_of "$name")
	"$CCBENCH" krbd read --device "$dev" --read-ahead-kb $ra --io-size 64K -q -f json >p.json ||
		fail "ccbench --device exit $?"
	read -r r1 s1 < <(stat_of "$name")
	[ "$(j p.json .bytes)" = $size ] || fail "bytes $(j p.json .bytes)"
	[ "$(((s1 - s0) * 512))" = $size ] ||
		fail "read_ahead_kb $ra: $(((s1 - s0) * 512)) bytes from $dev for a pass of $size (page-cache hits?)"
	[ "$(j p.json .layout.device_reads.bytes)" = $size ] || fail "device_reads.bytes $(j p.json .layout.device_reads.bytes)"
	[ "$(j p.json .layout.device_reads.requests)" = $((r1 - r0)) ] || fail "device_reads.requests"
	[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 128 ] || fail "read_ahead_kb not put back"
	avg[$ra]=$(((s1 - s0) * 512 / (r1 - r0)))
	echo "   $((r1 - r0)) requests, $((avg[$ra] / 1024)) KiB each"
done
# About 128 KiB at 128; several MiB at 4096 (3.5 MiB measured on 6.1).
[ "${avg[128]}" -ge $((96 << 10)) ] && [ "${avg[128]}" -le $((160 << 10)) ] ||
	fail "average request ${avg[128]} bytes at read_ahead_kb 128, expected about 128 KiB"
[ "${avg[4096]}" -ge $((1 << 20)) ] ||
	fail "average request ${avg[4096]} bytes at read_ahead_kb 4096, expected several MiB"

# wait_reading: until the run's reads reach the device (its engine runs).
wait_reading() {
	local r0 s0 r s
	read -r r0 s0 < <(stat_of "$name")
	for _ in $(seq 1 150); do
		read -r r s < <(stat_of "$name")
		[ $((s - s0)) -ge 2048 ] && return 0
		sleep 0.2
	done
	fail "no reads reached $dev"
}
step "SIGTERM mid-run restores read_ahead_kb"
"$CCBENCH" krbd read --device "$dev" --read-ahead-kb 2048 -d 120s -q -f json >t.json 2>t.err &
pid=$!
for _ in $(seq 1 150); do
	[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 2048 ] && break
	sleep 0.2
done
[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 2048 ] || fail "read_ahead_kb never 2048"
wait_reading
kill -TERM $pid
rc=0
wait $pid || rc=$?
[ $rc = 143 ] || fail "SIGTERM: exit $rc: $(cat t.err)"
[ "$(j t.json .status)" = interrupted ] || fail "SIGTERM: status '$(j t.json .status)': $(cat t.err)"
[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 128 ] || fail "SIGTERM: read_ahead_kb not restored"

step "SIGKILL mid-run, then ccbench krbd restore"
"$CCBENCH" krbd read --device "$dev" --read-ahead-kb 3072 -d 120s -q -f json >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 150); do
	[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 3072 ] && break
	sleep 0.2
done
wait_reading
kill -KILL $pid
wait $pid 2>/dev/null || true
[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 3072 ] || fail "SIGKILL: read_ahead_kb not left at 3072"
[ -n "$(state_files)" ] || fail "SIGKILL: no state file"
"$CCBENCH" krbd restore >rs.out || fail "restore exit $?"
cat rs.out
[ "$(cat /sys/block/$name/queue/read_ahead_kb)" = 128 ] || fail "restore: read_ahead_kb $(cat /sys/block/$name/queue/read_ahead_kb)"
[ -z "$(state_files)" ] || fail "restore: state file left"
unmap_dev || fail "unmap $dev"
trap - EXIT
[ -z "$(mapped)" ] || fail "left mapped: $(mapped)"

# ---- 3. a kernel mapping of ccbench's own, killed: restore unmaps it ----------
step "ccbench --map killed with SIGKILL (map options passed through: ms_mode=prefer-crc)"
"$CCBENCH" krbd read --map "$spec" --map-via kernel --map-options ms_mode=prefer-crc -d 120s -q -f json \
	>/dev/null 2>k.err &
pid=$!
for _ in $(seq 1 300); do
	[ -n "$(mapped)" ] && grep -q '"dev": "/dev/rbd' "$CCB_STATE_DIR"/run-*.json 2>/dev/null && break
	sleep 0.2
done
[ -n "$(mapped)" ] || fail "ccbench did not map: $(cat k.err)"
d=$(mapped)
grep -q "ms_mode=prefer-crc" "/sys/bus/rbd/devices/${d% }/config_info" || fail "ms_mode=prefer-crc not passed to the driver:"
	echo "   (config_info: $(cat "/sys/bus/rbd/devices/${d% }/config_info" 2>/dev/null | sed 's/secret=[^,]*/secret=…/'))"
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
[ -n "$(mapped)" ] || fail "expected the mapping to outlive SIGKILL"
"$CCBENCH" krbd restore >rk.out || fail "restore exit $?: $(cat rk.out)"
cat rk.out
grep -q "unmapped $spec" rk.out || fail "restore did not unmap: $(cat rk.out)"
[ -z "$(mapped)" ] || fail "left mapped after restore: $(mapped)"
[ -z "$(state_files)" ] || fail "state file left after restore"
# ---- 4. a map that never reports its device ----------------------------------
# `rbd device map` killed (or failing) after the kernel added the device:
# ccbench finds it in sysfs by pool/image/snap and unmaps it. An rbd that
# maps, then dies without printing the device; and one that maps, then
# hangs until ccbench's Ctrl-C reaches it (it runs in a session of its
# own, so only ccbench's SIGTERM does).
fake=$PWD/fake-rbd
mkdir -p "$fake"
real_rbd=$(command -v rbd)
cat >"$fake/rbd" <<EOF
#!/bin/bash
[ "\$1 \$2" = "device map" ] || exec "$real_rbd" "\$@"
"$real_rbd" "\$@" >/dev/null || exit \$?
[ -n "\${FAKE_RBD_HANG:-}" ] && exec sleep 60
echo "rbd: terminated before it printed the device" >&2
exit 143
EOF
chmod +x "$fake/rbd"
step "rbd device map dies after mapping: ccbench unmaps what it left"
rc=0
PATH=$fake:$PATH "$CCBENCH" krbd read --map "$spec" --map-via kernel -q -f json >/dev/null 2>f.err || rc=$?
cat f.err
[ $rc = 1 ] || fail "exit $rc, expected 1: $(cat f.err)"
grep -q "will be unmapped" f.err || fail "the device the map added was not found: $(cat f.err)"
[ -z "$(mapped)" ] || fail "left mapped: $(mapped)"
[ -z "$(state_files)" ] || fail "state file left: $(state_files)"

step "Ctrl-C while rbd device map hangs after mapping"
FAKE_RBD_HANG=1 PATH=$fake:$PATH "$CCBENCH" krbd read --map "$spec" --map-via kernel -q -f json \
	>/dev/null 2>h.err &
pid=$!
for _ in $(seq 1 300); do
	[ -n "$(mapped)" ] && break
	sleep 0.2
done
[ -n "$(mapped)" ] || fail "the fake rbd did not map: $(cat h.err)"
sleep 1
kill -INT $pid
s0=$(date +%s)
rc=0
wait $pid || rc=$?
cat h.err
[ $rc = 130 ] || fail "Ctrl-C during the map: exit $rc: $(cat h.err)"
[ $(($(date +%s) - s0)) -le 30 ] || fail "Ctrl-C during the map took $(($(date +%s) - s0)) s"
[ -z "$(mapped)" ] || fail "Ctrl-C during the map left mapped: $(mapped)"
[ -z "$(state_files)" ] || fail "state file left: $(state_files)"
step "all passed"
