# fs faults: no filesystem of that name, no active MDS (a clear error
# within --connect-timeout, never a hang), and a full data pool (a clear
# message, nothing left behind).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# A filesystem that does not exist.
timed "$CCBENCH" fs write -q -o client_fs=ccbt-nosuchfs --connect-timeout 5s --file-size 4M \
	2>err.txt
[ "$RC" = 1 ] || fail "no such fs: exit $RC"
grep -q "ceph_mount(.*fs ccbt-nosuchfs): .*no such filesystem" err.txt || fail "$(cat err.txt)"
[ "$ELAPSED" -le 10 ] || fail "no such fs: $ELAPSED s"

# No active MDS: the filesystem's ranks failed. Restored whatever happens.
mds_failed=0
restore_mds() {
	[ "$mds_failed" = 1 ] || return 0
	ceph_cli fs set cephfs joinable true >/dev/null 2>&1 || true
	wait_for 60 "the MDS to come back" eval 'ceph_cli fs status cephfs 2>/dev/null | gq active'
	mds_failed=0
}
on_exit restore_mds
mds_failed=1
ceph_cli fs fail cephfs >/dev/null 2>&1
timed "$CCBENCH" fs write -q --connect-timeout 5s --file-size 4M 2>err.txt
[ "$RC" = 1 ] || fail "no MDS: exit $RC"
grep -q "ceph_mount(.*Connection timed out (no MDS answered within --connect-timeout" err.txt ||
	fail "no MDS: $(cat err.txt)"
[ "$ELAPSED" -le 12 ] || fail "no MDS: $ELAPSED s for --connect-timeout 5s"
restore_mds

# A data pool over its quota: ENOSPC named as a full pool, the run's
# directory removed.
. "$(dirname "$0")/fs_lib.sh"
unquota() { ceph_cli osd pool set-quota cephfs_data max_bytes 0 >/dev/null 2>&1 || true; }
data_full() { ceph_cli osd pool ls detail | gq "'cephfs_data'.*full"; }
# At exit (last registered, first run): unquota, then remove the files.
on_exit rm -rf "${FSMNT:?}/ccbt-fill"
on_exit unquota
"$CCBENCH" fs write -q --file-size 16M --dir /ccbt-fill --keep >/dev/null || fail "fill"
ceph_cli osd pool set-quota cephfs_data max_bytes $((4 << 20)) >/dev/null 2>&1
wait_for 60 "the quota to apply (cephfs_data full)" data_full
timed timeout 120 "$CCBENCH" fs write -q --file-size 64M -f json >q.json 2>err.txt
[ "$RC" = 1 ] || fail "full pool: exit $RC"
grep -q "No space left on device (the data pool is full or over its quota)" err.txt ||
	fail "full pool: $(cat err.txt)"
jcheck q.json 'd["status"] == "aborted"' '"full" in d["error"]'
[ -z "$(fs_root_ccbench)" ] || fail "full pool left $(fs_root_ccbench)"
unquota
# Leave the pool as found: later tests write to it, and the osdmap keeps the
# full flag until the PG stats have caught up with the lifted quota.
rm -rf "${FSMNT:?}/ccbt-fill"
wait_for 60 "cephfs_data to be full no more" eval '! data_full'
echo "fs faults: ok"
