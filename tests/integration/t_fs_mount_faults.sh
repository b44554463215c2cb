# fs through ccbench's own ceph-fuse mounts, on every end: Ctrl-C and
# SIGTERM mid-run (exit 130/143, unmounted, the run's directory removed),
# SIGKILL (the mounts outlive ccbench; the next run reports them and
# `ccbench restore` takes them down, touching nothing else), and every OSD
# frozen mid-write (the run ends bounded by --op-timeout, aborted, and
# unmounts; what could not be removed is said). About two minutes.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fsmount_lib.sh"
. "$(dirname "$0")/fs_lib.sh"
root_dirs_before
on_exit evict_our_sessions

# started RUN_ERR: the run's first progress line (the clock has started).
started() { grep -qE '^ +[0-9]+ ' "$1"; }

# 1. Ctrl-C mid-write: 2 clients, 3 mounts; all gone, the directory too.
"$CCBENCH" fs write --mount-via fuse --clients 2 --file-size 4G --block-size 4M -f json \
	>i.json 2>i.err &
pid=$!
wait_for 60 "the write to start" started i.err
[ "$(our_fs_mounts | wc -l)" = 3 ] || fail "SIGINT: $(our_fs_mounts | wc -l) mounts during the run"
signal_wait $pid INT 130 20 i.err
jcheck i.json 'd["status"] == "interrupted"' 'd["bytes"] > 0'
assert_unmounted "SIGINT"
[ -z "$(new_run_dirs)" ] || fail "SIGINT left on the CephFS: $(new_run_dirs)"

# 2. SIGTERM mid-read (the prefill is through the control mount).
"$CCBENCH" fs read --mount-via fuse --file-size 1G --block-size 1M -f json >t.json 2>t.err &
pid=$!
wait_for 120 "the read to start" started t.err
signal_wait $pid TERM 143 20 t.err
jcheck t.json 'd["status"] == "interrupted"'
assert_unmounted "SIGTERM"
[ -z "$(new_run_dirs)" ] || fail "SIGTERM left on the CephFS: $(new_run_dirs)"

# 3. SIGKILL: the mounts and their ceph-fuse outlive ccbench; the next run
#    says so, and restore takes down exactly them. A file of the user's on
#    the CephFS and the user's own mount stay as they were.
echo sentinel >"$FSMNT/ccbt-fmf-sentinel"
on_exit rm -f "$FSMNT/ccbt-fmf-sentinel"
"$CCBENCH" fs write -q --mount-via fuse --clients 2 --file-size 4G --block-size 4M \
	>/dev/null 2>k.err &
pid=$!
wait_for 60 "the 3 mounts" eval '[ "$(our_fs_mounts | wc -l)" = 3 ]'
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null || true
[ "$(our_fs_mounts | wc -l)" = 3 ] || fail "SIGKILL: $(our_fs_mounts | wc -l) mounts left, expected 3"
[ -n "$(state_files)" ] || fail "SIGKILL: no state file"
"$CCBENCH" fs write -q --mount-via fuse --file-size 4M >/dev/null 2>n.err || fail "next run failed"
[ "$(grep -c "died without undoing: unmount fuse" n.err)" = 3 ] ||
	fail "next run did not report the 3 mounts: $(cat n.err)"
grep -q "ccbench restore" n.err || fail "no restore hint: $(cat n.err)"
"$CCBENCH" restore >rs.out || fail "restore: exit $?: $(cat rs.out)"
[ "$(grep -c "ceph-fuse unmounted" rs.out)" = 3 ] || fail "restore output: $(cat rs.out)"
assert_unmounted "restore"
"$CCBENCH" krbd restore >rs2.out || fail "second restore (alias): exit $?"
grep -q "nothing to restore" rs2.out || fail "second restore: $(cat rs2.out)"
[ "$(cat "$FSMNT/ccbt-fmf-sentinel")" = sentinel ] || fail "the user's file changed"
grep -qF " $FSMNT " /proc/mounts || fail "restore took the user's own mount"
# The killed run's directory stays on the CephFS (as after any SIGKILL):
# its files carry the marker, which is how one tells it is ccbench's.
left=$(new_run_dirs)
[ "$(echo "$left" | grep -c .)" = 1 ] || fail "SIGKILL: run directories left: '$left' (expected one)"
getfattr --absolute-names --only-values -n user.ccbench "$FSMNT/$left" | gq "^ccbench run " ||
	fail "the killed run's directory has no marker"
rm -rf "${FSMNT:?}/$left"

# 4. Every OSD frozen mid-write: the calls wait in the kernel, the monitor
#    abandons them at --op-timeout, the run ends aborted and unmounts.
T=5
pids=$(cat "$CLUSTER_DIR"/run/osd.*.pid)
thaw() { for p in $pids; do kill -CONT "$p" 2>/dev/null || true; done; }
on_exit thaw
"$CCBENCH" fs write --mount-via fuse --clients 2 --file-size 4G --block-size 4M --op-timeout ${T}s \
	-f json >f.json 2>f.err &
pid=$!
wait_for 60 "the write to start" started f.err
sleep 1
for p in $pids; do kill -STOP "$p"; done
t_stop=${EPOCHREALTIME/./}
# Bounded: --op-timeout, then each removal waits (the first --op-timeout,
# the rest a second) and each unmount stops its ceph-fuse.
poll 90 exited $pid || { thaw; fail "frozen OSDs: still running 90 s later: $(tail -5 f.err)"; }
timed wait $pid
secs=$(((${EPOCHREALTIME/./} - t_stop) / 1000000))
thaw
[ "$RC" = 1 ] || fail "frozen OSDs: exit $RC: $(tail -5 f.err)"
jcheck f.json 'd["status"] == "aborted"' '"--op-timeout" in d["error"]' \
	'any("abandoned" in w for w in d["warnings"])'
grep -q "left behind" f.err || fail "frozen OSDs: what was left is not said: $(cat f.err)"
assert_unmounted "frozen OSDs"
wait_osds_up
evict_our_sessions
for d in $(new_run_dirs); do rm -rf "${FSMNT:?}/$d"; done
echo "note: frozen OSDs (--op-timeout ${T}s): ccbench exited $secs s after the freeze, unwind included"
echo "fs mount faults: ok"
