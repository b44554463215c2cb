# Helpers for the CephFS tests (t_fs_*.sh), sourced after lib.sh.
#
# An independent view of the filesystem: a ceph-fuse mount of the test
# cluster's CephFS, so the tests check directories, sizes and layouts
# (the ceph.file.layout xattr) without going through ccbench.

command -v ceph-fuse >/dev/null || fail "ceph-fuse not installed (scripts/deps.sh)"
FSMNT=$(mktemp -d "${WORK:-/tmp}/fsmnt.XXXXXX")
fs_umount() {
	umount "$FSMNT" 2>/dev/null || umount -l "$FSMNT" 2>/dev/null || true
	rmdir "$FSMNT" 2>/dev/null || true
}
on_exit fs_umount
timeout 60 ceph-fuse -c "$CEPH_CONF" --client_mount_timeout 20 "$FSMNT" >/dev/null 2>&1 ||
	fail "ceph-fuse could not mount the test cluster's CephFS"

# fs_root_ccbench: the ccbench-* directories at the root of the filesystem.
fs_root_ccbench() {
	ls "$FSMNT" | grep '^ccbench-' || true
}

# fs_layout PATH: the ceph.file.layout xattr of PATH (relative to the fs root).
fs_layout() {
	getfattr --absolute-names --only-values -n ceph.file.layout "$FSMNT/$1"
}
