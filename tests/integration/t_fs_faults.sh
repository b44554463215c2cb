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
restore_mds() {
	ceph_cli fs set cephfs joinable true >/dev/null 2>&1 || true
	for i in $(seq 1 60); do
		ceph_cli fs status cephfs 2>/dev/null | grep -q active && return 0
		sleep 1
	done
	fail "the MDS did not come back"
}
trap restore_mds EXIT
ceph_cli fs fail cephfs >/dev/null 2>&1
timed "$CCBENCH" fs write -q --connect-timeout 5s --file-size 4M 2>err.txt
[ "$RC" = 1 ] || fail "no MDS: exit $RC"
grep -q "ceph_mount(.*Connection timed out (no MDS answered within --connect-timeout" err.txt ||
	fail "no MDS: $(cat err.txt)"
[ "$ELAPSED" -le 12 ] || fail "no MDS: $ELAPSED s for --connect-timeout 5s"
restore_mds
trap - EXIT

# A data pool over its quota: ENOSPC named as a full pool, the run's
# directory removed.
. "$(dirname "$0")/fs_lib.sh"
unquota() { ceph_cli osd pool set-quota cephfs_data max_bytes 0 >/dev/null 2>&1 || true; }
trap 'unquota; rm -rf "${FSMNT:?}/ccbt-fill"; fs_umount' EXIT
"$CCBENCH" fs write -q --file-size 16M --dir /ccbt-fill --keep >/dev/null || fail "fill"
ceph_cli osd pool set-quota cephfs_data max_bytes $((4 << 20)) >/dev/null 2>&1
for i in $(seq 1 60); do
	ceph_cli osd pool ls detail | grep -q "'cephfs_data'.*full" && break
	sleep 1
done
ceph_cli osd pool ls detail | grep -q "'cephfs_data'.*full" || fail "quota never applied"
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
for i in $(seq 1 60); do
	ceph_cli osd pool ls detail | grep -q "'cephfs_data'.*full" || break
	sleep 1
done
! ceph_cli osd pool ls detail | grep -q "'cephfs_data'.*full" || fail "cephfs_data stayed full"
echo "fs faults: ok"
