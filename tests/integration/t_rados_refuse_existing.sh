# A write never touches objects it did not create: an existing run name is
# refused (exit 2) unless --reuse; foreign objects are never removed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$CCBENCH" rados write -p "$POOL" --max-objects 3 -b 64K --run-name dup --no-cleanup -q >/dev/null
before=$(ns_objects | md5sum)
expect_rc 2 "$CCBENCH" rados write -p "$POOL" --max-objects 2 -b 64K --run-name dup -q
[ "$(ns_objects | md5sum)" = "$before" ] || fail "refused write changed objects"
"$CCBENCH" rados write -p "$POOL" --max-objects 2 -b 64K --run-name dup --reuse -q >/dev/null
# --reuse without --no-cleanup removes the old run's 3 objects too.
[ -z "$(ns_objects)" ] || fail "left: $(ns_objects)"

# Objects in other namespaces, and names that only look like ours, stay.
# (With no dup.meta, cleanup refuses outright: see t_rados_cleanup_foreign;
# here the run exists, so cleanup runs and must still leave them.)
"$CCBENCH" rados write -p "$POOL" --max-objects 1 -b 64K --run-name dup --no-cleanup -q >/dev/null
rados -p "$POOL" put dup.00000000 /etc/hostname
rados -p "$POOL" -N ccbench put dup.notours /etc/hostname
rados -p "$POOL" -N ccbench put dup.0000000x /etc/hostname
"$CCBENCH" cleanup -p "$POOL" --run-name dup >/dev/null
rados -p "$POOL" stat dup.00000000 >/dev/null || fail "removed an object of the default namespace"
rados -p "$POOL" -N ccbench stat dup.notours >/dev/null || fail "removed a foreign object"
rados -p "$POOL" -N ccbench stat dup.0000000x >/dev/null || fail "removed a foreign object"
[ "$(ns_objects | tr '\n' ' ')" = "dup.0000000x dup.notours " ] || fail "cleanup left or took: $(ns_objects)"
rados -p "$POOL" rm dup.00000000
rados -p "$POOL" -N ccbench rm dup.notours
rados -p "$POOL" -N ccbench rm dup.0000000x
# --all-runs takes only runs that carry a ccbench meta header.
"$CCBENCH" rados write -p "$POOL" --max-objects 2 -b 64K --run-name a1 --no-cleanup -q >/dev/null
"$CCBENCH" rados write -p "$POOL" --max-objects 2 -b 64K --run-name a2 --no-cleanup -q >/dev/null
echo '{}' >fake.meta
rados -p "$POOL" -N ccbench put fake.meta fake.meta
"$CCBENCH" cleanup -p "$POOL" --all-runs >/dev/null
[ "$(ns_objects)" = fake.meta ] || fail "--all-runs: $(ns_objects | tr '\n' ' ')"
rados -p "$POOL" -N ccbench rm fake.meta
