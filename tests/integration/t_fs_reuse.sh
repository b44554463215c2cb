# --reuse on CephFS: ccbench writes into an existing --dir, but never removes
# or replaces an entry it did not create. Files of an earlier ccbench run
# (marked with the user.ccbench xattr) may be replaced; anything else makes
# the run refuse (exit 2) before it changes anything, and what is refused
# is intact afterwards.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fs_lib.sh"

d=/ccbt-reuse
mkdir -p "$FSMNT$d/meta"
echo precious-meta >"$FSMNT$d/meta/mine"
head -c 8192 /dev/urandom >client0.orig
cp client0.orig "$FSMNT$d/client-0"
echo other >"$FSMNT$d/other"
intact() {
	[ "$(cat "$FSMNT$d/meta/mine")" = precious-meta ] || fail "$1: DIR/meta/mine changed or gone"
	cmp -s client0.orig "$FSMNT$d/client-0" || fail "$1: DIR/client-0 changed or gone"
	[ "$(cat "$FSMNT$d/other")" = other ] || fail "$1: DIR/other changed or gone"
}

# fs meta --reuse with someone's DIR/meta: refused, the tree untouched.
expect_refused --one "$d/meta" "$CCBENCH" fs meta -q -n 1 --dir $d --reuse
intact "fs meta --reuse"

# fs write --reuse with someone's DIR/client-0: refused, the file untouched
# (also when only one of the clients' files is foreign, and with --keep).
for extra in "" "--clients 2" "--keep"; do
	# shellcheck disable=SC2086
	expect_refused --one "$d/client-0" "$CCBENCH" fs write -q --file-size 4M --dir $d --reuse $extra
	intact "fs write --reuse $extra"
done
[ ! -e "$FSMNT$d/client-1" ] || fail "a refused run left client-1"

# fs read --reuse without --dir writes into a fresh directory of its own:
# no business here; fs read --dir reads the foreign file and leaves it.
"$CCBENCH" fs read -q --dir $d --block-size 4K >/dev/null 2>r.err ||
	fail "fs read --dir of a foreign file: $(cat r.err)"
intact "fs read --dir"

# A directory whose client files an earlier ccbench run kept: --reuse
# replaces them (they carry the marker) and, without --keep, removes what
# it wrote; the foreign file beside them stays.
d2=/ccbt-reuse2
"$CCBENCH" fs write -q --clients 2 --file-size 1M --block-size 256K --dir $d2 --keep >/dev/null || fail "write --keep"
getfattr --absolute-names --only-values -n user.ccbench "$FSMNT$d2/client-0" | gq '^ccbench ' ||
	fail "kept client-0 carries no ccbench marker"
echo theirs >"$FSMNT$d2/theirs"
"$CCBENCH" fs write -q --clients 2 --file-size 2M --block-size 256K --dir $d2 --reuse --keep >/dev/null ||
	fail "--reuse over an earlier run's kept files"
[ "$(stat -c %s "$FSMNT$d2/client-1")" = 2097152 ] || fail "client-1 not rewritten"
"$CCBENCH" fs write -q --clients 2 --file-size 1M --block-size 256K --dir $d2 --reuse >/dev/null ||
	fail "--reuse without --keep"
[ "$(ls "$FSMNT$d2")" = theirs ] || fail "--reuse left: $(ls "$FSMNT$d2")"
[ "$(cat "$FSMNT$d2/theirs")" = theirs ] || fail "theirs changed"

# fs meta --reuse in a directory without DIR/meta: makes it, removes only it.
"$CCBENCH" fs meta -q -n 1 --dir $d2 --reuse >/dev/null || fail "fs meta --reuse"
[ "$(ls "$FSMNT$d2")" = theirs ] || fail "fs meta --reuse left: $(ls "$FSMNT$d2")"
# An earlier fs meta --keep's tree is refused too: it may hold others' files by now.
"$CCBENCH" fs meta -q -n 1 --dir $d2 --reuse --keep >/dev/null || fail "fs meta --keep"
echo late >"$FSMNT$d2/meta/late"
expect_rc 2 "$CCBENCH" fs meta -q -n 1 --dir $d2 --reuse
[ "$(cat "$FSMNT$d2/meta/late")" = late ] || fail "kept meta tree touched"
rm -rf "${FSMNT:?}$d" "${FSMNT:?}$d2"

