# Helpers for the tests of fs through a mount (t_fs_mount*.sh), sourced
# after lib.sh. Each test keeps its crash state and ccbench's mount points
# in its own CCB_STATE_DIR, so tests side by side never see each other's.
export CCB_STATE_DIR=$WORK/state-$(basename "$0" .sh)
mkdir -p -m 0700 "$CCB_STATE_DIR"

# Mounts under our state dir ("MOUNTPOINT FSTYPE"), and the ceph-fuse
# processes serving them.
our_fs_mounts() {
	awk -v d="$CCB_STATE_DIR/" 'index($2, d) == 1 {print $2, $3}' /proc/mounts
}
our_ceph_fuse() {
	pgrep -af ceph-fuse | grep -F "$CCB_STATE_DIR/" | grep -v pgrep || true
}
state_files() {
	ls "$CCB_STATE_DIR"/run-*.json 2>/dev/null || true
}
# Mount points and logs ccbench made and did not remove.
our_mount_dirs() {
	ls -d "$CCB_STATE_DIR"/mnt-* 2>/dev/null || true
}

# assert_unmounted WHAT: nothing of ccbench's mounts is left.
assert_unmounted() {
	# ceph-fuse exits just after its unmount; give it a moment.
	poll 10 eval '[ -z "$(our_ceph_fuse)" ]' || true
	[ -z "$(our_fs_mounts)" ] || fail "$1: mount left: $(our_fs_mounts)"
	[ -z "$(our_ceph_fuse)" ] || fail "$1: ceph-fuse left: $(our_ceph_fuse)"
	[ -z "$(our_mount_dirs)" ] || fail "$1: mount point or log left: $(our_mount_dirs)"
	[ -z "$(state_files)" ] || fail "$1: state file left: $(cat $(state_files))"
}

# max_mounts CMD...: run CMD in the background and set MAX_MOUNTS to the
# most ccbench mounts seen at once while it ran; RC its exit status.
max_mounts() {
	local pid n
	MAX_MOUNTS=0
	"$@" &
	pid=$!
	while running "$pid"; do
		n=$(our_fs_mounts | wc -l)
		[ "$n" -gt "$MAX_MOUNTS" ] && MAX_MOUNTS=$n
		sleep 0.1
	done
	RC=0
	wait "$pid" || RC=$?
}

# local_fs TYPE: sets LOCAL to a fresh mount of its own: tmpfs, or xfs on a
# loop device over a sparse file (what seeds 000, 001 and 004 measured);
# unmounted and detached at exit.
local_fs() {
	local img loop
	LOCAL=$(mktemp -d "$WORK/local-$1.XXXXXX")
	if [ "$1" = tmpfs ]; then
		mount -t tmpfs -o size=256M ccbt-tmpfs "$LOCAL" || fail "mount tmpfs"
		on_exit umount "$LOCAL"
		return
	fi
	img=$WORK/$1-$$.img
	truncate -s 512M "$img"
	mkfs."$1" -q "$img" >/dev/null 2>&1 || fail "mkfs.$1 $img"
	loop=$(losetup -f --show "$img") || fail "losetup $img"
	on_exit rm -f "$img"
	on_exit losetup -d "$loop"
	mount "$loop" "$LOCAL" || fail "mount $loop"
	on_exit umount "$LOCAL"
}

# evict_our_sessions: MDS sessions of ceph-fuse clients ccbench killed
# (their mount points are under our state dir) hold caps until they time
# out (about a minute), which slows the tests after this one: evicted.
evict_our_sessions() {
	local id
	for id in $(timeout 30 ceph --connect-timeout 10 tell mds.0 client ls -f json 2>/dev/null |
		python3 -c '
import json, sys
for s in json.load(sys.stdin):
    mp = s.get("client_metadata", {}).get("mount_point", "")
    if mp.startswith(sys.argv[1] + "/"):
        print(s["id"])' "$CCB_STATE_DIR"); do
		timeout 30 ceph --connect-timeout 10 tell mds.0 client evict id="$id" >/dev/null 2>&1 || true
	done
}

# new_run_dirs: ccbench-* directories at the root of the CephFS that were
# not there when the test began (another test's leftovers are not ours).
# Call root_dirs_before once, after sourcing fs_lib.sh.
root_dirs_before() { ROOT_BEFORE=$(fs_root_ccbench | sort); }
new_run_dirs() { comm -13 <(echo "$ROOT_BEFORE") <(fs_root_ccbench | sort) | grep . || true; }
