# An unreachable cluster ends with an error after --connect-timeout, never a hang.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dead_conf
timed "$CCBENCH" rados write -p "$POOL" -c dead.conf --connect-timeout 3s -q
[ "$RC" = 1 ] || fail "exit $RC"
[ "$ELAPSED" -ge 2 ] && [ "$ELAPSED" -le 8 ] || fail "took $ELAPSED s"
msg=$("$CCBENCH" rados write -p "$POOL" -c dead.conf --connect-timeout 2s -q 2>&1 || true)
printf '%s' "$msg" | gq -i "rados_connect.*timed out" || fail "message: $msg"
