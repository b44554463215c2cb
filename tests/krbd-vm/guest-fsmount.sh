# The CephFS kernel client (mount -t ceph) through ccbench --mount-via
# kernel; runs inside the krbd-vm guest (tests/krbd-vm/run-in-guest.sh),
# started by tests/integration/t_fs_mount_vm.sh with CCBENCH and CEPH_CONF
# set. Debian's kernel has the ceph module; this host's has none.
#
# usage: guest-fsmount.sh           the checks (about four minutes under TCG)
#        guest-fsmount.sh --sweep   configs/fs-clients.json, all three clients
#                                   (libcephfs, ceph-fuse, kernel), small files;
#                                   the table, then the JSON between markers
#
# Asserts what was mounted and how (one kernel client per mount, noshare,
# the run's timeouts, no secret on any command line or in the result),
# the layout read back through the ceph.file.layout xattrs, cold reads
# (nothing of the files in the page cache when the readers begin), the
# mounts taken down on every end: normal, Ctrl-C, SIGKILL then restore.
# Counts and facts, never speeds (TCG).
set -euo pipefail
export CCB_STATE_DIR=/run/ccbench-fsmount-test
mkdir -p -m 0700 "$CCB_STATE_DIR"

fail() {
	echo "FAIL: $*" >&2
	exit 1
}
step() { echo "== $(date +%T) $*"; }
j() { jq -r "$2" "$1"; }
ours() { awk -v d="$CCB_STATE_DIR/" 'index($2, d) == 1 {print $2, $3}' /proc/mounts; }
state_files() { ls "$CCB_STATE_DIR"/run-*.json 2>/dev/null || true; }
assert_clean() {
	[ -z "$(ours)" ] || fail "$1: mounts left: $(ours)"
	[ -z "$(ls -d "$CCB_STATE_DIR"/mnt-* 2>/dev/null)" ] || fail "$1: mount points left"
	[ -z "$(state_files)" ] || fail "$1: state file left: $(cat $(state_files))"
}
grep -qw ceph /proc/filesystems || fail "no ceph in /proc/filesystems (the ceph module did not load)"

if [ "${1:-}" = --sweep ]; then
	step "sweep configs/fs-clients.json (libcephfs, fuse, kernel) in the guest"
	cfg=$(dirname "$CCBENCH")/../configs/fs-clients.json
	[ -r "$cfg" ] || cfg=${CCB_CONFIGS:-/nonexistent}/fs-clients.json
	"$CCBENCH" sweep "$cfg" --param file-size=64M --param block-size=4M \
		--repeat "${SWEEP_REPEAT:-2}" --json sweep.json --svg sweep.svg -q || fail "sweep exit $?"
	echo "CCB-SWEEP-JSON-BEGIN"
	cat sweep.json
	echo "CCB-SWEEP-JSON-END"
	echo "CCB-SWEEP-SVG-BEGIN"
	cat sweep.svg
	echo "CCB-SWEEP-SVG-END"
	assert_clean "sweep"
	exit 0
fi

key=$(ceph-authtool -p "$(ceph-conf --lookup keyring | tr ',' '\n' | head -1)" 2>/dev/null || true)

# ---- 1. write: three kernel mounts, each its own client -----------------------
step "fs write --mount-via kernel --clients 2"
"$CCBENCH" fs write --mount-via kernel --clients 2 --file-size 8M --block-size 1M \
	--object-size 4M --stripe-unit 1M --stripe-count 2 -q -f json >w.json 2>w.err &
pid=$!
max=0 seen_ps=0
while kill -0 $pid 2>/dev/null; do
	n=$(ours | wc -l)
	[ "$n" -gt "$max" ] && max=$n
	# The key is never on a command line, of ccbench's or of its helpers.
	if [ -n "$key" ] && ps -eo args | grep -v grep | grep -qF -- "$key"; then seen_ps=1; fi
	sleep 0.2
done
wait $pid || fail "write exit $?: $(cat w.err)"
[ -n "$key" ] || fail "could not read the key to look for it"
[ "$seen_ps" = 0 ] || fail "the key showed in ps"
[ "$max" = 3 ] || fail "$max kernel mounts at once, expected 3 (control + 2 clients)"
[ "$(j w.json .status)" = ok ] || fail "status $(j w.json .status): $(cat w.err)"
[ "$(j w.json .path)" = posix ] || fail "path $(j w.json .path)"
[ "$(j w.json .layout.client)" = kernel ] || fail "client $(j w.json .layout.client)"
[ "$(j w.json .layout.mount.fstype)" = ceph ] || fail "fstype $(j w.json .layout.mount.fstype)"
[ "$(j w.json .layout.mount.one_per_client)" = true ] || fail "one_per_client"
[ "$(j w.json .layout.mount.kernel.noshare)" = true ] ||
	fail "noshare not in the mount's options: $(j w.json .layout.mount.super_options)"
