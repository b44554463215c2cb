# Helpers for the krbd integration tests (sourced after lib.sh). Each test
# keeps its crash state and fuse mounts in its own CCB_STATE_DIR, so tests
# running side by side never see each other's records.
export CCB_STATE_DIR=$WORK/state-$(basename "$0" .sh)
mkdir -p "$CCB_STATE_DIR"

# krbd_image NAME SIZE: an image in pool rbd, written through (reads of
# never-written extents would return zeroes without touching the OSDs).
krbd_image() {
	rbd create "rbd/$1" --size "$2" || fail "rbd create rbd/$1"
	# Removed however the test ends (a failed check exits at once).
	on_exit krbd_image_rm "$1"
	rbd bench --io-type write --io-size 4M --io-total "$2" "rbd/$1" >/dev/null 2>&1 ||
		fail "rbd bench write rbd/$1"
}

krbd_image_rm() { rbd rm "rbd/$1" >/dev/null 2>&1 || true; }

# ra DEV: read_ahead_kb of /dev/DEV's queue.
ra() {
	cat "/sys/block/$(basename "$1")/queue/read_ahead_kb"
}

# Loop devices backed by a file under our state dir (fuse-loop mappings).
# From sysfs, as "/dev/loopN: FILE": `losetup -a` stats every backing file
# and hangs while another lane's test holds an rbd-fuse stopped (a CI run's
# t_krbd_tuner then missed a 3 s run's loop device: "no loop device appeared").
our_loops() {
	local f d
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] || continue
		d=${f#/sys/block/}
		d=${d%%/*}
		grep -F "$CCB_STATE_DIR/" "$f" 2>/dev/null | sed "s|^|/dev/$d: |"
	done
	return 0
}

# The backing files under our state dir of loop devices, from sysfs (as
# our_loops, without the device).
our_loop_files() {
	local f
	for f in /sys/block/loop*/loop/backing_file; do
		[ -r "$f" ] && grep -F "$CCB_STATE_DIR/" "$f"
	done 2>/dev/null || true
}

# rbd-fuse processes serving a mount under our state dir.
our_fuse() {
	pgrep -af rbd-fuse | grep -F "$CCB_STATE_DIR/" | grep -v pgrep || true
}

our_mounts() {
	grep -F "$CCB_STATE_DIR/" /proc/mounts || true
}

state_files() {
	ls "$CCB_STATE_DIR"/run-*.json 2>/dev/null || true
}

# assert_unmapped: nothing of a fuse-loop mapping is left.
assert_unmapped() {
	# rbd-fuse exits just after its unmount; give it a moment.
	poll 5 eval '[ -z "$(our_fuse)" ]' || true
	[ -z "$(our_loops)" ] || fail "loop device left: $(our_loops)"
	[ -z "$(our_mounts)" ] || fail "mount left: $(our_mounts)"
	[ -z "$(our_fuse)" ] || fail "rbd-fuse left: $(our_fuse)"
}

# mapped_loop: the loop device of our fuse-loop mapping (waits up to 30 s).
mapped_loop() {
	local i l
	for i in $(seq 1 300); do
		l=$(our_loops | sed -n "1s/:.*//p") # sed reads to the end (see gq)
		[ -n "$l" ] && { echo "$l"; return 0; }
		sleep 0.1
	done
	return 1
}

# file_loop SIZE_MB: sets LOOP to a read-only loop device over a plain
# file of that size; detached at exit.
FILE_LOOPS=()
file_loop() {
	local f
	f=$(mktemp "$WORK/krbd-file.XXXXXX")
	dd if=/dev/urandom of="$f" bs=1M count="$1" status=none
	LOOP=$(losetup -r -f --show "$f") || fail "losetup -r -f --show $f"
	FILE_LOOPS+=("$LOOP")
}
detach_file_loops() {
	local l
	for l in "${FILE_LOOPS[@]}"; do losetup -d "$l" 2>/dev/null || true; done
}
on_exit detach_file_loops

# read_sectors DEV: sectors read from DEV since boot (field 3 of its stat).
read_sectors() {
	awk '{print $3}' "/sys/block/$(basename "$1")/stat"
}

# hold_pages DEV: another process maps DEV and touches every page, so that
# no cache drop can empty them (a read of DEV is then served from memory);
# HOLD_PID is that process, which the caller kills. Fails unless it holds
# them within 10 s.
hold_pages() {
	python3 - "$1" >hold.out 2>&1 <<'PY' &
import mmap, os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY)
m = mmap.mmap(fd, os.lseek(fd, 0, os.SEEK_END), mmap.MAP_SHARED, mmap.PROT_READ)
s = 0
for off in range(0, len(m), 4096):
    s += m[off]
print("held", flush=True)
time.sleep(60)
PY
	HOLD_PID=$!
	poll 10 grep -q held hold.out || fail "could not map $1: $(cat hold.out)"
}

