# fs through a mount: bad input is refused with exit 2 and one message
# before anything is mounted or made; a symbolic link planted where the
# run's directory would go (or on its way) is refused, on a local file
# system and on the CephFS through ceph-fuse, and nothing is written where
# it points. About 20 s.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fsmount_lib.sh"

# A cluster nobody answers for: a mount attempt would wait out the 60 s
# --connect-timeout, so a quick exit 2 shows the input was refused first.
printf '[global]\n\tmon host = 127.0.0.1:1\n' >nomon.conf
nomon() { "$CCBENCH" "$@" -q -c nomon.conf --connect-timeout 60s; }
refuse() { expect_refused --within 20 --one "$1" nomon "${@:2}"; }

local_fs tmpfs
refuse "give one of them" fs write --mount "$LOCAL" --mount-via fuse
refuse "give one of them" fs write --mount "$LOCAL" --mount-via libcephfs
refuse "only with --mount-via fuse or kernel" fs write --mount-options rasize=4194304
refuse "only with --mount-via fuse or kernel" fs write --mount "$LOCAL" --mount-options ro
refuse "secret would show the key" fs write --mount-via kernel --mount-options name=admin,secret=AQB
refuse "key would show the key" fs write --mount-via fuse --mount-options key=AQB
refuse "expected OPT\[=VALUE\]" fs write --mount-via fuse --mount-options 'a;rm -rf'
refuse "expected OPT\[=VALUE\]" fs write --mount-via fuse --mount-options=-o
refuse "--direct: only on a mount" fs write --direct
refuse "--direct: only on a mount" fs read --mount-via libcephfs --direct
refuse "multiple of 4096" fs write --mount "$LOCAL" --direct --block-size 6K --file-size 12K
refuse "--mount 'rel': expected the absolute path" fs write --mount rel
refuse "--mount $WORK/nosuch: No such file" fs write --mount "$WORK/nosuch"
: >"$WORK/afile"
refuse "--mount $WORK/afile: not a directory" fs write --mount "$WORK/afile"
refuse "--mount-via 'nfs': expected one of libcephfs|fuse|kernel" fs write --mount-via nfs
refuse "not on a CephFS mount" fs write --mount "$LOCAL" --object-size 8M
refuse "not on a CephFS mount" fs write --mount "$LOCAL" --data-pool cephfs_data
refuse "--clients must be 1" fs meta --mount "$LOCAL" --clients 2
refuse "fs meta: --direct: not for files of any size" fs meta --mount "$LOCAL" --direct
refuse "--dir '/a/../b'" fs write --mount "$LOCAL" --dir /a/../b
# This host's kernel may lack the CephFS client: then --mount-via kernel is
# refused as bad input, naming why (the krbd-vm guest has it).
if grep -qw ceph /proc/filesystems || modinfo ceph >/dev/null 2>&1; then
	echo "note: this kernel has a CephFS client: --mount-via kernel is not refused here"
else
	refuse "has no CephFS client" fs write --mount-via kernel
fi
[ -z "$(our_fs_mounts)$(state_files)$(our_mount_dirs)" ] ||
	fail "a refused run left: $(our_fs_mounts) $(state_files) $(our_mount_dirs)"
[ -z "$(ls -A "$LOCAL")" ] || fail "a refused run wrote into $LOCAL: $(ls -A "$LOCAL")"

# A symbolic link planted where the run's directory would go, or on its
# way, is never followed: refused (exit 2), nothing made where it points.
mkdir "$LOCAL/target"
ln -s "$LOCAL/target" "$LOCAL/link"
ln -s / "$LOCAL/root"
expect_refused --one "a symbolic link: never followed" "$CCBENCH" fs write -q --mount "$LOCAL" \
	--dir /link --file-size 4M
expect_refused --one "never followed" "$CCBENCH" fs write -q --mount "$LOCAL" --dir /link/run \
	--file-size 4M
expect_refused --one "never followed" "$CCBENCH" fs meta -q --mount "$LOCAL" --dir /root/tmp
[ -z "$(ls -A "$LOCAL/target")" ] || fail "written through the link: $(ls -A "$LOCAL/target")"
ls -d /tmp/run /ccbench-* 2>/dev/null && fail "written through the link to /"

# The same on the CephFS, through ccbench's own ceph-fuse mount.
. "$(dirname "$0")/fs_lib.sh"
on_exit rm -rf "$FSMNT/ccbt-mbi-target" "$FSMNT/ccbt-mbi-link"
mkdir "$FSMNT/ccbt-mbi-target"
ln -s ccbt-mbi-target "$FSMNT/ccbt-mbi-link"
# (Not --one: on a loaded host the unmount may take long enough to be said.)
expect_refused "a symbolic link: never followed" "$CCBENCH" fs write -q --mount-via fuse \
	--dir /ccbt-mbi-link --file-size 4M
expect_refused "never followed" "$CCBENCH" fs write -q --mount-via fuse \
	--dir /ccbt-mbi-link/run --file-size 4M
[ -z "$(ls -A "$FSMNT/ccbt-mbi-target")" ] ||
	fail "written through the link on the CephFS: $(ls -A "$FSMNT/ccbt-mbi-target")"
assert_unmounted "refused on the CephFS"
echo "fs mount bad input: ok"