# Another CephFS client (the test's ceph-fuse mount) that can write the
# --reuse directory's parent swaps the run's DIR/meta for a symbolic link
# to a victim directory mid-run, then the run is interrupted, so its
# unwind has files of its own to remove. The unwind removes only what the
# run made, found by inode from the directory it made it in: the link is
# not followed, the victim and the foreign file stay, the moved tree is
# emptied of the run's files, and the run says what it left.
s=/ccbt-swap
t0=${EPOCHREALTIME/./}
mkdir -p "$FSMNT$s/u/bench/keep" "$FSMNT$s/victim/sub"
echo v1 >"$FSMNT$s/victim/f00000001"
echo v2 >"$FSMNT$s/victim/precious"
echo v3 >"$FSMNT$s/victim/sub/x"
echo mine >"$FSMNT$s/u/bench/other"
"$CCBENCH" fs meta -n 64:0:0:2 --dir $s/u/bench --reuse >w.out 2>w.err &
pid=$!
has_files() { [ -n "$(ls "$FSMNT$s/u/bench/meta/d00001" 2>/dev/null | head -1)" ]; }
wait_for 30 "the run's first files in $s/u/bench/meta" has_files
mv "$FSMNT$s/u/bench/meta" "$FSMNT$s/u/bench/meta.moved"
ln -s $s/victim "$FSMNT$s/u/bench/meta"
# The run may stop on its own first (its next create finds no DIR/meta).
kill -INT $pid 2>/dev/null || true
poll 30 exited $pid || {
	kill -KILL $pid 2>/dev/null || true
	fail "the swap: the run still going 30 s later (killed): $(tail -5 w.err)"
}
rc=0
wait $pid || rc=$?
[ "$rc" != 0 ] || fail "the swap: the run succeeded"
[ "$(cat "$FSMNT$s/victim/precious")" = v2 ] || fail "the swap: victim/precious removed or changed"
[ "$(cat "$FSMNT$s/victim/f00000001")" = v1 ] || fail "the swap: victim/f00000001 removed or changed"
[ "$(cat "$FSMNT$s/victim/sub/x")" = v3 ] || fail "the swap: victim/sub/x removed or changed"
[ "$(cat "$FSMNT$s/u/bench/other")" = mine ] || fail "the swap: bench/other removed or changed"
[ -d "$FSMNT$s/u/bench/keep" ] || fail "the swap: bench/keep removed"
[ -L "$FSMNT$s/u/bench/meta" ] || fail "the swap: the link itself removed"
grep -q "^ccbench: left $s/u/bench/meta in the file system: it is now a symbolic link" w.err ||
	fail "the swap: no 'left' line for DIR/meta: $(tail -5 w.err)"
# The run's own tree, moved: its files gone (its subdirectories with
# them), the directory itself left where the other client put it.
[ -z "$(ls -A "$FSMNT$s/u/bench/meta.moved")" ] ||
	fail "the swap: the run's moved tree still holds $(ls -A "$FSMNT$s/u/bench/meta.moved" | head -3)"
grep -q "^ccbench: left the directory this run made as $s/u/bench/meta (inode [0-9]*) where another client moved it" w.err ||
	fail "the swap: no 'left' line for the moved tree: $(tail -5 w.err)"
rm -rf "${FSMNT:?}$s"
echo "note: the swap of DIR/meta for a link: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms"

# A link on the way that another client retargets, in one rename, during
# fs meta's delete phase, to a tree holding files of the names the run
# deletes: unlinks by path would take them. The deletes go through the
# inode of the directory the run made (libcephfs), so they take the run's
# own files whatever the link says; the next phase's creates (O_EXCL,
# through the link) meet the other tree's files and the run stops there,
# "File exists", writing nothing (a delete by path that checked its file
# first stopped with "not the file this run made", but one in CI of
# 2026-12-04 was retargeted between its check and its unlink and took a
# file). The unwind, from the inodes, removes the run's own tree.
s=/ccbt-swap2
t0=${EPOCHREALTIME/./}
mkdir -p "$FSMNT$s/real/bench" "$FSMNT$s/evil/bench/meta/d00000" "$FSMNT$s/evil/bench/meta/d00001"
for ((i = 0; i < 1024; i++)); do
	printf -v f "%s/evil/bench/meta/d%05d/f%08d" "$FSMNT$s" $((i % 2)) $i
	: >"$f"
done
ln -s $s/real "$FSMNT$s/u"
"$CCBENCH" fs meta -n 1:0:0:2 --dir $s/u/bench --reuse >w.out 2>w.err &
pid=$!
wait_for 60 "the run's create phase" test -e "$FSMNT$s/real/bench/meta/d00001/f00001023"
wait_for 60 "the run's delete phase" eval "! test -e $FSMNT$s/real/bench/meta/d00000/f00000000"
ln -s $s/evil "$FSMNT$s/u.new"
mv -T "$FSMNT$s/u.new" "$FSMNT$s/u"
poll 30 exited $pid || {
	kill -KILL $pid 2>/dev/null || true
	fail "the retargeted link: the run still going 30 s later (killed): $(tail -5 w.err)"
}
rc=0
wait $pid || rc=$?
n=$(find "$FSMNT$s/evil" -type f | wc -l)
[ "$n" = 1024 ] || fail "the retargeted link: the victim has $n of its 1024 files: $(tail -3 w.err)"
[ "$rc" != 0 ] || fail "the retargeted link: the run succeeded"
grep -q "not the file this run made\|File exists" w.err || fail "the retargeted link: no reason given: $(tail -5 w.err)"
[ -z "$(ls -A "$FSMNT$s/real/bench")" ] ||
	fail "the retargeted link: the run's own tree left: $(ls -A "$FSMNT$s/real/bench")"
rm -rf "${FSMNT:?}$s"
echo "note: the link retargeted in the delete phase: $(((${EPOCHREALTIME/./} - t0) / 1000)) ms; the run stopped on: $(grep -m1 'not the file this run made\|File exists' w.err | cut -c1-160)"
echo "fs reuse: ok"
