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
getfattr --absolute-names --only-values -n user.ccbench "$FSMNT$d2/client-0" | grep -q '^ccbench ' ||
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
echo "fs reuse: ok"
