# fs write, read and meta through a mount: ceph-fuse mounted by ccbench
# (--mount-via fuse, one mount per client plus the control mount), the
# user's own ceph-fuse mount (--mount), and local file systems (tmpfs, XFS
# on a loop device). Checks the result says what was measured (client,
# mount type and options, the layout read back through the
# ceph.file.layout xattrs, the cluster's state), what explain says of
# the mount's limits and of the page cache, and that nothing is left. About
# a minute.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fsmount_lib.sh"
. "$(dirname "$0")/fs_lib.sh"
root_dirs_before
on_exit rm -rf "$FSMNT/ccbt-fm"
fsid=$(ceph_cli fsid)

# 1. Write through ccbench's own ceph-fuse mounts, one per client, with a
#    layout of our own, kept for the reads.
max_mounts "$CCBENCH" fs write -q --mount-via fuse --clients 2 --file-size 32M --block-size 4M \
	--object-size 8M --stripe-unit 1M --stripe-count 2 --dir /ccbt-fm --keep -f json --output w.json
[ "$RC" = 0 ] || fail "write: exit $RC"
[ "$MAX_MOUNTS" = 3 ] || fail "write: $MAX_MOUNTS mounts at once, expected 3 (control + 2 clients)"
jcheck w.json 'd["status"] == "ok"' 'd["path"] == "posix"' 'd["bytes"] == 2 * 32 << 20' \
	'd["layout"]["client"] == "fuse"' 'd["layout"]["mount"]["fstype"] == "fuse.ceph-fuse"' \
	'd["layout"]["mount"]["via"] == "fuse"' 'd["layout"]["mount"]["one_per_client"]' \
	'd["layout"]["file_layout"]["object_size"] == 8 << 20' \
	'd["layout"]["file_layout"]["stripe_unit"] == 1 << 20' \
	'd["layout"]["file_layout"]["stripe_count"] == 2' \
	'd["layout"]["file_layout"]["pool"] == "cephfs_data"' \
	'd["layout"]["fsync_in_time"]' "d[\"fsid\"] == \"$fsid\"" \
	'"start" in d["cluster_state"] and "end" in d["cluster_state"]' \
	'd["layout"]["mount"]["ceph_fuse"]["fuse_multithreaded"] is True' \
	'any(e["kind"] == "mount" and "ceph-fuse" in e["text"] and "128K" in e["text"] for e in d["explain"])'
assert_unmounted "write"
# The same, seen through an independent mount: sizes, layout, marker.
for c in 0 1; do
	[ "$(stat -c %s "$FSMNT/ccbt-fm/client-$c")" = $((32 << 20)) ] || fail "client-$c size"
	fs_layout ccbt-fm/client-$c | gq "stripe_unit=1048576 stripe_count=2 object_size=8388608" ||
		fail "client-$c layout: $(fs_layout ccbt-fm/client-$c)"
	getfattr --absolute-names --only-values -n user.ccbench "$FSMNT/ccbt-fm/client-$c" | gq "^ccbench run " ||
		fail "client-$c: no ccbench marker"
done

# 2. Read them back cold through fresh ceph-fuse mounts.
"$CCBENCH" fs read -q --mount-via fuse --clients 2 --dir /ccbt-fm -f json >r.json ||
	fail "read: exit $?"
jcheck r.json 'd["status"] == "ok"' 'd["bytes"] == 2 * 32 << 20' \
	'd["layout"]["page_cache"]["resident_at_start_bytes"] == 0' \
	'd["layout"]["page_cache"]["file_bytes"] == 2 * 32 << 20' \
	'not any(e["kind"] == "cache" for e in d["explain"])'
assert_unmounted "read"

