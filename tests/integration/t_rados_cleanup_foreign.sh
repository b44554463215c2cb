# cleanup --run-name X with no X.meta: nothing shows that X.<digits> objects
# are ccbench's, so it refuses and touches nothing; --force removes them.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

for i in 00000000 00000001; do
	rados -p "$POOL" -N ccbench put "foreign.$i" /etc/hostname
done
rc=0
"$CCBENCH" cleanup -p "$POOL" --run-name foreign >c.out 2>c.err || rc=$?
[ "$rc" = 1 ] || fail "cleanup without meta: exit $rc"
grep -q "not touching them" c.err || fail "message: $(cat c.err)"
[ "$(ns_objects | tr '\n' ' ')" = "foreign.00000000 foreign.00000001 " ] || fail "objects touched: $(ns_objects)"
"$CCBENCH" cleanup -p "$POOL" --run-name foreign --force >/dev/null
[ -z "$(ns_objects)" ] || fail "--force left: $(ns_objects)"