# map_request OUT CMD...: run CMD (a `ccbench krbd read --map ... --map-via
# kernel`) in a mount namespace of its own whose /sys/bus/rbd and
# /sys/module/rbd are plain files on a tmpfs. `rbd device map`, which
# ccbench runs, is this release's CLI against the real cluster: it writes
# its request (monitor addresses, name, options) into add_single_major as
# it would to the driver, then waits for a device that never comes. CMD
# is then interrupted (SIGINT) and must unwind; the request, its key
# replaced by X, goes to OUT, CMD's exit status to OUT.rc, its stderr to
# OUT.err. For the map options of each release where this kernel has no
# rbd driver. Bounded: 30 s for the request, 30 s for CMD to stop.
map_request() {
	local out=$1
	shift
	# "unchanged", then /sys private in the new namespace alone: a chroot's
	# / is no mount point, whose propagation unshare could not change.
	unshare -m --propagation unchanged bash -s "$out" "$@" <<'SH' || fail "map_request: exit $? (90: no fake sysfs)"
set -u
out=$1
shift
mount --make-rprivate /sys && mount -t tmpfs tmpfs /sys/bus && mkdir /sys/bus/rbd && : >/sys/bus/rbd/add_single_major &&
	: >/sys/bus/rbd/add && mount -t tmpfs tmpfs /sys/module &&
	mkdir -p /sys/module/rbd/parameters && echo Y >/sys/module/rbd/parameters/single_major || exit 90
"$@" >"$out.out" 2>"$out.err" &
pid=$!
for _ in $(seq 300); do
	[ -s /sys/bus/rbd/add_single_major ] && break
	sleep 0.1
done
sleep 0.3
kill -INT "$pid"
for _ in $(seq 300); do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.1
done
kill -KILL "$pid" 2>/dev/null
wait "$pid"
echo $? >"$out.rc"
sed -E 's/(secret|key)=[^ ,]*/\1=X/g' /sys/bus/rbd/add_single_major >"$out"
SH
}

# fake_rbd_sysfs CMD...: run CMD to its end (at most 60 s) in a mount
# namespace whose /sys/bus/rbd and /sys/module/rbd are plain files on a
# tmpfs, as map_request's, for a map that fails without waiting (an
# option the CLI refuses). CMD's exit status is returned.
fake_rbd_sysfs() {
	unshare -m --propagation unchanged bash -s "$@" <<'SH'
set -u
mount --make-rprivate /sys && mount -t tmpfs tmpfs /sys/bus && mkdir /sys/bus/rbd && : >/sys/bus/rbd/add_single_major &&
	: >/sys/bus/rbd/add && mount -t tmpfs tmpfs /sys/module &&
	mkdir -p /sys/module/rbd/parameters && echo Y >/sys/module/rbd/parameters/single_major || exit 90
exec timeout 60 "$@"
SH
}
