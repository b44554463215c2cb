# --device on a loop device over a file: a dd over the loop device leaves
# the whole device in the page cache of the loop's backing file, which
# dropping the loop device's own cache does not empty. The run must drop
# the backing file's pages too (its disk reads them again), and say so
# when a run is served from a cache it could not drop (here: the loop
# device's pages held mapped by another process).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/krbd_lib.sh"

file_loop 64
dev=$LOOP
file=$(losetup -n -O BACK-FILE "$dev" | sed 's/ *$//')
# The disk the file is on, as the kernel counts its reads.
bdisk=$(basename "$(readlink -f "/sys/dev/block/$(stat -c '%Hd:%Ld' "$file")")")
disk_sectors() { awk '{print $3}' "/sys/class/block/$bdisk/stat"; }
size=$((64 << 20))

for pass in 1 2; do
	# Warm both caches: the loop device's and its backing file's.
	dd if="$dev" of=/dev/null bs=1M status=none
	b0=$(disk_sectors)
	"$CCBENCH" krbd read --device "$dev" -q -f json >c$pass.json || fail "pass $pass exit $?"
	b1=$(disk_sectors)
	[ "$(jget c$pass.json 'd["bytes"]')" = $size ] || fail "pass $pass bytes"
	[ "$(jget c$pass.json 'd["layout"]["backing_file"]')" = "$file" ] ||
		fail "pass $pass: backing_file $(jget c$pass.json 'd["layout"].get("backing_file")')"
	# Read from the loop device, and by it from the disk: not from either cache.
	[ "$(jget c$pass.json 'd["layout"]["device_reads"]["bytes"] >= d["bytes"]')" = True ] ||
		fail "pass $pass: the loop device read $(jget c$pass.json 'd["layout"]["device_reads"]["bytes"]')"
	[ $(((b1 - b0) * 512)) -ge $((size / 2)) ] ||
		fail "pass $pass: $bdisk read $(((b1 - b0) * 512)) bytes for $size: served from the backing file's cache"
	[ "$(jget c$pass.json 'd["layout"]["backing_reads"]["bytes"] >= d["bytes"] // 2')" = True ] ||
		fail "pass $pass: backing_reads $(jget c$pass.json 'd["layout"].get("backing_reads")')"
	jget c$pass.json '"\n".join(d["warnings"])' | gq "page cache" &&
		fail "pass $pass: a cache warning on a cold pass: $(jget c$pass.json 'd["warnings"]')"
done

# Pages another process holds mapped cannot be dropped: the run is served
# from memory, and the result says so.
trap 'kill ${HOLD_PID:-} 2>/dev/null || true; detach_file_loops' EXIT
hold_pages "$dev"
# Two passes: each is checked against what the device read.
"$CCBENCH" krbd read --device "$dev" --total $((2 * size)) -q -f json >h.json || fail "held: exit $?"
kill "$HOLD_PID"
[ "$(jget h.json 'd["layout"]["passes"]')" = 2 ] || fail "held: passes $(jget h.json 'd["layout"]["passes"]')"
jget h.json '"\n".join(d["warnings"])' | gq "served from the page cache: /dev/" ||
	fail "no warning for a run served from the cache: device_reads $(jget h.json 'd["layout"]["device_reads"]'), warnings $(jget h.json 'd["warnings"]')"
jget h.json '"\n".join(d["warnings"])' | gq "2 of the 2 passes checked" ||
	fail "no warning for each pass served from the cache: $(jget h.json 'd["warnings"]')"
[ -z "$(state_files)" ] || fail "state file left"