j w.json .layout.mount.super_options | grep -q "osd_request_timeout=" ||
	fail "osd_request_timeout not in the mount's options: $(j w.json .layout.mount.super_options)"
[ "$(j w.json .layout.file_layout.object_size)" = $((4 << 20)) ] || fail "object_size"
[ "$(j w.json .layout.file_layout.stripe_unit)" = $((1 << 20)) ] || fail "stripe_unit"
[ "$(j w.json .layout.file_layout.stripe_count)" = 2 ] || fail "stripe_count"
[ "$(j w.json .bytes)" = $((16 << 20)) ] || fail "bytes $(j w.json .bytes)"
! grep -qF -- "$key" w.json || fail "the key is in the result"
j w.json '.explain[] | select(.kind == "mount") | .text' | grep -q "kernel client" ||
	fail "no kernel client line in explain"
echo "   options: $(j w.json .layout.mount.super_options)"
echo "   explain: $(j w.json '.explain[] | select(.kind == "mount") | .text')"
assert_clean "write"

# ---- 2. read: cold, through fresh mounts --------------------------------------
step "fs read --mount-via kernel --clients 2"
"$CCBENCH" fs read --mount-via kernel --clients 2 --file-size 8M --block-size 1M -q -f json \
	>r.json 2>r.err || fail "read exit $?: $(cat r.err)"
[ "$(j r.json .status)" = ok ] || fail "read status"
[ "$(j r.json .layout.page_cache.resident_at_start_bytes)" = 0 ] ||
	fail "$(j r.json .layout.page_cache.resident_at_start_bytes) bytes cached when the readers began"
j r.json '.explain[] | select(.kind == "mount") | .text' | grep -q "rasize" ||
	fail "no readahead (rasize) in explain"
echo "   rasize $(j r.json .layout.mount.kernel.rasize), $(j r.json .bytes) bytes read cold"
assert_clean "read"

# ---- 3. O_DIRECT ----------------------------------------------------------------
step "fs write --mount-via kernel --direct"
"$CCBENCH" fs write --mount-via kernel --direct --file-size 4M --block-size 1M -q -f json \
	>d.json 2>d.err || fail "--direct exit $?: $(cat d.err)"
[ "$(j d.json .layout.direct)" = true ] || fail "direct"
assert_clean "direct"

# ---- 4. Ctrl-C mid-run (fs meta: its files are many and small) ----------------
step "Ctrl-C mid fs meta"
"$CCBENCH" fs meta --mount-via kernel -n 1:0:0:1 -f json >i.json 2>i.err &
pid=$!
for _ in $(seq 1 600); do grep -qE '^ +[0-9]+ ' i.err && break; sleep 0.2; done
grep -qE '^ +[0-9]+ ' i.err || fail "fs meta never started: $(cat i.err)"
kill -INT $pid
s0=$(date +%s)
rc=0
wait $pid || rc=$?
[ $rc = 130 ] || fail "Ctrl-C: exit $rc: $(tail -5 i.err)"
echo "   exit 130 after $(($(date +%s) - s0)) s, $(j i.json '[.phases[].ops] | add') ops done"
[ "$(j i.json .status)" = interrupted ] || fail "Ctrl-C: status"
[ "$(j i.json '.phases[0].ops > 0')" = true ] || fail "Ctrl-C: no create done"
assert_clean "Ctrl-C"

# ---- 5. SIGKILL, then restore -----------------------------------------------
step "SIGKILL mid-write, then ccbench restore"
"$CCBENCH" fs write --mount-via kernel --file-size 2G --block-size 1M -q -f json >/dev/null 2>k.err &
pid=$!
for _ in $(seq 1 600); do [ "$(ours | wc -l)" = 2 ] && break; sleep 0.2; done
sleep 2
kill -KILL $pid
wait $pid 2>/dev/null || true
[ "$(ours | wc -l)" = 2 ] || fail "SIGKILL: $(ours | wc -l) mounts left, expected 2"
"$CCBENCH" restore >rs.out || fail "restore exit $?: $(cat rs.out)"
cat rs.out
[ "$(grep -c "kernel mount unmounted" rs.out)" = 2 ] || fail "restore: $(cat rs.out)"
assert_clean "restore"
step "all passed"