# 3. Through the user's own ceph-fuse mount: said so, and its own cache
#    (client_oc), which dropping the page cache does not reach, is warned of.
"$CCBENCH" fs read -q --mount "$FSMNT" --dir /ccbt-fm -f json >u.json || fail "--mount read: exit $?"
jcheck u.json 'd["status"] == "ok"' 'd["layout"]["client"] == "fuse"' \
	'd["layout"]["mount"]["via"] == "--mount"' 'not d["layout"]["mount"]["one_per_client"]' \
	"d[\"layout\"][\"mount\"][\"mountpoint\"] == \"$FSMNT\"" \
	'any(e["kind"] == "cache" and e["severity"] == "warn" and "client_oc" in e["text"] for e in d["explain"])'
[ -z "$(ls "$FSMNT/ccbt-fm" | grep -v '^client-[01]$')" ] || fail "--mount read left: $(ls "$FSMNT/ccbt-fm")"
rm -rf "$FSMNT/ccbt-fm"

# 4. O_DIRECT writes and reads through ceph-fuse; fs meta.
"$CCBENCH" fs write -q --mount-via fuse --direct --file-size 16M -f json >d.json ||
	fail "--direct write: exit $?"
jcheck d.json 'd["status"] == "ok"' 'd["layout"]["direct"]'
"$CCBENCH" fs meta -q --mount-via fuse -n 1:4k:0:4 -f json >m.json || fail "meta: exit $?"
jcheck m.json 'd["status"] == "ok"' 'd["path"] == "posix"' 'len(d["phases"]) == 6' \
	'all(p["complete"] for p in d["phases"])'
assert_unmounted "direct, meta"
[ -z "$(new_run_dirs)" ] || fail "left on the CephFS: $(new_run_dirs)"

# 5. Local file systems, the same code: tmpfs keeps every page, so its
#    read is distrusted; XFS drops them, so its read is not.
local_fs tmpfs
"$CCBENCH" fs read -q --mount "$LOCAL" --file-size 32M --block-size 1M -f json >t.json ||
	fail "tmpfs read: exit $?"
jcheck t.json 'd["status"] == "ok"' 'd["layout"]["client"] == "local"' \
	'd["layout"]["mount"]["fstype"] == "tmpfs"' '"file_layout" not in d["layout"]' \
	'd["layout"]["page_cache"]["resident_at_start_bytes"] == 32 << 20' \
	'any(e["kind"] == "cache" and e["severity"] == "distrust" and "tmpfs" in e["text"] for e in d["explain"])' \
	'"cluster_state" not in d'
[ -z "$(ls -A "$LOCAL")" ] || fail "tmpfs: left $(ls -A "$LOCAL")"
local_fs xfs
"$CCBENCH" fs write -q --mount "$LOCAL" --clients 2 --file-size 32M --block-size 1M -f json >x.json ||
	fail "xfs write: exit $?"
jcheck x.json 'd["status"] == "ok"' 'd["layout"]["mount"]["fstype"] == "xfs"' 'd["bytes"] == 64 << 20'
"$CCBENCH" fs read -q --mount "$LOCAL" --file-size 32M --block-size 1M -f json >xr.json ||
	fail "xfs read: exit $?"
jcheck xr.json 'd["status"] == "ok"' \
	'd["layout"]["page_cache"]["resident_at_start_bytes"] < (32 << 20) * 0.2' \
	'not any(e["kind"] == "cache" for e in d["explain"])'
"$CCBENCH" fs meta -q --mount "$LOCAL" -n 1:4k:0:8 -f json >xm.json || fail "xfs meta: exit $?"
jcheck xm.json 'd["status"] == "ok"' 'all(p["complete"] for p in d["phases"])'
[ -z "$(ls -A "$LOCAL")" ] || fail "xfs: left $(ls -A "$LOCAL")"
echo "note: ceph-fuse write $(jget w.json 'round(d["bandwidth_mib_s"])') MiB/s, read $(jget r.json 'round(d["bandwidth_mib_s"])') MiB/s (2 clients); xfs write $(jget x.json 'round(d["bandwidth_mib_s"])') MiB/s"
echo "fs mount: ok"
